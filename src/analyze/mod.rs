//! Expressive-range analysis: generate many maps, measure each, summarise and plot.
//!
//! The pipeline is **open** (a generator adapter reads its input: a Marahel script, a Heroes
//! template, ...) -> **sample** (a [`Batch`] over the seeds; each worker generates a map and
//! measures it with [`grid_core::metrics`] through its own [`Probe`]) -> **summarise**
//! ([`summary`]) -> **plot** ([`plot`]). Every generator is measured the same way through
//! [`grid_core::TileMap`]; an adapter adds the extras its crate exposes.
//!
//! | generator | input | default empty tiles | extras |
//! |---|---|---|---|
//! | `marahel` | a Marahel JSON script | `empty`, `floor` and what stands on them (`player`, `enemy`, `treasure`, `exit`, `gold`, `coin`, `key`) where the script has them | unknown tiles, warnings |
//! | `heroes` | a template JSON (`--size` 32/64/128/256, default 128) | the walkable cells | zone-area error (max, mean), objects, reachable objects, forced portals, portals for crossing connections, removed objects, terrain features, share of obstacles in border ridges |
//! | `mario` | `builtin`, `builtin@D` (difficulty 1 to 5 or a ramp `A:B`) or a room-library directory (reference layout: reference config) | cells Mario passes through (air, markers, coins, enemies) | gaps, gap columns, enemies per 100 columns, height changes, checker jumps, special enemies, playable, longest jump; several `builtin@D` inputs also draw `difficulty.png` |
//! | `zones` | a `ZoneConfig` JSON, `default` or `seamless` (`--size` zones per side, default 20) | `off` cells | distinct states and symmetry classes, all-off/all-on zones, border mismatches (pairs, cells) |

pub mod axes;
pub mod heroes;
pub mod marahel;
pub mod mario;
pub mod plot;
pub mod summary;
pub mod zones;

use crate::batch::{Batch, SeedRange};
use grid_core::metrics::{BlockGrid, EmptySet, MapMetrics, MetricsError, MetricsScratch};
use grid_core::{Legend, TileMap};
use std::path::Path;
use std::time::Instant;
use thiserror::Error;

/// Most extra columns an adapter may report.
pub const MAX_EXTRAS: usize = 12;

/// The generators `levelgen analyze` knows, by their CLI names.
pub const GENERATORS: [&str; 4] = ["marahel", "heroes", "mario", "zones"];

/// An analysis failure.
#[derive(Debug, Error)]
pub enum AnalyzeError {
    /// The generator name is not one of [`GENERATORS`].
    #[error("unknown generator {} (expected one of: marahel, heroes, mario, zones)", grid_core::text::excerpt(.0))]
    UnknownGenerator(String),
    /// The generator's crate does not expose what the analysis needs yet.
    #[error("generator {} cannot be analysed yet: {}", grid_core::text::excerpt(.0), .1)]
    Unsupported(String, String),
    /// The input could not be read or parsed.
    #[error("{path}: {message}")]
    Input {
        /// The input file.
        path: String,
        /// What was wrong.
        message: String,
    },
    /// The empty-tile names or block grid do not fit the generated maps.
    #[error("seed {seed}: {source}")]
    Metrics {
        /// The first seed whose map did not fit.
        seed: u64,
        /// Why.
        source: MetricsError,
    },
    /// Every map failed to generate.
    #[error("{label}: all {count} maps failed; first (seed {seed}): {message}")]
    AllFailed {
        /// The input's label.
        label: String,
        /// How many maps were attempted.
        count: u64,
        /// The first failing seed.
        seed: u64,
        /// Its error.
        message: String,
    },
    /// An output file could not be written.
    #[error("{path}: {message}")]
    Output {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
}

impl AnalyzeError {
    /// Whether the error is the input's fault (CLI exit code 2) rather than the output's.
    pub fn is_input(&self) -> bool {
        !matches!(self, AnalyzeError::Output { .. })
    }

    /// An input error about `path`.
    pub fn input(path: &Path, message: impl std::fmt::Display) -> Self {
        AnalyzeError::Input {
            path: path.display().to_string(),
            message: message.to_string(),
        }
    }
}

/// Why one map produced no row.
#[derive(Debug)]
pub enum SampleError {
    /// The generator failed on this seed: counted, and the batch goes on.
    Generation(String),
    /// The metrics set-up does not fit the map: the whole run stops.
    Metrics(MetricsError),
}

impl From<MetricsError> for SampleError {
    fn from(e: MetricsError) -> Self {
        SampleError::Metrics(e)
    }
}

/// One measured map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// The map's seed.
    pub seed: u64,
    /// The shared metrics.
    pub metrics: MapMetrics,
    /// The adapter's extras, in the order of [`Subject::extra_names`].
    pub extras: [f64; MAX_EXTRAS],
    /// Seconds spent generating the map.
    pub gen_secs: f64,
    /// Seconds spent measuring it (metrics and extras).
    pub measure_secs: f64,
    /// Its values on the heat map's axes ([`Settings::axes`]).
    pub axes: [f64; 2],
}

/// Which tiles count as empty, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyNames {
    /// The names.
    pub names: Vec<String>,
    /// Whether every name must be in each map's legend (names given by the user) or names
    /// a legend lacks are skipped (a generator's defaults).
    pub strict: bool,
}

impl EmptyNames {
    /// A generator's default empty names (names its legend lacks are skipped).
    pub fn defaults(subject: &dyn Subject) -> Self {
        Self {
            names: subject
                .default_empty()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            strict: false,
        }
    }
}

/// A histogram an adapter fills per map and the batch adds up (for example the zone states),
/// written as `DIR/<file>` with one row per bin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistogramSpec {
    /// Output file name (`zone_states.csv`).
    pub file: &'static str,
    /// CSV header of the label columns (`state,cells,class`).
    pub header: &'static str,
    /// One CSV label per bin, matching `header`.
    pub labels: Vec<String>,
}

/// What to measure, shared by every worker.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The seeds of the batch.
    pub seeds: SeedRange,
    /// Empty-tile names; `None` takes each generator's default.
    pub empty: Option<Vec<String>>,
    /// The entropy block grid.
    pub blocks: BlockGrid,
    /// No progress bar.
    pub quiet: bool,
    /// The heat map's two metrics.
    pub axes: axes::Axes,
}

/// A worker's measuring kit: metric buffers and the empty set of the last legend seen.
#[derive(Debug)]
pub struct Probe {
    /// This map's histogram counts, for adapters with a [`Subject::histogram`]; cleared by
    /// [`Probe::generate`], added up over the batch.
    pub counts: Vec<u32>,
    scratch: MetricsScratch,
    names: EmptyNames,
    blocks: BlockGrid,
    legend: Option<Legend>,
    empty: EmptySet,
    started: Instant,
    axes: axes::Axes,
    axis_values: [f64; 2],
}

impl Probe {
    /// A probe for `names` on a `blocks` grid.
    pub fn new(names: EmptyNames, blocks: BlockGrid) -> Self {
        Self {
            counts: Vec::new(),
            scratch: MetricsScratch::new(),
            names,
            blocks,
            legend: None,
            empty: EmptySet::default(),
            started: Instant::now(),
            axes: axes::Axes::default(),
            axis_values: [0.0; 2],
        }
    }

    /// This probe, measuring `axes` for the heat map too.
    pub fn with_axes(mut self, axes: axes::Axes) -> Self {
        self.axes = axes;
        self
    }

    /// Runs `generate`, timing it; starts the measuring clock when it returns.
    pub fn generate<T, E: std::fmt::Display>(
        &mut self,
        generate: impl FnOnce() -> Result<T, E>,
    ) -> Result<(T, f64), SampleError> {
        self.counts.clear();
        let t = Instant::now();
        let out = generate().map_err(|e| SampleError::Generation(e.to_string()))?;
        let secs = t.elapsed().as_secs_f64();
        self.started = Instant::now();
        Ok((out, secs))
    }

    /// The shared metrics of `map` (the empty set is rebuilt only when the legend changes).
    pub fn measure<M: TileMap>(&mut self, map: &M) -> Result<MapMetrics, MetricsError> {
        if self.legend.as_ref() != Some(map.legend()) {
            let names: Vec<&str> = self.names.names.iter().map(String::as_str).collect();
            if self.names.strict {
                self.empty.rebuild(map.legend(), &names)?;
            } else {
                self.empty = EmptySet::from_names_present(map.legend(), &names);
            }
            self.legend = Some(map.legend().clone());
        }
        let metrics = self.scratch.measure(map, &self.empty, self.blocks);
        self.axis_values = self.axes.values(map, &self.empty, &metrics);
        Ok(metrics)
    }

    /// Finishes a row: `extras` in [`Subject::extra_names`] order, the measuring time since
    /// [`Probe::generate`] returned.
    pub fn row(&self, seed: u64, metrics: MapMetrics, extras: &[f64], gen_secs: f64) -> Row {
        assert!(
            extras.len() <= MAX_EXTRAS,
            "an adapter reports at most MAX_EXTRAS extras"
        );
        let mut e = [0.0; MAX_EXTRAS];
        for (slot, v) in e.iter_mut().zip(extras) {
            *slot = *v;
        }
        Row {
            seed,
            metrics,
            extras: e,
            gen_secs,
            measure_secs: self.started.elapsed().as_secs_f64(),
            axes: self.axis_values,
        }
    }
}

/// A generator set up from one input, ready to produce measured maps.
pub trait Subject: Send + Sync {
    /// A short name for tables and plots (the input's file stem).
    fn label(&self) -> &str;
    /// Tile names that count as empty unless the user says otherwise.
    fn default_empty(&self) -> &'static [&'static str];
    /// Names of the adapter's extra columns (at most [`MAX_EXTRAS`]).
    fn extra_names(&self) -> &'static [&'static str];
    /// Generates and measures the map of `seed`.
    fn sample(&self, seed: u64, probe: &mut Probe) -> Result<Row, SampleError>;
    /// The batch histogram this adapter fills into [`Probe::counts`], if any.
    fn histogram(&self) -> Option<HistogramSpec> {
        None
    }
}

/// How to open an input, beyond the file itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Map size for generators that take one (Heroes: side 32/64/128/256; zones: window
    /// side in zones). `None`: the adapter's default.
    pub size: Option<u32>,
    /// The Heroes generation config (JSON file); `None`: the crate's built-in config. Other
    /// generators take none.
    pub config: Option<std::path::PathBuf>,
}

/// Opens `input` for `generator` (one of [`GENERATORS`]; `heroes-zones`, `mario-rooms` and
/// `zone-tiles` are accepted too).
pub fn open(
    generator: &str,
    input: &Path,
    options: &OpenOptions,
) -> Result<Box<dyn Subject>, AnalyzeError> {
    if let Some(config) = &options.config
        && !matches!(generator, "heroes" | "heroes-zones")
    {
        return Err(AnalyzeError::input(
            config,
            format!("--config: only the heroes generator takes a config, not {generator}"),
        ));
    }
    match generator {
        "marahel" => Ok(Box::new(marahel::MarahelSubject::open(input)?)),
        "heroes" | "heroes-zones" => heroes::open(input, options),
        "mario" | "mario-rooms" => mario::open(input, options),
        "zones" | "zone-tiles" => zones::open(input, options),
        other => Err(AnalyzeError::UnknownGenerator(other.to_string())),
    }
}

/// The label of an input: its file stem.
pub fn label_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Reads an input file as text.
pub fn read_input(path: &Path) -> Result<String, AnalyzeError> {
    std::fs::read_to_string(path).map_err(|e| AnalyzeError::input(path, e))
}

/// The measured maps of one input.
#[derive(Clone, Debug)]
pub struct Run {
    /// The input's label.
    pub label: String,
    /// Names of the extra columns.
    pub extra_names: Vec<String>,
    /// Measured maps in seed order.
    pub rows: Vec<Row>,
    /// Seeds that failed to generate, with their errors, in seed order.
    pub failures: Vec<(u64, String)>,
    /// Wall-clock seconds of the whole batch.
    pub wall_secs: f64,
    /// Threads in the pool that ran it.
    pub threads: usize,
    /// The adapter's histogram summed over the measured maps, if it has one.
    pub histogram: Option<(HistogramSpec, Vec<u64>)>,
}

/// Generates and measures the maps of `settings.seeds` in parallel.
pub fn analyze(subject: &dyn Subject, settings: &Settings) -> Result<Run, AnalyzeError> {
    let names = match &settings.empty {
        Some(n) => EmptyNames {
            names: n.clone(),
            strict: true,
        },
        None => EmptyNames::defaults(subject),
    };
    let batch = Batch::new(settings.seeds)
        .quiet(settings.quiet)
        .label(subject.label());
    let start = Instant::now();
    let mut rows = Vec::with_capacity(settings.seeds.len().min(1 << 20) as usize);
    let mut failures = Vec::new();
    let spec = subject.histogram();
    let mut totals = vec![0u64; spec.as_ref().map_or(0, |h| h.labels.len())];
    batch.for_each_ordered(
        || Probe::new(names.clone(), settings.blocks).with_axes(settings.axes),
        |probe, seed| {
            let out = subject.sample(seed, probe);
            let counts = (!probe.counts.is_empty()).then(|| std::mem::take(&mut probe.counts));
            (out, counts)
        },
        |seed, (out, counts)| match out {
            Ok(row) => {
                rows.push(row);
                for (t, c) in totals.iter_mut().zip(counts.iter().flatten()) {
                    *t += u64::from(*c);
                }
                Ok(())
            }
            Err(SampleError::Generation(message)) => {
                failures.push((seed, message));
                Ok(())
            }
            Err(SampleError::Metrics(source)) => Err(AnalyzeError::Metrics { seed, source }),
        },
    )?;
    let wall_secs = start.elapsed().as_secs_f64();
    if rows.is_empty()
        && let Some((seed, message)) = failures.first()
    {
        return Err(AnalyzeError::AllFailed {
            label: subject.label().to_string(),
            count: settings.seeds.len(),
            seed: *seed,
            message: message.clone(),
        });
    }
    Ok(Run {
        label: subject.label().to_string(),
        extra_names: subject
            .extra_names()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
        failures,
        wall_secs,
        threads: rayon::current_num_threads(),
        histogram: spec.map(|h| (h, totals)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::{TileGrid, TileKind};

    /// A toy generator: a 10x10 map whose first `seed % 10` rows are empty.
    struct Rows;

    impl Subject for Rows {
        fn label(&self) -> &str {
            "rows"
        }
        fn default_empty(&self) -> &'static [&'static str] {
            &["empty", "absent"]
        }
        fn extra_names(&self) -> &'static [&'static str] {
            &["empty_rows"]
        }
        fn sample(&self, seed: u64, probe: &mut Probe) -> Result<Row, SampleError> {
            let (map, secs) = probe.generate(|| {
                if seed == 13 {
                    return Err("unlucky");
                }
                let legend = Legend::new(vec![
                    TileKind::new("empty", '.', [255; 3]),
                    TileKind::new("wall", '#', [0; 3]),
                ]);
                let mut m = TileGrid::new(10, 10, 1, legend);
                for y in 0..(seed % 10) as usize {
                    for x in 0..10 {
                        m.tiles.set(x, y, 0);
                    }
                }
                Ok(m)
            })?;
            let metrics = probe.measure(&map)?;
            Ok(probe.row(seed, metrics, &[(seed % 10) as f64], secs))
        }
    }

    fn settings(seeds: &str, empty: Option<Vec<String>>) -> Settings {
        Settings {
            seeds: seeds.parse().unwrap(),
            empty,
            blocks: BlockGrid::PAPER,
            quiet: true,
            axes: axes::Axes::default(),
        }
    }

    #[test]
    fn rows_failures_and_order() {
        let run = analyze(&Rows, &settings("10..20", None)).unwrap();
        assert_eq!(run.rows.len(), 9);
        assert_eq!(run.failures, vec![(13, "unlucky".to_string())]);
        let seeds: Vec<u64> = run.rows.iter().map(|r| r.seed).collect();
        assert_eq!(seeds, vec![10, 11, 12, 14, 15, 16, 17, 18, 19]);
        let r = &run.rows[2];
        assert_eq!(r.metrics.empty_tiles, 20);
        assert_eq!(r.metrics.regions, 1);
        assert_eq!(r.extras[0], 2.0);
        assert_eq!(run.rows[0].metrics.regions, 0);
        assert_eq!(run.extra_names, vec!["empty_rows"]);
    }

    #[test]
    fn strict_names_stop_the_run_with_the_first_seed() {
        let e = analyze(&Rows, &settings("3..9", Some(vec!["floor".into()]))).unwrap_err();
        assert!(matches!(e, AnalyzeError::Metrics { seed: 3, .. }), "{e}");
        assert!(e.is_input());
        let all_fail = analyze(&Rows, &settings("13..14", None)).unwrap_err();
        assert!(matches!(all_fail, AnalyzeError::AllFailed { seed: 13, .. }));
    }

    #[test]
    fn unknown_generator_is_an_input_error() {
        let e = match open("nethack", Path::new("x.json"), &OpenOptions::default()) {
            Err(e) => e,
            Ok(_) => panic!("opened an unknown generator"),
        };
        assert!(e.is_input());
        assert!(e.to_string().contains("nethack"));
    }
}
