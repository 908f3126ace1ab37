//! Byte planes' counts at the start of a pass: the region's codes laid into the padded layout
//! once, each plane's weights mapped from them in one pass, then summed (a 3x3 box as row sums
//! of three, then column sums of three row sums; other shapes one shifted slice per offset).
//! All sums wrap in bytes: exact, since the caller only uses byte planes when every count
//! fits a byte.

use crate::engine::Canvas;
use grid_core::Rect;

/// Cells of one 16-byte block copy.
const BLOCK: usize = 16;

/// Lays the codes of region `r` into `codes` in the padded layout (margins `mx`, `my`, pitch
/// `pitch`), every margin cell holding `marker`; `codes` gets [`BLOCK`] bytes of slack.
pub fn lay_codes(
    codes: &mut Vec<u8>,
    canvas: &Canvas,
    r: Rect,
    (mx, my, pitch): (usize, usize, usize),
    marker: u8,
) {
    let (rw, rh) = (r.w as usize, r.h as usize);
    let total = pitch * (my + rh + my);
    if codes.len() < total + BLOCK {
        codes.resize(total + BLOCK, 0);
    }
    codes[..my * pitch + mx].fill(marker);
    for ly in 0..rh {
        let src = (r.y as usize + ly) * canvas.w + r.x as usize;
        let dst = (my + ly) * pitch + mx;
        // Whole blocks: a block may run past the row into the margins and the next row,
        // which are written afterwards.
        let mut b = 0;
        while b < rw {
            match canvas.front.get(src + b..src + b + BLOCK) {
                Some(s) => codes[dst + b..dst + b + BLOCK].copy_from_slice(s),
                None => codes[dst + b..dst + rw].copy_from_slice(&canvas.front[src + b..src + rw]),
            }
            b += BLOCK;
        }
        // This row's right margin and the next row's left margin.
        let m = &mut codes[dst + rw..dst + rw + 2 * mx];
        if let [a, b] = m {
            (*a, *b) = (marker, marker);
        } else {
            m.fill(marker);
        }
    }
    codes[(my + rh) * pitch..total].fill(marker);
}

/// `pad[i] = weight(codes[i])` over `range`.
#[inline(always)]
pub fn map(
    pad: &mut Vec<u8>,
    codes: &[u8],
    range: std::ops::Range<usize>,
    weight: impl Fn(u8) -> u8,
) {
    if pad.len() < range.end {
        pad.resize(range.end, 0);
    }
    for (p, &c) in pad[range.clone()].iter_mut().zip(&codes[range]) {
        *p = weight(c);
    }
}
