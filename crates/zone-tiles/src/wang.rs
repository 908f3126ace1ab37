//! Tiled terrain data: a **wangset** for the TMX exports, so Tiled's terrain brush can edit
//! an exported map with the exported tiles.
//!
//! A zone's 3x3 cells map onto a Tiled *mixed* wangset (corners and edges): the 4 corner
//! cells are the tile's corners, the 4 edge cells its edges, clockwise from the top as Tiled
//! orders them (top, top-right, right, bottom-right, bottom, bottom-left, left, top-left).
//! The centre cell has no place in a wang id; the two tiles that differ only there share
//! one. Every tile's colours are its cells: [`WALL`] for on, [`FLOOR`] for off (with
//! biomes, one pair of colours per terrain). In a seamless world neighbouring zones share
//! their border cells, which is exactly the rule the terrain brush keeps.
//!
//! Reduced tilesets (one tile per symmetry class, placed with flips) also declare Tiled's
//! `<transformations>` so the brush may flip and rotate tiles as the map does.

use crate::state::ZoneState;
use std::fmt::Write as _;

/// The wang colour of a wall (on) cell, 1-based as in Tiled.
pub const WALL: u8 = 1;
/// The wang colour of a floor (off) cell.
pub const FLOOR: u8 = 2;

/// The cell of each wang id position, `(col, row)`, in Tiled's order: top, top-right,
/// right, bottom-right, bottom, bottom-left, left, top-left.
pub const WANG_CELLS: [(usize, usize); 8] = [
    (1, 0),
    (2, 0),
    (2, 1),
    (2, 2),
    (1, 2),
    (0, 2),
    (0, 1),
    (0, 0),
];

/// The wang id of `state` with colours `wall` and `floor`.
pub fn wang_id(state: ZoneState, wall: u8, floor: u8) -> [u8; 8] {
    WANG_CELLS.map(|(c, r)| if state.cell(c, r) { wall } else { floor })
}

/// One wang colour: its name and its display colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WangColour {
    /// The name shown in Tiled's terrain panel.
    pub name: &'static str,
    /// Display colour.
    pub rgb: [u8; 3],
}

/// The wall and floor colours of the plain (dungeon) tilesets.
pub const WALL_AND_FLOOR: [WangColour; 2] = [
    WangColour {
        name: "wall",
        rgb: [52, 46, 56],
    },
    WangColour {
        name: "floor",
        rgb: [132, 116, 98],
    },
];

/// A `<wangsets>` element with one mixed wangset named `name`: `colours` in order (colour
/// `i + 1`), and per tile its local id and the wang id of its state.
pub fn wangsets_xml(
    name: &str,
    colours: &[WangColour],
    tiles: impl IntoIterator<Item = (u32, [u8; 8])>,
) -> String {
    wangsets_xml_of("mixed", name, colours, tiles)
}

/// A `<wangsets>` element with one wangset of Tiled type `kind` (`corner`, `edge` or
/// `mixed`), as [`wangsets_xml`] writes it.
pub fn wangsets_xml_of(
    kind: &str,
    name: &str,
    colours: &[WangColour],
    tiles: impl IntoIterator<Item = (u32, [u8; 8])>,
) -> String {
    let mut s = String::from("  <wangsets>\n");
    let _ = writeln!(s, r#"   <wangset name="{name}" type="{kind}" tile="-1">"#);
    for c in colours {
        let [r, g, b] = c.rgb;
        let _ = writeln!(
            s,
            r##"    <wangcolor name="{}" color="#{r:02x}{g:02x}{b:02x}" tile="-1" probability="1"/>"##,
            c.name
        );
    }
    for (id, w) in tiles {
        let ids: Vec<String> = w.iter().map(u8::to_string).collect();
        let _ = writeln!(
            s,
            r#"    <wangtile tileid="{id}" wangid="{}"/>"#,
            ids.join(",")
        );
    }
    s.push_str("   </wangset>\n  </wangsets>\n");
    s
}

/// Tiled's `<transformations>`: the brush may flip and rotate tiles (reduced tilesets).
pub const TRANSFORMATIONS_XML: &str =
    "  <transformations hflip=\"1\" vflip=\"1\" rotate=\"1\" preferuntransformed=\"1\"/>\n";

/// Puts `before_image` right after the tileset's opening tag and `at_end` just before its
/// closing tag, in a TMX document with one tileset (as `grid_core::export::tmx_document`
/// writes it).
pub fn splice_tileset(doc: &str, before_image: &str, at_end: &str) -> String {
    let mut out = String::with_capacity(doc.len() + before_image.len() + at_end.len());
    let image = doc.find("  <image ").unwrap_or(0);
    let end = doc.find(" </tileset>").unwrap_or(doc.len());
    out.push_str(&doc[..image]);
    out.push_str(before_image);
    out.push_str(&doc[image..end]);
    out.push_str(at_end);
    out.push_str(&doc[end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wang_ids_follow_the_cells_clockwise_from_the_top() {
        // Top-right corner and right edge on.
        let s = ZoneState::from_bits(4 | 32);
        assert_eq!(wang_id(s, WALL, FLOOR), [2, 1, 1, 2, 2, 2, 2, 2]);
        assert_eq!(wang_id(ZoneState::FULL, 7, 9), [7; 8]);
        // The centre has no say.
        assert_eq!(
            wang_id(ZoneState::from_bits(16), 1, 2),
            wang_id(ZoneState::EMPTY, 1, 2)
        );
    }

    #[test]
    fn splicing_keeps_the_document_around_it() {
        let doc = " <tileset a=\"1\">\n  <image source=\"x\"/>\n </tileset>\n";
        let got = splice_tileset(doc, "T\n", "W\n");
        assert_eq!(
            got,
            " <tileset a=\"1\">\nT\n  <image source=\"x\"/>\nW\n </tileset>\n"
        );
    }
}
