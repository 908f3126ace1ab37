//! The compiled rules (`marahel::accel::compiled`, with live neighbourhood counts) must give
//! exactly the maps of the plain core (`Accel::none()`, every strategy off): same cells, same
//! random draws. Checked on every example and fixture script and on random well-formed scripts that mix every
//! estimator, operator, executer, explorer and buffer mode.

mod common;

use common::{OPS, cases};
use marahel::{Accel, Script};
use proptest::prelude::*;

/// Asserts that `text` gives the same maps compiled and interpreted, for `seeds`, at the
/// script's own size or at `size`.
/// The first of `seeds` whose map differs between the compiled rules and the interpreter.
fn first_difference(compiled: &Script, seeds: std::ops::Range<u64>) -> Option<u64> {
    // The plain core: no strategy at all (rules compiled or not, nothing batched).
    let interpreted = compiled.clone().with_accel(Accel::none());
    seeds
        .into_iter()
        .find(|&s| compiled.generate(s).unwrap().cells != interpreted.generate(s).unwrap().cells)
}

fn same_maps(text: &str, seeds: std::ops::Range<u64>, size: Option<(usize, usize)>) {
    let compiled = Script::parse(text).unwrap();
    let kernels = compiled.compiled_rules().iter().filter(|&&c| c).count();
    assert!(kernels > 0, "no explorer was compiled");
    let interpreted = compiled.clone().with_accel(Accel::none());
    for seed in seeds {
        let (a, b) = match size {
            None => (
                compiled.generate(seed).unwrap(),
                interpreted.generate(seed).unwrap(),
            ),
            Some((w, h)) => (
                compiled.generate_sized(seed, w, h).unwrap(),
                interpreted.generate_sized(seed, w, h).unwrap(),
            ),
        };
        assert_eq!(a.cells, b.cells, "seed {seed}: {text}");
        assert_eq!(a.warnings, b.warnings, "seed {seed}");
    }
}

#[test]
fn examples_are_the_same_compiled_and_interpreted() {
    for (_, text) in common::examples() {
        same_maps(&text, 0..12, None);
        same_maps(&text, 0..4, Some((23, 17)));
    }
}

#[test]
fn fixtures_are_the_same_compiled_and_interpreted() {
    let Some(dir) = common::fixtures() else {
        return;
    };
    let mut n = 0;
    for (name, text) in common::scripts(&dir) {
        eprintln!("{name}");
        same_maps(&text, 0..10, None);
        n += 1;
    }
    for entry in std::fs::read_dir(dir.join("legacy-2017")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        same_maps(&text, 0..6, None);
        n += 1;
    }
    assert!(n >= 15, "only {n} fixture scripts found");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(160), ..ProptestConfig::default() })]

    #[test]
    fn random_scripts_are_the_same_compiled_and_interpreted(
        explorers in proptest::collection::vec(common::raw_explorer(), 1..4),
        divider in any::<bool>(),
        seed in 0u64..1000,
    ) {
        let text = common::random_script(&explorers, divider);
        let Ok(compiled) = Script::parse(&text) else {
            // A random heuristics/limits mix may be refused; that is the parser's business.
            panic!("refused: {:?}", Script::parse(&text).unwrap_err().to_string());
        };
        prop_assert_eq!(first_difference(&compiled, seed..seed + 3), None, "{}", text);
    }
}

#[test]
fn explorers_with_more_rules_than_a_kernel_holds_are_interpreted() {
    // 70 rules: more than the kernel's 64 rule masks.
    let mut rules: Vec<String> = (0..69)
        .map(|i| format!("random < {} -> self(water)", i as f64 / 1000.0))
        .collect();
    rules.push("-> self(empty)".into());
    let text = format!(
        r#"{{"metadata": {{"min": "9x7", "max": "9x7"}}, "entities": ["empty", "water"],
            "explorers": [{{"type": "narrow_rand", "rules": {}}}]}}"#,
        serde_json::to_string(&rules).unwrap()
    );
    let script = Script::parse(&text).unwrap();
    assert!(!script.compiled_rules()[0]);
    let a = script.generate(3).unwrap();
    let b = script.clone().without_compiled_rules().generate(3).unwrap();
    assert_eq!(a.cells, b.cells);
    assert!(a.count("water") > 0 && a.count("empty") > 0);
}

#[test]
fn drunk_walkers_draw_tests_match_the_interpreter_for_every_operator_and_threshold() {
    // The digger shape `[self test][, random test] -> one executer` runs in the walker's own
    // step loop, where `random op t` is an integer test of the draw's bits.
    for op in ["<", "<=", ">", ">=", "==", "!="] {
        for t in ["-1", "0", "0.3", "0.5", "0.75", "1", "2"] {
            for (i, cond) in [format!("random {op} {t}"), format!("{t} {op} random")]
                .iter()
                .enumerate()
            {
                let text = format!(
                    r#"{{"metadata": {{"min": "21x15", "max": "21x15"}}, "entities": ["solid", "empty", "water"],
                        "explorers": [
                          {{"type": "narrow_horz", "rules": ["-> self(solid)"]}},
                          {{"type": "turtle_drunk", "parameters": {{"repeats": "2", "tiles": "120", "dirprob": "0.3"}},
                            "rules": ["self(solid), {cond} -> self(empty)", "{cond} -> all(water)", "-> self(solid)"]}}
                        ]}}"#
                );
                let compiled = Script::parse(&text).unwrap();
                let differs = first_difference(&compiled, 0..4);
                assert_eq!(
                    differs, None,
                    "{cond} (form {i}): the seed whose maps differ"
                );
            }
        }
    }
}

#[test]
fn digger_walkers_match_the_interpreter() {
    // The digger's exact shape `[self test,] random test -> self(v)` then `[self test] ->
    // all(u)` runs in a step loop of its own: 3x3 squares away from and along region edges
    // (regions of a divider, narrow maps), with and without `self` tests, firing limits below
    // the visits, both direction sets, turning never, always and sometimes.
    let firsts = [
        "random < 0.7",
        "self(solid), random < 0.5",
        "self(empty) == 0, random >= 0.25",
        "self(solid|water) > 0, 0.6 > random",
        "random != 0.2",
        "self(solid) != 1, random <= 2",
        "self(water:3) < 2, random > 1",
    ];
    let seconds = [
        "",
        "self(any)",
        "self(solid)",
        "self(empty) != 0",
        "self(water:2) >= 2",
    ];
    let params = [
        r#""repeats": "3", "tiles": "300", "dirprob": "0.15""#,
        r#""tiles": "200", "changes": "37", "dirprob": "0.4", "directions": "all""#,
        r#""repeats": "2", "tiles": "90", "dirprob": "0""#,
        r#""tiles": "80", "changes": "5", "dirprob": "1""#,
    ];
    let places = [
        ("21x15", r#""map""#, ""),
        ("3x7", r#""map""#, ""),
        ("2x1", r#""map""#, ""),
        (
            "25x19",
            r#""all""#,
            r#""regions": {"type": "bsp", "number": "5", "parameters": {"min": "1x2", "max": "9x9"}},"#,
        ),
    ];
    for first in firsts {
        for second in seconds {
            for p in params {
                for (size, region, regions) in places {
                    let text = format!(
                        r#"{{"metadata": {{"min": "{size}", "max": "{size}"}}, {regions}
                            "entities": ["solid", "empty", "water"],
                            "explorers": [
                              {{"type": "narrow_horz", "rules": ["random < 0.2 -> self(water)", "-> self(solid)"]}},
                              {{"type": "turtle_drunk", "region": {region}, "parameters": {{{p}}},
                                "rules": ["{first} -> self(empty)", "{second} -> all(water)"]}}
                            ]}}"#
                    );
                    same_maps(&text, 0..3, None);
                }
            }
        }
    }
}

/// Entities of the cellular-automaton scripts (many, so that a rule per entity makes more
/// lanes than a row scan handles).
const CA_ENTITIES: [&str; 7] = ["solid", "empty", "water", "lava", "sand", "grass", "rock"];
/// Counting estimators of the cellular-automaton rules: 3x3 boxes (byte planes, paired when
/// two share the box), other shapes, weights, the outside, and weights too large for a byte.
const CA_COUNTS: [&str; 13] = [
    "plus(solid:51)",
    "all(solid)",
    "all(empty)",
    "all(empty:2|water)",
    "all(out)",
    "plus(solid)",
    "plus(empty|water)",
    "ring(water)",
    "far(solid)",
    "row(solid|lava)",
    "all(solid:40)",
    "shift(empty)",
    "all(solid|empty|water|lava|sand|grass|rock)",
];
const CA_THRESHOLDS: [&str; 9] = ["0", "1", "2.5", "4", "5", "6", "8", "254.5", "300"];

/// One cellular-automaton rule: `self(x)` (or none), one count test (or none), one write.
fn ca_rule(own: Option<usize>, count: Option<(usize, usize, usize)>, to: usize) -> String {
    let mut conds = Vec::new();
    if let Some(x) = own {
        conds.push(format!("self({})", CA_ENTITIES[x % CA_ENTITIES.len()]));
    }
    if let Some((c, op, t)) = count {
        conds.push(format!(
            "{} {} {}",
            CA_COUNTS[c % CA_COUNTS.len()],
            OPS[op % OPS.len()],
            CA_THRESHOLDS[t % CA_THRESHOLDS.len()]
        ));
    }
    format!(
        "{} -> self({})",
        conds.join(", "),
        CA_ENTITIES[to % CA_ENTITIES.len()]
    )
}

type CaRule = (Option<(usize, usize, usize)>, usize);

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(160), ..ProptestConfig::default() })]

    /// Cellular automata (a rule per `self` code, at most one count test each) in every
    /// count layout the live planes have (words, bytes, paired bytes), with row scans of
    /// one to more lanes than a scan handles, column scans, limits, repeats over disjoint
    /// regions (kept planes), the outside and buffered passes.
    #[test]
    fn cellular_automata_are_the_same_compiled_and_interpreted(
        rules in proptest::collection::vec(
            (proptest::option::weighted(0.85, (0usize..13, 0usize..6, 0usize..9)), 0usize..7),
            1..8),
        first in 0usize..7,
        shared in any::<bool>(),
        vertical in proptest::bool::weighted(0.2),
        params in 0usize..5,
        divider in any::<bool>(),
        seed in 0u64..1000,
    ) {
        // Rule i tests code `first + i` (distinct codes: one candidate per code); with
        // `shared`, a single rule without a `self` test applies to every code.
        let rules: Vec<String> = if shared {
            let (count, to): CaRule = rules[0];
            vec![ca_rule(None, count, to)]
        } else {
            rules
                .iter()
                .take(CA_ENTITIES.len())
                .enumerate()
                .map(|(i, &(count, to))| ca_rule(Some(first + i), count, to))
                .collect()
        };
        let p = match params {
            1 => r#""repeats": "3""#,
            2 => r#""tiles": "150", "changes": "40""#,
            3 => r#""repeats": "2", "out": "water""#,
            4 => r#""replace": "buffer""#,
            _ => r#""repeats": "2""#,
        };
        let regions = if divider {
            r#""regions": {"type": "bsp", "number": "4", "parameters": {"min": "5x5", "max": "14x12"}},"#
        } else {
            ""
        };
        let fill: Vec<String> = CA_ENTITIES
            .iter()
            .enumerate()
            .map(|(i, e)| format!("random < {} -> self({e})", 0.2 + 0.1 * i as f64))
            .chain(std::iter::once("-> self(empty)".to_string()))
            .collect();
        let text = format!(
            r#"{{"metadata": {{"min": "37x23", "max": "37x23"}}, {regions}
                "entities": {},
                "neighborhoods": {{"ring": "111,121,111", "far": "1000001,0000000,0003000",
                                   "row": "111,131,111,010", "shift": "31,11"}},
                "explorers": [
                  {{"type": "narrow_horz", "rules": {}}},
                  {{"type": "{}", "region": "{}", "parameters": {{{p}}}, "rules": {}}}]}}"#,
            serde_json::to_string(&CA_ENTITIES).unwrap(),
            serde_json::to_string(&fill).unwrap(),
            if vertical { "narrow_vert" } else { "narrow_horz" },
            if divider { "all" } else { "map" },
            serde_json::to_string(&rules).unwrap()
        );
        let compiled = Script::parse(&text).unwrap();
        prop_assert!(compiled.compiled_rules()[1]);
        prop_assert_eq!(first_difference(&compiled, seed..seed + 3), None, "{}", text);
    }
}

/// Cellular automata whose two count tests share one neighbourhood (paired planes, with a
/// padded code plane for the row scans) and whose rules see the codes their firings wrote:
/// over disjoint regions repeated (kept planes), with passes of more visits than cells and
/// firing limits, horizontal and vertical, on maps of several sizes.
#[test]
fn paired_row_scans_see_the_codes_written() {
    let rules = [
        r#"["self(empty), all(solid) > 3 -> self(water)", "self(water), all(empty) > 2 -> self(solid)", "self(solid), all(solid) < 5 -> self(empty)"]"#,
        r#"["self(solid), plus(empty) > 1 -> self(empty)", "self(empty), plus(solid) > 2 -> self(water)", "self(water), plus(solid) > 0 -> self(solid)"]"#,
        r#"["self(empty), all(solid) > 4 -> self(solid:1|water:1)", "self(water), all(empty) < 3 -> self(empty)", "self(solid) -> all(water)"]"#,
        r#"["self(empty|water), ring(solid) > 3 -> self(solid)", "self(solid), ring(empty) > 4 -> self(empty)"]"#,
    ];
    let params = [
        r#""repeats": "3""#,
        r#""repeats": "2", "tiles": "900""#,
        r#""repeats": "2", "changes": "7""#,
        r#""repeats": "2", "out": "water""#,
    ];
    for (k, r) in rules.iter().enumerate() {
        for (q, p) in params.iter().enumerate() {
            for kind in ["narrow_horz", "narrow_vert"] {
                let text = format!(
                    r#"{{"metadata": {{"min": "9x7", "max": "41x33"}},
                        "regions": {{"type": "bsp", "number": "5", "parameters": {{"min": "4x3", "max": "20x18"}}}},
                        "entities": ["solid", "empty", "water", "lava"],
                        "neighborhoods": {{"ring": "111,121,111"}},
                        "explorers": [
                          {{"type": "narrow_horz", "rules": ["random < 0.4 -> self(solid)", "random < 0.3 -> self(water)", "-> self(empty)"]}},
                          {{"type": "{kind}", "region": "all", "parameters": {{{p}}}, "rules": {r}}}]}}"#
                );
                let seeds = (k * 40 + q * 10) as u64;
                same_maps(&text, seeds..seeds + 10, None);
            }
        }
    }
}

/// The usual two-rule cellular automaton (`all(solid)` and `all(empty)`, paired planes summed
/// row by row for regions up to 30 wide): regions from one cell to wider than the narrow
/// sums take, at every edge of maps of several sizes (the map's last cells), with the
/// outside weighing nothing, a solid or an empty cell, against the interpreter.
#[test]
fn narrow_paired_regions_of_every_width() {
    for (q, out) in ["", r#", "out": "solid""#, r#", "out": "empty""#]
        .iter()
        .enumerate()
    {
        for (d, divider) in [
            r#""type": "bsp", "number": "6", "parameters": {"min": "1x1", "max": "34x20"}"#,
            r#""type": "sampling", "number": "5", "parameters": {"min": "1x2", "max": "33x9"}"#,
        ]
        .iter()
        .enumerate()
        {
            let text = format!(
                r#"{{"metadata": {{"min": "3x3", "max": "70x40"}},
                    "regions": {{{divider}}},
                    "entities": ["solid", "empty", "water"],
                    "explorers": [
                      {{"type": "narrow_horz", "rules": ["random < 0.45 -> self(solid)", "random < 0.1 -> self(water)", "-> self(empty)"]}},
                      {{"type": "narrow_horz", "region": "all", "parameters": {{"repeats": "2"{out}}},
                        "rules": ["self(empty), all(solid) > 4 -> self(solid)", "self(solid), all(empty) > 5 -> self(empty)"]}},
                      {{"type": "narrow_horz", "region": "map", "parameters": {{"repeats": "1"{out}}},
                        "rules": ["self(empty), all(solid) > 5 -> self(solid)", "self(solid), all(empty) > 4 -> self(empty)"]}}]}}"#
            );
            let seeds = (q * 100 + d * 50) as u64;
            same_maps(&text, seeds..seeds + 40, None);
            for size in [(16, 3), (30, 5), (31, 31), (32, 8), (47, 12)] {
                same_maps(&text, seeds..seeds + 8, Some(size));
            }
        }
    }
}

/// Byte planes of a neighbourhood one row high and wider than a block (no margin rows, side
/// margins of 25 cells): the codes laid out for the scan must stay inside their buffer.
#[test]
fn one_row_neighbourhoods_wider_than_a_block() {
    let row = format!("{}3{}", "1".repeat(25), "1".repeat(25));
    for rules in [
        r#"["self(empty), wide(solid) > 20 -> self(solid)"]"#,
        r#"["self(empty), wide(solid) > 20 -> self(solid)", "self(solid), plus(empty) > 2 -> self(empty)"]"#,
        r#"["self(empty), wide(solid) > 20 -> self(solid)", "self(solid), wide(empty) > 26 -> self(empty)"]"#,
    ] {
        let text = format!(
            r#"{{"metadata": {{"min": "40x30"}}, "entities": ["solid", "empty"],
                "neighborhoods": {{"wide": "{row}"}},
                "explorers": [
                  {{"type": "narrow_horz", "region": "map", "rules": ["self(any) -> self(solid:1|empty:1)"]}},
                  {{"type": "narrow_horz", "region": "map", "rules": {rules}}}
                ]}}"#
        );
        same_maps(&text, 0..3, None);
        same_maps(&text, 0..3, Some((17, 5)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    /// Cellular automata over a neighbourhood of random shape (one to three rows, one to 41
    /// columns, the centre anywhere): byte, paired and word planes with margins of any width
    /// and height, against the interpreter.
    #[test]
    fn random_neighbourhood_shapes_are_the_same_compiled_and_interpreted(
        (w, h, cells) in (1usize..42, 1usize..4).prop_flat_map(|(w, h)| {
            (Just(w), Just(h), proptest::collection::vec(any::<bool>(), w * h))
        }),
        centre in any::<proptest::sample::Index>(),
        t in 0u32..12,
        second in 0usize..4,
        size in (3usize..40, 2usize..20),
    ) {
        let c = centre.index(w * h);
        // A neighbourhood selects at least one cell: the centre when nothing else.
        let mut cells = cells;
        cells[c] |= !cells.iter().any(|&b| b);
        let matrix: Vec<String> = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| match (y * w + x == c, cells[y * w + x]) {
                        (true, true) => '3',
                        (true, false) => '2',
                        (false, true) => '1',
                        (false, false) => '0',
                    })
                    .collect()
            })
            .collect();
        // The second rule: another plane, the same neighbourhood (paired), a weight too large
        // for a byte, or none.
        let second = [
            r#", "self(solid), plus(empty) > 1 -> self(empty)""#,
            r#", "self(solid), shape(empty) > 0 -> self(empty)""#,
            r#", "self(solid), shape(solid:300) > 400 -> self(empty)""#,
            "",
        ][second];
        let text = format!(
            r#"{{"metadata": {{"min": "{}x{}"}}, "entities": ["solid", "empty"],
                "neighborhoods": {{"shape": "{}"}},
                "explorers": [
                  {{"type": "narrow_horz", "region": "map", "rules": ["self(any) -> self(solid:1|empty:1)"]}},
                  {{"type": "narrow_horz", "region": "map",
                    "rules": ["self(empty), shape(solid) > {t} -> self(solid)"{second}]}}
                ]}}"#,
            size.0, size.1, matrix.join(",")
        );
        let compiled = Script::parse(&text).unwrap();
        // On a fresh thread: fresh per-thread buffers, sized for this map only (a buffer left
        // larger by an earlier case would hide an overrun).
        let differs = std::thread::scope(|sc| {
            sc.spawn(|| first_difference(&compiled, 0..2)).join().unwrap()
        });
        prop_assert_eq!(differs, None, "{}", text);
    }
}
