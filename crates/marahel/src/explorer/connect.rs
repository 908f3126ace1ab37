//! `turtle_connect`: join every area of the chosen entities with corridors.
//!
//! 1. to 3. (module `tree`) Areas are the connected components of cells holding `entities`,
//!    adjacency by the `directions` offsets (made symmetric), numbered in scan order. One
//!    breadth-first search from every area at once finds each cell's nearest area (of equal
//!    distances the lowest-numbered; for the 4 and 8 unit steps the planner may run these
//!    stages its own way, `tree::Stages`, with the same plan); neighbouring cells of two
//!    areas are
//!    candidate corridors, and a minimum spanning tree of the areas by corridor length (equal
//!    lengths in a random order) says which corridors to dig: each joins the area cells
//!    nearest to the two ends of its candidate. Half of the time one more candidate adds a
//!    loop.
//! 4. A walker digs each corridor: from its first cell it steps to the neighbour closest to
//!    the corridor's end (the first such direction), and applies the rules at every cell it
//!    stands on (the idiom is `self(solid) -> self(empty)`); `percent` is the share of
//!    corridors done; `percent`/`cpercent` are only kept when a rule reads them. A faster
//!    layer may steer and dig its own way with the same cells (`pass_with`).
//!
//! Everything is bounded: each corridor is walked in at most its Manhattan length, and their
//! total length has a budget (`tree::BUDGET`, 4 steps per region cell); a corridor end the
//! directions cannot approach is left with a warning.

pub mod tour;
pub(crate) mod tree;

use super::{Limits, reads_progress, visit};
use crate::engine::Ctx;
use crate::program::Explorer;
use grid_core::Rect;
pub use tree::Corridor;

/// The Manhattan distance between two cells.
pub fn manhattan(a: (i64, i64), b: (i64, i64)) -> u64 {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// The walker's step rule: among the directions whose step stays in the region, the first
/// that gets closest (Manhattan) to the target; `None` (stuck) unless it gets strictly closer
/// than the walker is.
pub fn best_step(
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

/// One region pass, the core's: `pass_with` the core's stages and [`dig`].
pub fn pass(
    ex: &Explorer,
    entities: &[bool],
    ctx: &mut Ctx,
    lim: Limits,
    warnings: &mut Vec<String>,
) {
    let stages = &mut tree::Plain;
    pass_with(ex, entities, ctx, warnings, stages, |ctx, corridors| {
        walk(ex, corridors, ctx, lim)
    });
}

/// Stage 4 by the general walk: [`dig`] a [`best_step`] at a time.
pub fn walk(ex: &Explorer, corridors: &[Corridor], ctx: &mut Ctx, lim: Limits) -> u64 {
    let (nbhs, r) = (ctx.nbhs, ctx.region);
    let dirs = &nbhs[ex.directions].offsets;
    dig(ex, corridors, ctx, lim, |p, to| {
        let next = best_step(dirs, r, p, to);
        next.map(|(x, y)| ((x - p.0, y - p.1), 1))
    })
}

/// One region pass: stages 1 to 3 by `stages`, stage 4 by `dig(ctx, corridors)`, which
/// returns how many corridors stopped short of their end.
pub(crate) fn pass_with(
    ex: &Explorer,
    entities: &[bool],
    ctx: &mut Ctx,
    warnings: &mut Vec<String>,
    stages: &mut impl tree::Stages,
    dig: impl FnOnce(&mut Ctx, &[Corridor]) -> u64,
) {
    let adj = symmetric(&ctx.nbhs[ex.directions].offsets);
    let view = tree::View {
        cells: &ctx.canvas.front,
        w: ctx.canvas.w,
        r: ctx.region,
    };
    let plan = tree::plan(stages, &adj, entities, view, ctx.rng);
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
    let stuck = dig(ctx, &plan.corridors);
    warn_stuck(ex, stuck, warnings);
}

/// Stage 4, the general walk: digs the `corridors` in order, running the rules at every cell
/// the walker stands on, until `changes` firings; returns how many corridors stopped short of
/// their end. `next(p, to)` is [`best_step`] from `p` towards `to`, as the step and how many
/// cells in a row it holds (at least 1; `None`: stuck).
pub fn dig(
    ex: &Explorer,
    corridors: &[Corridor],
    ctx: &mut Ctx,
    lim: Limits,
    mut next: impl FnMut((i64, i64), (i64, i64)) -> Option<((i64, i64), u64)>,
) -> u64 {
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
            let Some((d, k)) = next((x, y), to) else {
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
pub(crate) fn warn_stuck(ex: &Explorer, stuck: u64, warnings: &mut Vec<String>) {
    if stuck > 0 {
        warnings.push(format!(
            "{}: connect could not reach the end of {stuck} corridor(s) with its directions",
            ex.path
        ));
    }
}
