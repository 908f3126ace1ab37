//! `turtle_connect`: join every area of the chosen entities with corridors.
//!
//! 1. to 3. (module `tree`) Areas are the connected components of cells holding `entities`,
//!    adjacency by the `directions` offsets (made symmetric), numbered in scan order. One
//!    breadth-first search from every area at once finds each cell's nearest area (of equal
//!    distances the lowest-numbered; for the 4 and 8 unit steps the planner may run these
//!    stages as raster passes instead, [`crate::accel::connect_tree`], the same plan);
//!    neighbouring cells of two areas are
//!    candidate corridors, and a minimum spanning tree of the areas by corridor length (equal
//!    lengths in a random order) says which corridors to dig: each joins the area cells
//!    nearest to the two ends of its candidate. Half of the time one more candidate adds a
//!    loop.
//! 4. A walker digs each corridor: from its first cell it steps to the neighbour closest to
//!    the corridor's end (the first such direction), and applies the rules at every cell it
//!    stands on (the idiom is `self(solid) -> self(empty)`); `percent` is the share of
//!    corridors done. The choice is tabulated by the offset to the end, clamped just beyond
//!    the longest step (past it only the offset's signs matter; the table is kept per thread
//!    for the next pass with the same directions), and is then taken as a straight run for as
//!    long as the clamped offset and the region allow; `percent`/`cpercent` are only kept
//!    when a rule reads them. Rules that only read and write the visited cell (the idiom) are
//!    a table from the cell's code to the value written, and in a plain pass the walk visits a
//!    cell with a table read and a store (without branches on whether a rule fires), and with
//!    unit steps only (the usual `plus`) takes each corridor as at most two straight runs in
//!    closed form ([`crate::accel::connect_walk`], chosen by the planner as
//!    [`Strategy::ConnectWalk`]).
//!
//! Everything is bounded: each corridor is walked in at most its Manhattan length, and their
//! total length has a budget (`tree::BUDGET`, 4 steps per region cell); a corridor end the
//! directions cannot approach is left with a warning.

pub(crate) mod tree;

use super::{Limits, reads_progress, visit};
use crate::accel::Strategy;
use crate::accel::connect_tree;
use crate::accel::connect_walk::{self as walk, CellRules};
use crate::engine::Ctx;
use crate::program::Explorer;
use grid_core::Rect;
use std::cell::Cell;
pub use tree::Corridor;

/// The Manhattan distance between two cells.
pub fn manhattan(a: (i64, i64), b: (i64, i64)) -> u64 {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// The walker's step rule: among the directions whose step stays in the region, the first
/// that gets closest (Manhattan) to the target; `None` (stuck) unless it gets strictly closer
/// than the walker is.
fn best_step(
    dirs: &[(i64, i64)],
    r: Rect,
    (x, y): (i64, i64),
    t: (i64, i64),
) -> Option<(i64, i64)> {
    let here = (t.0 - x).abs() + (t.1 - y).abs();
    let mut best = (x, y);
    let mut bd = here;
    for &(dx, dy) in dirs {
        let (nx, ny) = (x + dx, y + dy);
        if nx < r.x || ny < r.y || nx >= r.x + r.w || ny >= r.y + r.h {
            continue;
        }
        let d = (t.0 - nx).abs() + (t.1 - ny).abs();
        if d < bd {
            best = (nx, ny);
            bd = d;
        }
    }
    (bd < here).then_some(best)
}

/// `best_step` tabulated by the offset to the target, ignoring the region.
///
/// Once `|t.0 - x|` exceeds every step's `|dx|`, each step's distance is the walker's minus
/// `sign(t.0 - x) * dx` on that axis: the choice depends only on the sign, so the offset is
/// clamped to `±(mx + 1)` (likewise for y) and the table is small. The choice of all
/// directions, when it stays in the region, is also the choice among the directions that
/// stay in the region (it is the first closest of a superset); otherwise `best_step` runs.
#[derive(Debug)]
pub struct Steer {
    /// The directions (the table depends on nothing else).
    dirs: Vec<(i64, i64)>,
    /// Clamp bounds `mx + 1`, `my + 1`.
    cx: i64,
    cy: i64,
    /// Direction index per clamped offset, [`Steer::STUCK`] when none gets closer,
    /// [`Steer::UNKNOWN`] until first needed; empty for direction sets with very long steps
    /// (then every step runs `best_step`).
    table: Vec<u8>,
}

impl Steer {
    const STUCK: u8 = u8::MAX;
    /// A table entry not computed yet (a walk meets few offsets).
    const UNKNOWN: u8 = u8::MAX - 1;

    /// The table entry for the clamped offset `(tx, ty)`.
    fn entry(dirs: &[(i64, i64)], tx: i64, ty: i64) -> u8 {
        let mut best = (Steer::STUCK, tx.abs() + ty.abs());
        for (i, &(dx, dy)) in dirs.iter().enumerate() {
            let d = (tx - dx).abs() + (ty - dy).abs();
            if d < best.1 {
                best = (i as u8, d);
            }
        }
        best.0
    }

    fn new(dirs: &[(i64, i64)]) -> Steer {
        let reach = |f: fn(&(i64, i64)) -> i64| {
            dirs.iter()
                .map(|d| f(d).unsigned_abs().min(64))
                .max()
                .unwrap_or(0) as i64
                + 1
        };
        let (cx, cy) = (reach(|d| d.0), reach(|d| d.1));
        let table = if dirs.len() < Steer::UNKNOWN as usize && cx <= 32 && cy <= 32 {
            vec![Steer::UNKNOWN; ((2 * cx + 1) * (2 * cy + 1)) as usize]
        } else {
            Vec::new()
        };
        Steer {
            dirs: dirs.to_vec(),
            cx,
            cy,
            table,
        }
    }

    /// `best_step` from `p` towards `t`, as the step `(dx, dy)` and how many times in a row
    /// the walker takes it (at least 1): while the clamped offset to `t` stays the same and
    /// the walker stays in the region, the choice cannot change (and `t` is not reached: the
    /// offset is not zero).
    #[inline(always)]
    pub fn step(
        &mut self,
        dirs: &[(i64, i64)],
        r: Rect,
        p: (i64, i64),
        t: (i64, i64),
    ) -> Option<((i64, i64), u64)> {
        let single = |q: Option<(i64, i64)>| q.map(|(nx, ny)| ((nx - p.0, ny - p.1), 1));
        if self.table.is_empty() {
            return single(best_step(dirs, r, p, t));
        }
        let (ox, oy) = (t.0 - p.0, t.1 - p.1);
        let (tx, ty) = (ox.clamp(-self.cx, self.cx), oy.clamp(-self.cy, self.cy));
        let slot = ((ty + self.cy) * (2 * self.cx + 1) + tx + self.cx) as usize;
        let mut i = self.table[slot];
        if i == Steer::UNKNOWN {
            i = Steer::entry(dirs, tx, ty);
            self.table[slot] = i;
        }
        if i == Steer::STUCK {
            return None;
        }
        let (dx, dy) = dirs[i as usize];
        let (nx, ny) = (p.0 + dx, p.1 + dy);
        if nx < r.x || ny < r.y || nx >= r.x + r.w || ny >= r.y + r.h {
            return single(best_step(dirs, r, p, t));
        }
        // Steps along one axis: offset `o` (clamped at `c`), step `d`, position `at` within
        // `lo..=hi`.
        // `a / b` for `a >= 0`, `b >= 1`, without a division for the usual unit step.
        let div = |a: i64, b: i64| if b == 1 { a } else { a / b };
        let run = |o: i64, c: i64, d: i64, at: i64, lo: i64, hi: i64| {
            let keep = match d {
                0 => i64::MAX,
                _ if o.abs() < c => 1,
                // Moving away from the target (or along) keeps the offset clamped.
                _ if (o > 0) != (d > 0) => i64::MAX,
                _ => div(o.abs() - c, d.abs()) + 1,
            };
            let room = match d {
                0 => i64::MAX,
                _ if d > 0 => div(hi - at, d),
                _ => div(at - lo, -d),
            };
            keep.min(room)
        };
        let k = run(ox, self.cx, dx, p.0, r.x, r.x + r.w - 1).min(run(
            oy,
            self.cy,
            dy,
            p.1,
            r.y,
            r.y + r.h - 1,
        ));
        Some(((dx, dy), k as u64))
    }
}

thread_local! {
    /// The step table of the last walk on this thread.
    static STEERS: Cell<Option<Steer>> = const { Cell::new(None) };
}

/// The offsets `dirs` made symmetric: each and its opposite, once, in order (no `(0, 0)`).
pub fn symmetric(dirs: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut adj: Vec<(i64, i64)> = Vec::with_capacity(2 * dirs.len());
    for &(dx, dy) in dirs {
        for o in [(dx, dy), (-dx, -dy)] {
            if o != (0, 0) && !adj.contains(&o) {
                adj.push(o);
            }
        }
    }
    adj
}

/// One region pass (stages 1 to 3 by the raster passes of [`connect_tree`] when the planner's
/// [`connect_tree::choose`] allows); `strategy` [`Strategy::ConnectWalk`] digs with the table walk.
pub fn pass(
    ex: &Explorer,
    entities: &[bool],
    ctx: &mut Ctx,
    lim: Limits,
    strategy: Strategy,
    warnings: &mut Vec<String>,
) {
    let r = ctx.region;
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let adj = symmetric(dirs);
    let raster = connect_tree::choose(&ctx.planning.accel, &adj);
    let view = tree::View {
        cells: &ctx.canvas.front,
        w: ctx.canvas.w,
        r,
    };
    let plan = tree::plan(&adj, entities, view, ctx.rng, raster);
    if plan.dropped > 0 {
        warnings.push(format!(
            "{}: connect dug {} of {} corridors ({} steps per region cell)",
            ex.path,
            plan.corridors.len(),
            plan.corridors.len() + plan.dropped,
            tree::BUDGET
        ));
    }
    if plan.corridors.is_empty() {
        return;
    }
    // The step table of the last pass on this thread, if it has the same directions.
    let mut steer = match STEERS.take() {
        Some(steer) if steer.dirs == *dirs => steer,
        _ => Steer::new(dirs),
    };
    let rules = (strategy == Strategy::ConnectWalk)
        .then(|| CellRules::new(ex, nbhs))
        .flatten();
    let stuck = match rules {
        Some(mut rules) => walk::walk(&mut rules, &plan.corridors, &mut steer, dirs, r, ctx, lim),
        None => dig(ex, &plan.corridors, &mut steer, ctx, lim),
    };
    STEERS.set(Some(steer));
    warn_stuck(ex, stuck, warnings);
}

/// Whether the table walk ([`walk::walk`]) can dig for `ex` in this pass: rules of the
/// cell alone, compiled, in a plain pass (the front buffer, no counts, no live planes, no
/// live `dist` tracking).
pub fn walk_fits(ex: &Explorer, ctx: &Ctx) -> bool {
    ex.kernel.is_some()
        && !ctx.buffer
        && !ctx.track_counts
        && !ctx.caches.watching()
        && CellRules::new(ex, ctx.nbhs).is_some()
}

/// Stage 4, the general walk: digs the `corridors` in order, running the rules at every cell
/// the walker stands on, until `changes` firings; returns how many corridors stopped short of
/// their end.
fn dig(
    ex: &Explorer,
    corridors: &[Corridor],
    steer: &mut Steer,
    ctx: &mut Ctx,
    lim: Limits,
) -> u64 {
    let r = ctx.region;
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let progress = reads_progress(ex);
    let total = corridors.len() as f64;
    let (mut changed, mut stuck) = (0, 0);
    'dig: for (n, &((mut x, mut y), to)) in corridors.iter().enumerate() {
        // The current straight run: its step and the steps left after the one taken.
        let (mut step, mut left) = ((0, 0), 0);
        // One visit per cell of the corridor: every step gets closer to its end.
        for _ in 0..=manhattan((x, y), to) {
            if progress {
                ctx.percent = n as f64 / total;
                ctx.cpercent = changed as f64 / lim.changes as f64;
            }
            if visit(ex, ctx, x as usize, y as usize) {
                changed += 1;
                if changed >= lim.changes {
                    break 'dig;
                }
            }
            if left > 0 {
                // Inside a straight run: the end is not here and the step is the same.
                (x, y) = (x + step.0, y + step.1);
                left -= 1;
                continue;
            }
            if (x, y) == to {
                break;
            }
            let Some((d, k)) = steer.step(dirs, r, (x, y), to) else {
                stuck += 1;
                break;
            };
            (x, y) = (x + d.0, y + d.1);
            (step, left) = (d, k - 1);
        }
    }
    stuck
}

/// The warning for `stuck` skipped waypoints, if any.
fn warn_stuck(ex: &Explorer, stuck: u64, warnings: &mut Vec<String>) {
    if stuck > 0 {
        warnings.push(format!(
            "{}: connect could not reach the end of {stuck} corridor(s) with its directions",
            ex.path
        ));
    }
}
