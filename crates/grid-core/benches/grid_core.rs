//! Benchmarks of the shared algorithms on large grids.

use criterion::{Criterion, criterion_group, criterion_main};
use grid_core::rand::RngExt;
use grid_core::{ComponentCounter, Connectivity, Seed, astar, components, distance_map};
use std::hint::black_box;

fn noise_mask(w: usize, h: usize, fill: f64) -> Vec<bool> {
    let mut rng = Seed(1).rng();
    (0..w * h).map(|_| rng.random_bool(fill)).collect()
}

fn bench(c: &mut Criterion) {
    let (w, h) = (2000, 2000);
    let mask = noise_mask(w, h, 0.55);
    c.bench_function("components 2000x2000 (55% open, 4-conn)", |b| {
        b.iter(|| components(w, h, Connectivity::Four, |i| mask[i]).count())
    });
    let mut counter = ComponentCounter::new();
    c.bench_function("count components 2000x2000 (reused scratch)", |b| {
        b.iter(|| counter.count(w, h, Connectivity::Four, |i| mask[i]))
    });
    c.bench_function("distance map 2000x2000 open", |b| {
        b.iter(|| distance_map(w, h, &[0], Connectivity::Four, |_| true))
    });
    let (aw, ah) = (256, 256);
    let amask = noise_mask(aw, ah, 0.75);
    c.bench_function("astar 256x256 corner to corner (75% open)", |b| {
        b.iter(|| {
            astar(aw, ah, 0, aw * ah - 1, Connectivity::Eight, 1, |_, to| {
                (amask[to] || to == aw * ah - 1).then_some(1)
            })
            .map(|p| black_box(p.cost))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
