//! Stages 1 and 2 of `turtle_connect`: the areas of the chosen entities and their centres.
//!
//! With the 4-neighbourhood, areas are horizontal runs joined by union-find, and the centres
//! are computed from the runs (module `runs`, no per-area cell list); other direction sets
//! (and regions of more than 2^20 cells) use a flood fill and [`centre`] over each area's
//! cells. Both give the same areas, numbered by their first cell in scan order, and the
//! same centres.

use super::{rank_index, runs};
use crate::engine::Ctx;

/// The region's cells: row `ly` is `cells[first + ly * w..][..rw]`, for `ly < rh`.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The map's cells.
    pub cells: &'a [u8],
    /// The map's width.
    pub w: usize,
    /// The index of the region's first cell.
    pub first: usize,
    /// The region's width and height.
    pub rw: usize,
    pub rh: usize,
}

impl View<'_> {
    /// Row `ly` of the region.
    #[inline(always)]
    pub fn row(&self, ly: usize) -> &[u8] {
        &self.cells[self.first + ly * self.w..][..self.rw]
    }
}

/// Scratch buffers shared by the areas of one pass (flood fill).
#[derive(Default)]
pub struct Scratch {
    /// An area's cells `(x, y)` (region-local).
    members: Vec<(u32, u32)>,
    /// `(distance bits, region-local index)` of the candidate centres.
    keys: Vec<u128>,
    /// Cells per integer part of the distance.
    hist: Vec<i64>,
    /// `|x - cx|` per column, then `|y - cy|` per row (for [`centre`]).
    axy: Vec<f64>,
}

/// The centre of every area of `entities` in the current region, packed as `x << 20 | y`
/// (global coordinates, see [`super::Packed`]), in the order of the areas' first cells in
/// scan order. `adj` are the symmetric non-zero steps that join cells into areas.
pub fn centres(adj: &[(i64, i64)], entities: &[bool], ctx: &mut Ctx) -> Vec<u64> {
    let r = ctx.region;
    let (rw, rh) = (r.w as usize, r.h as usize);
    let four = adj.len() == 4
        && [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .all(|o| adj.contains(o));
    let g = View {
        cells: &ctx.canvas.front,
        w: ctx.canvas.w,
        first: r.y as usize * ctx.canvas.w + r.x as usize,
        rw,
        rh,
    };
    let rng = &mut *ctx.rng;
    let rank = |n| rank_index(n, rng);
    let mut local = Vec::new();
    if four && rw > 1 && rh > 1 && rw * rh <= runs::MAX_CELLS {
        runs::with_scratch(|s| runs::centres(&g, entities, s, rank, &mut local));
    } else {
        by_fill(adj, &g, entities, &mut Scratch::default(), rank, &mut local);
    }
    // Same size elements: the collect reuses the allocation.
    local
        .into_iter()
        .map(|c| (r.x as u64 + (c % rw) as u64) << 20 | (r.y as u64 + (c / rw) as u64))
        .collect()
}

/// Areas of any other direction set (labels over the region, flood fill with an explicit
/// queue). Areas are numbered in the order of their first cell in scan order, whatever the
/// fill order. The label plane has a blocked border as wide as the longest step, so the fill
/// needs no bounds tests; steps longer than the region can never land inside and are dropped.
/// Appends the region-local centres to `out`; `rank(n)` draws the rank of an area of `n`
/// cells.
pub fn by_fill(
    adj: &[(i64, i64)],
    g: &View,
    entities: &[bool],
    s: &mut Scratch,
    mut rank: impl FnMut(usize) -> usize,
    out: &mut Vec<usize>,
) {
    const NONE: u32 = u32::MAX;
    const BLOCKED: u32 = NONE - 1;
    let (rw, rh) = (g.rw, g.rh);
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
        let dst = (ly + py) * pw + px;
        for (l, &c) in label[dst..dst + rw].iter_mut().zip(g.row(ly)) {
            *l = if entities[c as usize] { NONE } else { BLOCKED };
        }
    }
    let steps: Vec<(i64, i64, isize)> = adj
        .iter()
        .map(|&(dx, dy)| (dx, dy, (dy * pw as i64 + dx) as isize))
        .collect();
    let mut members = std::mem::take(&mut s.members);
    let mut id = 0;
    for ly in 0..rh {
        for lx in 0..rw {
            let start = (ly + py) * pw + px + lx;
            if label[start] != NONE {
                continue;
            }
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
            out.push(centre(&mut members, s, (rw, rh), &mut rank));
            id += 1;
        }
    }
    s.members = members;
}

/// The index of the `k`-th smallest key (keys are unique, so any order of `keys` and any
/// selection method give the same one): a sort for a few keys, else a selection.
pub fn kth(keys: &mut [u128], k: usize) -> usize {
    if keys.len() <= 16 {
        keys.sort_unstable();
    } else {
        keys.select_nth_unstable(k);
    }
    keys[k] as u32 as usize
}

/// The key `(distance bits, index)` of a cell as one integer (`u128` compares as the pair).
#[inline(always)]
pub fn key(d: f64, index: u32) -> u128 {
    u128::from(d.to_bits()) << 32 | u128::from(index)
}

/// Stage 2 for one area: a cell near its centroid, by rank selection over (distance, index);
/// returns its region-local index. The order of `members` does not matter (the sums are exact,
/// the keys unique).
pub fn centre(
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
                .map(|&m| key(d(m), (m.1 as usize * rw + m.0 as usize) as u32)),
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
                keys.push(key(dm, (m.1 as usize * rw + m.0 as usize) as u32));
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
