//! The digger proper's loop: `random test -> self(a)` then `-> all(b)`, with no `self`
//! test (or one that holds for every cell the walk can visit), so that a visit never reads
//! the map and always fires one rule. Away from the region's edge a visit makes no branch
//! on its draw: the square's three row stores go to a scratch sink as long as the square's
//! rows when the first rule fires (the rows' slice is chosen by a conditional move), and
//! the centre gets the firing rule's value, which makes the same writes as the compiled
//! rules. Along the edge the visit branches on the draw and writes the square's cells in
//! the region.
//!
//! The walker's row is not kept: its index `j` in the region's rows (from the region's top
//! row's first cell) says it, given its column `x` in the region.

use super::{At, CellTest, MAX_DIRS, Span, StepRegion, Table};
use crate::engine::{Ctx, FlatNbh};
use crate::explorer::Limits;
use grid_core::rand::{Rng, RngExt};
use grid_core::{LevelRng, below};
use std::hint::select_unpredictable;

/// The digger's walk (the module's docs): its first rule writes `a` when `draw` holds for
/// the visit's draw, else its second writes the 3x3 square of `b`.
#[inline(never)]
pub(super) fn dig(
    dirs: &FlatNbh,
    dirprob: f64,
    ctx: &mut Ctx,
    lim: Limits,
    draw: Span,
    a: u8,
    b: u8,
) {
    let mut rng = ctx.rng.clone();
    let Start {
        n,
        mx,
        md,
        mut k,
        at,
        area,
        turn,
        ..
    } = start(dirs, dirprob, ctx, &mut rng);
    let w = area.w;
    let first = ctx.region.y as usize * w;
    let rows = area.rh as usize * w;
    let front = &mut ctx.canvas.front[first..first + rows];
    // `j` is below `rows` just when the walker's row is in the region, given its column is.
    let inside = |x: i64, j: usize| (x as u64) < area.rw && j < rows;
    // Away from the edge: `1 <= x <= rw - 2` and `w <= j < rows - w`.
    let inner_x = area.rw.saturating_sub(2);
    let inner_rows = rows.saturating_sub(2 * w);
    let (mut x, mut j) = (at.x, at.i - first);
    // The sink (on the stack for maps up to 128 wide).
    // (Checked, so that the compiler knows that the rows fit in `span`.)
    let span = w
        .checked_mul(2)
        .and_then(|s| s.checked_add(3))
        .expect("width");
    let (mut small, mut large) = ([0u8; 259], Vec::new());
    let sink = match small.get_mut(..span) {
        Some(s) => s,
        None => {
            large.resize(span, 0);
            &mut large[..]
        }
    };
    // (What the compiler then needs not check in the loop.)
    assert!(w + 1 < span && w + 3 <= span);
    let bbb = [b; 3];
    // Every visit fires: the walk ends at the visits' or the firings' limit.
    let visits = lim.tiles.min(lim.changes);
    for _ in 0..visits {
        let fires = draw.holds(rng.next_u64());
        if ((x - 1) as u64) < inner_x && j.wrapping_sub(w) < inner_rows {
            // The square's rows, from its top left cell (the centre is `w + 1`).
            let top = j - w - 1;
            let square = &mut front[top..top + span];
            // (Before the rows: when they are written, the centre gets `b` either way.)
            square[w + 1] = select_unpredictable(fires, a, b);
            let rows = select_unpredictable(fires, &mut sink[..span], square);
            rows[..3].copy_from_slice(&bbb);
            rows[w..w + 3].copy_from_slice(&bbb);
            rows[span - 3..].copy_from_slice(&bbb);
        } else if fires {
            front[j] = a;
        } else {
            // The row above or below the region is replaced with the centre's (written
            // anyway), and each row's cells from `r - left` to `r + right` lie in it.
            let left = usize::from(x > 0);
            let right = usize::from(((x + 1) as u64) < area.rw);
            let up = usize::from(j >= w) * w;
            let down = usize::from(j + w < rows) * w;
            for r in [j - up, j, j + down] {
                front[r - left] = b;
                front[r] = b;
                front[r + right] = b;
            }
        }
        let turning = rng.next_u64() < turn;
        let (mut nx, mut nj) = (x + mx[k], j.wrapping_add_signed(md[k]));
        let mut ok = inside(nx, nj);
        if turning || !ok {
            k = below(&mut rng, n) & (MAX_DIRS - 1);
            (nx, nj) = (x + mx[k], j.wrapping_add_signed(md[k]));
            ok = inside(nx, nj);
        }
        if ok {
            (x, j) = (nx, nj);
        }
    }
    // Only caches read the version, and only as "unchanged since": one bump per firing
    // covers every change.
    ctx.version += visits;
    *ctx.rng = rng;
}

/// Whether `test` holds for every cell the walk can visit: for the values it writes, and
/// for the cells of the region's rows, which hold no code that fails it (looked for when
/// only one code a cell can hold fails it, e.g. `out` for `self(any)`).
pub(super) fn passes_all(test: &Table, ctx: &Ctx, writes: [u8; 2]) -> bool {
    let mut fails = (0..=ctx.out_code).filter(|&c| !test.holds(c));
    let (Some(fail), None) = (fails.next(), fails.next()) else {
        return false;
    };
    let (r, w) = (ctx.region, ctx.canvas.w);
    let rows = &ctx.canvas.front[r.y as usize * w..(r.y + r.h) as usize * w];
    // (A fold without an early exit, which the compiler vectorizes.)
    writes.iter().all(|&v| test.holds(v)) && !rows.iter().fold(false, |f, &c| f | (c == fail))
}

/// Where a walk starts, and what its steps need: each direction's dx and flat delta,
/// indexed by `k & (MAX_DIRS - 1)` (which is `k`), the direction's index `k`, the cell,
/// the region and the turn threshold over the whole draw.
struct Start {
    n: usize,
    mx: [i64; MAX_DIRS],
    md: [isize; MAX_DIRS],
    k: usize,
    at: At,
    area: StepRegion,
    /// `random < dirprob` is `x < turn` for the draw `x`.
    turn: u64,
}

/// The walk's first draws (a direction, then the cell's x and y), as
/// [`super::super::drunk`] and [`super::walk`] make them, from `rng` (a copy of the
/// context's).
///
/// [`super::walk`] repeats these lines in its own prologue on purpose: sharing them (this
/// function, or only the turn threshold) changed the register allocation of the loops that
/// follow, measured at 0.85 to 3.5 more instructions per step (callgrind over 100 maps of
/// paper_digger and the older loops' stress scripts).
#[inline(always)]
fn start(dirs: &FlatNbh, dirprob: f64, ctx: &Ctx, rng: &mut LevelRng) -> Start {
    let n = dirs.offsets.len();
    assert!((1..=MAX_DIRS).contains(&n), "{n} directions");
    let (mut mx, mut md) = ([0i64; MAX_DIRS], [0isize; MAX_DIRS]);
    for (k, (&(dx, _), &d)) in dirs.offsets.iter().zip(&dirs.flat).enumerate() {
        (mx[k], md[k]) = (dx, d);
    }
    let k = below(rng, n) & (MAX_DIRS - 1);
    let r = ctx.region;
    let (x, y) = (rng.random_range(0..r.w), rng.random_range(0..r.h));
    let area = StepRegion {
        w: ctx.canvas.w,
        rw: r.w as u64,
        rh: r.h as u64,
    };
    let at = At {
        x,
        y,
        i: (r.y + y) as usize * area.w + (r.x + x) as usize,
    };
    // `random < dirprob` is `bits < dirprob * 2^53` (exact), so `bits < turn`.
    let scaled = dirprob * (1u64 << 53) as f64;
    let turn = if scaled > 0.0 {
        scaled.ceil().min((1u64 << 53) as f64) as u64
    } else {
        0
    };
    // With `turn < 2^53` (`dirprob < 1`), `bits < turn` is `x < turn << 11` over the whole
    // draw `x`.
    assert!(turn < 1 << 53, "dirprob {dirprob}");
    Start {
        n,
        mx,
        md,
        k,
        at,
        area,
        turn: turn << 11,
    }
}
