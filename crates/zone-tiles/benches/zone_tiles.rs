//! Throughput of zone generation: zones of 60x60 px per second.
//!
//! `cargo bench -p zone-tiles --bench zone_tiles -- --warm-up-time 1 --measurement-time 3`
//!
//! Wall-clock groups, plus `chunk_cpu`, `corners` and `million_cpu`: chunks, their corner
//! tiles and a million zones in the calling thread's CPU time (on Unix), which is what one
//! core spends even when other processes share the machine (on other systems `corners` is
//! measured in wall-clock time with the rest).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use zone_tiles::{Mode, NoiseConfig, Sampling, ZoneConfig, ZoneGenerator, ZoneRect};

fn bench_window(c: &mut Criterion, group: &str, name: &str, config: ZoneConfig, par: bool) {
    let generator = ZoneGenerator::new(config, 1).unwrap();
    let rect = ZoneRect::new(0, 0, 20, 20);
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(400));
    g.bench_function(name, |b| {
        b.iter(|| {
            let w = if par {
                generator.generate_par(black_box(rect))
            } else {
                generator.generate(black_box(rect))
            };
            black_box(w.unwrap())
        })
    });
    g.finish();
}

fn zones(c: &mut Criterion) {
    let default = ZoneConfig::default();
    bench_window(c, "one_core", "worley_f1_chebyshev_stride2", default, false);
    bench_window(
        c,
        "one_core",
        "simplex_stride2",
        ZoneConfig {
            noise: NoiseConfig::simplex(),
            ..default
        },
        false,
    );
    bench_window(
        c,
        "one_core",
        "worley_f1_reference_stride2",
        ZoneConfig {
            mode: Mode::Reference,
            ..default
        },
        false,
    );
    bench_window(
        c,
        "one_core",
        "worley_ratio_reference_stride2",
        ZoneConfig {
            noise: NoiseConfig::worley_reference(zone_tiles::Distance::Chebyshev),
            ..default
        },
        false,
    );
    for stride in [1, 4, 10] {
        bench_window(
            c,
            "stride",
            &format!("worley_f1_stride{stride}"),
            ZoneConfig {
                sampling: Sampling::Stride(stride),
                ..default
            },
            false,
        );
    }
    bench_window(c, "rayon", "worley_f1_stride2_par", default, true);
    #[cfg(not(unix))]
    corners(c);

    // Streaming: one 16x16-zone chunk (zones and tile references) on one core.
    let mut g = c.benchmark_group("chunk");
    g.throughput(Throughput::Elements(256));
    for (name, config, biomes) in chunk_configs() {
        let world = zone_tiles::World::new(config, biomes, 1).unwrap();
        let mut k = 0i64;
        g.bench_function(name, |b| {
            b.iter(|| {
                k += 1;
                black_box(world.chunk(black_box(k), -k).unwrap())
            })
        });
    }
    g.finish();

    // A million zones with the defaults on one core (the window's rows on this thread).
    let mut g = c.benchmark_group("million");
    g.sample_size(10);
    g.throughput(Throughput::Elements(1_000_000));
    let generator = ZoneGenerator::new(default, 1).unwrap();
    g.bench_function("default_1000x1000", |b| {
        b.iter(|| black_box(generator.generate(ZoneRect::new(0, 0, 1000, 1000)).unwrap()))
    });
    g.finish();

    // Raw noise cost: the 9 cell means of one 60 px zone at stride 2 (900 samples).
    let mut g = c.benchmark_group("samples");
    g.throughput(Throughput::Elements(900));
    for (name, config) in [
        ("worley_f1_chebyshev", NoiseConfig::worley()),
        ("simplex", NoiseConfig::simplex()),
    ] {
        let noise = zone_tiles::Noise::new(&config, 1).unwrap();
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(zone_tiles::matcher::cell_averages(
                    &noise,
                    black_box(0.5),
                    0.5,
                    60,
                    2,
                ))
            })
        });
    }
    g.finish();
}

/// `config` with every window connected (`--connected windows`).
fn windows(config: ZoneConfig) -> ZoneConfig {
    ZoneConfig {
        connected: zone_tiles::Connected::Windows,
        ..config
    }
}

/// The configurations of the chunk benchmarks (wall and thread CPU time).
fn chunk_configs() -> Vec<(&'static str, ZoneConfig, Option<zone_tiles::BiomeConfig>)> {
    let default = ZoneConfig::default();
    let reference = ZoneConfig {
        mode: Mode::Reference,
        ..default
    };
    let stride = |k| ZoneConfig {
        sampling: Sampling::Stride(k),
        ..default
    };
    vec![
        ("default", default, None),
        ("reference_stride2", reference, None),
        ("seamless_stride5", stride(5), None),
        ("seamless_stride10", stride(10), None),
        ("streaming_preset", ZoneConfig::streaming(), None),
        (
            "streaming_preset_biomes",
            ZoneConfig::streaming(),
            Some(zone_tiles::BiomeConfig::default()),
        ),
        ("windows_reference", windows(reference), None),
        ("windows_default", windows(default), None),
        (
            "windows_seamless_stride10",
            windows(ZoneConfig::streaming()),
            None,
        ),
    ]
}

#[cfg(unix)]
mod cpu {
    //! A criterion measurement in thread CPU time (nanoseconds).
    use criterion::measurement::{Measurement, ValueFormatter, WallTime};
    use rustix::time::{ClockId, clock_gettime};

    /// The calling thread's CPU time; `WallTime` lends its formatter (both count nanoseconds).
    pub struct ThreadCpu(pub WallTime);

    fn now() -> u64 {
        let t = clock_gettime(ClockId::ThreadCPUTime);
        t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
    }

    impl Measurement for ThreadCpu {
        type Intermediate = u64;
        type Value = u64;
        fn start(&self) -> u64 {
            now()
        }
        fn end(&self, start: u64) -> u64 {
            now() - start
        }
        fn add(&self, a: &u64, b: &u64) -> u64 {
            a + b
        }
        fn zero(&self) -> u64 {
            0
        }
        fn to_f64(&self, value: &u64) -> f64 {
            *value as f64
        }
        fn formatter(&self) -> &dyn ValueFormatter {
            self.0.formatter()
        }
    }
}

/// One 16x16-zone chunk on one core, in thread CPU time.
#[cfg(unix)]
fn chunk_cpu(c: &mut Criterion<cpu::ThreadCpu>) {
    let mut g = c.benchmark_group("chunk_cpu");
    g.throughput(Throughput::Elements(256));
    for (name, config, biomes) in chunk_configs() {
        let world = zone_tiles::World::new(config, biomes, 1).unwrap();
        let mut k = 0i64;
        g.bench_function(name, |b| {
            b.iter(|| {
                k += 1;
                black_box(world.chunk(black_box(k), -k).unwrap())
            })
        });
    }
    g.finish();
    corners(c);
    // A million zones with the defaults, in the thread's CPU time.
    let mut g = c.benchmark_group("million_cpu");
    g.sample_size(10);
    let generator = ZoneGenerator::new(ZoneConfig::default(), 1).unwrap();
    g.bench_function("default_1000x1000", |b| {
        b.iter(|| black_box(generator.generate(ZoneRect::new(0, 0, 1000, 1000)).unwrap()))
    });
    g.finish();
}

/// The default look of one 16x16-zone chunk: its 32x32 corner tiles (keys, what a game
/// streams and draws with its own art) and their picture at 60 px per zone (960x960 px),
/// without and with biome materials.
fn corners<M: criterion::measurement::Measurement>(c: &mut Criterion<M>) {
    let mut g = c.benchmark_group("corners");
    g.throughput(Throughput::Elements(256));
    for (name, biomes) in [
        ("default", None),
        ("biomes", Some(zone_tiles::BiomeConfig::default())),
    ] {
        let world = zone_tiles::World::new(ZoneConfig::default(), biomes, 1).unwrap();
        let mut k = 0i64;
        g.bench_function(format!("{name}_keys"), |b| {
            b.iter(|| {
                k += 1;
                black_box(world.chunk_corners(black_box(k), -k).unwrap())
            })
        });
        g.bench_function(format!("{name}_image"), |b| {
            b.iter(|| {
                k += 1;
                black_box(world.chunk_corner_image(black_box(k), -k).unwrap())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, zones);
#[cfg(unix)]
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(cpu::ThreadCpu(criterion::measurement::WallTime));
    targets = chunk_cpu
}
#[cfg(unix)]
criterion_main!(benches, cpu_benches);
#[cfg(not(unix))]
criterion_main!(benches);
