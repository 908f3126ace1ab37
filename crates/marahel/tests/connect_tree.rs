//! `turtle_connect` joins the areas along a spanning tree of short corridors: every area is
//! joined, and the corridor cells dug per joined area stay near the gaps between neighbouring
//! areas (the random tour it replaced cut long straight corridors across big maps).

mod common;

use grid_core::{Connectivity, components};
use marahel::Script;

/// The script `text` without its last explorer (the connect pass of the examples).
fn without_last_explorer(text: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("json");
    let explorers = v["explorers"].as_array_mut().expect("explorers");
    explorers.pop();
    v.to_string()
}

/// The cells the last explorer (a connect pass digging `solid` into `empty`) changes on the
/// `w x h` map of `seed`, the empty areas before it, and the empty areas after it.
fn dug(text: &str, seed: u64, (w, h): (usize, usize)) -> (usize, usize, usize) {
    let full = Script::parse(text).expect("script");
    let before = Script::parse(&without_last_explorer(text)).expect("script");
    let a = before.generate_sized(seed, w, h).expect("map");
    let b = full.generate_sized(seed, w, h).expect("map");
    let changed = a.cells.iter().zip(&b.cells).filter(|(x, y)| x != y).count();
    let areas = |cells: &[u8]| components(w, h, Connectivity::Four, |i| cells[i] == 1).count();
    (changed, areas(&a.cells), areas(&b.cells))
}

/// Corridor cells dug per joined area on the example cave at `w x h`, over `seeds`.
fn cave_dug_per_joined_area(seeds: std::ops::Range<u64>, size: (usize, usize)) -> f64 {
    let cave = common::example("cave");
    let (mut cells, mut joins) = (0, 0);
    for seed in seeds {
        let (changed, before, after) = dug(&cave, seed, size);
        assert_eq!(after, 1, "seed {seed}: the cave is one area");
        cells += changed;
        joins += before - 1;
    }
    cells as f64 / joins as f64
}

/// The 400x240 cave digs a few cells per joined area (the random tour this replaced dug
/// 64.4 on the same seeds), and the figure does not grow with the map (the tour's grew with
/// the distance between the centres it visited).
#[test]
fn cave_digs_few_cells_per_joined_area_at_any_size() {
    let mut figures = Vec::new();
    for size in [(100, 60), (200, 120), (400, 240)] {
        let per_area = cave_dug_per_joined_area(1..4, size);
        eprintln!("cave {size:?}: {per_area:.2} corridor cells dug per joined area");
        assert!(per_area < 6.0, "{size:?}: {per_area:.2}");
        figures.push(per_area);
    }
    assert!(figures[2] < 1.5 * figures[0], "{figures:?}");
}
