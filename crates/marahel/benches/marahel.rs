//! Criterion benchmarks: every example and fixture script at its native size, the cave at 50x50 and
//! 500x500, a wide explorer at growing sizes, and the cases that once fell off a cliff: `dist`
//! read by a pass that writes the map it reads (`live dist 200x200`, and `scaling live dist`
//! from 200x200 to 1600x1600 in row order and at random cells), a walking `minDist` read by
//! such a pass (`live walk 100x100`, the largest region its limit allows; at 60x60 with the
//! plain core's `live walk 60x60 core` beside it), and an
//! example at 2000x2000
//! and 4000x4000 (`nonuniform`, whose BSP split was quadratic in its rooms).
//!
//! Run: `cargo bench -p marahel -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, criterion_group, criterion_main};
use marahel::Script;
use std::hint::black_box;
use std::path::Path;

fn fixtures() -> Option<std::path::PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/marahel");
    p.is_dir().then_some(p)
}

/// The text of `examples/marahel/<name>` in the levelgen repository, read at run time: the
/// examples live outside this package.
fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/marahel")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (this benchmark reads the levelgen repository's examples/)",
            path.display()
        )
    })
}

/// A pass that reads `dist(solid)` while it adds and removes solid cells, in row order.
const LIVE_DIST: &str = r#"{"metadata": {"min": "200x200"}, "entities": ["solid", "empty"],
  "explorers": [
    {"type": "narrow_horz", "rules": ["random < 0.05 -> self(solid)", "-> self(empty)"]},
    {"type": "narrow_horz",
     "rules": ["dist(solid) > 4 -> self(solid)", "dist(solid) == 0, random < 0.3 -> self(empty)"]}
  ]}"#;

/// The same at random cells (as many visits as cells), writing the visited cell's `plus`
/// neighbourhood too, from sparse targets.
const LIVE_DIST_RAND: &str = r#"{"metadata": {"min": "200x200"}, "entities": ["solid", "empty"],
  "explorers": [
    {"type": "narrow_horz", "rules": ["random < 0.01 -> self(solid)", "-> self(empty)"]},
    {"type": "narrow_rand",
     "rules": ["dist(solid) > 6 -> self(solid)", "dist(solid) == 0, random < 0.5 -> plus(empty)"]}
  ]}"#;

/// Gold scattered through a 45% solid cave at walk distance 6 (`minDist` along `plus` through
/// empty cells) by a pass that writes only gold: its walk plane is lowered in place
/// (`accel::live_walk`) where the core computes it again after every write.
const LIVE_WALK: &str = r#"{"metadata": {"min": "100x100"}, "entities": ["solid", "empty", "gold"],
  "explorers": [
    {"type": "narrow_horz", "rules": ["random < 0.45 -> self(solid)", "-> self(empty)"]},
    {"type": "narrow_horz", "rules": [
      "self(empty), minDist(plus, gold, empty) == -1 -> self(gold)",
      "self(empty), minDist(plus, gold, empty) > 6 -> self(gold)"]}
  ]}"#;

/// Items placed at random cells, each more than 12 cells from the others, after a few at
/// random (targets only added, a few hundred per 200x200).
const LIVE_DIST_SPACED: &str = r#"{"metadata": {"min": "200x200"}, "entities": ["item", "empty"],
  "explorers": [
    {"type": "narrow_horz", "rules": ["random < 0.0002 -> self(item)", "-> self(empty)"]},
    {"type": "narrow_rand", "rules": ["dist(item) > 12, random < 0.05 -> self(item)"]}
  ]}"#;

fn bench(c: &mut Criterion) {
    let cave = Script::parse(&example("cave.json")).expect("cave");
    let mut seed = 0u64;
    c.bench_function("example cave 50x50", |b| {
        b.iter(|| {
            seed += 1;
            black_box(cave.generate_sized(seed, 50, 50).expect("map"))
        })
    });
    c.bench_function("example cave 500x500", |b| {
        b.iter(|| {
            seed += 1;
            black_box(cave.generate_sized(seed, 500, 500).expect("map"))
        })
    });
    for name in [
        "cave",
        "uniform",
        "nonuniform",
        "digger",
        "mine",
        "roguelike",
    ] {
        let script = Script::parse(&example(&format!("{name}.json"))).expect("example");
        c.bench_function(&format!("example {name}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(script.generate(seed).expect("map"))
            })
        });
    }
    let live = Script::parse(LIVE_DIST).expect("live dist");
    c.bench_function("live dist 200x200", |b| {
        b.iter(|| {
            seed += 1;
            black_box(live.generate_sized(seed, 200, 200).expect("map"))
        })
    });
    let walk = Script::parse(LIVE_WALK).expect("live walk");
    let core = walk.clone().with_accel(marahel::Accel::none());
    for (name, script, n) in [
        ("live walk 100x100", &walk, 100),
        ("live walk 60x60", &walk, 60),
        ("live walk 60x60 core", &core, 60),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(script.generate_sized(seed, n, n).expect("map"))
            })
        });
    }
    // Connect's plan with the raster passes, with the core's stages, and everything plain.
    for (name, accel) in [
        ("raster", marahel::Accel::all()),
        (
            "core stages",
            marahel::Accel::all_but("connect_raster").expect("option"),
        ),
        ("plain core", marahel::Accel::none()),
    ] {
        let script = cave.clone().with_accel(accel);
        c.bench_function(&format!("connect cave 400x240 {name}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(script.generate_sized(seed, 400, 240).expect("map"))
            })
        });
    }
    let nonuniform = Script::parse(&example("nonuniform.json")).expect("nonuniform");
    for n in [2000usize, 4000] {
        c.bench_function(&format!("example nonuniform {n}x{n}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(nonuniform.generate_sized(seed, n, n).expect("map"))
            })
        });
    }
    if let Some(dir) = fixtures() {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        names.sort();
        for path in names {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let script = Script::parse(&std::fs::read_to_string(&path).unwrap()).expect("fixture");
            c.bench_function(&format!("fixture {name}"), |b| {
                b.iter(|| {
                    seed += 1;
                    black_box(script.generate(seed).expect("map"))
                })
            });
        }
        let wide =
            Script::parse(&std::fs::read_to_string(dir.join("feature_wide_rand.json")).unwrap())
                .unwrap();
        for n in [30usize, 60, 120] {
            c.bench_function(&format!("wide_rand {n}x{n}"), |b| {
                b.iter(|| {
                    seed += 1;
                    black_box(wide.generate_sized(seed, n, n).expect("map"))
                })
            });
        }
    } else {
        eprintln!("skipping fixture benchmarks: ../shared/fixtures not found");
    }
}

criterion_group!(benches, bench);
criterion_main!(benches, cliffs);

// The scaling cases of the connect pass and of live `dist`: the example cave at 2000x2000
// and 4000x4000 (its last pass joins thousands of areas), and a pass reading `dist` while it
// writes the map, in row order, at random cells and placing spaced items, at sides 200 to 1600 (each doubling of
// the side is four times the area: a pass linear in the area takes four times as long).
// Few samples: one 4000x4000 map takes seconds.
// Run: `cargo bench -p marahel --bench marahel -- --warm-up-time 1 --measurement-time 3 scaling`
// (`"live dist"` for the `dist` cases alone).
fn scaling(c: &mut Criterion) {
    let cave = Script::parse(&example("cave.json")).expect("cave");
    let mut seed = 0u64;
    for n in [2000usize, 4000] {
        c.bench_function(&format!("scaling cave {n}x{n}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(cave.generate_sized(seed, n, n).expect("map"))
            })
        });
    }
    for (order, text) in [
        ("rows", LIVE_DIST),
        ("random", LIVE_DIST_RAND),
        ("spaced", LIVE_DIST_SPACED),
    ] {
        let live = Script::parse(text).expect("live dist");
        for n in [200usize, 400, 800, 1600] {
            c.bench_function(&format!("scaling live dist {order} {n}x{n}"), |b| {
                b.iter(|| {
                    seed += 1;
                    black_box(live.generate_sized(seed, n, n).expect("map"))
                })
            });
        }
    }
}

criterion_group! {
    name = cliffs;
    config = Criterion::default().sample_size(10);
    targets = scaling
}
