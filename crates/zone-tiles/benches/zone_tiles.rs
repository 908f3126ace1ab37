//! Throughput of zone generation: zones of 60x60 px per second.
//!
//! `cargo bench -p zone-tiles --bench zone_tiles -- --warm-up-time 1 --measurement-time 3`

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
        "worley_f1_seamless_stride2",
        ZoneConfig {
            mode: Mode::Seamless,
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

    // Streaming: one 16x16-zone chunk (zones and tile references) on one core.
    let mut g = c.benchmark_group("chunk");
    g.throughput(Throughput::Elements(256));
    let seamless = ZoneConfig {
        mode: Mode::Seamless,
        ..default
    };
    for (name, config, biomes) in [
        ("default", default, None),
        ("seamless_stride2", seamless, None),
        (
            "seamless_stride5",
            ZoneConfig {
                sampling: Sampling::Stride(5),
                ..seamless
            },
            None,
        ),
        (
            "seamless_stride10",
            ZoneConfig {
                sampling: Sampling::Stride(10),
                ..seamless
            },
            None,
        ),
        ("streaming_preset", ZoneConfig::streaming(), None),
        (
            "streaming_preset_biomes",
            ZoneConfig::streaming(),
            Some(zone_tiles::BiomeConfig::default()),
        ),
    ] {
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

    // Raw noise cost: one 30x30 lattice (900 samples, the samples of one zone at stride 2).
    let mut g = c.benchmark_group("samples");
    g.throughput(Throughput::Elements(900));
    for (name, config) in [
        ("worley_f1_chebyshev", NoiseConfig::worley()),
        ("simplex", NoiseConfig::simplex()),
    ] {
        let noise = zone_tiles::Noise::new(&config, 1).unwrap();
        g.bench_function(name, |b| {
            b.iter(|| black_box(noise.lattice_mean(black_box(0.5), 0.5, 30, 2.0)))
        });
    }
    g.finish();
}

criterion_group!(benches, zones);
criterion_main!(benches);
