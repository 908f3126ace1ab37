//! World-level tests: seamless borders, streaming, determinism, golden grid, errors.

use grid_core::Grid;
use zone_tiles::seamless::border_mismatch;
use zone_tiles::world::parse_size;
use zone_tiles::*;

fn config(noise: NoiseConfig, mode: Mode) -> ZoneConfig {
    ZoneConfig {
        noise,
        mode,
        ..ZoneConfig::default()
    }
}

#[test]
fn seamless_mode_never_mismatches_while_reference_mismatches_about_half() {
    for noise in [NoiseConfig::simplex(), NoiseConfig::worley()] {
        let (mut reference, mut seamless) = (0.0, 0.0);
        let seeds = 0..6u64;
        for seed in seeds.clone() {
            let rect = ZoneRect::new(-3, 2, 14, 12);
            let r = ZoneGenerator::new(config(noise, Mode::Reference), seed)
                .unwrap()
                .generate(rect)
                .unwrap();
            let s = ZoneGenerator::new(config(noise, Mode::Seamless), seed)
                .unwrap()
                .generate(rect)
                .unwrap();
            let ms = border_mismatch(&s.states);
            assert_eq!(ms.mismatched, 0, "seed {seed}: seamless mismatch");
            assert_eq!(ms.pairs, 14 * 11 + 13 * 12);
            reference += border_mismatch(&r.states).rate();
            seamless += ms.rate();
        }
        let n = seeds.count() as f64;
        let rate = reference / n;
        assert!(
            // About half for Simplex, three quarters for Worley F1 at the default fill.
            (0.35..0.85).contains(&rate),
            "{noise:?}: reference rate {rate}"
        );
        assert_eq!(seamless, 0.0);
    }
}

#[test]
fn a_chunk_alone_equals_the_same_chunk_in_a_larger_window() {
    for mode in [Mode::Reference, Mode::Seamless] {
        for threshold in [Threshold::Fixed(0.4), Threshold::Fill(0.5)] {
            let cfg = ZoneConfig {
                noise: NoiseConfig::simplex(),
                threshold,
                mode,
                ..ZoneConfig::default()
            };
            let generator = ZoneGenerator::new(cfg, 99).unwrap();
            let big = generator.generate(ZoneRect::new(-6, -4, 16, 12)).unwrap();
            let chunk_rect = ZoneRect::new(-2, 1, 7, 5);
            let chunk = generator.generate(chunk_rect).unwrap();
            assert_eq!(
                big.sub_window(chunk_rect).unwrap(),
                chunk.states,
                "{mode:?}"
            );
            // A fresh generator (the threshold is recalibrated) and single zones agree too.
            let again = ZoneGenerator::new(cfg, 99).unwrap();
            assert_eq!(again.zone_state(3, 2).unwrap(), *big.states.at(9, 6));
            assert_eq!(again.zone_state(-6, -4).unwrap(), *big.states.at(0, 0));
        }
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    for mode in [Mode::Reference, Mode::Seamless] {
        let generator = ZoneGenerator::new(config(NoiseConfig::worley(), mode), 5).unwrap();
        let rect = ZoneRect::new(10, -20, 24, 9);
        let sequential = generator.generate(rect).unwrap();
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let parallel = pool.install(|| generator.generate_par(rect).unwrap());
            assert_eq!(parallel, sequential, "{mode:?} with {threads} threads");
        }
    }
}

/// The detail alone (no macro layer), as before the macro layer existed: these grids are
/// unchanged by it.
fn detail(config: ZoneConfig) -> ZoneConfig {
    ZoneConfig {
        structure: Structure::OFF,
        ..config
    }
}

#[test]
fn golden_state_grid_for_seed_42() {
    let states = |cfg: ZoneConfig| -> Vec<u16> {
        let world = ZoneGenerator::new(cfg, 42)
            .unwrap()
            .generate(ZoneRect::new(0, 0, 6, 4))
            .unwrap();
        world.states.as_slice().iter().map(|s| s.index()).collect()
    };
    let reference = detail(config(NoiseConfig::simplex(), Mode::Reference));
    assert_eq!(
        states(reference),
        GOLDEN_REFERENCE,
        "reference grid changed"
    );
    let seamless = detail(config(NoiseConfig::worley(), Mode::Seamless));
    assert_eq!(states(seamless), GOLDEN_SEAMLESS, "seamless grid changed");
    // The default settings (seamless, with the macro layer), pinned when the layer came.
    assert_eq!(
        states(ZoneConfig::default()),
        GOLDEN_DEFAULT,
        "default grid changed"
    );
}

const GOLDEN_REFERENCE: [u16; 24] = [
    136, 3, 496, 436, 11, 496, 54, 444, 319, 64, 500, 475, 473, 2, 0, 39, 31, 2, 73, 440, 110, 153,
    0, 496,
];
const GOLDEN_DEFAULT: [u16; 24] = [
    54, 63, 187, 410, 468, 211, 8, 0, 258, 486, 255, 59, 16, 304, 508, 511, 507, 504, 328, 500,
    511, 255, 31, 439,
];
const GOLDEN_SEAMLESS: [u16; 24] = [
    22, 51, 168, 282, 86, 403, 8, 160, 266, 196, 17, 38, 504, 90, 132, 259, 112, 312, 335, 369, 90,
    164, 25, 404,
];

#[test]
fn fill_threshold_turns_on_about_the_requested_fraction() {
    for fill in [0.2, 0.5, 0.8] {
        // Reference mode calibrates on the zones' own cells: exact up to rounding on the
        // calibration window. Seamless mode (the default) calibrates on the nodes, which
        // zones share (a border node is counted by two zones, a corner by four), so the
        // zones' cells hold the fill only approximately.
        // Without the macro layer, whose own calibration spans a wider area (below).
        for (mode, tolerance) in [(Mode::Reference, 0.01), (Mode::Seamless, 0.03)] {
            let cfg = detail(ZoneConfig {
                noise: NoiseConfig::simplex(),
                threshold: Threshold::Fill(fill),
                mode,
                ..ZoneConfig::default()
            });
            let generator = ZoneGenerator::new(cfg, 3).unwrap();
            let world = generator.generate(ZoneRect::new(0, 0, 16, 16)).unwrap();
            let got = world.on_share();
            assert!(
                (got - fill).abs() < tolerance,
                "{mode:?} fill {fill}: got {got}"
            );
        }
    }
}

/// With the macro layer (the default) the fill holds over large areas: 16 windows of
/// 24x24 zones spread over 3,000 zones, two seeds, default noise.
#[test]
fn the_macro_layer_keeps_the_fill_over_large_areas() {
    for seed in [1, 2] {
        let g = ZoneGenerator::new(ZoneConfig::default(), seed).unwrap();
        let mut share = 0.0;
        for k in 0..16i64 {
            let w = g
                .generate(ZoneRect::new(k * 197 - 1500, (k % 4) * 733 - 1400, 24, 24))
                .unwrap();
            share += w.on_share() / 16.0;
        }
        assert!((share - 0.45).abs() < 0.05, "seed {seed}: {share}");
    }
}

#[test]
fn bad_parameters_give_typed_errors() {
    let bad = |cfg: ZoneConfig| ZoneGenerator::new(cfg, 0).unwrap_err();
    let base = ZoneConfig::default();
    assert!(matches!(
        bad(ZoneConfig {
            zone_size: 61,
            ..base
        }),
        ZoneError::ZoneSizeNotDivisible { size: 61 }
    ));
    assert!(matches!(
        bad(ZoneConfig {
            zone_size: 0,
            ..base
        }),
        ZoneError::ZoneSizeNotDivisible { size: 0 }
    ));
    assert!(matches!(
        bad(ZoneConfig {
            threshold: Threshold::Fixed(-0.1),
            ..base
        }),
        ZoneError::ThresholdOutOfRange { .. }
    ));
    assert!(matches!(
        bad(ZoneConfig {
            threshold: Threshold::Fill(1.01),
            ..base
        }),
        ZoneError::FillOutOfRange { .. }
    ));
    assert!(matches!(
        bad(ZoneConfig {
            sampling: Sampling::Stride(0),
            ..base
        }),
        ZoneError::Stride { .. }
    ));
    let msg = bad(ZoneConfig {
        zone_size: 61,
        ..base
    })
    .to_string();
    assert!(msg.contains("61") && msg.contains("multiple of 3"), "{msg}");
    let generator = ZoneGenerator::new(base, 0).unwrap();
    assert!(matches!(
        generator.generate(ZoneRect::new(0, 0, 0, 5)),
        Err(ZoneError::WindowSize { .. })
    ));
    assert!(matches!(
        generator.generate(ZoneRect::new(i64::MAX - 3, 0, 2, 2)),
        Err(ZoneError::ZoneCoord { .. })
    ));
    assert!(generator.zone_state(0, -(1 << 40)).is_err());
    assert_eq!(parse_size("20x15").unwrap(), (20, 15));
    assert!(parse_size("20x").is_err());
    assert!(parse_size("0x3").is_err());
}

#[test]
fn cell_map_matches_states() {
    use grid_core::TileMap;
    let generator = ZoneGenerator::new(ZoneConfig::default(), 11).unwrap();
    let world = generator.generate(ZoneRect::new(0, 0, 5, 3)).unwrap();
    assert_eq!((world.width(), world.height()), (15, 9));
    let rebuilt = Grid::from_fn(5, 3, |zx, zy| {
        let mut cells = [false; 9];
        for (i, c) in cells.iter_mut().enumerate() {
            *c = world.tile(zx * 3 + i % 3, zy * 3 + i / 3) == 1;
        }
        ZoneState::from_cells(cells)
    });
    assert_eq!(rebuilt, world.states);
}

#[test]
fn work_and_size_limits_are_checked_before_computing() {
    let base = ZoneConfig::default();
    // The work of a zone does not depend on its drawn size (the noise sees 60 noise px),
    // only on the noise and the sampling: 8 octaves of the reference's Worley, every pixel.
    let heavy = ZoneConfig {
        noise: NoiseConfig {
            octaves: 8,
            ..NoiseConfig::worley_reference(zone_tiles::Distance::Euclidean)
        },
        sampling: Sampling::Full,
        ..base
    };
    assert!(
        ZoneGenerator::new(
            ZoneConfig {
                zone_size: 1023,
                sampling: Sampling::Full,
                ..base
            },
            0
        )
        .is_ok()
    );
    assert!(matches!(
        ZoneGenerator::new(heavy, 0),
        Err(ZoneError::Budget { limit, .. }) if limit == limits::MAX_ZONE_WORK
    ));
    let generator = ZoneGenerator::new(base, 0).unwrap();
    assert!(matches!(
        generator.generate(ZoneRect::new(0, 0, 65536, 65536)),
        Err(ZoneError::TooManyZones { .. })
    ));
    assert!(matches!(
        generator.generate(ZoneRect::new(0, 0, 2000, 2000)),
        Err(ZoneError::Budget { limit, .. }) if limit == limits::MAX_WINDOW_WORK
    ));
    assert!(matches!(
        limits::check_image(1000, 1000, 60),
        Err(ZoneError::ImageTooLarge { .. })
    ));
    assert!(matches!(
        Atlas::reference(AtlasKind::Full, 1023),
        Err(ZoneError::AtlasTooLarge { max_zone: 255, .. })
    ));
    let msg = ZoneError::Parse {
        what: "zone count",
        text: "9".repeat(10_000),
        expected: "WxH",
    }
    .to_string();
    assert!(msg.len() < 200, "{msg}");
}

#[test]
fn the_default_fill_gives_every_noise_kind_the_same_share_of_wall() {
    let kinds = [
        NoiseConfig::worley(),
        NoiseConfig::worley_reference(Distance::Chebyshev),
        NoiseConfig::simplex(),
        NoiseConfig {
            kind: NoiseKind::Perlin,
            ..NoiseConfig::simplex()
        },
    ];
    for noise in kinds {
        let (mut on, mut cells) = (0u64, 0u64);
        for seed in 0..3 {
            let generator = ZoneGenerator::new(config(noise, Mode::Reference), seed).unwrap();
            // Far from the calibration window at the origin.
            let world = generator
                .generate(ZoneRect::new(500, -700, 24, 24))
                .unwrap();
            on += world.on_cells();
            cells += 24 * 24 * 9;
        }
        let share = on as f64 / cells as f64;
        assert!((share - 0.45).abs() < 0.05, "{noise:?}: {share:.3}");
    }
}

#[test]
fn settings_serialise_with_the_documented_field_names() {
    let config = ZoneConfig {
        connected: Connected::Regions,
        mode: Mode::Seamless,
        ..ZoneConfig::default()
    };
    let json = serde_json::to_value(config).unwrap();
    for path in [
        "/zone_size",
        "/noise/kind/type",
        "/noise/kind/distance",
        "/noise/kind/output/type",
        "/noise/scale",
        "/noise/octaves",
        "/noise/persistence",
        "/sampling/stride",
        "/threshold/fill",
        "/mode",
        "/connected",
    ] {
        assert!(json.pointer(path).is_some(), "{path} missing in {json}");
    }
    assert_eq!(
        serde_json::from_value::<ZoneConfig>(json.clone()).unwrap(),
        config
    );
    let mut typo = json;
    typo["zone_sise"] = 60.into();
    assert!(serde_json::from_value::<ZoneConfig>(typo).is_err());
}

/// A fingerprint of a window's states (FNV-1a over the state indices).
fn fingerprint(world: &zone_tiles::ZoneWorld) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for s in world.states.as_slice() {
        for b in s.index().to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[test]
fn golden_worley_windows() {
    // Worley F1 (the default noise) through every distance, stride and mode, at near and far
    // origins: pins the matcher's hot loop (crate::worley_mean) to the sample-by-sample sums.
    let worley = |distance| NoiseConfig {
        kind: zone_tiles::NoiseKind::Worley {
            distance,
            output: zone_tiles::WorleyOutput::F1,
        },
        ..NoiseConfig::worley()
    };
    let mut got = Vec::new();
    for (noise, mode, stride) in [
        (NoiseConfig::worley(), Mode::Reference, 2),
        (NoiseConfig::worley(), Mode::Reference, 1),
        (NoiseConfig::worley(), Mode::Reference, 7),
        (NoiseConfig::worley(), Mode::Seamless, 2),
        (NoiseConfig::worley(), Mode::Seamless, 10),
        (worley(zone_tiles::Distance::Euclidean), Mode::Reference, 2),
        (worley(zone_tiles::Distance::Manhattan), Mode::Seamless, 3),
    ] {
        let cfg = detail(ZoneConfig {
            noise,
            mode,
            sampling: zone_tiles::Sampling::Stride(stride),
            ..ZoneConfig::default()
        });
        let generator = ZoneGenerator::new(cfg, 42).unwrap();
        for (x, y) in [(0, 0), (-37, 101), (1 << 30, -(1 << 30))] {
            let world = generator.generate(ZoneRect::new(x, y, 24, 16)).unwrap();
            got.push(fingerprint(&world));
        }
    }
    assert_eq!(got, GOLDEN_WORLEY);
}

const GOLDEN_WORLEY: [u64; 21] = [
    0x3e843b7aca6225a,
    0x3d41478a96323205,
    0x618d02afa79fe2ec,
    0x51ed824e53365669,
    0x9a0dcfa3a1f062d9,
    0xda0a6d0b2bd45c9c,
    0x6063a45eeaf106ec,
    0x488b18ee7914107f,
    0x96b60d6f2789eedc,
    0xa7cfa447260d106a,
    0xa71999a54b9d6c81,
    0x5c4d590282312b62,
    0xdc77fcb3050a4b97,
    0x633008697eb425fe,
    0xda853214ff8290c0,
    0x8a50f334702476dd,
    0xf34076e960228854,
    0x777c6966b785178d,
    0x390b7c42bcf15b18,
    0x4f962a4420121c09,
    0x7b00105a39f06eb1,
];
