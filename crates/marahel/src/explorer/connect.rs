//! `turtle_connect`: join every area of the chosen entities with corridors.
//!
//! 1. Areas are the connected components of cells holding `entities`, adjacency by the
//!    `directions` offsets (made symmetric), found with an iterative BFS.
//! 2. Each area gets a centre: a cell near its centroid, by rank selection.
//! 3. The centres are visited in a random tour: from each centre the next is a near one
//!    (rank selection by Manhattan distance); with probability 1/4 the tour branches from the
//!    previous centre, and with probability 1/2 it ends with a loop back to an earlier one.
//! 4. A walker follows the tour, stepping to the neighbour closest to the next waypoint, and
//!    applies the rules at every cell it stands on (the idiom is `self(solid) -> self(empty)`).
//!
//! Everything is bounded: each leg is at most its Manhattan length; a waypoint the
//! directions cannot approach is skipped with a warning.

use super::{Limits, visit};
use crate::divider::shuffle;
use crate::engine::Ctx;
use crate::program::Explorer;
use grid_core::rand::RngExt;

/// Index `i` of `0..n` with weight `n - i` (rank selection), from one draw.
pub fn rank_index(n: usize, ctx: &mut Ctx) -> usize {
    if n <= 1 {
        return 0;
    }
    let total = (n as u64) * (n as u64 + 1) / 2;
    let r = ctx.rng.random_range(0..total);
    // Smallest i with S(i) = (i+1)n - i(i+1)/2 > r.
    let s = |i: u64| (i + 1) * n as u64 - i * (i + 1) / 2;
    let (mut lo, mut hi) = (0u64, n as u64 - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if s(mid) > r { hi = mid } else { lo = mid + 1 }
    }
    lo as usize
}

/// Stage 2 for one area: a cell near its centroid, by rank selection over (distance, index);
/// returns its region-local index. The order of `members` does not matter (the sums are exact,
/// the keys unique).
fn centre(
    members: &mut [(u32, u32)],
    keys: &mut Vec<(u64, u32)>,
    hist: &mut Vec<usize>,
    axy: &mut Vec<f64>,
    (rw, rh): (usize, usize),
    ctx: &mut Ctx,
) -> usize {
    // Areas up to a million cells precompute the keys (distances are >= 0: their bits sort like the
    //    values); huge ones (over a million cells) compare in place, to keep memory at
    //    8 bytes per cell.
    // Integer sums are exact and equal the f64 sums (every partial sum is an integer below
    // 2^53).
    let n = members.len() as f64;
    let cx = members.iter().map(|m| u64::from(m.0)).sum::<u64>() as f64 / n;
    let cy = members.iter().map(|m| u64::from(m.1)).sum::<u64>() as f64 / n;
    let d = |(x, y): (u32, u32)| (x as f64 - cx).abs() + (y as f64 - cy).abs();
    let k = rank_index(members.len(), ctx);
    if members.len() <= 1 << 20 && 4 * members.len() < rw + rh {
        // Small areas: key every cell.
        keys.clear();
        keys.extend(
            members
                .iter()
                .map(|&m| (d(m).to_bits(), (m.1 as usize * rw + m.0 as usize) as u32)),
        );
        keys.select_nth_unstable(k);
        keys[k].1 as usize
    } else if members.len() <= 1 << 20 {
        // Only the cells whose distance has the k-th smallest integer part are keyed:
        // the integer part is monotone in the distance, so the k-th key overall is the
        // (k - cells in lower buckets)-th of that bucket (distances are < rw + rh; the
        // histogram costs at most 4 steps per cell of the area).
        // The two terms of a distance come from per-column and per-row tables (the same
        // float operations, so the same bits; at most rw + rh <= 4n entries).
        axy.clear();
        axy.extend((0..rw).map(|x| (x as f64 - cx).abs()));
        axy.extend((0..rh).map(|y| (y as f64 - cy).abs()));
        let (ax, ay) = axy.split_at(rw);
        let dt = |(x, y): (u32, u32)| ax[x as usize] + ay[y as usize];
        hist.clear();
        hist.resize(rw + rh + 1, 0);
        for &m in &*members {
            hist[dt(m) as usize] += 1;
        }
        let (mut bucket, mut before) = (0, 0);
        while before + hist[bucket] <= k {
            before += hist[bucket];
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
        keys.select_nth_unstable(k - before);
        keys[k - before].1 as usize
    } else {
        // Index order is row-major: (y, x).
        let (_, &mut (x, y), _) = members.select_nth_unstable_by(k, |&a, &b| {
            d(a).total_cmp(&d(b)).then((a.1, a.0).cmp(&(b.1, b.0)))
        });
        y as usize * rw + x as usize
    }
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
    let (rw, rh) = (r.w as usize, r.h as usize);
    let w = ctx.canvas.w;
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let mut adj: Vec<(i64, i64)> = Vec::new();
    for &(dx, dy) in dirs {
        for o in [(dx, dy), (-dx, -dy)] {
            if o != (0, 0) && !adj.contains(&o) {
                adj.push(o);
            }
        }
    }
    let mut centres: Vec<(i64, i64)> = Vec::new();
    // An area's cells `(x, y)` (in fill order for the flood fill, also its queue).
    let mut members: Vec<(u32, u32)> = Vec::new();
    let mut keys: Vec<(u64, u32)> = Vec::new();
    let mut hist: Vec<usize> = Vec::new();
    let mut axy: Vec<f64> = Vec::new();
    let four = adj.len() == 4
        && [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .all(|o| adj.contains(o));
    if four && rw > 1 && rh > 1 {
        // 1. Areas of the 4-neighbourhood (the usual `plus`): horizontal runs joined by
        //    union-find where they overlap the previous row's, no per-cell queue. A run's
        //    root is the component's first run in scan order, so the areas get the same
        //    numbers as the flood fill's (the first cell in scan order), and the same cells.
        let mut runs: Vec<(u32, u32, u32)> = Vec::new(); // (y, x0, x1 exclusive)
        let mut row_start = Vec::with_capacity(rh + 1);
        for ly in 0..rh {
            row_start.push(runs.len());
            let row = (r.y as usize + ly) * w + r.x as usize;
            let cells = &ctx.canvas.front[row..row + rw];
            let mut x = 0;
            while x < rw {
                if entities[cells[x] as usize] {
                    let x0 = x;
                    while x < rw && entities[cells[x] as usize] {
                        x += 1;
                    }
                    runs.push((ly as u32, x0 as u32, x as u32));
                } else {
                    x += 1;
                }
            }
        }
        row_start.push(runs.len());
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
        // Area of each run (roots come first), then the runs grouped by area.
        let mut area = vec![0u32; runs.len()];
        let mut n_areas = 0u32;
        for i in 0..runs.len() {
            let ri = root(&mut up, i as u32) as usize;
            if ri == i {
                area[i] = n_areas;
                n_areas += 1;
            } else {
                area[i] = area[ri];
            }
        }
        let mut start = vec![0u32; n_areas as usize + 1];
        for &a in &area {
            start[a as usize + 1] += 1;
        }
        for a in 0..n_areas as usize {
            start[a + 1] += start[a];
        }
        let mut fillp = start.clone();
        let mut grouped = vec![0u32; runs.len()];
        for (i, &a) in area.iter().enumerate() {
            grouped[fillp[a as usize] as usize] = i as u32;
            fillp[a as usize] += 1;
        }
        for a in 0..n_areas as usize {
            members.clear();
            for &ri in &grouped[start[a] as usize..start[a + 1] as usize] {
                let (y, x0, x1) = runs[ri as usize];
                members.extend((x0..x1).map(|x| (x, y)));
            }
            let c = centre(&mut members, &mut keys, &mut hist, &mut axy, (rw, rh), ctx);
            centres.push((r.x + (c % rw) as i64, r.y + (c / rw) as i64));
        }
    } else {
        // 1. Areas (labels over the region, flood fill with an explicit stack). Areas are
        //    numbered in the order of their first cell in scan order, whatever the fill order.
        //    The label plane has a blocked border as wide as the longest step, so the fill needs
        //    no bounds tests; steps longer than the region can never land inside and are dropped.
        const NONE: u32 = u32::MAX;
        const BLOCKED: u32 = NONE - 1;
        let adj: Vec<(i64, i64)> = adj
            .into_iter()
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
                let c = centre(&mut members, &mut keys, &mut hist, &mut axy, (rw, rh), ctx);
                centres.push((r.x + (c % rw) as i64, r.y + (c / rw) as i64));
            }
        }
    }
    if centres.is_empty() {
        return;
    }
    // 3. The tour.
    shuffle(&mut centres, ctx.rng);
    let mut waypoints = Vec::with_capacity(centres.len() * 2);
    let mut remaining = centres;
    let mut cur_i = 0;
    let mut prev = remaining[0];
    loop {
        let cur = remaining.swap_remove(cur_i);
        waypoints.push(cur);
        let mut from = cur;
        if ctx.rng.random::<f64>() < 0.25 {
            waypoints.push(prev);
            from = prev;
        }
        if remaining.is_empty() {
            break;
        }
        let k = rank_index(remaining.len(), ctx);
        let dist = |p: &(i64, i64)| (p.0 - from.0).abs() + (p.1 - from.1).abs();
        remaining.select_nth_unstable_by(k, |a, b| dist(a).cmp(&dist(b)).then(a.cmp(b)));
        cur_i = k;
        prev = from;
    }
    if waypoints.len() > 1 && ctx.rng.random::<f64>() < 0.5 {
        let back = waypoints[ctx.rng.random_range(0..waypoints.len() - 1)];
        waypoints.push(back);
    }
    // 4. Walk.
    let total = waypoints.len() as f64;
    let (mut x, mut y) = waypoints[0];
    let mut wi = 0;
    let mut changed = 0;
    let mut stuck = 0;
    loop {
        ctx.percent = wi as f64 / total;
        ctx.cpercent = changed as f64 / lim.changes as f64;
        if visit(ex, ctx, x as usize, y as usize) {
            changed += 1;
            if changed >= lim.changes {
                break;
            }
        }
        while wi < waypoints.len() && waypoints[wi] == (x, y) {
            wi += 1;
        }
        if wi == waypoints.len() {
            break;
        }
        let t = waypoints[wi];
        let here = (t.0 - x).abs() + (t.1 - y).abs();
        let mut best: Option<((i64, i64), i64)> = None;
        for &(dx, dy) in dirs {
            let (nx, ny) = (x + dx, y + dy);
            if !ctx.inside(nx, ny) {
                continue;
            }
            let d = (t.0 - nx).abs() + (t.1 - ny).abs();
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some(((nx, ny), d));
            }
        }
        match best {
            Some((p, d)) if d < here => (x, y) = p,
            _ => {
                stuck += 1;
                wi += 1;
                if wi == waypoints.len() {
                    break;
                }
            }
        }
    }
    if stuck > 0 {
        warnings.push(format!(
            "{}: connect could not approach {stuck} waypoint(s) with its directions; skipped them",
            ex.path
        ));
    }
}
