//! The 2017 `automata`/`sequential` explorer with `start` or `exploration`: a breadth-first
//! walk over the region from the cell at `start` (fractions of the region's width and
//! height), stepping along the `exploration` neighbourhood's offsets, visiting each cell it
//! reaches once (cells it cannot reach are not visited). Without them, a 2017 automaton is a
//! `narrow_horz` scan.

use super::{Limits, set_progress, visit};
use crate::engine::Ctx;
use crate::program::Explorer;
use std::collections::VecDeque;

/// One region pass: up to `lim.tiles` visits, or fewer once `lim.changes` rules have fired.
pub fn pass(ex: &Explorer, start: (f64, f64), explore: usize, ctx: &mut Ctx, lim: Limits) {
    let r = ctx.region;
    let (w, h) = (r.w as usize, r.h as usize);
    let at = |f: f64, n: usize| ((f * n as f64) as usize).min(n - 1) as i64;
    let first = (r.x + at(start.0, w), r.y + at(start.1, h));
    let mut seen = vec![false; w * h];
    let local = |(x, y): (i64, i64)| (y - r.y) as usize * w + (x - r.x) as usize;
    seen[local(first)] = true;
    let mut queue = VecDeque::from([first]);
    let (mut visited, mut changed) = (0u64, 0u64);
    while let Some((x, y)) = queue.pop_front() {
        if visited >= lim.tiles || changed >= lim.changes {
            return;
        }
        set_progress(ex, ctx, visited, lim.tiles, changed, lim.changes);
        if visit(ex, ctx, x as usize, y as usize) {
            changed += 1;
        }
        visited += 1;
        for i in 0..ctx.nbhs[explore].offsets.len() {
            let (dx, dy) = ctx.nbhs[explore].offsets[i];
            if let Some(next) = ctx.wrapped(x + dx, y + dy)
                && !seen[local(next)]
            {
                seen[local(next)] = true;
                queue.push_back(next);
            }
        }
    }
}
