//! Stages 1 and 2 of `turtle_connect`: the areas of the chosen entities and their centres.
//!
//! With the 4-neighbourhood, areas are horizontal runs joined by union-find, and the centres
//! are computed from the runs (no per-area cell list); other direction sets use a flood fill
//! and [`centre`] over the area's cells. Both give the same areas, numbered by their first
//! cell in scan order, and the same centres.

use super::rank_index;
use crate::engine::Ctx;

/// Scratch buffers shared by the areas of one pass.
#[derive(Default)]
struct Scratch {
    /// An area's cells `(x, y)` (region-local).
    members: Vec<(u32, u32)>,
    /// `(distance bits, region-local index)` of the candidate centres.
    keys: Vec<(u64, u32)>,
    /// Cells per integer part of the distance (as differences in [`centre_of_runs`]).
    hist: Vec<i64>,
    /// `|x - cx|` per column, then `|y - cy|` per row (for [`centre`]).
    axy: Vec<f64>,
}

/// The centre of every area of `entities` in the current region (global coordinates), in the
/// order of the areas' first cells in scan order. `adj` are the symmetric non-zero steps that
/// join cells into areas.
pub fn centres(adj: &[(i64, i64)], entities: &[bool], ctx: &mut Ctx) -> Vec<(i64, i64)> {
    let r = ctx.region;
    let (rw, rh) = (r.w as usize, r.h as usize);
    let four = adj.len() == 4
        && [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .all(|o| adj.contains(o));
    let mut s = Scratch::default();
    let local = if four && rw > 1 && rh > 1 {
        by_runs(entities, ctx, &mut s)
    } else {
        by_fill(adj, entities, ctx, &mut s)
    };
    local
        .into_iter()
        .map(|c| (r.x + (c % rw) as i64, r.y + (c / rw) as i64))
        .collect()
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

/// Appends the runs of cells `cells[x]` with `hit(cells[x])` as `(y, x0, x1 exclusive)`;
/// `bits8` gives the hits of eight cells read as a little-endian word, as bits 0..8.
#[inline(always)]
fn row_runs(
    cells: &[u8],
    y: u32,
    bits8: impl Fn(u64) -> u64,
    hit: impl Fn(u8) -> bool,
    runs: &mut Vec<(u32, u32, u32)>,
) {
    let mut open = false;
    let mut start = 0;
    let mut carry = 0; // the previous word's last bit
    for (wi, chunk) in cells.chunks(64).enumerate() {
        // Each group of eight cells enters at the top (a shift recurrence, which the
        // compiler keeps scalar: its vector form of the 64-bit multiply costs more).
        let mut word = 0u64;
        let mut eights = chunk.chunks_exact(8);
        for c8 in &mut eights {
            let v = u64::from_le_bytes(c8.try_into().expect("eight cells"));
            word = (word >> 8) | (bits8(v) << 56);
        }
        let done = chunk.len() & !7;
        word = word.checked_shr(64 - done as u32).unwrap_or(0);
        for (i, &c) in eights.remainder().iter().enumerate() {
            word |= u64::from(hit(c)) << (done + i);
        }
        // Bits where a run starts or ends.
        let mut edges = word ^ ((word << 1) | carry);
        carry = word >> 63;
        while edges != 0 {
            let x = (wi * 64) as u32 + edges.trailing_zeros();
            if open {
                runs.push((y, start, x));
            } else {
                start = x;
            }
            open = !open;
            edges &= edges - 1;
        }
    }
    if open {
        runs.push((y, start, cells.len() as u32));
    }
}

/// Areas of the 4-neighbourhood: horizontal runs joined by union-find where they overlap the
/// previous row's, no per-cell queue. A run's root is the component's first run in scan
/// order, so the areas get the same numbers as the flood fill's (the first cell in scan
/// order), and the same cells. Returns the region-local centres.
fn by_runs(entities: &[bool], ctx: &mut Ctx, s: &mut Scratch) -> Vec<usize> {
    let r = ctx.region;
    let (rw, rh) = (r.w as usize, r.h as usize);
    let (runs, row_start) = find_runs(entities, ctx);
    let (grouped, start) = group(&runs, &row_start);
    (0..start.len() - 1)
        .map(|a| {
            let area_runs = &grouped[start[a] as usize..start[a + 1] as usize];
            centre_of_runs(area_runs, s, (rw, rh), |n| rank_index(n, ctx))
        })
        .collect()
}

/// The runs of entity cells of each row of the region, `(y, x0, x1 exclusive)`
/// (region-local), in scan order, and where each row's runs start (one more entry at the end).
#[inline(never)]
fn find_runs(entities: &[bool], ctx: &Ctx) -> (Vec<(u32, u32, u32)>, Vec<usize>) {
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
            scan_rows(ctx, |v| eq_bits(v, pa), hit)
        }
        [a, b] => {
            let (pa, pb) = (splat(a), splat(b));
            scan_rows(ctx, |v| eq_bits(v, pa) | eq_bits(v, pb), hit)
        }
        _ => {
            let bits8 = |v: u64| {
                v.to_le_bytes()
                    .iter()
                    .enumerate()
                    .fold(0, |m, (i, &c)| m | u64::from(hit(c)) << i)
            };
            scan_rows(ctx, bits8, hit)
        }
    }
}

/// [`find_runs`] with a given way of matching cells (see [`row_runs`]).
#[inline(always)]
fn scan_rows(
    ctx: &Ctx,
    bits8: impl Fn(u64) -> u64 + Copy,
    hit: impl Fn(u8) -> bool + Copy,
) -> (Vec<(u32, u32, u32)>, Vec<usize>) {
    let r = ctx.region;
    let (rw, rh) = (r.w as usize, r.h as usize);
    let w = ctx.canvas.w;
    let mut runs: Vec<(u32, u32, u32)> = Vec::with_capacity(rh * 2); // (y, x0, x1 exclusive)
    let mut row_start = Vec::with_capacity(rh + 1);
    let first = r.y as usize * w + r.x as usize;
    for (ly, cells) in ctx.canvas.front[first..]
        .chunks(w)
        .take(rh)
        .map(|row| &row[..rw])
        .enumerate()
    {
        row_start.push(runs.len());
        row_runs(cells, ly as u32, bits8, hit, &mut runs);
    }
    row_start.push(runs.len());
    (runs, row_start)
}

/// The runs grouped by area (areas numbered by their first run in scan order, each area's
/// runs in scan order), and where each area's runs start (one more entry at the end).
#[inline(never)]
fn group(runs: &[(u32, u32, u32)], row_start: &[usize]) -> (Vec<(u32, u32, u32)>, Vec<u32>) {
    let rh = row_start.len() - 1;
    let mut up: Vec<u32> = (0..runs.len() as u32).collect();
    let root = |up: &mut [u32], mut a: u32| {
        while up[a as usize] != a {
            up[a as usize] = up[up[a as usize] as usize];
            a = up[a as usize];
        }
        a
    };
    for ly in 1..rh {
        let (mut i, mut j) = (row_start[ly - 1], row_start[ly]);
        let (ie, je) = (row_start[ly], row_start[ly + 1]);
        while i < ie && j < je {
            let (a, b) = (runs[i], runs[j]);
            if a.1 < b.2 && b.1 < a.2 {
                let (ra, rb) = (root(&mut up, i as u32), root(&mut up, j as u32));
                let (lo, hi) = (ra.min(rb), ra.max(rb));
                up[hi as usize] = lo;
            }
            if a.2 <= b.2 {
                i += 1;
            }
            if b.2 <= a.2 {
                j += 1;
            }
        }
    }
    // Area of each run (roots come first), then the runs grouped by area. Links only go
    // to lower runs, so in scan order a run's parent already holds its root.
    let mut area = vec![0u32; runs.len()];
    let mut n_areas = 0u32;
    for i in 0..runs.len() {
        let ri = up[up[i] as usize];
        up[i] = ri;
        area[i] = if ri as usize == i {
            n_areas += 1;
            n_areas - 1
        } else {
            area[ri as usize]
        };
    }
    let mut start = vec![0u32; n_areas as usize + 1];
    for &a in &area {
        start[a as usize + 1] += 1;
    }
    for a in 0..n_areas as usize {
        start[a + 1] += start[a];
    }
    let mut fillp = start.clone();
    let mut grouped = vec![(0, 0, 0); runs.len()];
    for (&run, &a) in runs.iter().zip(&area) {
        grouped[fillp[a as usize] as usize] = run;
        fillp[a as usize] += 1;
    }
    (grouped, start)
}

/// Areas of any other direction set (labels over the region, flood fill with an explicit
/// queue). Areas are numbered in the order of their first cell in scan order, whatever the
/// fill order. The label plane has a blocked border as wide as the longest step, so the fill
/// needs no bounds tests; steps longer than the region can never land inside and are dropped.
/// Returns the region-local centres.
fn by_fill(adj: &[(i64, i64)], entities: &[bool], ctx: &mut Ctx, s: &mut Scratch) -> Vec<usize> {
    const NONE: u32 = u32::MAX;
    const BLOCKED: u32 = NONE - 1;
    let r = ctx.region;
    let (rw, rh) = (r.w as usize, r.h as usize);
    let w = ctx.canvas.w;
    let adj: Vec<(i64, i64)> = adj
        .iter()
        .copied()
        .filter(|&(dx, dy)| dx.unsigned_abs() < rw as u64 && dy.unsigned_abs() < rh as u64)
        .collect();
    let px = adj.iter().map(|a| a.0.unsigned_abs()).max().unwrap_or(0) as usize;
    let py = adj.iter().map(|a| a.1.unsigned_abs()).max().unwrap_or(0) as usize;
    let pw = rw + 2 * px;
    let mut label: Vec<u32> = vec![BLOCKED; pw * (rh + 2 * py)];
    for ly in 0..rh {
        let row = (r.y as usize + ly) * w + r.x as usize;
        let dst = (ly + py) * pw + px;
        for (l, &c) in label[dst..dst + rw]
            .iter_mut()
            .zip(&ctx.canvas.front[row..row + rw])
        {
            *l = if entities[c as usize] { NONE } else { BLOCKED };
        }
    }
    let steps: Vec<(i64, i64, isize)> = adj
        .iter()
        .map(|&(dx, dy)| (dx, dy, (dy * pw as i64 + dx) as isize))
        .collect();
    let mut centres = Vec::new();
    let mut members = std::mem::take(&mut s.members);
    for ly in 0..rh {
        for lx in 0..rw {
            let start = (ly + py) * pw + px + lx;
            if label[start] != NONE {
                continue;
            }
            let id = centres.len() as u32;
            label[start] = id;
            members.clear();
            members.push((lx as u32, ly as u32));
            let mut head = 0;
            while head < members.len() {
                let (x, y) = members[head];
                head += 1;
                let i = (y as usize + py) * pw + px + x as usize;
                for &(dx, dy, d) in &steps {
                    let j = (i as isize + d) as usize;
                    if label[j] == NONE {
                        label[j] = id;
                        members.push(((x as i64 + dx) as u32, (y as i64 + dy) as u32));
                    }
                }
            }
            centres.push(centre(&mut members, s, (rw, rh), |n| rank_index(n, ctx)));
        }
    }
    s.members = members;
    centres
}

/// [`centre`] of the area made of `runs` (`(y, x0, x1 exclusive)`, region-local).
///
/// Small and huge areas (and regions whose sides add up to 2^20 or more) list their cells
/// and call [`centre`]. Mid-sized ones are done on the runs, with the same float operations
/// as [`centre`] where a distance is computed (so the same distance bits):
/// * the sums are arithmetic series per run;
/// * the histogram of the distances' integer parts (buckets) is kept as differences: on one
///   row, the cells of a run on one side of `cx` are a segment whose exact distances
///   `|x - cx| + |y - cy|` (of the float `cx`, `cy`) step by 1 from the cell nearest `cx`,
///   so their buckets are consecutive from that cell's, as long as the computed distance
///   has the exact one's integer part. That holds when the computation is exact (`cx` and
///   `cy` have at most 20 fractional bits, distances are below 2^21), or when the nearest
///   cell's exact distance is at least 2^-20 from an integer (the float rounding error is
///   below 2^-32, and every cell of the segment has the same fractional part). The nearest
///   cell's bucket is read from a 32.32 fixed point distance (integer operations, within
///   2^-31 of the exact one; exact when the float one is). Other segments count cell by
///   cell.
/// * the cells of the chosen bucket are then one cell per such segment, found by index
///   (rows whose `|y - cy|` alone reaches past the bucket are skipped), and keyed as in
///   [`centre`].
#[inline(never)]
fn centre_of_runs(
    runs: &[(u32, u32, u32)],
    s: &mut Scratch,
    (rw, rh): (usize, usize),
    rank: impl FnOnce(usize) -> usize,
) -> usize {
    // Sum of x over a run: (x0 + x1 - 1) * len / 2, exact (the product is even).
    let (mut len, mut sx, mut sy) = (0u64, 0u64, 0u64);
    let (mut xmin, mut xmax) = (u32::MAX, 0);
    for &(y, x0, x1) in runs {
        let l = u64::from(x1 - x0);
        len += l;
        sx += (u64::from(x0) + u64::from(x1) - 1) * l / 2;
        sy += u64::from(y) * l;
        xmin = xmin.min(x0);
        xmax = xmax.max(x1);
    }
    let len = len as usize;
    // Distances below 2^20 keep the fixed point below 2^52.
    if len > 1 << 20 || 4 * len < rw + rh || rw + rh >= 1 << 20 {
        let mut members = std::mem::take(&mut s.members);
        members.clear();
        for &(y, x0, x1) in runs {
            members.extend((x0..x1).map(|x| (x, y)));
        }
        let c = centre(&mut members, s, (rw, rh), rank);
        s.members = members;
        return c;
    }
    let n = len as f64;
    let (cx, cy) = (sx as f64 / n, sy as f64 / n);
    let k = rank(len);
    let dist = |x: u32, ay: f64| (x as f64 - cx).abs() + ay;
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
    // The bucket of a segment's nearest cell, from its fixed point distance, when the
    // segment's buckets are consecutive from it. The fixed point distance is within 2^-30 of
    // the computed one: a fractional part at least 2^-20 from an integer is safe.
    let consecutive =
        |fd: i64| exact || (1 << 12..=(1 << 32) - (1 << 12)).contains(&(fd & 0xffff_ffff));
    // Columns below `split` are at or left of cx: a run's left segment is x0..min(x1, split)
    // (nearest cell last), its right segment max(x0, split)..x1 (nearest cell first).
    let split = cx as u32 + 1;
    // Runs come in scan order: the rows span runs[0].0 ..= runs[last].0. cx lies within the
    // columns and cy within the rows, and the float sum of two terms is at most the (exact)
    // integer sum of their bounds: buckets are at most the spans' sum.
    let (ymin, ymax) = (runs[0].0, runs[runs.len() - 1].0);
    let diff = &mut s.hist;
    diff.clear();
    diff.resize((xmax - xmin + ymax - ymin) as usize + 2, 0);
    // Counts cell by cell.
    let count = |diff: &mut [i64], xs: std::ops::Range<u32>, ay: f64| {
        for x in xs {
            let b = dist(x, ay) as usize;
            diff[b] += 1;
            diff[b + 1] -= 1;
        }
    };
    for &(y, x0, x1) in runs {
        let ay = || (y as f64 - cy).abs();
        let fay = fixed_ay(y);
        if x0 < split {
            let l1 = x1.min(split);
            let fd = fcx - (i64::from(l1 - 1) << 32) + fay;
            if consecutive(fd) {
                let b = (fd >> 32) as usize;
                diff[b] += 1;
                diff[b + (l1 - x0) as usize] -= 1;
            } else {
                count(diff, x0..l1, ay());
            }
        }
        if x1 > split {
            let r0 = x0.max(split);
            let fd = (i64::from(r0) << 32) - fcx + fay;
            if consecutive(fd) {
                let b = (fd >> 32) as usize;
                diff[b] += 1;
                diff[b + (x1 - r0) as usize] -= 1;
            } else {
                count(diff, r0..x1, ay());
            }
        }
    }
    let (mut bucket, mut before, mut here) = (0, 0, 0i64);
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
    let keys = &mut s.keys;
    keys.clear();
    let far = ((bucket as i64 + 1) << 32) + 2;
    for &(y, x0, x1) in runs {
        let fay = fixed_ay(y);
        if fay >= far {
            // |y - cy| > bucket + 1, and every distance on this row is at least the float
            // |y - cy| (a float sum is monotone), so at least bucket + 1.
            continue;
        }
        let mut key = |x: u32| {
            let dm = dist(x, (y as f64 - cy).abs());
            if lo <= dm && dm < hi {
                keys.push((dm.to_bits(), (y as usize * rw + x as usize) as u32));
            }
        };
        if x0 < split {
            let l1 = x1.min(split);
            let fd = fcx - (i64::from(l1 - 1) << 32) + fay;
            if consecutive(fd) {
                // The cell (l1 - 1) - i has bucket b + i.
                let i = bucket.wrapping_sub((fd >> 32) as usize);
                if i < (l1 - x0) as usize {
                    key(l1 - 1 - i as u32);
                }
            } else {
                (x0..l1).for_each(&mut key);
            }
        }
        if x1 > split {
            let r0 = x0.max(split);
            let fd = (i64::from(r0) << 32) - fcx + fay;
            if consecutive(fd) {
                // The cell r0 + i has bucket b + i.
                let i = bucket.wrapping_sub((fd >> 32) as usize);
                if i < (x1 - r0) as usize {
                    key(r0 + i as u32);
                }
            } else {
                (r0..x1).for_each(&mut key);
            }
        }
    }
    kth(keys, k - before)
}

/// The index of the `k`-th smallest key (keys are unique, so any order of `keys` and any
/// selection method give the same one): a sort for a few keys, else a selection.
fn kth(keys: &mut [(u64, u32)], k: usize) -> usize {
    if keys.len() <= 16 {
        keys.sort_unstable();
    } else {
        keys.select_nth_unstable(k);
    }
    keys[k].1 as usize
}

/// Stage 2 for one area: a cell near its centroid, by rank selection over (distance, index);
/// returns its region-local index. The order of `members` does not matter (the sums are exact,
/// the keys unique).
fn centre(
    members: &mut [(u32, u32)],
    s: &mut Scratch,
    (rw, rh): (usize, usize),
    rank: impl FnOnce(usize) -> usize,
) -> usize {
    // Areas up to a million cells precompute the keys (distances are >= 0: their bits sort
    // like the values); huge ones (over a million cells) compare in place, to keep memory at
    // 8 bytes per cell.
    // Integer sums are exact and equal the f64 sums (every partial sum is an integer below
    // 2^53).
    let n = members.len() as f64;
    let cx = members.iter().map(|m| u64::from(m.0)).sum::<u64>() as f64 / n;
    let cy = members.iter().map(|m| u64::from(m.1)).sum::<u64>() as f64 / n;
    let d = |(x, y): (u32, u32)| (x as f64 - cx).abs() + (y as f64 - cy).abs();
    let k = rank(members.len());
    let keys = &mut s.keys;
    if members.len() <= 1 << 20 && 4 * members.len() < rw + rh {
        // Small areas: key every cell.
        keys.clear();
        keys.extend(
            members
                .iter()
                .map(|&m| (d(m).to_bits(), (m.1 as usize * rw + m.0 as usize) as u32)),
        );
        kth(keys, k)
    } else if members.len() <= 1 << 20 {
        // Only the cells whose distance has the k-th smallest integer part are keyed:
        // the integer part is monotone in the distance, so the k-th key overall is the
        // (k - cells in lower buckets)-th of that bucket (distances are < rw + rh; the
        // histogram costs at most 4 steps per cell of the area).
        // The two terms of a distance come from per-column and per-row tables (the same
        // float operations, so the same bits; at most rw + rh <= 4n entries).
        let axy = &mut s.axy;
        axy.clear();
        axy.extend((0..rw).map(|x| (x as f64 - cx).abs()));
        axy.extend((0..rh).map(|y| (y as f64 - cy).abs()));
        let (ax, ay) = axy.split_at(rw);
        let dt = |(x, y): (u32, u32)| ax[x as usize] + ay[y as usize];
        let hist = &mut s.hist;
        hist.clear();
        hist.resize(rw + rh + 1, 0);
        for &m in &*members {
            hist[dt(m) as usize] += 1;
        }
        let (mut bucket, mut before) = (0, 0);
        while before + hist[bucket] as usize <= k {
            before += hist[bucket] as usize;
            bucket += 1;
        }
        // `dm as usize == bucket` for a distance dm >= 0 is `bucket <= dm < bucket + 1`.
        let (lo, hi) = (bucket as f64, (bucket + 1) as f64);
        keys.clear();
        for &m in &*members {
            let dm = dt(m);
            if lo <= dm && dm < hi {
                keys.push((dm.to_bits(), (m.1 as usize * rw + m.0 as usize) as u32));
            }
        }
        kth(keys, k - before)
    } else {
        // Index order is row-major: (y, x).
        let (_, &mut (x, y), _) = members.select_nth_unstable_by(k, |&a, &b| {
            d(a).total_cmp(&d(b)).then((a.1, a.0).cmp(&(b.1, b.0)))
        });
        y as usize * rw + x as usize
    }
}

#[cfg(test)]
mod tests;
