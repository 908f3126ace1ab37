//! Streaming: the world chunk by chunk, zones and painted tiles, for a game that generates
//! the world while the player walks.
//!
//! A [`World`] holds a validated generator, the optional [biomes](crate::biome) and the
//! built-in [procedural tiles](crate::procedural). [`World::chunk`] returns the
//! [`CHUNK_ZONES`] x [`CHUNK_ZONES`] zones of chunk `(cx, cy)` (zones
//! `16cx..16cx+16` x `16cy..16cy+16`) and, for each zone, the [`TileRef`] that draws it: a pure
//! function of `(settings, seed, cx, cy)`, so chunks can be made in any order, on any thread,
//! and always fit their neighbours. [`World::chunk_image`] paints a chunk; the pictures of
//! neighbouring chunks put side by side are the picture of the larger window (tested).
//!
//! A chunk holds **tile references, not pixels**: a game draws each zone with the tile
//! `TileRef::tileset_index` of the combined tileset ([`World::tileset_image`], or its own
//! art in the same order) and pays for pixels only where it needs them (a 16x16-zone chunk
//! of 60 px zones is 921,600 pixels); [`World::chunk_image`] makes them on demand.

use crate::atlas::{Atlas, AtlasKind};
use crate::biome::{BiomeConfig, Biomes, Terrain};
use crate::corner::{CornerKey, CornerTiles};
use crate::error::Result;
use crate::lattice::lattice_hash;
use crate::procedural::{Geometry, ProceduralTiles, Style, VARIANTS};
use crate::state::{STATE_COUNT, ZoneState};
use crate::world::{ZoneConfig, ZoneGenerator, ZoneRect, ZoneWorld};
use grid_core::Grid;
use image::RgbImage;

/// Side of a chunk, in zones.
pub const CHUNK_ZONES: u32 = 16;

/// Which tile of the built-in tileset draws a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileRef {
    /// The terrain (`None` without biomes: the dungeon style).
    pub terrain: Option<Terrain>,
    /// The zone state.
    pub state: ZoneState,
    /// The variant, `0..VARIANTS`.
    pub variant: u8,
}

impl TileRef {
    /// The tile's index among all built-in tiles: style slot (0 for the dungeon, 1.. for
    /// the terrains), then variant, then state.
    pub fn index(self) -> u32 {
        (self.slot() * VARIANTS + u32::from(self.variant)) * STATE_COUNT as u32
            + u32::from(self.state.index())
    }

    /// The tile's index in the combined tileset ([`World::tileset_image`], variant 0 of
    /// each style): style slot, then state.
    pub fn tileset_index(self) -> u32 {
        self.slot() * STATE_COUNT as u32 + u32::from(self.state.index())
    }

    fn slot(self) -> u32 {
        self.terrain.map_or(0, |t| t.index() as u32 + 1)
    }
}

/// One chunk: its zones and their tiles.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// Chunk column.
    pub cx: i64,
    /// Chunk row.
    pub cy: i64,
    /// The zone states, [`CHUNK_ZONES`] square.
    pub states: Grid<ZoneState>,
    /// The tile of each zone.
    pub tiles: Grid<TileRef>,
}

/// Style slots of the combined tileset: the dungeon, then one per terrain.
const SLOTS: usize = 1 + Terrain::ALL.len();

/// A world to stream: generator, biomes and tiles.
#[derive(Clone, Debug)]
pub struct World {
    generator: ZoneGenerator,
    biomes: Option<Biomes>,
    tiles: Vec<ProceduralTiles>,
    corners: CornerTiles,
    /// Corner tiles drawn so far, shared by the clones of this world.
    corner_cache: std::sync::Arc<crate::corner::TileCache>,
}

impl World {
    /// Validates `config` (and `biomes`) for `seed`.
    pub fn new(config: ZoneConfig, biomes: Option<BiomeConfig>, seed: u64) -> Result<Self> {
        let generator = ZoneGenerator::new(config, seed)?;
        let biomes = biomes.map(|b| Biomes::new(b, seed)).transpose()?;
        let geometry = Geometry::of(config.mode);
        let mut tiles = vec![ProceduralTiles::new(
            config.zone_size,
            geometry,
            Style::DUNGEON,
        )?];
        for t in Terrain::ALL {
            tiles.push(ProceduralTiles::new(config.zone_size, geometry, t.style())?);
        }
        Ok(Self {
            generator,
            biomes,
            tiles,
            corners: CornerTiles::for_zone(config.zone_size)?,
            corner_cache: Default::default(),
        })
    }

    /// The same world with `offset` added to every place's value
    /// ([`ZoneGenerator::with_offset`]).
    pub fn with_offset(
        mut self,
        offset: impl Fn(crate::world::Place) -> f64 + Send + Sync + 'static,
    ) -> Self {
        self.generator = self.generator.with_offset(offset);
        self
    }

    /// The zone generator.
    pub fn generator(&self) -> &ZoneGenerator {
        &self.generator
    }

    /// The altitude field, if biomes are on.
    pub fn biomes(&self) -> Option<&Biomes> {
        self.biomes.as_ref()
    }

    /// The corner tiles of this world's zone size ([`crate::corner`]).
    pub fn corner_tiles(&self) -> CornerTiles {
        self.corners
    }

    /// Paints a seamless `world` with the built-in corner tiles (with biomes, in their
    /// materials): `2W x 2H` tiles of `zone_size / 2` px.
    pub fn paint_corners(&self, world: &ZoneWorld) -> Result<RgbImage> {
        self.corners
            .paint_world_cached(world, self.biomes.as_ref(), &self.corner_cache)
    }

    /// The corner tiles of chunk `(cx, cy)`: `2 * CHUNK_ZONES` square, a pure function of
    /// `(settings, seed, cx, cy)` like [`World::chunk`], so a game can stream tile indices
    /// and draw them with its own art in the corner tiles' layout.
    pub fn chunk_corners(&self, cx: i64, cy: i64) -> Result<Grid<CornerKey>> {
        let world = self.generator.generate(chunk_rect(cx, cy))?;
        crate::corner::world_keys(&world, self.biomes.as_ref())
    }

    /// The picture of chunk `(cx, cy)` in corner tiles; neighbouring chunks' pictures put
    /// side by side are the picture of the larger window.
    pub fn chunk_corner_image(&self, cx: i64, cy: i64) -> Result<RgbImage> {
        self.paint_corners(&self.generator.generate(chunk_rect(cx, cy))?)
    }

    /// A zone's side in noise pixels, where the altitude is sampled (so terrains, like the
    /// map, do not depend on the drawn zone size).
    fn zone_px(&self) -> f64 {
        f64::from(crate::matcher::NOISE_ZONE)
    }

    /// The terrain of zone `(zx, zy)` (at its centre), if biomes are on.
    pub fn terrain_of(&self, zx: i64, zy: i64) -> Option<Terrain> {
        let z = self.zone_px();
        self.biomes.map(|b| {
            let alt = b.altitude((zx as f64 + 0.5) * z, (zy as f64 + 0.5) * z);
            b.terrain(alt, 0.0)
        })
    }

    /// The tiles of every zone of `world`.
    pub fn tile_refs(&self, world: &ZoneWorld) -> Grid<TileRef> {
        let (ox, oy) = world.origin;
        Grid::from_fn(world.zones_wide(), world.zones_high(), |x, y| {
            let (zx, zy) = (ox + x as i64, oy + y as i64);
            TileRef {
                terrain: self.terrain_of(zx, zy),
                state: *world.states.at(x, y),
                variant: ProceduralTiles::variant_of(zx, zy) as u8,
            }
        })
    }

    /// Chunk `(cx, cy)`: zones `16cx..16cx+16` x `16cy..16cy+16` and their tiles.
    pub fn chunk(&self, cx: i64, cy: i64) -> Result<Chunk> {
        let world = self.generator.generate(chunk_rect(cx, cy))?;
        let tiles = self.tile_refs(&world);
        Ok(Chunk {
            cx,
            cy,
            states: world.states,
            tiles,
        })
    }

    /// The picture of chunk `(cx, cy)`.
    pub fn chunk_image(&self, cx: i64, cy: i64) -> Result<RgbImage> {
        self.paint(&self.generator.generate(chunk_rect(cx, cy))?)
    }

    /// Paints `world` with the built-in tiles; with biomes, each pixel takes the tile of its
    /// own terrain (altitude bilinear between zone corners, dithered near boundaries).
    pub fn paint(&self, world: &ZoneWorld) -> Result<RgbImage> {
        let z = self.generator.config().zone_size;
        let (w, h) = (world.zones_wide(), world.zones_high());
        crate::limits::check_image(w as u64, h as u64, z)?;
        let Some(biomes) = self.biomes else {
            return self.tiles[0].paint(world);
        };
        let (ox, oy) = world.origin;
        let zf = self.zone_px();
        let corners = Grid::from_fn(w + 1, h + 1, |x, y| {
            biomes.altitude((ox + x as i64) as f64 * zf, (oy + y as i64) as f64 * zf)
        });
        let mut cache: Vec<Option<Vec<u8>>> = vec![None; SLOTS * VARIANTS as usize * 512];
        let mut img = RgbImage::new(w as u32 * z, h as u32 * z);
        for ((x, y), &state) in world.states.iter() {
            let (zx, zy) = (ox + x as i64, oy + y as i64);
            let variant = ProceduralTiles::variant_of(zx, zy);
            let a = [
                *corners.at(x, y),
                *corners.at(x + 1, y),
                *corners.at(x, y + 1),
                *corners.at(x + 1, y + 1),
            ];
            for py in 0..z {
                let fy = (f64::from(py) + 0.5) / f64::from(z);
                for px in 0..z {
                    let fx = (f64::from(px) + 0.5) / f64::from(z);
                    let alt = (a[0] * (1.0 - fx) + a[1] * fx) * (1.0 - fy)
                        + (a[2] * (1.0 - fx) + a[3] * fx) * fy;
                    let (gx, gy) = (
                        zx * i64::from(z) + i64::from(px),
                        zy * i64::from(z) + i64::from(py),
                    );
                    let jitter = (lattice_hash(0x6469_7468, gx, gy) >> 11) as f64
                        / (1u64 << 53) as f64
                        * 2.0
                        - 1.0;
                    let terrain = biomes.terrain(alt, jitter);
                    let tile = TileRef {
                        terrain: Some(terrain),
                        state,
                        variant: variant as u8,
                    };
                    let slot = &mut cache[tile.index() as usize];
                    let pixels = slot.get_or_insert_with(|| {
                        self.tiles[terrain.index() + 1].tile(state, variant)
                    });
                    let i = ((py * z + px) * 3) as usize;
                    img.put_pixel(
                        x as u32 * z + px,
                        y as u32 * z + py,
                        image::Rgb([pixels[i], pixels[i + 1], pixels[i + 2]]),
                    );
                }
            }
        }
        Ok(img)
    }

    /// The combined tileset image: 32 tiles across, one block of 16 rows (512 states,
    /// variant 0) per style slot, in [`TileRef::tileset_index`] order.
    pub fn tileset_image(&self) -> Result<RgbImage> {
        let z = self.generator.config().zone_size;
        let count = (SLOTS * STATE_COUNT) as u64;
        crate::limits::check_atlas(count, z)?;
        let rows = count as u32 / 32;
        let mut img = RgbImage::new(32 * z, rows * z);
        for i in 0..count as u32 {
            let (slot, state) = (i / 512, ZoneState::from_bits((i % 512) as u16));
            let tile = self.tiles[slot as usize].tile(state, 0);
            let (tx, ty) = ((i % 32) * z, (i / 32) * z);
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
        Ok(img)
    }
}

impl World {
    /// Paints `world` with an artist's biome atlas ([`Atlas::load_biomes`]: one atlas per
    /// terrain, water, grass, rock): each zone with the atlas of the terrain at its centre
    /// (the first atlas without biomes).
    pub fn paint_with_atlases(&self, world: &ZoneWorld, atlases: &[Atlas]) -> Result<RgbImage> {
        let Some(first) = atlases.first() else {
            return self.paint(world);
        };
        let (ox, oy) = world.origin;
        let terrains = Grid::from_fn(world.zones_wide(), world.zones_high(), |x, y| {
            self.terrain_of(ox + x as i64, oy + y as i64)
                .map_or(0, Terrain::index)
        });
        crate::export::paint_with(world, first.zone_size(), |x, y| {
            atlases.get(*terrains.at(x, y)).unwrap_or(first)
        })
    }

    /// The compact biome tileset for TMX: per terrain (water, grass, rock) its 102 class
    /// tiles in direction-free art (placed with flips), 17 tiles across, 6 rows per terrain;
    /// `None` without biomes.
    pub fn biome_tileset_image(&self) -> Result<Option<RgbImage>> {
        if self.biomes.is_none() {
            return Ok(None);
        }
        let z = self.generator.config().zone_size;
        let (cols, rows) = AtlasKind::Reduced.grid();
        let mut img = RgbImage::new(cols * z, rows * z * Terrain::ALL.len() as u32);
        for t in Terrain::ALL {
            let atlas = self.tiles[t.index() + 1].reduced_atlas()?.to_image();
            image::imageops::replace(&mut img, &atlas, 0, i64::from(t.index() as u32 * rows * z));
        }
        Ok(Some(img))
    }
}

/// The zones of chunk `(cx, cy)`.
pub fn chunk_rect(cx: i64, cy: i64) -> ZoneRect {
    let c = i64::from(CHUNK_ZONES);
    ZoneRect::new(cx * c, cy * c, CHUNK_ZONES, CHUNK_ZONES)
}
