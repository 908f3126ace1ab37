//! Exports of a generated world: state grid JSON, black-and-white map, painted map and Tiled
//! TMX over the reduced tileset with flip bits.

use crate::atlas::{Atlas, AtlasKind};
use crate::error::{Result, ZoneError};
use crate::state::{CLASS_COUNT, SymmetryTable, Transform};
use crate::stream::{TileRef, World};
use crate::world::{Mode, ZoneWorld};
use grid_core::Grid;
use grid_core::export::{TmxProperty, TmxTileset, tileset_file_name, tmx_document};
use image::RgbImage;
use std::fmt::Write as _;
use std::path::Path;

pub use crate::limits::MAX_IMAGE_PIXELS;

/// The state grid as JSON: `{zone_size, mode, origin, width, height, bit_order, states}`,
/// with `states` a list of rows of state indices (one row per line).
pub fn state_grid_json(world: &ZoneWorld) -> String {
    let mode = match world.mode {
        Mode::Reference => "reference",
        Mode::Seamless => "seamless",
    };
    let mut s = String::with_capacity(world.states.len() * 4 + 256);
    let _ = writeln!(s, "{{");
    let _ = writeln!(s, "  \"zone_size\": {},", world.zone_size);
    let _ = writeln!(s, "  \"mode\": \"{mode}\",");
    let _ = writeln!(s, "  \"origin\": [{}, {}],", world.origin.0, world.origin.1);
    let _ = writeln!(s, "  \"width\": {},", world.zones_wide());
    let _ = writeln!(s, "  \"height\": {},", world.zones_high());
    let _ = writeln!(
        s,
        "  \"bit_order\": \"bit = row*3 + col, row 0 at the top, col 0 on the left\","
    );
    let _ = writeln!(s, "  \"states\": [");
    let h = world.zones_high();
    for (y, row) in world.states.rows().enumerate() {
        let cells: Vec<String> = row.iter().map(|st| st.index().to_string()).collect();
        let comma = if y + 1 < h { "," } else { "" };
        let _ = writeln!(s, "    [{}]{comma}", cells.join(", "));
    }
    let _ = writeln!(s, "  ]\n}}");
    s
}

/// Where pixel `v` of a `z`-px tile drawn for a seamless world is read from in a tile drawn
/// in thirds: a seamless zone's border cells are nodes shared with its neighbours, so they
/// are drawn a quarter wide and the centre half wide; the two quarters of a shared node make
/// one cell as wide as the centre, and the zone grid does not show. In reference mode tiles
/// are drawn as they are.
fn source_coord(v: usize, z: usize, mode: Mode) -> usize {
    if mode == Mode::Reference {
        return v;
    }
    let (q, t) = (z / 4, z / 3);
    let (from, width, to, cell) = if v < q {
        (0, q, 0, t)
    } else if v < z - q {
        (q, z - 2 * q, t, z - 2 * t)
    } else {
        (z - q, q, z - t, t)
    };
    (to + (v - from) * cell / width.max(1)).min(z - 1)
}

/// Paints `world` with `atlas` (full or reduced; reduced tiles are flipped into place; in
/// seamless mode border cells are drawn a quarter wide, see [`source_coord`]).
pub fn paint(world: &ZoneWorld, atlas: &Atlas) -> Result<RgbImage> {
    let z = atlas.zone_size();
    let (w, h) = (world.zones_wide() as u64, world.zones_high() as u64);
    crate::limits::check_image(w, h, z)?;
    let (pw, ph) = (w * u64::from(z), h * u64::from(z));
    let mut img = RgbImage::new(pw as u32, ph as u32);
    let zu = z as usize;
    let stride = pw as usize * 3;
    let buf: &mut [u8] = &mut img;
    let remap: Vec<usize> = (0..zu).map(|v| source_coord(v, zu, world.mode)).collect();
    for ((zx, zy), &state) in world.states.iter() {
        let (index, t) = atlas.source_of(state);
        let tile = atlas.tile(index);
        for y in 0..zu {
            let row = (zy * zu + y) * stride + zx * zu * 3;
            for x in 0..zu {
                let (sx, sy) = t.source(remap[x], remap[y], zu);
                let s = (sy * zu + sx) * 3;
                buf[row + x * 3..row + x * 3 + 3].copy_from_slice(&tile[s..s + 3]);
            }
        }
    }
    Ok(img)
}

/// The black-and-white map: every zone drawn as its 3x3 cells, `zone` px per zone
/// (on = black, off = white; in seamless mode border cells a quarter wide, so shared nodes are
/// not drawn twice).
pub fn black_and_white(world: &ZoneWorld, zone: u32) -> Result<RgbImage> {
    crate::world::check_zone_size(zone)?;
    let (w, h) = (world.zones_wide() as u64, world.zones_high() as u64);
    crate::limits::check_image(w, h, zone)?;
    let z = u64::from(zone);
    let c = (zone / 3) as usize;
    let zu = zone as usize;
    let cell: Vec<usize> = (0..zu)
        .map(|v| (source_coord(v, zu, world.mode) / c).min(2))
        .collect();
    Ok(RgbImage::from_fn((w * z) as u32, (h * z) as u32, |x, y| {
        let s = *world.states.at((x / zone) as usize, (y / zone) as usize);
        let on = s.cell(cell[(x % zone) as usize], cell[(y % zone) as usize]);
        image::Rgb(if on { [0, 0, 0] } else { [255, 255, 255] })
    }))
}

/// Writes an RGB image as PNG.
pub fn save_png(img: &RgbImage, path: &Path) -> Result<()> {
    grid_core::export::write_rgb_png(path, img.width(), img.height(), img.as_raw()).map_err(|e| {
        ZoneError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    })
}

/// The gid of a zone in the TMX export: class index + 1 (`firstgid` 1) OR Tiled's flip bits.
pub fn tiled_gid(class: u8, t: Transform) -> u32 {
    (u32::from(class) + 1) | t.tiled_bits()
}

/// The TMX document: one tile per zone, from the 102-tile reduced tileset image
/// `image_source` (17 x 6 tiles of `zone` px), each placed with Tiled's flip bits
/// (H `0x80000000`, V `0x40000000`, D `0x20000000`). Each tileset tile carries a `state`
/// property with its canonical state.
pub fn to_tmx(world: &ZoneWorld, zone: u32, image_source: &str) -> String {
    let table = SymmetryTable::get();
    let (cols, rows) = AtlasKind::Reduced.grid();
    let tileset = TmxTileset {
        name: "zones-reduced".into(),
        tile_size: zone,
        columns: cols,
        tile_count: CLASS_COUNT as u32,
        image_source: image_source.into(),
        image_width: cols * zone,
        image_height: rows * zone,
        tile_properties: table
            .canonical_states()
            .iter()
            .map(|canon| {
                vec![TmxProperty {
                    name: "state".into(),
                    kind: "int",
                    value: canon.index().to_string(),
                }]
            })
            .collect(),
    };
    let (w, h) = (world.zones_wide(), world.zones_high());
    tmx_document(w, h, "zones", &tileset, |x, y| {
        let r = table.lookup(*world.states.at(x, y));
        tiled_gid(r.class, r.transform)
    })
}

/// Writes the TMX at `path` and its tileset beside it (`<stem>_tiles.png`): the given reduced
/// atlas, or the machine-drawn reference one.
pub fn write_tmx(world: &ZoneWorld, path: &Path, atlas: Option<&Atlas>) -> Result<()> {
    let reference;
    let atlas = match atlas {
        Some(a) if a.kind() == AtlasKind::Reduced => a,
        _ => {
            let zone = atlas.map_or(world.zone_size.min(96), |a| a.zone_size());
            reference = Atlas::reference(AtlasKind::Reduced, zone)?;
            &reference
        }
    };
    let image_name = tileset_file_name(path);
    atlas.save_png(&path.with_file_name(&image_name))?;
    std::fs::write(path, to_tmx(world, atlas.zone_size(), &image_name)).map_err(|e| {
        ZoneError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    })
}

/// Writes the state grid JSON.
pub fn write_json(world: &ZoneWorld, path: &Path) -> Result<()> {
    std::fs::write(path, state_grid_json(world)).map_err(|e| ZoneError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The TMX document of a world painted with the built-in tiles: one tile per zone from the
/// combined tileset image `image_source` ([`World::tileset_image`](crate::World::tileset_image):
/// 32 tiles across, the dungeon style and then one block per terrain, each with all 512
/// states in variant 0), never flipped (the art is directional). `tiles` comes from
/// [`World::tile_refs`](crate::World::tile_refs). The tileset's first tile of each block
/// carries a `style` property.
pub fn to_tmx_builtin(tiles: &Grid<TileRef>, zone: u32, image_source: &str) -> String {
    let count = 4 * 512;
    let mut props = vec![Vec::new(); count as usize];
    for (slot, style) in ["dungeon", "water", "grass", "rock"]
        .into_iter()
        .enumerate()
    {
        props[slot * 512] = vec![TmxProperty {
            name: "style".into(),
            kind: "string",
            value: style.into(),
        }];
    }
    let tileset = TmxTileset {
        name: "zones-builtin".into(),
        tile_size: zone,
        columns: 32,
        tile_count: count,
        image_source: image_source.into(),
        image_width: 32 * zone,
        image_height: count / 32 * zone,
        tile_properties: props,
    };
    tmx_document(tiles.width(), tiles.height(), "zones", &tileset, |x, y| {
        tiles.at(x, y).tileset_index() + 1
    })
}

/// Writes `world` as TMX painted with the built-in tiles, and the combined tileset beside it
/// (`<stem>_tiles.png`).
pub fn write_tmx_builtin(world: &ZoneWorld, streamer: &World, path: &Path) -> Result<()> {
    let image_name = tileset_file_name(path);
    let set = streamer.tileset_image()?;
    save_png(&set, &path.with_file_name(&image_name))?;
    let tiles = streamer.tile_refs(world);
    std::fs::write(path, to_tmx_builtin(&tiles, world.zone_size, &image_name)).map_err(|e| {
        ZoneError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    })
}
