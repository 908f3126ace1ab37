//! The acceleration layer against the core: every example, fixture (v0.3.0 and 2017) and
//! random script, at its own size and at odd sizes, with every strategy on, each one off,
//! and all off, must give byte for byte the maps (and warnings) of the cell-by-cell core
//! (`Accel::none()`), the only oracle. And the planner's choice for every pass of the
//! examples and fixtures is pinned (`tests/golden/strategies.txt`; re-pin an intended change
//! with `MARAHEL_BLESS=1 cargo test -p marahel --test accel`, then read the diff).

mod common;

use marahel::{Accel, Script};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Every configuration to compare with the core: all on, each option off, each option alone.
fn configurations() -> Vec<(String, Accel)> {
    let mut list = vec![("all".to_string(), Accel::all())];
    for (name, _) in Accel::all().options() {
        list.push((format!("no {name}"), Accel::all_but(name).unwrap()));
    }
    for i in 0..Accel::all().options().len() {
        let mut only = Accel::none();
        let (name, on) = &mut only.options()[i];
        let name = *name;
        **on = true;
        list.push((format!("only {name}"), only));
    }
    list
}

/// The map (or error) of `script` for `seed` at `size` (else the script's own), as text with
/// its warnings.
fn outcome(script: &Script, seed: u64, size: Option<(usize, usize)>) -> String {
    let map = match size {
        None => script.generate(seed),
        Some((w, h)) => script.generate_sized(seed, w, h),
    };
    match map {
        Ok(m) => format!("{}{:?}", grid_core::export::to_text(&m), m.warnings),
        Err(e) => format!("error: {e}"),
    }
}

/// Asserts that every configuration gives the core's maps for `seeds` at each of `sizes`.
fn same_as_core(
    name: &str,
    text: &str,
    seeds: std::ops::Range<u64>,
    sizes: &[Option<(usize, usize)>],
) {
    same_as_core_with(configurations(), name, text, seeds, sizes);
}

/// [`same_as_core`] with the configurations `configs`.
fn same_as_core_with(
    configs: Vec<(String, Accel)>,
    name: &str,
    text: &str,
    seeds: std::ops::Range<u64>,
    sizes: &[Option<(usize, usize)>],
) {
    let script = Script::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let core = script.clone().with_accel(Accel::none());
    let configs: Vec<(String, Script)> = configs
        .into_iter()
        .map(|(n, a)| (n, script.clone().with_accel(a)))
        .collect();
    for &size in sizes {
        for seed in seeds.clone() {
            let want = outcome(&core, seed, size);
            for (config, s) in &configs {
                let got = outcome(s, seed, size);
                assert!(
                    got == want,
                    "{name} seed {seed} size {size:?} with {config} differs from the core:\n{got}\n---\n{want}"
                );
            }
        }
    }
}

/// A `w` x `h` map filled solid, then a scan repeated a million times reading a `side` x
/// `side` neighbourhood: cut at its work budget, charged by the cells a visit reads.
fn big_neighbourhood(w: usize, h: usize, side: usize) -> String {
    let c = side / 2;
    let row = |y: usize| -> String {
        (0..side)
            .map(|x| if (x, y) == (c, c) { '3' } else { '1' })
            .collect()
    };
    let matrix = (0..side).map(row).collect::<Vec<_>>().join(",");
    format!(
        r#"{{"metadata": {{"min": "{w}x{h}", "max": "{w}x{h}"}},
            "entities": ["solid", "empty"], "neighborhoods": {{"big": "{matrix}"}},
            "explorers": [
              {{"type": "narrow_horz", "region": "map", "rules": ["self(any) -> self(solid)"]}},
              {{"type": "narrow_horz", "region": "map", "parameters": {{"repeats": "1000000"}},
                "rules": ["big(solid) > 100 -> self(empty)"]}},
              {{"type": "narrow_horz", "region": "map", "parameters": {{"replace": "buffer", "repeats": "1000000"}},
                "rules": ["big(solid) < 3 -> self(empty)"]}}]}}"#
    )
}

#[test]
fn work_budgets_charged_by_cost_are_the_same_under_every_strategy() {
    // Scans so costly that the budget skips them at once (a warning), in every configuration.
    same_as_core(
        "big 101x101 at 200x150",
        &big_neighbourhood(200, 150, 101),
        0..1,
        &[None],
    );
    // Some repeats run, then the budget cuts them: the cut reads about 60 million cells (the
    // least budget times 64), so only all strategies against the core.
    let all = vec![("all".to_string(), Accel::all())];
    same_as_core_with(
        all,
        "big 15x15 at 40x30",
        &big_neighbourhood(40, 30, 15),
        0..1,
        &[None],
    );
}

#[test]
fn compat_reference_equals_the_core_with_every_strategy_on_and_off() {
    let mut scripts = common::examples()
        .into_iter()
        .map(|(n, t)| (n.to_string(), t))
        .collect::<Vec<_>>();
    if let Some(dir) = common::fixtures() {
        scripts.extend(common::scripts(&dir));
    }
    for (name, text) in scripts {
        let text = text.replacen(
            r#""metadata": {"#,
            r#""metadata": {"compat": "reference", "#,
            1,
        );
        assert!(text.contains("reference"), "{name}");
        same_as_core(&name, &text, 0..2, &SIZES[..2]);
    }
}

/// Odd sizes every script is also run at.
const SIZES: [Option<(usize, usize)>; 3] = [None, Some((23, 17)), Some((41, 9))];

#[test]
fn examples_equal_the_core_with_every_strategy_on_and_off() {
    for (name, text) in common::examples() {
        same_as_core(name, &text, 0..2, &SIZES);
    }
}

#[test]
fn fixtures_equal_the_core_with_every_strategy_on_and_off() {
    let Some(dir) = common::fixtures() else {
        return;
    };
    for (name, text) in common::scripts(&dir) {
        same_as_core(&name, &text, 0..2, &SIZES);
    }
    for (name, text) in common::scripts(&dir.join("legacy-2017")) {
        same_as_core(&name, &text, 0..2, &SIZES[..2]);
    }
}

#[test]
fn golden_seeds_equal_the_core() {
    // The pinned maps (`tests/golden.rs`) are the core's maps.
    for (name, text) in common::examples() {
        let script = Script::parse(&text).unwrap();
        let core = script.clone().with_accel(Accel::none());
        for seed in [0, 7] {
            assert_eq!(
                outcome(&script, seed, None),
                outcome(&core, seed, None),
                "{name}"
            );
        }
    }
}

/// A script with a pass of every strategy, so that switching any one off changes which code
/// runs (`every_option_changes_a_strategy`), and a connect along knight's moves (planned by
/// the core whatever the options).
const EVERY_STRATEGY: &str = r#"{"metadata": {"min": "45x31", "max": "45x31"},
  "entities": ["solid", "empty", "water"],
  "neighborhoods": {"knight": "01010,10001,00200,10001,01010"},
  "explorers": [
    {"type": "narrow_horz", "rules": ["random < 0.45 -> self(solid)", "-> self(empty)"]},
    {"type": "narrow_horz", "parameters": {"replace": "buffer"},
     "rules": ["self(solid), random < 0.5 -> self(water)", "self(empty), all(solid) > 4 -> self(solid:1|water:1)"]},
    {"type": "narrow_horz", "parameters": {"replace": "buffer"},
     "rules": ["dist(water) > 3 -> self(empty)"]},
    {"type": "narrow_horz", "parameters": {"changes": "400"},
     "rules": ["self(solid), all(empty) > 4 -> self(empty)", "self(empty), all(solid) > 5 -> self(solid)"]},
    {"type": "narrow_vert", "parameters": {"changes": "300"},
     "rules": ["self(water), plus(solid) > 1 -> self(solid)"]},
    {"type": "turtle_drunk", "parameters": {"tiles": "300", "dirprob": "0.2"},
     "rules": ["self(solid), random < 0.8 -> self(empty)", "self(water) -> all(empty)"]},
    {"type": "narrow_horz", "parameters": {"changes": "200"},
     "rules": ["dist(water) > 2, self(empty) -> self(water)"]},
    {"type": "wide_rand", "rules": ["self(water), all(water) < 2 -> self(empty)"]},
    {"type": "turtle_connect", "parameters": {"entities": "water", "directions": "knight"},
     "rules": ["self(solid) -> self(water)"]},
    {"type": "turtle_connect", "parameters": {"entities": "empty"},
     "rules": ["self(solid) -> self(empty)", "self(water) -> self(empty)"]}
  ]}"#;

/// The strategies of every pass, per explorer: `explorer kind: strategy[+live], ...`.
fn plan_lines(script: &Script, seed: u64) -> String {
    let (_, trace) = script.generate_traced(seed, None).unwrap();
    let mut by_explorer: Vec<(usize, &str, BTreeSet<String>)> = Vec::new();
    for pass in trace {
        let mut name = pass.strategy.name().to_string();
        if let Some(layout) = pass.live_planes {
            write!(name, "+live-{layout}").unwrap();
        }
        for (on, what) in [
            (pass.count_planes, "+count-planes"),
            (pass.distance_log, "+distance-log"),
            (pass.connect_raster, "+connect-raster"),
        ] {
            if on {
                name.push_str(what);
            }
        }
        match by_explorer.last_mut() {
            Some((i, _, set)) if *i == pass.explorer => {
                set.insert(name);
            }
            _ => by_explorer.push((pass.explorer, pass.kind, BTreeSet::from([name]))),
        }
    }
    let mut out = String::new();
    for (i, kind, set) in by_explorer {
        let set: Vec<String> = set.into_iter().collect();
        writeln!(out, "  {i} {kind}: {}", set.join(", ")).unwrap();
    }
    out
}

#[test]
fn every_option_changes_a_strategy_and_none_leaves_only_the_core() {
    let script = Script::parse(EVERY_STRATEGY).unwrap();
    let all = plan_lines(&script, 3);
    for (name, accel) in configurations().into_iter().skip(1) {
        let off = plan_lines(&script.clone().with_accel(accel), 3);
        assert_ne!(off, all, "switching {name} off changes no pass");
    }
    let (_, trace) = script
        .clone()
        .with_accel(Accel::none())
        .generate_traced(3, None)
        .unwrap();
    assert!(!trace.is_empty());
    for pass in trace {
        assert!(
            pass.strategy.is_core()
                && pass.live_planes.is_none()
                && !pass.count_planes
                && !pass.distance_log
                && !pass.connect_raster,
            "{pass:?}"
        );
    }
    same_as_core("every strategy", EVERY_STRATEGY, 0..3, &SIZES);
}

#[test]
fn the_planner_choices_are_pinned() {
    let mut got = String::new();
    let mut scripts: Vec<(String, String)> = common::examples()
        .into_iter()
        .map(|(n, t)| (format!("example {n}"), t))
        .collect();
    scripts.push(("every strategy".into(), EVERY_STRATEGY.into()));
    let fixtures = common::fixtures();
    if let Some(dir) = &fixtures {
        for (n, t) in common::scripts(dir) {
            scripts.push((format!("fixture {n}"), t));
        }
        for (n, t) in common::scripts(&dir.join("legacy-2017")) {
            scripts.push((format!("fixture 2017 {n}"), t));
        }
    }
    for (name, text) in scripts {
        let script = Script::parse(&text).unwrap();
        writeln!(got, "{name}\n{}", plan_lines(&script, 0)).unwrap();
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/strategies.txt");
    if fixtures.is_none() {
        // Only the examples can be checked: the pinned file begins with them.
        let want = std::fs::read_to_string(&path).unwrap();
        assert!(want.starts_with(&got), "{got}");
        return;
    }
    if std::env::var_os("MARAHEL_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        got,
        want,
        "the planner chose differently; see {}",
        path.display()
    );
}

/// A walking `minDist` in a live pass: rules that write only its targets (the plane is
/// lowered in place), that open cells to walks, and that close them (computed again).
const LIVE_WALK_RULES: [&str; 6] = [
    "self(empty), minDist(plus, water, empty) > 4, random < 0.5 -> self(water)",
    "minDist(ring, water|solid, empty) > 2 -> plus(water)",
    "self(empty), minDist(plus, water, empty) == -1 -> self(water)",
    "self(solid), minDist(ring, water) < 3, random < 0.3 -> self(empty)",
    "self(empty), minDist(plus, water, empty) > 1, random < 0.2 -> self(solid)",
    "self(water), minDist(plus, water, empty) == 0, random < 0.1 -> self(empty)",
];

#[test]
fn live_walks_equal_the_core_in_every_visiting_order() {
    let sizes = [Some((23, 17)), Some((41, 9))];
    for kind in common::LIVE_KINDS {
        // Only targets written; then cells opened too; then closed too.
        for rules in [
            &LIVE_WALK_RULES[..3],
            &LIVE_WALK_RULES[..4],
            &LIVE_WALK_RULES[..],
        ] {
            for divider in [false, true] {
                let text = live_script(kind, rules, divider, 35);
                let name = format!("live walk {kind} {} rules", rules.len());
                same_as_core_with(live_dist_configurations(), &name, &text, 0..2, &sizes);
            }
        }
    }
}

/// A live pass whose rules write only targets of its walking `minDist` runs in place
/// (`accel::live_walk`) but is charged per changed cell all the same (one write can lower
/// most of the region): these rules change thousands of cells and are refused on a 200x200
/// map, like a pass that also opens cells.
#[test]
fn live_walks_are_charged_whatever_they_write() {
    for rules in [&LIVE_WALK_RULES[..3], &LIVE_WALK_RULES[..4]] {
        let text = live_script("narrow_horz", rules, false, 35);
        let e = Script::parse(&text)
            .unwrap()
            .generate_sized(3, 200, 200)
            .unwrap_err();
        assert!(e.to_string().contains("over a limit"), "{e}");
        assert_eq!(e.path(), "explorers[1].rules[0]");
        // Two repeats of 70x70: 2 * 4900 * 4900 steps, within the limit.
        let small = Script::parse(&text).unwrap().generate_sized(3, 70, 70);
        assert!(small.is_ok(), "{small:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(24), ..ProptestConfig::default() })]

    #[test]
    fn random_scripts_equal_the_core_with_every_strategy_on_and_off(
        explorers in proptest::collection::vec(common::raw_explorer(), 1..4),
        divider in any::<bool>(),
        seed in 0u64..1000,
    ) {
        let text = common::random_script(&explorers, divider);
        same_as_core("random", &text, seed..seed + 1, &[None, Some((21, 11))]);
    }
}

/// Rules that make and unmake the targets of the `dist` (and 2017 `maxDist`, `avgDist`) they
/// read: the visited cell, its `plus` or its `all` neighbourhood, in several target lists.
const LIVE_DIST_RULES: [&str; 9] = [
    "dist(solid) > 3 -> self(solid)",
    "dist(solid) == 0, random < 0.4 -> self(empty)",
    "dist(solid) < 3, random < 0.2 -> plus(empty)",
    "dist(solid|water) >= 5 -> all(water)",
    "dist(water) == 1 -> self(solid)",
    "self(water), dist(solid) > 2 -> self(empty)",
    "dist(water) > 8, random < 0.5 -> ring(solid:1|water:1)",
    "maxDist(solid) < 12, random < 0.3 -> self(empty)",
    "avgDist(water|solid) > 9, random < 0.4 -> plus(water)",
];

/// A script whose second explorer, of type `kind`, reads `dist` while it writes the map with
/// `rules` (indices into [`LIVE_DIST_RULES`]), over the map or three BSP regions, from a map
/// of `density` percent solid cells.
fn live_dist_script(kind: &str, rules: &[usize], divider: bool, density: u32) -> String {
    let rules: Vec<&str> = rules
        .iter()
        .map(|&i| LIVE_DIST_RULES[i % LIVE_DIST_RULES.len()])
        .collect();
    live_script(kind, &rules, divider, density)
}

/// [`live_dist_script`] with the rules written out.
fn live_script(kind: &str, rules: &[&str], divider: bool, density: u32) -> String {
    let heuristics = match kind {
        "greedy" | "wide_heur" => r#", "heuristics": "dist(solid),random""#,
        _ => "",
    };
    let (regions, region) = match divider {
        true => (
            r#""regions": {"type": "bsp", "number": "3", "parameters": {"min": "6x6"}},"#,
            "all",
        ),
        false => ("", "map"),
    };
    format!(
        r#"{{"metadata": {{"min": "30x20"}}, {regions}
            "entities": ["solid", "empty", "water"],
            "neighborhoods": {{"ring": "111,121,111"}},
            "explorers": [
              {{"type": "narrow_horz", "rules": ["random < {} -> self(solid)", "-> self(empty)"]}},
              {{"type": "{kind}", "region": "{region}", "parameters": {{"repeats": "2"{heuristics}}},
               "rules": {}}}]}}"#,
        density as f64 / 100.0,
        serde_json::to_string(&rules).unwrap()
    )
}

/// The configurations whose `dist` differs from the core's: every strategy, and the
/// interpreted rules alone, with the live `dist` structure.
fn live_dist_configurations() -> Vec<(String, Accel)> {
    let alone = Accel {
        distance_patching: true,
        ..Accel::none()
    };
    vec![
        ("all".into(), Accel::all()),
        ("live dist alone".into(), alone),
    ]
}

#[test]
fn live_dist_equals_the_core_in_every_visiting_order() {
    // Row and column scans, random cells, walkers, heuristic orders (whose heuristic reads
    // `dist` too) and the whole region in random order; the visited cell and neighbourhoods
    // written; odd sizes, one and several blocks of the nearest-target structure across.
    let sizes = [Some((23, 17)), Some((41, 9)), Some((45, 33)), Some((9, 41))];
    for kind in common::VISITING_KINDS {
        for divider in [false, true] {
            let text = live_dist_script(kind, &[0, 1, 2, 3, 4, 5, 6], divider, 3);
            let name = format!("live dist {kind}");
            same_as_core_with(live_dist_configurations(), &name, &text, 0..2, &sizes);
        }
    }
    // The 2017 Manhattan `maxDist` and `avgDist`, kept with the writes too.
    for kind in ["narrow_horz", "narrow_rand", "turtle_drunk", "wide_rand"] {
        let text = live_dist_script(kind, &[7, 0, 1, 8], true, 3);
        let name = format!("live maxDist, avgDist {kind}");
        same_as_core_with(live_dist_configurations(), &name, &text, 0..2, &sizes[..2]);
    }
    // A 2017 agent reading `minDist` while it digs.
    let agents = r#"{"metadata": {"min": "37x29", "max": "37x29"},
      "region": {"type": "bsp", "number": "4", "parameters": {"min": "8x8", "max": "20x20"}},
      "entity": {"empty": {"color": "0xffffff"}, "solid": {"color": "0x000000"}},
      "neighborhood": {"plus": "010,121,010"},
      "rule": [
        {"type": "automata", "region": {"name": "map"}, "parameters": {"iterations": "1"},
         "rules": ["random < 0.97 -> self(solid)", "self(any) -> self(empty)"]},
        {"type": "agent", "region": {"name": "map"},
         "parameters": {"number": "2,4", "change": "10,15", "lifespan": "100,200", "directions": "plus"},
         "rules": ["minDist(empty) > 2 -> plus(empty)", "minDist(empty) == 0, random < 0.3 -> self(solid)"]}
      ]}"#;
    same_as_core("live minDist agents", agents, 0..3, &[None]);
}

#[test]
fn live_dist_adding_targets_only_equals_the_core() {
    // Passes that only add targets: spaced items (hundreds of additions) and filling every
    // cell (thousands), read from the plane and the added targets, then past them from the
    // nearest-target structure.
    for (rule, fill) in [
        ("dist(solid) > 3, random < 0.3 -> self(solid)", 1),
        ("dist(solid) > 0, random < 0.9 -> self(solid)", 1),
        ("dist(solid) > 1 -> plus(solid)", 0),
    ] {
        for kind in ["narrow_rand", "narrow_horz", "wide_rand"] {
            let text = format!(
                r#"{{"metadata": {{"min": "60x50", "max": "60x50"}},
                  "entities": ["solid", "empty"],
                  "explorers": [
                    {{"type": "narrow_horz", "rules": ["random < 0.00{fill} -> self(solid)", "-> self(empty)"]}},
                    {{"type": "{kind}", "parameters": {{"repeats": "2"}}, "rules": ["{rule}"]}}]}}"#
            );
            let configs = live_dist_configurations();
            same_as_core_with(configs, &format!("{kind} {rule}"), &text, 0..2, &[None]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(16), ..ProptestConfig::default() })]

    #[test]
    fn random_live_dist_scripts_equal_the_core(
        kind in 0usize..7,
        rules in proptest::collection::vec(0usize..9, 1..4),
        divider in any::<bool>(),
        density in 0u32..30,
        (w, h) in (3usize..60, 3usize..40),
        seed in 0u64..1000,
    ) {
        let text = live_dist_script(common::VISITING_KINDS[kind], &rules, divider, density);
        let configs = live_dist_configurations();
        same_as_core_with(configs, "random live dist", &text, seed..seed + 1, &[Some((w, h))]);
    }
}

/// The limit of the quadratic walk forms is decided alike under every strategy: a 100x100
/// region (exactly the limit) runs and gives the core's map; 101x100 is the core's error. A
/// live walking `minDist` is charged per changed cell, so this pass, which changes few,
/// runs at both sizes.
#[test]
fn quadratic_walks_at_the_limit_equal_the_core() {
    for (estimator, replace) in [
        ("maxDist(plus, solid, empty)", "buffer"),
        ("avgDist(plus, solid)", "same"),
        ("minDist(plus, solid, empty)", "same"),
    ] {
        let per_change = estimator.starts_with("minDist");
        let text = format!(
            r#"{{"metadata": {{"min": "100x100", "max": "101x100"}},
                "entities": ["solid", "empty", "gold"],
                "explorers": [
                  {{"type": "narrow_horz", "rules": ["random < 0.3 -> self(solid)", "-> self(empty)"]}},
                  {{"type": "narrow_horz", "parameters": {{"replace": "{replace}"}},
                    "rules": ["random < 0.002, self(empty), {estimator} > 3 -> self(gold)"]}}]}}"#
        );
        let script = Script::parse(&text).unwrap();
        assert!(script.generate_sized(1, 100, 100).is_ok(), "{estimator}");
        let larger = script.generate_sized(1, 101, 100);
        match larger {
            Ok(_) => assert!(per_change, "{estimator}"),
            Err(e) => assert!(!per_change && e.to_string().contains("over a limit"), "{e}"),
        }
        same_as_core(
            estimator,
            &text,
            0..2,
            &[Some((100, 100)), Some((101, 100))],
        );
    }
}

/// A live walking `minDist` is charged per changed cell under every strategy, also when one
/// executer changes several cells at once (`box(empty)`, nine cells): the plain core's
/// stores count each changed cell, as the strategies' writes do, so the same map is refused
/// at the same change with every strategy on and off.
#[test]
fn live_walk_charge_counts_every_cell_of_a_neighbourhood_write() {
    let text = r#"{
      "metadata": { "min": "120x120", "max": "120x120" },
      "entities": ["solid", "empty"],
      "neighborhoods": { "box": "111,121,111" },
      "explorers": [
        { "type": "narrow_horz", "rules": ["self(any) -> self(solid)"] },
        { "type": "narrow_rand", "parameters": { "tiles": "3000", "changes": "3000" },
          "rules": ["minDist(plus, empty) < 1000 -> box(empty)"] }
      ]
    }"#;
    let script = Script::parse(text).unwrap();
    for accel in [Accel::all(), Accel::none()] {
        match script.clone().with_accel(accel).generate(1) {
            Ok(_) => panic!("{accel:?}: the map was made past the limit"),
            Err(e) => assert!(e.to_string().contains("over a limit"), "{e}"),
        }
    }
    same_as_core("box writes under a live walk", text, 1..2, &[None]);
}

/// The trace records each pass's plan as decided, with the reason when the pass ran the
/// general path although a faster one exists for its explorer type.
#[test]
fn the_trace_names_each_fallback_to_the_general_path() {
    let script = Script::parse(EVERY_STRATEGY).unwrap();
    let trace = |accel: Accel| {
        script
            .clone()
            .with_accel(accel)
            .generate_traced(3, None)
            .unwrap()
            .1
    };
    for name in [
        "row_batching",
        "walker_steps",
        "connect_walk",
        "compiled_rules",
        "line_visits",
    ] {
        let why = format!("{name} off");
        let passes = trace(Accel::all_but(name).unwrap());
        let fell = passes.iter().filter(|p| p.fallback == Some(why.as_str()));
        assert!(fell.count() > 0, "{name}: {passes:?}");
        for p in &passes {
            assert!(
                p.fallback.is_none() || p.strategy.is_core() || p.strategy.name() == "compiled",
                "{p:?}"
            );
        }
    }
    // Every strategy on: a pass that ran a faster path names no fallback, and the connect
    // passes report the raster plan and the walk they used.
    let passes = trace(Accel::all());
    for p in &passes {
        if !p.strategy.is_core() && p.strategy.name() != "compiled" {
            assert_eq!(p.fallback, None, "{p:?}");
        }
    }
    let connect = passes.iter().filter(|p| p.kind == "turtle_connect");
    assert!(connect.clone().count() > 0);
    assert!(connect.clone().all(|p| p.connect_walk), "{passes:?}");
    assert!(connect.clone().any(|p| p.connect_raster), "{passes:?}");
    let none = trace(Accel::none());
    assert!(none.iter().all(|p| !p.connect_walk && !p.connect_raster));
}
