use super::{ExportError, io_err, write_rgb_png};
use crate::tile::{Legend, TileMap};
use std::fmt::Write;
use std::path::Path;

/// Tiled's gid flag: the tile is flipped horizontally.
pub const FLIP_H: u32 = 0x8000_0000;
/// Tiled's gid flag: the tile is flipped vertically.
pub const FLIP_V: u32 = 0x4000_0000;
/// Tiled's gid flag: the tile is flipped anti-diagonally (x and y swapped), applied first.
pub const FLIP_D: u32 = 0x2000_0000;

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// A custom property of one tileset tile (`type` is Tiled's: `string`, `int`, `bool`...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmxProperty {
    /// Property name.
    pub name: String,
    /// Tiled property type.
    pub kind: &'static str,
    /// Value as text.
    pub value: String,
}

/// An embedded tileset: one image cut into `columns x rows` tiles, first gid 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmxTileset {
    /// Tileset name.
    pub name: String,
    /// Tile width and height in pixels.
    pub tile_size: u32,
    /// Tiles per image row.
    pub columns: u32,
    /// Number of tiles.
    pub tile_count: u32,
    /// Image path, relative to the TMX file.
    pub image_source: String,
    /// Image width in pixels.
    pub image_width: u32,
    /// Image height in pixels.
    pub image_height: u32,
    /// Properties per tile id (may be shorter than `tile_count`).
    pub tile_properties: Vec<Vec<TmxProperty>>,
}

/// A TMX document with one tileset and one CSV tile layer of `width x height`, where
/// `gid(x, y)` is the cell's gid (tile id + 1, OR the [`FLIP_H`]/[`FLIP_V`]/[`FLIP_D`] flags;
/// 0 for no tile).
pub fn tmx_document(
    width: usize,
    height: usize,
    layer_name: &str,
    tileset: &TmxTileset,
    mut gid: impl FnMut(usize, usize) -> u32,
) -> String {
    let t = tileset.tile_size;
    let (w, h) = (width, height);
    let mut s = String::with_capacity(w * h * 4 + 1024);
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="{t}" tileheight="{t}" infinite="0" nextlayerid="2" nextobjectid="1">"#
    );
    let _ = writeln!(
        s,
        r#" <tileset firstgid="1" name="{}" tilewidth="{t}" tileheight="{t}" tilecount="{}" columns="{}">"#,
        xml_escape(&tileset.name),
        tileset.tile_count,
        tileset.columns
    );
    let _ = writeln!(
        s,
        r#"  <image source="{}" width="{}" height="{}"/>"#,
        xml_escape(&tileset.image_source),
        tileset.image_width,
        tileset.image_height
    );
    for (id, props) in tileset.tile_properties.iter().enumerate() {
        if props.is_empty() {
            continue;
        }
        let _ = write!(s, r#"  <tile id="{id}"><properties>"#);
        for p in props {
            let _ = write!(
                s,
                r#"<property name="{}" type="{}" value="{}"/>"#,
                xml_escape(&p.name),
                p.kind,
                xml_escape(&p.value)
            );
        }
        let _ = writeln!(s, "</properties></tile>");
    }
    let _ = writeln!(s, " </tileset>");
    let _ = writeln!(
        s,
        r#" <layer id="1" name="{}" width="{w}" height="{h}">"#,
        xml_escape(layer_name)
    );
    let _ = writeln!(s, r#"  <data encoding="csv">"#);
    for y in 0..h {
        for x in 0..w {
            let _ = write!(s, "{}", gid(x, y));
            if x + 1 < w || y + 1 < h {
                s.push(',');
            }
        }
        s.push('\n');
    }
    let _ = writeln!(s, "  </data>\n </layer>\n</map>");
    s
}

/// The tileset image for a legend: one `tile_size` square per kind, in a single row, filled
/// with the kind's colour and framed one pixel darker. Returns `(width, height, rgb)`.
pub fn tileset_image(legend: &Legend, tile_size: u32) -> (u32, u32, Vec<u8>) {
    let t = tile_size.max(2) as usize;
    let n = legend.len().max(1);
    let (w, h) = (t * n, t);
    let mut px = vec![0u8; w * h * 3];
    for (k, kind) in legend.kinds().iter().enumerate() {
        let dark = kind.color.map(|c| c / 2);
        for y in 0..t {
            for x in 0..t {
                let edge = x == 0 || y == 0 || x == t - 1 || y == t - 1;
                let i = (y * w + k * t + x) * 3;
                px[i..i + 3].copy_from_slice(if edge { &dark } else { &kind.color });
            }
        }
    }
    (w as u32, h as u32, px)
}

/// The TMX document for `map`, with an embedded tileset whose image is `image_source`
/// (a path relative to the TMX file, as drawn by [`tileset_image`]). Tile id `i` is gid
/// `i + 1`; each tile carries a `name` property with its legend name.
pub fn to_tmx(map: &(impl TileMap + ?Sized), tile_size: u32, image_source: &str) -> String {
    let legend = map.legend();
    let t = tile_size.max(2);
    let n = legend.len().max(1) as u32;
    let tileset = TmxTileset {
        name: "legend".into(),
        tile_size: t,
        columns: n,
        tile_count: n,
        image_source: image_source.into(),
        image_width: t * n,
        image_height: t,
        tile_properties: legend
            .kinds()
            .iter()
            .map(|k| {
                vec![TmxProperty {
                    name: "name".into(),
                    kind: "string",
                    value: k.name.clone(),
                }]
            })
            .collect(),
    };
    tmx_document(map.width(), map.height(), "tiles", &tileset, |x, y| {
        u32::from(map.tile(x, y)) + 1
    })
}

/// Writes `map` as a TMX file at `path` and its tileset image beside it
/// (`<stem>_tiles.png`).
pub fn write_tmx(
    map: &(impl TileMap + ?Sized),
    path: &Path,
    tile_size: u32,
) -> Result<(), ExportError> {
    let image_name = tileset_file_name(path);
    let image_path = path.with_file_name(&image_name);
    let (iw, ih, px) = tileset_image(map.legend(), tile_size);
    write_rgb_png(&image_path, iw, ih, &px)?;
    std::fs::write(path, to_tmx(map, tile_size, &image_name)).map_err(io_err(path))
}

/// The file name of the tileset image written beside a TMX file: `<stem>_tiles.png`.
pub fn tileset_file_name(tmx_path: &Path) -> String {
    let stem = tmx_path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("map");
    format!("{stem}_tiles.png")
}
