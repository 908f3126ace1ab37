//! Turtle explorers: `turtle_drunk` (a digger that keeps a direction and changes it at
//! random) and `turtle_heur` (a greedy walker moving to the neighbour with the smallest
//! heuristics). Both stop after `tiles` steps or `changes` firings.
//!
//! A faster layer behind [`crate::hook`] may run a drunk walker its own way, with the same
//! draws and writes.
//!
//! The greedy walker evaluates every heuristic at every neighbour, in order (so `random`
//! draws as the reference does); `noise` heuristics, which depend only on the cell, are kept
//! for the pass.

use super::{Limits, set_progress, visit};
use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::program::Explorer;
use grid_core::below;
use grid_core::rand::RngExt;
use std::cmp::Ordering;

fn start(ctx: &mut Ctx) -> (i64, i64) {
    let r = ctx.region;
    let x = r.x + ctx.rng.random_range(0..r.w);
    let y = r.y + ctx.rng.random_range(0..r.h);
    (x, y)
}

/// `turtle_drunk`: from a random direction and a random cell, visit, then turn with
/// probability `dirprob` (or when the next cell is outside the region) and step.
pub fn drunk(ex: &Explorer, dirprob: f64, ctx: &mut Ctx, lim: Limits) {
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let mut dir = dirs[below(ctx.rng, dirs.len())];
    let from = start(ctx);
    walk(ex, ctx, lim, from, |ctx, (x, y)| {
        let turn = ctx.rng.random::<f64>() < dirprob;
        if turn || ctx.wrapped(x + dir.0, y + dir.1).is_none() {
            dir = dirs[below(ctx.rng, dirs.len())];
        }
        ctx.wrapped(x + dir.0, y + dir.1).unwrap_or((x, y))
    });
}

/// The loop every walker shares: from `from`, up to `lim.tiles` steps or until `lim.changes`
/// rules have fired, apply the rules where the walker stands, then move it with `step`.
fn walk(
    ex: &Explorer,
    ctx: &mut Ctx,
    lim: Limits,
    from: (i64, i64),
    mut step: impl FnMut(&mut Ctx, (i64, i64)) -> (i64, i64),
) {
    let (mut at, mut changed) = (from, 0);
    for visited in 0..lim.tiles {
        if changed >= lim.changes {
            break;
        }
        set_progress(ex, ctx, visited, lim.tiles, changed, lim.changes);
        if visit(ex, ctx, at.0 as usize, at.1 as usize) {
            changed += 1;
        }
        at = step(ctx, at);
    }
}

/// Lexicographic comparison of heuristic keys.
pub fn cmp_keys(a: &[f64], b: &[f64]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.total_cmp(y))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// `turtle_heur`.
pub fn greedy(ex: &Explorer, heuristics: &[Estimator], ctx: &mut Ctx, lim: Limits) {
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let from = start(ctx);
    let mut best = vec![0.0; heuristics.len()];
    let mut key = vec![0.0; heuristics.len()];
    // A `noise` heuristic depends only on the cell (and draws nothing): its values are kept
    // for the pass (NaN: not yet evaluated), as the walker keeps evaluating the same cells.
    let nh = heuristics.len();
    let noisy = |h: &Estimator| matches!(h, Estimator::Noise { .. });
    let r = ctx.region;
    let mut memo = match heuristics.iter().any(noisy) {
        true => vec![f64::NAN; r.area() as usize * nh],
        false => Vec::new(),
    };
    walk(ex, ctx, lim, from, |ctx, (x, y)| {
        let mut chosen: Option<(i64, i64)> = None;
        let mut ties = 0u32;
        for &(dx, dy) in dirs {
            let Some((nx, ny)) = ctx.wrapped(x + dx, y + dy) else {
                continue;
            };
            let cell = ((ny - r.y) * r.w + nx - r.x) as usize * nh;
            for (j, (k, h)) in key.iter_mut().zip(heuristics).enumerate() {
                *k = match h {
                    Estimator::Noise { .. } => {
                        let slot = &mut memo[cell + j];
                        if slot.is_nan() {
                            *slot = h.eval(ctx, nx as usize, ny as usize);
                        }
                        *slot
                    }
                    // The estimator's own draw, without the call.
                    Estimator::Random => ctx.rng.random::<f64>(),
                    _ => h.eval(ctx, nx as usize, ny as usize),
                };
            }
            let ord = if chosen.is_none() {
                Ordering::Less
            } else {
                cmp_keys(&key, &best)
            };
            match ord {
                Ordering::Less => {
                    best.copy_from_slice(&key);
                    chosen = Some((nx, ny));
                    ties = 1;
                }
                Ordering::Equal => {
                    // Uniform choice among equals (reservoir sampling).
                    ties += 1;
                    if below(ctx.rng, ties as usize) == 0 {
                        chosen = Some((nx, ny));
                    }
                }
                Ordering::Greater => {}
            }
        }
        chosen.unwrap_or((x, y))
    });
}
