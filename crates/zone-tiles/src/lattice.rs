//! Lattice noise without a period: gradients and feature points from a 64-bit hash of the
//! lattice coordinates and the seed.
//!
//! The `noise` crate indexes a 256-entry permutation table, so its fields repeat every 256
//! lattice units (about 171 zones with the defaults). Here every lattice point `(ix, iy)`
//! (any `i64`s) gets its own 64-bit value
//! `mix64(mix64(seed ^ ix) + iy)` (`mix64` is the SplitMix64 finaliser, a bijection of
//! `u64`), so two lattice points share their gradient or feature point only by a chance
//! collision of the hash, never by a translation: the field has no period at all, and in
//! particular none within the ±2^31 zones the world accepts.
//!
//! The three noises keep the shapes of the classic constructions:
//!
//! * **Perlin**: gradient noise on the square lattice, 8 gradients of length √2 (the
//!   diagonals `(±1, ±1)` and the axes `(±√2, 0)`, `(0, ±√2)`), quintic fade; range [-1, 1].
//! * **Simplex**: 2D simplex noise (skew `(√3−1)/2`, unskew `(3−√3)/6`, radius² 0.5, `t⁴`
//!   kernel) with 8 unit gradients, scaled to about [-1, 1].
//! * **Worley F1**: one feature point per lattice cell, uniform in the cell; the distance to
//!   the nearest point over the 3x3 neighbouring cells.
//!
//! Each has a small cache ([`Corners`], [`NearPoints`]) keyed by the lattice cell, because a
//! cell's samples mostly share their cell: the matcher pays for the hash once per cell.

use crate::noise::Distance;
use grid_core::rng::mix64;

/// The 64-bit value of lattice point `(ix, iy)` under `seed`.
#[inline]
pub fn lattice_hash(seed: u64, ix: i64, iy: i64) -> u64 {
    mix64(mix64(seed ^ ix as u64).wrapping_add(iy as u64))
}

/// The seed of octave `o` (octave 0 uses `seed` itself).
#[inline]
pub fn octave_seed(seed: u64, o: u32) -> u64 {
    if o == 0 {
        seed
    } else {
        mix64(seed ^ u64::from(o).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

const SQRT2: f64 = std::f64::consts::SQRT_2;
const FRAC_1_SQRT2: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// Perlin's 8 gradients, length √2.
const PERLIN_GRADIENTS: [(f64, f64); 8] = [
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
    (SQRT2, 0.0),
    (-SQRT2, 0.0),
    (0.0, SQRT2),
    (0.0, -SQRT2),
];

/// Simplex's 8 unit gradients.
const SIMPLEX_GRADIENTS: [(f64, f64); 8] = [
    (FRAC_1_SQRT2, FRAC_1_SQRT2),
    (-FRAC_1_SQRT2, FRAC_1_SQRT2),
    (FRAC_1_SQRT2, -FRAC_1_SQRT2),
    (-FRAC_1_SQRT2, -FRAC_1_SQRT2),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
];

/// Scales the simplex sum to about [-1, 1] (measured maximum of the raw sum: 0.0101).
const SIMPLEX_SCALE: f64 = 98.0;

/// The gradients at the 4 corners of one lattice cell, cached.
#[derive(Clone, Copy, Debug)]
pub struct Corners {
    cell: (i64, i64),
    g: [(f64, f64); 4],
}

impl Default for Corners {
    fn default() -> Self {
        Self {
            cell: (i64::MIN, i64::MIN),
            g: [(0.0, 0.0); 4],
        }
    }
}

impl Corners {
    /// Loads the gradients of cell `(ix, iy)`: corners `(ix, iy)`, `(ix+1, iy)`, `(ix, iy+1)`,
    /// `(ix+1, iy+1)`, from `table`.
    #[inline]
    fn load(&mut self, seed: u64, ix: i64, iy: i64, table: &[(f64, f64); 8]) {
        if self.cell == (ix, iy) {
            return;
        }
        self.cell = (ix, iy);
        let pick = |x: i64, y: i64| table[(lattice_hash(seed, x, y) >> 61) as usize];
        self.g = [
            pick(ix, iy),
            pick(ix.wrapping_add(1), iy),
            pick(ix, iy.wrapping_add(1)),
            pick(ix.wrapping_add(1), iy.wrapping_add(1)),
        ];
    }
}

#[inline]
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// Perlin noise at `(x, y)` (lattice units), in [-1, 1].
#[inline]
pub fn perlin(cache: &mut Corners, seed: u64, x: f64, y: f64) -> f64 {
    let (fx, fy) = (x.floor(), y.floor());
    cache.load(seed, fx as i64, fy as i64, &PERLIN_GRADIENTS);
    let (dx, dy) = (x - fx, y - fy);
    let g = &cache.g;
    let n00 = g[0].0 * dx + g[0].1 * dy;
    let n10 = g[1].0 * (dx - 1.0) + g[1].1 * dy;
    let n01 = g[2].0 * dx + g[2].1 * (dy - 1.0);
    let n11 = g[3].0 * (dx - 1.0) + g[3].1 * (dy - 1.0);
    let (u, v) = (fade(dx), fade(dy));
    let a = n00 + u * (n10 - n00);
    let b = n01 + u * (n11 - n01);
    (a + v * (b - a)).clamp(-1.0, 1.0)
}

const F2: f64 = 0.366_025_403_784_438_6; // (sqrt(3) - 1) / 2
const G2: f64 = 0.211_324_865_405_187_1; // (3 - sqrt(3)) / 6

/// Simplex noise at `(x, y)` (lattice units), in [-1, 1].
#[inline]
pub fn simplex(cache: &mut Corners, seed: u64, x: f64, y: f64) -> f64 {
    let s = (x + y) * F2;
    let (i, j) = ((x + s).floor(), (y + s).floor());
    cache.load(seed, i as i64, j as i64, &SIMPLEX_GRADIENTS);
    let t = (i + j) * G2;
    let (x0, y0) = (x - (i - t), y - (j - t));
    // The middle corner: (1, 0) below the diagonal, (0, 1) above it.
    let (i1, j1, g1) = if x0 > y0 {
        (1.0, 0.0, cache.g[1])
    } else {
        (0.0, 1.0, cache.g[2])
    };
    let (x1, y1) = (x0 - i1 + G2, y0 - j1 + G2);
    let (x2, y2) = (x0 - 1.0 + 2.0 * G2, y0 - 1.0 + 2.0 * G2);
    let corner = |g: (f64, f64), dx: f64, dy: f64| {
        let t = 0.5 - dx * dx - dy * dy;
        if t <= 0.0 {
            0.0
        } else {
            let t2 = t * t;
            t2 * t2 * (g.0 * dx + g.1 * dy)
        }
    };
    let sum = corner(cache.g[0], x0, y0) + corner(g1, x1, y1) + corner(cache.g[3], x2, y2);
    (sum * SIMPLEX_SCALE).clamp(-1.0, 1.0)
}

/// The feature point of lattice cell `(cx, cy)`, uniform in the cell, absolute coordinates.
#[inline]
pub(crate) fn feature_point(seed: u64, cx: i64, cy: i64) -> (f64, f64) {
    let h = lattice_hash(seed, cx, cy);
    let unit = 1.0 / (1u64 << 26) as f64;
    let a = (h >> 38) as f64 * unit;
    let b = ((h >> 6) & ((1 << 26) - 1)) as f64 * unit;
    (cx as f64 + a, cy as f64 + b)
}

/// The feature points of the 3x3 cells around one lattice cell, cached.
#[derive(Clone, Copy, Debug)]
pub struct NearPoints {
    cell: (i64, i64),
    pts: [(f64, f64); 9],
}

impl Default for NearPoints {
    fn default() -> Self {
        Self {
            cell: (i64::MIN, i64::MIN),
            pts: [(0.0, 0.0); 9],
        }
    }
}

/// Worley F1 at `(x, y)` (lattice units): the distance to the nearest feature point of the
/// 3x3 neighbouring cells, clamped to [0, 1].
#[inline]
pub fn worley_f1(cache: &mut NearPoints, seed: u64, distance: Distance, x: f64, y: f64) -> f64 {
    let (cx, cy) = (x.floor() as i64, y.floor() as i64);
    if cache.cell != (cx, cy) {
        cache.cell = (cx, cy);
        let mut k = 0;
        for oy in -1..=1 {
            for ox in -1..=1 {
                cache.pts[k] = feature_point(seed, cx.wrapping_add(ox), cy.wrapping_add(oy));
                k += 1;
            }
        }
    }
    // The own cell's point first (index 4), then the neighbours, skipping every cell whose
    // nearest possible point is already farther than the best (the same minimum, fewer
    // distances).
    let (fx, fy) = (x - cx as f64, y - cy as f64);
    let (p0x, p0y) = cache.pts[4];
    let mut best = distance.eval(x - p0x, y - p0y);
    let gap = [fx, 0.0, 1.0 - fx];
    let gap_y = [fy, 0.0, 1.0 - fy];
    for (k, &(px, py)) in cache.pts.iter().enumerate() {
        if k == 4 {
            continue;
        }
        let (gx, gy) = (gap[k % 3], gap_y[k / 3]);
        // Every distance here is at least the larger axis gap.
        if gx.max(gy) >= best {
            continue;
        }
        best = best.min(distance.eval(x - px, y - py));
    }
    best.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extremes(f: impl Fn(f64, f64) -> f64) -> (f64, f64) {
        let (mut lo, mut hi) = (f64::MAX, f64::MIN);
        for j in 0..400 {
            for i in 0..400 {
                let v = f(f64::from(i) * 0.0731, f64::from(j) * 0.0677);
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        (lo, hi)
    }

    #[test]
    fn perlin_and_simplex_span_most_of_their_range() {
        let (lo, hi) = extremes(|x, y| perlin(&mut Corners::default(), 3, x, y));
        assert!(
            lo < -0.6 && hi > 0.6 && lo >= -1.0 && hi <= 1.0,
            "{lo} {hi}"
        );
        let (lo, hi) = extremes(|x, y| simplex(&mut Corners::default(), 3, x, y));
        assert!(
            lo < -0.7 && hi > 0.7 && lo >= -1.0 && hi <= 1.0,
            "{lo} {hi}"
        );
    }

    #[test]
    fn noise_is_continuous_across_cell_borders() {
        for f in [perlin, simplex] {
            let mut c = Corners::default();
            for k in -5..5 {
                let x = f64::from(k);
                let a = f(&mut c, 9, x - 1e-9, 0.37);
                let b = f(&mut c, 9, x + 1e-9, 0.37);
                assert!((a - b).abs() < 1e-6, "{a} {b}");
            }
        }
        let mut p = NearPoints::default();
        let a = worley_f1(&mut p, 9, Distance::Euclidean, 2.0 - 1e-9, 0.5);
        let b = worley_f1(&mut p, 9, Distance::Euclidean, 2.0 + 1e-9, 0.5);
        assert!((a - b).abs() < 1e-6, "{a} {b}");
    }

    #[test]
    fn lattice_values_differ_under_every_tested_translation() {
        // The noise crate's table repeats after 256 units; the hash does not.
        for (px, py) in [
            (256, 0),
            (0, 256),
            (256, -256),
            (171, 0),
            (1 << 20, 0),
            (1 << 32, 3),
        ] {
            let same = (0..64)
                .filter(|&i| lattice_hash(5, i, 7) == lattice_hash(5, i + px, 7 + py))
                .count();
            assert_eq!(same, 0, "translation ({px}, {py})");
        }
    }
}
