//! Atlases: the machine-drawn reference atlas an artist repaints, and cutting a repainted
//! atlas back into tiles.
//!
//! Layouts (tiles are `zone x zone` px squares, row-major):
//!
//! | kind | tiles | grid | at 60 px |
//! |---|---|---|---|
//! | [`AtlasKind::Full`] | 512, tile `i` = state `i` | 32 x 16 | 1920 x 960 |
//! | [`AtlasKind::Reduced`] | 102, tile `i` = class `i` (its canonical state) | 17 x 6 | 1020 x 360 |
//!
//! The reference drawing fills on cells dark and off cells light, separates cells with thin
//! lines, and prints the tile's state index (the canonical state for the reduced atlas) in a
//! white box at the tile's centre, so the artist can tell every tile apart.

use crate::error::{Result, ZoneError};
use crate::state::{CLASS_COUNT, STATE_COUNT, SymmetryTable, Transform, ZoneState};
use image::RgbImage;
use std::path::Path;

/// Which atlas layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtlasKind {
    /// 512 tiles, one per state.
    Full,
    /// 102 tiles, one per D4 class; other states are drawn with flips.
    Reduced,
}

impl AtlasKind {
    /// `(columns, rows)` of tiles.
    pub const fn grid(self) -> (u32, u32) {
        match self {
            AtlasKind::Full => (32, 16),
            AtlasKind::Reduced => (17, 6),
        }
    }

    /// Number of tiles.
    pub const fn tile_count(self) -> usize {
        match self {
            AtlasKind::Full => STATE_COUNT,
            AtlasKind::Reduced => CLASS_COUNT,
        }
    }

    fn name(self) -> &'static str {
        match self {
            AtlasKind::Full => "full",
            AtlasKind::Reduced => "reduced",
        }
    }
}

/// A set of tiles in one layout: the pixels of every tile, tile after tile (RGB, row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atlas {
    kind: AtlasKind,
    zone: u32,
    pixels: Vec<u8>,
}

const ON: [u8; 3] = [52, 58, 70];
const OFF: [u8; 3] = [236, 232, 220];
const LINE: [u8; 3] = [150, 150, 150];
const FRAME: [u8; 3] = [200, 60, 60];

/// 3x5 digit glyphs, one row per u8 (3 low bits, bit 2 = left column).
const DIGITS: [[u8; 5]; 10] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 2, 2, 2],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
];

/// Draws the reference tile of `state` with `label` into `out` (`zone x zone` RGB).
fn draw_reference_tile(out: &mut [u8], zone: u32, state: ZoneState, label: u16) {
    let z = zone as usize;
    let c = z / 3;
    for y in 0..z {
        for x in 0..z {
            let (col, row) = ((x / c).min(2), (y / c).min(2));
            let frame = x == 0 || y == 0 || x == z - 1 || y == z - 1;
            let line = c >= 6 && (x % c == 0 || y % c == 0);
            let colour = if frame && z >= 9 {
                FRAME
            } else if line {
                LINE
            } else if state.cell(col, row) {
                ON
            } else {
                OFF
            };
            out[(y * z + x) * 3..][..3].copy_from_slice(&colour);
        }
    }
    // The label: white box, black digits, centred.
    let text = label.to_string();
    let s = (z / 30).max(1);
    let (tw, th) = ((text.len() * 4 - 1) * s, 5 * s);
    if tw + 2 > z || th + 2 > z {
        return;
    }
    let (x0, y0) = ((z - tw) / 2, (z - th) / 2);
    for y in y0 - 1..y0 + th + 1 {
        for x in x0 - 1..x0 + tw + 1 {
            out[(y * z + x) * 3..][..3].copy_from_slice(&[255, 255, 255]);
        }
    }
    for (k, ch) in text.bytes().enumerate() {
        let glyph = DIGITS[usize::from(ch - b'0')];
        for (gy, bits) in glyph.iter().enumerate() {
            for gx in 0..3 {
                if bits >> (2 - gx) & 1 == 1 {
                    for dy in 0..s {
                        for dx in 0..s {
                            let (x, y) = (x0 + (k * 4 + gx) * s + dx, y0 + gy * s + dy);
                            out[(y * z + x) * 3..][..3].copy_from_slice(&[0, 0, 0]);
                        }
                    }
                }
            }
        }
    }
}

impl Atlas {
    /// The machine-drawn reference atlas with `zone`-px tiles.
    pub fn reference(kind: AtlasKind, zone: u32) -> Result<Atlas> {
        crate::world::check_zone_size(zone)?;
        crate::limits::check_atlas(kind.tile_count() as u64, zone)?;
        let t = (zone * zone * 3) as usize;
        let mut pixels = vec![0u8; t * kind.tile_count()];
        let table = SymmetryTable::get();
        for (i, tile) in pixels.chunks_exact_mut(t).enumerate() {
            let state = match kind {
                AtlasKind::Full => ZoneState::from_bits(i as u16),
                AtlasKind::Reduced => table.canonical_states()[i],
            };
            draw_reference_tile(tile, zone, state, state.index());
        }
        Ok(Atlas { kind, zone, pixels })
    }

    /// An atlas from its tiles (`zone x zone` RGB each, in layout order).
    pub fn from_tiles(kind: AtlasKind, zone: u32, tiles: &[Vec<u8>]) -> Result<Atlas> {
        crate::world::check_zone_size(zone)?;
        crate::limits::check_atlas(kind.tile_count() as u64, zone)?;
        let t = (zone * zone * 3) as usize;
        let mut pixels = Vec::with_capacity(t * kind.tile_count());
        for i in 0..kind.tile_count() {
            match tiles.get(i) {
                Some(tile) if tile.len() == t => pixels.extend_from_slice(tile),
                _ => return Err(ZoneError::State(i as u32)),
            }
        }
        Ok(Atlas { kind, zone, pixels })
    }

    /// The layout.
    pub fn kind(&self) -> AtlasKind {
        self.kind
    }

    /// Tile side in pixels.
    pub fn zone_size(&self) -> u32 {
        self.zone
    }

    /// The pixels of tile `index` (RGB, row-major, `zone x zone`).
    pub fn tile(&self, index: usize) -> &[u8] {
        let t = (self.zone * self.zone * 3) as usize;
        &self.pixels[index * t..(index + 1) * t]
    }

    /// Which tile shows `state`, and with which transform.
    pub fn source_of(&self, state: ZoneState) -> (usize, Transform) {
        match self.kind {
            AtlasKind::Full => (state.index() as usize, Transform::IDENTITY),
            AtlasKind::Reduced => {
                let r = SymmetryTable::get().lookup(state);
                (r.class as usize, r.transform)
            }
        }
    }

    /// The atlas as one image in its layout.
    pub fn to_image(&self) -> RgbImage {
        let (cols, rows) = self.kind.grid();
        let z = self.zone;
        let mut img = RgbImage::new(cols * z, rows * z);
        for i in 0..self.kind.tile_count() {
            let (tx, ty) = ((i as u32 % cols) * z, (i as u32 / cols) * z);
            let tile = self.tile(i);
            for y in 0..z {
                for x in 0..z {
                    let p = ((y * z + x) * 3) as usize;
                    img.put_pixel(
                        tx + x,
                        ty + y,
                        image::Rgb([tile[p], tile[p + 1], tile[p + 2]]),
                    );
                }
            }
        }
        img
    }

    /// Cuts an atlas image with `zone`-px tiles into tiles; the image must be exactly the
    /// layout's size.
    pub fn from_image(img: &RgbImage, kind: AtlasKind, zone: u32) -> Result<Atlas> {
        crate::world::check_zone_size(zone)?;
        crate::limits::check_atlas(kind.tile_count() as u64, zone)?;
        let (cols, rows) = kind.grid();
        let (ew, eh) = (cols * zone, rows * zone);
        if img.width() != ew || img.height() != eh {
            return Err(ZoneError::AtlasSize {
                what: kind.name(),
                found_w: img.width(),
                found_h: img.height(),
                expected_w: ew,
                expected_h: eh,
                cols,
                rows,
                zone,
            });
        }
        let z = zone as usize;
        let mut pixels = Vec::with_capacity(z * z * 3 * kind.tile_count());
        for i in 0..kind.tile_count() as u32 {
            let (tx, ty) = ((i % cols) * zone, (i / cols) * zone);
            for y in 0..zone {
                for x in 0..zone {
                    pixels.extend_from_slice(&img.get_pixel(tx + x, ty + y).0);
                }
            }
        }
        Ok(Atlas { kind, zone, pixels })
    }

    /// Cuts an atlas image, inferring the layout and the zone size from its dimensions
    /// (32N x 16N is full, 17N x 6N is reduced, N a multiple of 3).
    pub fn from_image_auto(img: &RgbImage) -> Result<Atlas> {
        let (w, h) = img.dimensions();
        for kind in [AtlasKind::Full, AtlasKind::Reduced] {
            let (cols, rows) = kind.grid();
            if w % cols == 0 && h % rows == 0 && w / cols == h / rows && (w / cols) % 3 == 0 {
                return Atlas::from_image(img, kind, w / cols);
            }
        }
        Err(ZoneError::AtlasLayout {
            width: w,
            height: h,
        })
    }

    /// Cuts an image of `count` atlases of one layout stacked top to bottom (a biome atlas:
    /// one per terrain), inferring the layout and zone size from one block's dimensions;
    /// the blocks must share one layout.
    pub fn split_stack(img: &RgbImage, count: u32) -> Result<Vec<Atlas>> {
        let (w, h) = img.dimensions();
        let layout_err = || ZoneError::BiomeAtlasLayout {
            width: w,
            height: h,
        };
        if count == 0 || h % count != 0 {
            return Err(layout_err());
        }
        let block = h / count;
        (0..count)
            .map(|i| {
                let part = image::imageops::crop_imm(img, 0, i * block, w, block).to_image();
                Atlas::from_image_auto(&part).map_err(|_| layout_err())
            })
            .collect()
    }

    /// The images of `atlases` stacked top to bottom (the layout [`Atlas::split_stack`]
    /// cuts; all of one layout and zone size).
    pub fn stack_image(atlases: &[Atlas]) -> RgbImage {
        let images: Vec<RgbImage> = atlases.iter().map(Atlas::to_image).collect();
        let (w, h) = images.first().map_or((0, 0), RgbImage::dimensions);
        let mut img = RgbImage::new(w, h * images.len() as u32);
        for (i, block) in images.iter().enumerate() {
            image::imageops::replace(&mut img, block, 0, i64::from(h) * i as i64);
        }
        img
    }

    /// Reads a biome atlas PNG: one atlas per terrain (water, grass, rock), stacked.
    pub fn load_biomes(path: &Path) -> Result<Vec<Atlas>> {
        Self::split_stack(&Self::load_image(path, 3)?, 3)
    }

    /// Reads a PNG whose size (from its header) is within
    /// [`MAX_ATLAS_PIXELS`](crate::limits::MAX_ATLAS_PIXELS) times `blocks`.
    pub fn load_image(path: &Path, blocks: u64) -> Result<RgbImage> {
        let image_err = |e: image::ImageError| ZoneError::Image {
            path: path.to_path_buf(),
            message: crate::error::image_error_message(&e),
        };
        let (w, h) = image::image_dimensions(path).map_err(image_err)?;
        let limit = crate::limits::MAX_ATLAS_PIXELS * blocks.max(1);
        if u64::from(w) * u64::from(h) > limit {
            return Err(ZoneError::Image {
                path: path.to_path_buf(),
                message: format!("{w}x{h} px is larger than the atlas limit of {limit} px"),
            });
        }
        Ok(image::open(path).map_err(image_err)?.to_rgb8())
    }

    /// Reads an artist's atlas PNG. With `zone`, checks the size against that zone size and
    /// `kind`; without, infers both.
    ///
    /// The image's size is read from its header and checked against
    /// [`MAX_ATLAS_PIXELS`](crate::limits::MAX_ATLAS_PIXELS) before it is decoded.
    pub fn load(path: &Path, kind: Option<AtlasKind>, zone: Option<u32>) -> Result<Atlas> {
        let img = Self::load_image(path, 1)?;
        match (kind, zone) {
            (Some(k), Some(z)) => Atlas::from_image(&img, k, z),
            (Some(k), None) => {
                let (cols, _) = k.grid();
                Atlas::from_image(&img, k, (img.width() / cols).max(3) / 3 * 3)
            }
            _ => Atlas::from_image_auto(&img),
        }
    }

    /// Writes the atlas image as PNG.
    pub fn save_png(&self, path: &Path) -> Result<()> {
        let img = self.to_image();
        grid_core::export::write_rgb_png(path, img.width(), img.height(), img.as_raw()).map_err(
            |e| ZoneError::Write {
                path: path.to_path_buf(),
                message: e.to_string(),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_atlas_has_the_documented_size() {
        let a = Atlas::reference(AtlasKind::Full, 60).unwrap();
        assert_eq!(a.to_image().dimensions(), (1920, 960));
        let r = Atlas::reference(AtlasKind::Reduced, 30).unwrap();
        assert_eq!(r.to_image().dimensions(), (510, 180));
        assert!(Atlas::reference(AtlasKind::Full, 20).is_err());
    }

    #[test]
    fn tiles_are_distinct() {
        let a = Atlas::reference(AtlasKind::Full, 30).unwrap();
        let mut tiles: Vec<&[u8]> = (0..512).map(|i| a.tile(i)).collect();
        tiles.sort();
        tiles.dedup();
        assert_eq!(tiles.len(), 512);
    }
}
