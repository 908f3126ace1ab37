//! An artist's **corner atlas**: the 16 wall/floor corner tiles of a dual-grid tileset,
//! drawn by hand and used whole instead of the built-in art.
//!
//! The image is 4x4 tiles of `T x T` px (so `4T x 4T`, square, any `T >= 1`). Tile `i`
//! (row `i / 4`, column `i % 4`) is the tile whose corners are wall where bit `c` of `i`
//! is set: bit 0 top-left, bit 1 top-right, bit 2 bottom-left, bit 3 bottom-right
//! (the order of [`sixteen`](super::sixteen)`(Floor, Wall)`). So the first tile is all
//! floor, the last all wall, tile 3 wall along its top half:
//!
//! ```text
//!  0 ....   1 #...   2 .#..   3 ##..        (corners TL TR BL BR, # wall)
//!  4 ..#.   5 #.#.   6 .##.   7 ###.
//!  8 ...#   9 #..#  10 .#.#  11 ##.#
//! 12 ..##  13 #.##  14 .###  15 ####
//! ```
//!
//! Every pixel of the atlas is drawn as it is (no variants, no recolouring), and the TMX
//! export copies the file beside the map byte for byte. A corner atlas draws two
//! materials; with biomes, a node is wall or floor by whether it is walkable.

use super::{CornerKey, Material, sixteen};
use crate::error::{Result, ZoneError};
use crate::wang::{WALL_AND_FLOOR, wangsets_xml_of};
use grid_core::Grid;
use grid_core::export::{TmxTileset, tmx_document};
use image::RgbImage;
use std::path::Path;

/// Tiles across and down a corner atlas.
pub const GRID: u32 = 4;

/// The 16 tiles of an artist's dual-grid tileset (see the module docs for the order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CornerAtlas {
    size: u32,
    /// RGB pixels of each tile, `size x size` row-major.
    tiles: Vec<Vec<u8>>,
}

/// Whether an image of `width x height` px has the corner atlas's shape (square), the one
/// layout the zone atlases (32x16 and 17x6 tiles) never have.
pub fn is_corner_layout(width: u32, height: u32) -> bool {
    width == height
}

/// The atlas index of a tile's corners: bit `c` set when corner `c` is not walkable.
pub fn index_of(corners: [Material; 4]) -> usize {
    (0..4)
        .filter(|&c| !corners[c].is_floor())
        .map(|c| 1 << c)
        .sum()
}

/// Whether the PNG at `path` has the corner atlas's shape, from its header.
pub fn is_corner_file(path: &Path) -> Result<bool> {
    let (w, h) = image::image_dimensions(path).map_err(|e| ZoneError::Image {
        path: path.to_path_buf(),
        message: crate::error::image_error_message(&e),
    })?;
    Ok(is_corner_layout(w, h))
}

impl CornerAtlas {
    /// Cuts a `4T x 4T` image into its 16 tiles; any other size is
    /// [`ZoneError::CornerAtlasSize`].
    pub fn from_image(img: &RgbImage) -> Result<Self> {
        let (w, h) = img.dimensions();
        if w != h || w == 0 || !w.is_multiple_of(GRID) {
            return Err(ZoneError::CornerAtlasSize {
                width: w,
                height: h,
            });
        }
        let size = w / GRID;
        let tiles = (0..GRID * GRID)
            .map(|i| {
                let (x0, y0) = ((i % GRID) * size, (i / GRID) * size);
                let mut t = Vec::with_capacity((size * size * 3) as usize);
                for y in 0..size {
                    for x in 0..size {
                        t.extend_from_slice(&img.get_pixel(x0 + x, y0 + y).0);
                    }
                }
                t
            })
            .collect();
        Ok(Self { size, tiles })
    }

    /// The built-in art as a corner atlas (variant 0 of the 16 wall/floor tiles, in the
    /// documented order): a starting point for an artist, `zone_size / 2` px per tile.
    pub fn builtin(zone_size: u32) -> Result<Self> {
        let tiles = super::CornerTiles::for_zone(zone_size)?;
        let tiles = sixteen(Material::Floor, Material::Wall)
            .into_iter()
            .map(|corners| {
                tiles.tile(CornerKey {
                    corners,
                    variant: 0,
                })
            })
            .collect();
        Ok(Self {
            size: (zone_size / 2).max(1),
            tiles,
        })
    }

    /// Reads a corner atlas PNG (its size checked from the header before decoding).
    pub fn load(path: &Path) -> Result<Self> {
        Self::from_image(&crate::atlas::Atlas::load_image(path, 1)?)
    }

    /// The tile side in pixels.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The RGB pixels of tile `i` (`0..16`).
    pub fn tile(&self, i: usize) -> &[u8] {
        &self.tiles[i]
    }

    /// The atlas image, tiles in their order (the image it was cut from).
    pub fn to_image(&self) -> RgbImage {
        let t = self.size;
        RgbImage::from_fn(GRID * t, GRID * t, |x, y| {
            let tile = &self.tiles[((y / t) * GRID + x / t) as usize];
            let p = ((y % t) * t + x % t) as usize * 3;
            image::Rgb([tile[p], tile[p + 1], tile[p + 2]])
        })
    }

    /// Paints a grid of corner tiles with the atlas's tiles.
    pub fn paint(&self, keys: &Grid<CornerKey>) -> Result<RgbImage> {
        let mut img = super::canvas(keys, self.size)?;
        for ((x, y), key) in keys.iter() {
            super::put_tile(
                &mut img,
                self.size,
                (x, y),
                &self.tiles[index_of(key.corners)],
            );
        }
        Ok(img)
    }
}

/// The TMX document of a corner-tile grid over a corner atlas of `tile` px whose image is
/// `image_source`: tile ids are the atlas indices, and the tileset carries a corner
/// wangset `terrain` with colours `wall` (1) and `floor` (2) on the 16 tiles.
pub fn to_tmx(grid: &Grid<CornerKey>, tile: u32, image_source: &str) -> String {
    let tileset = TmxTileset {
        name: "zones-corner-atlas".into(),
        tile_size: tile,
        columns: GRID,
        tile_count: GRID * GRID,
        image_source: image_source.into(),
        image_width: GRID * tile,
        image_height: GRID * tile,
        tile_properties: Vec::new(),
    };
    let doc = tmx_document(grid.width(), grid.height(), "terrain", &tileset, |x, y| {
        index_of(grid.at(x, y).corners) as u32 + 1
    });
    let tiles = sixteen(Material::Floor, Material::Wall)
        .into_iter()
        .enumerate()
        .map(|(i, corners)| {
            let [tl, tr, bl, br] = corners.map(|m| if m.is_floor() { 2 } else { 1 });
            (i as u32, [0, tr, 0, br, 0, bl, 0, tl])
        });
    let wang = wangsets_xml_of("corner", "terrain", &WALL_AND_FLOOR, tiles);
    crate::wang::splice_tileset(&doc, "", &wang)
}

/// Writes the TMX of `grid` at `path` over the corner atlas `atlas`, read from `source`,
/// whose file is copied beside the map byte for byte (`<stem>_tiles.png`).
pub fn write_tmx(
    grid: &Grid<CornerKey>,
    atlas: &CornerAtlas,
    path: &Path,
    source: &Path,
) -> Result<()> {
    let image_name = crate::export::copy_beside(path, source)?;
    std::fs::write(path, to_tmx(grid, atlas.size(), &image_name)).map_err(|e| ZoneError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// Writes the LDtk project of `nodes` and `grid` ([`to_ldtk`](super::export::to_ldtk)'s
/// layout) at `path` over the corner atlas `atlas`, read from `source`, whose file is copied
/// beside the project byte for byte (`<stem>_tiles.png`); tile ids are the atlas indices.
pub fn write_ldtk(
    nodes: &Grid<Material>,
    grid: &Grid<CornerKey>,
    atlas: &CornerAtlas,
    path: &Path,
    source: &Path,
) -> Result<()> {
    let image_name = crate::export::copy_beside(path, source)?;
    let sheet = super::export::Sheet {
        tile: atlas.size(),
        columns: GRID,
        rows: GRID,
        image_source: &image_name,
    };
    let doc =
        super::export::ldtk_document(nodes, grid, &sheet, |k| Some(index_of(k.corners) as u32));
    std::fs::write(path, doc).map_err(|e| ZoneError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}
