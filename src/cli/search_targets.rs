//! `levelgen search` on a spec with control targets: one generator per target, written as
//! `target-1.json`, `target-2.json`, ... with `targets.json` mapping each target to its file
//! and its values measured on fresh seeds.

use super::error::CliError;
use super::search::{Args, contact_sheet, json_bytes, progress_bar, write_file};
use levelgen_search::targets::TargetHit;
use levelgen_search::{Search, spec::Spec};
use serde_json::{Map, Value, json};
use std::path::Path;

/// Runs every target's search and writes the folder.
pub fn run(args: &Args, spec: &Spec, search: &Search, out: &Path) -> Result<(), CliError> {
    let count = levelgen_search::targets::combinations(&spec.targets).len() as u64;
    let bar = progress_bar(spec.budget.evaluations.map(|n| n * count), args.quiet);
    let started = std::time::Instant::now();
    let mut before = 0u64;
    let mut last = (0usize, 0u64);
    let hits = search
        .run_targets(1..args.check + 1, &mut |i, row| {
            if i != last.0 {
                before += last.1;
            }
            last = (i, row.evaluations);
            bar.set_position(before + row.evaluations);
            bar.set_message(format!("target {}/{count}", i + 1));
        })
        .map_err(CliError::input_msg)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let kind = search.evaluator().kind;
    let mut rows = Vec::new();
    for (i, hit) in hits.iter().enumerate() {
        let stem = format!("target-{}", i + 1);
        let (file, flags) = kind.ready_to_run(&hit.document);
        write_file(&out.join(format!("{stem}.json")), &json_bytes(&file))?;
        if let Some(flags) = flags {
            write_file(&out.join(format!("{stem}.args")), flags.as_bytes())?;
        }
        rows.push((stem, hit.document.clone()));
    }
    let table = targets_json(search, spec, &hits, args.check);
    write_file(&out.join("targets.json"), &json_bytes(&table))?;
    if !rows.is_empty() {
        write_file(&out.join("contact.png"), &contact_sheet(kind, &rows)?)?;
    }
    if !args.quiet {
        println!("{}", summary(search, spec, &hits, secs, args.check));
        eprintln!("wrote {}", out.display());
    }
    Ok(())
}

fn named(names: &[String], values: &[f64]) -> Value {
    let m: Map<String, Value> = names
        .iter()
        .zip(values)
        .map(|(n, v)| (n.clone(), json!(v)))
        .collect();
    Value::Object(m)
}

/// `targets.json`: per target, its file, the values asked for and measured, and checks.
fn targets_json(search: &Search, spec: &Spec, hits: &[TargetHit], check: u64) -> Value {
    let names = &search.evaluator().names;
    let axes: Vec<String> = spec.targets.iter().map(|a| a.metric.clone()).collect();
    let rows: Vec<Value> = hits
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let measured: Vec<f64> = axes
                .iter()
                .map(|a| h.measured.means[names.iter().position(|n| n == a).unwrap_or(0)])
                .collect();
            json!({
                "file": format!("target-{}.json", i + 1),
                "target": named(&axes, &h.target),
                "measured": named(&axes, &measured),
                "measured_seeds": format!("{}..={}", check + 1, 2 * check),
                "on_target": h.measured.feasible,
                "distinct": h.measured.distinct,
                "nearest": h.measured.nearest,
                "means": named(names, &h.measured.means),
                "selection": {
                    "seeds": format!("1..={check}"),
                    "on_target": h.check.feasible,
                    "fitness": h.check.fitness,
                },
                "evaluations": h.evaluations,
            })
        })
        .collect();
    Value::Array(rows)
}

/// The text printed after a target search.
fn summary(search: &Search, spec: &Spec, hits: &[TargetHit], secs: f64, check: u64) -> String {
    let names = &search.evaluator().names;
    let evaluations: u64 = hits.iter().map(|h| h.evaluations).sum();
    let mut s = format!(
        "{} targets, {evaluations} candidates in {secs:.1} s\nmeasured on seeds {}..={}:\n  file            target -> measured    on target",
        hits.len(),
        check + 1,
        2 * check
    );
    for (i, h) in hits.iter().enumerate() {
        let pairs: Vec<String> = spec
            .targets
            .iter()
            .zip(&h.target)
            .map(|(a, want)| {
                let k = names.iter().position(|n| *n == a.metric).unwrap_or(0);
                format!("{} {want} -> {:.2}", a.metric, h.measured.means[k])
            })
            .collect();
        s.push_str(&format!(
            "\n  {:<14} {}  {:>6.0}%",
            format!("target-{}.json", i + 1),
            pairs.join(", "),
            100.0 * h.measured.feasible
        ));
    }
    s
}
