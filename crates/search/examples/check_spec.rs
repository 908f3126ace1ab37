//! Runs a search spec and checks its best generator on map seeds 1..=100: the acceptance
//! check of `docs/search.md`.
//!
//! ```text
//! cargo run --release -p levelgen-search --example check_spec -- examples/search/binary.json
//! ```

use levelgen_search::{Search, spec};
use std::time::Instant;

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: check_spec SPEC.json [SEED]");
    let text = std::fs::read_to_string(&path).expect("readable spec");
    let mut spec = spec::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    if let Some(seed) = std::env::args().nth(2) {
        spec.seed = seed.parse().expect("a seed");
    }
    let search = Search::new(&spec).unwrap_or_else(|e| panic!("{path}: {e}"));
    if !spec.targets.is_empty() {
        return targets(&path, &search, &spec);
    }
    let start = Instant::now();
    let mut outcome = search.run(&mut |_| {});
    let secs = start.elapsed().as_secs_f64();
    println!("{path}: {} evaluations in {secs:.1} s", outcome.evaluations);
    if let Some(g) = &outcome.grid {
        println!("grid coverage {:.0}%", 100.0 * g.coverage());
    }
    let pool = outcome.pool.len();
    let checks = search
        .select(&mut outcome, 1..101)
        .expect("the kept scripts run");
    println!(
        "selection: {} kept of {pool} candidates checked on seeds 1..=100",
        checks.len()
    );
    let mut all_maps = Vec::new();
    let mut each_maps = Vec::new();
    for (i, ((e, script), check)) in outcome.best.iter().zip(&checks).enumerate() {
        println!(
            "kept[{i}]: fitness {:.3}, search feasible {:.2}; seeds 1..=100: feasible {:.0}%, distinct {:.0}%, nearest {:.1}%",
            e.eval.fitness,
            e.eval.feasible,
            100.0 * check.feasible,
            100.0 * check.distinct,
            100.0 * check.nearest
        );
        let means: Vec<String> = outcome
            .names
            .iter()
            .zip(&check.means)
            .map(|(n, v)| format!("{n}={v:.2}"))
            .collect();
        println!("  {}", means.join(" "));
        let fresh = search.check(script, 101..201).expect("runs");
        println!(
            "  fresh seeds 101..=200: feasible {:.0}%, distinct {:.0}%, nearest {:.1}%",
            100.0 * fresh.feasible,
            100.0 * fresh.distinct,
            100.0 * fresh.nearest
        );
        let (_, maps) = search.check_maps(script, 1..101).expect("runs");
        all_maps.extend(maps.iter().cloned());
        each_maps.push(maps);
        if i == 0 && search.evaluator().kind != levelgen_search::Kind::Marahel {
            println!("{}", serde_json::to_string(script).expect("json"));
        }
        if i == 0 && search.evaluator().kind == levelgen_search::Kind::Marahel {
            let (mean, far) = hamming(script);
            println!(
                "  pairwise Hamming distance on seeds 1..=100: mean {:.0}% of tiles, {:.0}% of pairs >= 40%",
                100.0 * mean,
                100.0 * far
            );
            println!("  {}", failures(&search, script));
            println!("{}", serde_json::to_string(script).expect("json"));
        }
    }
    use levelgen_search::diversity::{SetMetric, differing_share, set_value};
    let mut least = 1.0f64;
    for (i, a) in each_maps.iter().enumerate() {
        for b in &each_maps[i + 1..] {
            least = least.min(differing_share(a, b));
        }
    }
    println!(
        "kept together: {} maps, nearest {:.1}%, isolated at 40% {:.0}%; two kept generators differ on >= {:.0}% of seeds",
        all_maps.len(),
        100.0 * set_value(SetMetric::Nearest, &all_maps, &[]),
        100.0 * set_value(SetMetric::Isolated(0.4), &all_maps, &[]),
        100.0 * least
    );
}

/// Mean pairwise Hamming distance (fraction of tiles) of the maps of seeds 1..=100, and the
/// fraction of pairs differing in at least 40% of their tiles (the PCG Benchmark's binary
/// diversity threshold).
fn hamming(script: &serde_json::Value) -> (f64, f64) {
    let script = marahel::Script::from_value(script).expect("the best script parses");
    let maps: Vec<Vec<u8>> = (1..101)
        .map(|s| script.generate(s).expect("a map").cells)
        .collect();
    let (mut sum, mut far, mut pairs) = (0.0, 0usize, 0usize);
    for (i, a) in maps.iter().enumerate() {
        for b in &maps[i + 1..] {
            let d = a.iter().zip(b).filter(|(x, y)| x != y).count() as f64 / a.len() as f64;
            sum += d;
            far += (d >= 0.4) as usize;
            pairs += 1;
        }
    }
    (sum / pairs as f64, far as f64 / pairs as f64)
}

/// How many of the maps of seeds 1..=100 miss each constraint.
fn failures(search: &Search, script: &serde_json::Value) -> String {
    use grid_core::TileMap;
    use levelgen_search::metric::Resolved;
    let ev = search.evaluator();
    let script = marahel::Script::from_value(script).expect("the best script parses");
    let mut misses = vec![0usize; ev.bounds.len()];
    let mut scratch = grid_core::metrics::MetricsScratch::new();
    let mut values = Vec::new();
    for seed in 1..101 {
        let map = script.generate(seed).expect("a map");
        let r = Resolved::new(&ev.metrics, &ev.setup, map.legend());
        r.measure(&map, &mut scratch, &mut values)
            .expect("built-in metrics");
        for (m, b) in misses.iter_mut().zip(&ev.bounds) {
            // `distinct` is filled in over all maps; a single map cannot miss it.
            if ev.names[b.metric] != "distinct" && b.reward(values[b.metric]) < 1.0 {
                *m += 1;
            }
        }
    }
    let parts: Vec<String> = ev
        .bounds
        .iter()
        .zip(&misses)
        .map(|(b, m)| format!("{} missed on {m}", ev.names[b.metric]))
        .collect();
    parts.join(", ")
}

/// A control-target spec: each target's generator, its values on the selection seeds
/// 1..=100 and measured on the fresh seeds 101..=200.
fn targets(path: &str, search: &Search, spec: &spec::Spec) {
    let start = Instant::now();
    let hits = search
        .run_targets(1..101, &mut |_, _| {})
        .expect("the targets' generators run");
    let evaluations: u64 = hits.iter().map(|h| h.evaluations).sum();
    println!(
        "{path}: {} targets, {evaluations} evaluations in {:.1} s",
        hits.len(),
        start.elapsed().as_secs_f64()
    );
    let names = &search.evaluator().names;
    for (i, h) in hits.iter().enumerate() {
        let measured: Vec<String> = spec
            .targets
            .iter()
            .zip(&h.target)
            .map(|(axis, want)| {
                let k = names.iter().position(|n| *n == axis.metric).expect("named");
                let got = h.measured.means[k];
                format!(
                    "{} {want}: measured {got:.2} ({:+.1}%)",
                    axis.metric,
                    100.0 * (got - want) / want.abs().max(1e-9)
                )
            })
            .collect();
        println!(
            "target[{i}]: {}; on target (every constraint) {:.0}% of seeds 101..=200, {:.0}% of 1..=100; distinct {:.0}%, nearest {:.1}%",
            measured.join(", "),
            100.0 * h.measured.feasible,
            100.0 * h.check.feasible,
            100.0 * h.measured.distinct,
            100.0 * h.measured.nearest
        );
    }
}
