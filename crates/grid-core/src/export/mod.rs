//! Exports for any [`TileMap`]: text, JSON, PNG and Tiled TMX.
//!
//! [`Format::from_path`] picks the format from a file extension; [`write_map`] writes any map
//! in it. Generators with formats of their own (`.hmm`, Mario level text) add them in their
//! crates and fall back to these for the rest.

mod json;
mod objects;
mod png;
mod text;
mod tmx;

pub use json::{JsonTiles, to_json};
pub use objects::{MapObject, objects_from_tiles, to_json_with_objects, to_tmx_with_objects};
pub use png::{encode_png, render_rgb, write_png, write_rgb_png};
pub use text::{legend_text, to_text};
pub use tmx::{
    FLIP_D, FLIP_H, FLIP_V, TmxProperty, TmxTileset, tileset_file_name, tileset_image,
    tmx_document, to_tmx, write_tmx,
};

use crate::tile::TileMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// An export failure.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The extension names no format this exporter writes.
    #[error("{path}: unknown output format {ext:?} (expected .txt, .json, .png or .tmx)")]
    UnknownFormat {
        /// The output path.
        path: PathBuf,
        /// Its extension (empty if none).
        ext: String,
    },
    /// Writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// PNG encoding failed.
    #[error("{path}: PNG encoding failed: {message}")]
    Png {
        /// The file being written.
        path: PathBuf,
        /// What the encoder said.
        message: String,
    },
    /// The map is too large for the format.
    #[error("map of {width}x{height} is too large to export")]
    TooLarge {
        /// Map width.
        width: usize,
        /// Map height.
        height: usize,
    },
}

/// An output format known by its file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `.txt`: one char per tile, then the legend.
    Text,
    /// `.json`: dimensions, legend and rows of tile names.
    Json,
    /// `.png`: one colour per tile.
    Png,
    /// `.tmx`: a Tiled map with a CSV layer and a generated tileset image beside it.
    Tmx,
}

impl Format {
    /// The format of a path's extension (case-insensitive), if it is one of the four.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "txt" => Some(Format::Text),
            "json" => Some(Format::Json),
            "png" => Some(Format::Png),
            "tmx" => Some(Format::Tmx),
            _ => None,
        }
    }
}

/// Options for [`write_map`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Pixels per tile in PNG output.
    pub png_scale: u32,
    /// Pixels per tile in the generated TMX tileset.
    pub tmx_tile_size: u32,
    /// Tile representation in JSON.
    pub json_tiles: JsonTiles,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self {
            png_scale: 8,
            tmx_tile_size: 16,
            json_tiles: JsonTiles::Names,
        }
    }
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `map` to `path` in the format its extension names.
pub fn write_map(
    map: &(impl TileMap + ?Sized),
    path: &Path,
    opts: &ExportOptions,
) -> Result<(), ExportError> {
    let format = Format::from_path(path).ok_or_else(|| ExportError::UnknownFormat {
        path: path.to_path_buf(),
        ext: path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string(),
    })?;
    match format {
        Format::Text => {
            let mut s = to_text(map);
            s.push('\n');
            s.push_str(&legend_text(map.legend()));
            std::fs::write(path, s).map_err(io_err(path))
        }
        Format::Json => std::fs::write(path, to_json(map, opts.json_tiles)).map_err(io_err(path)),
        Format::Png => write_png(map, path, opts.png_scale),
        Format::Tmx => write_tmx(map, path, opts.tmx_tile_size),
    }
}
