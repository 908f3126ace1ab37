//! The 2017 `maxDist(list)` and `avgDist(list)` (Manhattan) while targets appear and
//! disappear: the statistics of [`crate::distance::paths::Spread`] kept up to date on every
//! write, so a pass that writes the map it reads costs O(log area) per read and write
//! instead of O(area) per write.
//!
//! - `maxDist` at `(x, y)` is the largest of `s - min(tx + ty)`, `max(tx + ty) - s`,
//!   `d - min(tx - ty)`, `max(tx - ty) - d` (`s = x + y`, `d = x - y`): the extremes of the
//!   targets' `tx + ty` and `tx - ty` are the first and last member of a set of those values
//!   (a [`Bits`] per form, with a count per value, since several targets share one).
//! - `avgDist` is the sum over targets of `|tx - x|` plus that of `|ty - y|`, over the number
//!   of targets: per axis, a Fenwick tree of the targets per column (row) and of their columns
//!   (rows) gives the count and sum of those at or before `x`, and the rest from the totals.
//!
//! The integers are those [`crate::distance::paths::Spread`] computes from scratch, so the
//! values are the same to the last bit.

use crate::accel::nearest::bits::Bits;
use crate::distance::paths::Stat;

/// The targets' statistics of a `w x h` region.
#[derive(Clone, Debug)]
pub struct LiveSpread {
    h: usize,
    /// Targets.
    n: u64,
    /// Per value of `tx + ty`, how many targets; and the set of values with any.
    sums: (Vec<u32>, Bits),
    /// The same for `tx - ty + h - 1`.
    diffs: (Vec<u32>, Bits),
    /// Per column: targets, and the sum of their columns.
    cols: Fenwick,
    /// Per row: targets, and the sum of their rows.
    rows: Fenwick,
}

impl LiveSpread {
    /// The statistics of a `w x h` region whose cell `(x, y)` is a target when
    /// `is_target(x, y)`.
    pub fn new(w: usize, h: usize, is_target: impl Fn(usize, usize) -> bool) -> LiveSpread {
        let values = w + h - 1;
        let mut s = LiveSpread {
            h,
            n: 0,
            sums: (vec![0; values], Bits::new(values)),
            diffs: (vec![0; values], Bits::new(values)),
            cols: Fenwick::new(w),
            rows: Fenwick::new(h),
        };
        for y in 0..h {
            for x in 0..w {
                if is_target(x, y) {
                    s.set(x, y, true);
                }
            }
        }
        s
    }

    /// Adds (`on`) or removes the target at `(x, y)` (which was not, or was, one).
    pub fn set(&mut self, x: usize, y: usize, on: bool) {
        let sign = if on { 1 } else { -1 };
        self.n = self.n.wrapping_add_signed(sign);
        for ((counts, bits), v) in [
            (&mut self.sums, x + y),
            (&mut self.diffs, x + self.h - 1 - y),
        ] {
            counts[v] = counts[v].wrapping_add_signed(sign as i32);
            bits.set(v, counts[v] > 0);
        }
        self.cols.add(x, sign);
        self.rows.add(y, sign);
    }

    /// `maxDist` (`Max`) or `avgDist` (`Avg`) at `(x, y)`; `None` with no target (`Min` is
    /// `dist`, not kept here).
    pub fn get(&self, stat: Stat, (x, y): (usize, usize)) -> Option<f64> {
        if self.n == 0 || stat == Stat::Min {
            return None;
        }
        Some(match stat {
            Stat::Max | Stat::Min => {
                let extremes = |(counts, bits): &(Vec<u32>, Bits)| {
                    let lo = bits.next(0, counts.len()).expect("a target") as i64;
                    let hi = bits.prev(counts.len() - 1, 0).expect("a target") as i64;
                    (lo, hi)
                };
                let (s, d) = ((x + y) as i64, (x + self.h - 1 - y) as i64);
                let ((s_lo, s_hi), (d_lo, d_hi)) = (extremes(&self.sums), extremes(&self.diffs));
                (s - s_lo).max(s_hi - s).max(d - d_lo).max(d_hi - d) as f64
            }
            Stat::Avg => (self.cols.spread(x) + self.rows.spread(y)) as f64 / self.n as f64,
        })
    }
}

/// A Fenwick tree over positions `0..len` of (targets, sum of their positions).
#[derive(Clone, Debug)]
struct Fenwick {
    /// Node `i` (1-based) sums positions `i - lowbit(i) .. i`.
    nodes: Vec<(u64, u64)>,
    /// Totals.
    all: (u64, u64),
}

impl Fenwick {
    fn new(len: usize) -> Fenwick {
        Fenwick {
            nodes: vec![(0, 0); len + 1],
            all: (0, 0),
        }
    }

    /// Adds `sign` (±1) targets at position `at`.
    fn add(&mut self, at: usize, sign: i64) {
        let d = (sign as u64, (at as u64).wrapping_mul(sign as u64));
        self.all = (self.all.0.wrapping_add(d.0), self.all.1.wrapping_add(d.1));
        let mut i = at + 1;
        while i < self.nodes.len() {
            let n = &mut self.nodes[i];
            *n = (n.0.wrapping_add(d.0), n.1.wrapping_add(d.1));
            i += i & i.wrapping_neg();
        }
    }

    /// Targets at positions `<= at`, and the sum of their positions.
    fn upto(&self, at: usize) -> (u64, u64) {
        let (mut c, mut t) = (0u64, 0u64);
        let mut i = at + 1;
        while i > 0 {
            let n = self.nodes[i];
            (c, t) = (c.wrapping_add(n.0), t.wrapping_add(n.1));
            i &= i - 1;
        }
        (c, t)
    }

    /// The sum over targets of `|position - v|`.
    fn spread(&self, v: usize) -> u64 {
        let ((all_n, all_t), (ln, lt), v) = (self.all, self.upto(v), v as u64);
        // Targets at or before `v`, then after it (as `Spread` adds them).
        (v * ln - lt) + ((all_t - lt) - v * (all_n - ln))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::paths::Spread;

    #[test]
    fn kept_statistics_equal_those_computed_afresh() {
        let mut rng = grid_core::Seed(0x1234_5678_9abc_def1).rng();
        let mut rand = move |n: usize| grid_core::below(&mut rng, n);
        for (w, h) in [(1, 1), (1, 9), (11, 1), (7, 5), (19, 13)] {
            let mut cells: Vec<bool> = (0..w * h).map(|_| rand(4) == 0).collect();
            let mut live = LiveSpread::new(w, h, |x, y| cells[y * w + x]);
            for step in 0..300 {
                let i = rand(w * h);
                let on = step % 100 < 70 && rand(2) == 0;
                if cells[i] != on {
                    cells[i] = on;
                    live.set(i % w, i / w, on);
                }
                let fresh = Spread::new((0, 0, w, h), w, |j| cells[j]);
                let at = (rand(w), rand(h));
                for stat in [Stat::Max, Stat::Avg, Stat::Min] {
                    let (a, b) = (live.get(stat, at), fresh.get(stat, at));
                    assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{w}x{h} {at:?}");
                }
            }
        }
    }
}
