//! The spec's own metrics (`metrics`): a distance with its own passable tiles and an
//! external command, on `examples/search/zelda-door.json` with a tiny budget; and control
//! targets on a small maze search.

use levelgen_search::{Outcome, Search, spec};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `zelda-door.json` with a budget a debug build runs in seconds; the command's script
/// named by its absolute path (tests run in the crate's folder).
fn zelda_door(evaluations: u64, maps: usize) -> spec::Spec {
    let text = std::fs::read_to_string(root().join("examples/search/zelda-door.json")).unwrap();
    let mut s = spec::parse(&text).unwrap();
    s.budget.evaluations = Some(evaluations);
    s.maps = maps;
    s.algorithm = spec::Algorithm::Es {
        mu: 2,
        lambda: 4,
        mutation: 0.15,
    };
    let script = root().join("examples/search/metrics/enemy_gap.sh");
    s.metrics.get_mut("enemy_gap").unwrap().command =
        Some(vec!["sh".into(), script.display().to_string()]);
    s
}

fn on_threads(threads: usize, search: &Search) -> Outcome {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| search.run(&mut |_| {}))
}

/// The fewest 4-neighbour steps from the player to an enemy (99 without either), computed
/// here from the map's cells, to compare with what the shell script printed.
fn enemy_gap(cells: &[u16], width: usize, player: u16, enemy: u16) -> f64 {
    let at = |id: u16| -> Vec<(i64, i64)> {
        (0..cells.len())
            .filter(|&i| cells[i] == id)
            .map(|i| ((i % width) as i64, (i / width) as i64))
            .collect()
    };
    let (players, enemies) = (at(player), at(enemy));
    players
        .iter()
        .flat_map(|p| {
            enemies
                .iter()
                .map(move |e| (p.0 - e.0).abs() + (p.1 - e.1).abs())
        })
        .min()
        .map_or(99.0, |d| d as f64)
}

#[test]
fn a_command_metric_runs_deterministically_and_reads_the_map() {
    let spec = zelda_door(10, 3);
    // Two searches (each its own cache) on 1 and 2 threads give the same outcome.
    let one = on_threads(1, &Search::new(&spec).unwrap());
    let two = on_threads(2, &Search::new(&spec).unwrap());
    assert_eq!(one, two);
    assert!(one.best.iter().all(|(e, _)| e.eval.is_valid()));
    // The value the search records is the script's reading of each map.
    let search = Search::new(&spec).unwrap();
    let names = &search.evaluator().names;
    let k = names.iter().position(|n| n == "enemy_gap").unwrap();
    let (_, doc) = &one.best[0];
    let (check, maps) = search.check_maps(doc, 1..7).unwrap();
    let entities: Vec<String> = serde_json::from_value(doc["entities"].clone()).unwrap();
    let id = |n: &str| entities.iter().position(|e| e == n).unwrap() as u16;
    let width = 11;
    let want: f64 = maps
        .iter()
        .map(|m| enemy_gap(m, width, id("player"), id("enemy")))
        .sum::<f64>()
        / maps.len() as f64;
    assert_eq!(maps.len(), 6);
    assert_eq!(check.means[k], want);
}

#[test]
fn the_door_rule_is_a_distance_without_the_door() {
    let spec = zelda_door(1, 1);
    let search = Search::new(&spec).unwrap();
    let names = &search.evaluator().names;
    let without = names.iter().position(|n| n == "key_without_door").unwrap();
    let doc = search
        .evaluator()
        .space
        .decode(&search.evaluator().space.checking_genome())
        .unwrap();
    let (check, _) = search.check_maps(&doc, 1..41).unwrap();
    // With the door passable again, the metric is the plain distance to the key.
    let mut with_door = spec.clone();
    with_door
        .metrics
        .get_mut("key_without_door")
        .unwrap()
        .passable = Some(
        ["empty", "player", "key", "door", "enemy"]
            .map(String::from)
            .to_vec(),
    );
    with_door.objectives.push(spec::Term {
        metric: "distance:player:key".into(),
        weight: 0.0,
    });
    let plain = Search::new(&with_door).unwrap();
    let p = |n: &str| plain.evaluator().names.iter().position(|m| m == n).unwrap();
    let (open, _) = plain.check_maps(&doc, 1..41).unwrap();
    assert_eq!(
        open.means[p("key_without_door")],
        open.means[p("distance:player:key")]
    );
    assert!(open.means[p("key_without_door")] > 0.0);
    // Leaving the door out lengthens or cuts the way on some maps (the skeleton puts the
    // door where it blocks some players).
    assert_ne!(
        check.means[without],
        open.means[p("key_without_door")],
        "{check:?}"
    );
    let mut blocked = spec.clone();
    blocked
        .metrics
        .get_mut("key_without_door")
        .unwrap()
        .passable = Some(vec!["player".into()]);
    let walled = Search::new(&blocked).unwrap();
    let (check, _) = walled.check_maps(&doc, 1..11).unwrap();
    // -1 (unreachable) on every map (the mean sums tenths, so up to rounding).
    assert!(
        (check.means[without] + 1.0).abs() < 1e-12,
        "a walker on the player alone reaches nothing: {check:?}"
    );
}

#[test]
fn a_command_that_cannot_run_is_a_spec_error() {
    let mut spec = zelda_door(1, 1);
    spec.metrics.get_mut("enemy_gap").unwrap().command =
        Some(vec!["sh".into(), "-c".into(), "echo not-a-number".into()]);
    assert_eq!(
        Search::new(&spec).unwrap_err().to_string(),
        "metrics.\"enemy_gap\".command: metric enemy_gap: the command printed \"not-a-number\", not one number"
    );
    let mut spec = zelda_door(1, 1);
    spec.metrics.get_mut("key_without_door").unwrap().passable = Some(vec!["lava".into()]);
    assert!(
        Search::new(&spec)
            .unwrap_err()
            .to_string()
            .starts_with("metrics.\"key_without_door\".passable[0]: \"lava\" is not an entity")
    );
}

#[test]
fn each_target_gets_a_generator_measured_on_fresh_seeds() {
    let text = std::fs::read_to_string(root().join("examples/search/binary-targets.json")).unwrap();
    let mut spec = spec::parse(&text).unwrap();
    spec.budget.evaluations = Some(12);
    spec.maps = 3;
    spec.targets[0].values = vec![20.0, 40.0];
    let search = Search::new(&spec).unwrap();
    let hits = search.run_targets(1..5, &mut |_, _| {}).unwrap();
    assert_eq!(hits.len(), 2);
    let k = search
        .evaluator()
        .names
        .iter()
        .position(|n| n == "longest_path")
        .unwrap();
    for (hit, want) in hits.iter().zip([20.0, 40.0]) {
        assert_eq!(hit.target, vec![want]);
        assert_eq!(hit.check.maps, 4);
        // Measured on seeds 5..=8, which the pick did not see.
        assert_eq!(
            hit.measured.means,
            search.check(&hit.document, 5..9).unwrap().means
        );
        assert!(hit.measured.means[k] > 0.0);
    }
    // Same spec, same hits.
    let again = search.run_targets(1..5, &mut |_, _| {}).unwrap();
    assert_eq!(again[1].document, hits[1].document);
}
