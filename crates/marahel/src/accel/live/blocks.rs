//! The region's codes read into a padded layout in blocks of [`BLOCK`] cells: how byte planes
//! ([`super::bytes`]) and paired planes ([`super::pairs`]) start a pass.

use super::pairs::Geometry;
use crate::engine::Canvas;
use grid_core::Rect;
use std::ops::Range;

/// Cells of one block.
pub const BLOCK: usize = 16;

/// Walks region `r` of the front buffer into a padded layout `(mx, my, p)` of `total` cells:
/// for each row, `block(s, at, codes)` for each block of the row's codes from padded index
/// `at` (the last block of a row runs past it, zero-filled at the map's end: the cells past
/// the row are written afterwards, and buffers keep [`BLOCK`] cells of slack), then
/// `gap(s, range)` for the row's right margin and the next row's left margin, clipped to
/// `total`. `s` is what both write to.
#[inline(always)]
pub fn region_blocks<S>(
    s: &mut S,
    canvas: &Canvas,
    r: Rect,
    (mx, my, p): Geometry,
    mut block: impl FnMut(&mut S, usize, &[u8; BLOCK]),
    mut gap: impl FnMut(&mut S, Range<usize>),
) {
    let (rw, rh) = (r.w as usize, r.h as usize);
    let total = p * (my + rh + my);
    for ly in 0..rh {
        let src = (r.y as usize + ly) * canvas.w + r.x as usize;
        let dst = (my + ly) * p + mx;
        let mut b = 0;
        while b < rw {
            let codes: [u8; BLOCK] = match canvas.front.get(src + b..src + b + BLOCK) {
                Some(c) => c.try_into().expect("a block"),
                None => {
                    // The map's last cells.
                    let mut codes = [0; BLOCK];
                    let c = &canvas.front[src + b..src + rw];
                    codes[..c.len()].copy_from_slice(c);
                    codes
                }
            };
            block(s, dst + b, &codes);
            b += BLOCK;
        }
        gap(s, dst + rw..(dst + rw + 2 * mx).min(total));
    }
}
