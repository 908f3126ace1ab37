//! The 2017 distance estimators `minDist`, `maxDist` and `avgDist`: the least, largest or
//! mean distance from the visited cell to the region's cells holding listed entities.
//!
//! - `xDist(list)`: Manhattan distance. `minDist(list)` is `dist(list)`; `maxDist` and
//!   `avgDist` are read from per-region statistics of the targets ([`Spread`]: the extremes
//!   of `x + y` and `x - y`, prefix sums of the targets per column and per row), O(area) to
//!   build and O(1) to read; in a pass that writes the map it reads, a faster layer behind
//!   [`crate::hook`] may keep them up to date on every write instead.
//! - `xDist(nbh, list[, allowed])`: the length of the shortest walk along `nbh`'s offsets,
//!   inside the region, through cells holding `allowed` entities (default `any`), to a target
//!   (the 2017 engine found these with A*). `minDist` reads a plane built by one breadth-first
//!   search from every target at once ([`walk_plane`]); `maxDist` and `avgDist` need the
//!   distance to every target, so each reading searches from the visited cell
//!   ([`walk_from`]: O(area) per reading). These, and a walking `minDist` in a pass that
//!   writes the map it reads, are limited per map ([`super::quadratic`]).
//!
//! Every form is `-1` when no target can be reached.

use crate::engine::{Ctx, Memo};
use crate::hook::{DistRead, Observer};
use std::collections::VecDeque;

/// Which statistic of the distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stat {
    /// The least (`minDist`).
    Min,
    /// The largest (`maxDist`).
    Max,
    /// The mean (`avgDist`).
    Avg,
}

/// A region `(x, y, w, h)` in map coordinates.
pub type Rect4 = (usize, usize, usize, usize);

/// Statistics of the target cells of a region, in region coordinates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spread {
    n: u64,
    /// Extremes of `x + y` and of `x - y`.
    sum_lo: i64,
    sum_hi: i64,
    diff_lo: i64,
    diff_hi: i64,
    /// Per column `i`: targets in columns `< i` and the sum of their columns (`w + 1` each).
    cols: Vec<(u64, u64)>,
    /// The same per row.
    rows: Vec<(u64, u64)>,
}

impl Spread {
    /// The statistics of the region's cells for which `is_target` holds (map index).
    pub fn new((rx, ry, rw, rh): Rect4, w: usize, is_target: impl Fn(usize) -> bool) -> Spread {
        let mut s = Spread {
            sum_lo: i64::MAX,
            sum_hi: i64::MIN,
            diff_lo: i64::MAX,
            diff_hi: i64::MIN,
            ..Spread::default()
        };
        let (mut per_col, mut per_row) = (vec![0u64; rw], vec![0u64; rh]);
        for (ly, row_n) in per_row.iter_mut().enumerate() {
            for (lx, col_n) in per_col.iter_mut().enumerate() {
                if is_target((ry + ly) * w + rx + lx) {
                    *col_n += 1;
                    *row_n += 1;
                    let (x, y) = (lx as i64, ly as i64);
                    s.sum_lo = s.sum_lo.min(x + y);
                    s.sum_hi = s.sum_hi.max(x + y);
                    s.diff_lo = s.diff_lo.min(x - y);
                    s.diff_hi = s.diff_hi.max(x - y);
                }
            }
        }
        s.n = per_col.iter().sum();
        let prefix = |counts: &[u64]| {
            let mut out = vec![(0, 0)];
            let (mut c, mut t) = (0, 0);
            for (i, &k) in counts.iter().enumerate() {
                c += k;
                t += k * i as u64;
                out.push((c, t));
            }
            out
        };
        s.cols = prefix(&per_col);
        s.rows = prefix(&per_row);
        s
    }

    /// The largest (`Max`) or mean (`Avg`) Manhattan distance from local cell `(x, y)` to the
    /// targets (`None`: there are none; `Min` is `dist` and not kept here).
    pub fn get(&self, stat: Stat, (x, y): (usize, usize)) -> Option<f64> {
        if self.n == 0 || stat == Stat::Min {
            return None;
        }
        Some(match stat {
            Stat::Max | Stat::Min => {
                let (s, d) = ((x + y) as i64, x as i64 - y as i64);
                (s - self.sum_lo)
                    .max(self.sum_hi - s)
                    .max(d - self.diff_lo)
                    .max(self.diff_hi - d) as f64
            }
            Stat::Avg => {
                let total = |p: &[(u64, u64)], v: usize| {
                    let (all_n, all_t) = p[p.len() - 1];
                    let (ln, lt) = p[v + 1];
                    let v = v as u64;
                    // Targets at or before `v`, then after it.
                    (v * ln - lt) + ((all_t - lt) - v * (all_n - ln))
                };
                (total(&self.cols, x) + total(&self.rows, y)) as f64 / self.n as f64
            }
        })
    }
}

/// A walk's moves and the cells it may cross.
pub struct Walk<'a> {
    /// Offsets of one move (`(0, 0)` is ignored).
    pub offsets: &'a [(i64, i64)],
    /// Whether a map cell is a target.
    pub target: &'a dyn Fn(usize) -> bool,
    /// Whether a map cell may be crossed.
    pub allowed: &'a dyn Fn(usize) -> bool,
}

impl std::fmt::Debug for Walk<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walk")
            .field("offsets", &self.offsets)
            .finish_non_exhaustive()
    }
}

/// The shortest walk from every cell of the region to a target (`u32::MAX`: none), by one
/// breadth-first search backwards from all targets: a cell's value is one more than the
/// least value of the cells one move away that are targets or may be crossed.
pub fn walk_plane((rx, ry, rw, rh): Rect4, w: usize, walk: &Walk, d: &mut Vec<u32>) {
    d.clear();
    d.resize(rw * rh, u32::MAX);
    let mut queue = VecDeque::new();
    for ly in 0..rh {
        for lx in 0..rw {
            if (walk.target)((ry + ly) * w + rx + lx) {
                d[ly * rw + lx] = 0;
                queue.push_back((lx, ly));
            }
        }
    }
    while let Some((lx, ly)) = queue.pop_front() {
        let next = d[ly * rw + lx] + 1;
        for &(dx, dy) in walk.offsets {
            // The cell `c` with `c + (dx, dy) = (lx, ly)`.
            let (cx, cy) = (lx as i64 - dx, ly as i64 - dy);
            if (dx, dy) == (0, 0) || cx < 0 || cy < 0 || cx >= rw as i64 || cy >= rh as i64 {
                continue;
            }
            let (cx, cy) = (cx as usize, cy as usize);
            if d[cy * rw + cx] != u32::MAX {
                continue;
            }
            d[cy * rw + cx] = next;
            if (walk.allowed)((ry + cy) * w + rx + cx) {
                queue.push_back((cx, cy));
            }
        }
    }
}

/// The statistic of the shortest walks from local cell `at` to every target it can reach
/// (`None`: none), by a breadth-first search from `at`. `seen` is scratch.
pub fn walk_from(
    (rx, ry, rw, rh): Rect4,
    w: usize,
    walk: &Walk,
    at: (usize, usize),
    stat: Stat,
    seen: &mut Vec<u32>,
) -> Option<f64> {
    seen.clear();
    seen.resize(rw * rh, u32::MAX);
    let (mut n, mut sum, mut min, mut max) = (0u64, 0u64, u32::MAX, 0u32);
    let mut queue = VecDeque::from([at]);
    seen[at.1 * rw + at.0] = 0;
    while let Some((lx, ly)) = queue.pop_front() {
        let here = seen[ly * rw + lx];
        let i = (ry + ly) * w + rx + lx;
        if (walk.target)(i) {
            n += 1;
            sum += here as u64;
            (min, max) = (min.min(here), max.max(here));
        }
        // The start is left whatever it holds; other cells only when they may be crossed.
        if here > 0 && !(walk.allowed)(i) {
            continue;
        }
        for &(dx, dy) in walk.offsets {
            let (cx, cy) = (lx as i64 + dx, ly as i64 + dy);
            if (dx, dy) == (0, 0) || cx < 0 || cy < 0 || cx >= rw as i64 || cy >= rh as i64 {
                continue;
            }
            let (cx, cy) = (cx as usize, cy as usize);
            if seen[cy * rw + cx] == u32::MAX {
                seen[cy * rw + cx] = here + 1;
                queue.push_back((cx, cy));
            }
        }
    }
    (n > 0).then(|| match stat {
        Stat::Min => min as f64,
        Stat::Max => max as f64,
        Stat::Avg => sum as f64 / n as f64,
    })
}

/// What the 2017 distance estimators keep between readings.
#[derive(Debug, Default)]
pub struct Caches {
    /// Per estimator slot: the targets' statistics.
    spreads: Memo<Spread>,
    /// Scratch of [`walk_from`].
    seen: Vec<u32>,
}

impl Caches {
    /// Caches for `slots` estimators.
    pub fn new(slots: usize) -> Caches {
        Caches {
            spreads: Memo::new(slots),
            seen: Vec::new(),
        }
    }

    /// Forgets every statistic (a new explorer).
    pub fn clear(&mut self) {
        self.spreads.clear();
    }
}

impl Ctx<'_> {
    /// A 2017 distance estimator at map cell `(x, y)` (`-1`: no target reached).
    pub fn path_distance(
        &mut self,
        slot: usize,
        stat: Stat,
        walk: Option<&(usize, Vec<bool>)>,
        targets: &[bool],
        x: usize,
        y: usize,
    ) -> f64 {
        if walk.is_some() && stat == Stat::Min {
            let version = self.version;
            if let Some(charge) = &mut self.live_charge
                && charge.past(version)
            {
                // Past the limit: the pass ends with the error, the value is not used.
                return -1.0;
            }
        }
        let r = self.region;
        let rect = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
        let at = (x - rect.0, y - rect.1);
        let (front, w) = (&self.canvas.front, self.canvas.w);
        let is_target = |i: usize| targets[front[i] as usize];
        let now = (r, self.version);
        let read = DistRead {
            slot,
            now,
            map: (&front[..], w),
            at: (x, y),
        };
        let value = match walk {
            None => match self.layer.spread(read, stat, targets) {
                Some(v) => v,
                // Past the pass's charge: the pass ends with the error, the value is not used.
                None if self.planes.over => None,
                None => {
                    let charge = &mut self.planes;
                    let spread = (self.paths.spreads).get(slot, now, |s| {
                        *s = match charge.take(r.area() * crate::cost::SPREAD_READS) {
                            true => Spread::new(rect, w, is_target),
                            // Past the charge: no targets, computed no more.
                            false => Spread::new(rect, w, |_| false),
                        };
                    });
                    spread.get(stat, at)
                }
            },
            Some((nbh, allowed_codes)) => {
                let allowed = |i: usize| allowed_codes[front[i] as usize];
                let walk = Walk {
                    offsets: &self.nbhs[*nbh].offsets,
                    target: &is_target,
                    allowed: &allowed,
                };
                match stat {
                    Stat::Min => {
                        let kept = (targets, &allowed_codes[..], walk.offsets);
                        let v = match self.layer.walk(read, kept) {
                            Some(v) => v,
                            None => {
                                let d = (self.dist_cache)
                                    .get(slot, now, |d| walk_plane(rect, w, &walk, d));
                                d[at.1 * rect.2 + at.0]
                            }
                        };
                        (v != u32::MAX).then_some(v as f64)
                    }
                    _ => walk_from(rect, w, &walk, at, stat, &mut self.paths.seen),
                }
            }
        };
        value.unwrap_or(-1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Manhattan distances from `at` to every target, by brute force.
    fn manhattan(cells: &[u8], w: usize, at: (usize, usize)) -> Vec<usize> {
        (0..cells.len())
            .filter(|&i| cells[i] == 1)
            .map(|i| (i % w).abs_diff(at.0) + (i / w).abs_diff(at.1))
            .collect()
    }

    #[test]
    fn spread_gives_the_largest_and_mean_manhattan_distance() {
        let (w, h) = (7, 5);
        let cells: Vec<u8> = (0..w * h).map(|i| ((i * 7 + 3) % 5 == 0) as u8).collect();
        let s = Spread::new((0, 0, w, h), w, |i| cells[i] == 1);
        for i in 0..w * h {
            let at = (i % w, i / w);
            let d = manhattan(&cells, w, at);
            let max = *d.iter().max().unwrap() as f64;
            let avg = d.iter().sum::<usize>() as f64 / d.len() as f64;
            assert_eq!(s.get(Stat::Max, at), Some(max));
            assert!((s.get(Stat::Avg, at).unwrap() - avg).abs() < 1e-9);
        }
        assert_eq!(
            Spread::new((0, 0, w, h), w, |_| false).get(Stat::Max, (0, 0)),
            None
        );
    }

    #[test]
    fn walks_go_around_what_may_not_be_crossed() {
        // 0 floor, 1 target, 2 wall; plus moves through floor only.
        #[rustfmt::skip]
        let cells: [u8; 25] = [
            0, 0, 0, 0, 0,
            2, 2, 2, 2, 0,
            1, 0, 0, 2, 0,
            2, 2, 0, 2, 0,
            0, 0, 0, 0, 0,
        ];
        let w = 5;
        let plus: [(i64, i64); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
        let walk = Walk {
            offsets: &plus,
            target: &|i| cells[i] == 1,
            allowed: &|i| cells[i] == 0,
        };
        let mut plane = Vec::new();
        walk_plane((0, 0, 5, 5), w, &walk, &mut plane);
        // From the top-left corner: right along the top (4), down the right side (4), left
        // along the bottom (2), up the middle column (2), left to the target (2).
        assert_eq!(plane[0], 14);
        assert_eq!(plane[11], 1);
        // A wall next to the target is one move away; a walk may start on a wall but not
        // cross one.
        assert_eq!(plane[5], 1);
        assert_eq!(plane[6], 2);
        let mut seen = Vec::new();
        for (i, &want) in plane.iter().enumerate() {
            let at = (i % w, i / w);
            let one = walk_from((0, 0, 5, 5), w, &walk, at, Stat::Min, &mut seen);
            assert_eq!(one, (want != u32::MAX).then_some(want as f64), "{at:?}");
        }
        // Two targets: the mean and the largest.
        let two = [1u8, 0, 0, 0, 1];
        let walk = Walk {
            offsets: &plus,
            target: &|i| two[i] == 1,
            allowed: &|i| two[i] == 0,
        };
        let at = (1, 0);
        assert_eq!(
            walk_from((0, 0, 5, 1), 5, &walk, at, Stat::Max, &mut seen),
            Some(3.0)
        );
        assert_eq!(
            walk_from((0, 0, 5, 1), 5, &walk, at, Stat::Avg, &mut seen),
            Some(2.0)
        );
    }
}
