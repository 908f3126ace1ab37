//! `POST /api/marahel/range`: the expressive range of a script over N seeds, as Danesh shows
//! it: a heat map over any two metrics of grid-core's registry
//! ([`grid_core::metrics::registry`], the list `levelgen analyze --x/--y` offers; empty
//! fraction x regions by default) and a histogram of block entropy, as data the page draws,
//! with each map's heat-map cell so a click on a cell can show its maps.

use super::marahel::{EMPTY_NAMES, Metrics, asked_size, compile, generate, metrics, size_of};
use super::{Endpoint, MAP_BYTES_PER_CELL, Output};
use crate::error::{StudioError, within};
use crate::limits::{MAX_CELLS, MAX_RANGE_CELLS, MAX_RANGE_MAPS};
use crate::work::{Cost, Job};
use grid_core::TileMap;
use grid_core::metrics::registry::{self, MetricDef};
use grid_core::metrics::{EmptySet, MetricsScratch};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Bins on each axis of the heat map and of the entropy histogram.
pub const BINS: usize = 20;

/// The body of `POST /api/marahel/range`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeRequest {
    /// The script text.
    pub script: String,
    /// Maps use seeds `seed .. seed + count`, which must not pass `u64::MAX`.
    #[serde(default)]
    pub seed: u64,
    /// Map width (with `height`), else the script's size range.
    pub width: Option<usize>,
    /// Map height.
    pub height: Option<usize>,
    /// Overrides `path=value`.
    #[serde(default)]
    pub set: Vec<String>,
    /// Number of maps (1..=500).
    #[serde(default = "two_hundred")]
    pub count: usize,
    /// The heat map's metric across, by its registry name.
    #[serde(default = "empty_fraction")]
    pub x: String,
    /// The heat map's metric up.
    #[serde(default = "regions")]
    pub y: String,
}

fn two_hundred() -> usize {
    200
}
fn empty_fraction() -> String {
    "empty_fraction".to_string()
}
fn regions() -> String {
    "regions".to_string()
}

/// One axis of the heat map: its metric and the span its bins cover.
#[derive(Debug, Serialize)]
pub struct Axis {
    /// The metric's registry name.
    pub metric: &'static str,
    /// Lower edge of the first bin.
    pub min: f64,
    /// Upper edge of the last bin.
    pub max: f64,
    /// Bins.
    pub bins: usize,
}

/// The heat map: counts of maps per (x, y) bin.
#[derive(Debug, Serialize)]
pub struct Heat {
    /// Across (columns).
    pub x: Axis,
    /// Up (rows, row 0 = lowest values).
    pub y: Axis,
    /// `y.bins` rows of `x.bins` counts.
    pub counts: Vec<Vec<u32>>,
}

/// The answer.
#[derive(Debug, Serialize)]
pub struct RangeResponse {
    /// Maps measured.
    pub count: usize,
    /// Each map's `[empty_fraction, regions, block_entropy]`, in seed order.
    pub points: Vec<[f64; 3]>,
    /// Each map's `[x, y]` values on the heat map's metrics, in seed order.
    pub values: Vec<[f64; 2]>,
    /// Each map's heat-map cell, `row * x.bins + column`, in seed order (map `i` has seed
    /// `seed + i`).
    pub cells: Vec<usize>,
    /// The heat map over the two metrics.
    pub heat: Heat,
    /// Counts of maps per block-entropy bin over `[0, 1]` bits.
    pub entropy: Vec<u32>,
    /// Maps whose generation gave warnings.
    pub maps_with_warnings: usize,
}

/// One map's measurements.
#[derive(Debug)]
pub struct Measured {
    /// The metrics every answer carries.
    pub metrics: Metrics,
    /// Its values on the heat map's two metrics.
    pub axes: [f64; 2],
}

fn bin(v: f64, bins: usize) -> usize {
    ((v.clamp(0.0, 1.0) * bins as f64) as usize).min(bins - 1)
}

/// A metric of the registry by name, or bad input at `field` listing the names.
pub fn metric(field: &str, name: &str) -> Result<&'static MetricDef, StudioError> {
    registry::find(name).ok_or_else(|| {
        StudioError::input(
            format!("body.{field}"),
            format!(
                "{}: not a metric (known: {})",
                grid_core::text::excerpt(name),
                registry::names()
            ),
        )
    })
}

/// The span of values `k`, as `levelgen analyze` draws ([`registry::span`]).
fn span(values: &[[f64; 2]], k: usize) -> (f64, f64) {
    registry::span(values.iter().map(|v| v[k]))
}

/// Bins the measurements of the maps over the metrics `x` and `y`.
pub fn summarise(
    all: &[Measured],
    (x, y): (&'static MetricDef, &'static MetricDef),
    warned: usize,
) -> RangeResponse {
    let values: Vec<[f64; 2]> = all.iter().map(|m| m.axes).collect();
    let spans = [span(&values, 0), span(&values, 1)];
    let at = |v: f64, (lo, hi): (f64, f64)| {
        (((v - lo) / (hi - lo) * BINS as f64) as usize).min(BINS - 1)
    };
    let mut counts = vec![vec![0u32; BINS]; BINS];
    let mut entropy = vec![0u32; BINS];
    let mut cells = Vec::with_capacity(all.len());
    for m in all {
        let (col, row) = (at(m.axes[0], spans[0]), at(m.axes[1], spans[1]));
        counts[row][col] += 1;
        cells.push(row * BINS + col);
        entropy[bin(m.metrics.block_entropy, BINS)] += 1;
    }
    let axis = |def: &'static MetricDef, (min, max): (f64, f64)| Axis {
        metric: def.name,
        min,
        max,
        bins: BINS,
    };
    RangeResponse {
        count: all.len(),
        points: all
            .iter()
            .map(|m| {
                let m = &m.metrics;
                [m.empty_fraction, m.regions as f64, m.block_entropy]
            })
            .collect(),
        values,
        cells,
        heat: Heat {
            x: axis(x, spans[0]),
            y: axis(y, spans[1]),
            counts,
        },
        entropy,
        maps_with_warnings: warned,
    }
}

/// The seeds of a range: `seed ..= seed + count - 1`, or bad input when that passes
/// `u64::MAX` (seeds never wrap around).
pub fn seeds(seed: u64, count: usize) -> Result<std::ops::RangeInclusive<u64>, StudioError> {
    if count == 0 {
        return Err(StudioError::input("body.count", "expected 1 or more maps"));
    }
    within("maps", count, MAX_RANGE_MAPS)?;
    let last = seed.checked_add(count as u64 - 1).ok_or_else(|| {
        StudioError::input(
            "body.seed",
            format!(
                "{count} maps from seed {seed} would pass the last seed, {}",
                u64::MAX
            ),
        )
    })?;
    Ok(seed..=last)
}

impl Endpoint for RangeRequest {
    /// Every map's cells; in memory, the maps generated at once (one per thread).
    fn cost(&self) -> Result<Cost, StudioError> {
        seeds(self.seed, self.count)?;
        metric("x", &self.x)?;
        metric("y", &self.y)?;
        let size = asked_size(self.width, self.height)?;
        let per_map = size.map_or(MAX_CELLS, |(w, h)| w * h);
        if size.is_some() {
            within("maps x cells", self.count * per_map, MAX_RANGE_CELLS)?;
        }
        let at_once = self.count.min(rayon::current_num_threads()) as u64;
        Ok(Cost {
            memory: at_once * per_map as u64 * MAP_BYTES_PER_CELL + self.count as u64 * 256,
            cells: (self.count * per_map) as u64,
        })
    }

    fn run(self, job: &Job) -> Result<Output, StudioError> {
        run(self, job)
    }
}

/// The values of `map` on the metrics `x` and `y`; the ones `m` already holds are read from it.
fn axes(map: &marahel::MarahelMap, m: &Metrics, defs: [&'static MetricDef; 2]) -> [f64; 2] {
    let empty = EmptySet::from_names_present(map.legend(), &EMPTY_NAMES);
    defs.map(|def| match def.name {
        "empty_fraction" => m.empty_fraction,
        "regions" => m.regions as f64,
        "block_entropy" => m.block_entropy,
        _ => def.measure(map, &empty),
    })
}

/// Runs a request (on the blocking pool): maps in parallel, results in seed order. Checks
/// `job` before every map.
pub fn run(req: RangeRequest, job: &Job) -> Result<Output, StudioError> {
    let seeds = seeds(req.seed, req.count)?;
    let defs = [metric("x", &req.x)?, metric("y", &req.y)?];
    let script = compile(&req.script, &req.set)?;
    let size = size_of(&script, req.width, req.height)?;
    let ((_, _), (mw, mh)) = script.size_range();
    let cells = size.map_or(mw * mh, |(w, h)| w * h);
    within("maps x cells", req.count * cells, MAX_RANGE_CELLS)?;
    let first = *seeds.start();
    let results: Vec<Result<(Measured, bool), StudioError>> = (0..req.count as u64)
        .into_par_iter()
        .map_init(MetricsScratch::new, |scratch, i| {
            job.check()?;
            // Checked above: `first + i` is at most the range's last seed.
            let seed = first + i;
            let map = generate(&script, seed, size, &req.script)?;
            let metrics = metrics(&map, scratch);
            let axes = axes(&map, &metrics, defs);
            Ok((Measured { metrics, axes }, !map.warnings.is_empty()))
        })
        .collect();
    let mut all = Vec::with_capacity(results.len());
    let mut warned = 0;
    for r in results {
        let (m, w) = r?;
        warned += usize::from(w);
        all.push(m);
    }
    Output::json(summarise(&all, (defs[0], defs[1]), warned))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(e: f64, r: usize, h: f64) -> Measured {
        Measured {
            metrics: Metrics {
                empty_fraction: e,
                regions: r,
                block_entropy: h,
            },
            axes: [e, r as f64],
        }
    }

    fn paper() -> (&'static MetricDef, &'static MetricDef) {
        (
            registry::find("empty_fraction").unwrap(),
            registry::find("regions").unwrap(),
        )
    }

    #[test]
    fn seeds_run_to_the_last_u64_and_never_wrap() {
        assert_eq!(seeds(u64::MAX, 1), Ok(u64::MAX..=u64::MAX));
        assert_eq!(seeds(u64::MAX - 2, 3), Ok(u64::MAX - 2..=u64::MAX));
        let e = seeds(u64::MAX - 1, 3).unwrap_err();
        assert!(e.to_string().starts_with("body.seed: 3 maps"), "{e}");
        assert!(seeds(0, 0).is_err() && seeds(0, 501).is_err());
    }

    #[test]
    fn bins_span_the_values_seen_and_cells_name_each_map() {
        let s = summarise(
            &[m(0.0, 0, 0.0), m(1.0, 3, 1.0), m(0.5, 1, 0.49)],
            paper(),
            1,
        );
        assert_eq!(
            (s.heat.x.metric, s.heat.y.metric),
            ("empty_fraction", "regions")
        );
        assert_eq!((s.heat.x.min, s.heat.y.min), (0.0, 0.0));
        assert!(s.heat.y.max > 3.0 && s.heat.y.max < 3.0001);
        assert_eq!(s.heat.counts[0][0], 1);
        assert_eq!(s.heat.counts[BINS - 1][BINS - 1], 1);
        // The span's top is widened a hair so the largest value falls in the last bin: 0.5
        // of [0, 1 + 1e-9) is just under column 10, 1 of [0, 3 + 3e-9) in row 6.
        assert_eq!(s.heat.counts[6][9], 1);
        assert_eq!(s.cells, vec![0, BINS * BINS - 1, 6 * BINS + 9]);
        assert_eq!(s.values[2], [0.5, 1.0]);
        assert_eq!(s.entropy[0], 1);
        assert_eq!(s.entropy[9], 1);
        assert_eq!(s.entropy[BINS - 1], 1);
        assert_eq!(s.maps_with_warnings, 1);
    }

    #[test]
    fn a_flat_axis_is_one_unit_wide() {
        let all: Vec<Measured> = (0..10).map(|_| m(0.3, 1, 0.5)).collect();
        let s = summarise(&all, paper(), 0);
        assert_eq!((s.heat.y.min, s.heat.y.max), (0.5, 1.5));
        assert!(s.cells.iter().all(|&c| c == s.cells[0]));
        assert_eq!(s.heat.counts.iter().flatten().sum::<u32>(), 10);
    }

    #[test]
    fn unknown_metrics_are_named_with_the_list() {
        let e = metric("x", "nonsense").unwrap_err().to_string();
        assert!(
            e.starts_with("body.x: \"nonsense\": not a metric (known: empty_fraction"),
            "{e}"
        );
    }
}
