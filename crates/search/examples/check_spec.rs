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
    let start = Instant::now();
    let outcome = search.run(&mut |_| {});
    let secs = start.elapsed().as_secs_f64();
    println!("{path}: {} evaluations in {secs:.1} s", outcome.evaluations);
    if let Some(g) = &outcome.grid {
        println!("grid coverage {:.0}%", 100.0 * g.coverage());
    }
    for (i, (e, script)) in outcome.best.iter().take(3).enumerate() {
        let check = search.check(script, 1..101).expect("the best script runs");
        println!(
            "best[{i}]: fitness {:.3}, search feasible {:.2}; seeds 1..=100: feasible {:.0}%, distinct {:.0}%",
            e.eval.fitness,
            e.eval.feasible,
            100.0 * check.feasible,
            100.0 * check.distinct
        );
        let means: Vec<String> = outcome
            .names
            .iter()
            .zip(&check.means)
            .map(|(n, v)| format!("{n}={v:.2}"))
            .collect();
        println!("  {}", means.join(" "));
        if i == 0 {
            println!("{}", serde_json::to_string(script).expect("json"));
        }
    }
}
