//! Connected mode: all floor (off cells) of the world is one 4-connected area, decided
//! locally, so chunks agree at their borders.

use grid_core::TileMap;
use grid_core::connectivity::{Components, Connectivity, components};
use zone_tiles::connect::{BLOCK, REGION_ZONES};
use zone_tiles::*;

fn generator(noise: NoiseConfig, mode: Mode, connected: bool, seed: u64) -> ZoneGenerator {
    let config = ZoneConfig {
        noise,
        mode,
        connected,
        ..ZoneConfig::default()
    };
    ZoneGenerator::new(config, seed).unwrap()
}

fn floor_components(world: &ZoneWorld) -> Components {
    let w = world.width();
    components(w, world.height(), Connectivity::Four, |i| {
        world.tile(i % w, i / w) == 0
    })
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

const ORIGINS: [(i64, i64); 6] = [
    (0, 0),
    (-13, 5),
    (171, -256),
    (1_000_003, 77),
    (-(1 << 31) + 40, 12_345),
    ((1 << 31) - 100, -(1 << 31) + 50),
];

#[test]
fn every_floor_cell_of_a_window_is_one_area_of_the_world() {
    let m = (BLOCK * REGION_ZONES) as usize;
    for (mode, noise) in [
        (Mode::Reference, NoiseConfig::worley()),
        (Mode::Seamless, NoiseConfig::worley()),
        (Mode::Seamless, NoiseConfig::simplex()),
    ] {
        for (i, &(x, y)) in ORIGINS.iter().enumerate() {
            let g = generator(noise, mode, true, i as u64);
            let grown = g
                .generate(ZoneRect::new(
                    x - m as i64,
                    y - m as i64,
                    40 + 2 * m as u32,
                    30 + 2 * m as u32,
                ))
                .unwrap();
            let labels = inner_labels(&grown, m, 40, 30);
            assert_eq!(labels.len(), 1, "{mode:?} {noise:?} at ({x}, {y})");
        }
    }
}

#[test]
fn reference_windows_aligned_to_the_blocks_are_one_area_on_their_own() {
    let b = BLOCK * REGION_ZONES;
    for (i, &(x, y)) in ORIGINS.iter().enumerate() {
        let (x, y) = (x.div_euclid(b) * b, y.div_euclid(b) * b);
        let g = generator(NoiseConfig::worley(), Mode::Reference, true, 10 + i as u64);
        let world = g
            .generate(ZoneRect::new(x, y, 2 * b as u32, b as u32))
            .unwrap();
        assert_eq!(floor_components(&world).count(), 1, "at ({x}, {y})");
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
            let on: u32 = w.states.as_slice().iter().map(|s| s.on_count()).sum();
            f64::from(on) / (30.0 * 30.0 * 9.0)
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
