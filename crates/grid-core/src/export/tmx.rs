use super::{ExportError, io_err, write_rgb_png};
use crate::tile::{Legend, TileMap};
use std::fmt::Write;
use std::path::Path;

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
/// (a path relative to the TMX file). Tile id `i` is gid `i + 1`; each tile carries a `name`
/// property with its legend name.
pub fn to_tmx(map: &(impl TileMap + ?Sized), tile_size: u32, image_source: &str) -> String {
    let legend = map.legend();
    let t = tile_size.max(2);
    let n = legend.len().max(1);
    let (w, h) = (map.width(), map.height());
    let mut s = String::with_capacity(w * h * 3 + 1024);
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="{t}" tileheight="{t}" infinite="0" nextlayerid="2" nextobjectid="1">"#
    );
    let _ = writeln!(
        s,
        r#" <tileset firstgid="1" name="legend" tilewidth="{t}" tileheight="{t}" tilecount="{n}" columns="{n}">"#
    );
    let _ = writeln!(
        s,
        r#"  <image source="{}" width="{}" height="{t}"/>"#,
        xml_escape(image_source),
        t as usize * n
    );
    for (id, kind) in legend.kinds().iter().enumerate() {
        let _ = writeln!(
            s,
            r#"  <tile id="{id}"><properties><property name="name" value="{}"/></properties></tile>"#,
            xml_escape(&kind.name)
        );
    }
    let _ = writeln!(s, " </tileset>");
    let _ = writeln!(
        s,
        r#" <layer id="1" name="tiles" width="{w}" height="{h}">"#
    );
    let _ = writeln!(s, r#"  <data encoding="csv">"#);
    for y in 0..h {
        for x in 0..w {
            let _ = write!(s, "{}", u32::from(map.tile(x, y)) + 1);
            if x + 1 < w || y + 1 < h {
                s.push(',');
            }
        }
        s.push('\n');
    }
    let _ = writeln!(s, "  </data>\n </layer>\n</map>");
    s
}

/// Writes `map` as a TMX file at `path` and its tileset image beside it
/// (`<stem>_tiles.png`).
pub fn write_tmx(
    map: &(impl TileMap + ?Sized),
    path: &Path,
    tile_size: u32,
) -> Result<(), ExportError> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("map")
        .to_string();
    let image_name = format!("{stem}_tiles.png");
    let image_path = path.with_file_name(&image_name);
    let (iw, ih, px) = tileset_image(map.legend(), tile_size);
    write_rgb_png(&image_path, iw, ih, &px)?;
    std::fs::write(path, to_tmx(map, tile_size, &image_name)).map_err(io_err(path))
}
