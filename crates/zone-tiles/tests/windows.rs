//! Every window connected (`Connected::Windows`): every 40x30 window at any origin is one
//! 4-connected floor area on its own, chunks generated alone agree with larger windows, and
//! the zone rules of `zone_tiles::blocks` hold.

use grid_core::connectivity::{Connectivity, components};
mod common;

use common::floor_components;
use zone_tiles::blocks::{self, MAX_BLOCK};
use zone_tiles::*;

fn generator(noise: NoiseConfig, mode: Mode, fill: f64, seed: u64) -> ZoneGenerator {
    let config = ZoneConfig {
        noise,
        mode,
        threshold: Threshold::Fill(fill),
        connected: Connected::Windows,
        ..ZoneConfig::default()
    };
    ZoneGenerator::new(config, seed).unwrap()
}

/// 44 window origins: near, far (±2^31), on multiples of 171, 256 and 256k zones, and on
/// and off the macro grid.
fn origins() -> Vec<(i64, i64)> {
    let far = 1i64 << 31;
    let mut v = vec![
        (0, 0),
        (1, 3),
        (-13, 5),
        (171, -256),
        (342, 513),
        (-171 * 7, 171 * 3 + 1),
        (256, 256),
        (-256 * 9 - 2, 256 * 5 + 3),
        (256_000, -256_000),
        (262_144, 262_144 * 3 + 1),
        (-262_144 * 5 + 2, 262_143),
        (1_000_003, 77),
        (-far, -far),
        (-far + 1, far - 30),
        (far - 40, -far + 3),
        (far - 41, far - 31),
    ];
    for k in 0..28i64 {
        v.push((k * 7919 - 50_000 + k % 5, -k * k * 613 + 3 - k % 3));
    }
    v
}

const MODES: [(Mode, fn() -> NoiseConfig); 4] = [
    (Mode::Reference, NoiseConfig::worley),
    (Mode::Reference, NoiseConfig::simplex),
    (Mode::Seamless, NoiseConfig::worley),
    (Mode::Seamless, NoiseConfig::simplex),
];

#[test]
fn every_40x30_window_is_one_floor_area_on_its_own() {
    for (mode, noise) in MODES {
        for (i, &(x, y)) in origins().iter().enumerate() {
            let g = generator(noise(), mode, 0.45, i as u64);
            let world = g.generate(ZoneRect::new(x, y, 40, 30)).unwrap();
            let comps = floor_components(&world);
            assert_eq!(comps.count(), 1, "{mode:?} {noise:?} at ({x}, {y})");
        }
    }
}

#[test]
fn windows_at_neighbouring_origins_and_other_fills_are_one_area() {
    // 25 origins one zone apart (every way a window's edges can cut the macro cells there),
    // at fills 0.3 and 0.6, and the smallest window the guarantee covers.
    let side = MAX_BLOCK as u32 + 1;
    for (mode, noise) in MODES {
        for fill in [0.3, 0.6] {
            let g = generator(noise(), mode, fill, 5);
            for k in 0..25 {
                let (x, y) = (1000 + k % 5, -700 + k / 5);
                for (w, h) in [(40, 30), (side, side)] {
                    let world = g.generate(ZoneRect::new(x, y, w, h)).unwrap();
                    let areas = floor_components(&world).count();
                    assert_eq!(areas, 1, "{mode:?} fill {fill} {w}x{h} at ({x}, {y})");
                }
            }
        }
    }
}

/// Random `(x, y)` zone origins anywhere in the plane (a 40x30 window still fits).
fn random_origins(seed: u64, n: usize) -> Vec<(i64, i64)> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        grid_core::rng::mix64(state)
    };
    let span = (1u64 << 32) - 100;
    (0..n)
        .map(|_| {
            let x = (next() % span) as i64 - (1i64 << 31);
            let y = (next() % span) as i64 - (1i64 << 31);
            (x, y)
        })
        .collect()
}

/// What `levelgen zones --connected` makes (the default settings, every window connected):
/// 40x30 screens at 20 random origins, each one floor area.
#[test]
fn connected_screens_at_random_origins_are_one_area() {
    let config = ZoneConfig {
        connected: Connected::Windows,
        ..ZoneConfig::default()
    };
    for (i, (x, y)) in random_origins(40, 20).into_iter().enumerate() {
        let g = ZoneGenerator::new(config, i as u64).unwrap();
        let world = g.generate(ZoneRect::new(x, y, 40, 30)).unwrap();
        assert_eq!(
            floor_components(&world).count(),
            1,
            "seed {i} at ({x}, {y})"
        );
    }
}

/// The minimum `--help` states ([`blocks::MIN_WINDOW`], 7x7 zones) on 200 random windows
/// from 7x7 to 9x9 zones, default settings (a quarter of them in reference mode).
#[test]
fn the_stated_window_minimum_holds_on_200_random_windows() {
    let min = blocks::MIN_WINDOW;
    for (k, (x, y)) in random_origins(7, 200).into_iter().enumerate() {
        let mode = if k % 4 == 3 {
            Mode::Reference
        } else {
            Mode::Seamless
        };
        let config = ZoneConfig {
            mode,
            connected: Connected::Windows,
            ..ZoneConfig::default()
        };
        let g = ZoneGenerator::new(config, k as u64 % 5).unwrap();
        let (w, h) = (min + (k as u32 % 3), min + (k as u32 / 3 % 3));
        let world = g.generate(ZoneRect::new(x, y, w, h)).unwrap();
        let areas = floor_components(&world).count();
        assert_eq!(areas, 1, "{mode:?} {w}x{h} at ({x}, {y})");
    }
}

#[test]
fn chunks_generated_alone_agree_with_the_whole() {
    for (mode, noise) in MODES {
        let g = generator(noise(), mode, 0.45, 7);
        let whole = g.generate(ZoneRect::new(-21, -13, 50, 34)).unwrap();
        for cy in 0..2 {
            for cx in 0..3 {
                // Chunks and windows off the macro grid alike.
                for (w, h, dx) in [(16, 16, 0), (13, 9, 1)] {
                    let rect = ZoneRect::new(-20 + 16 * cx + dx, -12 + 16 * cy + dx, w, h);
                    let alone = g.generate(rect).unwrap();
                    assert_eq!(whole.sub_window(rect).unwrap(), alone.states, "{mode:?}");
                    assert_eq!(floor_components(&alone).count(), 1, "{mode:?} {rect:?}");
                }
            }
        }
        assert_eq!(g.zone_state(3, 4).unwrap(), *whole.states.at(24, 17));
        let par = g.generate_par(ZoneRect::new(-21, -13, 50, 34)).unwrap();
        assert_eq!(par, whole, "{mode:?}: rayon changes nothing");
        if mode == Mode::Seamless {
            assert_eq!(seamless::border_mismatch(&whole.states).mismatched, 0);
        }
    }
}

/// Whether the floor cells of `s` are one 4-connected piece.
fn one_piece(s: ZoneState) -> bool {
    components(3, 3, Connectivity::Four, |i| !s.cell(i % 3, i / 3)).count() == 1
}

#[test]
fn blocks_are_separated_rectangles_and_floor_zones_follow_the_zone_rules() {
    let (w, h) = (60usize, 44usize);
    for (mode, noise) in MODES {
        for (seed, fill) in [(1, 0.3), (2, 0.45), (3, 0.6)] {
            let g = generator(noise(), mode, fill, seed);
            let world = g
                .generate(ZoneRect::new(-30, 17, w as u32, h as u32))
                .unwrap();
            let s = |x: usize, y: usize| *world.states.at(x, y);
            // Block zones are the all-wall zones (a floor zone always keeps floor).
            let blocks = components(w, h, Connectivity::Eight, |i| {
                s(i % w, i / w) == ZoneState::FULL
            });
            assert!(
                blocks.count() > 5,
                "{mode:?} fill {fill}: {} blocks",
                blocks.count()
            );
            for cells in blocks.cells() {
                let xs = cells.iter().map(|i| i % w);
                let ys = cells.iter().map(|i| i / w);
                let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
                let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
                let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
                assert_eq!(bw * bh, cells.len(), "{mode:?}: a block is not a rectangle");
                assert!(bw <= MAX_BLOCK as usize && bh <= MAX_BLOCK as usize);
            }
            for y in 0..h {
                for x in 0..w {
                    let a = s(x, y);
                    if a == ZoneState::FULL {
                        continue;
                    }
                    assert!(one_piece(a), "{mode:?}: zone ({x}, {y}) = {}", a.index());
                    if x + 1 < w && s(x + 1, y) != ZoneState::FULL {
                        let b = s(x + 1, y);
                        assert!((0..3).any(|k| !a.cell(2, k) && !b.cell(0, k)), "{mode:?}");
                    }
                    if y + 1 < h && s(x, y + 1) != ZoneState::FULL {
                        let b = s(x, y + 1);
                        assert!((0..3).any(|k| !a.cell(k, 2) && !b.cell(k, 0)), "{mode:?}");
                    }
                }
            }
        }
    }
}

/// The share of wall cells of 40x30 windows at `fill`, over seeds 0..4.
fn wall_share(mode: Mode, fill: f64) -> f64 {
    let (mut on, mut cells) = (0u64, 0u64);
    for seed in 0..4 {
        let g = generator(NoiseConfig::worley(), mode, fill, seed);
        let world = g.generate(ZoneRect::new(500, -300, 40, 30)).unwrap();
        on += world.on_cells();
        cells += 40 * 30 * 9;
    }
    on as f64 / cells as f64
}

#[test]
fn the_wall_share_follows_the_fill_setting() {
    for mode in [Mode::Reference, Mode::Seamless] {
        let shares: Vec<f64> = [0.3, 0.45, 0.6]
            .iter()
            .map(|&f| wall_share(mode, f))
            .collect();
        println!("{mode:?}: wall share at fill 0.3, 0.45, 0.6: {shares:.3?}");
        assert!(
            shares[0] < shares[1] && shares[1] < shares[2],
            "{mode:?}: {shares:?}"
        );
        for (share, fill) in shares.iter().zip([0.3, 0.45, 0.6]) {
            assert!(
                (share - fill).abs() < 0.1,
                "{mode:?}: {share:.3} at fill {fill}"
            );
        }
    }
}

#[test]
fn settings_read_bools_and_names() {
    let read = |v: serde_json::Value| {
        let mut json = serde_json::to_value(ZoneConfig::default()).unwrap();
        json["connected"] = v;
        serde_json::from_value::<ZoneConfig>(json).map(|c| c.connected)
    };
    assert_eq!(read(false.into()).unwrap(), Connected::Off);
    assert_eq!(read(true.into()).unwrap(), Connected::Regions);
    assert_eq!(read("windows".into()).unwrap(), Connected::Windows);
    assert_eq!(read("regions".into()).unwrap(), Connected::Regions);
    let err = read("everywhere".into()).unwrap_err().to_string();
    assert!(
        err.contains("everywhere") && err.contains("windows"),
        "{err}"
    );
    let config = ZoneConfig {
        connected: Connected::Windows,
        ..ZoneConfig::default()
    };
    let json = serde_json::to_value(config).unwrap();
    assert_eq!(json["connected"], "windows");
    assert_eq!(serde_json::from_value::<ZoneConfig>(json).unwrap(), config);
    // Settings written before the enum keep their bytes.
    let json = serde_json::to_value(ZoneConfig::default()).unwrap();
    assert_eq!(json["connected"], false);
}
