//! The Heroes, Mario and zones example specs (`examples/search/`) with tiny budgets: each
//! runs, gives the same outcome twice (on 1 and 2 threads), and its search improves on its
//! start or meets its constraints.

use levelgen_search::{Kind, Outcome, Search, spec};
use std::path::Path;

fn example(name: &str, evaluations: u64, maps: usize) -> spec::Spec {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/search")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the example is in the repository");
    let mut spec = spec::parse(&text).expect("the example parses");
    spec.budget.evaluations = Some(evaluations);
    spec.maps = maps;
    spec
}

fn on_threads(threads: usize, search: &Search) -> Outcome {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    pool.install(|| search.run(&mut |_| {}))
}

/// Runs twice; returns the outcome and the index of `metric`.
fn run_twice(spec: &spec::Spec, metric: &str) -> (Outcome, usize) {
    let search = Search::new(spec).expect("the spec compiles");
    let one = on_threads(1, &search);
    let two = on_threads(2, &search);
    assert_eq!(one, two, "deterministic at any thread count");
    assert!(!one.best.is_empty(), "a valid best");
    let index = one.names.iter().position(|n| n == metric).expect("named");
    (one, index)
}

#[test]
fn mario_search_finds_playable_settings_with_enemies() {
    let spec = example("mario-enemies.json", 28, 3);
    let (outcome, enemies) = run_twice(&spec, "enemies_per_100");
    let (best, document) = &outcome.best[0];
    assert!(best.eval.feasible >= 2.0 / 3.0, "{:?}", best.eval);
    assert!(best.eval.means[enemies] >= 7.0, "{:?}", best.eval);
    let start = outcome.log[0].batch_mean_fitness;
    assert!(best.eval.fitness > start, "{start} -> {:?}", best.eval);
    // The best runs as written: its settings and flags.
    let (file, args) = Kind::Mario.ready_to_run(document);
    let cfg: mario_rooms::LevelConfig = serde_json::from_value(file).expect("a LevelConfig");
    let args = args.expect("mario takes flags");
    let (a, b) = cfg.difficulty.expect("a difficulty");
    assert!(args.contains(&format!("--difficulty\n{a}:{b}\n")), "{args}");
    assert!(!args.contains("--no-check"), "{args}");
}

#[test]
fn zones_search_approaches_its_floor_share() {
    let spec = example("zones-floor.json", 28, 2);
    let (outcome, floor) = run_twice(&spec, "empty_fraction");
    let (best, document) = &outcome.best[0];
    let start = outcome.log[0].batch_mean_fitness;
    assert!(best.eval.fitness > start, "{start} -> {:?}", best.eval);
    assert!(
        (0.5..=0.8).contains(&best.eval.means[floor]),
        "{:?}",
        best.eval
    );
    let (file, args) = Kind::Zones.ready_to_run(document);
    let cfg: zone_tiles::ZoneConfig = serde_json::from_value(file).expect("a ZoneConfig");
    cfg.validate().expect("valid");
    let args = args.expect("zones takes --set");
    assert!(args.starts_with("--size\n12x12\n--set\n'"), "{args}");
}

#[test]
fn heroes_search_lowers_the_area_error() {
    let spec = example("heroes-areas.json", 24, 2);
    let (outcome, error) = run_twice(&spec, "max_zone_area_error");
    let (best, document) = &outcome.best[0];
    assert_eq!(best.eval.feasible, 1.0, "every object reachable");
    // Better than the random zone sizes it started from, and a close fit.
    let start = outcome.log[0].batch_mean_fitness;
    assert!(best.eval.fitness > start, "{start} -> {:?}", best.eval);
    assert!(best.eval.means[error] < 0.15, "{:?}", best.eval);
    let (file, args) = Kind::Heroes.ready_to_run(document);
    heroes_zones::Template::from_json(&file.to_string()).expect("a template levelgen heroes reads");
    assert_eq!(args.as_deref(), Some("--size\n32\n"));
}

#[test]
fn bad_documents_name_the_generator_and_the_field() {
    let text = |doc: &str| format!(r#"{{{doc}, "algorithm": {{"type": "es"}}}}"#);
    let err = |doc: &str| {
        Search::new(&spec::parse(&text(doc)).unwrap())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(r#""zones": {"window": 0}"#),
        "zones: window: 0 is outside 1..=256"
    );
    assert!(err(r#""mario": {"theme": "moon"}"#).starts_with("mario: theme: \"moon\" (known: "));
    assert_eq!(
        err(r#""heroes": {"size": 64}"#),
        "heroes: template: missing"
    );
    assert!(
        err(r#""zones": {}, "constraints": [{"metric": "playable", "min": 1}]"#)
            .starts_with("constraints[0].metric: unknown metric \"playable\" (known: mismatched_pairs, mismatched_cells, ")
    );
    let both = spec::parse(&text(r#""zones": {}, "mario": {}"#)).unwrap_err();
    assert_eq!(
        both.to_string(),
        "spec: give exactly one of marahel, heroes, mario and zones (given: mario, zones)"
    );
}

#[test]
fn candidates_whose_settings_do_not_build_are_invalid_and_the_search_goes_on() {
    // Fill shares above 1 are refused by the zones settings check (the lowest value of every
    // range must build: the spec is checked with it).
    let mut spec = example("zones-floor.json", 24, 1);
    spec.vary = vec![
        serde_json::from_str(r#"{"path": "config.threshold.fill", "float": [0.0, 2.0]}"#).unwrap(),
    ];
    let outcome = Search::new(&spec).unwrap().run(&mut |_| {});
    assert_eq!(outcome.evaluations, 24);
    assert!(outcome.log.iter().map(|r| r.batch_invalid).sum::<usize>() > 0);
    let (best, document) = &outcome.best[0];
    assert!(best.eval.is_valid());
    let fill = document["config"]["threshold"]["fill"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&fill), "{fill}");
}
