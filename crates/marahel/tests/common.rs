//! Helpers shared by the integration tests.
#![allow(dead_code)]

use grid_core::TileMap;
use marahel::MarahelMap;
use proptest::prelude::*;
use std::path::PathBuf;

/// The names of the six example scripts in the repository's `examples/marahel/`.
pub const EXAMPLE_NAMES: [&str; 6] = [
    "cave",
    "uniform",
    "nonuniform",
    "digger",
    "mine",
    "roguelike",
];

/// The text of the example script `examples/marahel/<name>.json`, read at run time: the
/// examples live in the repository, outside this package.
pub fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/marahel")
        .join(format!("{name}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (these tests read the levelgen repository's examples/)",
            path.display()
        )
    })
}

/// The six example scripts, `(name, text)`, in [`EXAMPLE_NAMES`] order.
pub fn examples() -> Vec<(&'static str, String)> {
    EXAMPLE_NAMES.iter().map(|&n| (n, example(n))).collect()
}

/// `../shared/fixtures/marahel` from the workspace root, if present.
pub fn fixtures() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/marahel");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: ../shared/fixtures not found");
        None
    }
}

/// The v0.3.0 fixture scripts `(name, text)`, sorted.
pub fn scripts(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The reference's parity metrics: (empty fraction, 4-connected empty regions, 5x5-block entropy).
pub fn metrics(map: &MarahelMap, empty: &[&str]) -> (f64, usize, f64) {
    let (w, h) = (map.width(), map.height());
    let is_empty: Vec<bool> = (0..w * h)
        .map(|i| empty.contains(&map.tile_name(i % w, i / w)))
        .collect();
    let n = is_empty.iter().filter(|&&e| e).count();
    let comps = grid_core::components(w, h, grid_core::Connectivity::Four, |i| is_empty[i]);
    let mut ent = 0.0;
    for by in 0..5 {
        for bx in 0..5 {
            let (x0, x1) = (bx * w / 5, (bx + 1) * w / 5);
            let (y0, y1) = (by * h / 5, (by + 1) * h / 5);
            let mut c = 0;
            let mut t = 0;
            for y in y0..y1 {
                for x in x0..x1 {
                    t += 1;
                    if is_empty[y * w + x] {
                        c += 1;
                    }
                }
            }
            if t > 0 {
                let p = c as f64 / t as f64;
                if p > 0.0 && p < 1.0 {
                    ent += -p * p.log2() - (1.0 - p) * (1.0 - p).log2();
                }
            }
        }
    }
    (n as f64 / (w * h) as f64, comps.count(), ent / 25.0)
}

/// Estimators a random condition may use.
pub const ESTIMATORS: [&str; 27] = [
    "self(solid)",
    "self(empty|water)",
    "self(any)",
    "all(solid)",
    "all(empty:2|water)",
    "plus(out)",
    "plus(solid)",
    "ring(water)",
    "far(solid)",
    "dist(water)",
    "dist(out)",
    "maxDist(solid)",
    "avgDist(plus, water, empty|water)",
    "minDist(all, solid)",
    "random",
    "noise",
    "percent",
    "cpercent",
    "rpercent",
    "solid",
    "empty|water",
    "0",
    "0.3",
    "0.75",
    "2",
    "4.5",
    "6",
];
/// Operators a random condition may use.
pub const OPS: [&str; 6] = [">", "<", ">=", "<=", "==", "!="];
/// Executers a random rule may use.
pub const EXECUTERS: [&str; 8] = [
    "self(solid)",
    "self(empty)",
    "self(water)",
    "self(solid:1|empty:2)",
    "self(empty|water:3)",
    "plus(water)",
    "all(empty)",
    "ring(solid:2|empty)",
];
/// Explorer types that read the map they write, one of each visiting order: row and column
/// scans, random cells, a walker and the whole region in random order.
pub const LIVE_KINDS: [&str; 5] = [
    "narrow_horz",
    "narrow_vert",
    "narrow_rand",
    "turtle_drunk",
    "wide_rand",
];
/// Explorer types that visit cells in an order of their own (every kind but `connect`).
pub const VISITING_KINDS: &[&str] = KINDS.split_at(7).0;
/// Explorer types a random explorer may have.
pub const KINDS: [&str; 8] = [
    "narrow_horz",
    "narrow_vert",
    "narrow_rand",
    "turtle_drunk",
    "greedy",
    "wide_heur",
    "wide_rand",
    "connect",
];

/// One random rule from indices: `(estimator, op, estimator)` triples (op 6: a lone
/// estimator) and executers.
pub fn rule(conds: &[(usize, usize, usize)], execs: &[usize]) -> String {
    let conds: Vec<String> = conds
        .iter()
        .map(|&(a, op, b)| {
            let a = ESTIMATORS[a % ESTIMATORS.len()];
            match OPS.get(op) {
                Some(op) => format!("{a} {op} {}", ESTIMATORS[b % ESTIMATORS.len()]),
                None => a.to_string(),
            }
        })
        .collect();
    let execs: Vec<&str> = execs
        .iter()
        .map(|&e| EXECUTERS[e % EXECUTERS.len()])
        .collect();
    format!("{} -> {}", conds.join(", "), execs.join(", "))
}

/// One random rule: conditions as `(estimator, op, estimator)` indices, executer indices.
pub type RawRule = (Vec<(usize, usize, usize)>, Vec<usize>);

/// A random rule for [`rule`].
pub fn raw_rule() -> impl Strategy<Value = RawRule> {
    (
        proptest::collection::vec((0usize..27, 0usize..7, 0usize..27), 0..4),
        proptest::collection::vec(0usize..8, 1..3),
    )
}

/// Cases per test: `PROPTEST_CASES` for a longer run, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One random explorer: `(kind, rules, parameter set, buffered)` as indices.
pub type RawExplorer = (usize, Vec<RawRule>, usize, bool);

/// A random explorer for [`random_script`].
pub fn raw_explorer() -> impl Strategy<Value = RawExplorer> {
    (
        0usize..8,
        proptest::collection::vec(raw_rule(), 1..4),
        0usize..4,
        any::<bool>(),
    )
}

/// A well-formed 19x13 script (three entities, two neighbourhoods of its own) whose first
/// explorer fills the map at random and whose others are `explorers`, over the map or (with
/// `divider`) three BSP regions.
pub fn random_script(explorers: &[RawExplorer], divider: bool) -> String {
    let explorers: Vec<String> = explorers
        .iter()
        .map(|(kind, rules, params, buffer)| {
            let kind = KINDS[*kind];
            let rules: Vec<String> = rules.iter().map(|(c, e)| rule(c, e)).collect();
            let mut p = vec![format!(
                r#""replace": "{}""#,
                if *buffer { "buffer" } else { "same" }
            )];
            match params {
                1 if kind == "connect" => p.push(r#""changes": "25""#.into()),
                1 => p.push(r#""tiles": "40", "changes": "25""#.into()),
                2 => p.push(r#""repeats": "2", "out": "water""#.into()),
                3 if matches!(kind, "turtle_drunk" | "greedy") => {
                    p.push(r#""changes": "7", "directions": "all""#.into())
                }
                3 => p.push(r#""changes": "7""#.into()),
                _ => {}
            }
            if kind == "greedy" || kind == "wide_heur" {
                p.push(r#""heuristics": "all(solid),random""#.into());
            }
            if kind == "connect" {
                p.push(r#""entities": "empty|water""#.into());
            }
            format!(
                r#"{{"type": "{kind}", "region": "{}", "parameters": {{{}}}, "rules": {}}}"#,
                if divider { "all" } else { "map" },
                p.join(", "),
                serde_json::to_string(&rules).unwrap()
            )
        })
        .collect();
    let regions = if divider {
        r#""regions": {"type": "bsp", "number": "3", "parameters": {"min": "4x4", "max": "9x9"}},"#
    } else {
        ""
    };
    let text = format!(
        r#"{{"metadata": {{"min": "19x13", "max": "19x13"}}, {regions}
            "entities": ["solid", "empty", "water"],
            "neighborhoods": {{"ring": "111,121,111", "far": "1000001,0000000,0003000"}},
            "explorers": [{{"type": "narrow_horz", "rules": ["random < 0.4 -> self(solid)", "random < 0.5 -> self(water)", "-> self(empty)"]}}, {}]}}"#,
        explorers.join(", ")
    );
    text
}
