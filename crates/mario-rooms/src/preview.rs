//! PNG previews: one colour per tile kind (the legend's colours), via grid-core.

use crate::error::MarioError;
use crate::level::MarioLevel;
use grid_core::export;
use std::path::Path;

/// Renders the level as RGB pixels, `scale` pixels per tile: `(width, height, rgb)`.
pub fn render(level: &MarioLevel, scale: u32) -> (u32, u32, Vec<u8>) {
    export::render_rgb(level, scale)
}

/// Writes a PNG preview of the level, `scale` pixels per tile.
pub fn write_png(level: &MarioLevel, path: &Path, scale: u32) -> Result<(), MarioError> {
    export::write_png(level, path, scale).map_err(|e| MarioError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    })
}
