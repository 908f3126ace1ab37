//! Stage 2 of `turtle_connect` on runs: every area's centre from the runs (see module
//! `runs` for the method), with the same float operations as [`super::areas::centre`]
//! wherever a distance is computed.
//!
//! Buckets here are quarters: the bucket of a distance `d` is the integer part of `4d` (an
//! exact scaling), so the chosen bucket holds about a quarter of the cells an integer one
//! would, and fewer are keyed and selected among. The histogram of differences has stride 4
//! (its counts are running sums per residue mod 4).
//!
//! The areas are split in quadrants by the column `split` (columns below it are at or left
//! of `cx`) and the row `ymid` (the integer part of `cy`; rows at or above it are the upper
//! ones). In a quadrant, a cell `u` columns and `v` rows away from the quadrant's corner
//! cell (nearest the centroid) has the exact distance `u + v + f` for the quadrant's
//! fraction `f` (in `0..2`), so when its computed distance has the exact one's quarter
//! bucket (see module `runs`) its bucket is `4(u + v) + e` with `e` the bucket of `f`;
//! whether that holds depends on the quadrant only (the fixed point test), and cells of
//! other quadrants are counted one by one. All areas are handled at once in two sweeps
//! over the runs in scan order, each area with its own part of the buffers: the histogram
//! sweep adds each run's two segments (left of `split`, and the rest; an empty one adds and
//! takes one at the same place) to its area's histogram of differences; after each area's
//! bucket is found, the keys sweep keys the cells of that bucket (at most one per segment
//! in a consecutive quadrant, found by index; every cell of a small area). The buffers
//! only grow. The histograms need no clearing: each area zeroes its part as it reads it
//! (past the chosen bucket, up to its last cell's group and the next one, or after a few
//! groups the rest of the part at once), so the buffer is zero between passes.

use super::areas::{key, kth};
use super::runs::Run;

/// One area: its sums, then what the sweeps need of it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Area {
    /// Cells, sum of columns, sum of rows.
    len: u64,
    sx: u64,
    sy: u64,
    /// Its first run.
    first: u32,
    /// The drawn rank, then the rank within the keyed cells.
    k: usize,
    cx: f64,
    cy: f64,
    /// Whether every cell is keyed (no histogram).
    small: bool,
    /// Columns below `split` are left, rows up to `ymid` upper.
    split: u32,
    ymid: u32,
    /// Per quadrant (upper left, upper right, lower left, lower right): the bucket `e` of
    /// its fraction, and whether its buckets are `4(u + v) + e` (else counted per cell).
    e: [u32; 4],
    cons: [bool; 4],
    /// Where its histogram starts in the shared buffer, and its length.
    hbase: usize,
    hlen: usize,
    /// Whether its keys are found from the [`Grid`] (else in the keys sweep).
    grid: bool,
    /// Where its keys start in the shared buffer, and how many are written.
    kbase: usize,
    kn: usize,
    /// The chosen bucket's bounds, and per quadrant the `u + v` of its cells in it
    /// ([`Area::NONE`] when none is).
    lo: f64,
    hi: f64,
    nq: [i64; 4],
}

impl Area {
    /// No cell of the quadrant is in the bucket.
    const NONE: i64 = i64::MIN / 4;
    /// This many groups of buckets past the chosen one (or up to the part's end) are
    /// counted to find the end of the histogram (see [`Area::choose`]).
    const COUNTED: usize = 8;

    /// An area whose first run in scan order is `first`.
    pub fn new(first: u32) -> Area {
        Area {
            first,
            ..Area::default()
        }
    }

    /// Adds the sums `[cells, columns, rows]` of a part of the area.
    #[inline(always)]
    pub fn add(&mut self, s: [u64; 3]) {
        self.len += s[0];
        self.sx += s[1];
        self.sy += s[2];
    }

    /// The computed distance of cell `(x, y)`.
    #[inline(always)]
    fn dist(&self, x: u32, y: u32) -> f64 {
        (x as f64 - self.cx).abs() + (y as f64 - self.cy).abs()
    }

    /// The centroid and the quadrants, for rank `k` in a `(rw, rh)` region; the area's
    /// histogram takes `hist` on (a small area's keys `keys` on).
    fn plan(&mut self, k: usize, (rw, rh): (usize, usize), hist: &mut usize, keys: &mut usize) {
        let n = self.len as f64;
        (self.k, self.cx, self.cy) = (k, self.sx as f64 / n, self.sy as f64 / n);
        self.kn = 0;
        self.small = 4 * self.len < (rw + rh) as u64;
        if self.small {
            // Small areas: key every cell.
            self.kbase = *keys;
            *keys += self.len as usize;
            return;
        }
        // At most 20 fractional bits (v * 2^20 is below 2^40: the u64 round trip is exact).
        let frac20 = |v: f64| {
            let t = v * (1u64 << 20) as f64;
            t == (t as u64) as f64
        };
        let exact = frac20(self.cx) && frac20(self.cy);
        // 32.32 fixed point, truncated (error below 2^-32): |x - cx| and |y - cy| from
        // integer operations are within 2^-32 of the exact ones of the float cx, cy.
        let fix = |v: f64| (v * (1u64 << 32) as f64) as i64;
        let (fcx, fcy) = (fix(self.cx), fix(self.cy));
        self.split = self.cx as u32 + 1;
        self.ymid = (fcy >> 32) as u32;
        // The fixed point |x - cx| of the columns split - 1 and split, |y - cy| of the rows
        // ymid and ymid + 1: a quadrant's corner cell has their sum, and its other cells
        // that plus whole numbers.
        let (fl, fr) = (
            fcx - (i64::from(self.split - 1) << 32),
            (i64::from(self.split) << 32) - fcx,
        );
        let (fu, fd) = (
            fcy - (i64::from(self.ymid) << 32),
            (i64::from(self.ymid + 1) << 32) - fcy,
        );
        for (q, f) in [fl + fu, fr + fu, fl + fd, fr + fd].into_iter().enumerate() {
            // The bucket of the corner, `f >> 30`, and the fixed point test: `f` is within
            // 2^-30 of the computed distance (`4f` within 2^-28 of 4 times it), so a
            // fractional part of `4f` at least 2^-20 from an integer is safe (every cell of
            // the quadrant has the same one).
            self.e[q] = (f >> 30) as u32;
            self.cons[q] =
                exact || (1 << 12..=(1 << 32) - (1 << 12)).contains(&((f << 2) & 0xffff_ffff));
        }
        // cx lies within the columns and cy within the rows, and the float sum of two terms
        // is at most the (exact) integer sum of their bounds: distances are below rw + rh,
        // and below the area's cells (its cells are at most `len - 1` apart, and so are
        // they from the centroid); buckets below 4 times that, and the differences end at
        // most 4 past them (an empty segment's two at `4v + e`, below `4 len + 4`).
        self.hbase = *hist;
        self.hlen = 4 * (self.len as usize).min(rw + rh) + 4;
        *hist += self.hlen;
    }

    /// The row of a run: its quadrants (upper left and right, or lower), and its rows from
    /// the corners.
    #[inline(always)]
    fn row(&self, y: u32) -> (usize, u32) {
        if y <= self.ymid {
            (0, self.ymid - y)
        } else {
            (2, y - self.ymid - 1)
        }
    }

    /// The histogram of the buckets of a run's cells, as differences, into the area's part
    /// `diff`, for an area with some quadrant counted per cell.
    #[inline(never)]
    fn histogram(&self, r: Run, diff: &mut [i32]) {
        let (q, v) = self.row(r.y);
        let sp = self.split;
        // The left segment l0..l1 (nearest cell last, `u = sp - 1 - x`) and the right one
        // r0..r1 (nearest first, `u = x - sp`); empty ones add nothing.
        let (l0, l1) = (r.x0.min(sp), r.x1.min(sp));
        let (r0, r1) = (r.x0.max(sp), r.x1.max(sp));
        let at = |u: u32, e: u32| 4 * (u + v) as usize + e as usize;
        if !self.cons[q] {
            self.count(diff, l0..l1, r.y);
        } else if l0 < l1 {
            diff[at(sp - l1, self.e[q])] += 1;
            diff[at(sp - l0, self.e[q])] -= 1;
        }
        if !self.cons[q + 1] {
            self.count(diff, r0..r1, r.y);
        } else if r0 < r1 {
            diff[at(r0 - sp, self.e[q + 1])] += 1;
            diff[at(r1 - sp, self.e[q + 1])] -= 1;
        }
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

    /// Finds the bucket of the cell of rank `k` from the histogram `diff` (the area's
    /// part): the area then keys that bucket's cells, from `keys` on. Leaves `diff` zero.
    fn choose(&mut self, diff: &mut [i32], keys: &mut usize) {
        let k = self.k;
        // The count of bucket `b` is the sum of the differences at `b`, `b - 4`, ...: groups
        // of four buckets at a time (the length is a multiple of 4, and the k-th cell's
        // bucket is below it). Each group is zeroed once read.
        let end = diff.len();
        let mut group = |g: usize, sums: &mut [i32; 4]| {
            let d: &mut [i32; 4] = (&mut diff[g..g + 4]).try_into().expect("four buckets");
            let counts: [i32; 4] = std::array::from_fn(|i| sums[i] + d[i]);
            *d = [0; 4];
            *sums = counts;
            counts.iter().sum::<i32>() as usize
        };
        let (mut g, mut before, mut sums) = (0, 0, [0i32; 4]);
        let (bucket, here) = loop {
            let total = group(g, &mut sums);
            if before + total > k {
                let mut i = 0;
                while before + sums[i] as usize <= k {
                    before += sums[i] as usize;
                    i += 1;
                }
                break (g + i, sums[i]);
            }
            before += total;
            g += 4;
        };
        // The rest of the histogram, zeroed: a few groups past the chosen one are counted;
        // if they hold the last cells, the group after them holds the last cells' ends (a
        // segment's differences end 4 past its last bucket; the part holds them: see
        // `plan`), else the rest of the part is zeroed whole.
        // The count of groups is fixed (a loop that stops at the last cell mispredicts).
        let mut seen = before + sums[bucket - g..].iter().sum::<i32>() as usize;
        let mut h = g + 4;
        while h < (g + 4 + 4 * Area::COUNTED).min(end) {
            seen += group(h, &mut sums);
            h += 4;
        }
        if seen < self.len as usize {
            diff[h..].fill(0);
        } else if h < end {
            group(h, &mut sums);
        }
        self.k = k - before;
        self.kbase = *keys;
        *keys += here as usize;
        // `(dm * 4.0) as usize == bucket` for a distance dm >= 0 is
        // `bucket / 4 <= dm < (bucket + 1) / 4` (exact quarters).
        (self.lo, self.hi) = (bucket as f64 / 4.0, (bucket + 1) as f64 / 4.0);
        for q in 0..4 {
            let t = bucket.wrapping_sub(self.e[q] as usize);
            self.nq[q] = if self.cons[q] && t <= bucket && t & 3 == 0 {
                (t >> 2) as i64
            } else {
                Area::NONE
            };
        }
    }

    /// Keys the cells of the area `id` in the chosen bucket from the grid: in each
    /// quadrant, the cells with `u + v` the quadrant's `n` (one per row) that belong to the
    /// area. Every quadrant is consecutive.
    fn grid_keys(&mut self, id: u32, grid: Grid, area_of: &[u32], keys: &mut [u128]) {
        let (rw, rh) = (grid.rw, grid.words.len() as i64);
        let (sp, ym) = (i64::from(self.split), i64::from(self.ymid));
        for q in 0..4 {
            let n = self.nq[q];
            if n < 0 {
                continue;
            }
            let left = q & 1 == 0;
            // The farthest column from the corner, and the farthest row (the region's first
            // or last): the rows `v` with the cell `u = n - v` in the region.
            let umax = if left { sp - 1 } else { rw as i64 - 1 - sp };
            let vmax = if q < 2 { ym } else { rh - 2 - ym };
            for v in (n - umax).max(0)..=n.min(vmax) {
                let y = if q < 2 { ym - v } else { ym + 1 + v };
                let x = if left { sp - 1 - (n - v) } else { sp + (n - v) };
                let word = grid.words[y as usize];
                if (word >> x) & 1 == 0 {
                    continue;
                }
                // The run holding x ends at the first last cell at or right of it.
                let e = (word & !(word >> 1) & (u64::MAX << x)).trailing_zeros() as usize;
                if area_of[grid.labs[y as usize * rw + e] as usize] != id {
                    continue;
                }
                let (x, y) = (x as u32, y as u32);
                let dm = self.dist(x, y);
                // The quadrant is consecutive: the cell's bucket is `4n + e`, the chosen one.
                debug_assert!(self.lo <= dm && dm < self.hi);
                keys[self.kbase + self.kn] = key(dm, (y as usize * rw + x as usize) as u32);
                self.kn += 1;
            }
        }
    }

    /// Keys the cells of the run `r` in the chosen bucket (every cell, for a small area)
    /// into `keys`, see [`super::areas::centre`].
    #[inline(always)]
    fn keys(&mut self, r: Run, rw: usize, keys: &mut [u128]) {
        let index = |x: u32| (r.y as usize * rw + x as usize) as u32;
        if self.small {
            let ay = (r.y as f64 - self.cy).abs();
            for x in r.x0..r.x1 {
                keys[self.kbase + self.kn] = key((x as f64 - self.cx).abs() + ay, index(x));
                self.kn += 1;
            }
            return;
        }
        let (lo, hi) = (self.lo, self.hi);
        let mut put = |a: &mut Area, x: u32| {
            let dm = a.dist(x, r.y);
            if lo <= dm && dm < hi {
                keys[a.kbase + a.kn] = key(dm, index(x));
                a.kn += 1;
            }
        };
        let (q, v) = self.row(r.y);
        let sp = self.split;
        let (l0, l1) = (r.x0.min(sp), r.x1.min(sp));
        let (r0, r1) = (r.x0.max(sp), r.x1.max(sp));
        if self.cons[q] {
            // The cell `u = n - v` from the corner.
            let x = i64::from(sp) - 1 - (self.nq[q] - i64::from(v));
            if i64::from(l0) <= x && x < i64::from(l1) {
                put(self, x as u32);
            }
        } else {
            (l0..l1).for_each(|x| put(self, x));
        }
        if self.cons[q + 1] {
            let x = i64::from(sp) + (self.nq[q + 1] - i64::from(v));
            if i64::from(r0) <= x && x < i64::from(r1) {
                put(self, x as u32);
            }
        } else {
            (r0..r1).for_each(|x| put(self, x));
        }
    }
}

/// The rows of a region at most 64 wide: each row's hits, and the provisional area of each
/// run at its last cell (row-major, `rw` wide, `words.len()` rows).
#[derive(Clone, Copy)]
pub struct Grid<'a> {
    pub words: &'a [u64],
    pub labs: &'a [u32],
    pub rw: usize,
}

/// What the histogram sweep reads of an area whose quadrants are all consecutive
/// ([`Hot::SKIP`] for others): its histogram's start, `split`, `ymid` and the quadrants' `e`.
#[derive(Clone, Copy, Debug, Default)]
struct Hot {
    hbase: u32,
    split: u32,
    ymid: u32,
    e: [u32; 4],
}

impl Hot {
    /// Not in the sweep.
    const SKIP: u32 = u32::MAX;

    /// Adds a run's two segments (left of `split` and the rest) to the histogram of
    /// differences `hist`; an empty segment adds and takes one at the same slot (which
    /// costs less than moving its changes to a spare slot without branches: measured).
    #[inline(always)]
    fn histogram(self, r: Run, hist: &mut [i32]) {
        let (el, er, v) = if r.y <= self.ymid {
            (self.e[0], self.e[1], self.ymid - r.y)
        } else {
            (self.e[2], self.e[3], r.y - self.ymid - 1)
        };
        let sp = self.split;
        let base = (self.hbase + 4 * v) as usize;
        let (l0, l1) = (r.x0.min(sp), r.x1.min(sp));
        let (r0, r1) = (r.x0.max(sp), r.x1.max(sp));
        // Left: the nearest cell last, `u = sp - 1 - x`; right: nearest first, `u = x - sp`
        // (both in range for empty segments too). Which segments are empty is data: no
        // branches.
        let at = base + el as usize;
        hist[at + 4 * (sp - l1) as usize] += 1;
        hist[at + 4 * (sp - l0) as usize] -= 1;
        let at = base + er as usize;
        hist[at + 4 * (r0 - sp) as usize] += 1;
        hist[at + 4 * (r1 - sp) as usize] -= 1;
    }
}

/// Buffers of the centroid stage.
#[derive(Default)]
pub struct Scratch {
    /// The areas in the order of their first cells.
    pub areas: Vec<Area>,
    /// The areas for the histogram sweep.
    hot: Vec<Hot>,
    /// The areas' histograms of differences (zero between passes when `clean`).
    hist: Vec<i32>,
    clean: bool,
    /// `(distance bits, region-local index)` of the keyed cells, per area.
    keys: Vec<u128>,
}

impl Scratch {
    /// Whether the histograms are all zero, as every pass leaves them.
    #[cfg(test)]
    pub fn hist_is_clean(&self) -> bool {
        self.hist.iter().all(|&h| h == 0)
    }
}

/// What stage 1 found of a `(rw, rh)` region: its runs in scan order, the run `r` of the
/// area `area_of[r.lab]`, whose rows start at the runs `rows` (and end at the last), and its
/// [`Grid`] if it is at most 64 wide.
pub struct Found<'a> {
    pub runs: &'a [Run],
    pub area_of: &'a [u32],
    pub rows: &'a [u32],
    pub grid: Option<Grid<'a>>,
    pub rw: usize,
    pub rh: usize,
}

/// The centre (region-local index) of each area of `s.areas` (with their sums) in the
/// region `found`, appended to `out` in order; `rank(n)` draws the rank of an area of `n`
/// cells.
pub fn centres(
    found: Found,
    s: &mut Scratch,
    rank: &mut impl FnMut(usize) -> usize,
    out: &mut Vec<usize>,
) {
    let Found {
        runs,
        area_of,
        rows,
        grid,
        rw,
        rh,
    } = found;
    let areas = &mut s.areas[..];
    let (mut hist, mut keys) = (0, 0);
    // Whether some area keys its cells in the sweep.
    let mut sweep = false;
    for a in areas.iter_mut() {
        let k = rank(a.len as usize);
        a.plan(k, (rw, rh), &mut hist, &mut keys);
        a.grid = !a.small && grid.is_some() && a.cons.iter().all(|&c| c);
        sweep |= !a.grid && !a.small;
    }
    if hist > 0 {
        // The histograms are zero between passes (each area's `choose` zeroes its part),
        // unless a pass was cut short.
        if !s.clean {
            s.hist.fill(0);
        }
        if s.hist.len() < hist {
            s.hist.resize(hist, 0);
        }
        s.clean = false;
        // Areas with a quadrant counted per cell are swept on their own.
        s.hot.clear();
        let mut slow = false;
        for a in &*areas {
            let cons = !a.small && a.cons.iter().all(|&c| c);
            slow |= !a.small && !cons;
            s.hot.push(Hot {
                hbase: if cons { a.hbase as u32 } else { Hot::SKIP },
                split: a.split,
                ymid: a.ymid,
                e: a.e,
            });
        }
        for &r in runs {
            let h = s.hot[area_of[r.lab as usize] as usize];
            if h.hbase != Hot::SKIP {
                h.histogram(r, &mut s.hist);
            }
        }
        if slow {
            for &r in runs {
                let a = &areas[area_of[r.lab as usize] as usize];
                if !a.small && !a.cons.iter().all(|&c| c) {
                    a.histogram(r, &mut s.hist[a.hbase..]);
                }
            }
        }
        for a in areas.iter_mut().filter(|a| !a.small) {
            a.choose(&mut s.hist[a.hbase..a.hbase + a.hlen], &mut keys);
        }
        s.clean = true;
    }
    if s.keys.len() < keys {
        s.keys.resize(keys, 0);
    }
    if let Some(grid) = grid {
        for (id, a) in areas.iter_mut().enumerate().filter(|a| a.1.grid) {
            a.grid_keys(id as u32, grid, area_of, &mut s.keys);
        }
    }
    if sweep {
        for &r in runs {
            let a = &mut areas[area_of[r.lab as usize] as usize];
            if !a.grid && !a.small {
                a.keys(r, rw, &mut s.keys);
            }
        }
    }
    // A small area's runs lie within its first `len` rows.
    for (id, a) in areas.iter_mut().enumerate().filter(|a| a.1.small) {
        let y = runs[a.first as usize].y as usize;
        let end = rows[(y + a.len as usize).min(rh)] as usize;
        for &r in &runs[a.first as usize..end] {
            if area_of[r.lab as usize] == id as u32 {
                a.keys(r, rw, &mut s.keys);
            }
        }
    }
    out.reserve(areas.len());
    for a in &*areas {
        out.push(kth(&mut s.keys[a.kbase..a.kbase + a.kn], a.k));
    }
}
