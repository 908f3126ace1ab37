//! Byte planes' counts at the start of a pass: the region's codes laid into the padded layout
//! once, each plane's weights mapped from them in one pass, then summed (a 3x3 box as row sums
//! of three, then column sums of three row sums; other shapes one shifted slice per offset).
//! All sums wrap in bytes: exact, since the caller only uses byte planes when every count
//! fits a byte.

use super::blocks::{BLOCK, region_blocks};
use super::pairs::Geometry;
use crate::accel::count_planes::fill_short;
use crate::engine::Canvas;
use grid_core::Rect;

/// Lays the codes of region `r` into `codes` in the padded layout `g`, every margin cell
/// holding `marker`; `codes` gets [`BLOCK`] bytes of slack.
pub fn lay_codes(codes: &mut Vec<u8>, canvas: &Canvas, r: Rect, g: Geometry, marker: u8) {
    let (mx, my, pitch) = g;
    let total = pitch * (my + r.h as usize + my);
    if codes.len() < total + BLOCK {
        codes.resize(total + BLOCK, 0);
    }
    codes[..my * pitch + mx].fill(marker);
    region_blocks(
        codes,
        canvas,
        r,
        g,
        |codes, at, block| codes[at..at + BLOCK].copy_from_slice(block),
        |codes, gap| fill_short(&mut codes[gap], marker),
    );
    codes[(my + r.h as usize) * pitch..total].fill(marker);
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
