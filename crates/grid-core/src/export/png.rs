use super::{ExportError, io_err};
use crate::tile::TileMap;
use std::path::Path;

/// The map as RGB pixels, `scale` pixels per tile (row-major, 3 bytes per pixel).
/// Returns `(width_px, height_px, pixels)`.
pub fn render_rgb(map: &(impl TileMap + ?Sized), scale: u32) -> (u32, u32, Vec<u8>) {
    let s = scale.max(1) as usize;
    let (w, h) = (map.width(), map.height());
    let (pw, ph) = (w * s, h * s);
    let mut px = vec![0u8; pw * ph * 3];
    let legend = map.legend();
    for y in 0..h {
        for x in 0..w {
            let c = legend.color(map.tile(x, y));
            for dy in 0..s {
                let row = (y * s + dy) * pw;
                for dx in 0..s {
                    let i = (row + x * s + dx) * 3;
                    px[i..i + 3].copy_from_slice(&c);
                }
            }
        }
    }
    (pw as u32, ph as u32, px)
}

/// Encodes RGB pixels as PNG bytes.
pub fn encode_png(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(rgb, width, height, image::ExtendedColorType::Rgb8)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Writes RGB pixels to a PNG file.
pub fn write_rgb_png(path: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), ExportError> {
    let bytes = encode_png(width, height, rgb).map_err(|message| ExportError::Png {
        path: path.to_path_buf(),
        message,
    })?;
    std::fs::write(path, bytes).map_err(io_err(path))
}

/// Writes the map as a PNG, `scale` pixels per tile.
pub fn write_png(
    map: &(impl TileMap + ?Sized),
    path: &Path,
    scale: u32,
) -> Result<(), ExportError> {
    let (w, h) = (map.width() as u64, map.height() as u64);
    if w * h * u64::from(scale.max(1)).pow(2) > 1 << 31 {
        return Err(ExportError::TooLarge {
            width: w as usize,
            height: h as usize,
        });
    }
    let (pw, ph, px) = render_rgb(map, scale);
    write_rgb_png(path, pw, ph, &px)
}
