//! Connected mode: all floor (off cells) of the world is one 4-connected area, decided
//! locally, so chunks agree at their borders.

use grid_core::connectivity::Components;
mod common;

use common::floor_components;
use zone_tiles::connect::REGION_ZONES;
use zone_tiles::*;

fn generator(noise: NoiseConfig, mode: Mode, connected: bool, seed: u64) -> ZoneGenerator {
    let config = ZoneConfig {
        noise,
        mode,
        connected: if connected {
            Connected::Regions
        } else {
            Connected::Off
        },
        ..ZoneConfig::default()
    };
    ZoneGenerator::new(config, seed).unwrap()
}

/// The labels (in the grown window's components) of every floor cell of the inner window.
fn inner_labels(grown: &ZoneWorld, margin: usize, w: usize, h: usize) -> Vec<u32> {
    let comps = floor_components(grown);
    let mut labels: Vec<u32> = Vec::new();
    for y in 3 * margin..3 * (margin + h) {
        for x in 3 * margin..3 * (margin + w) {
            let l = *comps.labels.at(x, y);
            if l != Components::NONE && !labels.contains(&l) {
                labels.push(l);
            }
        }
    }
    labels
}

/// Window origins near and far (multiples of 171 and 256, near ±2^31), 20 in all.
fn origins() -> Vec<(i64, i64)> {
    let mut v = vec![
        (0, 0),
        (-13, 5),
        (171, -256),
        (1_000_003, 77),
        (-(1 << 31) + 40, 12_345),
        ((1 << 31) - 100, -(1 << 31) + 50),
    ];
    for k in 0..14i64 {
        v.push((k * 7919 - 50_000 + k % 4, -k * k * 613 + 3 - k % 3));
    }
    v
}

/// The floor areas of `rect` generated on its own.
fn areas(g: &ZoneGenerator, rect: ZoneRect) -> Components {
    floor_components(&g.generate(rect).unwrap())
}

const MODES: [(Mode, fn() -> NoiseConfig); 3] = [
    (Mode::Reference, NoiseConfig::worley),
    (Mode::Seamless, NoiseConfig::worley),
    (Mode::Seamless, NoiseConfig::simplex),
];

#[test]
fn every_floor_cell_of_a_window_is_one_area_within_the_window_grown_by_a_region() {
    let m = REGION_ZONES as usize;
    for (mode, noise) in MODES {
        for (i, &(x, y)) in origins().iter().enumerate().step_by(2) {
            let g = generator(noise(), mode, true, i as u64);
            let grown = g
                .generate(ZoneRect::new(
                    x - m as i64,
                    y - m as i64,
                    40 + 2 * m as u32,
                    30 + 2 * m as u32,
                ))
                .unwrap();
            let labels = inner_labels(&grown, m, 40, 30);
            assert_eq!(labels.len(), 1, "{mode:?} at ({x}, {y})");
        }
    }
}

#[test]
fn windows_made_of_whole_regions_are_one_area_on_their_own() {
    // Every chunk, and any window whose origin and size are multiples of REGION_ZONES.
    let s = REGION_ZONES;
    for (mode, noise) in MODES {
        for (i, &(x, y)) in origins().iter().enumerate() {
            let g = generator(noise(), mode, true, 10 + i as u64);
            let (x, y) = (x.div_euclid(s) * s, y.div_euclid(s) * s);
            let window = ZoneRect::new(x, y, 10 * s as u32, 8 * s as u32);
            assert_eq!(areas(&g, window).count(), 1, "{mode:?} at ({x}, {y})");
            let (cx, cy) = (x.div_euclid(16), y.div_euclid(16));
            let chunk = ZoneRect::new(cx * 16, cy * 16, 16, 16);
            assert_eq!(areas(&g, chunk).count(), 1, "{mode:?} chunk ({cx}, {cy})");
        }
    }
}

#[test]
fn windows_cut_anywhere_keep_almost_all_floor_in_one_area() {
    // 40x30 windows at any zone: the pockets cut off by the window's edges are small
    // (measured: the largest area holds 99.2% (reference) and 99.7% (seamless) of the
    // floor on average; see the crate docs).
    for (mode, noise) in MODES {
        let mut largest = 0.0;
        for (i, &(x, y)) in origins().iter().enumerate() {
            let g = generator(noise(), mode, true, i as u64);
            let comps = areas(&g, ZoneRect::new(x, y, 40, 30));
            let floor: u32 = comps.sizes.iter().sum();
            largest += f64::from(comps.sizes.iter().copied().max().unwrap()) / f64::from(floor);
        }
        let mean = largest / origins().len() as f64;
        assert!(
            mean > 0.98,
            "{mode:?}: the largest area holds {mean:.3} of the floor"
        );
    }
}

#[test]
fn connected_mode_keeps_most_of_the_caves() {
    // The share of wall changes only by the corridors and the filled pockets.
    for mode in [Mode::Reference, Mode::Seamless] {
        let rect = ZoneRect::new(30, 30, 30, 30);
        let share = |connected| {
            let g = generator(NoiseConfig::worley(), mode, connected, 3);
            let w = g.generate(rect).unwrap();
            w.on_share()
        };
        let (plain, connected) = (share(false), share(true));
        assert!(
            (connected - plain).abs() < 0.15,
            "{mode:?}: {plain:.2} -> {connected:.2}"
        );
    }
}

#[test]
fn without_the_option_the_floor_falls_apart() {
    let g = generator(NoiseConfig::worley(), Mode::Seamless, false, 1);
    let world = g.generate(ZoneRect::new(0, 0, 40, 32)).unwrap();
    assert!(floor_components(&world).count() > 5);
}

#[test]
fn chunks_generated_alone_agree_with_the_whole() {
    for mode in [Mode::Reference, Mode::Seamless] {
        let g = generator(NoiseConfig::worley(), mode, true, 7);
        let whole = g.generate(ZoneRect::new(-20, -12, 48, 32)).unwrap();
        for cy in 0..2 {
            for cx in 0..3 {
                let rect = ZoneRect::new(-20 + 16 * cx, -12 + 16 * cy, 16, 16);
                let chunk = g.generate(rect).unwrap();
                assert_eq!(whole.sub_window(rect).unwrap(), chunk.states, "{mode:?}");
            }
        }
        assert_eq!(g.zone_state(3, 4).unwrap(), *whole.states.at(23, 16));
        // Seamless chunks still agree on every shared edge.
        if mode == Mode::Seamless {
            assert_eq!(seamless::border_mismatch(&whole.states).mismatched, 0);
        }
    }
}
