//! `dist(list)`: the Manhattan distance from a cell of the region to the nearest cell holding
//! a listed entity (region cells only; `-1`, stored as `u32::MAX`, when there is none).
//!
//! The core reads it from a plane of the whole region ([`transform`], two sweeps: O(area)),
//! computed again whenever the map has changed since (the map's version,
//! [`crate::engine::Ctx::version`]). A pass that writes the map it reads would thus compute the
//! plane after every write; the acceleration layer keeps such passes at O(log² area) per read
//! and write instead ([`crate::accel::live_dist`], over [`crate::accel::nearest`]).
//! The 2017 forms (`maxDist`, `avgDist`, walks along a neighbourhood) are in [`paths`]; the
//! limit of the walk forms whose cost is quadratic in the region's area, in [`quadratic`].

pub mod paths;
pub mod quadratic;

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
