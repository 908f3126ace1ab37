//! 2D gradient (Perlin) noise with a seeded permutation: cheap to build per map (a 256-entry
//! shuffle), quintic fade, values in `[-1, 1]`.

use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Unit-length gradient directions (8 compass directions).
const GRADS: [(f64, f64); 8] = [
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (
        std::f64::consts::FRAC_1_SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
    ),
    (
        -std::f64::consts::FRAC_1_SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
    ),
    (
        std::f64::consts::FRAC_1_SQRT_2,
        -std::f64::consts::FRAC_1_SQRT_2,
    ),
    (
        -std::f64::consts::FRAC_1_SQRT_2,
        -std::f64::consts::FRAC_1_SQRT_2,
    ),
];

/// A seeded noise field with a random offset (so no region starts on a lattice point).
#[derive(Clone, Debug)]
pub struct NoiseField {
    perm: [u8; 512],
    ox: f64,
    oy: f64,
}

fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

impl NoiseField {
    /// A field drawn from `rng`.
    pub fn new(rng: &mut LevelRng) -> Self {
        let mut p: [u8; 256] = std::array::from_fn(|i| i as u8);
        for i in (1..256).rev() {
            let j = rng.random_range(0..=i);
            p.swap(i, j);
        }
        let mut perm = [0u8; 512];
        for i in 0..512 {
            perm[i] = p[i & 255];
        }
        Self {
            perm,
            ox: rng.random_range(0.0..4096.0),
            oy: rng.random_range(0.0..4096.0),
        }
    }

    fn grad(&self, xi: usize, yi: usize, dx: f64, dy: f64) -> f64 {
        let h = self.perm[self.perm[xi] as usize + yi] as usize & 7;
        let (gx, gy) = GRADS[h];
        gx * dx + gy * dy
    }

    /// The noise at `(x, y)` in lattice units, in `[-1, 1]`.
    pub fn get(&self, x: f64, y: f64) -> f64 {
        let (x, y) = (x + self.ox, y + self.oy);
        let (fx, fy) = (x.floor(), y.floor());
        let (dx, dy) = (x - fx, y - fy);
        let xi = (fx as i64).rem_euclid(256) as usize;
        let yi = (fy as i64).rem_euclid(256) as usize;
        let (x1, y1) = ((xi + 1) & 255, (yi + 1) & 255);
        let n00 = self.grad(xi, yi, dx, dy);
        let n10 = self.grad(x1, yi, dx - 1.0, dy);
        let n01 = self.grad(xi, y1, dx, dy - 1.0);
        let n11 = self.grad(x1, y1, dx - 1.0, dy - 1.0);
        let (u, v) = (fade(dx), fade(dy));
        let a = n00 + u * (n10 - n00);
        let b = n01 + u * (n11 - n01);
        // Unit gradients give at most sqrt(1/2) in 2D; scale to [-1, 1].
        ((a + v * (b - a)) * std::f64::consts::SQRT_2).clamp(-1.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    #[test]
    fn noise_is_seeded_smooth_and_bounded() {
        let a = NoiseField::new(&mut Seed(1).rng());
        let b = NoiseField::new(&mut Seed(2).rng());
        let mut differ = 0;
        let (mut lo, mut hi) = (0.0f64, 0.0f64);
        for i in 0..2000 {
            let (x, y) = (i as f64 * 0.37, i as f64 * 0.11);
            let v = a.get(x, y);
            lo = lo.min(v);
            hi = hi.max(v);
            assert!((v - a.get(x + 0.01, y)).abs() < 0.05, "smooth");
            if (v - b.get(x, y)).abs() > 1e-9 {
                differ += 1;
            }
        }
        assert!(differ > 1900);
        assert!(
            lo < -0.4 && hi > 0.4 && lo >= -1.0 && hi <= 1.0,
            "{lo} {hi}"
        );
        assert_eq!(
            a.get(3.3, 4.4),
            NoiseField::new(&mut Seed(1).rng()).get(3.3, 4.4)
        );
    }
}
