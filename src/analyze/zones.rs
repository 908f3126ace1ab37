//! The zone-tiles adapter. The input is a `ZoneConfig` JSON file (or `default` for
//! `ZoneConfig::default()`, which is seamless, `seamless` for the same, or `reference` for
//! the reference's look: reference mode without the macro layer, as `levelgen zones
//! --reference`); map `seed` is the
//! window of `--size` x `--size` zones (default [`DEFAULT_ZONES`]) at the origin, generated
//! by `ZoneGenerator::new(config, seed)`. The map measured is the cell-level on/off map
//! (3x3 cells per zone).
//!
//! Empty tiles default to `off` cells.
//!
//! Extras:
//!
//! | column | meaning |
//! |---|---|
//! | `distinct_states` | how many of the 512 zone states the window uses |
//! | `distinct_classes` | how many of the 102 symmetry classes it uses |
//! | `all_off_zones` | fraction of zones with every cell off |
//! | `all_on_zones` | fraction of zones with every cell on |
//! | `mismatched_pairs` | fraction of neighbouring zone pairs whose shared edge disagrees |
//! | `mismatched_cells` | fraction of cell pairs across zone borders that disagree |
//!
//! The batch also writes `zone_states.csv`: how often each of the 512 states occurs over all
//! windows (`state,cells,class,count,fraction`; `cells` shows the 3x3 pattern row by row,
//! `#` on, `.` off; `class` is the symmetry class).

use super::{AnalyzeError, HistogramSpec, OpenOptions, Probe, Row, SampleError, Subject};
use grid_core::Grid;
use std::path::Path;
use zone_tiles::seamless::border_mismatch;
use zone_tiles::{Mode, SymmetryTable, ZoneConfig, ZoneGenerator, ZoneRect, ZoneState};

/// Window side in zones when `--size` is not given.
pub const DEFAULT_ZONES: u32 = 20;

/// A zone configuration and window size.
#[derive(Debug)]
pub struct ZonesSubject {
    label: String,
    config: ZoneConfig,
    zones: u32,
}

/// Opens a zone configuration for analysis.
pub fn open(path: &Path, options: &OpenOptions) -> Result<Box<dyn Subject>, AnalyzeError> {
    let config = match path.to_string_lossy().as_ref() {
        "default" => ZoneConfig::default(),
        "seamless" => ZoneConfig {
            mode: Mode::Seamless,
            ..ZoneConfig::default()
        },
        "reference" => ZoneConfig {
            mode: Mode::Reference,
            structure: zone_tiles::Structure::OFF,
            ..ZoneConfig::default()
        },
        _ => {
            let text = super::read_input(path)?;
            serde_json::from_str(&text).map_err(|e| {
                AnalyzeError::input(path, grid_core::text::excerpt_with(&e.to_string(), 160))
            })?
        }
    };
    let zones = options.size.unwrap_or(DEFAULT_ZONES);
    if !(1..=4096).contains(&zones) {
        return Err(AnalyzeError::input(
            path,
            format!("--size {zones}: the window side in zones is 1..=4096"),
        ));
    }
    // Validate once here (parameters, the work of one zone and of the window), so a bad or
    // too costly configuration is an input error, not 1000 failed or endless maps.
    config
        .validate()
        .and_then(|()| config.check_window(ZoneRect::new(0, 0, zones, zones)))
        .map_err(|e| AnalyzeError::input(path, e))?;
    Ok(Box::new(ZonesSubject {
        label: super::label_of(path),
        config,
        zones,
    }))
}

/// The label of state `index` in `zone_states.csv`: `index,cells,class`.
pub fn state_label(index: u16) -> String {
    let s = ZoneState::from_bits(index);
    let mut cells = String::with_capacity(11);
    for row in 0..3 {
        if row > 0 {
            cells.push('/');
        }
        for col in 0..3 {
            cells.push(if s.cell(col, row) { '#' } else { '.' });
        }
    }
    format!("{index},{cells},{}", SymmetryTable::get().lookup(s).class)
}

/// The extras of a window's zone states (see the module table).
pub fn window_extras(states: &Grid<ZoneState>) -> [f64; 6] {
    let table = SymmetryTable::get();
    let mut used = [false; 512];
    let mut classes = vec![false; table.class_count()];
    let (mut off, mut on) = (0usize, 0usize);
    let n = states.len().max(1) as f64;
    for s in states.as_slice() {
        let idx = s.index() as usize;
        used[idx % 512] = true;
        if let Some(c) = classes.get_mut(table.lookup(*s).class as usize) {
            *c = true;
        }
        off += usize::from(idx == 0);
        on += usize::from(idx == 511);
    }
    let m = border_mismatch(states);
    let frac = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    [
        used.iter().filter(|&&b| b).count() as f64,
        classes.iter().filter(|&&b| b).count() as f64,
        off as f64 / n,
        on as f64 / n,
        frac(m.mismatched, m.pairs),
        frac(m.cell_mismatched, m.cell_pairs),
    ]
}

impl Subject for ZonesSubject {
    fn label(&self) -> &str {
        &self.label
    }

    fn default_empty(&self) -> &'static [&'static str] {
        &["off"]
    }

    fn extra_names(&self) -> &'static [&'static str] {
        &[
            "distinct_states",
            "distinct_classes",
            "all_off_zones",
            "all_on_zones",
            "mismatched_pairs",
            "mismatched_cells",
        ]
    }

    fn sample(&self, seed: u64, probe: &mut Probe) -> Result<Row, SampleError> {
        let (world, secs) = probe.generate(|| {
            ZoneGenerator::new(self.config, seed)?
                .generate(ZoneRect::new(0, 0, self.zones, self.zones))
        })?;
        let metrics = probe.measure(&world)?;
        probe.counts.resize(512, 0);
        for s in world.states.as_slice() {
            probe.counts[s.index() as usize % 512] += 1;
        }
        Ok(probe.row(seed, metrics, &window_extras(&world.states), secs))
    }

    fn histogram(&self) -> Option<HistogramSpec> {
        Some(HistogramSpec {
            file: "zone_states.csv",
            header: "state,cells,class",
            labels: (0..512).map(state_label).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_by_hand() {
        // Three zones in a row: all off, all on, all on.
        let states = Grid::from_vec(
            3,
            1,
            vec![ZoneState::EMPTY, ZoneState::FULL, ZoneState::FULL],
        )
        .unwrap();
        let e = window_extras(&states);
        assert_eq!(e[0], 2.0); // states 0 and 511
        assert_eq!(e[1], 2.0); // two classes
        assert_eq!((e[2], e[3]), (1.0 / 3.0, 2.0 / 3.0));
        // Pairs (off|on) differs on all 3 edge cells, (on|on) agrees: 1 of 2 pairs, 3 of 6 cells.
        assert_eq!((e[4], e[5]), (0.5, 0.5));
    }

    #[test]
    fn state_labels() {
        assert_eq!(state_label(0), "0,.../.../...,0");
        // Bit i is cell (i % 3, i / 3): 1 = top-left, 256 = bottom-right.
        assert!(state_label(1).starts_with("1,#../.../...,"));
        assert!(state_label(256).starts_with("256,.../.../..#,"));
        // Corners are one symmetry class.
        let class = |i: u16| state_label(i).rsplit(',').next().unwrap().to_string();
        assert_eq!(class(1), class(256));
        assert_eq!(class(4), class(64));
    }

    #[test]
    fn batch_histogram_counts_every_zone() {
        let subject = match open(
            Path::new("default"),
            &OpenOptions {
                size: Some(5),
                ..OpenOptions::default()
            },
        ) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        let settings = crate::analyze::Settings {
            seeds: crate::batch::SeedRange::new(0, 6),
            empty: None,
            blocks: grid_core::metrics::BlockGrid::PAPER,
            quiet: true,
            axes: Default::default(),
        };
        let run = crate::analyze::analyze(subject.as_ref(), &settings).unwrap();
        let (spec, counts) = run.histogram.as_ref().unwrap();
        assert_eq!((spec.labels.len(), counts.len()), (512, 512));
        assert_eq!(counts.iter().sum::<u64>(), 6 * 25);
        // The distinct states of each window are at most the states the batch saw.
        let seen = counts.iter().filter(|&&c| c > 0).count() as f64;
        assert!(run.rows.iter().all(|r| r.extras[0] <= seen));
        let (file, csv) =
            crate::analyze::summary::histogram_csv(std::slice::from_ref(&run)).unwrap();
        assert_eq!(file, "zone_states.csv");
        assert!(
            csv.starts_with("input,state,cells,class,count,fraction\ndefault,0,.../.../...,0,")
        );
        assert_eq!(csv.lines().count(), 513);
    }

    #[test]
    fn seamless_windows_never_mismatch() {
        let subject = match open(
            Path::new("seamless"),
            &OpenOptions {
                size: Some(6),
                ..OpenOptions::default()
            },
        ) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        let mut probe = Probe::new(
            crate::analyze::EmptyNames {
                names: vec!["off".into()],
                strict: true,
            },
            grid_core::metrics::BlockGrid::PAPER,
        );
        for seed in 0..3 {
            let row = subject.sample(seed, &mut probe).unwrap();
            assert_eq!((row.metrics.width, row.metrics.height), (18, 18));
            assert_eq!(row.extras[4], 0.0, "seed {seed}");
        }
    }

    #[test]
    fn costly_or_hostile_configs_are_rejected_at_open() {
        let dir = std::env::temp_dir().join(format!("levelgen-zones-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let costly = r#"{"kind":{"type":"worley","distance":"euclidean","output":{"type":"f1_over_gap","points":16,"n":12}},"scale":40,"octaves":8,"persistence":0.5}"#;
        let long = "x".repeat(5000);
        for (i, (text, needle)) in [
            // One zone sampled at every noise pixel with the reference's 16-point Worley at 8
            // octaves: 460,800 units of work per zone, over the per-zone limit.
            (
                format!(r#"{{"zone_size":1023,"sampling":"full","noise":{costly},"threshold":{{"fixed":0.45}},"mode":"reference"}}"#),
                "65536",
            ),
            (
                format!(r#"{{"zone_size":60,"sampling":{{"stride":2}},"noise":{{"kind":{{"type":"{long}"}},"scale":40,"octaves":1,"persistence":0.5}},"threshold":{{"fixed":0.45}},"mode":"reference"}}"#),
                "characters",
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let path = dir.join(format!("c{i}.json"));
            std::fs::write(&path, text).unwrap();
            let err = match open(&path, &OpenOptions::default()) {
                Ok(_) => panic!("config {i} accepted"),
                Err(e) => e.to_string(),
            };
            assert!(err.contains(needle) && err.len() < 400, "{err}");
        }
        // A window whose work is over the budget, asked for with --size.
        let err = match open(
            Path::new("default"),
            &OpenOptions {
                size: Some(4096),
                ..OpenOptions::default()
            },
        ) {
            Ok(_) => panic!("4096x4096 zones accepted"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains("1073741824"), "{err}");
    }
}
