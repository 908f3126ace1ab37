//! The 2017 connector types (`short`, `random`, `hub`, `full`) keep their own meanings.

use grid_core::TileMap;
use grid_core::{Connectivity, components};
use marahel::{MarahelMap, Script};

const TYPES: [&str; 4] = ["short", "random", "hub", "full"];

/// A 2017 script: solid map, then `areas` (2017 explorers), then an optional connector.
fn script(size: &str, region: &str, areas: &str, connector: Option<&str>) -> String {
    let conn = connector.map_or(String::new(), |t| {
        format!(
            r#", {{"type": "connector", "region": {{"name": "map"}},
                "parameters": {{"type": "{t}", "entities": "empty", "neighborhood": "plus"}},
                "rules": ["self(solid) -> self(empty)"]}}"#
        )
    });
    format!(
        r#"{{"metadata": {{"min": "{size}", "max": "{size}"}}, {region}
            "entity": {{"solid": {{"color": "0x000000"}}, "empty": {{"color": "0xffffff"}}}},
            "rule": [{{"type": "automata", "region": {{"name": "map"}}, "rules": ["self(any) -> self(solid)"]}},
                     {areas}{conn}]}}"#
    )
}

fn make(text: &str, seed: u64) -> MarahelMap {
    Script::parse(text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .generate(seed)
        .unwrap()
}

fn empty_regions(m: &MarahelMap) -> usize {
    let (w, h) = (m.width(), m.height());
    components(w, h, Connectivity::Four, |i| {
        m.name(i % w, i / w) == "empty"
    })
    .count()
}

/// Scattered single cells: many small areas at random places.
const SCATTER: &str = r#"{"type": "random", "region": {"name": "map"},
    "parameters": {"numberOfTiles": "25"}, "rules": ["self(any) -> self(empty)"]}"#;

/// A 3x3 lattice of 2x2 empty blocks (equal regions of 10x10, each inset by 4).
const LATTICE_REGIONS: &str =
    r#""region": {"type": "equal", "number": "9", "parameters": {"min": "3x3", "max": "3x3"}},"#;
const LATTICE: &str = r#"{"type": "automata", "region": {"name": "0-8", "border": "4,4"},
    "rules": ["self(any) -> self(empty)"]}"#;

#[test]
fn every_type_connects_every_area() {
    for t in TYPES {
        let text = script("40x30", "", SCATTER, Some(t));
        for seed in 0..20 {
            let before = make(&script("40x30", "", SCATTER, None), seed);
            assert!(empty_regions(&before) > 5, "seed {seed}");
            let m = make(&text, seed);
            assert_eq!(empty_regions(&m), 1, "{t} seed {seed}");
            assert!(m.warnings.is_empty(), "{t} {:?}", m.warnings);
        }
    }
}

#[test]
fn short_digs_less_than_random_and_full_most() {
    let mut dug = [0usize; 4];
    for seed in 0..30 {
        let before = make(&script("40x30", "", SCATTER, None), seed).count("empty");
        for (k, t) in TYPES.iter().enumerate() {
            dug[k] += make(&script("40x30", "", SCATTER, Some(t)), seed).count("empty") - before;
        }
    }
    println!("dug per type {TYPES:?}: {dug:?}");
    let [short, random, hub, full] = dug;
    assert!(short < random, "{dug:?}");
    assert!(short < hub, "{dug:?}");
    assert!(random < full, "{dug:?}");
}

/// Which sides (up, left, right, down) of the centre block (x, y in 14..=15) touch a dug cell.
fn centre_sides(m: &MarahelMap) -> usize {
    let e = |x: usize, y: usize| m.name(x, y) == "empty";
    let up = e(14, 13) || e(15, 13);
    let left = e(13, 14) || e(13, 15);
    let right = e(16, 14) || e(16, 15);
    let down = e(14, 16) || e(15, 16);
    [up, left, right, down].iter().filter(|&&s| s).count()
}

#[test]
fn lattice_shows_the_shape_of_each_type() {
    for seed in 0..5 {
        let before = make(&script("30x30", LATTICE_REGIONS, LATTICE, None), seed);
        assert_eq!(
            before.count("empty"),
            36,
            "{}",
            grid_core::export::to_text(&before)
        );
        assert_eq!(empty_regions(&before), 9);
        let m = |t| make(&script("30x30", LATTICE_REGIONS, LATTICE, Some(t)), seed);
        let (short, hub, random) = (m("short"), m("hub"), m("random"));
        for map in [&short, &hub, &random] {
            assert_eq!(empty_regions(map), 1);
        }
        // short: eight corridors between lattice neighbours, each crossing an 8-cell gap, the
        // least any spanning set of corridors can dig.
        assert_eq!(
            short.count("empty") - 36,
            64,
            "{}",
            grid_core::export::to_text(&short)
        );
        assert!(random.count("empty") - 36 >= 64);
        // hub: the centre block is the hub, so corridors arrive on all four of its sides;
        // short's spanning tree (ties by area order) touches it from two.
        assert_eq!(
            centre_sides(&hub),
            4,
            "{}",
            grid_core::export::to_text(&hub)
        );
        assert_eq!(
            centre_sides(&short),
            2,
            "{}",
            grid_core::export::to_text(&short)
        );
        assert!(hub.count("empty") > short.count("empty"));
        if seed == 0 {
            for (t, map) in [("short", &short), ("hub", &hub), ("random", &random)] {
                println!("{t}:\n{}", grid_core::export::to_text(map));
            }
        }
    }
}

#[test]
fn unknown_connector_type_is_an_error() {
    let text = script("20x20", "", SCATTER, Some("star"));
    let e = Script::parse(&text).unwrap_err().to_string();
    assert!(e.contains("connector type") && e.contains("star"), "{e}");
}

#[test]
fn full_on_many_areas_is_bounded_and_still_connects() {
    // ~1500 areas: every pair would be over a million corridors; the step budget stops the
    // extra ones (with a warning) after the spanning tree has joined everything.
    let many = r#"{"type": "random", "region": {"name": "map"},
        "parameters": {"numberOfTiles": "2000"}, "rules": ["self(any) -> self(empty)"]}"#;
    let m = make(&script("120x120", "", many, Some("full")), 1);
    assert_eq!(empty_regions(&m), 1);
    assert!(
        m.warnings.iter().any(|w| w.contains("stopped after")),
        "{:?}",
        m.warnings
    );
}

/// `random` and `full` corridors search with A* and go around cells the rules will not dig:
/// two rooms on either side of a rock wall with one gap are joined through the gap.
#[test]
fn random_corridors_go_around_what_the_rules_will_not_dig() {
    let text = |t: &str| {
        format!(
            r#"{{"metadata": {{"min": "30x15", "max": "30x15"}},
                "region": {{"type": "equal", "number": "3", "parameters": {{"min": "3x1", "max": "3x1"}}}},
                "entity": {{"solid": {{}}, "empty": {{}}, "rock": {{}}}},
                "neighborhood": {{"plus": "010,121,010"}},
                "rule": [
                  {{"type": "automata", "region": {{"name": "map"}}, "rules": ["-> self(solid)"]}},
                  {{"type": "automata", "region": {{"name": "0,2", "border": "2,2"}}, "rules": ["-> self(empty)"]}},
                  {{"type": "automata", "region": {{"name": "1", "border": "4,4"}}, "rules": ["-> self(rock)"]}},
                  {{"type": "automata", "region": {{"name": "1"}},
                   "rules": ["self(solid), plus(rock) > 0, random < 2 -> self(rock)"]}},
                  {{"type": "connector", "region": {{"name": "map"}},
                   "parameters": {{"type": "{t}", "entities": "empty", "neighborhood": "plus"}},
                   "rules": ["self(solid) -> self(empty)"]}}]}}"#
        )
    };
    for t in ["random", "full"] {
        for seed in 0..6 {
            let m = make(&text(t), seed);
            assert!(m.count("rock") > 0);
            assert!(m.warnings.is_empty(), "{t} {seed}: {:?}", m.warnings);
            assert_eq!(empty_regions(&m), 1, "{t} seed {seed}");
        }
    }
}

/// A connector whose firings run out names its `changes` limit, not unreachable areas; its
/// `changes` can be raised (or lowered) like any explorer's.
#[test]
fn a_spent_firing_limit_is_named_and_can_be_raised() {
    let with_changes = |t: &str, changes: &str| {
        script("40x30", "", SCATTER, Some(t)).replace(
            r#""neighborhood": "plus"}"#,
            &format!(r#""neighborhood": "plus", "changes": "{changes}"}}"#),
        )
    };
    for t in TYPES {
        let low = make(&with_changes(t, "3"), 1);
        assert_eq!(low.warnings.len(), 1, "{t} {:?}", low.warnings);
        let w = &low.warnings[0];
        assert!(w.contains("firing limit (`changes`: 3)"), "{t} {w}");
        assert!(!w.contains("could not reach"), "{t} {w}");
        assert!(empty_regions(&low) > 1, "{t}");
        let high = make(&with_changes(t, "100000"), 1);
        assert!(high.warnings.is_empty(), "{t} {:?}", high.warnings);
        assert_eq!(empty_regions(&high), 1, "{t}");
    }
}
