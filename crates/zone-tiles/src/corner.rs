//! The built-in look: **corner tiles on the dual grid**.
//!
//! A seamless world's cells are nodes half a zone apart, shared by neighbouring zones. Each
//! zone splits into four quarter tiles, and each quarter's four corners are four nodes (a
//! corner cell of the zone, two edge cells and the centre): the tile is chosen by its
//! **four corners**, not by a zone's nine cells. With two materials (wall, floor) that is 16
//! tiles, 6 up to symmetry, and every wall edge, rounded corner, diagonal and face between
//! any two nodes is drawn by one tile, so the zone grid never shows.
//!
//! With [biomes](crate::biome) a node's material comes from its cell and the altitude
//! there: open water (walls under the water line become water, floor becomes shallows in
//! the deep and sand on the shore), meadow and forest in the middle, gravel and cliffs high
//! up, and a ridge of cliff where wall crosses the step in the middle altitudes
//! ([`ridge_altitude`]). Materials are ordered layers (water, shallows, sand, grass, gravel, forest, wall,
//! cliff); a tile draws each layer over the ones below it with its own edge (foam on water,
//! wet sand, a front face and a shadow below cliffs and walls, a shadow below trees), so
//! terrains meet along drawn borders, the same tiles in PNG and in the exports
//! ([`export`]: TMX with a corner wangset, LDtk). Walkable is exactly the zone states'
//! floor: shallows, sand, grass, gravel and dungeon floor are floor cells.
//!
//! Tiles are `zone_size / 2` px (rounded down); a world of `W x H` zones is `2W x 2H`
//! tiles. Each tile has one of [`VARIANTS`] variants, by a hash of its global position.

mod art;
pub mod atlas;
pub mod export;

use crate::biome::{Biomes, Terrain};
use crate::error::{Result, ZoneError};
use crate::lattice::lattice_hash;
use crate::world::{Mode, ZoneWorld};
use grid_core::Grid;
use image::RgbImage;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Variants per corner combination.
pub const VARIANTS: u32 = 3;

/// What a node is made of, in drawing order (lowest layer first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Material {
    /// Deep open water (wall cells under the water line).
    Water,
    /// Shallow water (floor cells in deep water): walkable.
    Shallows,
    /// Sand (floor cells on the shore).
    Sand,
    /// Meadow (floor cells in the middle altitudes).
    Grass,
    /// Gravel (floor cells high up).
    Gravel,
    /// Dungeon floor (without biomes).
    Floor,
    /// Forest (wall cells in the middle altitudes).
    Forest,
    /// Dungeon wall (without biomes).
    Wall,
    /// Cliff (wall cells high up).
    Cliff,
}

/// How a material's layer is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Water: waves, foam along the shore.
    Liquid,
    /// Flat ground with an outline over lower layers.
    Ground,
    /// Tree tops with a shadow.
    Canopy,
    /// A raised block: lit rim, front face and shadow to the south.
    Raised,
}

/// The colours of a material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Main colour.
    pub base: [u8; 3],
    /// Highlights.
    pub light: [u8; 3],
    /// Outlines and depth.
    pub dark: [u8; 3],
    /// Front face (raised materials).
    pub face: [u8; 3],
}

impl Material {
    /// Every material, lowest layer first.
    pub const ALL: [Material; 9] = [
        Material::Water,
        Material::Shallows,
        Material::Sand,
        Material::Grass,
        Material::Gravel,
        Material::Floor,
        Material::Forest,
        Material::Wall,
        Material::Cliff,
    ];

    /// The layer order (higher draws over lower).
    pub fn rank(self) -> u8 {
        self as u8
    }

    /// Whether the cell is floor (walkable).
    pub fn is_floor(self) -> bool {
        !matches!(
            self,
            Material::Water | Material::Forest | Material::Wall | Material::Cliff
        )
    }

    /// How its layer is drawn.
    pub fn kind(self) -> Kind {
        match self {
            Material::Water | Material::Shallows => Kind::Liquid,
            Material::Forest => Kind::Canopy,
            Material::Wall | Material::Cliff => Kind::Raised,
            _ => Kind::Ground,
        }
    }

    /// Its name (Tiled terrain names, LDtk values).
    pub fn name(self) -> &'static str {
        match self {
            Material::Water => "water",
            Material::Shallows => "shallows",
            Material::Sand => "sand",
            Material::Grass => "grass",
            Material::Gravel => "gravel",
            Material::Floor => "floor",
            Material::Forest => "forest",
            Material::Wall => "wall",
            Material::Cliff => "cliff",
        }
    }

    /// Its colours.
    pub fn palette(self) -> Palette {
        let p = |base, light, dark, face| Palette {
            base,
            light,
            dark,
            face,
        };
        match self {
            Material::Water => p([38, 86, 146], [84, 140, 192], [28, 64, 112], [0; 3]),
            Material::Shallows => p([54, 114, 166], [92, 152, 198], [44, 96, 146], [0; 3]),
            Material::Sand => p([214, 192, 138], [232, 214, 166], [176, 150, 100], [0; 3]),
            Material::Grass => p([98, 152, 68], [142, 190, 88], [64, 110, 50], [0; 3]),
            Material::Gravel => p([146, 140, 132], [182, 176, 166], [104, 98, 94], [0; 3]),
            Material::Floor => p([136, 118, 100], [150, 132, 112], [92, 80, 70], [0; 3]),
            Material::Forest => p([44, 100, 54], [86, 146, 70], [22, 60, 36], [0; 3]),
            Material::Wall => p([86, 78, 94], [162, 150, 144], [44, 38, 50], [128, 78, 56]),
            Material::Cliff => p([138, 126, 112], [178, 168, 152], [92, 82, 74], [86, 72, 62]),
        }
    }
}

/// The material of a node: its cell (`wall`) and, with biomes, the altitude there.
pub fn material(wall: bool, biome: Option<(&Biomes, f64)>) -> Material {
    let Some((b, alt)) = biome else {
        return if wall {
            Material::Wall
        } else {
            Material::Floor
        };
    };
    let c = b.config();
    match b.terrain(alt, 0.0) {
        Terrain::Water if alt < c.water_below - SHALLOW => {
            if wall {
                Material::Water
            } else {
                Material::Shallows
            }
        }
        Terrain::Water => {
            if wall {
                Material::Water
            } else {
                Material::Sand
            }
        }
        Terrain::Grass if !wall && alt < c.water_below + SHORE => Material::Sand,
        Terrain::Grass => {
            if wall {
                Material::Forest
            } else {
                Material::Grass
            }
        }
        Terrain::Rock => {
            if wall {
                Material::Cliff
            } else {
                Material::Gravel
            }
        }
    }
}

/// Below the water line by this much, floor is shallows rather than sand.
const SHALLOW: f64 = 0.04;
/// Above the water line by this much, floor is still sand (the beach).
const SHORE: f64 = 0.025;

/// The land steps up once in the middle altitudes, half way between the water line and
/// the rock line: wall nodes on the upper edge of that step (a 4-neighbour below it) are
/// cliffs, so a ridge of rock follows the contour line through the forest, beside the
/// cliffs that fill the high ground. Its altitude for `biomes`.
pub fn ridge_altitude(biomes: &Biomes) -> f64 {
    let c = biomes.config();
    (c.water_below + c.rock_above) / 2.0
}

/// The node grid of a seamless `world`: `(2W + 1) x (2H + 1)` materials, node `(i, j)` at
/// global node `(2 * origin + (i, j))`; `biomes` are sampled at each node (a zone is
/// [`NOISE_ZONE`](crate::matcher::NOISE_ZONE) noise pixels, so the terrains do not depend on
/// the drawn size), and forest on the upper edge of the ridge step is a cliff
/// ([`ridge_altitude`]).
pub fn nodes(world: &ZoneWorld, biomes: Option<&Biomes>) -> Result<Grid<Material>> {
    if world.mode != Mode::Seamless {
        return Err(ZoneError::CornerTilesNeedSeamless);
    }
    let (w, h) = (world.zones_wide(), world.zones_high());
    let half = f64::from(crate::matcher::NOISE_ZONE) / 2.0;
    let (ox, oy) = (2 * world.origin.0, 2 * world.origin.1);
    // Altitudes with a margin of one node, for the terrace steps at the window's edge.
    let alts = biomes.map(|b| {
        Grid::from_fn(2 * w + 3, 2 * h + 3, |i, j| {
            let (gx, gy) = (ox + i as i64 - 1, oy + j as i64 - 1);
            b.altitude(gx as f64 * half, gy as f64 * half)
        })
    });
    Ok(Grid::from_fn(2 * w + 1, 2 * h + 1, |i, j| {
        let (zx, zy) = ((i / 2).min(w - 1), (j / 2).min(h - 1));
        let wall = world.states.at(zx, zy).cell(i - 2 * zx, j - 2 * zy);
        let (Some(b), Some(alts)) = (biomes, &alts) else {
            return material(wall, None);
        };
        let alt = *alts.at(i + 1, j + 1);
        let m = material(wall, Some((b, alt)));
        let ridge = ridge_altitude(b);
        let step = alt >= ridge
            && [(i, j + 1), (i + 2, j + 1), (i + 1, j), (i + 1, j + 2)]
                .into_iter()
                .any(|(x, y)| *alts.at(x, y) < ridge);
        if m == Material::Forest && step {
            Material::Cliff
        } else {
            m
        }
    }))
}

/// One corner tile: its corners (top-left, top-right, bottom-left, bottom-right) and variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CornerKey {
    /// Corner materials: top-left, top-right, bottom-left, bottom-right.
    pub corners: [Material; 4],
    /// The variant, `0..VARIANTS`.
    pub variant: u8,
}

/// The variant of the tile at global tile position `(tx, ty)`.
pub fn variant_of(tx: i64, ty: i64) -> u8 {
    (lattice_hash(0x636f_726e, tx, ty) % u64::from(VARIANTS)) as u8
}

/// The tiles of a node grid whose first node is global node `(gx, gy)`: `(W-1) x (H-1)`.
pub fn keys(nodes: &Grid<Material>, gx: i64, gy: i64) -> Grid<CornerKey> {
    Grid::from_fn(nodes.width() - 1, nodes.height() - 1, |x, y| CornerKey {
        corners: [
            *nodes.at(x, y),
            *nodes.at(x + 1, y),
            *nodes.at(x, y + 1),
            *nodes.at(x + 1, y + 1),
        ],
        variant: variant_of(gx + x as i64, gy + y as i64),
    })
}

/// The tile grid of a seamless `world` (`2W x 2H` tiles).
pub fn world_keys(world: &ZoneWorld, biomes: Option<&Biomes>) -> Result<Grid<CornerKey>> {
    let n = nodes(world, biomes)?;
    Ok(keys(&n, 2 * world.origin.0, 2 * world.origin.1))
}

/// A drawer of corner tiles of one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CornerTiles {
    size: u32,
}

impl CornerTiles {
    /// Corner tiles for zones of `zone_size` px: `zone_size / 2` px (at least 1).
    pub fn for_zone(zone_size: u32) -> Result<Self> {
        crate::world::check_zone_size(zone_size)?;
        Ok(Self {
            size: (zone_size / 2).max(1),
        })
    }

    /// The tile side in pixels.
    pub fn size(self) -> u32 {
        self.size
    }

    /// The RGB pixels of tile `key` (`size x size`, row-major).
    pub fn tile(self, key: CornerKey) -> Vec<u8> {
        let art = art::TileArt {
            corners: key.corners,
            variant: u32::from(key.variant),
            size: self.size,
        };
        let mut out = Vec::with_capacity((self.size * self.size * 3) as usize);
        for y in 0..self.size {
            for x in 0..self.size {
                out.extend_from_slice(&art.pixel(x, y));
            }
        }
        out
    }

    /// Paints a grid of tiles; each distinct tile is drawn once.
    pub fn paint(self, keys: &Grid<CornerKey>) -> Result<RgbImage> {
        self.paint_cached(keys, &TileCache::default())
    }

    /// Paints a grid of tiles, taking tiles drawn before from `cache` and keeping the new
    /// ones there (so streamed chunks draw each tile once per world).
    pub fn paint_cached(self, keys: &Grid<CornerKey>, cache: &TileCache) -> Result<RgbImage> {
        let mut img = canvas(keys, self.size)?;
        let mut local: HashMap<CornerKey, Arc<Vec<u8>>> = HashMap::new();
        for ((x, y), key) in keys.iter() {
            let tile = local
                .entry(*key)
                .or_insert_with(|| cache.get_or_draw(self, *key));
            put_tile(&mut img, self.size, (x, y), tile);
        }
        Ok(img)
    }

    /// Paints a seamless `world` (with `biomes`, in their materials).
    pub fn paint_world(self, world: &ZoneWorld, biomes: Option<&Biomes>) -> Result<RgbImage> {
        self.paint_world_cached(world, biomes, &TileCache::default())
    }

    /// [`CornerTiles::paint_world`] with tiles kept in `cache`.
    pub fn paint_world_cached(
        self,
        world: &ZoneWorld,
        biomes: Option<&Biomes>,
        cache: &TileCache,
    ) -> Result<RgbImage> {
        let (w, h) = (world.zones_wide() as u64, world.zones_high() as u64);
        crate::limits::check_image(2 * w, 2 * h, self.size)?;
        self.paint_cached(&world_keys(world, biomes)?, cache)
    }

    /// A tileset image of `keys` in order, `columns` tiles across.
    pub fn tileset(self, keys: &[CornerKey], columns: u32) -> Result<RgbImage> {
        crate::limits::check_atlas(keys.len() as u64, self.size)?;
        let t = self.size;
        let rows = (keys.len() as u32).div_ceil(columns.max(1)).max(1);
        let mut img = RgbImage::new(columns * t, rows * t);
        for (i, key) in keys.iter().enumerate() {
            let tile = self.tile(*key);
            let (tx, ty) = ((i as u32 % columns) * t, (i as u32 / columns) * t);
            for (p, px) in tile.chunks_exact(3).enumerate() {
                let (x, y) = (p as u32 % t, p as u32 / t);
                img.put_pixel(tx + x, ty + y, image::Rgb([px[0], px[1], px[2]]));
            }
        }
        Ok(img)
    }
}

/// Drawn tiles kept across pictures, shared by threads: a [`World`](crate::World) keeps
/// one, so streaming chunks draws each distinct tile once instead of once per chunk. It
/// holds at most [`TileCache::MAX_BYTES`] of pixels (then starts afresh); what it holds
/// never changes a picture.
#[derive(Debug, Default)]
pub struct TileCache {
    tiles: Mutex<Held>,
}

/// The tiles a cache holds by tile side and key, and their bytes.
type Held = (HashMap<(u32, CornerKey), Arc<Vec<u8>>>, usize);

impl TileCache {
    /// The most pixel bytes a cache holds.
    pub const MAX_BYTES: usize = 64 << 20;

    /// Tile `key` at the size of `tiles`, drawn now if not held.
    pub fn get_or_draw(&self, tiles: CornerTiles, key: CornerKey) -> Arc<Vec<u8>> {
        let id = (tiles.size, key);
        if let Some(t) = self.lock().0.get(&id) {
            return Arc::clone(t);
        }
        let tile = Arc::new(tiles.tile(key));
        let mut held = self.lock();
        if held.1 + tile.len() > Self::MAX_BYTES {
            *held = (HashMap::new(), 0);
        }
        held.1 += tile.len();
        held.0.insert(id, Arc::clone(&tile));
        tile
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        // A panic while holding the lock leaves only whole tiles behind.
        self.tiles
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The 16 corner combinations of two materials `(low, high)` (bit 0 top-left, 1 top-right,
/// 2 bottom-left, 3 bottom-right set = `high`), in that order.
pub fn sixteen(low: Material, high: Material) -> [[Material; 4]; 16] {
    std::array::from_fn(|i| std::array::from_fn(|c| if i >> c & 1 == 1 { high } else { low }))
}

/// A black picture for a grid of `keys`, each a tile of `size` px (checked against the
/// image limits).
pub(crate) fn canvas(keys: &Grid<CornerKey>, size: u32) -> Result<RgbImage> {
    let (w, h) = (keys.width() as u64, keys.height() as u64);
    crate::limits::check_image(w, h, size)?;
    Ok(RgbImage::new(w as u32 * size, h as u32 * size))
}

/// Copies `tile` (RGB rows of `size` px) into `img` at tile position `(x, y)`.
pub(crate) fn put_tile(img: &mut RgbImage, size: u32, (x, y): (usize, usize), tile: &[u8]) {
    let t = size as usize;
    let stride = img.width() as usize * 3;
    let buf: &mut [u8] = img;
    for ty in 0..t {
        let row = (y * t + ty) * stride + x * t * 3;
        buf[row..row + t * 3].copy_from_slice(&tile[ty * t * 3..(ty + 1) * t * 3]);
    }
}
