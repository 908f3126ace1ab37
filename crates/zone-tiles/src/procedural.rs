//! The built-in tileset, drawn by code: a top-down dungeon look with no artist.
//!
//! A tile shows one zone state: *on* cells are wall, *off* cells are floor. Every pixel is
//! computed from the state alone, so a tile is the same wherever it is used:
//!
//! * **floor**: flagstones (a slab grid with the period of the tile, so floor continues across
//!   tiles), grain from a hash of the pixel, a soft shadow under walls to the north, and per
//!   **variant** a few decorations (pebbles, cracks, moss) kept away from the tile border;
//! * **walls**: a dark top with a lighter rim wherever floor is near (edges, outer and inner
//!   corners, and caps at wall ends all follow from the distance to the nearest floor), and a
//!   brick **front face** on the south side of a wall above floor.
//!
//! The front face and the shadow are *directional* (light from the north, view from the
//! south), so these tiles are drawn for all 512 states ([`AtlasKind::Full`] layout) and never
//! flipped or rotated. [`ProceduralTiles::reduced_atlas`] draws the 102 class tiles with
//! direction-free art (no face, no shadow), for which the flips of the reduced tileset are
//! correct.
//!
//! **Geometry.** In reference mode a tile's 3x3 cells are thirds of the tile. In seamless
//! mode the border cells are *shared* nodes, so they are drawn a quarter wide and the centre
//! cell half wide: the two halves of a shared node, drawn by the two zones, make one cell of
//! the same size as the centre, and the zone grid does not show. Each tile draws only the
//! edges it can see; the half of a node that lies in the neighbouring tile draws the other
//! side. Variants are chosen per zone by a hash of its coordinates.

use crate::atlas::{Atlas, AtlasKind};
use crate::error::Result;
use crate::lattice::lattice_hash;
use crate::state::{SymmetryTable, ZoneState};
use crate::world::{Mode, ZoneWorld};
use image::RgbImage;

/// Variants per state in the built-in tileset.
pub const VARIANTS: u32 = 3;

/// The colours of one terrain style.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Floor slab colour.
    pub floor: [u8; 3],
    /// Mortar between floor slabs.
    pub mortar: [u8; 3],
    /// Top of a wall.
    pub wall_top: [u8; 3],
    /// Rim of a wall top next to floor.
    pub rim: [u8; 3],
    /// Brick front face of a wall.
    pub face: [u8; 3],
    /// Decorations on the floor.
    pub decor: [u8; 3],
}

impl Style {
    /// Grey-brown dungeon stone.
    pub const DUNGEON: Style = Style {
        floor: [132, 116, 98],
        mortar: [96, 84, 72],
        wall_top: [52, 46, 56],
        rim: [150, 138, 128],
        face: [104, 78, 62],
        decor: [88, 110, 62],
    };
}

/// Where the cell boundaries of a tile lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Reference mode: cells are thirds of the tile.
    Thirds,
    /// Seamless mode: border cells a quarter, the centre half (shared nodes).
    Dual,
}

impl Geometry {
    /// The geometry that draws worlds of `mode`.
    pub fn of(mode: Mode) -> Self {
        match mode {
            Mode::Reference => Geometry::Thirds,
            Mode::Seamless => Geometry::Dual,
        }
    }

    fn bounds(self, z: u32) -> [u32; 4] {
        match self {
            Geometry::Thirds => [0, z / 3, 2 * z / 3, z],
            Geometry::Dual => [0, z / 4, z - z / 4, z],
        }
    }
}

/// A drawer of procedural tiles for one zone size, geometry and style.
#[derive(Clone, Debug)]
pub struct ProceduralTiles {
    zone: u32,
    geometry: Geometry,
    style: Style,
    directional: bool,
}

fn mix(a: [u8; 3], b: [u8; 3], t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    std::array::from_fn(|i| (f64::from(a[i]) * (1.0 - t) + f64::from(b[i]) * t).round() as u8)
}

fn shade(c: [u8; 3], f: f64) -> [u8; 3] {
    std::array::from_fn(|i| (f64::from(c[i]) * f).round().clamp(0.0, 255.0) as u8)
}

impl ProceduralTiles {
    /// Tiles of `zone` px for `geometry`, in `style`, with directional art.
    pub fn new(zone: u32, geometry: Geometry, style: Style) -> Result<Self> {
        crate::world::check_zone_size(zone)?;
        Ok(Self {
            zone,
            geometry,
            style,
            directional: true,
        })
    }

    /// Tile side in pixels.
    pub fn zone_size(&self) -> u32 {
        self.zone
    }

    /// The cell `(col, row)` of tile pixel `(x, y)` and the pixel's rectangle of that cell.
    fn cell_of(&self, x: u32, y: u32) -> (usize, usize) {
        let b = self.geometry.bounds(self.zone);
        let find = |v: u32| (1..=3).find(|&i| v < b[i]).unwrap_or(3) - 1;
        (find(x), find(y))
    }

    /// Distance in px from `(x, y)` to the nearest floor cell of `state` in the tile.
    fn floor_distance(&self, state: ZoneState, x: u32, y: u32) -> f64 {
        let b = self.geometry.bounds(self.zone);
        let mut best = f64::INFINITY;
        for row in 0..3 {
            for col in 0..3 {
                if state.cell(col, row) {
                    continue;
                }
                let (x0, x1) = (f64::from(b[col]), f64::from(b[col + 1]));
                let (y0, y1) = (f64::from(b[row]), f64::from(b[row + 1]));
                let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
                let dx = (x0 - px).max(px - x1).max(0.0);
                let dy = (y0 - py).max(py - y1).max(0.0);
                best = best.min((dx * dx + dy * dy).sqrt());
            }
        }
        best
    }

    /// The colour of pixel `(x, y)` of the tile of `state`, variant `variant`.
    pub fn pixel(&self, state: ZoneState, variant: u32, x: u32, y: u32) -> [u8; 3] {
        let z = self.zone;
        let b = self.geometry.bounds(z);
        let (col, row) = self.cell_of(x, y);
        // Grain in 3x3 px specks of 4 levels: visible texture that still compresses.
        let grain = lattice_hash(0x7a11, i64::from(x / 3), i64::from(y / 3)) >> 62;
        let grain = 0.95 + 0.033 * grain as f64;
        let unit = f64::from(z) / 60.0;
        if state.cell(col, row) {
            // The south face: this wall has floor right below it in the tile.
            let face_h = (9.0 * unit).max(1.0);
            if self.directional && row < 2 && !state.cell(col, row + 1) {
                let bottom = f64::from(b[row + 1]);
                let dy = bottom - (f64::from(y) + 0.5);
                if dy < face_h {
                    return self.brick(x, dy / face_h, grain);
                }
            }
            let d = self.floor_distance(state, x, y);
            let rim = (3.0 * unit).max(1.0);
            return if d < rim {
                shade(self.style.rim, grain)
            } else {
                let depth = ((d - rim) / (12.0 * unit)).min(1.0);
                shade(mix(self.style.wall_top, [30, 26, 34], depth * 0.5), grain)
            };
        }
        let mut c = self.flagstone(x, y, grain);
        if let Some(d) = self.decoration(state, variant, x, y) {
            c = d;
        }
        // Shadow under a wall to the north.
        if self.directional && row > 0 && state.cell(col, row - 1) {
            let dy = f64::from(y) + 0.5 - f64::from(b[row]);
            let t = 1.0 - dy / (8.0 * unit);
            if t > 0.0 {
                c = shade(c, 1.0 - 0.45 * t);
            }
        }
        c
    }

    fn brick(&self, x: u32, from_bottom: f64, grain: f64) -> [u8; 3] {
        let unit = f64::from(self.zone) / 60.0;
        let course = (4.5 * unit).max(1.0);
        let band = (from_bottom * 2.0).floor() as u32;
        let offset = if band.is_multiple_of(2) {
            0.0
        } else {
            5.0 * unit
        };
        let brick_w = (10.0 * unit).max(2.0);
        let bx = (f64::from(x) + offset) % brick_w;
        let by = ((from_bottom * 2.0).fract() * course).floor();
        let mortar = bx < 1.0 || by < 1.0 && course > 2.0;
        let base = if mortar {
            shade(self.style.face, 0.7)
        } else {
            self.style.face
        };
        // Darker towards the floor (the face recedes into shadow).
        shade(base, grain * (0.7 + 0.3 * from_bottom))
    }

    fn flagstone(&self, x: u32, y: u32, grain: f64) -> [u8; 3] {
        let z = self.zone;
        let slab = (z / 2).max(1);
        let sy = (y + slab / 2) / slab;
        let shift = if sy.is_multiple_of(2) { 0 } else { slab / 2 };
        // Seams a third of a slab off the zone borders, so they never trace the zone grid.
        let (lx, ly) = ((x + shift + slab / 3) % slab, (y + slab / 2) % slab);
        if (lx == 0 || ly == 0) && slab >= 4 {
            return shade(self.style.mortar, grain);
        }
        let tone = lattice_hash(0x51ab, i64::from((x + shift) / slab), i64::from(sy));
        let tone = 0.92 + 0.12 * ((tone >> 48) as f64 / 65536.0);
        shade(self.style.floor, grain * tone)
    }

    /// A decoration pixel of `variant`, if one lies at `(x, y)` (away from the tile border,
    /// on floor only).
    fn decoration(&self, state: ZoneState, variant: u32, x: u32, y: u32) -> Option<[u8; 3]> {
        if variant == 0 {
            return None;
        }
        let z = f64::from(self.zone);
        let margin = z * 0.2;
        let h = lattice_hash(u64::from(variant) * 977 + u64::from(state.index()), 3, 5);
        for k in 0..3u32 {
            let hk = lattice_hash(h, i64::from(k), 1);
            let cx = margin + (hk & 0xffff) as f64 / 65536.0 * (z - 2.0 * margin);
            let cy = margin + ((hk >> 16) & 0xffff) as f64 / 65536.0 * (z - 2.0 * margin);
            let (col, row) = self.cell_of(cx as u32, cy as u32);
            if state.cell(col, row) {
                continue;
            }
            let (dx, dy) = (f64::from(x) + 0.5 - cx, f64::from(y) + 0.5 - cy);
            let r = z / 60.0 * (1.5 + ((hk >> 32) & 3) as f64);
            let hit = match variant % 3 {
                // Pebbles: small round stones.
                1 => dx * dx + dy * dy < r * r,
                // Cracks: a thin diagonal line.
                _ => (dx - dy).abs() < 0.8 && dx.abs() < 2.5 * r,
            };
            if hit {
                let c = if variant % 3 == 1 {
                    shade(self.style.mortar, 0.85)
                } else {
                    shade(self.style.mortar, 0.7)
                };
                return Some(if k == 2 { self.style.decor } else { c });
            }
        }
        None
    }

    /// The RGB pixels of one tile (`zone x zone`, row-major).
    pub fn tile(&self, state: ZoneState, variant: u32) -> Vec<u8> {
        let z = self.zone;
        let mut out = Vec::with_capacity((z * z * 3) as usize);
        for y in 0..z {
            for x in 0..z {
                out.extend_from_slice(&self.pixel(state, variant, x, y));
            }
        }
        out
    }

    /// The variant of zone `(zx, zy)`.
    pub fn variant_of(zx: i64, zy: i64) -> u32 {
        (lattice_hash(0x7661_7269, zx, zy) % u64::from(VARIANTS)) as u32
    }

    /// The 102-tile reduced atlas drawn with direction-free art (variant 0), for the
    /// reduced tileset's flips.
    pub fn reduced_atlas(&self) -> Result<Atlas> {
        crate::limits::check_atlas(AtlasKind::Reduced.tile_count() as u64, self.zone)?;
        let flat = Self {
            directional: false,
            ..self.clone()
        };
        let tiles: Vec<Vec<u8>> = SymmetryTable::get()
            .canonical_states()
            .iter()
            .map(|&s| flat.tile(s, 0))
            .collect();
        Atlas::from_tiles(AtlasKind::Reduced, self.zone, &tiles)
    }

    /// The 512-tile full atlas (variant 0, directional art, never flipped).
    pub fn full_atlas(&self) -> Result<Atlas> {
        crate::limits::check_atlas(AtlasKind::Full.tile_count() as u64, self.zone)?;
        let tiles: Vec<Vec<u8>> = (0..512u16)
            .map(|s| self.tile(ZoneState::from_bits(s), 0))
            .collect();
        Atlas::from_tiles(AtlasKind::Full, self.zone, &tiles)
    }

    /// Paints `world`: each zone's tile, variant by a hash of its coordinates. Tiles are
    /// drawn once per (state, variant) used.
    pub fn paint(&self, world: &ZoneWorld) -> Result<RgbImage> {
        let z = self.zone;
        let (w, h) = (world.zones_wide() as u64, world.zones_high() as u64);
        crate::limits::check_image(w, h, z)?;
        let mut cache: Vec<Option<Vec<u8>>> = vec![None; 512 * VARIANTS as usize];
        let mut img = RgbImage::new((w * u64::from(z)) as u32, (h * u64::from(z)) as u32);
        let zu = z as usize;
        let stride = img.width() as usize * 3;
        let buf: &mut [u8] = &mut img;
        for ((x, y), &state) in world.states.iter() {
            let v = Self::variant_of(world.origin.0 + x as i64, world.origin.1 + y as i64);
            let slot = &mut cache[state.index() as usize * VARIANTS as usize + v as usize];
            let tile = slot.get_or_insert_with(|| self.tile(state, v));
            for ty in 0..zu {
                let row = (y * zu + ty) * stride + x * zu * 3;
                buf[row..row + zu * 3].copy_from_slice(&tile[ty * zu * 3..(ty + 1) * zu * 3]);
            }
        }
        Ok(img)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_and_floor_are_told_apart_and_variants_differ() {
        let t = ProceduralTiles::new(60, Geometry::Thirds, Style::DUNGEON).unwrap();
        let full = t.tile(ZoneState::FULL, 0);
        let empty = t.tile(ZoneState::EMPTY, 0);
        let mean = |p: &[u8]| p.iter().map(|&v| f64::from(v)).sum::<f64>() / p.len() as f64;
        assert!(mean(&full) + 30.0 < mean(&empty), "walls darker than floor");
        assert_ne!(t.tile(ZoneState::EMPTY, 1), t.tile(ZoneState::EMPTY, 2));
    }

    #[test]
    fn seamless_tiles_agree_across_shared_nodes() {
        // Left zone with its right column on, right zone with its left column on: the
        // shared node column is wall in both, so the pixels on either side of the border
        // are wall top (not a doubled cell of another colour).
        let t = ProceduralTiles::new(60, Geometry::Dual, Style::DUNGEON).unwrap();
        let left = t.tile(ZoneState::from_bits(4 | 32 | 256), 0);
        let right = t.tile(ZoneState::from_bits(1 | 8 | 64), 0);
        for y in 20..40 {
            let a = &left[(y * 60 + 59) * 3..][..3];
            let b = &right[(y * 60) * 3..][..3];
            let diff: i32 = (0..3)
                .map(|i| (i32::from(a[i]) - i32::from(b[i])).abs())
                .sum();
            assert!(diff < 40, "row {y}: {a:?} vs {b:?}");
        }
    }
}
