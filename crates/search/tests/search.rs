//! Whole searches, small enough for debug builds: the same outcome on 1 and 2 threads, and a
//! search that improves on its random start. The full targets of the examples are checked
//! by the ignored `example_targets` (release: `cargo test --release -p levelgen-search --
//! --ignored`).

use levelgen_search::{Outcome, Search, spec};

/// A 10x10 maze-ish search: a drunk walker whose steps, turn rate and rule vary.
const SMALL: &str = r#"{
  "marahel": {
    "metadata": { "min": "10x10", "max": "10x10" },
    "entities": ["empty", "solid"],
    "explorers": [
      { "type": "narrow_horz", "region": "map", "rules": ["-> self(solid)"] },
      { "type": "turtle_drunk", "region": "map",
        "parameters": { "tiles": 20, "change": 0.5, "directions": "plus" },
        "rules": ["-> self(empty)"] },
      { "type": "narrow_horz", "region": "map", "rules": ["random < 0.1 -> self(empty)"] }
    ]
  },
  "vary": [
    { "path": "explorers.1.parameters.tiles", "int": [2, 100] },
    { "path": "explorers.1.parameters.change", "float": [0.0, 1.0] },
    { "path": "explorers.2", "optional": true },
    { "path": "explorers.2.rules.0", "grammar": { "start": "random < <p> -> self(<e>)", "codons": 2,
        "rules": { "<p>": { "float": [0.0, 0.6] }, "<e>": ["empty", "solid"] } } }
  ],
  "constraints": [
    { "metric": "regions", "min": 1, "max": 1 },
    { "metric": "longest_path", "min": 20 }
  ],
  "algorithm": { "type": "es", "mu": 4, "lambda": 12 },
  "budget": { "evaluations": 160 },
  "seed": 3,
  "maps": 4
}"#;

fn on_threads(threads: usize, spec: &spec::Spec) -> Outcome {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    let search = Search::new(spec).expect("the spec compiles");
    pool.install(|| search.run(&mut |_| {}))
}

#[test]
fn same_outcome_on_one_and_two_threads() {
    let es = spec::parse(SMALL).unwrap();
    let one = on_threads(1, &es);
    let two = on_threads(2, &es);
    assert_eq!(one, two);
    // 12 random candidates, then 9 generations of 4 parents scored again and 12 children;
    // the last 4 evaluations of the budget cannot hold a child.
    assert_eq!(one.evaluations, 156);
    assert_eq!(one.log_csv(), two.log_csv());
    // Another seed gives another run.
    let mut other = es.clone();
    other.seed = 4;
    assert_ne!(on_threads(2, &other).log, one.log);

    let mut me = es.clone();
    me.algorithm = serde_json::from_str(
        r#"{"type": "map_elites", "initial": 40, "batch": 20,
            "x": {"metric": "empty_fraction", "min": 0, "max": 1, "bins": 5},
            "y": {"metric": "regions", "min": 0, "max": 10, "bins": 5}}"#,
    )
    .unwrap();
    me.check().unwrap();
    let one = on_threads(1, &me);
    let two = on_threads(2, &me);
    assert_eq!(one, two);
    let grid = one.grid.as_ref().expect("a MAP-Elites grid");
    assert!(grid.coverage() > 0.1, "{}", grid.coverage());

    let mut nsga = es.clone();
    nsga.algorithm = serde_json::from_str(r#"{"type": "nsga2", "population": 12}"#).unwrap();
    nsga.objectives =
        vec![serde_json::from_str(r#"{"metric": "empty_fraction", "weight": -1}"#).unwrap()];
    let search = Search::new(&nsga).unwrap();
    let one = on_threads(1, &nsga);
    assert_eq!(one, on_threads(2, &nsga));
    // The front trades feasibility against little floor: its members are not dominated by
    // each other, and the best list leads with the front.
    let goals: Vec<(f64, f64)> = one
        .best
        .iter()
        .map(|(e, _)| (e.eval.feasible, -e.eval.means[0]))
        .collect();
    assert!(!goals.is_empty());
    let first = search.check(&one.best[0].1, 1..21).unwrap();
    assert!(first.feasible > 0.0, "{first:?} {goals:?}");
}

#[test]
fn search_improves_fitness() {
    let spec = spec::parse(SMALL).unwrap();
    let outcome = on_threads(2, &spec);
    let last = outcome.log.last().unwrap();
    let (best, script) = &outcome.best[0];
    assert_eq!(best.eval.fitness, last.best_fitness);
    // On the same 40 unseen seeds, the found generator beats the best of 16 random ones
    // (the size of the search's random start).
    let search = Search::new(&spec).unwrap();
    let found = search
        .check(script, 1..41)
        .expect("the best script parses and runs");
    let ev = search.evaluator();
    let mut rng = grid_core::Seed(99).rng();
    let random: Vec<(f64, f64)> = (0..16)
        .filter_map(|_| {
            let doc = ev.space.decode(&ev.space.random(&mut rng)).ok()?;
            search
                .check(&doc, 1..41)
                .ok()
                .map(|c| (c.fitness, c.feasible))
        })
        .collect();
    let best_random = random.iter().map(|r| r.0).fold(f64::MIN, f64::max);
    let mean_feasible = random.iter().map(|r| r.1).sum::<f64>() / random.len() as f64;
    assert!(found.fitness > best_random, "{found:?} vs {random:?}");
    assert!(
        found.feasible > mean_feasible + 0.1,
        "{found:?} vs {random:?}"
    );
    // Distinct scripts in the best list.
    for (i, (_, a)) in outcome.best.iter().enumerate() {
        for (_, b) in &outcome.best[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn bad_specs_are_errors_naming_the_place() {
    let mut spec = spec::parse(SMALL).unwrap();
    spec.constraints[1].metric = "longest".into();
    let e = Search::new(&spec).unwrap_err().to_string();
    assert!(
        e.starts_with("constraints[1].metric: unknown metric \"longest\""),
        "{e}"
    );
    let mut spec = spec::parse(SMALL).unwrap();
    spec.measure.passable = vec!["floor".into()];
    assert_eq!(
        Search::new(&spec).unwrap_err().to_string(),
        "measure.passable[0]: \"floor\" is not an entity of the script (known: empty, solid)"
    );
    // An error names the explorer as the spec numbers it, though an optional explorer
    // before it may be switched off in a candidate.
    let mut spec = spec::parse(SMALL).unwrap();
    spec.vary
        .push(serde_json::from_str(r#"{"path": "explorers.0", "optional": true}"#).unwrap());
    spec.marahel.as_mut().unwrap()["explorers"][1]["rules"][0] = "-> plsu(solid)".into();
    assert!(
        Search::new(&spec)
            .unwrap_err()
            .to_string()
            .starts_with("marahel: explorers[1].rules[0]"),
        "{}",
        Search::new(&spec).unwrap_err()
    );
    let mut spec = spec::parse(SMALL).unwrap();
    spec.marahel.as_mut().unwrap()["explorers"][0]["rules"][0] = "-> plsu(solid)".into();
    assert!(
        Search::new(&spec)
            .unwrap_err()
            .to_string()
            .starts_with("marahel: explorers[0].rules[0]")
    );
}

/// The acceptance targets of the three examples, through the final selection (slow: run
/// in release).
#[test]
#[ignore]
fn example_targets() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/search");
    for (name, feasible, distinct) in [("binary", 0.9, 0.8), ("zelda", 0.9, 0.5)] {
        let text = std::fs::read_to_string(root.join(format!("{name}.json"))).unwrap();
        let spec = spec::parse(&text).unwrap();
        let search = Search::new(&spec).unwrap();
        let mut outcome = search.run(&mut |_| {});
        let checks = search.select(&mut outcome, 1..101).unwrap();
        let check = &checks[0];
        println!("{name}: {check:?}");
        assert!(check.feasible >= feasible, "{name}: {check:?}");
        assert!(check.distinct >= distinct, "{name}: {check:?}");
        assert_eq!(checks.len(), spec.keep, "{name}");
        // The kept generators make different maps on at least 95% of the seeds.
        let maps: Vec<_> = outcome
            .best
            .iter()
            .map(|(_, s)| search.check_maps(s, 1..101).unwrap().1)
            .collect();
        for (i, a) in maps.iter().enumerate() {
            for b in &maps[i + 1..] {
                assert!(
                    levelgen_search::diversity::differing_share(a, b) >= 0.95,
                    "{name}"
                );
            }
        }
        if name == "binary" {
            // For every kept generator, each map's nearest other map of the same generator
            // is at least 38% of the tiles away on average: on the selection's seeds, and
            // within a point of it on seeds the selection never saw.
            for ((_, script), check) in outcome.best.iter().zip(&checks) {
                assert!(check.nearest >= 0.38, "{check:?}");
                let fresh = search.check(script, 101..201).unwrap();
                assert!(fresh.nearest >= 0.37, "{fresh:?}");
            }
        }
    }
    let text = std::fs::read_to_string(root.join("cave-range.json")).unwrap();
    let outcome = Search::new(&spec::parse(&text).unwrap())
        .unwrap()
        .run(&mut |_| {});
    let coverage = outcome.grid.unwrap().coverage();
    println!("cave-range: coverage {coverage}");
    // As scored again on fresh seeds (the search itself fills more cells, some on luck).
    assert!(coverage >= 0.6, "{coverage}");
}

/// A user's metric: the fraction of the top row that is floor.
#[derive(Debug)]
struct OpenTop;

impl levelgen_search::Metric for OpenTop {
    fn name(&self) -> &str {
        "open_top"
    }
    fn measure(&self, map: &dyn grid_core::TileMap) -> f64 {
        let open = (0..map.width()).filter(|&x| map.tile(x, 0) == 0).count();
        open as f64 / map.width() as f64
    }
}

#[test]
fn users_metrics_steer_the_search() {
    let mut spec = spec::parse(SMALL).unwrap();
    spec.constraints = vec![serde_json::from_str(r#"{"metric": "open_top", "min": 0.9}"#).unwrap()];
    // Unknown until registered.
    let e = Search::new(&spec).unwrap_err().to_string();
    assert!(e.contains("unknown metric \"open_top\""), "{e}");
    let search = Search::with_metrics(&spec, vec![std::sync::Arc::new(OpenTop)]).unwrap();
    assert_eq!(
        search.evaluator().names,
        ["empty_fraction", "regions", "open_top"]
    );
    let outcome = search.run(&mut |_| {});
    let check = search.check(&outcome.best[0].1, 1..21).unwrap();
    // Floor along the top row needs the random-floor explorer with a high probability.
    assert!(check.means[2] >= 0.6, "{check:?}");
}

/// A caller's function metric: the top row's floor share, failing on maps whose top-left
/// and top-right cells are both floor.
#[derive(Debug)]
struct TopFloor;

impl levelgen_search::external::MetricFn for TopFloor {
    fn value(&self, map: &dyn grid_core::TileMap, json: &str) -> Result<f64, String> {
        assert!(json.starts_with("{\"height\":10"), "{json}");
        let open = |x: usize| map.tile(x, 0) == 0;
        if open(0) && open(map.width() - 1) {
            return Err("both top corners open".into());
        }
        Ok((0..map.width()).filter(|&x| open(x)).count() as f64 / map.width() as f64)
    }
}

#[test]
fn functions_are_metrics_by_name_and_their_failures_invalidate_candidates() {
    use std::sync::Arc;
    let mut spec = spec::parse(SMALL).unwrap();
    spec.objectives = vec![serde_json::from_str(r#"{"metric": "top", "weight": 1}"#).unwrap()];
    let f = || {
        vec![(
            "top".to_string(),
            Arc::new(TopFloor) as Arc<dyn levelgen_search::external::MetricFn>,
        )]
    };
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let search = Search::with_functions(&spec, Vec::new(), f()).unwrap();
        pool.install(|| search.run(&mut |_| {}))
    };
    let (one, two) = (on(1), on(2));
    assert_eq!(one, two);
    let invalid: usize = one.log.iter().map(|r| r.batch_invalid).sum();
    assert!(
        invalid > 0 && invalid < one.evaluations as usize,
        "{invalid}"
    );
    // The outcome says why the first invalid candidate was.
    assert_eq!(
        one.first_error.as_deref(),
        Some("metric top: both top corners open")
    );
    let (best, _) = &one.best[0];
    assert!(best.eval.is_valid());
    let evaluator = Search::with_functions(&spec, Vec::new(), f()).unwrap();
    let ev = evaluator.evaluator();
    let failed = (0..200)
        .map(|i| vec![(i as f64 * 0.618) % 1.0; ev.space.len()])
        .map(|g| ev.evaluate(&g, &mut Default::default()))
        .find_map(|e| e.error)
        .expect("some candidate opens both corners");
    assert_eq!(failed, "metric top: both top corners open");
    // A function may not take a built-in's name, nor the spec's own.
    let clash = vec![("regions".to_string(), f().remove(0).1)];
    let e = Search::with_functions(&spec, Vec::new(), clash).unwrap_err();
    assert_eq!(
        e.to_string(),
        "metrics.\"regions\": a built-in or registered metric has this name"
    );
}

#[test]
fn a_seconds_budget_stops() {
    let mut spec = spec::parse(SMALL).unwrap();
    spec.budget = serde_json::from_str(r#"{"seconds": 0.2}"#).unwrap();
    let start = std::time::Instant::now();
    let outcome = Search::new(&spec).unwrap().run(&mut |_| {});
    // It stops after the batch in which the time ran out (generous bound for debug builds
    // on a loaded machine).
    assert!(start.elapsed().as_secs_f64() < 30.0);
    assert!(outcome.evaluations >= 12);
    assert!(!outcome.best.is_empty());
}

#[test]
fn diversity_over_too_many_cells_is_refused_before_generating() {
    let mut spec = spec::parse(SMALL).unwrap();
    spec.marahel.as_mut().unwrap()["metadata"] =
        serde_json::json!({"min": "300x300", "max": "300x300"});
    spec.maps = 1000;
    spec.objectives = vec![serde_json::from_str(r#"{"metric": "diversity"}"#).unwrap()];
    let search = Search::new(&spec).unwrap();
    let ev = search.evaluator();
    let genome = vec![0.5; ev.space.len()];
    let eval = ev.evaluate(&genome, &mut Default::default());
    let error = eval.error.expect("refused");
    assert!(
        error.starts_with("diversity over 1000 maps of up to 300x300 would keep more than"),
        "{error}"
    );
}

/// The skeleton's own values are the first candidate of every search: with a budget of one
/// evaluation, the one generator found is the skeleton itself (every shipped example's
/// ranges can write its skeleton's values).
#[test]
fn the_skeleton_is_in_the_first_batch() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/search");
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    for path in names {
        let mut spec = spec::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        spec.budget = serde_json::from_str(r#"{"evaluations": 1}"#).unwrap();
        spec.maps = 1;
        // Command metrics name their scripts from the repository's root, where the CLI runs.
        for def in spec.metrics.values_mut() {
            for arg in def.command.iter_mut().flatten() {
                let at_root = root.join("../..").join(&*arg);
                if at_root.is_file() {
                    *arg = at_root.display().to_string();
                }
            }
        }
        let search = Search::new(&spec).unwrap();
        let space = &search.evaluator().space;
        let skeleton = spec.skeleton().unwrap().1.clone();
        assert_eq!(
            space.decode(&space.skeleton_genome()).unwrap(),
            skeleton,
            "{}",
            path.display()
        );
        let outcome = search.run(&mut |_| {});
        assert_eq!(outcome.evaluations, 1);
        assert_eq!(outcome.best[0].1, skeleton, "{}", path.display());
    }
}

/// The MAP-Elites archive reports values that hold on seeds it never saw: every elite of
/// `cave-range.json` (a short run) measured again on 50 fresh seeds lands within 5% of
/// the axis values the archive records, on average over the cells.
#[test]
fn archive_values_hold_on_fresh_seeds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/search");
    let text = std::fs::read_to_string(root.join("cave-range.json")).unwrap();
    let mut spec = spec::parse(&text).unwrap();
    spec.budget = serde_json::from_str(r#"{"evaluations": 100}"#).unwrap();
    let search = Search::new(&spec).unwrap();
    let outcome = search.run(&mut |_| {});
    let grid = outcome.grid.as_ref().unwrap();
    let ev = search.evaluator();
    let seeds: Vec<u64> = (0..50)
        .map(|i| grid_core::Seed(77).stream("test").child(i).0)
        .collect();
    let (mut sum, mut n, mut within) = (0.0, 0usize, 0usize);
    for elite in grid.cells.iter().flatten() {
        let again = ev.evaluate_on(&elite.genome, &seeds, &mut Default::default());
        for axis in [grid.x.index, grid.y.index] {
            let (told, seen) = (elite.eval.means[axis], again.means[axis]);
            let off = (told - seen).abs() / told.abs().max(1.0);
            sum += off;
            n += 1;
            within += usize::from(off <= 0.05);
        }
    }
    assert!(n >= 16, "{n}");
    let mean = sum / n as f64;
    println!("mean relative difference {mean:.4}; {within} of {n} values within 5%");
    assert!(mean <= 0.05, "{mean}");
    assert!(within as f64 >= 0.8 * n as f64, "{within} of {n}");
}

/// A scorer that scores one candidate at a time, last first, counting them: another
/// machine's scorer as far as the search can tell.
struct Serial {
    scored: std::sync::atomic::AtomicU64,
    fail_after: u64,
}

impl levelgen_search::algorithms::Scorer for Serial {
    fn score(
        &self,
        evaluator: &levelgen_search::Evaluator,
        genomes: &[Vec<f64>],
        seeds: &[u64],
    ) -> Result<Vec<levelgen_search::Evaluation>, String> {
        use std::sync::atomic::Ordering;
        let done = self
            .scored
            .fetch_add(genomes.len() as u64, Ordering::SeqCst);
        if done + genomes.len() as u64 > self.fail_after {
            return Err("worker lost".into());
        }
        let mut scratch = Default::default();
        let mut out: Vec<_> = genomes
            .iter()
            .rev()
            .map(|g| evaluator.evaluate_on(g, seeds, &mut scratch))
            .collect();
        out.reverse();
        Ok(out)
    }
}

#[test]
fn a_scorer_of_ones_own_gives_the_local_outcome_and_stops_at_its_error() {
    let mut es = spec::parse(SMALL).unwrap();
    es.budget.evaluations = Some(60);
    let mut me = es.clone();
    me.algorithm = serde_json::from_str(
        r#"{"type": "map_elites", "initial": 20, "batch": 10,
            "x": {"metric": "empty_fraction", "min": 0, "max": 1, "bins": 4},
            "y": {"metric": "regions", "min": 0, "max": 8, "bins": 4}}"#,
    )
    .unwrap();
    for spec in [es, me] {
        let search = Search::new(&spec).unwrap();
        let serial = Serial {
            scored: 0.into(),
            fail_after: u64::MAX,
        };
        let outcome = search.run_with(&mut |_| {}, &serial).unwrap();
        assert_eq!(outcome, on_threads(2, &spec));
        let scored = serial.scored.into_inner();
        // MAP-Elites also hands its remeasure to the scorer: more than the budget.
        assert!(scored >= outcome.evaluations, "{scored}");
        assert_eq!(scored > outcome.evaluations, outcome.grid.is_some());
        let failing = Serial {
            scored: 0.into(),
            fail_after: 25,
        };
        let mut rows = 0;
        let err = search.run_with(&mut |_| rows += 1, &failing).unwrap_err();
        assert_eq!(err, "worker lost");
        assert!(rows <= 2, "no batch after the failure: {rows}");
    }
}

/// MAP-Elites' remeasure scores the elites in rounds (all unsettled elites of a round
/// share a seed count, one batch per round): each elite's result is the one it gets
/// measured alone, doubling its seeds until its two halves agree.
#[test]
fn remeasure_in_rounds_equals_one_elite_at_a_time() {
    use grid_core::Seed;
    use levelgen_search::remeasure::{MAX_SEEDS, TOLERANCE, remeasure_all};
    let mut me = spec::parse(SMALL).unwrap();
    me.budget.evaluations = Some(40);
    me.algorithm = serde_json::from_str(
        r#"{"type": "map_elites", "initial": 20, "batch": 10,
            "x": {"metric": "empty_fraction", "min": 0, "max": 1, "bins": 4},
            "y": {"metric": "regions", "min": 0, "max": 8, "bins": 4}}"#,
    )
    .unwrap();
    let search = Search::new(&me).unwrap();
    let outcome = search.run(&mut |_| {});
    let grid = outcome.grid.as_ref().unwrap();
    let elites: Vec<&levelgen_search::Elite> = grid.cells.iter().flatten().collect();
    assert!(elites.len() >= 3, "{}", elites.len());
    let ev = search.evaluator();
    let axes = [grid.x.index, grid.y.index];
    let fresh = |from: usize, n: usize| -> Vec<u64> {
        let root = Seed(me.seed).stream("fresh");
        (from..from + n).map(|i| root.child(i as u64).0).collect()
    };
    let alone = |e: &levelgen_search::Elite| {
        let mut scratch = Default::default();
        let mut n = ev.seeds.len().max(16);
        loop {
            let a = ev.evaluate_on(&e.genome, &fresh(0, n), &mut scratch);
            let b = ev.evaluate_on(&e.genome, &fresh(n, n), &mut scratch);
            let settled = a.is_valid()
                && b.is_valid()
                && axes.iter().all(|&m| {
                    let (x, y) = (a.means[m], b.means[m]);
                    (x - y).abs() <= TOLERANCE * x.abs().max(y.abs()).max(1.0)
                });
            if settled || 2 * n >= MAX_SEEDS || !a.is_valid() {
                return ev.evaluate_on(&e.genome, &fresh(0, 2 * n), &mut scratch);
            }
            n *= 2;
        }
    };
    let rounds = remeasure_all(
        ev,
        &levelgen_search::algorithms::Local,
        me.seed,
        &elites,
        &axes,
    )
    .unwrap();
    for (e, r) in elites.iter().zip(&rounds) {
        assert_eq!((&r.genome, r.born), (&e.genome, e.born));
        assert_eq!(r.eval, alone(e));
    }
}
