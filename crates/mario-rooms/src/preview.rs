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

/// The sky and ground colours of a theme of the embedded library, in place of the
/// legend's (`(sky, ground)`); `None` for the overground and athletic themes, which keep the
/// legend's sky.
pub fn theme_colors(theme: &str) -> Option<([u8; 3], [u8; 3])> {
    match theme {
        "underground" => Some(([10, 10, 20], [40, 90, 150])),
        "castle" => Some(([36, 32, 40], [130, 130, 130])),
        _ => None,
    }
}

/// Repaints the legend's sky and ground pixels of `rgb` with `theme`'s colours
/// ([`theme_colors`]); other themes are left as they are.
pub fn apply_theme(rgb: &mut [u8], theme: &str) {
    let Some((sky, ground)) = theme_colors(theme) else {
        return;
    };
    let (air, x) = (
        crate::tiles::info_of(b'-').color,
        crate::tiles::info_of(b'X').color,
    );
    for px in rgb.chunks_exact_mut(3) {
        if px == air {
            px.copy_from_slice(&sky);
        } else if px == x {
            px.copy_from_slice(&ground);
        }
    }
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
        // A castle's sky and ground are repainted; the markers keep their colours.
        let mut castle = plain.clone();
        apply_theme(&mut castle, "castle");
        let (sky, ground) = theme_colors("castle").unwrap();
        assert_eq!(px(&castle, 1, 1), sky.to_vec());
        assert_eq!(px(&castle, 1, 10), ground.to_vec());
        assert_eq!(px(&castle, 2, 6), px(&plain, 2, 6), "Mario's start");
        let mut over = plain.clone();
        apply_theme(&mut over, "overground");
        assert_eq!(over, plain);
    }
}
