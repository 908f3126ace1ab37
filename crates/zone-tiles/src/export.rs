//! Exports of a generated world: state grid JSON, black-and-white map, painted map and Tiled
//! TMX over the reduced tileset with flip bits.

use crate::atlas::{Atlas, AtlasKind};
use crate::biome::Terrain;
use crate::error::{Result, ZoneError};
use crate::procedural::{Geometry, ProceduralTiles, Style};
use crate::state::{CLASS_COUNT, STATE_COUNT, SymmetryTable, Transform, ZoneState};
use crate::stream::{TileRef, World};
use crate::wang;
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
/// seamless mode border cells are drawn a quarter wide, see `source_coord`).
pub fn paint(world: &ZoneWorld, atlas: &Atlas) -> Result<RgbImage> {
    paint_with(world, atlas.zone_size(), |_, _| atlas)
}

/// Paints `world` with one atlas per zone: `atlas_of(x, y)` for the zone at `(x, y)` of the
/// window (all of `zone` px), as [`paint`] does with one.
pub fn paint_with<'a>(
    world: &ZoneWorld,
    zone: u32,
    atlas_of: impl Fn(usize, usize) -> &'a Atlas,
) -> Result<RgbImage> {
    let z = zone;
    let (w, h) = (world.zones_wide() as u64, world.zones_high() as u64);
    crate::limits::check_image(w, h, z)?;
    let (pw, ph) = (w * u64::from(z), h * u64::from(z));
    let mut img = RgbImage::new(pw as u32, ph as u32);
    let zu = z as usize;
    let stride = pw as usize * 3;
    let buf: &mut [u8] = &mut img;
    let remap: Vec<usize> = (0..zu).map(|v| source_coord(v, zu, world.mode)).collect();
    for ((zx, zy), &state) in world.states.iter() {
        let atlas = atlas_of(zx, zy);
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
/// property with its canonical state; the tileset holds a mixed wangset whose colours are
/// the tiles' cells ([`crate::wang`]) and allows Tiled's brush to flip and rotate tiles.
pub fn to_tmx(world: &ZoneWorld, zone: u32, image_source: &str) -> String {
    let table = SymmetryTable::get();
    let (cols, rows) = AtlasKind::Reduced.grid();
    let canon = table.canonical_states();
    let tileset = TmxTileset {
        name: "zones-reduced".into(),
        tile_size: zone,
        columns: cols,
        tile_count: CLASS_COUNT as u32,
        image_source: image_source.into(),
        image_width: cols * zone,
        image_height: rows * zone,
        tile_properties: canon.iter().map(|c| state_property(*c)).collect(),
    };
    let (w, h) = (world.zones_wide(), world.zones_high());
    let doc = tmx_document(w, h, "zones", &tileset, |x, y| {
        let r = table.lookup(*world.states.at(x, y));
        tiled_gid(r.class, r.transform)
    });
    let wang = wang::wangsets_xml(
        "walls",
        &wang::WALL_AND_FLOOR,
        (0..).zip(
            canon
                .iter()
                .map(|&c| wang::wang_id(c, wang::WALL, wang::FLOOR)),
        ),
    );
    wang::splice_tileset(&doc, wang::TRANSFORMATIONS_XML, &wang)
}

/// The TMX document over a full 512-tile tileset image `image_source` (32 x 16 tiles of
/// `zone` px, tile `i` draws state `i`): one tile per zone, never flipped, each tile with
/// its `state` property and its wang id in a mixed wangset.
pub fn to_tmx_full(world: &ZoneWorld, zone: u32, image_source: &str) -> String {
    let (cols, rows) = AtlasKind::Full.grid();
    let states = (0..STATE_COUNT as u16).map(ZoneState::from_bits);
    let tileset = TmxTileset {
        name: "zones-full".into(),
        tile_size: zone,
        columns: cols,
        tile_count: STATE_COUNT as u32,
        image_source: image_source.into(),
        image_width: cols * zone,
        image_height: rows * zone,
        tile_properties: states.clone().map(state_property).collect(),
    };
    let (w, h) = (world.zones_wide(), world.zones_high());
    let doc = tmx_document(w, h, "zones", &tileset, |x, y| {
        u32::from(world.states.at(x, y).index()) + 1
    });
    let wang = wang::wangsets_xml(
        "walls",
        &wang::WALL_AND_FLOOR,
        (0..).zip(states.map(|s| wang::wang_id(s, wang::WALL, wang::FLOOR))),
    );
    wang::splice_tileset(&doc, "", &wang)
}

fn state_property(state: ZoneState) -> Vec<TmxProperty> {
    vec![TmxProperty {
        name: "state".into(),
        kind: "int",
        value: state.index().to_string(),
    }]
}

fn write_err(path: &Path) -> impl Fn(std::io::Error) -> ZoneError + '_ {
    move |e| ZoneError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The TMX document of `world` drawn with `atlas` (full: its 512 tiles as they are;
/// reduced: its 102 class tiles with flips), the tileset image named `image_name`.
pub fn tmx_for_atlas(world: &ZoneWorld, atlas: &Atlas, image_name: &str) -> String {
    match atlas.kind() {
        AtlasKind::Full => to_tmx_full(world, atlas.zone_size(), image_name),
        AtlasKind::Reduced => to_tmx(world, atlas.zone_size(), image_name),
    }
}

/// Writes the TMX at `path` and its tileset beside it (`<stem>_tiles.png`): `atlas` (full
/// or reduced, used whole), or without one the built-in tiles' reduced atlas in
/// direction-free art (102 tiles placed with flips) at the world's zone size.
pub fn write_tmx(world: &ZoneWorld, path: &Path, atlas: Option<&Atlas>) -> Result<()> {
    let builtin;
    let atlas = match atlas {
        Some(a) => a,
        None => {
            let geometry = Geometry::of(world.mode);
            builtin =
                ProceduralTiles::new(world.zone_size, geometry, Style::DUNGEON)?.reduced_atlas()?;
            &builtin
        }
    };
    let image_name = tileset_file_name(path);
    atlas.save_png(&path.with_file_name(&image_name))?;
    std::fs::write(path, tmx_for_atlas(world, atlas, &image_name)).map_err(write_err(path))
}

/// Writes the TMX at `path` over an artist's atlas read from the PNG file `source`
/// (`atlas` is that file, cut): the tileset image beside the map (`<stem>_tiles.png`) is a
/// byte-for-byte copy of `source`, and every tile of the atlas is used as drawn.
pub fn write_tmx_with_atlas_file(
    world: &ZoneWorld,
    path: &Path,
    atlas: &Atlas,
    source: &Path,
) -> Result<()> {
    let image_name = copy_beside(path, source)?;
    std::fs::write(path, tmx_for_atlas(world, atlas, &image_name)).map_err(write_err(path))
}

/// Writes the state grid JSON.
pub fn write_json(world: &ZoneWorld, path: &Path) -> Result<()> {
    std::fs::write(path, state_grid_json(world)).map_err(|e| ZoneError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The wang colours of the biome tileset: per terrain (water, grass, rock), its wall and its
/// floor (colours `2t + 1` and `2t + 2`).
pub const TERRAIN_COLOURS: [wang::WangColour; 6] = {
    let mut out = [wang::WALL_AND_FLOOR[0]; 6];
    let names = [
        ["deep water", "sand"],
        ["hedge", "meadow"],
        ["cliff", "gravel"],
    ];
    let mut t = 0;
    while t < 3 {
        let style = Terrain::ALL[t].style();
        out[2 * t] = wang::WangColour {
            name: names[t][0],
            rgb: style.wall_top,
        };
        out[2 * t + 1] = wang::WangColour {
            name: names[t][1],
            rgb: style.floor,
        };
        t += 1;
    }
    out
};

/// The TMX document of a biome world: one tile per zone from the compact biome tileset
/// `image_source` ([`World::biome_tileset_image`]: per terrain the 102 class tiles in
/// direction-free art, 17 tiles across, 18 rows), placed with flips; tile
/// `terrain * 102 + class`. Every tile has `state` and `terrain` properties, and the mixed
/// wangset gives each terrain its own wall and floor colours ([`TERRAIN_COLOURS`]).
pub fn to_tmx_builtin(tiles: &Grid<TileRef>, zone: u32, image_source: &str) -> String {
    to_tmx_terrains(tiles, AtlasKind::Reduced, zone, image_source)
}

/// The TMX document of a biome world over a tileset of one atlas per terrain (water,
/// grass, rock) stacked top to bottom in layout `kind`: tile `terrain * n + i` is tile `i`
/// of the terrain's atlas (`n` = 512 states, never flipped, or 102 classes, placed with
/// flips). Tiles carry `state` and `terrain` properties and the wang colours of
/// [`TERRAIN_COLOURS`].
pub fn to_tmx_terrains(
    tiles: &Grid<TileRef>,
    kind: AtlasKind,
    zone: u32,
    image_source: &str,
) -> String {
    let table = SymmetryTable::get();
    let canon = table.canonical_states();
    let n = kind.tile_count() as u32;
    let state_of = |i: u32| match kind {
        AtlasKind::Full => ZoneState::from_bits(i as u16),
        AtlasKind::Reduced => canon[i as usize],
    };
    let count = n * Terrain::ALL.len() as u32;
    let props = (0..count)
        .map(|i| {
            let mut p = state_property(state_of(i % n));
            p.push(TmxProperty {
                name: "terrain".into(),
                kind: "string",
                value: TERRAIN_NAMES[(i / n) as usize].into(),
            });
            p
        })
        .collect();
    let (cols, rows) = kind.grid();
    let tileset = TmxTileset {
        name: "zones-biomes".into(),
        tile_size: zone,
        columns: cols,
        tile_count: count,
        image_source: image_source.into(),
        image_width: cols * zone,
        image_height: rows * 3 * zone,
        tile_properties: props,
    };
    let doc = tmx_document(tiles.width(), tiles.height(), "zones", &tileset, |x, y| {
        let t = tiles.at(x, y);
        let slot = t.terrain.map_or(0, Terrain::index) as u32;
        match kind {
            AtlasKind::Full => slot * n + u32::from(t.state.index()) + 1,
            AtlasKind::Reduced => {
                let r = table.lookup(t.state);
                (slot * n + u32::from(r.class) + 1) | r.transform.tiled_bits()
            }
        }
    });
    let wang_tiles = (0..count).map(|i| {
        let t = (i / n) as u8;
        (i, wang::wang_id(state_of(i % n), 2 * t + 1, 2 * t + 2))
    });
    let wang = wang::wangsets_xml("terrains", &TERRAIN_COLOURS, wang_tiles);
    let flips = match kind {
        AtlasKind::Full => "",
        AtlasKind::Reduced => wang::TRANSFORMATIONS_XML,
    };
    wang::splice_tileset(&doc, flips, &wang)
}

/// Writes a biome world as TMX over an artist's biome atlas (one atlas per terrain, stacked;
/// [`Atlas::load_biomes`]) read from `source`, which is copied beside the map byte for byte
/// (`<stem>_tiles.png`).
pub fn write_tmx_terrains_file(
    world: &ZoneWorld,
    streamer: &World,
    path: &Path,
    atlases: &[Atlas],
    source: &Path,
) -> Result<()> {
    let kind = atlases.first().map_or(AtlasKind::Reduced, Atlas::kind);
    let zone = atlases.first().map_or(world.zone_size, Atlas::zone_size);
    let image_name = copy_beside(path, source)?;
    let tiles = streamer.tile_refs(world);
    let doc = to_tmx_terrains(&tiles, kind, zone, &image_name);
    std::fs::write(path, doc).map_err(write_err(path))
}

/// Copies `source` beside the map at `path` as `<stem>_tiles.png`; returns that name.
pub(crate) fn copy_beside(path: &Path, source: &Path) -> Result<String> {
    let image_name = tileset_file_name(path);
    let bytes = std::fs::read(source).map_err(|e| ZoneError::Image {
        path: source.to_path_buf(),
        message: e.to_string(),
    })?;
    let image_path = path.with_file_name(&image_name);
    std::fs::write(&image_path, bytes).map_err(write_err(&image_path))?;
    Ok(image_name)
}

const TERRAIN_NAMES: [&str; 3] = ["water", "grass", "rock"];

/// Writes `world` as TMX painted with the built-in tiles of its biomes, and the compact
/// biome tileset beside it (`<stem>_tiles.png`); without biomes, as [`write_tmx`] does.
pub fn write_tmx_builtin(world: &ZoneWorld, streamer: &World, path: &Path) -> Result<()> {
    let Some(set) = streamer.biome_tileset_image()? else {
        return write_tmx(world, path, None);
    };
    let image_name = tileset_file_name(path);
    save_png(&set, &path.with_file_name(&image_name))?;
    let tiles = streamer.tile_refs(world);
    let doc = to_tmx_builtin(&tiles, world.zone_size, &image_name);
    std::fs::write(path, doc).map_err(write_err(path))
}
