//! Expressive-range analysis speed: metrics vs generation, and batch scaling over threads.
//!
//! ```text
//! CARGO_TARGET_DIR=/work/target-analyze cargo bench -p levelgen --bench analyze -- \
//!     --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Uses `examples/marahel/cave.json` (64x40, noise + 4 CA passes + connect).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grid_core::metrics::{BlockGrid, EmptySet, MetricsScratch};
use levelgen::analyze::{Settings, analyze, marahel::MarahelSubject};
use levelgen::batch::{SeedRange, with_threads};
use std::hint::black_box;

fn script() -> marahel::Script {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/marahel/cave.json");
    let text = std::fs::read_to_string(path).expect("examples/marahel/cave.json");
    marahel::Script::parse(&text).expect("cave.json parses")
}

fn metrics_vs_generation(c: &mut Criterion) {
    let script = script();
    let map = script.generate(1).unwrap();
    let empty = EmptySet::from_names(grid_core::TileMap::legend(&map), &["empty"]).unwrap();
    let mut g = c.benchmark_group("cave_64x40");
    g.throughput(Throughput::Elements(1));
    g.bench_function("generate", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            black_box(script.generate(seed).unwrap())
        })
    });
    let mut scratch = MetricsScratch::new();
    g.bench_function("metrics", |b| {
        b.iter(|| black_box(scratch.measure(black_box(&map), &empty, BlockGrid::PAPER)))
    });
    g.finish();
}

fn batch_scaling(c: &mut Criterion) {
    const MAPS: u64 = 200;
    let subject = MarahelSubject::new("cave", script());
    let settings = Settings {
        seeds: SeedRange::from_count(0, MAPS),
        empty: None,
        blocks: BlockGrid::PAPER,
        quiet: true,
        axes: Default::default(),
    };
    let mut g = c.benchmark_group("analyze_200_caves");
    g.throughput(Throughput::Elements(MAPS));
    g.sample_size(10);
    for threads in [1usize, 2] {
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                with_threads(threads, || analyze(&subject, &settings).unwrap().rows.len()).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, metrics_vs_generation, batch_scaling);
criterion_main!(benches);
