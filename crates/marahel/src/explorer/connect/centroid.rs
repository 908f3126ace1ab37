//! Stage 2 of `turtle_connect` on runs: an area's centre from its runs (see module `runs`
//! for the method), with the same float operations as [`super::areas::centre`] wherever a
//! distance is computed.
//!
//! Buckets here are quarters: the bucket of a distance `d` is the integer part of `4d` (an
//! exact scaling), so the chosen bucket holds about a quarter of the cells an integer one
//! would, and fewer are keyed and selected among. Along a segment with consecutive integer
//! parts the buckets step by 4, under the same fixed point test on `4d`; the histogram of
//! differences has stride 4 (its counts are running sums per residue mod 4).
//!
//! The histogram pass adds each run's two segments (left of `split`, and the rest) to the
//! histogram of differences and records them; a segment whose buckets are consecutive holds
//! at most one cell of the chosen bucket, found by index, and the keys pass keys it (other
//! segments key cell by cell, as the histogram counted them). The segments and keys are
//! written by index into buffers that only grow.

use super::areas::{key, kth};
use super::runs::{Area, Runs};

/// The centroid of an area with a histogram and what its rows derive from it.
#[derive(Clone, Copy)]
struct Centroid {
    cx: f64,
    cy: f64,
    /// `cy` in 32.32 fixed point (truncated: within 2^-32 of the float).
    fcy: i64,
    /// Columns below `split` are at or left of `cx`.
    split: u32,
    /// The fixed point `|x - cx|` of the columns `split - 1` and `split`.
    fl0: i64,
    fr0: i64,
    /// Whether `cx` and `cy` have at most 20 fractional bits (distances are exact).
    exact: bool,
}

/// One row of an area with a histogram: the cells nearest `cx`, `split - 1` and `split`,
/// have buckets `bl` and `br`; `cl` (`cr`) tells whether the buckets of the row's cells left
/// (right) of `split` step by 4 from there. (Every cell left of `split` has the
/// fractional part of the distance of `split - 1`, every other that of `split`.)
#[derive(Clone, Copy, Default)]
struct Row {
    y: u32,
    bl: usize,
    br: usize,
    cl: bool,
    cr: bool,
}

impl Centroid {
    /// Whether a segment whose nearest cell has fixed point distance `fd` has buckets
    /// stepping by 4 from that cell's (`fd >> 30`, the integer part of `4 fd`): the fixed
    /// point distance is within 2^-30 of the computed one (`4 fd` within 2^-28 of 4 times
    /// it), so a fractional part of `4 fd` at least 2^-20 from an integer is safe (every
    /// cell of the segment has the same one).
    #[inline(always)]
    fn consecutive(&self, fd: i64) -> bool {
        self.exact || (1 << 12..=(1 << 32) - (1 << 12)).contains(&((fd << 2) & 0xffff_ffff))
    }

    #[inline(always)]
    fn row(&self, y: u32) -> Row {
        let fay = ((i64::from(y) << 32) - self.fcy).abs();
        let (fl, fr) = (self.fl0 + fay, self.fr0 + fay);
        Row {
            y,
            bl: (fl >> 30) as usize,
            br: (fr >> 30) as usize,
            cl: self.consecutive(fl),
            cr: self.consecutive(fr),
        }
    }

    /// The computed distance of cell `(x, y)`.
    #[inline(always)]
    fn dist(&self, x: u32, y: u32) -> f64 {
        (x as f64 - self.cx).abs() + (y as f64 - self.cy).abs()
    }

    /// The histogram of the buckets of the cells of `runs`, as differences, and the runs'
    /// segments (each left of `split` or not) in `segs` (from 0, at most two per run; the
    /// count is returned).
    #[inline(never)]
    fn histogram(&self, runs: Runs, diff: &mut [i32], segs: &mut [Seg]) -> usize {
        let split = self.split;
        let mut at = Row {
            y: u32::MAX,
            ..Row::default()
        };
        let mut n = 0;
        for r in runs {
            if r.y != at.y {
                at = self.row(r.y);
            }
            // The left segment x0..l1 (nearest cell last, `split - l1` columns further than
            // `split - 1`) and the right one r0..x1 (nearest first); each cell further is 4
            // buckets further.
            if r.x0 < split {
                let l1 = r.x1.min(split);
                let len = l1 - r.x0;
                segs[n] = if at.cl {
                    let b = at.bl + 4 * (split - l1) as usize;
                    diff[b] += 1;
                    diff[b + 4 * len as usize] -= 1;
                    Seg {
                        y: r.y,
                        xn: l1 - 1,
                        len,
                        b: b as u32,
                    }
                } else {
                    self.count(diff, r.x0..l1, r.y);
                    Seg {
                        y: r.y,
                        xn: r.x0,
                        len,
                        b: Seg::CELLS,
                    }
                };
                n += 1;
            }
            if r.x1 > split {
                let r0 = r.x0.max(split);
                let len = r.x1 - r0;
                let mut b = Seg::CELLS;
                if at.cr {
                    let b0 = at.br + 4 * (r0 - split) as usize;
                    diff[b0] += 1;
                    diff[b0 + 4 * len as usize] -= 1;
                    b = b0 as u32;
                } else {
                    self.count(diff, r0..r.x1, r.y);
                }
                segs[n] = Seg {
                    y: r.y,
                    xn: r0,
                    len,
                    b,
                };
                n += 1;
            }
        }
        n
    }

    /// Counts the cells `xs` of row `y` in the histogram `diff`, one by one.
    #[inline(never)]
    fn count(&self, diff: &mut [i32], xs: std::ops::Range<u32>, y: u32) {
        for x in xs {
            let b = (self.dist(x, y) * 4.0) as usize;
            diff[b] += 1;
            diff[b + 4] -= 1;
        }
    }

    /// Keys the cells of `segs` in `bucket` (`rw` wide region) into `keys` (from 0; the
    /// count is returned), see [`super::areas::centre`].
    #[inline(never)]
    fn keys(&self, segs: &[Seg], bucket: usize, rw: usize, keys: &mut [u128]) -> usize {
        // `(dm * 4.0) as usize == bucket` for a distance dm >= 0 is
        // `bucket / 4 <= dm < (bucket + 1) / 4` (exact quarters).
        let (lo, hi) = (bucket as f64 / 4.0, (bucket + 1) as f64 / 4.0);
        let mut n = 0;
        let mut key = |x: u32, y: u32| {
            let dm = self.dist(x, y);
            if lo <= dm && dm < hi {
                keys[n] = key(dm, (y as usize * rw + x as usize) as u32);
                n += 1;
            }
        };
        for s in segs {
            if s.b == Seg::CELLS {
                (s.xn..s.xn + s.len).for_each(|x| key(x, s.y));
                continue;
            }
            // The cell `i` steps from the nearest has bucket b + 4i.
            let t = bucket.wrapping_sub(s.b as usize);
            let i = t >> 2;
            if t & 3 == 0 && i < s.len as usize {
                let x = if s.xn < self.split {
                    s.xn - i as u32
                } else {
                    s.xn + i as u32
                };
                key(x, s.y);
            }
        }
        n
    }
}

/// A segment of a run, `len` cells of row `y`, all left of `split` or none: `b` is the
/// bucket of the cell nearest `cx`, column `xn` (the segment's last cell if it is left of
/// `split`, else its first), the others' are consecutive from it; or [`Seg::CELLS`], each
/// cell has its own (then `xn` is the first cell).
#[derive(Clone, Copy, Debug, Default)]
pub struct Seg {
    y: u32,
    xn: u32,
    len: u32,
    b: u32,
}

impl Seg {
    const CELLS: u32 = u32::MAX;
}

/// The centre of the area `a` made of `runs`, for rank `k` (region-local index).
#[inline(always)]
pub fn centre(
    runs: Runs,
    a: &Area,
    k: usize,
    (rw, rh): (usize, usize),
    hist: &mut Vec<i32>,
    segs: &mut Vec<Seg>,
    keys: &mut Vec<u128>,
) -> usize {
    let index = |x: u32, y: u32| (y as usize * rw + x as usize) as u32;
    if a.len == 1 {
        let r = runs.first();
        return index(r.x0, r.y) as usize;
    }
    let n = a.len as f64;
    let (cx, cy) = (a.sx as f64 / n, a.sy as f64 / n);
    let dist = |x: u32, ay: f64| (x as f64 - cx).abs() + ay;
    if 4 * a.len < (rw + rh) as u64 {
        // Small areas: key every cell.
        keys.clear();
        for r in runs {
            let ay = (r.y as f64 - cy).abs();
            keys.extend((r.x0..r.x1).map(|x| key(dist(x, ay), index(x, r.y))));
        }
        return kth(keys, k);
    }
    // At most 20 fractional bits (v * 2^20 is below 2^40: the u64 round trip is exact).
    let frac20 = |v: f64| {
        let t = v * (1u64 << 20) as f64;
        t == (t as u64) as f64
    };
    // 32.32 fixed point, truncated (error below 2^-32): |x - cx| and |y - cy| from integer
    // operations are within 2^-32 of the exact ones of the float cx, cy.
    let fix = |v: f64| (v * (1u64 << 32) as f64) as i64;
    let (fcx, split) = (fix(cx), cx as u32 + 1);
    let c = Centroid {
        cx,
        cy,
        fcy: fix(cy),
        split,
        fl0: fcx - (i64::from(split - 1) << 32),
        fr0: (i64::from(split) << 32) - fcx,
        exact: frac20(cx) && frac20(cy),
    };
    // cx lies within the columns and cy within the rows, and the float sum of two terms is
    // at most the (exact) integer sum of their bounds: distances are below rw + rh, buckets
    // below 4(rw + rh), and the differences end at most 4 past them.
    hist.clear();
    hist.resize(4 * (rw + rh) + 4, 0);
    // Buffers only grow (no clearing): the passes write them from 0 by index.
    let most = 2 * a.runs as usize;
    if segs.len() < most {
        segs.resize(most, Seg::default());
    }
    let nsegs = c.histogram(runs, hist, segs);
    // The count of bucket `q` is the sum of the differences at `q`, `q - 4`, ...: groups of
    // four buckets at a time (the length is a multiple of 4, and the k-th cell's bucket is
    // below it).
    let (mut bucket, mut before, mut sums) = (0, 0, [0i32; 4]);
    let here = loop {
        let counts: [i32; 4] = std::array::from_fn(|i| sums[i] + hist[bucket + i]);
        let total = counts.iter().sum::<i32>() as usize;
        if before + total > k {
            let mut i = 0;
            while before + counts[i] as usize <= k {
                before += counts[i] as usize;
                i += 1;
            }
            bucket += i;
            break counts[i];
        }
        before += total;
        sums = counts;
        bucket += 4;
    };
    let here = here as usize;
    if keys.len() < here {
        keys.resize(here, 0);
    }
    let n = c.keys(&segs[..nsegs], bucket, rw, keys);
    debug_assert_eq!(n, here, "keys as counted");
    kth(&mut keys[..here], k - before)
}
