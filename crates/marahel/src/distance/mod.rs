//! `dist(list)`: the Manhattan distance from a cell of the region to the nearest cell holding
//! a listed entity (region cells only; `-1`, stored as `u32::MAX`, when there is none).
//!
//! The core reads it from a plane of the whole region ([`transform`], two sweeps: O(area)),
//! computed again whenever the map has changed since (the map's version,
//! [`crate::engine::Ctx::version`]). A pass that writes the map it reads would thus compute the
//! plane after every write (a faster layer behind [`crate::hook`] may keep such passes at
//! O(log² area) per read and write instead).
//! The 2017 forms (`maxDist`, `avgDist`, walks along a neighbourhood) are in [`paths`]; the
//! limit of the walk forms whose cost is quadratic in the region's area, in [`quadratic`].

pub mod paths;
pub mod quadratic;

use crate::engine::Ctx;
use crate::hook::{DistRead, Observer};

/// Manhattan distance from every cell of the region at `(rx, ry)`, `rw x rh`, to its nearest
/// target cell (`u32::MAX`: none), into `d` (two sweeps). `front` is the map, `w` wide.
pub fn transform(
    front: &[u8],
    w: usize,
    (rx, ry, rw, rh): (usize, usize, usize, usize),
    targets: &[bool],
    d: &mut Vec<u32>,
) {
    let inf = u32::MAX;
    d.clear();
    for ly in 0..rh {
        let row = &front[(ry + ly) * w + rx..][..rw];
        d.extend(
            row.iter()
                .map(|&c| if targets[c as usize] { 0 } else { inf }),
        );
    }
    let relax = |a: u32, b: u32| if b == inf { a } else { a.min(b + 1) };
    for ly in 0..rh {
        for lx in 0..rw {
            let mut v = d[ly * rw + lx];
            if lx > 0 {
                v = relax(v, d[ly * rw + lx - 1]);
            }
            if ly > 0 {
                v = relax(v, d[(ly - 1) * rw + lx]);
            }
            d[ly * rw + lx] = v;
        }
    }
    for ly in (0..rh).rev() {
        for lx in (0..rw).rev() {
            let mut v = d[ly * rw + lx];
            if lx + 1 < rw {
                v = relax(v, d[ly * rw + lx + 1]);
            }
            if ly + 1 < rh {
                v = relax(v, d[(ly + 1) * rw + lx]);
            }
            d[ly * rw + lx] = v;
        }
    }
}

impl Ctx<'_> {
    /// `dist(list)` / `dist(out)` at `(x, y)`.
    pub fn distance(
        &mut self,
        slot: usize,
        targets: &[bool],
        to_out: bool,
        x: usize,
        y: usize,
    ) -> f64 {
        let r = self.region;
        let (lx, ly) = (x as i64 - r.x, y as i64 - r.y);
        if to_out {
            return (lx + 1).min(ly + 1).min(r.w - lx).min(r.h - ly) as f64;
        }
        let read = DistRead {
            slot,
            now: (r, self.version),
            map: (&self.canvas.front[..], self.canvas.w),
            at: (x, y),
        };
        let v = match self.layer.distance(read, targets) {
            Some(v) => v,
            // Past the pass's charge: the pass ends with the error, the value is not used.
            None if self.planes.over => u32::MAX,
            None => self.plane_distance(slot, targets, (lx as usize, ly as usize)),
        };
        if v == u32::MAX { -1.0 } else { v as f64 }
    }

    /// `dist(list)` at local cell `at` from the region's distance plane, computed again when
    /// the map changed since (the core's way).
    fn plane_distance(&mut self, slot: usize, targets: &[bool], at: (usize, usize)) -> u32 {
        let r = self.region;
        let rect = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
        let (front, w) = (&self.canvas.front[..], self.canvas.w);
        let charge = &mut self.planes;
        let plane = self.dist_cache.get(slot, (r, self.version), |d| {
            match charge.take(r.area().saturating_mul(crate::cost::DIST_PLANE_READS)) {
                true => transform(front, w, rect, targets, d),
                // Past the charge: a plane of no targets, computed no more.
                false => *d = vec![u32::MAX; rect.2 * rect.3],
            }
        });
        plane[at.1 * rect.2 + at.0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the nearest target of every cell.
    fn brute(front: &[u8], w: usize, h: usize, targets: &[bool]) -> Vec<u32> {
        let mut d = vec![u32::MAX; w * h];
        for (i, v) in d.iter_mut().enumerate() {
            for (j, &c) in front.iter().enumerate() {
                if targets[c as usize] {
                    let dd = ((i % w).abs_diff(j % w) + (i / w).abs_diff(j / w)) as u32;
                    *v = (*v).min(dd);
                }
            }
        }
        d
    }

    #[test]
    fn the_transform_matches_brute_force() {
        let targets = [false, true];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (w, h) in [(1, 1), (9, 7), (4, 13)] {
            for density in [2, 5, 40] {
                let front: Vec<u8> = (0..w * h).map(|_| (next() % density == 0) as u8).collect();
                let mut plane = Vec::new();
                transform(&front, w, (0, 0, w, h), &targets, &mut plane);
                assert_eq!(plane, brute(&front, w, h, &targets));
            }
        }
        // A sub-region sees only its own cells.
        let (w, h) = (11, 8);
        let mut front = vec![0u8; w * h];
        front[3] = 1;
        let mut plane = Vec::new();
        transform(&front, w, (4, 1, 3, 3), &targets, &mut plane);
        assert!(plane.iter().all(|&d| d == u32::MAX));
        transform(&front, w, (2, 0, 3, 2), &targets, &mut plane);
        assert_eq!(plane, [1, 0, 1, 2, 1, 2]);
    }
}
