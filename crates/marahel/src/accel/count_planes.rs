//! Count planes: the weighted neighbourhood count of every cell of a region at once.
//!
//! Two forms:
//!
//! - [`count_plane`]: `u32` counts in region order (`rw x rh`), for [`crate::engine::Ctx::count_plane`]
//!   (the per-cell interpreter of buffered passes, and the row-at-a-time fallback of
//!   [`crate::accel::batch`]). The region's weights are laid into a plane padded with the
//!   `out` weight on every side, then each offset adds one contiguous shifted slice (no edge
//!   tests); counts that fit a byte are summed in bytes. A `self` count is a table look-up.
//! - Byte planes for [`crate::accel::batch`]'s whole-region passes, in a padded [`PaddedLayout`]:
//!   the region's cell codes are copied once per pass into a plane padded with [`PAD_CODE`]
//!   ([`fill_cells`]); a count condition then maps codes to byte weights, sums them (a
//!   rectangular neighbourhood such as the 3x3 `all` separably: row sums, then column sums) and
//!   tests the range straight into the candidate mask ([`test_count`]). Masks share the
//!   layout's pitch, so every loop runs over one long contiguous span even for narrow regions.
//! - [`shape`]: a count that depends only on the region's shape (`left(out)`): the interior
//!   value is tested once, then only the frame cells within the neighbourhood's reach of the
//!   region's edge are counted; when only the interior passes, the result is a rectangle.

pub mod shape;

use crate::engine::{Canvas, Ctx, FlatNbh};
use grid_core::Rect;

/// Reusable buffers of the count planes and of the whole-region passes (one set per explorer).
#[derive(Debug, Default)]
pub struct PlaneScratch {
    /// Padded weights (`u32`).
    pad: Vec<u32>,
    /// Padded weights when every count fits a byte.
    pad8: Vec<u8>,
    /// Byte sums.
    acc8: Vec<u8>,
    /// Region codes in a padded [`PaddedLayout`].
    pub(crate) cells: Vec<u8>,
    /// Cells still undecided by the pass's earlier rules (layout pitch, padding columns 0).
    pub(crate) alive: Vec<u8>,
    /// Candidates of the current rule (layout pitch, padding columns 0).
    pub(crate) cand: Vec<u8>,
    /// Byte weights in the layout.
    pub(crate) weights8: Vec<u8>,
    /// Row sums of a rectangular neighbourhood.
    pub(crate) rows8: Vec<u8>,
    /// The values a buffered pass writes, in the layout.
    pub(crate) vals: Vec<u8>,
    /// The offsets of one count that reach into the region.
    pub(crate) offsets: Vec<(i64, i64)>,
}

/// The code that pads a [`PaddedLayout`]'s cell plane (never a map code when the program has fewer
/// than 254 entities; bigger programs use the `u32` planes).
pub const PAD_CODE: u8 = u8::MAX;

/// A region laid out in a padded byte plane: `kx` columns on each side, `ky` rows above and
/// below, so every offset with `|dx| <= kx`, `|dy| <= ky` is one shifted slice. Region cell
/// `(lx, ly)` has mask index `ly * pitch + lx` and plane index `origin() + ly * pitch + lx`.
#[derive(Clone, Copy, Debug)]
pub struct PaddedLayout {
    /// Region width.
    pub rw: usize,
    /// Region height.
    pub rh: usize,
    /// Padding columns on each side.
    pub kx: usize,
    /// Padding rows above and below.
    pub ky: usize,
    /// Row pitch (`rw + 2 kx`).
    pub pitch: usize,
}

impl PaddedLayout {
    /// The layout of a `rw x rh` region padded by `kx`, `ky`.
    pub fn new(rw: usize, rh: usize, kx: usize, ky: usize) -> PaddedLayout {
        PaddedLayout {
            rw,
            rh,
            kx,
            ky,
            pitch: rw + 2 * kx,
        }
    }
    /// Length of a mask: from the first region cell to the last.
    pub fn span(&self) -> usize {
        (self.rh - 1) * self.pitch + self.rw
    }
    /// Length of a padded plane.
    pub fn plane_len(&self) -> usize {
        (self.rh + 2 * self.ky) * self.pitch
    }
    /// Plane index of the region's first cell.
    pub fn origin(&self) -> usize {
        self.ky * self.pitch + self.kx
    }
    /// Sets `mask` to 1 on the region's cells and 0 on the padding columns.
    pub fn ones(&self, mask: &mut Vec<u8>) {
        mask.clear();
        mask.resize(self.span(), 1);
        self.clear_padding(mask);
    }
    /// Sets the padding columns of a mask (between the region's rows) to 0.
    pub fn clear_padding(&self, mask: &mut [u8]) {
        let gap = self.pitch - self.rw;
        if gap > 0 {
            for row in mask[self.rw..].chunks_mut(self.pitch) {
                fill_short(&mut row[..gap], 0);
            }
        }
    }
}

/// `s.fill(v)` for the short gaps between rows (a store or two, not a `memset` call).
#[inline(always)]
pub(crate) fn fill_short<T: Copy>(s: &mut [T], v: T) {
    match s {
        [a, b] => (*a, *b) = (v, v),
        _ => s.fill(v),
    }
}

/// Copies the region's codes from the front buffer into `cells`, padded with [`PAD_CODE`]
/// (only the padding is written besides the rows, so a plane of the same length is reused
/// without clearing it first).
pub fn fill_cells(canvas: &Canvas, r: Rect, lay: PaddedLayout, cells: &mut Vec<u8>) {
    let len = lay.plane_len();
    if cells.len() != len {
        cells.clear();
        cells.resize(len, PAD_CODE);
    }
    let (w, x0, y0) = (canvas.w, r.x as usize, r.y as usize);
    let origin = lay.origin();
    cells[..origin].fill(PAD_CODE);
    for ly in 0..lay.rh {
        let src = (y0 + ly) * w + x0;
        let dst = origin + ly * lay.pitch;
        cells[dst..dst + lay.rw].copy_from_slice(&canvas.front[src..src + lay.rw]);
        let end = if ly + 1 == lay.rh {
            len
        } else {
            dst + lay.pitch
        };
        fill_short(&mut cells[dst + lay.rw..end], PAD_CODE);
    }
}

/// `dst[i] = value` where `mask[i]` is 1 (masks hold 0 or 1), sixteen bytes at a time.
pub fn masked_store(dst: &mut [u8], mask: &[u8], value: u8) {
    let store = |d: &mut u8, m: u8| *d ^= (*d ^ value) & m.wrapping_neg();
    let mut ds = dst.chunks_exact_mut(16);
    let mut ms = mask.chunks_exact(16);
    for (d, m) in (&mut ds).zip(&mut ms) {
        let (d, m): (&mut [u8; 16], &[u8; 16]) =
            (d.try_into().expect("16"), m.try_into().expect("16"));
        for i in 0..16 {
            store(&mut d[i], m[i]);
        }
    }
    for (d, &m) in ds.into_remainder().iter_mut().zip(ms.remainder()) {
        store(d, m);
    }
}

/// How a test's result combines with the candidate mask.
#[derive(Clone, Copy, Debug)]
pub enum Mode<'a> {
    /// `cand &= test`.
    And,
    /// `cand = test` (the mask held every region cell; it is rebuilt without a copy).
    Set,
    /// `cand = src & test` (`src` has its padding columns at 0).
    From(&'a [u8]),
}

/// Combines one test result per mask cell (`tests`, `span` of them) into `cand`; returns
/// whether `cand` now holds a cell when that comes for free (`cand &= test`).
#[inline(always)]
pub fn combine(
    cand: &mut Vec<u8>,
    mode: Mode,
    lay: PaddedLayout,
    tests: impl Iterator<Item = u8>,
) -> Option<bool> {
    match mode {
        Mode::And => {
            let mut or = 0u8;
            for (m, t) in cand.iter_mut().zip(tests) {
                *m &= t;
                or |= *m;
            }
            return Some(or != 0);
        }
        Mode::Set => {
            cand.clear();
            cand.extend(tests);
            lay.clear_padding(cand);
        }
        Mode::From(src) => {
            cand.clear();
            cand.extend(src.iter().zip(tests).map(|(&a, t)| a & t));
        }
    }
    None
}

/// A byte count condition: the offsets of one neighbourhood that reach into the region, the
/// per-code weights, and the range the count must (or, with `neg`, must not) fall in.
#[derive(Debug)]
pub struct ByteCount<'a> {
    /// Offsets within the layout's padding (the others always read outside).
    pub offsets: &'a [(i64, i64)],
    /// Their bounding box (min dx, max dx, min dy, max dy), including `(0, 0)`.
    pub bbox: (i64, i64, i64, i64),
    /// Weight of each code (`PAD_CODE` weighs `out`).
    pub lut: &'a [u8; 256],
    /// `Some((code, weight))` when only `code` (and maybe the padding) weighs anything.
    pub single: Option<(u8, u8)>,
    /// Added to every count: offsets that always read outside.
    pub always: u8,
    /// Lowest count in the range.
    pub lo: u8,
    /// `hi - lo`.
    pub width: u8,
    /// 1 to keep the cells outside the range instead.
    pub neg: u8,
}

/// Narrows `cand` (as `mode` says) to the cells whose count satisfies `bc`. `cells` is the
/// pass's code plane (see [`fill_cells`]); `wp` and `rows` are scratch. Returns what
/// [`combine`] returns.
pub fn test_count(
    cells: &[u8],
    lay: PaddedLayout,
    bc: &ByteCount,
    (cand, mode): (&mut Vec<u8>, Mode),
    wp: &mut Vec<u8>,
    rows: &mut Vec<u8>,
) -> Option<bool> {
    // Byte weights of every plane cell.
    let pad_w = bc.lut[PAD_CODE as usize];
    wp.clear();
    match bc.single {
        Some((code, wt)) if pad_w == 0 => wp.extend(cells.iter().map(|&c| (c == code) as u8 * wt)),
        Some((code, wt)) => wp.extend(
            cells
                .iter()
                .map(|&c| ((c == code) as u8 * wt) | ((c == PAD_CODE) as u8 * pad_w)),
        ),
        None => wp.extend(cells.iter().map(|&c| bc.lut[c as usize])),
    }
    let span = lay.span();
    let (pitch, origin) = (lay.pitch as i64, lay.origin() as i64);
    let at = |dx: i64, dy: i64| (origin + dy * pitch + dx) as usize;
    let (lo, width, neg, always) = (bc.lo, bc.width, bc.neg, bc.always);
    let test = move |v: u8| (v.wrapping_sub(lo) <= width) as u8 ^ neg;
    // A full rectangle of offsets sums separably: row sums, then column sums.
    let (x0, x1, y0, y1) = bc.bbox;
    let (nx, ny) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
    // Distinct offsets filling the rectangle (a bit per position; larger boxes sum offset by
    // offset).
    let is_box = nx > 1 && ny > 1 && nx * ny <= 64 && bc.offsets.len() == nx * ny && {
        let bits = bc.offsets.iter().fold(0u64, |b, &(x, y)| {
            b | 1 << ((y - y0) as usize * nx + (x - x0) as usize)
        });
        bits.count_ones() as usize == nx * ny
    };
    rows.clear();
    if is_box {
        // Row sums for the rows from `y0` above the region to `y1` below it.
        let (hs, n) = (at(x0, y0), span + (ny - 1) * lay.pitch);
        if nx == 3 {
            let (a, b, c) = (
                &wp[hs..hs + n],
                &wp[hs + 1..hs + 1 + n],
                &wp[hs + 2..hs + 2 + n],
            );
            rows.extend(
                a.iter()
                    .zip(b)
                    .zip(c)
                    .map(|((&p, &q), &s)| p.wrapping_add(q).wrapping_add(s)),
            );
        } else {
            rows.extend_from_slice(&wp[hs..hs + n]);
            for dx in 1..nx {
                add_into(rows, &wp[hs + dx..hs + dx + n]);
            }
        }
        let p = lay.pitch;
        if ny == 3 {
            let (a, b, c) = (
                &rows[..span],
                &rows[p..p + span],
                &rows[2 * p..2 * p + span],
            );
            let sums =
                a.iter().zip(b).zip(c).map(|((&u, &v), &s)| {
                    test(always.wrapping_add(u).wrapping_add(v).wrapping_add(s))
                });
            return combine(cand, mode, lay, sums);
        }
        // Column sums into the start of `wp` (no longer needed).
        wp.clear();
        wp.extend(rows[..span].iter().map(|&v| v.wrapping_add(always)));
        for k in 1..ny {
            add_into(wp, &rows[k * p..k * p + span]);
        }
        return combine(cand, mode, lay, wp.iter().map(|&v| test(v)));
    }
    let mut offsets = bc.offsets.iter().map(|&(dx, dy)| at(dx, dy));
    match offsets.next() {
        Some(first) => rows.extend(
            wp[first..first + span]
                .iter()
                .map(|&v| v.wrapping_add(always)),
        ),
        None => rows.resize(span, always),
    }
    for start in offsets {
        add_into(rows, &wp[start..start + span]);
    }
    combine(cand, mode, lay, rows.iter().map(|&v| test(v)))
}

/// `acc += src`, element by element (wrapping).
#[inline]
fn add_into(acc: &mut [u8], src: &[u8]) {
    for (d, &v) in acc.iter_mut().zip(src) {
        *d = d.wrapping_add(v);
    }
}

/// The weighted neighbourhood count of every cell of `r` (cells outside `r` weigh `out_w`),
/// written into `sum` (region order): the region's weights are laid into a plane padded with
/// `out_w` on every side (scratch, reused), then each offset adds one shifted row slice per
/// row, with no bounds tests in the inner loop. Offsets that reach past the region in every
/// case add `out_w`. A `self` count is the weight of each cell.
pub fn count_plane(
    canvas: &Canvas,
    r: Rect,
    n: &FlatNbh,
    weights: &[u32; 256],
    out_w: u32,
    scratch: &mut PlaneScratch,
    sum: &mut Vec<u32>,
) {
    let (front, w) = (&canvas.front, canvas.w);
    let (rw, rh) = (r.w as usize, r.h as usize);
    if n.is_self {
        sum.clear();
        for ly in 0..rh {
            let src = (r.y as usize + ly) * w + r.x as usize;
            sum.extend(front[src..src + rw].iter().map(|&c| weights[c as usize]));
        }
        return;
    }
    // Offsets at or beyond the region's size always read outside: they add `out_w` to
    // every cell, and the padding need not reach that far.
    let reach = |d: i64, size: usize| d.unsigned_abs() as usize >= size;
    let mut always_out = 0u32;
    let (mut px0, mut px1, mut py0, mut py1) = (0usize, 0usize, 0usize, 0usize);
    for &(dx, dy) in &n.offsets {
        if reach(dx, rw) || reach(dy, rh) {
            always_out = always_out.wrapping_add(out_w);
            continue;
        }
        px0 = px0.max((-dx).max(0) as usize);
        px1 = px1.max(dx.max(0) as usize);
        py0 = py0.max((-dy).max(0) as usize);
        py1 = py1.max(dy.max(0) as usize);
    }
    let pw = px0 + rw + px1;
    let span = (rh - 1) * pw + rw;
    let base = py0 * pw + px0;
    // An upper bound of the largest weight (an OR of all weights vectorises; a max may not).
    let max_w = weights.iter().fold(out_w, |a, &b| a | b) as u64;
    if n.offsets.len() >= 6 && max_w * n.offsets.len() as u64 <= u8::MAX as u64 {
        // Every count fits a byte: sum bytes (four times as many lanes per instruction; worth
        // the final widening only for neighbourhoods with several offsets).
        let (pad, acc) = (&mut scratch.pad8, &mut scratch.acc8);
        pad.clear();
        pad.resize(pw * (py0 + rh + py1), out_w as u8);
        // With one weighted code (the usual `nbh(solid)`), a compare replaces the table
        // look-up and vectorises.
        let hot = weights.iter().fold(0u32, |n, &w| n + (w != 0) as u32);
        let single = (hot == 1)
            .then(|| weights.iter().position(|&w| w != 0))
            .flatten()
            .map(|code| (code as u8, weights[code] as u8));
        for ly in 0..rh {
            let src = (r.y as usize + ly) * w + r.x as usize;
            let dst = (py0 + ly) * pw + px0;
            let (row, cells) = (&mut pad[dst..dst + rw], &front[src..src + rw]);
            match single {
                Some((code, wt)) => {
                    for (d, &c) in row.iter_mut().zip(cells) {
                        *d = (c == code) as u8 * wt;
                    }
                }
                None => {
                    for (d, &c) in row.iter_mut().zip(cells) {
                        *d = weights[c as usize] as u8;
                    }
                }
            }
        }
        acc.clear();
        acc.resize(span, always_out as u8);
        for &(dx, dy) in &n.offsets {
            if reach(dx, rw) || reach(dy, rh) {
                continue;
            }
            let start = (base as i64 + dy * pw as i64 + dx) as usize;
            for (s, &v) in acc.iter_mut().zip(&pad[start..start + span]) {
                *s += v;
            }
        }
        sum.clear();
        for ly in 0..rh {
            sum.extend(acc[ly * pw..ly * pw + rw].iter().map(|&v| v as u32));
        }
        return;
    }
    let pad = &mut scratch.pad;
    pad.clear();
    pad.resize(pw * (py0 + rh + py1), out_w);
    for ly in 0..rh {
        let src = (r.y as usize + ly) * w + r.x as usize;
        let dst = (py0 + ly) * pw + px0;
        for (d, &c) in pad[dst..dst + rw].iter_mut().zip(&front[src..src + rw]) {
            *d = weights[c as usize];
        }
    }
    // Sum in padded coordinates (pitch `pw`) so each offset is one contiguous slice addition
    // over the region's rows, then copy the region's columns out.
    pad_sum_into(pad, n, base, pw, span, always_out, rw, rh, sum);
}

/// Adds, for every in-reach offset of `n`, the slice of `pad` shifted by it to `sum` (an
/// accumulator for the padded cells from `base`, length `span`, pitch `pw`), then closes up
/// the rows so that `sum` holds the `rw x rh` region.
#[allow(clippy::too_many_arguments)]
fn pad_sum_into(
    pad: &[u32],
    n: &FlatNbh,
    base: usize,
    pw: usize,
    span: usize,
    always_out: u32,
    rw: usize,
    rh: usize,
    sum: &mut Vec<u32>,
) {
    sum.clear();
    sum.resize(span, always_out);
    for &(dx, dy) in &n.offsets {
        if dx.unsigned_abs() as usize >= rw || dy.unsigned_abs() as usize >= rh {
            continue;
        }
        let start = (base as i64 + dy * pw as i64 + dx) as usize;
        for (s, &v) in sum.iter_mut().zip(&pad[start..start + span]) {
            *s = s.wrapping_add(v);
        }
    }
    // Close up the padding columns in place (rows only move towards the front).
    if pw != rw {
        for ly in 1..rh {
            sum.copy_within(ly * pw..ly * pw + rw, ly * rw);
        }
    }
    sum.truncate(rw * rh);
}

impl Ctx<'_> {
    /// `count_nbh` for every cell of the region at once, cached until the front buffer or
    /// the region changes; returns the value at `(x, y)`.
    pub fn count_plane(
        &mut self,
        slot: usize,
        nbh: usize,
        weights: &[u32; 256],
        x: usize,
        y: usize,
        invariant: bool,
    ) -> u32 {
        let r = self.region;
        let out_w = self.out_weight(weights);
        let (canvas, scratch) = (&*self.canvas, &mut self.layer.caches.scratch);
        // A slot's buffer is computed over again: no allocation per pass.
        let d =
            self.layer
                .caches
                .count_planes
                .get_with(slot, (r, self.version), invariant, |plane| {
                    count_plane(canvas, r, &self.nbhs[nbh], weights, out_w, scratch, plane)
                });
        d[(y - r.y as usize) * r.w as usize + (x - r.x as usize)]
    }
}
