//! The reference's `turtle_connect` (v0.3.0), run under `compat: reference`
//! ([`crate::Compat::Reference`]) to reproduce the reference's and the paper's statistics.
//!
//! 1. Areas: the connected components of cells holding `entities`, adjacency by the
//!    `directions` offsets (made symmetric), each with its cells in scan order.
//! 2. Each area gets a centre: its cells sorted by Manhattan distance to their float centroid
//!    (ties by scan order), one chosen by rank selection (cell `i` of `n` with weight `n - i`).
//! 3. The centres, shuffled, are visited in a random tour: from each centre the next is drawn
//!    by rank among the centres left sorted by Manhattan distance (ties by position); with
//!    probability 1/4 the tour first goes back to the previous centre and branches from
//!    there; with probability 1/2 it ends with a loop back to a random earlier waypoint.
//! 4. The walker of [`super::dig`] follows the tour, each leg a corridor from one waypoint to
//!    the next.
//!
//! Bounded: at most [`MAX_TOUR_AREAS`] areas join the tour (its cost grows with the square of
//! their number; the others are left with a warning), and the legs walk at most
//! 4 steps per region cell, as the spanning tree's corridors do.

use super::tree::{BUDGET, Corridor, View};
use super::{manhattan, symmetric};
use crate::divider::shuffle;
use crate::engine::Ctx;
use crate::explorer::{Limits, connect};
use crate::program::Explorer;
use grid_core::LevelRng;
use grid_core::rand::RngExt;
use std::collections::VecDeque;

/// Most areas one tour joins: choosing each next centre looks at every centre left.
pub const MAX_TOUR_AREAS: usize = 10_000;

/// Index `i` of `0..n` with weight `n - i` (rank selection), from one draw (none when
/// `n <= 1`).
pub fn rank_index(n: usize, rng: &mut LevelRng) -> usize {
    if n <= 1 {
        return 0;
    }
    let total = (n as u64) * (n as u64 + 1) / 2;
    let r = rng.random_range(0..total);
    // The first `i` whose prefix of weights `(i + 1) n - i (i + 1) / 2` exceeds `r`.
    let prefix = |i: u64| (i + 1) * n as u64 - i * (i + 1) / 2;
    let (mut lo, mut hi) = (0u64, n as u64 - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if prefix(mid) > r {
            hi = mid
        } else {
            lo = mid + 1
        }
    }
    lo as usize
}

/// Stage 1: the areas of the region of `g`, each as its cells (map coordinates) in scan
/// order, the areas in the scan order of their first cells.
fn areas(adj: &[(i64, i64)], entities: &[bool], g: &View) -> Vec<Vec<(i64, i64)>> {
    let r = g.r;
    let (rw, rh) = (r.w as usize, r.h as usize);
    let of = |x: usize, y: usize| g.cells[(r.y as usize + y) * g.w + r.x as usize + x] as usize;
    let member = |x: usize, y: usize| entities.get(of(x, y)).copied().unwrap_or(false);
    let mut label = vec![u32::MAX; rw * rh];
    let mut count = 0u32;
    let mut queue = VecDeque::new();
    for start in 0..rw * rh {
        if label[start] != u32::MAX || !member(start % rw, start / rw) {
            continue;
        }
        label[start] = count;
        queue.push_back(start);
        while let Some(i) = queue.pop_front() {
            let (x, y) = ((i % rw) as i64, (i / rw) as i64);
            for &(dx, dy) in adj {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= rw as i64 || ny >= rh as i64 {
                    continue;
                }
                let j = ny as usize * rw + nx as usize;
                if label[j] == u32::MAX && member(nx as usize, ny as usize) {
                    label[j] = count;
                    queue.push_back(j);
                }
            }
        }
        count += 1;
    }
    let mut cells = vec![Vec::new(); count as usize];
    for (i, &l) in label.iter().enumerate() {
        if l != u32::MAX {
            let (x, y) = ((i % rw) as i64 + r.x, (i / rw) as i64 + r.y);
            cells[l as usize].push((x, y));
        }
    }
    cells
}

/// Stage 2: a cell near the centroid of `cells`, by rank selection.
fn centre(cells: &[(i64, i64)], rng: &mut LevelRng) -> (i64, i64) {
    let n = cells.len() as f64;
    let cx = cells.iter().map(|c| c.0 as f64).sum::<f64>() / n;
    let cy = cells.iter().map(|c| c.1 as f64).sum::<f64>() / n;
    let dist = |c: &(i64, i64)| (c.0 as f64 - cx).abs() + (c.1 as f64 - cy).abs();
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by(|&a, &b| dist(&cells[a]).total_cmp(&dist(&cells[b])).then(a.cmp(&b)));
    cells[order[rank_index(cells.len(), rng)]]
}

/// Stage 3: the tour over the shuffled `centres`, as waypoints.
fn tour(mut left: Vec<(i64, i64)>, rng: &mut LevelRng) -> Vec<(i64, i64)> {
    let mut waypoints = Vec::with_capacity(left.len() * 2);
    let mut cur = left.swap_remove(0);
    let mut prev = cur;
    loop {
        waypoints.push(cur);
        let mut from = cur;
        if rng.random::<f64>() < 0.25 {
            waypoints.push(prev);
            from = prev;
        }
        if left.is_empty() {
            break;
        }
        let k = rank_index(left.len(), rng);
        let key = |c: &(i64, i64)| (manhattan(*c, from), c.0, c.1);
        left.select_nth_unstable_by_key(k, key);
        (prev, cur) = (from, left.swap_remove(k));
    }
    if waypoints.len() > 1 && rng.random::<f64>() < 0.5 {
        let back = waypoints[rng.random_range(0..waypoints.len() - 1)];
        waypoints.push(back);
    }
    waypoints
}

/// One region pass of the reference's connect.
pub fn pass(
    ex: &Explorer,
    entities: &[bool],
    ctx: &mut Ctx,
    lim: Limits,
    warnings: &mut Vec<String>,
) {
    let r = ctx.region;
    let dirs = &ctx.nbhs[ex.directions].offsets;
    let adj = symmetric(dirs);
    let view = View {
        cells: &ctx.canvas.front,
        w: ctx.canvas.w,
        r,
    };
    let found = areas(&adj, entities, &view);
    if found.is_empty() {
        return;
    }
    if found.len() > MAX_TOUR_AREAS {
        warnings.push(format!(
            "{}: connect (compat reference) joined {MAX_TOUR_AREAS} of {} areas (its tour \
             joins at most {MAX_TOUR_AREAS})",
            ex.path,
            found.len()
        ));
    }
    let mut centres: Vec<(i64, i64)> = found
        .iter()
        .take(MAX_TOUR_AREAS)
        .map(|a| centre(a, ctx.rng))
        .collect();
    shuffle(&mut centres, ctx.rng);
    let waypoints = tour(centres, ctx.rng);
    let budget = BUDGET * r.area() + (r.w + r.h) as u64;
    let mut spent = 0;
    let legs: Vec<Corridor> = waypoints
        .windows(2)
        .map(|w| (w[0], w[1]))
        .take_while(|&(a, b)| {
            spent += manhattan(a, b);
            spent <= budget
        })
        .collect();
    if legs.len() + 1 < waypoints.len() {
        warnings.push(format!(
            "{}: connect (compat reference) walked {} of {} legs of its tour ({BUDGET} steps \
             per region cell)",
            ex.path,
            legs.len(),
            waypoints.len() - 1
        ));
    }
    // A tour of one waypoint still visits it.
    let legs = match legs.is_empty() {
        true => vec![(waypoints[0], waypoints[0])],
        false => legs,
    };
    let stuck = connect::dig(ex, &legs, ctx, lim, |p, to| {
        let next = connect::best_step(dirs, r, p, to);
        next.map(|(x, y)| ((x - p.0, y - p.1), 1))
    });
    connect::warn_stuck(ex, stuck, warnings);
}
