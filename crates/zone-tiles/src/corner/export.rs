//! Exports of corner-tile worlds: Tiled TMX with a **corner wangset**, and an LDtk project.
//!
//! The tileset is compact: for every pair of materials that meet in the map, all 16 corner
//! combinations (variant 0, so Tiled's terrain brush can paint any shape between them),
//! plus every tile the map uses (its other variants, and tiles of three or four
//! materials). Without biomes that is at most the 16 wall/floor tiles in [`VARIANTS`](super::VARIANTS)
//! variants (48 tiles). Every tile's wang id is its four corner materials, so the brush
//! edits the exported map with its own tiles, and picks among a combination's variants.

use super::{CornerKey, CornerTiles, Material, sixteen};
use crate::error::{Result, ZoneError};
use crate::wang::{WangColour, wangsets_xml_of};
use grid_core::Grid;
use grid_core::export::{TmxTileset, tmx_document};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;

/// Tiles per row of the exported tileset image.
pub const COLUMNS: u32 = 16;

/// The compact tileset of a tile grid: its tiles in order and each tile's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tileset {
    /// The tiles, in tileset order.
    pub keys: Vec<CornerKey>,
    /// The materials that occur, lowest first (the wang colours `1..`).
    pub materials: Vec<Material>,
    index: HashMap<CornerKey, u32>,
}

impl Tileset {
    /// The tileset for `grid` (see the module docs).
    pub fn for_grid(grid: &Grid<CornerKey>) -> Self {
        let mut pairs = BTreeSet::new();
        let mut used = BTreeSet::new();
        for key in grid.as_slice() {
            let mut ms = key.corners.to_vec();
            ms.sort();
            ms.dedup();
            for (i, &a) in ms.iter().enumerate() {
                for &b in &ms[i + 1..] {
                    pairs.insert((a, b));
                }
            }
            used.insert(*key);
        }
        let mut keys = Vec::new();
        let mut index = HashMap::new();
        let mut push = |k: CornerKey, keys: &mut Vec<CornerKey>| {
            index.entry(k).or_insert_with(|| {
                keys.push(k);
                keys.len() as u32 - 1
            });
        };
        for &(a, b) in &pairs {
            for corners in sixteen(a, b) {
                push(
                    CornerKey {
                        corners,
                        variant: 0,
                    },
                    &mut keys,
                );
            }
        }
        for k in used {
            push(k, &mut keys);
        }
        let materials: BTreeSet<Material> = keys.iter().flat_map(|k| k.corners).collect();
        Self {
            keys,
            materials: materials.into_iter().collect(),
            index,
        }
    }

    /// The index of `key` in the tileset.
    pub fn index_of(&self, key: &CornerKey) -> Option<u32> {
        self.index.get(key).copied()
    }

    /// The wang colour (1-based) of `m`.
    fn colour(&self, m: Material) -> u8 {
        self.materials
            .iter()
            .position(|&x| x == m)
            .map_or(0, |i| i as u8 + 1)
    }

    /// Tiled's corner wang id of `key`: top-right, bottom-right, bottom-left, top-left at
    /// positions 1, 3, 5, 7 (edges 0).
    pub fn wang_id(&self, key: &CornerKey) -> [u8; 8] {
        let [tl, tr, bl, br] = key.corners.map(|m| self.colour(m));
        [0, tr, 0, br, 0, bl, 0, tl]
    }
}

/// The TMX document of a tile grid over the tileset image `image_source` (drawn by
/// [`CornerTiles::tileset`] with [`COLUMNS`] columns): one layer of tiles of `tile` px and a
/// corner wangset `terrain` whose colours are the materials.
pub fn to_tmx(grid: &Grid<CornerKey>, set: &Tileset, tile: u32, image_source: &str) -> String {
    let rows = (set.keys.len() as u32).div_ceil(COLUMNS);
    let tileset = TmxTileset {
        name: "zones-corners".into(),
        tile_size: tile,
        columns: COLUMNS,
        tile_count: set.keys.len() as u32,
        image_source: image_source.into(),
        image_width: COLUMNS * tile,
        image_height: rows * tile,
        tile_properties: Vec::new(),
    };
    let doc = tmx_document(grid.width(), grid.height(), "terrain", &tileset, |x, y| {
        set.index_of(grid.at(x, y)).map_or(0, |i| i + 1)
    });
    let colours: Vec<WangColour> = set
        .materials
        .iter()
        .map(|m| WangColour {
            name: m.name(),
            rgb: m.palette().base,
        })
        .collect();
    let tiles = (0..).zip(set.keys.iter().map(|k| set.wang_id(k)));
    let wang = wangsets_xml_of("corner", "terrain", &colours, tiles);
    crate::wang::splice_tileset(&doc, "", &wang)
}

fn write_err(path: &Path) -> impl Fn(std::io::Error) -> ZoneError + '_ {
    move |e| ZoneError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The tileset file written beside a map at `path`: `<stem>_tiles.png`.
pub fn tileset_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or("map".into(), |s| s.to_string_lossy());
    format!("{stem}_tiles.png")
}

/// Writes the TMX of `grid` at `path` and its tileset beside it (`<stem>_tiles.png`).
pub fn write_tmx(grid: &Grid<CornerKey>, tiles: CornerTiles, path: &Path) -> Result<()> {
    let set = Tileset::for_grid(grid);
    let name = tileset_name(path);
    let img = tiles.tileset(&set.keys, COLUMNS)?;
    crate::export::save_png(&img, &path.with_file_name(&name))?;
    std::fs::write(path, to_tmx(grid, &set, tiles.size(), &name)).map_err(write_err(path))
}

/// The LDtk project (JSON, format 1.5.3) of a world's `nodes` and its tile grid: one level
/// with an IntGrid layer `Materials` over the nodes (value = [`Material`] index + 1, one
/// cell per node, so the level is `(2W + 1) x (2H + 1)` cells of `tile` px) and a Tiles
/// layer `Terrain` with the corner tiles, offset half a tile so each tile sits between its
/// four nodes, over the tileset image `image_source` ([`COLUMNS`] tiles across).
pub fn to_ldtk(
    nodes: &Grid<Material>,
    grid: &Grid<CornerKey>,
    set: &Tileset,
    tile: u32,
    image_source: &str,
) -> String {
    let sheet = Sheet {
        tile,
        columns: COLUMNS,
        rows: (set.keys.len() as u32).div_ceil(COLUMNS).max(1),
        image_source,
    };
    ldtk_document(nodes, grid, &sheet, |k| set.index_of(k))
}

/// A tileset image: tiles of `tile` px, `columns x rows` of them, at `image_source`.
pub(crate) struct Sheet<'a> {
    pub(crate) tile: u32,
    pub(crate) columns: u32,
    pub(crate) rows: u32,
    pub(crate) image_source: &'a str,
}

/// The LDtk project of [`to_ldtk`] over any tileset image: `index` gives each tile's index in
/// `sheet` (row-major).
pub(crate) fn ldtk_document(
    nodes: &Grid<Material>,
    grid: &Grid<CornerKey>,
    sheet: &Sheet<'_>,
    index: impl Fn(&CornerKey) -> Option<u32>,
) -> String {
    let (tile, columns, rows, image_source) =
        (sheet.tile, sheet.columns, sheet.rows, sheet.image_source);
    let (cw, ch) = (nodes.width() as u32, nodes.height() as u32);
    let (pw, ph) = (cw * tile, ch * tile);
    let half = tile / 2;
    let mut values = String::new();
    for (i, m) in Material::ALL.iter().enumerate() {
        let [r, g, b] = m.palette().base;
        let comma = if i + 1 < Material::ALL.len() { "," } else { "" };
        let _ = write!(
            values,
            r##"{{"value":{},"identifier":"{}","color":"#{r:02X}{g:02X}{b:02X}","tile":null,"groupUid":0}}{comma}"##,
            i + 1,
            m.name()
        );
    }
    let csv: Vec<String> = nodes
        .as_slice()
        .iter()
        .map(|m| (m.rank() + 1).to_string())
        .collect();
    let mut tiles = String::new();
    for ((x, y), key) in grid.iter() {
        let Some(t) = index(key) else { continue };
        let (sx, sy) = ((t % columns) * tile, (t / columns) * tile);
        let d = y as u32 * cw + x as u32;
        let sep = if tiles.is_empty() { "" } else { "," };
        let _ = write!(
            tiles,
            r#"{sep}{{"px":[{},{}],"src":[{sx},{sy}],"f":0,"t":{t},"d":[{d}],"a":1}}"#,
            x as u32 * tile,
            y as u32 * tile
        );
    }
    let layer_def = |uid: u32, ident: &str, kind: &str, ts: &str, off: u32, vals: &str| {
        format!(
            r##"{{"__type":"{kind}","identifier":"{ident}","type":"{kind}","uid":{uid},"doc":null,"uiColor":null,"gridSize":{tile},"guideGridWid":0,"guideGridHei":0,"displayOpacity":1,"inactiveOpacity":1,"hideInList":false,"hideFieldsWhenInactive":true,"canSelectWhenInactive":true,"renderInWorldView":true,"pxOffsetX":{off},"pxOffsetY":{off},"parallaxFactorX":0,"parallaxFactorY":0,"parallaxScaling":true,"requiredTags":[],"excludedTags":[],"autoTilesKilledByOtherLayerUid":null,"uiFilterTags":[],"useAsyncRender":false,"intGridValues":[{vals}],"intGridValuesGroups":[],"autoRuleGroups":[],"autoSourceLayerDefUid":null,"tilesetDefUid":{ts},"tilePivotX":0,"tilePivotY":0,"biomeFieldUid":null}}"##
        )
    };
    let layer_inst = |ident: &str,
                      kind: &str,
                      def: u32,
                      ts: &str,
                      path: &str,
                      off: u32,
                      body: &str| {
        format!(
            r#"{{"__identifier":"{ident}","__type":"{kind}","__cWid":{cw},"__cHei":{ch},"__gridSize":{tile},"__opacity":1,"__pxTotalOffsetX":{off},"__pxTotalOffsetY":{off},"__tilesetDefUid":{ts},"__tilesetRelPath":{path},"iid":"00000000-0000-4000-8000-00000000000{def}","levelId":1,"layerDefUid":{def},"pxOffsetX":0,"pxOffsetY":0,"visible":true,"optionalRules":[],{body},"seed":0,"overrideTilesetUid":null,"entityInstances":[]}}"#
        )
    };
    let esc = image_source.replace('\\', "\\\\").replace('"', "\\\"");
    let terrain = layer_inst(
        "Terrain",
        "Tiles",
        3,
        "4",
        &format!("\"{esc}\""),
        half,
        &format!(r#""intGridCsv":[],"autoLayerTiles":[],"gridTiles":[{tiles}]"#),
    );
    let materials = layer_inst(
        "Materials",
        "IntGrid",
        2,
        "null",
        "null",
        0,
        &format!(
            r#""intGridCsv":[{}],"autoLayerTiles":[],"gridTiles":[]"#,
            csv.join(",")
        ),
    );
    format!(
        r##"{{"__header__":{{"fileType":"LDtk Project JSON","app":"LDtk","doc":"https://ldtk.io/json","schema":"https://ldtk.io/files/JSON_SCHEMA.json","appAuthor":"Sebastien 'deepnight' Benard","appVersion":"1.5.3","url":"https://ldtk.io"}},
"iid":"00000000-0000-4000-8000-000000000000","jsonVersion":"1.5.3","appBuildId":0,"nextUid":5,"identifierStyle":"Capitalize","toc":[],"worldLayout":"Free","worldGridWidth":{pw},"worldGridHeight":{ph},"defaultLevelWidth":{pw},"defaultLevelHeight":{ph},"defaultPivotX":0,"defaultPivotY":0,"defaultGridSize":{tile},"defaultEntityWidth":{tile},"defaultEntityHeight":{tile},"bgColor":"#40465B","defaultLevelBgColor":"#696A79","minifyJson":false,"externalLevels":false,"exportTiled":false,"simplifiedExport":false,"imageExportMode":"None","exportLevelBg":true,"pngFilePattern":null,"backupOnSave":false,"backupLimit":10,"backupRelPath":null,"levelNamePattern":"Level_%idx","tutorialDesc":null,"customCommands":[],"flags":[],
"defs":{{"layers":[{},{}],"entities":[],"tilesets":[{{"__cWid":{columns},"__cHei":{rows},"identifier":"Corners","uid":4,"relPath":"{esc}","embedAtlas":null,"pxWid":{},"pxHei":{},"tileGridSize":{tile},"spacing":0,"padding":0,"tags":[],"tagsSourceEnumUid":null,"enumTags":[],"customData":[],"savedSelections":[],"cachedPixelData":null}}],"enums":[],"externalEnums":[],"levelFields":[]}},
"levels":[{{"identifier":"Level_0","iid":"00000000-0000-4000-8000-000000000001","uid":1,"worldX":0,"worldY":0,"worldDepth":0,"pxWid":{pw},"pxHei":{ph},"__bgColor":"#696A79","bgColor":null,"useAutoIdentifier":true,"bgRelPath":null,"bgPos":null,"bgPivotX":0.5,"bgPivotY":0.5,"__smartColor":"#ADADB5","__bgPos":null,"externalRelPath":null,"fieldInstances":[],"layerInstances":[{terrain},{materials}],"__neighbours":[]}}],
"worlds":[],"dummyWorldIid":"00000000-0000-4000-8000-0000000000ff"}}
"##,
        layer_def(3, "Terrain", "Tiles", "4", half, ""),
        layer_def(2, "Materials", "IntGrid", "null", 0, &values),
        columns * tile,
        rows * tile,
    )
}

/// Writes the LDtk project of `nodes` and `grid` at `path` and its tileset beside it
/// (`<stem>_tiles.png`).
pub fn write_ldtk(
    nodes: &Grid<Material>,
    grid: &Grid<CornerKey>,
    tiles: CornerTiles,
    path: &Path,
) -> Result<()> {
    let set = Tileset::for_grid(grid);
    let name = tileset_name(path);
    let img = tiles.tileset(&set.keys, COLUMNS)?;
    crate::export::save_png(&img, &path.with_file_name(&name))?;
    let doc = to_ldtk(nodes, grid, &set, tiles.size(), &name);
    std::fs::write(path, doc).map_err(write_err(path))
}
