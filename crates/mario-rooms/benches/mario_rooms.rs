//! Criterion benchmarks: one level per iteration, playability check included.
//!
//! The `cpu_` group measures the benchmark thread's CPU time (Linux's
//! `/proc/thread-self/schedstat`) instead of wall time, so a machine loaded by other work
//! does not stretch the figures (it is skipped, with a notice, where that file is absent).
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mario_rooms::{LevelConfig, Library, check, generate};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let lib = Library::builtin().unwrap();
    let default = LevelConfig::default();
    let long = LevelConfig {
        length: 1000,
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
        length: 8000,
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

/// The CPU time this thread has run, in nanoseconds, if the kernel tells.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Thread CPU time as a criterion measurement, in nanoseconds.
struct CpuTime;

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns().unwrap_or(0)
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().unwrap_or(0).saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Shows CPU nanoseconds as milliseconds.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, _typical: f64, values: &mut [f64]) -> &'static str {
        values.iter_mut().for_each(|v| *v /= 1e6);
        "ms CPU"
    }
    fn scale_throughputs(
        &self,
        _typical: f64,
        _t: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        values.iter_mut().for_each(|v| *v /= 1e6);
        "ms CPU"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// The 1000- and 8000-column levels in CPU time: generation is linear in the length when
/// the second takes at most 10 times the first.
fn bench_cpu(c: &mut Criterion<CpuTime>) {
    if thread_cpu_ns().is_none() {
        println!("cpu_ benchmarks skipped: /proc/thread-self/schedstat is not readable here");
        return;
    }
    let lib = Library::builtin().unwrap();
    let mut seed = 0u64;
    for columns in [1000, 8000] {
        let cfg = LevelConfig {
            length: columns,
            ..LevelConfig::default()
        };
        c.bench_function(&format!("cpu_level_{columns}_columns_checked"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(generate(&lib, &cfg, seed).unwrap())
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(CpuTime);
    targets = bench_cpu
}
criterion_main!(benches, cpu);
