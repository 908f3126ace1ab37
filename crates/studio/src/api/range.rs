//! `POST /api/marahel/range`: the expressive range of a script over N seeds, as Danesh shows
//! it: a heat map of empty fraction x regions and a histogram of block entropy, as data the
//! page draws.

use super::marahel::{Metrics, asked_size, compile, generate, metrics, size_of};
use super::{Endpoint, MAP_BYTES_PER_CELL, Output};
use crate::error::{StudioError, within};
use crate::limits::{MAX_CELLS, MAX_RANGE_CELLS, MAX_RANGE_MAPS};
use crate::work::{Cost, Job};
use grid_core::metrics::MetricsScratch;
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
}

fn two_hundred() -> usize {
    200
}

/// The heat map: counts of maps per (empty fraction, regions) bin.
#[derive(Debug, Serialize)]
pub struct Heat {
    /// Bins of empty fraction over `[0, 1]` (columns).
    pub empty_bins: usize,
    /// Bins of regions over `[0, regions_max]` (rows, row 0 = fewest regions).
    pub region_bins: usize,
    /// The largest region count seen.
    pub regions_max: usize,
    /// `region_bins` rows of `empty_bins` counts.
    pub counts: Vec<Vec<u32>>,
}

/// The answer.
#[derive(Debug, Serialize)]
pub struct RangeResponse {
    /// Maps measured.
    pub count: usize,
    /// Each map's `[empty_fraction, regions, block_entropy]`, in seed order.
    pub points: Vec<[f64; 3]>,
    /// Empty fraction x regions.
    pub heat: Heat,
    /// Counts of maps per block-entropy bin over `[0, 1]` bits.
    pub entropy: Vec<u32>,
    /// Maps whose generation gave warnings.
    pub maps_with_warnings: usize,
}

fn bin(v: f64, bins: usize) -> usize {
    ((v.clamp(0.0, 1.0) * bins as f64) as usize).min(bins - 1)
}

/// Bins the metrics of the maps.
pub fn summarise(all: &[Metrics], warned: usize) -> RangeResponse {
    let regions_max = all.iter().map(|m| m.regions).max().unwrap_or(0);
    let region_bins = (regions_max + 1).min(BINS);
    let mut counts = vec![vec![0u32; BINS]; region_bins];
    let mut entropy = vec![0u32; BINS];
    for m in all {
        let row = m.regions * region_bins / (regions_max + 1);
        counts[row][bin(m.empty_fraction, BINS)] += 1;
        entropy[bin(m.block_entropy, BINS)] += 1;
    }
    RangeResponse {
        count: all.len(),
        points: all
            .iter()
            .map(|m| [m.empty_fraction, m.regions as f64, m.block_entropy])
            .collect(),
        heat: Heat {
            empty_bins: BINS,
            region_bins,
            regions_max,
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

/// Runs a request (on the blocking pool): maps in parallel, results in seed order. Checks
/// `job` before every map.
pub fn run(req: RangeRequest, job: &Job) -> Result<Output, StudioError> {
    let seeds = seeds(req.seed, req.count)?;
    let script = compile(&req.script, &req.set)?;
    let size = size_of(&script, req.width, req.height)?;
    let ((_, _), (mw, mh)) = script.size_range();
    let cells = size.map_or(mw * mh, |(w, h)| w * h);
    within("maps x cells", req.count * cells, MAX_RANGE_CELLS)?;
    let first = *seeds.start();
    let results: Vec<Result<(Metrics, bool), StudioError>> = (0..req.count as u64)
        .into_par_iter()
        .map_init(MetricsScratch::new, |scratch, i| {
            job.check()?;
            // Checked above: `first + i` is at most the range's last seed.
            let seed = first + i;
            let map = generate(&script, seed, size, &req.script)?;
            Ok((metrics(&map, scratch), !map.warnings.is_empty()))
        })
        .collect();
    let mut all = Vec::with_capacity(results.len());
    let mut warned = 0;
    for r in results {
        let (m, w) = r?;
        warned += usize::from(w);
        all.push(m);
    }
    Output::json(summarise(&all, warned))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(e: f64, r: usize, h: f64) -> Metrics {
        Metrics {
            empty_fraction: e,
            regions: r,
            block_entropy: h,
        }
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
    fn bins_cover_the_extremes() {
        let s = summarise(&[m(0.0, 0, 0.0), m(1.0, 3, 1.0), m(0.5, 1, 0.49)], 1);
        assert_eq!(s.heat.regions_max, 3);
        assert_eq!(s.heat.region_bins, 4);
        assert_eq!(s.heat.counts[0][0], 1);
        assert_eq!(s.heat.counts[3][BINS - 1], 1);
        assert_eq!(s.heat.counts[1][10], 1);
        assert_eq!(s.entropy[0], 1);
        assert_eq!(s.entropy[9], 1);
        assert_eq!(s.entropy[BINS - 1], 1);
        assert_eq!(s.entropy.iter().sum::<u32>(), 3);
        assert_eq!(s.maps_with_warnings, 1);
    }

    #[test]
    fn many_regions_share_twenty_rows() {
        let all: Vec<Metrics> = (0..100).map(|r| m(0.3, r, 0.5)).collect();
        let s = summarise(&all, 0);
        assert_eq!(s.heat.region_bins, BINS);
        let per_row: Vec<u32> = s.heat.counts.iter().map(|r| r.iter().sum()).collect();
        assert!(per_row.iter().all(|&n| n == 5), "{per_row:?}");
    }
}
