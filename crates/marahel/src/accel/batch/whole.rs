//! A batched pass over the whole region at once: per rule, the candidate cells of the region
//! are narrowed condition by condition, then written in one sweep.
//!
//! Masks use a padded [`PaddedLayout`] (pitch `rw + 2 kx`, padding columns 0), so every test runs
//! over one contiguous span. A rule's candidates are kept unbuilt while they are every
//! undecided cell (all of them, or the `alive` mask of the earlier rules) or the cells inside
//! or outside a rectangle, and
//! the first test that narrows them writes them from that source (no copy first). How each
//! condition narrows them:
//!
//! - a constant comparison: nothing, or clear;
//! - a `self(..)` count of a buffered pass: a code test on the pass's code plane (one compare
//!   when one code passes or one fails, a table otherwise);
//! - another count of a buffered pass whose counts fit a byte: byte sums over the code plane
//!   ([`count_planes::test_count`]; separable for a rectangular neighbourhood such as `all`), else
//!   the `u32` plane of [`Ctx::count_plane`];
//! - a count of a same-mode pass (only counts that depend on the region's shape are allowed
//!   there, e.g. `left(out)`): [`shape::shape_of`] classifies it from the frame cells; "only
//!   the interior" and "only the frame" are an [`RectCells`] (so `left(out)==0, right(out)==0, ...`
//!   and `plus(out) > 0` never build a mask), anything else is [`shape::test_shape`];
//! - `random` against a number: one draw per candidate, in row-major order.
//!
//! Fixed values are masked stores; drawn values draw cell by cell in row-major order. A
//! buffered pass with a code plane stages its writes in the layout (long contiguous stores)
//! and copies them to the back buffer once.

use super::draws::Draws;
use super::{Kind, kind};
use crate::accel::count_planes::shape::{self, RectCells, Shape};
use crate::accel::count_planes::{self, ByteCount, Mode, PAD_CODE, PaddedLayout, PlaneScratch};
use crate::accel::pred::Pred;
use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::program::Explorer;
use crate::rule::Rule;
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Whether a buffered pass can test this count on the byte code plane: the padding code is
/// free and (unless it is `self`) every count fits a byte.
fn bytes_fit(n: &crate::engine::FlatNbh, weights: &[u32; 256], ctx: &Ctx) -> bool {
    if ctx.out_code == PAD_CODE {
        return false;
    }
    let max = weights[..=ctx.out_code as usize]
        .iter()
        .fold(ctx.out_weight(weights), |a, &b| a.max(b)) as u64;
    n.is_self || max * n.offsets.len() as u64 <= u8::MAX as u64
}

/// The largest `|dx|` and `|dy|` of the offsets of `n` that can land inside a `rw x rh`
/// region (the others always read outside).
fn in_reach(n: &crate::engine::FlatNbh, rw: usize, rh: usize) -> (usize, usize) {
    let (x0, x1, y0, y1) = n.bbox;
    let (kx, ky) = (
        x0.unsigned_abs().max(x1.unsigned_abs()),
        y0.unsigned_abs().max(y1.unsigned_abs()),
    );
    if (kx as usize) < rw && (ky as usize) < rh {
        return (kx as usize, ky as usize);
    }
    n.offsets
        .iter()
        .map(|&(dx, dy)| (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize))
        .filter(|&(ax, ay)| ax < rw && ay < rh)
        .fold((0, 0), |(kx, ky), (ax, ay)| (kx.max(ax), ky.max(ay)))
}

/// `any` over a mask (a block at a time, stopping at the first non-empty block).
fn any(mask: &[u8]) -> bool {
    mask.chunks(32)
        .any(|c| c.iter().fold(0u8, |a, &m| a | m) != 0)
}

/// One region pass with whole-region masks (see the module docs).
pub fn pass(ex: &Explorer, ctx: &mut Ctx) {
    let r = ctx.region;
    let (rw, rh) = (r.w as usize, r.h as usize);
    // The padding the byte counts of this pass need, and whether they need the code plane.
    let (mut kx, mut ky, mut cells) = (0usize, 0usize, false);
    if ctx.buffer {
        // Every neighbourhood count of the pass (a count not compared with a number reads the
        // plane too, through `Ctx::count_plane`; padding for it is harmless).
        for c in ex.rules.iter().flat_map(|rule| &rule.conditions) {
            for est in [&c.left, &c.right] {
                if let Estimator::Neighborhood { nbh, weights, .. } = est {
                    let n = &ctx.nbhs[*nbh];
                    if bytes_fit(n, weights, ctx) {
                        cells = true;
                        let (x, y) = in_reach(n, rw, rh);
                        (kx, ky) = (kx.max(x), ky.max(y));
                    }
                }
            }
        }
    }
    let lay = PaddedLayout::new(rw, rh, kx, ky);
    let mut s = std::mem::take(&mut ctx.layer.caches.scratch);
    if cells {
        count_planes::fill_cells(ctx.canvas, r, lay, &mut s.cells);
    }
    // A buffered pass with a code plane writes into `s.vals` (the region in the layout, long
    // contiguous stores) and copies it to the back buffer once at the end.
    let staged = cells;
    let mut wrote = false;
    // `fresh`: no rule has fired yet, every region cell is undecided.
    let mut fresh = true;
    for (i, rule) in ex.rules.iter().enumerate() {
        let mut src = if fresh { Src::Ones } else { Src::Alive };
        // Whether `s.cand` holds a cell, when a test said so on the way.
        let mut known = None;
        for c in &rule.conditions {
            keep_holding(c, ctx, lay, &mut s, (&mut src, &mut known));
        }
        let cells = match src {
            Src::Ones => Cells::All,
            Src::Alive => Cells::Mask(&s.alive),
            Src::Cand if known.unwrap_or_else(|| any(&s.cand)) => Cells::Mask(&s.cand),
            Src::RectCells(a) if !a.is_empty(rw, rh) => Cells::RectCells(a),
            Src::Cand | Src::RectCells(..) => continue,
        };
        if staged {
            let region = &s.cells[lay.origin()..lay.origin() + lay.span()];
            stage(rule, ctx.rng, lay, (region, &mut s.vals), cells, !wrote);
            wrote = true;
        } else {
            write(rule, ctx, lay, cells);
        }
        // The rule took every undecided cell, or it is the last one.
        if matches!(src, Src::Ones | Src::Alive) || i + 1 == ex.rules.len() {
            break;
        }
        materialize(&mut s, lay, &mut src);
        if fresh {
            s.alive.clear();
            s.alive.extend(s.cand.iter().map(|&m| m ^ 1));
            lay.clear_padding(&mut s.alive);
            fresh = false;
        } else {
            for (a, &m) in s.alive.iter_mut().zip(&s.cand) {
                *a &= m ^ 1;
            }
        }
        if !any(&s.alive) {
            break;
        }
    }
    if wrote {
        let (w, x0, y0) = (ctx.canvas.w, r.x as usize, r.y as usize);
        let back = &mut ctx.canvas.back;
        if lay.pitch == w && rw == w {
            back[y0 * w..y0 * w + lay.span()].copy_from_slice(&s.vals);
        } else {
            for (ly, row) in s.vals.chunks(lay.pitch).enumerate() {
                let start = (y0 + ly) * w + x0;
                back[start..start + rw].copy_from_slice(&row[..rw]);
            }
        }
    }
    ctx.layer.caches.scratch = s;
}

/// What the current rule's candidates are: every region cell, the undecided cells
/// (`alive`, not copied), `cand`, or an [`RectCells`] of a fresh rule; only `cand` is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Src {
    /// Every region cell.
    Ones,
    /// `s.alive`.
    Alive,
    /// `s.cand`.
    Cand,
    /// The cells inside (or outside) a rectangle.
    RectCells(RectCells),
}

/// The cells a rule writes.
#[derive(Clone, Copy, Debug)]
enum Cells<'a> {
    /// Every region cell.
    All,
    /// The cells inside (or outside) a rectangle.
    RectCells(RectCells),
    /// A mask in the layout.
    Mask(&'a [u8]),
}

impl Cells<'_> {
    /// The columns and rows (region coordinates) when the cells are every cell of a non-empty
    /// rectangle.
    fn rect(&self, lay: PaddedLayout) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
        match self {
            Cells::All => Some((0..lay.rw, 0..lay.rh)),
            Cells::RectCells(a) if a.inside && a.x.0 < a.x.1 && a.y.0 < a.y.1 => {
                Some((a.x.0..a.x.1, a.y.0..a.y.1))
            }
            _ => None,
        }
    }

    /// Calls `f(ly, columns, mask)` for the cells of each row, in row-major order (`mask`
    /// over those columns, `None`: all of them); skips empty runs.
    #[inline]
    fn for_each_run(
        &self,
        lay: PaddedLayout,
        mut f: impl FnMut(usize, std::ops::Range<usize>, Option<&[u8]>),
    ) {
        let (rw, p) = (lay.rw, lay.pitch);
        match self {
            Cells::All => (0..lay.rh).for_each(|ly| f(ly, 0..rw, None)),
            Cells::Mask(m) => {
                (0..lay.rh).for_each(|ly| f(ly, 0..rw, Some(&m[ly * p..ly * p + rw])))
            }
            Cells::RectCells(a) if a.inside => {
                if a.x.0 < a.x.1 {
                    (a.y.0..a.y.1).for_each(|ly| f(ly, a.x.0..a.x.1, None));
                }
            }
            Cells::RectCells(a) => {
                for ly in 0..lay.rh {
                    if (a.y.0..a.y.1).contains(&ly) {
                        if a.x.0 > 0 {
                            f(ly, 0..a.x.0, None);
                        }
                        if a.x.1 < rw {
                            f(ly, a.x.1..rw, None);
                        }
                    } else {
                        f(ly, 0..rw, None);
                    }
                }
            }
        }
    }
}

/// Builds `s.cand` from `src`, for tests that narrow it in place.
fn materialize(s: &mut PlaneScratch, lay: PaddedLayout, src: &mut Src) {
    match *src {
        Src::Ones => lay.ones(&mut s.cand),
        Src::Alive => s.cand.clone_from(&s.alive),
        Src::Cand => {}
        Src::RectCells(a) => {
            s.cand.clear();
            s.cand.resize(lay.span(), 0);
            let cand = &mut s.cand;
            Cells::RectCells(a).for_each_run(lay, |ly, cols, _| {
                cand[ly * lay.pitch + cols.start..ly * lay.pitch + cols.end].fill(1);
            });
        }
    }
    *src = Src::Cand;
}

/// Clears the candidates.
fn clear(s: &mut PlaneScratch, lay: PaddedLayout, src: &mut Src) {
    s.cand.clear();
    s.cand.resize(lay.span(), 0);
    *src = Src::Cand;
}

/// Restricts the candidates (`src`) to the cells where `c` holds.
/// `known` is set to whether the candidates hold a cell when a test learns it, to `None` when
/// a test changes them without learning it.
fn keep_holding(
    c: &crate::rule::Condition,
    ctx: &mut Ctx,
    lay: PaddedLayout,
    s: &mut PlaneScratch,
    (src, known): (&mut Src, &mut Option<bool>),
) {
    *known = None;
    let (est, op, t) = match kind(c, ctx) {
        Kind::Const(true) => return,
        Kind::Const(false) => return clear(s, lay, src),
        Kind::Draw { t, random_left } => {
            materialize(s, lay, src);
            let rng = &mut *ctx.rng;
            for m in s.cand.iter_mut() {
                if *m != 0 {
                    let v = rng.random::<f64>();
                    let (a, b) = if random_left { (v, t) } else { (t, v) };
                    *m = c.op.holds(a, b) as u8;
                }
            }
            return;
        }
        Kind::Count(est, op, t) => (est, op, t),
        Kind::General => unreachable!("whole-region passes have no per-cell conditions"),
    };
    let Estimator::Neighborhood {
        nbh, weights, slot, ..
    } = est
    else {
        unreachable!("only plane counts are Count")
    };
    let (lo, hi, negate) = match Pred::new(op, t) {
        Pred::Always(true) => return,
        Pred::Always(false) => return clear(s, lay, src),
        Pred::Range { lo, hi, negate } => (lo, hi, negate),
    };
    let keep = |v: u32| (v.wrapping_sub(lo) <= hi - lo) ^ negate;
    let n = &ctx.nbhs[*nbh];
    let out_w = ctx.out_weight(weights);
    if !ctx.buffer {
        // A same-mode pass reads only counts that depend on the region's shape: every code a
        // region cell can hold weighs the same (`weights[0]`), and no cell holds `out`.
        let (w_in, offsets) = (weights[0], &n.offsets[..]);
        match (shape::shape_of(lay, offsets, w_in, out_w, keep), *src) {
            (Shape::All, _) => {}
            (Shape::RectCells(a), Src::Ones) => *src = Src::RectCells(a),
            (Shape::RectCells(a), Src::RectCells(b)) if a.inside && b.inside => {
                *src = Src::RectCells(RectCells {
                    x: (a.x.0.max(b.x.0), a.x.1.min(b.x.1)),
                    y: (a.y.0.max(b.y.0), a.y.1.min(b.y.1)),
                    inside: true,
                });
            }
            _ => {
                materialize(s, lay, src);
                shape::test_shape(lay, offsets, w_in, out_w, keep, &mut s.cand);
            }
        }
        return;
    }
    if !bytes_fit(n, weights, ctx) {
        // Wide counts: the `u32` plane, tested row by row.
        materialize(s, lay, src);
        let r = ctx.region;
        ctx.count_plane(*slot, *nbh, weights, r.x as usize, r.y as usize, false);
        let counts = ctx.layer.caches.count_planes.kept(*slot);
        for (ly, row) in counts.chunks_exact(lay.rw).enumerate() {
            let mask = &mut s.cand[ly * lay.pitch..ly * lay.pitch + lay.rw];
            for (m, &v) in mask.iter_mut().zip(row) {
                *m &= keep(v) as u8;
            }
        }
        return;
    }
    if let Src::RectCells(..) = src {
        materialize(s, lay, src);
    }
    let mode = match *src {
        Src::Ones => Mode::Set,
        Src::Alive => Mode::From(&s.alive),
        Src::Cand | Src::RectCells(..) => Mode::And,
    };
    let cand = &mut s.cand;
    let codes = ctx.out_code as usize + 1;
    let (origin, span) = (lay.origin(), lay.span());
    if n.is_self {
        // The count is the cell's own weight: a test of its code.
        let passing = weights[..codes].iter().filter(|&&w| keep(w)).count();
        let first = |want: bool| weights[..codes].iter().position(|&w| keep(w) == want);
        let cells = s.cells[origin..origin + span].iter();
        if passing == codes {
            return;
        } else if passing == 0 {
            return clear(s, lay, src);
        } else if passing == 1 {
            let code = first(true).expect("one passes") as u8;
            *known = count_planes::combine(cand, mode, lay, cells.map(|&c| (c == code) as u8));
        } else if passing == codes - 1 {
            let code = first(false).expect("one fails") as u8;
            *known = count_planes::combine(cand, mode, lay, cells.map(|&c| (c != code) as u8));
        } else {
            let mut lut = [0u8; 256];
            for (l, &w) in lut.iter_mut().zip(&weights[..codes]) {
                *l = keep(w) as u8;
            }
            *known = count_planes::combine(cand, mode, lay, cells.map(|&c| lut[c as usize]));
        }
        *src = Src::Cand;
        return;
    }
    // Byte counts: every count fits a byte, so a range starting above 255 never holds.
    if lo > u8::MAX as u32 {
        return if negate {
        } else {
            clear(s, lay, src)
        };
    }
    let (rw, rh) = (lay.rw as u64, lay.rh as u64);
    let mut lut = [0u8; 256];
    for (l, &w) in lut.iter_mut().zip(&weights[..codes]) {
        *l = w as u8;
    }
    lut[PAD_CODE as usize] = out_w as u8;
    let mut hot = (0..codes).filter(|&c| lut[c] != 0);
    let single = match (hot.next(), hot.next()) {
        (None, _) => Some((0, 0)),
        (Some(c), None) => Some((c as u8, lut[c])),
        _ => None,
    };
    // The offsets that can land inside; the others always read outside.
    let (x0, x1, y0, y1) = n.bbox;
    let all_in = x0.unsigned_abs().max(x1.unsigned_abs()) < rw
        && y0.unsigned_abs().max(y1.unsigned_abs()) < rh;
    let mut always = 0u8;
    if !all_in {
        s.offsets.clear();
        for &(dx, dy) in &n.offsets {
            if dx.unsigned_abs() < rw && dy.unsigned_abs() < rh {
                s.offsets.push((dx, dy));
            } else {
                always = always.wrapping_add(out_w as u8);
            }
        }
    }
    let hi = hi.min(u8::MAX as u32);
    let offsets = if all_in {
        &n.offsets[..]
    } else {
        &s.offsets[..]
    };
    let bbox = if all_in {
        n.bbox
    } else {
        offsets.iter().fold((0, 0, 0, 0), |b, &(x, y)| {
            (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y))
        })
    };
    let bc = ByteCount {
        offsets,
        bbox,
        lut: &lut,
        single,
        always,
        lo: lo as u8,
        width: (hi - lo) as u8,
        neg: negate as u8,
    };
    *known = count_planes::test_count(
        &s.cells,
        lay,
        &bc,
        (cand, mode),
        &mut s.weights8,
        &mut s.rows8,
    );
    *src = Src::Cand;
}

/// Writes the rule's executers over `cells`.
fn write(rule: &Rule, ctx: &mut Ctx, lay: PaddedLayout, cells: Cells) {
    let r = ctx.region;
    let (w, x0, y0) = (ctx.canvas.w, r.x as usize, r.y as usize);
    let target = if ctx.buffer {
        &mut ctx.canvas.back
    } else {
        // Any front change invalidates the distance caches; one bump covers the pass.
        ctx.version += 1;
        &mut ctx.canvas.front
    };
    let execs = &rule.executers;
    let fixed = execs.iter().all(|e| e.choices.len() == 1);
    let value = execs.last().expect("a rule has executers").choices[0];
    // Rows as wide as the canvas are contiguous in both the mask and the map: one long store.
    if fixed && lay.pitch == w && lay.rw == w && !matches!(cells, Cells::RectCells(..)) {
        let dst = &mut target[y0 * w..y0 * w + lay.span()];
        match cells {
            Cells::Mask(mask) => count_planes::masked_store(dst, mask, value),
            _ => dst.fill(value),
        }
        return;
    }
    let rng = &mut *ctx.rng;
    let draws = Draws::new(execs);
    if let (false, Some((xs, ys))) = (fixed, cells.rect(lay)) {
        // Every cell of a rectangle: one call, with the generator's state in locals throughout.
        let first = (y0 + ys.start) * w + x0 + xs.start;
        if draws.rect(rng, &mut target[first..], w, xs.len(), ys.len()) {
            return;
        }
    }
    cells.for_each_run(lay, |ly, cols, mask| {
        let start = (y0 + ly) * w + x0;
        let dst = &mut target[start + cols.start..start + cols.end];
        match (fixed, mask) {
            (true, Some(mask)) => count_planes::masked_store(dst, mask, value),
            (true, None) => dst.fill(value),
            (false, mask) => draws.row(rng, dst, mask),
        }
    });
}

/// [`write()`] for a buffered pass with a code plane: writes into `vals` (the region's values in
/// the layout; `first`: not yet made, start from `region`, the region's codes).
fn stage(
    rule: &Rule,
    rng: &mut LevelRng,
    lay: PaddedLayout,
    (region, vals): (&[u8], &mut Vec<u8>),
    cells: Cells,
    first: bool,
) {
    let execs = &rule.executers[..];
    let fixed = execs.iter().all(|e| e.choices.len() == 1);
    let value = execs.last().expect("a rule has executers").choices[0];
    match (cells, fixed) {
        (Cells::All, true) => {
            vals.clear();
            vals.resize(region.len(), value);
            return;
        }
        (Cells::Mask(mask), true) if first => {
            // Select in one sweep: no copy first.
            vals.clear();
            let pick = |(&c, &m): (&u8, &u8)| c ^ ((c ^ value) & m.wrapping_neg());
            vals.extend(region.iter().zip(mask).map(pick));
            return;
        }
        _ => {}
    }
    if first {
        vals.clear();
        vals.extend_from_slice(region);
    }
    if let (Cells::Mask(mask), true) = (cells, fixed) {
        return count_planes::masked_store(vals, mask, value);
    }
    let p = lay.pitch;
    let draws = Draws::new(execs);
    if let (false, Some((xs, ys))) = (fixed, cells.rect(lay)) {
        let first = ys.start * p + xs.start;
        if draws.rect(rng, &mut vals[first..], p, xs.len(), ys.len()) {
            return;
        }
    }
    cells.for_each_run(lay, |ly, cols, mask| {
        let dst = &mut vals[ly * p + cols.start..ly * p + cols.end];
        match (fixed, mask) {
            (true, Some(mask)) => count_planes::masked_store(dst, mask, value),
            (true, None) => dst.fill(value),
            (false, mask) => draws.row(rng, dst, mask),
        }
    });
}
