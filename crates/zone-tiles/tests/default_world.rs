//! The default world: seamless borders, wall faces at every border, and the map independent
//! of the drawn zone size.

use grid_core::Grid;
use zone_tiles::seamless::border_mismatch;
use zone_tiles::*;

/// The cell lattice of a window: shared nodes (`2w+1 x 2h+1`) in seamless mode, every zone's
/// own cells (`3w x 3h`) in reference mode; `true` is wall.
fn lattice(world: &ZoneWorld) -> Grid<bool> {
    let (w, h) = (world.zones_wide(), world.zones_high());
    match world.mode {
        Mode::Seamless => Grid::from_fn(2 * w + 1, 2 * h + 1, |m, n| {
            let (zx, zy) = ((m / 2).min(w - 1), (n / 2).min(h - 1));
            world.states.at(zx, zy).cell(m - 2 * zx, n - 2 * zy)
        }),
        Mode::Reference => Grid::from_fn(3 * w, 3 * h, |u, v| {
            world.states.at(u / 3, v / 3).cell(u % 3, v % 3)
        }),
    }
}

/// Where lattice row (column) `n` ends, in pixels, and the pixel in its middle.
fn span(n: usize, z: usize, mode: Mode) -> (usize, usize) {
    match mode {
        // Border nodes are a quarter wide on either side of the zone border, centres half.
        Mode::Seamless => {
            let k = n / 2;
            if n.is_multiple_of(2) {
                (k * z + z / 4, k * z)
            } else {
                (k * z + z - z / 4, k * z + z / 2)
            }
        }
        Mode::Reference => ((n + 1) * z / 3, n * z / 3 + z / 6),
    }
}

/// Wall-above-floor pairs of the lattice, split into those whose wall cell touches a zone
/// border from above (the pair straddles a border in reference mode; the wall is a shared
/// border node in seamless mode) and those inside a zone: `[inside, border]` counts of
/// `(pairs, pairs drawn with a brick face)`.
fn faces(world: &ZoneWorld, img: &image::RgbImage) -> [(u32, u32); 2] {
    let z = world.zone_size as usize;
    let cells = lattice(world);
    let mut out = [(0, 0); 2];
    for n in 0..cells.height() - 1 {
        for m in 0..cells.width() {
            if !*cells.at(m, n) || *cells.at(m, n + 1) {
                continue;
            }
            let at_border = match world.mode {
                Mode::Seamless => n.is_multiple_of(2),
                Mode::Reference => n % 3 == 2,
            };
            let (bottom, _) = span(n, z, world.mode);
            let (_, x) = span(m, z, world.mode);
            let x = x.min(img.width() as usize - 1);
            // Two pixels above the wall's bottom edge: the brick face (brown: red at most
            // about 110 and at least 19 above blue), or without a face the bright rim of the
            // wall top (red at least 142) or its dark blue-grey top (red below blue + 5).
            let [r, _, b] = img.get_pixel(x as u32, (bottom - 2) as u32).0;
            let slot = &mut out[usize::from(at_border)];
            slot.0 += 1;
            slot.1 += u32::from(r < 125 && r > b.saturating_add(12));
        }
    }
    out
}

#[test]
fn the_default_is_seamless_with_no_mismatched_border() {
    assert_eq!(ZoneConfig::default().mode, Mode::Seamless);
    for seed in 0..6 {
        let g = ZoneGenerator::new(ZoneConfig::default(), seed).unwrap();
        for (x, y) in [(0, 0), (-513, 77), (1 << 30, -(1 << 29))] {
            let world = g.generate(ZoneRect::new(x, y, 30, 20)).unwrap();
            let m = border_mismatch(&world.states);
            assert_eq!(m.pairs, 29 * 20 + 30 * 19);
            assert_eq!(m.mismatched, 0, "seed {seed} at ({x}, {y})");
        }
    }
}

#[test]
fn a_wall_above_floor_shows_its_face_at_zone_borders_as_inside_zones() {
    let rect = ZoneRect::new(-40, 25, 24, 16);
    for seed in [1, 4] {
        let world = World::new(ZoneConfig::default(), None, seed).unwrap();
        let zones = world.generator().generate(rect).unwrap();
        let [inside, border] = faces(&zones, &world.paint(&zones).unwrap());
        assert!(inside.0 > 50 && border.0 > 50, "{inside:?} {border:?}");
        assert_eq!(inside.0, inside.1, "seed {seed}: faces inside zones");
        assert_eq!(border.0, border.1, "seed {seed}: faces at zone borders");
    }
    // The reference look (`--reference`) draws every zone on its own: a wall in the bottom
    // row of a zone cannot see the floor below it, in the next zone, and has no face.
    let reference = ZoneConfig {
        mode: Mode::Reference,
        ..ZoneConfig::default()
    };
    let world = World::new(reference, None, 4).unwrap();
    let zones = world.generator().generate(rect).unwrap();
    let [inside, border] = faces(&zones, &world.paint(&zones).unwrap());
    assert_eq!(inside.0, inside.1);
    assert!(border.0 > 50 && border.1 == 0, "{border:?}");
}

#[test]
fn the_map_does_not_depend_on_the_drawn_zone_size() {
    let configs = [
        ZoneConfig::default(),
        ZoneConfig {
            mode: Mode::Reference,
            ..ZoneConfig::default()
        },
        ZoneConfig {
            connected: Connected::Regions,
            ..ZoneConfig::default()
        },
        ZoneConfig {
            connected: Connected::Windows,
            ..ZoneConfig::default()
        },
        ZoneConfig {
            noise: NoiseConfig::simplex(),
            ..ZoneConfig::streaming()
        },
    ];
    let rect = ZoneRect::new(-13, 40, 20, 12);
    for config in configs {
        let states = |zone_size| {
            let cfg = ZoneConfig {
                zone_size,
                ..config
            };
            ZoneGenerator::new(cfg, 9)
                .unwrap()
                .generate(rect)
                .unwrap()
                .states
        };
        let at60 = states(60);
        for size in [18, 24, 3, 297] {
            assert_eq!(states(size), at60, "{config:?} at {size} px");
        }
    }
    // Terrains too: the altitude is read in the same noise frame.
    let terrains = |zone_size| {
        let cfg = ZoneConfig {
            zone_size,
            ..ZoneConfig::default()
        };
        let w = World::new(cfg, Some(BiomeConfig::default()), 2).unwrap();
        (0..40)
            .map(|i| w.terrain_of(i * 3, -i * 2))
            .collect::<Vec<_>>()
    };
    assert_eq!(terrains(18), terrains(60));
    assert_eq!(terrains(24), terrains(60));
}
