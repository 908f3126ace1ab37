//! Helpers shared by the integration tests.
#![allow(dead_code)]

use grid_core::TileMap;
use marahel::MarahelMap;
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
