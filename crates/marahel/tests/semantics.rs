//! The documented meaning of each construct, including where the reference's defects are fixed.

mod common;

use grid_core::{Connectivity, TileMap, components};
use marahel::Script;

fn run(size: &str, regions: &str, explorers: &str, seed: u64) -> marahel::MarahelMap {
    let text = format!(
        r#"{{"metadata": {{"min": "{size}", "max": "{size}"}}, {regions}
            "entities": ["solid", "empty", "water"], "explorers": [{explorers}]}}"#
    );
    Script::parse(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .generate(seed)
        .unwrap()
}

const FILL: &str = r#"{"type": "narrow_horz", "rules": ["-> self(solid)"]}"#;

#[test]
fn dist_measures_distance_to_the_listed_entities() {
    let m = run(
        "9x9",
        "",
        &format!(
            r#"{FILL},
            {{"type": "narrow_horz", "rules": ["dist(out) == 1 -> self(empty)"]}},
            {{"type": "narrow_horz", "rules": ["self(solid), dist(empty) >= 3 -> self(water)"]}}"#
        ),
        1,
    );
    let text = grid_core::export::to_text(&m);
    assert_eq!(m.count("empty"), 32, "{text}");
    assert_eq!(m.count("water"), 9, "{text}");
    assert_eq!(m.name(4, 4), "water");
    assert_eq!(m.name(2, 4), "solid");
}

#[test]
fn cpercent_counts_firings() {
    let m = run(
        "10x1",
        "",
        r#"{"type": "narrow_horz", "rules": ["cpercent < 0.5 -> self(empty)"]}"#,
        3,
    );
    assert_eq!(m.count("empty"), 5);
    assert_eq!(m.count("unknown"), 5);
}

#[test]
fn limits_follow_each_region_and_map() {
    // Map sizes vary; the default `tiles` is the current area every time (reference: frozen).
    let text = r#"{"metadata": {"min": "5x5", "max": "40x40"}, "entities": ["solid"],
        "explorers": [{"type": "narrow_horz", "rules": ["-> self(solid)"]}]}"#;
    let s = Script::parse(text).unwrap();
    let mut sizes = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let m = s.generate(seed).unwrap();
        assert_eq!(m.count("unknown"), 0);
        assert!(m.width() <= 40 && m.height() <= 40);
        sizes.insert(m.width());
    }
    assert!(sizes.len() > 10 && sizes.contains(&40) == sizes.iter().any(|&w| w == 40));
}

#[test]
fn wide_explorers_visit_every_cell_and_do_not_consume_the_region() {
    let m = run(
        "17x13",
        "",
        r#"{"type": "wide_rand", "rules": ["-> self(solid)"]},
           {"type": "wide_rand", "rules": ["-> self(empty)"]},
           {"type": "wide_heur", "parameters": {"heuristics": "noise2,random"}, "rules": ["self(empty) -> self(water)"]}"#,
        5,
    );
    assert_eq!(m.count("water"), 17 * 13);
    // With tiles, the first cells in heuristic order are taken: here the top rows (dist to out).
    let m = run(
        "10x10",
        "",
        &format!(
            r#"{FILL}, {{"type": "wide_heur", "parameters": {{"heuristics": "dist(out),random", "tiles": 36}}, "rules": ["-> self(empty)"]}}"#
        ),
        5,
    );
    assert_eq!(m.count("empty"), 36);
    assert!((0..10).all(|i| m.name(i, 0) == "empty" && m.name(0, i) == "empty"));
}

#[test]
fn greedy_walks_downhill() {
    // Heuristic dist(out): the walker moves towards the border and stays there.
    let m = run(
        "21x21",
        "",
        &format!(
            r#"{FILL}, {{"type": "greedy", "parameters": {{"heuristics": "dist(out)", "tiles": 60, "directions": "plus"}}, "rules": ["-> self(empty)"]}}"#
        ),
        2,
    );
    let n = m.count("empty");
    assert!((1..=61).contains(&n), "{n}");
    // It reaches the border (distance 1) within 11 steps and then never leaves it, so at least
    // 60 - 11 of its steps are on border cells.
    let on_border = (0..21 * 21)
        .filter(|&i| {
            let (x, y) = (i % 21, i / 21);
            (x == 0 || y == 0 || x == 20 || y == 20) && m.name(x, y) == "empty"
        })
        .count();
    let inside = n - on_border;
    assert!(on_border >= 1 && inside <= 11, "{on_border} {inside}");
}

#[test]
fn connect_joins_areas_inside_offset_regions() {
    for seed in 0..10 {
        let m = run(
            "40x30",
            r#""regions": {"type": "equal", "number": 4, "parameters": {"min": "2x2"}},"#,
            &format!(
                r#"{FILL},
                {{"type": "narrow_rand", "region": "all", "parameters": {{"tiles": 12}}, "rules": ["-> self(empty)"]}},
                {{"type": "connect", "region": "all", "parameters": {{"entities": "empty"}}, "rules": ["self(solid) -> self(empty)"]}}"#
            ),
            seed,
        );
        assert_eq!(m.regions.len(), 4);
        for r in &m.regions {
            let (w, h) = (r.w as usize, r.h as usize);
            let empty = |i: usize| m.name(r.x as usize + i % w, r.y as usize + i / w) == "empty";
            let c = components(w, h, Connectivity::Four, empty);
            assert_eq!(c.count(), 1, "seed {seed} region {r:?}");
        }
        assert!(m.warnings.is_empty());
    }
}

#[test]
fn buffer_mode_is_synchronous() {
    // Game of life blinker-like check: a vertical line of 3 becomes horizontal in one buffered
    // pass (births with exactly 3 neighbours; survival with 2 or 3).
    let life = r#"{"type": "narrow_horz", "parameters": {"replace": "buffer", "out": "solid"}, "rules": [
        "self(empty), all(empty) == 3 -> self(empty)",
        "self(empty), all(empty) == 4 -> self(empty)",
        "self(solid), all(empty) == 3 -> self(empty)",
        "-> self(solid)"]}"#;
    let m = run(
        "5x5",
        "",
        &format!(
            r#"{FILL}, {{"type": "narrow_horz", "rules": ["self(solid), vert(out) == 0, dist(out) == 3 -> vert(empty), self(empty)"]}}, {life}"#
        ),
        1,
    );
    let t = grid_core::export::to_text(&m);
    assert_eq!(t, "#####\n#####\n#...#\n#####\n#####\n", "{t}");
}

#[test]
fn big_open_cave_uses_no_recursion() {
    // One open area of 90 000 cells: the reference's recursive fill overflowed from ~100x100.
    let m = run(
        "300x300",
        "",
        r#"{"type": "narrow_horz", "rules": ["-> self(empty)"]},
           {"type": "connect", "parameters": {"entities": "empty"}, "rules": ["self(solid) -> self(empty)"]}"#,
        1,
    );
    assert_eq!(m.count("empty"), 90_000);
}

/// The 2000x2000 open cave of the issue; about a second in release, too slow for debug CI.
#[test]
#[ignore = "slow in debug builds; run with --release -- --ignored"]
fn cave_2000x2000() {
    let s = Script::parse(&common::example("cave")).unwrap();
    let m = s.generate_sized(1, 2000, 2000).unwrap();
    assert_eq!(m.count("unknown"), 0);
    let empty = |i: usize| m.cells[i] == 1;
    assert_eq!(components(2000, 2000, Connectivity::Four, empty).count(), 1);
}

#[cfg(feature = "accel")]
#[test]
fn row_batched_passes_equal_cell_by_cell_passes() {
    let text = r#"{"metadata": {"min": "37x23", "max": "41x29"}, "entities": ["solid", "empty", "water"],
        "explorers": [
          {"type": "narrow_rand", "parameters": {"tiles": 3000}, "rules": ["random < 0.45 -> self(solid)", "-> self(empty)"]},
          {"type": "narrow_horz", "parameters": {"repeats": 3, "replace": "buffer", "out": "solid"},
           "rules": ["all(solid) >= 5 -> self(solid)", "all(unknown) > 2 -> self(water)", "-> self(empty)"]},
          {"type": "narrow_vert", "parameters": {"replace": "buffer"},
           "rules": ["self(empty), dist(solid) > 2 -> self(water)", "solid > 400, plus(out) > 0 -> self(solid)"]},
          {"type": "narrow_horz", "rules": ["plus(out) > 0 -> self(solid)"]},
          {"type": "narrow_horz", "rules": ["all(solid) > 6 -> self(empty)"]}
        ]}"#;
    let batched = Script::parse(text).unwrap();
    let bulk: Vec<bool> = batched
        .program()
        .explorers
        .iter()
        .map(|e| e.order_free)
        .collect();
    // narrow_rand never; buffered scans; a same-mode scan reading only `plus(out)`.
    assert_eq!(bulk, [false, true, true, true, false]);
    let cellwise = batched.clone().without_row_batching();
    for seed in 0..8 {
        let a = batched.generate(seed).unwrap();
        let b = cellwise.generate(seed).unwrap();
        assert_eq!(
            grid_core::export::to_text(&a),
            grid_core::export::to_text(&b),
            "seed {seed}"
        );
        assert!(a.count("water") > 0 || seed > 0);
    }
}
