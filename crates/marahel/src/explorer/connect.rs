//! `turtle_connect`: join every area of the chosen entities with corridors.
//!
//! 1. Areas are the connected components of cells holding `entities`, adjacency by the
//!    `directions` offsets (made symmetric), numbered by their first cell in scan order
//!    (module `areas`). With the 4-neighbourhood (the usual `plus`) they are horizontal runs,
//!    found from per-row bitmasks (eight cells per word compare) and joined (union-find over
//!    provisional areas, each summing its own runs) to the previous row's runs as each row
//!    is scanned (module `runs`); other direction sets use a flood fill over a padded label
//!    plane.
//! 2. Each area gets a centre: a cell near its centroid, by rank selection over (Manhattan
//!    distance to the float centroid, index). Only the cells whose distance has the chosen
//!    rank's integer part (on runs: the integer part of 4 times the distance) are keyed,
//!    found from a histogram of those parts. On runs, the sums are arithmetic series and the
//!    histograms of all areas are kept as differences per run side, in one sweep over the
//!    runs (module `centroid`): along a run on one side of the centroid the parts step
//!    evenly, checked in fixed point once per quadrant around the centroid (cells that
//!    could round across an integer are counted one by one), so the result is the one of
//!    the per-cell float computation.
//! 3. The centres are visited in a random tour: from each centre the next is a near one
//!    (rank selection by Manhattan distance, on keys packing distance and position); with
//!    probability 1/4 the tour branches from the previous centre, and with probability 1/2
//!    it ends with a loop back to an earlier one.
//! 4. A walker follows the tour, stepping to the neighbour closest to the next waypoint (the
//!    first such direction), and applies the rules at every cell it stands on (the idiom is
//!    `self(solid) -> self(empty)`). The choice is tabulated by the offset to the waypoint,
//!    clamped just beyond the longest step (past it only the offset's signs matter; the
//!    table is kept per thread for the next pass with the same directions), and is then
//!    taken as a straight run for as long as the clamped offset and the region allow;
//!    `percent`/`cpercent` are only kept when a rule reads them. Rules that only read and
//!    write the visited cell (the idiom) are a table from the cell's code to the value
//!    written, and in a plain pass the walk visits a cell with a table read and a store
//!    (without branches on whether a rule fires),
//!    and with unit steps only (the usual `plus`) takes each leg as at most two straight
//!    runs in closed form (module `walk`).
//!
//! Everything is bounded: each leg is at most its Manhattan length; a waypoint the
//! directions cannot approach is skipped with a warning.

mod areas;
mod bits;
mod centroid;
mod runs;
mod walk;

use super::{Limits, reads_progress, visit};
use crate::divider::shuffle;
use crate::engine::Ctx;
use crate::program::Explorer;
use grid_core::rand::RngExt;
use grid_core::{LevelRng, Rect};
use std::cell::Cell;

/// Index `i` of `0..n` with weight `n - i` (rank selection), from one draw (none when
/// `n <= 1`).
pub fn rank_index(n: usize, rng: &mut LevelRng) -> usize {
    if n <= 1 {
        return 0;
    }
    let total = (n as u64) * (n as u64 + 1) / 2;
    rank_of(n, rng.random_range(0..total))
}

/// The smallest `i` with `S(i) = (i+1)n - i(i+1)/2 > r`, for `n >= 1` and `r < S(n-1)`
/// (`S` increases up to `S(n-1) = n(n+1)/2`). With `j = i + 1`, `S = j(2n + 1 - j)/2`: the
/// real root of `S = r` gives a guess, and exact integer steps settle it.
fn rank_of(n: usize, r: u64) -> usize {
    let s = |i: u64| (i + 1) * n as u64 - i * (i + 1) / 2;
    let a = (2 * n + 1) as f64;
    let root = (a - (a * a - 8.0 * r as f64).max(0.0).sqrt()) / 2.0;
    let mut i = (root as u64).min(n as u64 - 1);
    while i > 0 && s(i - 1) > r {
        i -= 1;
    }
    while s(i) <= r {
        i += 1;
    }
    i as usize
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

/// [`best_step`] tabulated by the offset to the target, ignoring the region.
///
/// Once `|t.0 - x|` exceeds every step's `|dx|`, each step's distance is the walker's minus
/// `sign(t.0 - x) * dx` on that axis: the choice depends only on the sign, so the offset is
/// clamped to `±(mx + 1)` (likewise for y) and the table is small. The choice of all
/// directions, when it stays in the region, is also the choice among the directions that
/// stay in the region (it is the first closest of a superset); otherwise [`best_step`] runs.
struct Steer {
    /// The directions (the table depends on nothing else).
    dirs: Vec<(i64, i64)>,
    /// Clamp bounds `mx + 1`, `my + 1`.
    cx: i64,
    cy: i64,
    /// Direction index per clamped offset, [`Steer::STUCK`] when none gets closer,
    /// [`Steer::UNKNOWN`] until first needed; empty for direction sets with very long steps
    /// (then every step runs [`best_step`]).
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

    /// [`best_step`] from `p` towards `t`, as the step `(dx, dy)` and how many times in a row
    /// the walker takes it (at least 1): while the clamped offset to `t` stays the same and
    /// the walker stays in the region, the choice cannot change (and `t` is not reached: the
    /// offset is not zero).
    #[inline(always)]
    fn step(
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

/// Centres of a map whose sides are at most [`Packed::MAX`]: `x << 20 | y` in the low 40
/// bits, and for a selection the distance above them, so that one integer compares as
/// (distance, x, y) do. (Centres are distinct: the keys are unique, so the selected one
/// does not depend on the order.)
struct Packed(Vec<u64>);

impl Packed {
    const MAX: usize = 1 << 20;
    const POS: u64 = (1 << 40) - 1;
}

// Map sides are validated to at most `MAX_SIDE`, so every map's centres pack.
const _: () = assert!(crate::compile::MAX_SIDE <= Packed::MAX);

/// The centres not visited yet by the tour.
impl Packed {
    /// How many are left.
    fn len(&self) -> usize {
        self.0.len()
    }

    /// Removes the centre at `i` (the order of the others may change).
    fn take(&mut self, i: usize) -> (i64, i64) {
        let p = self.0.swap_remove(i);
        (((p >> 20) & 0xf_ffff) as i64, (p & 0xf_ffff) as i64)
    }

    /// The index of the `k`-th nearest centre to `(fx, fy)` (by Manhattan distance, then
    /// position; the order of the others may change): for a few centres, the one with `k`
    /// nearer ones (counted without branches on the keys, where a selection mispredicts),
    /// else a selection.
    fn select(&mut self, k: usize, (fx, fy): (i64, i64)) -> usize {
        for v in &mut self.0 {
            let (x, y) = (((*v >> 20) & 0xf_ffff) as i64, (*v & 0xf_ffff) as i64);
            let d = ((x - fx).abs() + (y - fy).abs()) as u64;
            *v = d << 40 | (*v & Packed::POS);
        }
        let keys = &self.0;
        if keys.len() <= 16 {
            for (i, &x) in keys.iter().enumerate() {
                if keys.iter().map(|&y| usize::from(y < x)).sum::<usize>() == k {
                    return i;
                }
            }
        }
        self.0.select_nth_unstable(k);
        k
    }
}

/// Stage 3: the tour over the (shuffled) centres `remaining`, as waypoints.
fn tour(mut remaining: Packed, ctx: &mut Ctx) -> Vec<(i64, i64)> {
    let mut waypoints = Vec::with_capacity(remaining.len() * 2);
    let mut cur_i = 0;
    let mut prev = None;
    loop {
        let cur = remaining.take(cur_i);
        let prev_ = *prev.get_or_insert(cur);
        waypoints.push(cur);
        let mut from = cur;
        if ctx.rng.random::<f64>() < 0.25 {
            waypoints.push(prev_);
            from = prev_;
        }
        if remaining.len() == 0 {
            break;
        }
        let k = rank_index(remaining.len(), ctx.rng);
        cur_i = remaining.select(k, from);
        prev = Some(from);
    }
    if waypoints.len() > 1 && ctx.rng.random::<f64>() < 0.5 {
        let back = waypoints[ctx.rng.random_range(0..waypoints.len() - 1)];
        waypoints.push(back);
    }
    waypoints
}

thread_local! {
    /// The step table of the last walk on this thread.
    static STEERS: Cell<Option<Steer>> = const { Cell::new(None) };
}

/// One region pass.
pub fn pass(
    ex: &Explorer,
    entities: &[bool],
    ctx: &mut Ctx,
    lim: Limits,
    warnings: &mut Vec<String>,
) {
    let r = ctx.region;
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let mut adj: Vec<(i64, i64)> = Vec::with_capacity(2 * dirs.len());
    for &(dx, dy) in dirs {
        for o in [(dx, dy), (-dx, -dy)] {
            if o != (0, 0) && !adj.contains(&o) {
                adj.push(o);
            }
        }
    }
    let mut centres = Packed(areas::centres(&adj, entities, ctx));
    if centres.len() == 0 {
        return;
    }
    // 3. The tour.
    shuffle(&mut centres.0, ctx.rng);
    let waypoints = tour(centres, ctx);
    // 4. Walk.
    let progress = reads_progress(ex);
    // The step table of the last pass on this thread, if it has the same directions.
    let mut steer = match STEERS.take() {
        Some(steer) if steer.dirs == *dirs => steer,
        _ => Steer::new(dirs),
    };
    let plain = ex.kernel.is_some()
        && !ctx.buffer
        && !ctx.track_counts
        && !ctx.live.tracking()
        && !ctx.log.on;
    if plain && let Some(mut rules) = walk::CellRules::new(ex, nbhs) {
        let stuck = walk::walk(&mut rules, &waypoints, &mut steer, dirs, r, ctx, lim);
        STEERS.set(Some(steer));
        warn_stuck(ex, stuck, warnings);
        return;
    }
    let total = waypoints.len() as f64;
    let (mut x, mut y) = waypoints[0];
    let mut wi = 0;
    let mut changed = 0;
    let mut stuck = 0;
    // The current straight run: its step and the steps left after the one taken.
    let (mut step, mut left) = ((0, 0), 0);
    loop {
        if progress {
            ctx.percent = wi as f64 / total;
            ctx.cpercent = changed as f64 / lim.changes as f64;
        }
        if visit(ex, ctx, x as usize, y as usize) {
            changed += 1;
            if changed >= lim.changes {
                break;
            }
        }
        if left > 0 {
            // Inside a straight run: the target is not here and the step is the same.
            (x, y) = (x + step.0, y + step.1);
            left -= 1;
            continue;
        }
        while wi < waypoints.len() && waypoints[wi] == (x, y) {
            wi += 1;
        }
        if wi == waypoints.len() {
            break;
        }
        match steer.step(dirs, r, (x, y), waypoints[wi]) {
            Some((d, k)) => {
                (x, y) = (x + d.0, y + d.1);
                (step, left) = (d, k - 1);
            }
            None => {
                stuck += 1;
                wi += 1;
                if wi == waypoints.len() {
                    break;
                }
            }
        }
    }
    STEERS.set(Some(steer));
    warn_stuck(ex, stuck, warnings);
}

/// The warning for `stuck` skipped waypoints, if any.
fn warn_stuck(ex: &Explorer, stuck: u64, warnings: &mut Vec<String>) {
    if stuck > 0 {
        warnings.push(format!(
            "{}: connect could not approach {stuck} waypoint(s) with its directions; skipped them",
            ex.path
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::rank_of;

    /// [`rank_of`] is the binary search it replaced.
    #[test]
    fn rank_of_is_the_binary_search() {
        for n in 1..400usize {
            let s = |i: u64| (i + 1) * n as u64 - i * (i + 1) / 2;
            for r in 0..(n as u64) * (n as u64 + 1) / 2 {
                let (mut lo, mut hi) = (0u64, n as u64 - 1);
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    if s(mid) > r { hi = mid } else { lo = mid + 1 }
                }
                assert_eq!(rank_of(n, r), lo as usize, "n {n} r {r}");
            }
        }
        let n = 3_000_000usize;
        for r in [
            0,
            1,
            2_999_999,
            3_000_000,
            4_499_998_500_000,
            4_500_001_499_999,
        ] {
            let s = |i: u64| (i + 1) * n as u64 - i * (i + 1) / 2;
            let i = rank_of(n, r) as u64;
            assert!(s(i) > r && (i == 0 || s(i - 1) <= r), "r {r}");
        }
    }
}
