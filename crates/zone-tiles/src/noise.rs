//! Base noise, normalised to [0, 1].
//!
//! | kind | source | raw range | normalised value |
//! |---|---|---|---|
//! | [`NoiseKind::Simplex`] | [`lattice::simplex`](crate::lattice::simplex) | about [-1, 1] | `(v + 1) / 2`, clamped |
//! | [`NoiseKind::Perlin`] | [`lattice::perlin`](crate::lattice::perlin) | [-1, 1] | `(v + 1) / 2`, clamped |
//! | [`NoiseKind::Worley`] with [`WorleyOutput::F1`] | [`lattice::worley_f1`](crate::lattice::worley_f1) | F1 | F1 (the distance to the nearest feature point, in lattice units), clamped to [0, 1] |
//! | [`NoiseKind::Worley`] with [`WorleyOutput::F1OverGap`] | our code (the reference's variant) | `F1 / (Fn - F1)` in [0, inf) | `r / (1 + r) = F1 / Fn`, in [0, 1] |
//!
//! Every lattice point's gradient or feature point comes from a 64-bit hash of its
//! coordinates and the seed ([`crate::lattice`]), so no noise has a period: a window far out
//! (at 2^31 zones) is as new as one at the origin.
//!
//! Octaves are summed like the reference (`amp *= persistence`, `freq *= 2`, each octave with
//! its own hash key) but, unlike the reference, the sum is **divided by the sum of
//! amplitudes**, so every setting stays in [0, 1].
//!
//! The reference's Worley `F1/(Fn−F1)` is unbounded; a threshold `t` on it equals
//! `t / (1 + t)` on our normalised value (0.45 becomes 0.3103). Ties (`Fn == F1`, which gave
//! the reference Infinity/NaN with Chebyshev) give 1.
//!
//! A [`Noise`] is `Copy`, `Send` and `Sync`: rayon threads share one; the lattice caches live
//! on the stack of each call. Coordinates are pixels; the noise is sampled at
//! `pixel / scale`.

use crate::error::{Result, ZoneError};
use crate::lattice::{Corners, NearPoints, octave_seed, perlin, simplex, worley_f1};
use crate::worley_mean::{MAX_SIDE, worley_f1_sum};
use grid_core::rng::mix64;
use serde::{Deserialize, Serialize};

/// Distance function of Worley noise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Distance {
    /// Straight-line distance.
    Euclidean,
    /// Sum of the absolute differences.
    Manhattan,
    /// Largest absolute difference (square cells), the reference's choice.
    #[default]
    Chebyshev,
}

impl Distance {
    /// The distance of the offset `(dx, dy)`.
    #[inline]
    pub fn eval(self, dx: f64, dy: f64) -> f64 {
        match self {
            Distance::Euclidean => (dx * dx + dy * dy).sqrt(),
            Distance::Manhattan => dx.abs() + dy.abs(),
            Distance::Chebyshev => dx.abs().max(dy.abs()),
        }
    }

    /// Parses `euclidean`, `manhattan` or `chebyshev`.
    pub fn parse(text: &str) -> Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "euclidean" => Ok(Distance::Euclidean),
            "manhattan" => Ok(Distance::Manhattan),
            "chebyshev" => Ok(Distance::Chebyshev),
            _ => Err(ZoneError::Parse {
                what: "distance",
                text: text.to_string(),
                expected: "euclidean, manhattan or chebyshev",
            }),
        }
    }
}

/// What Worley noise returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum WorleyOutput {
    /// Distance to the nearest feature point (noise crate, one point per lattice cell).
    F1,
    /// The reference (Das_Noise `Worley2`): `F1 / (Fn − F1)` with `points` feature points per
    /// lattice cell and `n` the 0-based rank of the comparison distance (reference: 8 and 12).
    F1OverGap {
        /// Feature points per lattice cell, 2..=16.
        points: u32,
        /// Rank of the comparison distance, 1..9*points.
        n: u32,
    },
}

/// The base noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum NoiseKind {
    /// Cellular noise.
    Worley {
        /// Distance function.
        distance: Distance,
        /// Returned quantity.
        output: WorleyOutput,
    },
    /// 2D simplex noise.
    Simplex,
    /// 2D Perlin noise.
    Perlin,
}

/// A base-noise configuration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoiseConfig {
    /// Which noise.
    pub kind: NoiseKind,
    /// Pixels per noise unit (the feature size), in [0.1, 1e9].
    pub scale: f64,
    /// Octaves, 1..=8.
    pub octaves: u32,
    /// Amplitude factor per octave, (0, 1].
    pub persistence: f64,
}

impl NoiseConfig {
    /// Worley noise with the noise crate's F1, chebyshev distance, feature size 40 px.
    pub fn worley() -> Self {
        Self {
            kind: NoiseKind::Worley {
                distance: Distance::Chebyshev,
                output: WorleyOutput::F1,
            },
            scale: 40.0,
            octaves: 1,
            persistence: 0.5,
        }
    }

    /// The reference's Worley: `F1/(Fn−F1)`, 8 points per 100 px lattice cell, n = 12.
    pub fn worley_reference(distance: Distance) -> Self {
        Self {
            kind: NoiseKind::Worley {
                distance,
                output: WorleyOutput::F1OverGap { points: 8, n: 12 },
            },
            scale: 100.0,
            octaves: 1,
            persistence: 0.5,
        }
    }

    /// Simplex at scale 100, one octave (the reference's second base noise).
    pub fn simplex() -> Self {
        Self {
            kind: NoiseKind::Simplex,
            scale: 100.0,
            octaves: 1,
            persistence: 0.5,
        }
    }

    /// Checks every parameter's range.
    pub fn validate(&self) -> Result<()> {
        let bad = |name, value: f64, expected| ZoneError::NoiseParam {
            name,
            value,
            expected,
        };
        if !(self.scale.is_finite() && (0.1..=1e9).contains(&self.scale)) {
            return Err(bad("scale", self.scale, "a number in [0.1, 1e9]"));
        }
        if !(1..=8).contains(&self.octaves) {
            return Err(bad("octaves", self.octaves.into(), "1..=8"));
        }
        if !(self.persistence.is_finite() && self.persistence > 0.0 && self.persistence <= 1.0) {
            return Err(bad("persistence", self.persistence, "a number in (0, 1]"));
        }
        if let NoiseKind::Worley {
            output: WorleyOutput::F1OverGap { points, n },
            ..
        } = self.kind
        {
            if !(2..=16).contains(&points) {
                return Err(bad("points", points.into(), "2..=16"));
            }
            if n == 0 || n >= 9 * points {
                return Err(bad("n", n.into(), "1..9*points"));
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug)]
enum Source {
    Simplex,
    Perlin,
    WorleyF1(Distance),
    WorleyGap {
        distance: Distance,
        points: u32,
        n: u32,
    },
}

/// Most octaves.
const MAX_OCTAVES: usize = 8;

/// A seeded, validated noise sampler: `Send + Sync`, values in [0, 1].
#[derive(Clone, Copy, Debug)]
pub struct Noise {
    source: Source,
    seed: u64,
    octave_seeds: [u64; MAX_OCTAVES],
    inv_scale: f64,
    octaves: u32,
    persistence: f64,
    norm: f64,
}

impl Noise {
    /// Builds the sampler for `config` and `seed` (any u64; the lattice hash is keyed by
    /// `Seed::stream("noise")` of it, one derived key per octave).
    pub fn new(config: &NoiseConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let s = grid_core::Seed(seed).stream("noise").0;
        let source = match config.kind {
            NoiseKind::Simplex => Source::Simplex,
            NoiseKind::Perlin => Source::Perlin,
            NoiseKind::Worley {
                distance,
                output: WorleyOutput::F1,
            } => Source::WorleyF1(distance),
            NoiseKind::Worley {
                distance,
                output: WorleyOutput::F1OverGap { points, n },
            } => Source::WorleyGap {
                distance,
                points,
                n,
            },
        };
        let mut octave_seeds = [0; MAX_OCTAVES];
        for (o, k) in octave_seeds.iter_mut().enumerate() {
            *k = octave_seed(s, o as u32);
        }
        let mut norm = 0.0;
        let mut amp = 1.0;
        for _ in 0..config.octaves {
            norm += amp;
            amp *= config.persistence;
        }
        Ok(Self {
            source,
            seed: s,
            octave_seeds,
            inv_scale: 1.0 / config.scale,
            octaves: config.octaves,
            persistence: config.persistence,
            norm,
        })
    }

    /// The noise at pixel `(x, y)`, in [0, 1].
    #[inline]
    pub fn get(&self, x: f64, y: f64) -> f64 {
        Sampler::new(self).value(x, y)
    }

    /// The mean of the noise over the `k x k` lattice of pixels `(x0 + i*step, y0 + j*step)`.
    ///
    /// Equal to averaging [`Noise::get`], but with one set of lattice caches for all the
    /// samples (the hot loop of the matcher).
    pub fn lattice_mean(&self, x0: f64, y0: f64, k: u32, step: f64) -> f64 {
        if let Some(mean) = self.worley_f1_mean(x0, y0, k, step) {
            return mean;
        }
        let mut sampler = Sampler::new(self);
        let mut sum = 0.0;
        for j in 0..k {
            let y = y0 + f64::from(j) * step;
            for i in 0..k {
                sum += sampler.value(x0 + f64::from(i) * step, y);
            }
        }
        sum / f64::from(k * k)
    }
}

impl Noise {
    /// [`Noise::lattice_mean`] for one octave of Worley F1 by pruned candidates
    /// ([`crate::worley_mean`]): the same value, `None` outside that path's limits.
    pub(crate) fn worley_f1_mean(&self, x0: f64, y0: f64, k: u32, step: f64) -> Option<f64> {
        let (Source::WorleyF1(distance), 1) = (self.source, self.octaves) else {
            return None;
        };
        let side = k as usize;
        if side > MAX_SIDE {
            return None;
        }
        let mut xs = [0.0; MAX_SIDE];
        let mut ys = [0.0; MAX_SIDE];
        for i in 0..k {
            xs[i as usize] = (x0 + f64::from(i) * step) * self.inv_scale;
            ys[i as usize] = (y0 + f64::from(i) * step) * self.inv_scale;
        }
        let sum = worley_f1_sum(self.octave_seeds[0], distance, &xs[..side], &ys[..side])?;
        Some(sum / f64::from(k * k))
    }
}

/// The lattice caches of one run of samples, one per octave.
struct Sampler<'a> {
    noise: &'a Noise,
    corners: [Corners; MAX_OCTAVES],
    points: [NearPoints; MAX_OCTAVES],
    gap: Option<Box<GapPoints>>,
}

impl<'a> Sampler<'a> {
    fn new(noise: &'a Noise) -> Self {
        Self {
            noise,
            corners: [Corners::default(); MAX_OCTAVES],
            points: [NearPoints::default(); MAX_OCTAVES],
            gap: None,
        }
    }

    #[inline]
    fn value(&mut self, x: f64, y: f64) -> f64 {
        let n = self.noise;
        let (x, y) = (x * n.inv_scale, y * n.inv_scale);
        if n.octaves == 1 {
            return self.base(0, x, y);
        }
        let (mut sum, mut amp, mut freq) = (0.0, 1.0, 1.0);
        for o in 0..n.octaves as usize {
            sum += amp * self.base(o, x * freq, y * freq);
            amp *= n.persistence;
            freq *= 2.0;
        }
        sum / n.norm
    }

    #[inline]
    fn base(&mut self, o: usize, x: f64, y: f64) -> f64 {
        let seed = self.noise.octave_seeds[o];
        let v = match self.noise.source {
            Source::Simplex => (simplex(&mut self.corners[o], seed, x, y) + 1.0) * 0.5,
            Source::Perlin => (perlin(&mut self.corners[o], seed, x, y) + 1.0) * 0.5,
            Source::WorleyF1(d) => worley_f1(&mut self.points[o], seed, d, x, y),
            Source::WorleyGap {
                distance,
                points,
                n,
            } => {
                // Octave 0 keys the reference's point hash with the noise seed itself.
                let seed = if o == 0 { self.noise.seed } else { seed };
                let cache = self.gap.get_or_insert_with(|| Box::new(GapPoints::new()));
                cache.fill(seed, points, x.floor() as i64, y.floor() as i64);
                cache.ratio(distance, n, x, y)
            }
        };
        v.clamp(0.0, 1.0)
    }
}

/// A feature point of lattice cell `(cx, cy)`, in [0, 1)^2 cell-relative coordinates.
#[inline]
fn feature_point(seed: u64, cx: i64, cy: i64, k: u32) -> (f64, f64) {
    let h = mix64(
        seed ^ mix64((cx as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (cy as u64).rotate_left(32))
            .wrapping_add(u64::from(k).wrapping_mul(0xd6e8_feb8_6659_fd93)),
    );
    let a = (h >> 40) as f64 / (1u64 << 24) as f64;
    let b = ((h >> 8) & 0xff_ffff) as f64 / (1u64 << 24) as f64;
    (a, b)
}

/// The feature points of the 3x3 lattice cells around `(cx, cy)`, as absolute coordinates.
struct GapPoints {
    cell: (i64, i64),
    seed: u64,
    len: usize,
    pts: [(f64, f64); 9 * 16],
}

impl GapPoints {
    fn new() -> Self {
        Self {
            cell: (i64::MIN, i64::MIN),
            seed: 0,
            len: 0,
            pts: [(0.0, 0.0); 9 * 16],
        }
    }

    #[inline]
    fn fill(&mut self, seed: u64, points: u32, cx: i64, cy: i64) {
        if self.cell == (cx, cy) && self.seed == seed {
            return;
        }
        self.cell = (cx, cy);
        self.seed = seed;
        self.len = 0;
        for oy in -1..=1 {
            for ox in -1..=1 {
                let (lx, ly) = (cx + ox, cy + oy);
                for k in 0..points {
                    let (px, py) = feature_point(seed, lx, ly, k);
                    self.pts[self.len] = (lx as f64 + px, ly as f64 + py);
                    self.len += 1;
                }
            }
        }
    }

    /// `F1 / Fn` at `(x, y)` over the cached points.
    #[inline]
    fn ratio(&self, distance: Distance, n: u32, x: f64, y: f64) -> f64 {
        let mut d = [0.0f64; 9 * 16];
        let len = self.len;
        for (slot, &(px, py)) in d.iter_mut().zip(&self.pts[..len]) {
            *slot = distance.eval(x - px, y - py);
        }
        let d = &mut d[..len];
        let n = (n as usize).min(len - 1);
        let (_, &mut dn, _) = d.select_nth_unstable_by(n, f64::total_cmp);
        let f1 = d[..n].iter().copied().fold(dn, f64::min);
        if dn <= 0.0 { 0.0 } else { f1 / dn }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(config: NoiseConfig) -> (f64, f64, f64) {
        let noise = Noise::new(&config, 7).unwrap();
        let (mut lo, mut hi, mut sum) = (f64::MAX, f64::MIN, 0.0);
        let mut count = 0.0;
        for y in (0..1000).step_by(7) {
            for x in (0..1000).step_by(7) {
                let v = noise.get(x as f64, y as f64);
                lo = lo.min(v);
                hi = hi.max(v);
                sum += v;
                count += 1.0;
            }
        }
        (lo, hi, sum / count)
    }

    #[test]
    fn every_kind_is_normalised_and_varied() {
        let configs = [
            NoiseConfig::simplex(),
            NoiseConfig::worley(),
            NoiseConfig::worley_reference(Distance::Chebyshev),
            NoiseConfig::worley_reference(Distance::Euclidean),
            NoiseConfig::worley_reference(Distance::Manhattan),
            NoiseConfig {
                kind: NoiseKind::Perlin,
                octaves: 4,
                ..NoiseConfig::simplex()
            },
        ];
        for c in configs {
            let (lo, hi, mean) = stats(c);
            assert!(
                (0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi),
                "{c:?}"
            );
            assert!(hi - lo > 0.4, "{c:?}: range {lo}..{hi}");
            assert!(mean > 0.1 && mean < 0.9, "{c:?}: mean {mean}");
        }
    }

    #[test]
    fn seeds_change_the_noise_and_are_stable() {
        let c = NoiseConfig::simplex();
        let a = Noise::new(&c, 1).unwrap().get(123.0, 45.0);
        let b = Noise::new(&c, 2).unwrap().get(123.0, 45.0);
        assert_ne!(a, b);
        assert_eq!(a, Noise::new(&c, 1).unwrap().get(123.0, 45.0));
    }

    #[test]
    fn bad_parameters_are_rejected() {
        let mut c = NoiseConfig::simplex();
        c.scale = 0.0;
        assert!(matches!(
            Noise::new(&c, 0),
            Err(ZoneError::NoiseParam { name: "scale", .. })
        ));
        let mut c = NoiseConfig::worley_reference(Distance::Chebyshev);
        c.kind = NoiseKind::Worley {
            distance: Distance::Chebyshev,
            output: WorleyOutput::F1OverGap { points: 2, n: 18 },
        };
        assert!(matches!(
            Noise::new(&c, 0),
            Err(ZoneError::NoiseParam { name: "n", .. })
        ));
        assert!(Distance::parse("taxicab").is_err());
    }

    #[test]
    fn lattice_mean_equals_the_mean_of_samples() {
        for c in [
            NoiseConfig::simplex(),
            NoiseConfig::worley(),
            NoiseConfig::worley_reference(Distance::Manhattan),
            NoiseConfig {
                octaves: 3,
                ..NoiseConfig::simplex()
            },
        ] {
            let noise = Noise::new(&c, 5).unwrap();
            let mut sum = 0.0;
            for j in 0..7 {
                for i in 0..7 {
                    sum += noise.get(-31.5 + f64::from(i) * 3.0, 12.5 + f64::from(j) * 3.0);
                }
            }
            let mean = noise.lattice_mean(-31.5, 12.5, 7, 3.0);
            assert!((mean - sum / 49.0).abs() < 1e-12, "{c:?}");
        }
    }

    #[test]
    fn sampler_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Noise>();
    }
}
