//! The built-in procedural tileset: walls and floor, directional art never flipped, the
//! reduced atlas's flips, and no zone grid in seamless mode.

use image::RgbImage;
use zone_tiles::export::paint;
use zone_tiles::procedural::{Geometry, ProceduralTiles, Style};
use zone_tiles::*;

/// A window of the detail alone: the tiles' properties are measured on it (the macro
/// layer's solid masses, a few on a 20x12 window, change the baseline of the ratios below;
/// with it on, seed 0's border contrast is 1.32 instead of below 1.3).
fn world(mode: Mode, seed: u64) -> ZoneWorld {
    let config = ZoneConfig {
        mode,
        structure: Structure::OFF,
        ..ZoneConfig::default()
    };
    ZoneGenerator::new(config, seed)
        .unwrap()
        .generate(ZoneRect::new(-5, 3, 20, 12))
        .unwrap()
}

/// Whether the 3x3 patch at `(x, y)` is wall: its brightest pixel is darker than any floor
/// (floor has thin mortar seams and small decorations, never a whole dark patch).
fn is_wall(img: &RgbImage, x: u32, y: u32) -> bool {
    let mut brightest: f64 = 0.0;
    for dy in 0..3 {
        for dx in 0..3 {
            brightest = brightest.max(luma(img, x + dx - 1, y + dy - 1));
        }
    }
    brightest < 65.0
}

fn luma(img: &RgbImage, x: u32, y: u32) -> f64 {
    let p = img.get_pixel(x, y).0;
    0.3 * f64::from(p[0]) + 0.59 * f64::from(p[1]) + 0.11 * f64::from(p[2])
}

/// Mean brightness step across zone borders divided by the mean step across all columns
/// and rows: about 1 when the zone grid does not show.
fn grid_contrast(img: &RgbImage, z: u32) -> f64 {
    let (mut border, mut nb, mut all, mut na) = (0.0, 0.0, 0.0, 0.0);
    for y in 1..img.height() {
        for x in 1..img.width() {
            let dx = (luma(img, x, y) - luma(img, x - 1, y)).abs();
            let dy = (luma(img, x, y) - luma(img, x, y - 1)).abs();
            all += dx + dy;
            na += 2.0;
            if x % z == 0 {
                border += dx;
                nb += 1.0;
            }
            if y % z == 0 {
                border += dy;
                nb += 1.0;
            }
        }
    }
    (border / nb) / (all / na)
}

#[test]
fn seamless_painting_does_not_show_the_zone_grid() {
    for seed in 0..3 {
        let w = world(Mode::Seamless, seed);
        let tiles = ProceduralTiles::new(60, Geometry::Dual, Style::DUNGEON).unwrap();
        let c = grid_contrast(&tiles.paint(&w).unwrap(), 60);
        assert!(c < 1.3, "seed {seed}: border contrast {c:.2}");
        // Reference mode, whose zones disagree at half their borders, shows it.
        let r = world(Mode::Reference, seed);
        let thirds = ProceduralTiles::new(60, Geometry::Thirds, Style::DUNGEON).unwrap();
        let cut = grid_contrast(&thirds.paint(&r).unwrap(), 60);
        assert!(cut > c, "seed {seed}: {cut:.2} vs {c:.2}");
    }
}

#[test]
fn walls_are_dark_and_floor_light_at_every_cell_centre() {
    let w = world(Mode::Reference, 4);
    let tiles = ProceduralTiles::new(60, Geometry::Thirds, Style::DUNGEON).unwrap();
    let img = tiles.paint(&w).unwrap();
    for ((zx, zy), s) in w.states.iter() {
        for row in 0..3 {
            for col in 0..3 {
                let (x, y) = (
                    zx as u32 * 60 + col * 20 + 10,
                    zy as u32 * 60 + row * 20 + 6,
                );
                let wall = is_wall(&img, x, y);
                assert_eq!(wall, s.cell(col as usize, row as usize), "zone {zx},{zy}");
            }
        }
    }
}

#[test]
fn directional_art_is_drawn_per_state_not_flipped() {
    let tiles = ProceduralTiles::new(60, Geometry::Thirds, Style::DUNGEON).unwrap();
    // Wall on the top row over floor, and its mirror (wall on the bottom row).
    let top = tiles.tile(ZoneState::from_bits(7), 0);
    let bottom = tiles.tile(ZoneState::from_bits(7 << 6), 0);
    let flipped: Vec<u8> = (0..60)
        .rev()
        .flat_map(|y| top[y * 180..(y + 1) * 180].to_vec())
        .collect();
    assert_ne!(bottom, flipped, "the face would hang upside down");
    // The face of the top wall is at its bottom (rows 11..20), brick-red, not wall-top dark.
    let p = &top[(15 * 60 + 30) * 3..][..3];
    assert!(p[0] > p[2] + 20, "face pixel {p:?}");
}

#[test]
fn reduced_atlas_flips_draw_every_state() {
    let tiles = ProceduralTiles::new(30, Geometry::Thirds, Style::DUNGEON).unwrap();
    let atlas = tiles.reduced_atlas().unwrap();
    let states = grid_core::Grid::from_fn(32, 16, |x, y| ZoneState::from_bits((y * 32 + x) as u16));
    let w = ZoneWorld::from_states((0, 0), 30, Mode::Reference, states);
    let img = paint(&w, &atlas).unwrap();
    for ((zx, zy), s) in w.states.iter() {
        for row in 0..3 {
            for col in 0..3 {
                let (x, y) = (zx as u32 * 30 + col * 10 + 5, zy as u32 * 30 + row * 10 + 5);
                let wall = is_wall(&img, x, y);
                assert_eq!(
                    wall,
                    s.cell(col as usize, row as usize),
                    "state {}",
                    s.index()
                );
            }
        }
    }
}
