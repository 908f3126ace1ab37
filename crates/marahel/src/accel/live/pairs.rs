//! Paired planes' counts at the start of a pass (see [`super::Pairs`]): the pair weights of
//! the region's codes laid straight into the padded layout (the margins weigh the outside),
//! then summed as `u16` (a 3x3 box as row sums of three, then column sums of three row sums;
//! other shapes one shifted slice per offset). The low byte of a sum is the first plane's
//! count, which fits a byte, so no carry reaches the high byte, which wraps as the second
//! plane's byte count does: the same pairs as summing the two byte planes apart.

use super::blocks::{BLOCK, region_blocks};
use super::register_rows::{self, Weighing};
use super::{LivePlanes, PlaneSpec, sums};
use crate::accel::count_planes::fill_short;
use crate::engine::Canvas;
use grid_core::Rect;

/// The padded layout of a pass: margins `mx`, `my`, pitch `p`.
pub type Geometry = (usize, usize, usize);

impl LivePlanes {
    /// The paired planes of `specs` (two specs of one neighbourhood, every count a byte) over
    /// region `r` of the front buffer, geometry `g` (already set up by
    /// [`LivePlanes::begin`]); `outs` weigh the outside. Lays the region's codes out too,
    /// margins holding `scan_code` (or 0).
    #[inline(always)]
    pub(super) fn begin_pairs(
        &mut self,
        specs: &[PlaneSpec],
        canvas: &Canvas,
        r: Rect,
        geometry: Geometry,
        outs: [u32; 2],
        scan_code: Option<u8>,
    ) {
        let (len, o, p) = (self.len, self.origin, self.pitch);
        // The region's cells in padded coordinates: `span` cells from `origin`.
        let span = (r.h as usize - 1) * p + r.w as usize;
        let out = outs[0] as u8 as u16 | (outs[1] as u8 as u16) << 8;
        // The code plane is laid out even without a scan code (it costs little).
        let margin = scan_code.unwrap_or(0);
        // One weighted code each (the usual `all(solid)` and `all(empty)`).
        let single = match (specs[0].single, specs[1].single) {
            (Some((a, wa)), Some((b, wb))) => Some(Weighing {
                a,
                wa: wa as u8,
                b,
                wb: wb as u8,
                out,
                margin,
            }),
            _ => None,
        };
        if let (Some(k), true) = (single, specs[0].is_box) {
            // Narrow regions: one sweep over the rows (see [`narrow`]).
            // Blocks of sixteen lanes a row: one or two.
            let blocks = (1..=2).find(|&n| register_rows::fits(r.w as usize, 16 * n));
            if let Some(n) = blocks {
                let (pairs, codes) = (&mut self.store.pairs, &mut self.store.codes);
                // The last row is read and written as whole blocks.
                grow(pairs, codes, len.max(o + (r.h as usize - 1) * p + 16 * n));
                match n {
                    1 => register_rows::box_pairs::<1>(pairs, codes, canvas, r, geometry, k),
                    _ => register_rows::box_pairs::<2>(pairs, codes, canvas, r, geometry, k),
                }
                return;
            }
        }
        let codes = (&mut self.store.codes, margin);
        match single {
            // One weighted code each: compares instead of table look-ups, which vectorise.
            Some(k) => lay(&mut self.pad16, codes, canvas, r, geometry, out, |codes| {
                let (lo, hi) = register_rows::weigh(codes, &k);
                let mut w = [0u16; BLOCK];
                for ((w, &lo), &hi) in w.iter_mut().zip(&lo).zip(&hi) {
                    *w = lo as u16 | (hi as u16) << 8;
                }
                w
            }),
            None => {
                let pw: &[u16; 256] = self.pair_w.as_deref().expect("a pair per code");
                lay(&mut self.pad16, codes, canvas, r, geometry, out, |codes| {
                    codes.map(|c| pw[c as usize])
                })
            }
        }
        let store = &mut self.store.pairs;
        if store.len() < len {
            store.resize(len, 0);
        }
        let dst = &mut store[o..o + span];
        match specs[0].is_box {
            true => sums::box_sums(dst, &mut self.acc16, &self.pad16, o, p),
            false => {
                let reads = specs[0]
                    .offsets
                    .iter()
                    .map(|&(dx, dy)| dy as isize * p as isize + dx as isize);
                sums::offset_sums(dst, &self.pad16, o, reads)
            }
        }
    }
}

/// Lays the pair weights of region `r`'s cells into `pad` (geometry `g`), every margin cell
/// weighing `out`; `weights` gives the pair weights of a block of codes. Lays the codes
/// themselves into `plane` too, margins holding `margin`.
/// Both get [`BLOCK`] cells of slack.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn lay(
    pad: &mut Vec<u16>,
    (plane, margin): (&mut Vec<u8>, u8),
    canvas: &Canvas,
    r: Rect,
    g: Geometry,
    out: u16,
    weights: impl Fn(&[u8; BLOCK]) -> [u16; BLOCK],
) {
    let (mx, my, p) = g;
    let rh = r.h as usize;
    let total = p * (my + rh + my);
    if pad.len() < total + BLOCK {
        pad.resize(total + BLOCK, 0);
    }
    pad[..my * p + mx].fill(out);
    if plane.len() < total + BLOCK {
        plane.resize(total + BLOCK, 0);
    }
    plane[..my * p + mx].fill(margin);
    region_blocks(
        &mut (&mut *pad, &mut *plane),
        canvas,
        r,
        g,
        |(pad, plane), at, codes| {
            let to: &mut [u16; BLOCK] = (&mut pad[at..at + BLOCK]).try_into().expect("a block");
            *to = weights(codes);
            plane[at..at + BLOCK].copy_from_slice(codes);
        },
        |(pad, plane), gap| {
            fill_short(&mut pad[gap.clone()], out);
            fill_short(&mut plane[gap], margin);
        },
    );
    pad[(my + rh) * p..total].fill(out);
    plane[(my + rh) * p..total + BLOCK].fill(margin);
}

/// Grows the pairs and the code plane to at least `n` cells each.
fn grow(pairs: &mut Vec<u16>, codes: &mut Vec<u8>, n: usize) {
    if pairs.len() < n {
        pairs.resize(n, 0);
    }
    if codes.len() < n {
        codes.resize(n, 0);
    }
}
