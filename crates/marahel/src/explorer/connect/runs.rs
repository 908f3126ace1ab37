//! Stages 1 and 2 of `turtle_connect` with the 4-neighbourhood, on horizontal runs.
//!
//! One scan over the rows finds each row's runs of entity cells (from per-row bitmasks,
//! eight cells per word compare) and joins them by union-find to the previous row's runs
//! they overlap. Links only go to lower runs, so a component's root is its first run in
//! scan order, and one more pass in scan order numbers the areas in the order of their
//! first cells (the flood fill's numbers), sums each area's cells, columns and rows, and
//! then the runs are grouped by area (a counting sort; each area's runs stay in scan order).
//!
//! Each area's centre is then found from its runs (no per-cell list), with the same float
//! operations as [`super::areas::centre`] where a distance is computed (so the same
//! distance bits). A single cell is its own centre; small areas key every cell. Others:
//! * the sums are arithmetic series per run;
//! * the histogram of the distances' integer parts (buckets) is kept as differences: on one
//!   row, the cells of a run on one side of `cx` are a segment whose exact distances
//!   `|x - cx| + |y - cy|` (of the float `cx`, `cy`) step by 1 from the cell nearest `cx`,
//!   so their buckets are consecutive from that cell's, as long as the computed distance
//!   has the exact one's integer part. That holds when the computation is exact (`cx` and
//!   `cy` have at most 20 fractional bits, distances are below 2^21), or when the nearest
//!   cell's exact distance is at least 2^-20 from an integer (the float rounding error is
//!   below 2^-32, and every cell of the segment has the same fractional part). The nearest
//!   cell's bucket is read from a 32.32 fixed point distance (integer operations, within
//!   2^-31 of the exact one; exact when the float one is). Other segments count cell by
//!   cell;
//! * the cells of the chosen bucket are then one cell per such segment, found by index
//!   (rows whose `|y - cy|` alone reaches past the bucket are skipped), and keyed.
//!
//! Regions of more than 2^20 cells use the flood fill instead (distances below 2^20 keep
//! the fixed point below 2^52). The buffers are kept per thread from one pass to the next.

use super::areas::{View, kth};
use std::cell::RefCell;

/// Regions up to this many cells use the runs.
pub const MAX_CELLS: usize = 1 << 20;

/// A run of entity cells of row `y`, columns `x0..x1` (region-local).
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    y: u32,
    x0: u32,
    x1: u32,
}

/// One area's sums.
#[derive(Clone, Copy, Debug, Default)]
struct Area {
    /// Cells, sum of columns, sum of rows.
    len: u64,
    sx: u64,
    sy: u64,
    /// Runs, then where the area's runs start in [`Scratch::grouped`].
    runs: u32,
}

/// Buffers of the run-based path.
#[derive(Default)]
pub struct Scratch {
    /// The runs in scan order.
    runs: Vec<Run>,
    /// Union-find parents, then each run's area.
    up: Vec<u32>,
    areas: Vec<Area>,
    /// The runs grouped by area (each area's in scan order).
    grouped: Vec<Run>,
    /// Cells per bucket, as differences.
    hist: Vec<i32>,
    /// `(distance bits, region-local index)` of the keyed cells.
    keys: Vec<(u64, u32)>,
}

thread_local! {
    /// The buffers of the last pass on this thread, kept for the next.
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Runs `f` with this thread's buffers (fresh ones if they are in use), and keeps them for
/// the next pass unless they grew past a large region's needs.
pub fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => {
            let t = f(&mut s);
            if s.runs.capacity() > 1 << 16 {
                *s = Scratch::default();
            }
            t
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Bit `i` set iff byte `i` of `word` equals the byte repeated in `pat` (exact: no carries
/// between bytes), for `i` in `0..8`.
#[inline(always)]
fn eq_bits(word: u64, pat: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ pat;
    // 0x80 in each byte of x that is zero.
    let z = !(((x & LOW7) + LOW7) | x | LOW7);
    // Bits 7, 15, ..., 63 to bits 56..64 (the products land on distinct bits: no carries).
    (z >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The hits of up to 64 cells as bits; `bits8` gives the hits of eight cells read as a
/// little-endian word, as bits 0..8.
#[inline(always)]
fn hit_bits(chunk: &[u8], bits8: impl Fn(u64) -> u64, hit: impl Fn(u8) -> bool) -> u64 {
    let word8 = |c8: &[u8]| bits8(u64::from_le_bytes(c8.try_into().expect("eight cells")));
    // Each group of eight cells enters at the top (a shift recurrence, which the compiler
    // keeps scalar: its vector form of the 64-bit multiply costs more).
    let mut word = 0u64;
    let mut eights = chunk.chunks_exact(8);
    for c8 in &mut eights {
        word = (word >> 8) | (word8(c8) << 56);
    }
    let done = chunk.len() & !7;
    word = word.checked_shr(64 - done as u32).unwrap_or(0);
    let rest = eights.remainder();
    if rest.is_empty() {
        word
    } else if done > 0 {
        // The last eight cells, overlapping the groups already read.
        word | (word8(&chunk[chunk.len() - 8..]) << (chunk.len() - 8))
    } else {
        rest.iter()
            .enumerate()
            .fold(0, |w, (i, &c)| w | u64::from(hit(c)) << i)
    }
}

/// Appends the runs of `cells` (row `y`) with `hit(cells[x])`, see [`hit_bits`].
#[inline(always)]
fn row_runs(
    cells: &[u8],
    y: u32,
    bits8: impl Fn(u64) -> u64 + Copy,
    hit: impl Fn(u8) -> bool + Copy,
    runs: &mut Vec<Run>,
) {
    let mut open = false;
    let mut start = 0;
    let mut carry = 0; // the previous word's last bit
    for (wi, chunk) in cells.chunks(64).enumerate() {
        let word = hit_bits(chunk, bits8, hit);
        // Bits where a run starts or ends.
        let mut edges = word ^ ((word << 1) | carry);
        carry = word >> 63;
        while edges != 0 {
            let x = (wi * 64) as u32 + edges.trailing_zeros();
            if open {
                runs.push(Run {
                    y,
                    x0: start,
                    x1: x,
                });
            } else {
                start = x;
            }
            open = !open;
            edges &= edges - 1;
        }
    }
    if open {
        runs.push(Run {
            y,
            x0: start,
            x1: cells.len() as u32,
        });
    }
}

/// The root of run `a`, halving the path.
#[inline(always)]
fn root(up: &mut [u32], mut a: u32) -> u32 {
    while up[a as usize] != a {
        up[a as usize] = up[up[a as usize] as usize];
        a = up[a as usize];
    }
    a
}

/// Stage 1: the runs, each run's area in `s.up`, and the areas' sums in `s.areas`.
fn find_areas(g: &View, entities: &[bool], s: &mut Scratch) {
    let codes: Vec<u8> = (0..entities.len().min(256))
        .filter(|&c| entities[c])
        .map(|c| c as u8)
        .collect();
    let hit = |c: u8| entities.get(c as usize).copied().unwrap_or(false);
    let splat = |c: u8| u64::from(c) * 0x0101_0101_0101_0101;
    // One row loop per way of matching eight cells at once.
    match codes[..] {
        [a] => {
            let pa = splat(a);
            scan_rows(g, |v| eq_bits(v, pa), hit, s)
        }
        [a, b] => {
            let (pa, pb) = (splat(a), splat(b));
            scan_rows(g, |v| eq_bits(v, pa) | eq_bits(v, pb), hit, s)
        }
        _ => {
            let bits8 = |v: u64| {
                v.to_le_bytes()
                    .iter()
                    .enumerate()
                    .fold(0, |m, (i, &c)| m | u64::from(hit(c)) << i)
            };
            scan_rows(g, bits8, hit, s)
        }
    }
    // Areas in the order of their first runs (roots come first). Links only go to lower
    // runs, so in scan order a run's parent already holds its area.
    let (runs, up, areas) = (&s.runs, &mut s.up[..], &mut s.areas);
    areas.clear();
    for (i, r) in runs.iter().enumerate() {
        let p = up[i] as usize;
        let a = if p == i {
            areas.push(Area::default());
            areas.len() - 1
        } else {
            up[p] as usize
        };
        up[i] = a as u32;
        let ar = &mut areas[a];
        let l = u64::from(r.x1 - r.x0);
        ar.len += l;
        // Sum of x over a run: (x0 + x1 - 1) * len / 2, exact (the product is even).
        ar.sx += (u64::from(r.x0) + u64::from(r.x1) - 1) * l / 2;
        ar.sy += u64::from(r.y) * l;
        ar.runs += 1;
    }
    // The runs grouped by area.
    let mut at = 0;
    for a in areas.iter_mut() {
        (a.runs, at) = (at, at + a.runs);
    }
    s.grouped.clear();
    s.grouped.resize(runs.len(), Run::default());
    for (r, &a) in runs.iter().zip(up.iter()) {
        let ar = &mut areas[a as usize];
        s.grouped[ar.runs as usize] = *r;
        ar.runs += 1;
    }
}

/// The runs of every row with a given way of matching cells (see [`hit_bits`]), joined by
/// union-find to the previous row's runs they overlap.
#[inline(always)]
fn scan_rows(
    g: &View,
    bits8: impl Fn(u64) -> u64 + Copy,
    hit: impl Fn(u8) -> bool + Copy,
    s: &mut Scratch,
) {
    let (runs, up) = (&mut s.runs, &mut s.up);
    runs.clear();
    up.clear();
    let mut prev = 0; // where the previous row's runs start
    for ly in 0..g.rh {
        let start = runs.len();
        row_runs(g.row(ly), ly as u32, bits8, hit, runs);
        up.extend(start as u32..runs.len() as u32);
        let (mut i, mut j) = (prev, start);
        while i < start && j < runs.len() {
            let (a, b) = (runs[i], runs[j]);
            if a.x0 < b.x1 && b.x0 < a.x1 {
                let (ra, rb) = (root(up, i as u32), root(up, j as u32));
                let (lo, hi) = (ra.min(rb), ra.max(rb));
                up[hi as usize] = lo;
            }
            if a.x1 <= b.x1 {
                i += 1;
            }
            if b.x1 <= a.x1 {
                j += 1;
            }
        }
        prev = start;
    }
}

/// The region-local centre of every area of `entities` in `g` (4-neighbourhood), in the
/// order of the areas' first cells, appended to `out`; `rank(n)` draws the rank of an
/// area of `n` cells. The same centres as [`super::areas::centre`] over each area's cells.
pub fn centres(
    g: &View,
    entities: &[bool],
    s: &mut Scratch,
    mut rank: impl FnMut(usize) -> usize,
    out: &mut Vec<usize>,
) {
    debug_assert!(g.rw * g.rh <= MAX_CELLS);
    find_areas(g, entities, s);
    let mut from = 0;
    for a in &s.areas {
        let runs = &s.grouped[from..a.runs as usize];
        from = a.runs as usize;
        let k = rank(a.len as usize);
        let (hist, keys) = (&mut s.hist, &mut s.keys);
        out.push(centre(runs, a, k, (g.rw, g.rh), hist, keys));
    }
}

/// The centre of the area `a` made of `runs`, for rank `k`.
#[inline(always)]
fn centre(
    runs: &[Run],
    a: &Area,
    k: usize,
    (rw, rh): (usize, usize),
    hist: &mut Vec<i32>,
    keys: &mut Vec<(u64, u32)>,
) -> usize {
    let index = |x: u32, y: u32| (y as usize * rw + x as usize) as u32;
    if a.len == 1 {
        return index(runs[0].x0, runs[0].y) as usize;
    }
    let n = a.len as f64;
    let (cx, cy) = (a.sx as f64 / n, a.sy as f64 / n);
    let dist = |x: u32, ay: f64| (x as f64 - cx).abs() + ay;
    keys.clear();
    if 4 * a.len < (rw + rh) as u64 {
        // Small areas: key every cell.
        for r in runs {
            let ay = (r.y as f64 - cy).abs();
            keys.extend((r.x0..r.x1).map(|x| (dist(x, ay).to_bits(), index(x, r.y))));
        }
        return kth(keys, k);
    }
    // At most 20 fractional bits (v * 2^20 is below 2^40: the u64 round trip is exact).
    let frac20 = |v: f64| {
        let t = v * (1u64 << 20) as f64;
        t == (t as u64) as f64
    };
    let exact = frac20(cx) && frac20(cy);
    // 32.32 fixed point, truncated (error below 2^-32): |x - cx| and |y - cy| from integer
    // operations are within 2^-32 of the exact ones of the float cx, cy.
    let fix = |v: f64| (v * (1u64 << 32) as f64) as i64;
    let (fcx, fcy) = (fix(cx), fix(cy));
    let fixed_ay = |y: u32| ((i64::from(y) << 32) - fcy).abs();
    // Whether a segment whose nearest cell has fixed point distance `fd` has consecutive
    // buckets from that cell's (`fd >> 32`): the fixed point distance is within 2^-30 of
    // the computed one, so a fractional part at least 2^-20 from an integer is safe.
    let consecutive =
        |fd: i64| exact || (1 << 12..=(1 << 32) - (1 << 12)).contains(&(fd & 0xffff_ffff));
    // Columns below `split` are at or left of cx: a run's left segment is x0..min(x1, split)
    // (nearest cell last), its right segment max(x0, split)..x1 (nearest cell first).
    let split = cx as u32 + 1;
    let left = |r: &Run, fay: i64| {
        let l1 = r.x1.min(split);
        (fcx - (i64::from(l1 - 1) << 32) + fay, l1)
    };
    let right = |r: &Run, fay: i64| {
        let r0 = r.x0.max(split);
        ((i64::from(r0) << 32) - fcx + fay, r0)
    };
    // cx lies within the columns and cy within the rows, and the float sum of two terms is
    // at most the (exact) integer sum of their bounds: buckets are below rw + rh.
    hist.clear();
    hist.resize(rw + rh + 1, 0);
    let diff = &mut hist[..];
    for r in runs {
        let fay = fixed_ay(r.y);
        if r.x0 < split {
            let (fd, l1) = left(r, fay);
            if consecutive(fd) {
                let b = (fd >> 32) as usize;
                diff[b] += 1;
                diff[b + (l1 - r.x0) as usize] -= 1;
            } else {
                count(diff, r.x0..l1, (r.y as f64 - cy).abs(), cx);
            }
        }
        if r.x1 > split {
            let (fd, r0) = right(r, fay);
            if consecutive(fd) {
                let b = (fd >> 32) as usize;
                diff[b] += 1;
                diff[b + (r.x1 - r0) as usize] -= 1;
            } else {
                count(diff, r0..r.x1, (r.y as f64 - cy).abs(), cx);
            }
        }
    }
    let (mut bucket, mut before, mut here) = (0, 0, 0i32);
    loop {
        here += diff[bucket];
        if before + here as usize > k {
            break;
        }
        before += here as usize;
        bucket += 1;
    }
    // `dm as usize == bucket` for a distance dm >= 0 is `bucket <= dm < bucket + 1`.
    let (lo, hi) = (bucket as f64, (bucket + 1) as f64);
    let far = ((bucket as i64 + 1) << 32) + 2;
    keys.reserve(here as usize);
    for r in runs {
        let fay = fixed_ay(r.y);
        if fay >= far {
            // |y - cy| > bucket + 1, and every distance on this row is at least the float
            // |y - cy| (a float sum is monotone), so at least bucket + 1.
            continue;
        }
        let mut key = |x: u32| {
            let dm = dist(x, (r.y as f64 - cy).abs());
            if lo <= dm && dm < hi {
                keys.push((dm.to_bits(), index(x, r.y)));
            }
        };
        if r.x0 < split {
            let (fd, l1) = left(r, fay);
            if consecutive(fd) {
                // The cell (l1 - 1) - i has bucket b + i.
                let i = bucket.wrapping_sub((fd >> 32) as usize);
                if i < (l1 - r.x0) as usize {
                    key(l1 - 1 - i as u32);
                }
            } else {
                (r.x0..l1).for_each(&mut key);
            }
        }
        if r.x1 > split {
            let (fd, r0) = right(r, fay);
            if consecutive(fd) {
                // The cell r0 + i has bucket b + i.
                let i = bucket.wrapping_sub((fd >> 32) as usize);
                if i < (r.x1 - r0) as usize {
                    key(r0 + i as u32);
                }
            } else {
                (r0..r.x1).for_each(&mut key);
            }
        }
    }
    debug_assert_eq!(keys.len(), here as usize, "keys as counted");
    kth(keys, k - before)
}

/// Counts the cells `xs` of a row with `ay = |y - cy|` in the histogram `diff`, one by one.
#[inline(never)]
fn count(diff: &mut [i32], xs: std::ops::Range<u32>, ay: f64, cx: f64) {
    for x in xs {
        let b = ((x as f64 - cx).abs() + ay) as usize;
        diff[b] += 1;
        diff[b + 1] -= 1;
    }
}
