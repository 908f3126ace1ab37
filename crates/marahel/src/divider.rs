//! Stage 3 (per map): split the map into regions with `equal`, `bsp` or `sampling`.
//!
//! Every divider returns at most `number` rectangles that never overlap and never leave the
//! map. When the map is too small for the request it returns fewer and says so (the
//! reference deletes BSP regions and then crashes, and lets sampled regions overlap).

use crate::program::{Divider, DividerKind};
use grid_core::rand::RngExt;
use grid_core::{LevelRng, Rect};

/// The regions of one map, in divider order, plus warnings.
pub fn divide(
    d: &Divider,
    width: usize,
    height: usize,
    rng: &mut LevelRng,
    warnings: &mut Vec<String>,
) -> Vec<Rect> {
    let mut out = match d.kind {
        DividerKind::Equal => equal(d, width, height, rng),
        DividerKind::Bsp => bsp(d, width, height, rng),
        DividerKind::Sampling { trials } => sampling(d, trials, width, height, rng),
    };
    shuffle(&mut out, rng);
    out.truncate(d.number);
    if out.len() < d.number {
        warnings.push(format!(
            "regions: the {width}x{height} map holds only {} of the {} regions asked for",
            out.len(),
            d.number
        ));
    }
    out
}

/// Fisher-Yates shuffle.
pub fn shuffle<T>(v: &mut [T], rng: &mut LevelRng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

fn pick(rng: &mut LevelRng, lo: usize, hi: usize) -> usize {
    if hi <= lo {
        lo
    } else {
        rng.random_range(lo..=hi)
    }
}

fn equal(d: &Divider, w: usize, h: usize, rng: &mut LevelRng) -> Vec<Rect> {
    let cw = pick(rng, d.min.0, d.max.0).clamp(1, w);
    let ch = pick(rng, d.min.1, d.max.1).clamp(1, h);
    let (rw, rh) = (w / cw, h / ch);
    let mut out = Vec::with_capacity(cw * ch);
    for x in 0..cw {
        for y in 0..ch {
            let ww = if x == cw - 1 { w - x * rw } else { rw };
            let hh = if y == ch - 1 { h - y * rh } else { rh };
            out.push(Rect::new(
                (x * rw) as i64,
                (y * rh) as i64,
                ww as i64,
                hh as i64,
            ));
        }
    }
    out
}

fn bsp(d: &Divider, w: usize, h: usize, rng: &mut LevelRng) -> Vec<Rect> {
    let (minw, minh) = (d.min.0 as i64, d.min.1 as i64);
    let (maxw, maxh) = (d.max.0.min(1 << 40) as i64, d.max.1.min(1 << 40) as i64);
    let mut rooms = vec![Rect::new(0, 0, w as i64, h as i64)];
    let can_w = |r: &Rect| r.w >= 2 * minw;
    let can_h = |r: &Rect| r.h >= 2 * minh;
    // Each split adds a room of at least min size, so this bound is never the reason to stop.
    let bound = (w * h) / (d.min.0 * d.min.1).max(1) + 1;
    for _ in 0..bound {
        let too_big = |r: &Rect| (r.w > maxw && can_w(r)) || (r.h > maxh && can_h(r));
        if rooms.len() >= d.number && !rooms.iter().any(too_big) {
            break;
        }
        // Like the reference: split a random divisible room (not only oversized ones), so
        // rooms keep shrinking until none is too big; `divide` then keeps `number` of them.
        let divisible: Vec<usize> = (0..rooms.len())
            .filter(|&i| can_w(&rooms[i]) || can_h(&rooms[i]))
            .collect();
        if divisible.is_empty() {
            break;
        }
        let i = divisible[rng.random_range(0..divisible.len())];
        let r = rooms.swap_remove(i);
        let vertical = match (can_w(&r), can_h(&r)) {
            (true, true) => rng.random_bool(0.5),
            (cw, _) => cw,
        };
        if vertical {
            let cut = minw + pick(rng, 0, (r.w - 2 * minw) as usize) as i64;
            rooms.push(Rect::new(r.x, r.y, cut, r.h));
            rooms.push(Rect::new(r.x + cut, r.y, r.w - cut, r.h));
        } else {
            let cut = minh + pick(rng, 0, (r.h - 2 * minh) as usize) as i64;
            rooms.push(Rect::new(r.x, r.y, r.w, cut));
            rooms.push(Rect::new(r.x, r.y + cut, r.w, r.h - cut));
        }
    }
    rooms
}

fn sampling(
    d: &Divider,
    trials: Option<usize>,
    w: usize,
    h: usize,
    rng: &mut LevelRng,
) -> Vec<Rect> {
    let n = d.number as f64;
    let trials = trials.unwrap_or_else(|| {
        let ratio = (w * h) as f64 / (d.min.0 * d.min.1) as f64;
        10f64.powf(n * n / ratio).clamp(100.0, 10_000.0) as usize
    });
    let (minw, minh) = (d.min.0.min(w), d.min.1.min(h));
    let (maxw, maxh) = (d.max.0.min(w), d.max.1.min(h));
    let mut out: Vec<Rect> = Vec::with_capacity(d.number);
    let mut candidates = Vec::new();
    // Gap 0..=3 tiles: calibrated so the fill matches the reference's loose packing
    // (fixtures/marahel reference_test: empty fraction 0.553).
    let gap = 3;
    for _ in 0..d.number {
        let mut rw = pick(rng, minw, maxw);
        let mut rh = pick(rng, minh, maxh);
        let mut placed = false;
        for _ in 0..trials {
            let free = |r: &Rect| out.iter().all(|o| !o.intersects(r));
            // A random free spot packed against the map edges and the placed regions (the
            // reference moves overlapping regions apart instead, and may leave them overlapping).
            // A small random gap keeps the packing loose, as sampled regions are in the reference.
            let g = pick(rng, 0, gap) as i64;
            let mut xs = vec![g, w as i64 - rw as i64 - g];
            let mut ys = vec![g, h as i64 - rh as i64 - g];
            for o in &out {
                xs.extend([o.right() + g, o.x - rw as i64 - g]);
                ys.extend([o.bottom() + g, o.y - rh as i64 - g]);
            }
            candidates.clear();
            for &x in &xs {
                for &y in &ys {
                    let r = Rect::new(x, y, rw as i64, rh as i64);
                    if x >= 0
                        && y >= 0
                        && r.right() <= w as i64
                        && r.bottom() <= h as i64
                        && free(&r)
                    {
                        candidates.push(r);
                    }
                }
            }
            if !candidates.is_empty() {
                out.push(candidates[rng.random_range(0..candidates.len())]);
                placed = true;
                break;
            }
            // Nothing fits: shrink one side towards the minimum and try again.
            if rw == minw && rh == minh {
                break;
            }
            if rh == minh || (rw > minw && rng.random_bool(0.5)) {
                rw -= 1;
            } else {
                rh -= 1;
            }
        }
        if !placed {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    fn div(kind: DividerKind, number: usize, min: (usize, usize), max: (usize, usize)) -> Divider {
        Divider {
            kind,
            number,
            min,
            max,
        }
    }

    fn check_disjoint(rs: &[Rect], w: i64, h: i64) {
        for (i, a) in rs.iter().enumerate() {
            assert!(
                a.x >= 0 && a.y >= 0 && a.right() <= w && a.bottom() <= h,
                "{a:?}"
            );
            assert!(!a.is_empty());
            for b in &rs[i + 1..] {
                assert!(!a.intersects(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn bsp_respects_min_and_never_loses_regions() {
        let d = div(DividerKind::Bsp, 5, (10, 10), (30, 30));
        for s in 0..200 {
            let mut warn = Vec::new();
            let (w, h) = (20 + s % 21, 20 + (s * 7) % 21);
            let rs = divide(&d, w, h, &mut Seed(s as u64).rng(), &mut warn);
            check_disjoint(&rs, w as i64, h as i64);
            let fit = (w / 10) * (h / 10);
            assert!(!rs.is_empty() && rs.len() <= fit.min(5), "{w}x{h}");
            assert!(rs.iter().all(|r| r.w >= 10 && r.h >= 10));
            assert_eq!(warn.is_empty(), rs.len() == 5);
            if w >= 40 && h >= 30 {
                assert_eq!(rs.len(), 5, "{w}x{h}");
            }
        }
    }

    #[test]
    fn sampling_never_overlaps_and_equal_tiles() {
        let d = div(
            DividerKind::Sampling { trials: None },
            4,
            (20, 20),
            (30, 30),
        );
        for s in 0..100 {
            let rs = divide(&d, 50, 50, &mut Seed(s).rng(), &mut Vec::new());
            check_disjoint(&rs, 50, 50);
            assert!(rs.iter().all(|r| r.w >= 20 && r.w <= 30 && r.h >= 20));
        }
        let d = div(DividerKind::Equal, 100, (3, 3), (5, 5));
        for s in 0..50 {
            let rs = divide(&d, 50, 50, &mut Seed(s).rng(), &mut Vec::new());
            check_disjoint(&rs, 50, 50);
            let area: u64 = rs.iter().map(|r| r.area()).sum();
            assert_eq!(area, 2500);
            assert!([9, 12, 15, 16, 20, 25].contains(&rs.len()), "{}", rs.len());
        }
    }
}
