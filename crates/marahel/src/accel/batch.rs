//! Batched execution of full narrow scans whose result does not depend on the order in which
//! cells are visited: every cell is visited once, executers write only the visited cell
//! (`self`), and rules read the map only when the pass is buffered (the front buffer is then
//! frozen) or through counts that depend only on the region's shape. Such a pass is a pure
//! per-cell function, so it runs one rule and one condition at a time over many cells.
//!
//! The planner ([`crate::accel::plan`]) picks one of two forms:
//!
//! - the whole region at once ([`whole`]) when the pass has at most one source of random draws
//!   (one `random` condition, or one rule whose executers draw) and every condition is a
//!   constant comparison, a neighbourhood count against a number, or `random` against a
//!   number: the draws then come out in row-major order, as in the row form;
//! - otherwise row by row (`rows`), with one `match` per row instead of one per cell: random
//!   draws are made row by row, in column order, only for the cells that reach that estimator,
//!   then the rule's executers draw for its cells in column order.

mod draws;
pub mod whole;

use super::pred::Pred;
use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::program::Explorer;
use crate::rule::{Condition, Op};
use grid_core::below;
use grid_core::rand::RngExt;

/// Values of `est` at `(xs[i], y)`.
fn eval_row(est: &Estimator, ctx: &mut Ctx, y: usize, xs: &[u32], out: &mut Vec<f64>) {
    out.clear();
    match est {
        Estimator::Number(v) => out.resize(xs.len(), *v),
        Estimator::Random => out.extend(xs.iter().map(|_| ctx.rng.random::<f64>())),
        Estimator::Neighborhood {
            nbh,
            weights,
            slot,
            uniform,
        } if (ctx.buffer || *uniform) && !xs.is_empty() => {
            // Fill the cache for this region (frozen front buffer, or a count that depends
            // only on the region's shape), then read it directly.
            ctx.count_plane(*slot, *nbh, weights, xs[0] as usize, y, !ctx.buffer);
            let r = ctx.region;
            let plane = ctx.layer.caches.count_planes.kept(*slot);
            let row = (y - r.y as usize) * r.w as usize;
            let x0 = r.x as usize;
            out.extend(xs.iter().map(|&x| plane[row + x as usize - x0] as f64));
        }
        _ => {
            for &x in xs {
                let v = est.eval(ctx, x as usize, y);
                out.push(v);
            }
        }
    }
}

/// Whether `est` is a neighbourhood count read from the whole-region plane in this pass.
fn plane_slot(est: &Estimator, ctx: &Ctx) -> Option<usize> {
    match est {
        Estimator::Neighborhood { slot, uniform, .. } if ctx.buffer || *uniform => Some(*slot),
        _ => None,
    }
}

/// What a condition compares, decided without filling any plane.
#[derive(Clone, Copy, Debug)]
enum Kind<'a> {
    /// A comparison of constants.
    Const(bool),
    /// A plane count (this neighbourhood estimator) `op` a number.
    Count(&'a Estimator, Op, f64),
    /// `random` against a number (`t`), the draw on the left or the right.
    Draw { t: f64, random_left: bool },
    /// Anything else: evaluated per candidate cell.
    General,
}

/// A constant side of a condition.
fn number(e: &Estimator, ctx: &Ctx) -> Option<f64> {
    match e {
        Estimator::Number(v) => Some(*v),
        Estimator::RPercent => Some(ctx.rpercent),
        _ => None,
    }
}

/// What condition `c` compares in this pass.
fn kind<'a>(c: &'a Condition, ctx: &Ctx) -> Kind<'a> {
    let (l, r) = (&c.left, &c.right);
    match (number(l, ctx), number(r, ctx)) {
        (Some(a), Some(b)) => return Kind::Const(c.op.holds(a, b)),
        (None, Some(t)) if plane_slot(l, ctx).is_some() => return Kind::Count(l, c.op, t),
        (Some(t), None) if plane_slot(r, ctx).is_some() => return Kind::Count(r, c.op.flip(), t),
        _ => {}
    }
    match (l, r) {
        (Estimator::Random, _) => number(r, ctx).map(|t| Kind::Draw {
            t,
            random_left: true,
        }),
        (_, Estimator::Random) => number(l, ctx).map(|t| Kind::Draw {
            t,
            random_left: false,
        }),
        _ => None,
    }
    .unwrap_or(Kind::General)
}

/// How one condition narrows the candidate mask of a row, decided once per pass.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// A comparison of constants.
    Always(bool),
    /// A plane count (cache slot) against a number, as an integer range test.
    Range {
        slot: usize,
        lo: u32,
        hi: u32,
        negate: bool,
    },
    /// `random` against a number (`t`), the draw on the left or the right.
    Draw { t: f64, random_left: bool },
    /// Anything else: evaluated per candidate cell.
    General,
}

/// Plans condition `c` for a row-at-a-time pass; fills the plane it reads (frozen front
/// buffer, or a count that depends only on the region's shape, so filling it now is the same
/// as later).
fn plan(c: &Condition, ctx: &mut Ctx) -> Plan {
    match kind(c, ctx) {
        Kind::Const(b) => Plan::Always(b),
        Kind::Count(est, op, t) => {
            let Estimator::Neighborhood {
                nbh, weights, slot, ..
            } = est
            else {
                unreachable!("only plane counts are Count")
            };
            match Pred::new(op, t) {
                Pred::Always(b) => Plan::Always(b),
                Pred::Range { lo, hi, negate } => {
                    let reg = ctx.region;
                    let invariant = !ctx.buffer;
                    ctx.count_plane(
                        *slot,
                        *nbh,
                        weights,
                        reg.x as usize,
                        reg.y as usize,
                        invariant,
                    );
                    Plan::Range {
                        slot: *slot,
                        lo,
                        hi,
                        negate,
                    }
                }
            }
        }
        Kind::Draw { t, random_left } => Plan::Draw { t, random_left },
        Kind::General => Plan::General,
    }
}

/// Keeps (in `cand`, one byte per column of the region row `y`) the cells where condition `c`
/// (planned as `plan`) holds. A plane count against a number is an integer range test over
/// the whole row; a random draw is made for each candidate cell in column order; anything
/// else is evaluated per candidate cell, left side for all of them, then right side.
#[allow(clippy::too_many_arguments)]
fn keep_where(
    c: &Condition,
    plan: Plan,
    ctx: &mut Ctx,
    (y, first): (usize, usize),
    cand: &mut [u8],
    xs: &mut Vec<u32>,
    left: &mut Vec<f64>,
    right: &mut Vec<f64>,
) {
    match plan {
        Plan::Always(true) => return,
        Plan::Always(false) => {
            cand.iter_mut().for_each(|m| *m = 0);
            return;
        }
        Plan::Range {
            slot,
            lo,
            hi,
            negate,
        } => {
            let plane = ctx.layer.caches.count_planes.kept(slot);
            let neg = negate as u8;
            let n = cand.len();
            // `lo <= v <= hi` as one unsigned compare (`Pred::new` makes `lo <= hi`).
            let width = hi.wrapping_sub(lo);
            for (m, &v) in cand.iter_mut().zip(&plane[first..first + n]) {
                *m &= (v.wrapping_sub(lo) <= width) as u8 ^ neg;
            }
            return;
        }
        Plan::Draw { t, random_left } => {
            let rng = &mut *ctx.rng;
            for m in cand.iter_mut() {
                if *m != 0 {
                    let v = rng.random::<f64>();
                    let (a, b) = if random_left { (v, t) } else { (t, v) };
                    *m = c.op.holds(a, b) as u8;
                }
            }
            return;
        }
        Plan::General => {}
    }
    let (l, r) = (&c.left, &c.right);
    let x0 = ctx.region.x as u32;
    xs.clear();
    xs.extend(
        cand.iter()
            .enumerate()
            .filter(|(_, m)| **m != 0)
            .map(|(i, _)| x0 + i as u32),
    );
    if xs.is_empty() {
        return;
    }
    eval_row(l, ctx, y, xs, left);
    eval_row(r, ctx, y, xs, right);
    for ((&x, &a), &b) in xs.iter().zip(left.iter()).zip(right.iter()) {
        cand[(x - x0) as usize] = c.op.holds(a, b) as u8;
    }
}

/// Whether the pass can run over the whole region at once ([`whole`]): with at most one
/// source of random draws (one `random` condition, or one rule whose executers draw), no
/// condition evaluated per cell and no entity counts kept, the draws come out in the same
/// row-major order whether the region is processed a row at a time or all at once.
pub fn whole_fits(ex: &Explorer, ctx: &Ctx) -> bool {
    let mut sources = 0;
    for rule in &ex.rules {
        sources += rule.executers.iter().any(|e| e.choices.len() > 1) as usize;
        for c in &rule.conditions {
            match kind(c, ctx) {
                Kind::Draw { .. } => sources += 1,
                Kind::General => return false,
                _ => {}
            }
        }
    }
    sources <= 1 && !ctx.track_counts
}

/// One region pass, row by row: per row, each rule narrows a byte mask of the still
/// undecided cells condition by condition, then writes the cells left in it.
pub fn rows(ex: &Explorer, ctx: &mut Ctx) {
    let r = ctx.region;
    let (rw, rh) = (r.w as usize, r.h as usize);
    // A rule whose executers all write one fixed value (the last one wins) needs no draws.
    let fixed: Vec<Option<u8>> = ex
        .rules
        .iter()
        .map(|rule| {
            rule.executers
                .iter()
                .all(|e| e.choices.len() == 1)
                .then(|| rule.executers.last().expect("a rule has executers").choices[0])
        })
        .collect();
    let plans: Vec<Vec<Plan>> = ex
        .rules
        .iter()
        .map(|rule| rule.conditions.iter().map(|c| plan(c, ctx)).collect())
        .collect();
    let mut alive = vec![1u8; rw];
    let mut cand = vec![0u8; rw];
    let mut xs: Vec<u32> = Vec::with_capacity(rw);
    let (mut left, mut right) = (Vec::new(), Vec::new());
    let w = ctx.canvas.w;
    for k in 0..rh {
        let y = r.y as usize + k;
        let first = k * rw;
        alive.iter_mut().for_each(|m| *m = 1);
        for ((rule, fixed), plans) in ex.rules.iter().zip(&fixed).zip(&plans) {
            cand.copy_from_slice(&alive);
            for (c, &p) in rule.conditions.iter().zip(plans) {
                let at = (y, first);
                keep_where(c, p, ctx, at, &mut cand, &mut xs, &mut left, &mut right);
            }
            if cand.iter().fold(0u8, |a, &m| a | m) == 0 {
                continue;
            }
            match fixed {
                Some(value) if !ctx.track_counts => {
                    // Fixed value, nothing to keep counted: plain masked stores.
                    let target = if ctx.buffer {
                        &mut ctx.canvas.back
                    } else {
                        ctx.version += 1;
                        &mut ctx.canvas.front
                    };
                    let start = y * w + r.x as usize;
                    for (t, &m) in target[start..start + rw].iter_mut().zip(&cand) {
                        *t ^= (*t ^ *value) & m.wrapping_neg();
                    }
                }
                _ => {
                    let start = y * w + r.x as usize;
                    for (i, &m) in cand.iter().enumerate() {
                        if m == 0 {
                            continue;
                        }
                        for e in &rule.executers {
                            let value = if e.choices.len() == 1 {
                                e.choices[0]
                            } else {
                                e.choices[below(ctx.rng, e.choices.len())]
                            };
                            ctx.set(start + i, value);
                        }
                    }
                }
            }
            for (a, &m) in alive.iter_mut().zip(&cand) {
                *a &= m ^ 1;
            }
            if alive.iter().fold(0u8, |a, &m| a | m) == 0 {
                break;
            }
        }
    }
}
