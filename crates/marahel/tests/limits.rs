//! Work budgets and message sizes: a script asking for 10^12 visits ends within the budget
//! with a warning naming it, and no error line quotes more than an excerpt of the input.

mod common;

use marahel::Script;
use marahel::explorer::{MIN_VISITS, VISITS_PER_CELL, visit_budget};

/// A 10x10 script with one explorer whose rule never fires (the map starts unknown), so
/// only `tiles` and the budget can end its passes.
fn never_firing(kind: &str, params: &str) -> Script {
    let text = format!(
        r#"{{"metadata": {{"min": "10x10", "max": "10x10"}},
            "entities": ["solid", "empty"],
            "explorers": [{{"type": "{kind}", "region": "map",
                "parameters": {{{params}}}, "rules": ["self(solid) -> self(empty)"]}}]}}"#
    );
    Script::parse(&text).unwrap_or_else(|e| panic!("{kind} {params}: {e}"))
}

#[track_caller]
fn assert_budget_warning(script: &Script) {
    let map = script.generate(3).unwrap();
    assert_eq!(map.warnings.len(), 1, "{:?}", map.warnings);
    let w = &map.warnings[0];
    assert!(w.starts_with("explorers[0]: "), "{w}");
    assert!(
        w.contains(&format!("work budget of {MIN_VISITS} visits")),
        "{w}"
    );
    assert!(
        w.contains(&format!("{VISITS_PER_CELL} per map cell")),
        "{w}"
    );
}

#[test]
fn huge_tiles_and_repeats_end_at_the_budget() {
    for (kind, extra) in [
        ("turtle_drunk", ""),
        ("turtle_heur", r#", "heuristics": "random""#),
        ("narrow_rand", ""),
    ] {
        for limit in [
            r#""tiles": "1000000000000""#,
            r#""tiles": "1000000000000", "changes": "1000000000000""#,
            r#""repeats": "1000000""#,
        ] {
            assert_budget_warning(&never_firing(kind, &format!("{limit}{extra}")));
        }
    }
    for kind in ["narrow_horz", "narrow_vert", "wide_rand"] {
        assert_budget_warning(&never_firing(kind, r#""repeats": "1000000""#));
    }
    let connect = never_firing(
        "turtle_connect",
        r#""repeats": "1000000", "entities": "empty""#,
    );
    assert_budget_warning(&connect);
}

#[test]
fn scripts_within_the_budget_get_no_warning() {
    // 10 repeats of a full walk: 1,000 visits, far below the budget.
    let s = never_firing("turtle_drunk", r#""repeats": "10", "tiles": "100""#);
    assert!(s.generate(1).unwrap().warnings.is_empty());
    // The budget grows with the map: 64 visits per cell of a 200x200 map (2,560,000) allow
    // 20 walks of 100,000 steps.
    let s = never_firing("turtle_drunk", r#""repeats": "20", "tiles": "100000""#);
    assert!(s.generate_sized(1, 200, 200).unwrap().warnings.is_empty());
    assert_eq!(visit_budget(200 * 200), 2_560_000);
    assert_eq!(visit_budget(10), MIN_VISITS);
    // The same walks on a 10x10 map (2,000,000 > 1,048,576) are cut.
    assert_budget_warning(&s);
}

#[test]
fn a_cut_walk_stops_at_exactly_the_budget() {
    // Every visit fires; `changes` is as large as `tiles`, so only the budget ends the pass.
    let text = r#"{"metadata": {"min": "10x10", "max": "10x10"},
        "entities": ["solid", "empty"],
        "explorers": [{"type": "narrow_rand", "region": "map",
            "parameters": {"tiles": "3000000", "changes": "3000000"},
            "rules": ["self(any) -> self(solid|empty)"]}]}"#;
    let map = Script::parse(text).unwrap().generate(5).unwrap();
    assert_eq!(map.warnings.len(), 1);
    // The map is still a whole map of the two entities.
    let names: std::collections::BTreeSet<_> = (0..10)
        .flat_map(|y| (0..10).map(move |x| (x, y)))
        .map(|(x, y)| map.name(x, y).to_string())
        .collect();
    assert_eq!(names, ["empty", "solid"].map(String::from).into());
}

#[test]
fn long_input_is_quoted_as_an_excerpt() {
    let long = "x".repeat(200_000);
    let cases = [
        format!(
            r#"{{"metadata": {{"min": "10x10"}}, "entities": ["solid"],
                "explorers": [{{"type": "narrow_horz", "rules": ["self(solid) -> {long}(solid)"]}}]}}"#
        ),
        format!(
            r#"{{"metadata": {{"min": "10x10"}}, "entities": ["solid"],
                "explorers": [{{"type": "{long}", "rules": ["self(solid) -> self(solid)"]}}]}}"#
        ),
        format!(
            r#"{{"metadata": {{"min": "10x10"}}, "entities": ["solid"], "{long}": 1,
                "explorers": []}}"#
        ),
        format!(r#"{{"metadata": {{"min": "{long}"}}, "entities": ["solid"], "explorers": []}}"#),
        format!(
            r#"{{"metadata": {{"min": "10x10"}}, "entities": ["{long}", "{long}y"],
                "explorers": [{{"type": "narrow_horz", "rules": ["self(z) -> self(z)"]}}]}}"#
        ),
    ];
    for text in cases {
        let e = Script::parse(&text).unwrap_err().to_string();
        assert!(e.len() < 1_000, "{} bytes: {}", e.len(), &e[..300]);
        assert!(e.contains("characters)"), "{e}");
    }
}

#[test]
fn json_syntax_errors_name_the_place_once() {
    let e = Script::parse("{\"metadata\": \n  [1, }")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("line 2, column 7: not valid JSON: "), "{e}");
    assert!(!e.contains("at line"), "{e}");
    assert_eq!(e.matches('2').count(), 1, "{e}");
}

#[cfg(feature = "accel")]
#[test]
fn live_distances_are_the_same_patched_and_computed_afresh() {
    // Rules that add and remove targets of `dist` while the pass reads it, in every explorer
    // family that reads the live map, on the whole map and on divider regions.
    let rules = r#"["dist(solid) > 3 -> self(solid)", "dist(solid) == 0, random < 0.3 -> self(empty)",
                   "dist(empty|solid) >= 1, dist(solid) < 2 -> plus(empty)"]"#;
    let mut checked = 0;
    for kind in common::LIVE_KINDS {
        for region in ["map", "all"] {
            let text = format!(
                r#"{{"metadata": {{"min": "23x17", "max": "41x29"}},
                    "regions": {{"type": "bsp", "number": 3, "parameters": {{"min": "6x6"}}}},
                    "entities": ["solid", "empty"],
                    "explorers": [
                      {{"type": "narrow_horz", "rules": ["random < 0.1 -> self(solid)", "-> self(empty)"]}},
                      {{"type": "{kind}", "region": "{region}", "parameters": {{"repeats": 2}},
                       "rules": {rules}}}]}}"#
            );
            let patched = Script::parse(&text).unwrap();
            let afresh = patched.clone().without_distance_patching();
            for seed in 0..6 {
                assert_eq!(
                    patched.generate(seed).unwrap(),
                    afresh.generate(seed).unwrap(),
                    "{kind} {region} seed {seed}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 60);
}

/// A script whose second explorer reads `estimator` at every empty cell of a `w x h` map
/// (30% solid), rewriting the map it reads when `live`; `guard` is a condition put first.
fn walk_script(estimator: &str, live: bool, guard: &str, (w, h): (usize, usize)) -> String {
    let replace = if live { "same" } else { "buffer" };
    format!(
        r#"{{"metadata": {{"min": "{w}x{h}", "max": "{w}x{h}"}},
            "entities": ["solid", "empty", "gold"],
            "explorers": [
              {{"type": "narrow_horz", "rules": ["random < 0.3 -> self(solid)", "-> self(empty)"]}},
              {{"type": "narrow_horz", "parameters": {{"replace": "{replace}"}},
                "rules": ["{guard}self(empty), {estimator} > -2 -> self(gold)"]}}]}}"#
    )
}

/// The quadratic walk forms on a 300x300 map end at once with [`MarahelError::Limit`], naming
/// the rule, the estimator as written, the region and the limit.
#[test]
fn quadratic_walks_on_a_large_region_stop_with_a_limit_error() {
    use marahel::MarahelError;
    use marahel::distance::quadratic::QUADRATIC_STEPS;
    for (estimator, live) in [
        ("maxDist(plus, solid, empty)", false),
        ("avgDist(plus, solid, empty)", false),
        ("maxDist(plus, solid)", true),
        ("minDist(plus, solid, empty)", true),
    ] {
        let script = Script::parse(&walk_script(estimator, live, "", (300, 300))).unwrap();
        let e = script.generate(1).unwrap_err();
        assert!(matches!(e, MarahelError::Limit { .. }), "{e:?}");
        assert_eq!(e.path(), "explorers[1].rules[0]");
        let m = e.to_string();
        assert!(m.contains(&format!("\"{estimator}\"")), "{m}");
        assert!(
            m.contains(&format!("limit of {QUADRATIC_STEPS} steps")),
            "{m}"
        );
        assert!(m.contains("300x300 region (90000 cells)"), "{m}");
    }
}

/// A live walking `minDist` is charged per cell it changes: a pass that changes few runs on
/// a 300x300 map, one that changes every empty cell stops once the changes reach the limit.
#[test]
fn live_walks_are_charged_per_changed_cell() {
    let rare = walk_script(
        "minDist(plus, solid, empty)",
        true,
        "random < 0.001, ",
        (300, 300),
    );
    let map = Script::parse(&rare).unwrap().generate(1).unwrap();
    assert!(map.warnings.is_empty(), "{:?}", map.warnings);
    let every = walk_script("minDist(plus, solid, empty)", true, "", (300, 300));
    let m = Script::parse(&every)
        .unwrap()
        .generate(1)
        .unwrap_err()
        .to_string();
    // (1 + 1111) planes of 90,000 cells are the first past 10^8.
    assert!(
        m.contains("1111 changed cells over a 300x300 region"),
        "{m}"
    );
}

/// The charge is decided per pass: a `minDist` walk in a buffered pass (one plane per pass)
/// and Manhattan forms are not charged; passes add up over repeats.
#[test]
fn only_quadratic_passes_are_charged_and_they_add_up() {
    for estimator in [
        "minDist(plus, solid, empty)",
        "maxDist(solid)",
        "avgDist(solid)",
    ] {
        let script = Script::parse(&walk_script(estimator, false, "", (300, 300))).unwrap();
        let map = script
            .generate(1)
            .unwrap_or_else(|e| panic!("{estimator}: {e}"));
        assert!(map.warnings.is_empty(), "{:?}", map.warnings);
    }
    // 80x80 = 6400 cells: 6400 * 6400 steps per pass, 2 passes fit in 10^8, 3 do not.
    let repeated = |repeats: u32| {
        let text = walk_script("maxDist(plus, solid)", false, "random < 0.01, ", (80, 80)).replace(
            r#""replace": "buffer""#,
            &format!(r#""replace": "buffer", "repeats": "{repeats}""#),
        );
        Script::parse(&text).unwrap().generate(2)
    };
    assert!(repeated(2).is_ok());
    let m = repeated(3).unwrap_err().to_string();
    assert!(
        m.contains("81920000 of them taken by earlier passes"),
        "{m}"
    );
}
