//! Criterion benchmarks: every fixture script at its native size, the cave at 50x50 and
//! 500x500, and a wide explorer at growing sizes.
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

fn bench(c: &mut Criterion) {
    let cave = Script::parse(include_str!("../../../examples/marahel/cave.json")).expect("cave");
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
criterion_main!(benches);
