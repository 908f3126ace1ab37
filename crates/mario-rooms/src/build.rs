//! Building: the assembled pieces (rooms and sections at their places) written into one
//! level, bottom-aligned, with the terrain under each piece continued down.

use crate::chunk::{Chunk, UNSET};
use crate::error::MarioError;
use crate::level::MarioLevel;
use crate::limits;
use crate::tiles::{self, TileClass};

/// A room or section placed at `(x, y)` (its upper-left corner, level coordinates before
/// trimming).
pub(crate) struct Piece {
    /// Column of the upper-left corner.
    pub x: i64,
    /// Row of the upper-left corner.
    pub y: i64,
    /// The room's or section's chars (`.` unset).
    pub chunk: Chunk,
    /// A route room laid over what is there: its air does not erase, and nothing is
    /// continued below it.
    pub overlay: bool,
}

/// What a column continues as below a piece (the reference's `padToEnd`, but only terrain
/// is continued: enemies, coins and blocks do not become columns).
fn pad_char(c: u8) -> u8 {
    match c {
        b'X' | b'#' | b'[' | b']' | b't' | b'b' => c,
        b'<' => b'[',
        b'>' => b']',
        b'T' => b't',
        b'B' | b'*' => b'b',
        _ if tiles::class_of(c) == TileClass::Solid => b'X',
        _ => b'-',
    }
}

/// Writes the pieces into a level at least `height` rows tall, bottom-aligned.
pub(crate) fn build_level(pieces: &[Piece], height: usize) -> Result<MarioLevel, MarioError> {
    let width = pieces
        .iter()
        .map(|p| p.x + p.chunk.width as i64)
        .max()
        .unwrap_or(1)
        .max(1) as usize;
    let bottom = pieces
        .iter()
        .map(|p| p.y + p.chunk.height as i64)
        .max()
        .unwrap_or(1);
    let mut top_content = bottom - 1;
    for p in pieces {
        if let Some(r) =
            (0..p.chunk.height).find(|&r| p.chunk.row(r).iter().any(|&c| c != UNSET && c != b'-'))
        {
            top_content = top_content.min(p.y + r as i64);
        }
    }
    // Two rows of headroom above the highest tile, then at least `height` rows.
    let rows = ((bottom - top_content + 2) as usize).max(height);
    limits::check_level_size(width, rows)?;
    let top = bottom - rows as i64;
    let mut cells = vec![UNSET; width * rows];
    // Route overlays last, so the sections after them do not erase their tiles.
    let in_order = pieces.iter().filter(|p| !p.overlay);
    for p in in_order.chain(pieces.iter().filter(|p| p.overlay)) {
        for yy in 0..p.chunk.height {
            let gy = p.y + yy as i64 - top;
            if gy < 0 || gy >= rows as i64 {
                continue;
            }
            for xx in 0..p.chunk.width {
                let gx = p.x + xx as i64;
                let v = p.chunk.get(xx, yy);
                if v == UNSET || gx < 0 || gx as usize >= width {
                    continue;
                }
                let (gx, gy) = (gx as usize, gy as usize);
                if p.overlay && crowds(&cells, width, rows, gx, gy, v) {
                    continue;
                }
                cells[gy * width + gx] = v;
            }
        }
    }
    for p in pieces.iter().filter(|p| !p.overlay) {
        let last = p.chunk.height - 1;
        let from = (p.y + p.chunk.height as i64 - top).max(0) as usize;
        for xx in 0..p.chunk.width {
            let gx = p.x + xx as i64;
            if gx < 0 || gx as usize >= width {
                continue;
            }
            let pc = pad_char(p.chunk.get(xx, last));
            for gy in from..rows {
                let i = gy * width + gx as usize;
                if cells[i] == UNSET {
                    cells[i] = pc;
                }
            }
        }
    }
    for c in &mut cells {
        if *c == UNSET {
            *c = b'-';
        }
    }
    MarioLevel::from_cells(width, rows, cells)
}

/// Whether a route's tile `v` at `(x, y)` would crowd what is below it: a solid or platform
/// tile with anything but air in the four rows under it (an obstacle of the level beneath
/// the upper route). The route leaves a hole there, where Mario drops back onto the lower
/// route, instead of a ceiling he cannot jump under.
fn crowds(cells: &[u8], width: usize, rows: usize, x: usize, y: usize, v: u8) -> bool {
    let blocks = matches!(tiles::class_of(v), TileClass::Solid | TileClass::Platform);
    blocks
        && (y + 1..(y + 5).min(rows)).any(|r| {
            let c = cells[r * width + x];
            c != UNSET && tiles::class_of(c) != TileClass::Empty
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_tile_over_an_obstacle_leaves_a_hole() {
        // One column, six rows: a brick would go on row 0; an obstacle top on row 4.
        let mut cells = vec![b'-', b'-', b'o', b'-', b'#', b'X'];
        assert!(crowds(&cells, 1, 6, 0, 0, b'S'), "obstacle 4 rows below");
        assert!(!crowds(&cells, 1, 6, 0, 0, b'o'), "coins never crowd");
        cells[4] = b'-';
        assert!(!crowds(&cells, 1, 6, 0, 0, b'S'), "coins and air below");
        cells[1] = UNSET;
        assert!(!crowds(&cells, 1, 6, 0, 0, b'%'));
    }
}
