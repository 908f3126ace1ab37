//! Per-map rows (CSV) and per-metric summaries (mean, median, min, max) as CSV, JSON and a
//! printed table.

use super::{AnalyzeError, Row, Run};
use std::fmt::Write as _;
use std::path::Path;

/// Mean, median, min and max of one metric.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (the mean of the two middle values for an even count).
    pub median: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl Stats {
    /// The statistics of `values` (all zero when there are none). Sorts `values`.
    pub fn of(values: &mut [f64]) -> Stats {
        let n = values.len();
        if n == 0 {
            return Stats {
                n,
                mean: 0.0,
                median: 0.0,
                min: 0.0,
                max: 0.0,
            };
        }
        values.sort_by(f64::total_cmp);
        let mean = values.iter().sum::<f64>() / n as f64;
        let median = if n % 2 == 1 {
            values[n / 2]
        } else {
            (values[n / 2 - 1] + values[n / 2]) / 2.0
        };
        Stats {
            n,
            mean,
            median,
            min: values[0],
            max: values[n - 1],
        }
    }
}

/// One metric's name and how to read it from a row.
pub struct Column {
    /// Column name.
    pub name: String,
    get: Box<dyn Fn(&Row) -> f64>,
}

impl std::fmt::Debug for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// The metric columns of a run: width, height, empty tiles, the three paper metrics, the
/// adapter's extras.
pub fn columns(run: &Run) -> Vec<Column> {
    let mut cols: Vec<Column> = vec![
        col("width", |r| r.metrics.width as f64),
        col("height", |r| r.metrics.height as f64),
        col("empty_tiles", |r| r.metrics.empty_tiles as f64),
        col("empty_fraction", |r| r.metrics.empty_fraction),
        col("regions", |r| r.metrics.regions as f64),
        col("block_entropy", |r| r.metrics.block_entropy),
    ];
    for (i, name) in run.extra_names.iter().enumerate() {
        cols.push(Column {
            name: name.clone(),
            get: Box::new(move |r: &Row| r.extras[i]),
        });
    }
    cols
}

fn col(name: &str, get: fn(&Row) -> f64) -> Column {
    Column {
        name: name.to_string(),
        get: Box::new(get),
    }
}

/// The summary of one run: each column's statistics and the timing.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The input's label.
    pub label: String,
    /// Maps attempted.
    pub attempted: u64,
    /// Maps measured.
    pub ok: usize,
    /// `(column, stats)` in column order.
    pub metrics: Vec<(String, Stats)>,
    /// Milliseconds per map spent generating.
    pub gen_ms: Stats,
    /// Microseconds per map spent measuring.
    pub measure_us: Stats,
    /// Maps per second of wall-clock time.
    pub maps_per_sec: f64,
    /// Threads used.
    pub threads: usize,
    /// The first failure, if any.
    pub first_failure: Option<(u64, String)>,
}

/// Summarises a run.
pub fn summarize(run: &Run) -> Summary {
    let mut buf = Vec::with_capacity(run.rows.len());
    let mut stats_of = |f: &dyn Fn(&Row) -> f64| {
        buf.clear();
        buf.extend(run.rows.iter().map(f));
        Stats::of(&mut buf)
    };
    let metrics = columns(run)
        .iter()
        .map(|c| (c.name.clone(), stats_of(&c.get)))
        .collect();
    let gen_ms = stats_of(&|r: &Row| r.gen_secs * 1e3);
    let measure_us = stats_of(&|r: &Row| r.measure_secs * 1e6);
    let attempted = (run.rows.len() + run.failures.len()) as u64;
    Summary {
        label: run.label.clone(),
        attempted,
        ok: run.rows.len(),
        metrics,
        gen_ms,
        measure_us,
        maps_per_sec: if run.wall_secs > 0.0 {
            attempted as f64 / run.wall_secs
        } else {
            0.0
        },
        threads: run.threads,
        first_failure: run.failures.first().cloned(),
    }
}

/// The per-map CSV of several runs of one generator: `input,seed,<columns>`, rows in input
/// then seed order. Deterministic: no timings.
pub fn rows_csv(runs: &[Run]) -> String {
    let mut out = String::new();
    let Some(first) = runs.first() else {
        return out;
    };
    out.push_str("input,seed");
    for c in columns(first) {
        out.push(',');
        out.push_str(&c.name);
    }
    out.push('\n');
    for run in runs {
        let cols = columns(run);
        for row in &run.rows {
            let _ = write!(out, "{},{}", csv_field(&run.label), row.seed);
            for c in &cols {
                let _ = write!(out, ",{}", (c.get)(row));
            }
            out.push('\n');
        }
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The summary CSV: `input,metric,n,mean,median,min,max`.
pub fn summary_csv(summaries: &[Summary]) -> String {
    let mut out = String::from("input,metric,n,mean,median,min,max\n");
    for s in summaries {
        for (name, st) in &s.metrics {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{}",
                csv_field(&s.label),
                name,
                st.n,
                st.mean,
                st.median,
                st.min,
                st.max
            );
        }
    }
    out
}

fn stats_json(s: &Stats) -> serde_json::Value {
    serde_json::json!({"n": s.n, "mean": s.mean, "median": s.median, "min": s.min, "max": s.max})
}

/// The summary as JSON, with timings and failures.
pub fn summary_json(summaries: &[Summary], seeds: &str, blocks: &str, empty: &str) -> String {
    let inputs: Vec<serde_json::Value> = summaries
        .iter()
        .map(|s| {
            let metrics: serde_json::Map<String, serde_json::Value> = s
                .metrics
                .iter()
                .map(|(n, st)| (n.clone(), stats_json(st)))
                .collect();
            serde_json::json!({
                "input": s.label,
                "attempted": s.attempted,
                "ok": s.ok,
                "metrics": metrics,
                "timing": {
                    "threads": s.threads,
                    "maps_per_sec": s.maps_per_sec,
                    "generate_ms": stats_json(&s.gen_ms),
                    "measure_us": stats_json(&s.measure_us),
                },
                "first_failure": s.first_failure.as_ref().map(|(seed, m)| serde_json::json!({"seed": seed, "error": m})),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "seeds": seeds,
        "blocks": blocks,
        "empty": empty,
        "inputs": inputs,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e9 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// A plain-text table: one line per input and metric, plus timing.
pub fn table(summaries: &[Summary]) -> String {
    let mut out = String::new();
    for s in summaries {
        let _ = writeln!(
            out,
            "{}: {}/{} maps, {:.0} maps/s on {} threads, generate median {:.3} ms, measure median {:.1} µs",
            s.label,
            s.ok,
            s.attempted,
            s.maps_per_sec,
            s.threads,
            s.gen_ms.median,
            s.measure_us.median
        );
        let _ = writeln!(
            out,
            "  {:<22} {:>10} {:>10} {:>10} {:>10}",
            "metric", "mean", "median", "min", "max"
        );
        for (name, st) in &s.metrics {
            let _ = writeln!(
                out,
                "  {:<22} {:>10} {:>10} {:>10} {:>10}",
                name,
                format!("{:.3}", st.mean),
                fmt_num(st.median),
                fmt_num(st.min),
                fmt_num(st.max)
            );
        }
        if let Some((seed, msg)) = &s.first_failure {
            let _ = writeln!(
                out,
                "  {} maps failed; first: seed {seed}: {msg}",
                s.attempted as usize - s.ok
            );
        }
    }
    out
}

/// The histograms of the runs that have one, as `(file name, CSV)`:
/// `input,<label columns>,count,fraction`, where `fraction` is the bin's share of its run.
pub fn histogram_csv(runs: &[Run]) -> Option<(&'static str, String)> {
    let (spec, _) = runs.iter().find_map(|r| r.histogram.as_ref())?;
    let mut out = format!("input,{},count,fraction\n", spec.header);
    for run in runs {
        let Some((spec, counts)) = &run.histogram else {
            continue;
        };
        let total: u64 = counts.iter().sum();
        for (label, &c) in spec.labels.iter().zip(counts) {
            let frac = if total == 0 {
                0.0
            } else {
                c as f64 / total as f64
            };
            let _ = writeln!(out, "{},{label},{c},{frac}", csv_field(&run.label));
        }
    }
    Some((spec.file, out))
}

/// Writes `text` to `path`.
pub fn write_text(path: &Path, text: &str) -> Result<(), AnalyzeError> {
    std::fs::write(path, text).map_err(|e| AnalyzeError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::MapMetrics;

    fn row(seed: u64, empty: f64, regions: usize, entropy: f64) -> Row {
        Row {
            seed,
            metrics: MapMetrics {
                width: 4,
                height: 5,
                empty_tiles: (empty * 20.0) as usize,
                empty_fraction: empty,
                regions,
                block_entropy: entropy,
            },
            extras: {
                let mut e = [0.0; crate::analyze::MAX_EXTRAS];
                e[0] = seed as f64 * 2.0;
                e
            },
            gen_secs: 0.001,
            measure_secs: 0.000_01,
            axes: [empty, regions as f64],
        }
    }

    fn run() -> Run {
        Run {
            label: "toy".into(),
            extra_names: vec!["double_seed".into()],
            rows: vec![
                row(1, 0.5, 1, 0.25),
                row(2, 0.25, 3, 0.5),
                row(3, 0.75, 2, 1.0),
                row(4, 0.5, 6, 0.0),
            ],
            failures: vec![(5, "boom".into())],
            wall_secs: 0.5,
            threads: 2,
            histogram: None,
        }
    }

    #[test]
    fn stats_by_hand() {
        let s = Stats::of(&mut [3.0, 1.0, 2.0, 10.0]);
        assert_eq!(
            (s.n, s.mean, s.median, s.min, s.max),
            (4, 4.0, 2.5, 1.0, 10.0)
        );
        let s = Stats::of(&mut [5.0, 1.0, 3.0]);
        assert_eq!((s.mean, s.median), (3.0, 3.0));
        assert_eq!(Stats::of(&mut []).n, 0);
    }

    #[test]
    fn summary_of_a_run() {
        let s = summarize(&run());
        assert_eq!((s.attempted, s.ok), (5, 4));
        assert_eq!(s.maps_per_sec, 10.0);
        let get = |n: &str| s.metrics.iter().find(|(k, _)| k == n).unwrap().1;
        let regions = get("regions");
        assert_eq!(
            (regions.mean, regions.median, regions.min, regions.max),
            (3.0, 2.5, 1.0, 6.0)
        );
        let e = get("empty_fraction");
        assert_eq!((e.mean, e.median, e.min, e.max), (0.5, 0.5, 0.25, 0.75));
        assert_eq!(get("double_seed").max, 8.0);
        assert_eq!(s.first_failure, Some((5, "boom".into())));
        let t = table(std::slice::from_ref(&s));
        assert!(t.contains("toy: 4/5 maps"), "{t}");
        assert!(t.contains("1 maps failed; first: seed 5: boom"), "{t}");
        let csv = summary_csv(std::slice::from_ref(&s));
        assert!(csv.contains("\ntoy,regions,4,3,2.5,1,6\n"), "{csv}");
        let json: serde_json::Value =
            serde_json::from_str(&summary_json(&[s], "1..6", "5x5", "empty")).unwrap();
        assert_eq!(json["inputs"][0]["metrics"]["block_entropy"]["max"], 1.0);
        assert_eq!(json["inputs"][0]["first_failure"]["seed"], 5);
    }

    #[test]
    fn rows_csv_layout() {
        let csv = rows_csv(&[run()]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "input,seed,width,height,empty_tiles,empty_fraction,regions,block_entropy,double_seed"
        );
        assert_eq!(lines[2], "toy,2,4,5,5,0.25,3,0.5,4");
        assert_eq!(lines.len(), 5);
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
