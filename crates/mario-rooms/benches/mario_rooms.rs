//! Criterion benchmarks: one level per iteration, playability check included.
use criterion::{Criterion, criterion_group, criterion_main};
use mario_rooms::{LevelConfig, Library, check, generate};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let lib = Library::builtin().unwrap();
    let default = LevelConfig::default();
    let long = LevelConfig {
        min_length: 1000,
        ..LevelConfig::default()
    };
    let mut seed = 0u64;
    c.bench_function("level_default_checked", |b| {
        b.iter(|| {
            seed += 1;
            black_box(generate(&lib, &default, seed).unwrap())
        })
    });
    c.bench_function("level_1000_columns_checked", |b| {
        b.iter(|| {
            seed += 1;
            black_box(generate(&lib, &long, seed).unwrap())
        })
    });
    let longest = LevelConfig {
        min_length: 8000,
        ..LevelConfig::default()
    };
    c.bench_function("level_8000_columns_checked", |b| {
        b.iter(|| {
            seed += 1;
            black_box(generate(&lib, &longest, seed).unwrap())
        })
    });
    let level = generate(&lib, &long, 1).unwrap().level;
    c.bench_function("check_only_1000_columns", |b| {
        b.iter(|| black_box(check(&level)))
    });
    c.bench_function("load_builtin_library", |b| {
        b.iter(|| black_box(Library::builtin().unwrap()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
