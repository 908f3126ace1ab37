//! Turtle explorers: `turtle_drunk` (a digger that keeps a direction and changes it at
//! random) and `turtle_heur` (a greedy walker moving to the neighbour with the smallest
//! heuristics). Both stop after `tiles` steps or `changes` firings.

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

/// `turtle_drunk`.
pub fn drunk(ex: &Explorer, dirprob: f64, ctx: &mut Ctx, lim: Limits) {
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let mut dir = dirs[below(ctx.rng, dirs.len())];
    let (mut x, mut y) = start(ctx);
    let mut changed = 0;
    for visited in 0..lim.tiles {
        if changed >= lim.changes {
            break;
        }
        set_progress(ex, ctx, visited, lim.tiles, changed, lim.changes);
        if visit(ex, ctx, x as usize, y as usize) {
            changed += 1;
        }
        let turn = ctx.rng.random::<f64>() < dirprob;
        if turn || !ctx.inside(x + dir.0, y + dir.1) {
            dir = dirs[below(ctx.rng, dirs.len())];
        }
        if ctx.inside(x + dir.0, y + dir.1) {
            x += dir.0;
            y += dir.1;
        }
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
    let (mut x, mut y) = start(ctx);
    let mut changed = 0;
    let mut best = vec![0.0; heuristics.len()];
    let mut key = vec![0.0; heuristics.len()];
    for visited in 0..lim.tiles {
        if changed >= lim.changes {
            break;
        }
        set_progress(ex, ctx, visited, lim.tiles, changed, lim.changes);
        if visit(ex, ctx, x as usize, y as usize) {
            changed += 1;
        }
        let mut chosen: Option<(i64, i64)> = None;
        let mut ties = 0u32;
        for &(dx, dy) in dirs {
            let (nx, ny) = (x + dx, y + dy);
            if !ctx.inside(nx, ny) {
                continue;
            }
            for (k, h) in key.iter_mut().zip(heuristics) {
                *k = h.eval(ctx, nx as usize, ny as usize);
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
        if let Some((nx, ny)) = chosen {
            x = nx;
            y = ny;
        }
    }
}
