//! Object layers: entities exported as objects (a TMX `<objectgroup>`, a JSON `objects`
//! list) rather than as tiles, so Tiled and game engines read a player, an enemy or a
//! treasure pile as an object with a position.
//!
//! A generator lists its objects as [`MapObject`]s (or picks them from its tiles with
//! [`objects_from_tiles`]); [`to_tmx_with_objects`] and [`to_json_with_objects`] add them
//! to the map's usual TMX and JSON documents.
//!
//! ```
//! use grid_core::{Legend, TileKind, TileGrid};
//! use grid_core::export::{objects_from_tiles, to_tmx_with_objects};
//! let legend = Legend::new(vec![
//!     TileKind::new("empty", '.', [255; 3]),
//!     TileKind::new("player", '@', [0, 0, 255]),
//! ]);
//! let map = TileGrid::from_text(".@\n..\n", legend).unwrap();
//! let objects = objects_from_tiles(&map, |id| id == 1);
//! assert_eq!((objects[0].name.as_str(), objects[0].x, objects[0].y), ("player", 1, 0));
//! let tmx = to_tmx_with_objects(&map, 16, "map_tiles.png", &objects);
//! assert!(tmx.contains(r#"<object id="1" name="player" type="player" x="16" y="0""#));
//! ```

use super::tmx::to_tmx;
use crate::tile::{TileId, TileMap};
use std::fmt::Write;

/// One object on a map, at a tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapObject {
    /// Its name (`player`).
    pub name: String,
    /// Its kind, Tiled's object type (`enemy`).
    pub kind: String,
    /// Column of its tile.
    pub x: usize,
    /// Row of its tile.
    pub y: usize,
}

/// An object for every tile of `map` whose id `is_object` picks, named and typed by the
/// tile's legend name, in row-major order.
pub fn objects_from_tiles(
    map: &(impl TileMap + ?Sized),
    is_object: impl Fn(TileId) -> bool,
) -> Vec<MapObject> {
    let mut out = Vec::new();
    for y in 0..map.height() {
        for x in 0..map.width() {
            if is_object(map.tile(x, y)) {
                let name = map.tile_name(x, y).to_string();
                out.push(MapObject {
                    kind: name.clone(),
                    name,
                    x,
                    y,
                });
            }
        }
    }
    out
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// [`to_tmx`] with a second layer, an `<objectgroup>` named `objects`, holding `objects`
/// (ids from 1, each a `tile_size` square at its tile, in pixels).
pub fn to_tmx_with_objects(
    map: &(impl TileMap + ?Sized),
    tile_size: u32,
    image_source: &str,
    objects: &[MapObject],
) -> String {
    let t = tile_size.max(2) as usize;
    let tmx = to_tmx(map, tile_size, image_source).replace(
        r#"nextlayerid="2" nextobjectid="1""#,
        &format!(r#"nextlayerid="3" nextobjectid="{}""#, objects.len() + 1),
    );
    let mut group = String::from(" <objectgroup id=\"2\" name=\"objects\">\n");
    for (i, o) in objects.iter().enumerate() {
        let _ = writeln!(
            group,
            r#"  <object id="{}" name="{}" type="{}" x="{}" y="{}" width="{t}" height="{t}"/>"#,
            i + 1,
            xml_escape(&o.name),
            xml_escape(&o.kind),
            o.x * t,
            o.y * t
        );
    }
    group.push_str(" </objectgroup>\n</map>\n");
    match tmx.rfind("</map>") {
        Some(end) => format!("{}{group}", &tmx[..end]),
        None => tmx,
    }
}

/// [`super::to_json`] with an `objects` list after the rows:
/// `"objects":[{"kind","name","x","y"}, ...]` (tile coordinates).
pub fn to_json_with_objects(
    map: &(impl TileMap + ?Sized),
    tiles: super::JsonTiles,
    objects: &[MapObject],
) -> String {
    let doc = super::to_json(map, tiles);
    let Some(head) = doc.trim_end().strip_suffix('}') else {
        return doc;
    };
    let quoted = |t: &str| serde_json::to_string(t).expect("strings always serialise");
    let mut s = String::with_capacity(doc.len() + 48 * objects.len());
    s.push_str(head);
    s.push_str(",\"objects\":[");
    for (i, o) in objects.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"kind\":{},\"name\":{},\"x\":{},\"y\":{}}}",
            quoted(&o.kind),
            quoted(&o.name),
            o.x,
            o.y
        );
    }
    s.push_str("]}\n");
    s
}
