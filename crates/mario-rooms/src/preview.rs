//! PNG previews: one colour per tile kind (the legend's colours), via grid-core; optionally
//! with the playability checker's reachable standing tiles marked.

use crate::error::MarioError;
use crate::level::MarioLevel;
use crate::playability;
use grid_core::export;
use std::path::Path;

/// Colour of the marks on standing tiles Mario can reach.
pub const REACH_COLOR: [u8; 3] = [255, 255, 255];

/// Renders the level as RGB pixels, `scale` pixels per tile: `(width, height, rgb)`.
pub fn render(level: &MarioLevel, scale: u32) -> (u32, u32, Vec<u8>) {
    export::render_rgb(level, scale)
}

/// Like [`render`], with a mark in the middle of every standing tile the playability checker
/// reached (a search that stops at the exit, so it shows one way through, not every way).
pub fn render_with_reach(level: &MarioLevel, scale: u32) -> (u32, u32, Vec<u8>) {
    let (w, h, mut rgb) = render(level, scale);
    let s = scale.max(1) as usize;
    let (_, tiles) = playability::explore(level);
    let m = (s / 4).max(1);
    for (x, y) in tiles {
        let (cx, cy) = (x * s + s / 2, y * s + s / 2);
        for py in cy.saturating_sub(m)..(cy + m).min(h as usize) {
            for px in cx.saturating_sub(m)..(cx + m).min(w as usize) {
                let i = (py * w as usize + px) * 3;
                rgb[i..i + 3].copy_from_slice(&REACH_COLOR);
            }
        }
    }
    (w, h, rgb)
}

fn io(path: &Path, e: impl std::fmt::Display) -> MarioError {
    MarioError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// Writes a PNG preview of the level, `scale` pixels per tile.
pub fn write_png(level: &MarioLevel, path: &Path, scale: u32) -> Result<(), MarioError> {
    export::write_png(level, path, scale).map_err(|e| io(path, e))
}

/// Writes a PNG preview with the reachable standing tiles marked ([`render_with_reach`]).
pub fn write_png_with_reach(level: &MarioLevel, path: &Path, scale: u32) -> Result<(), MarioError> {
    let (w, h, rgb) = render_with_reach(level, scale);
    export::write_rgb_png(path, w, h, &rgb).map_err(|e| io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_marks_standing_tiles() {
        let l = MarioLevel::parse("t", "----\nM--F\nXXXX").unwrap();
        let (w, h, plain) = render(&l, 4);
        assert_eq!((w, h), (16, 12));
        let (_, _, marked) = render_with_reach(&l, 4);
        // Tile (1, 1) is reached: its centre pixel (6, 6) is marked, the ground is not.
        let px =
            |rgb: &[u8], x: usize, y: usize| rgb[(y * 16 + x) * 3..(y * 16 + x) * 3 + 3].to_vec();
        assert_eq!(px(&marked, 6, 6), REACH_COLOR.to_vec());
        assert_ne!(px(&plain, 6, 6), REACH_COLOR.to_vec());
        assert_eq!(px(&marked, 6, 10), px(&plain, 6, 10));
    }
}
