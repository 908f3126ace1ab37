//! Locating a JSON path in a large request: one pass over the text, however the text is
//! shaped. Run with `cargo bench -p levelgen-studio --bench locate`.

use criterion::{Criterion, criterion_group, criterion_main};
use levelgen_studio::locate::line_of;
use std::hint::black_box;

/// A script of about `bytes` bytes: an unknown key beside an array of numbers, one per line
/// (the shape that made the old scan slow), the path asked for at its end.
fn wide(bytes: usize) -> String {
    let mut s = String::from("{\"metadata\": {\"min\": \"10x10\"},\n \"noise\": [\n");
    let mut i = 0u64;
    while s.len() < bytes {
        s.push_str(&format!("  {},\n", i * 7919 % 100_000));
        i += 1;
    }
    s.push_str("  0],\n \"explorers\": [{\"type\": \"narrow\", \"rules\": [\"a\"]}]}\n");
    s
}

/// About `bytes` bytes of nested arrays and objects, 64 deep, repeated.
fn deep(bytes: usize) -> String {
    let block = format!("{}1{}", "[{\"k\": ".repeat(64), "}]".repeat(64));
    let mut s = String::from("{\"a\": [");
    while s.len() < bytes {
        s.push_str(&block);
        s.push_str(",\n");
    }
    s.push_str("0]}");
    s
}

fn bench(c: &mut Criterion) {
    let mib4 = 4 << 20;
    let wide = wide(mib4);
    let deep = deep(mib4);
    let mut g = c.benchmark_group("locate_4MiB");
    g.sample_size(10);
    g.bench_function("unknown key beside a number array", |b| {
        b.iter(|| line_of(black_box(&wide), "explorers[0].rules[0]"))
    });
    g.bench_function("a path into the array's end", |b| {
        b.iter(|| line_of(black_box(&wide), "noise[400000]"))
    });
    g.bench_function("nested 64 deep", |b| {
        b.iter(|| line_of(black_box(&deep), "a[999].k[0].k"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
