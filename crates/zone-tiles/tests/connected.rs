//! Connected mode: all floor (off cells) of the world is one 4-connected area, decided
//! locally, so chunks agree at their borders.

use grid_core::TileMap;
use grid_core::connectivity::{Components, Connectivity, components};
use zone_tiles::connect::BLOCK;
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
    (-(1 << 31) + 20, 12_345),
    ((1 << 31) - 100, -(1 << 31) + 50),
];

#[test]
fn every_floor_cell_of_a_window_is_one_area_of_the_world() {
    let m = BLOCK as usize;
    for mode in [Mode::Reference, Mode::Seamless] {
        for noise in [NoiseConfig::worley(), NoiseConfig::simplex()] {
            for (i, &(x, y)) in ORIGINS.iter().enumerate() {
                let g = generator(noise, mode, true, i as u64);
                let grown = g
                    .generate(ZoneRect::new(
                        x - BLOCK,
                        y - BLOCK,
                        40 + 2 * m as u32,
                        30 + 2 * m as u32,
                    ))
                    .unwrap();
                let labels = inner_labels(&grown, m, 40, 30);
                assert_eq!(labels.len(), 1, "{mode:?} {noise:?} at ({x}, {y})");
            }
        }
    }
}

#[test]
fn windows_aligned_to_the_blocks_are_one_area_on_their_own() {
    for mode in [Mode::Reference, Mode::Seamless] {
        for (i, &(x, y)) in ORIGINS.iter().enumerate() {
            let (x, y) = (x.div_euclid(BLOCK) * BLOCK, y.div_euclid(BLOCK) * BLOCK);
            let g = generator(NoiseConfig::worley(), mode, true, 10 + i as u64);
            let world = g.generate(ZoneRect::new(x, y, 40, 32)).unwrap();
            assert_eq!(
                floor_components(&world).count(),
                1,
                "{mode:?} at ({x}, {y})"
            );
        }
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
