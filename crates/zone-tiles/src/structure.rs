//! Structure at a larger scale: a slow **macro field** under the 3x3 detail.
//!
//! One octave of detail noise at one scale reads as uniform camouflage. The macro field is a
//! slow Simplex noise (2 octaves, [`Structure::scale`] noise pixels per unit, its own hash
//! key) that shifts every cell's (node's) value before the threshold: where it is high the
//! detail's walls merge into rock masses, where it is low the walls thin out into open
//! caverns, and between the two the detail keeps its caves. The shift is
//! `weight * spread * (2m - 1)`, `m` the macro value at the cell's centre and `spread` the
//! detail's own spread (between its 10% and 90% quantiles on the calibration window), so
//! one weight means the same for every noise kind.
//!
//! The field is read once per cell, at its centre, in noise pixels, so it is a pure function
//! of `(seed, position)` like the detail: windows and chunks agree, and the map does not
//! depend on the drawn zone size. With [`Threshold::Fill`](crate::Threshold::Fill) the
//! threshold is calibrated on the detail of the calibration window shifted by the macro
//! field sampled over a wide lattice (1,089 points 7 zones apart), so the fill holds over
//! large areas rather than on the calibration window alone.

use crate::error::{Result, ZoneError};
use crate::matcher::NOISE_ZONE;
use crate::noise::{Noise, NoiseConfig, NoiseKind};
use serde::{Deserialize, Serialize};

/// The macro layer's settings (`ZoneConfig::structure`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Structure {
    /// How strongly the macro field shifts cell values, in units of the detail's spread,
    /// `[0, 4]`; 0 turns the layer off.
    pub weight: f64,
    /// Noise pixels (60 per zone) per macro noise unit, `[60, 1e6]`.
    pub scale: f64,
}

impl Default for Structure {
    /// Weight 1.2, scale 480 noise pixels (features about 8 zones across).
    fn default() -> Self {
        Self {
            weight: 1.2,
            scale: 480.0,
        }
    }
}

impl Structure {
    /// No macro layer: the detail alone, as in the reference.
    pub const OFF: Structure = Structure {
        weight: 0.0,
        scale: 480.0,
    };

    /// Checks the ranges.
    pub fn validate(&self) -> Result<()> {
        if !(0.0..=4.0).contains(&self.weight) {
            return Err(ZoneError::NoiseParam {
                name: "structure.weight",
                value: self.weight,
                expected: "0..=4",
            });
        }
        if !(60.0..=1e6).contains(&self.scale) {
            return Err(ZoneError::NoiseParam {
                name: "structure.scale",
                value: self.scale,
                expected: "60..=1e6 noise pixels",
            });
        }
        Ok(())
    }
}

/// A seeded macro field with its amplitude resolved.
#[derive(Clone, Copy, Debug)]
pub struct MacroField {
    noise: Noise,
    amplitude: f64,
}

impl MacroField {
    /// The field of `structure` for `seed`, shifting by up to `weight * spread`; `None` when
    /// the weight or the spread is 0.
    pub fn new(structure: &Structure, seed: u64, spread: f64) -> Result<Option<Self>> {
        structure.validate()?;
        let amplitude = structure.weight * spread;
        if amplitude <= 0.0 || !amplitude.is_finite() {
            return Ok(None);
        }
        let config = NoiseConfig {
            kind: NoiseKind::Simplex,
            scale: structure.scale,
            octaves: 2,
            persistence: 0.5,
        };
        let noise = Noise::new(&config, grid_core::Seed(seed).stream("structure").0)?;
        Ok(Some(Self { noise, amplitude }))
    }

    /// The shift at noise pixel `(x, y)`.
    #[inline]
    pub fn shift(&self, x: f64, y: f64) -> f64 {
        self.amplitude * (2.0 * self.noise.get(x, y) - 1.0)
    }

    /// The shift at the centre of node `(a, b)` (seamless mode: nodes half a zone apart).
    #[inline]
    pub fn node_shift(&self, a: i64, b: i64) -> f64 {
        let half = f64::from(NOISE_ZONE) * 0.5;
        self.shift(a as f64 * half, b as f64 * half)
    }

    /// The shifts at the centres of the 9 cells of zone `(zx, zy)`, row-major.
    pub fn cell_shifts(&self, zx: i64, zy: i64) -> [f64; 9] {
        let z = f64::from(NOISE_ZONE);
        let c = z / 3.0;
        std::array::from_fn(|i| {
            let (col, row) = ((i % 3) as f64, (i / 3) as f64);
            self.shift(
                zx as f64 * z + (col + 0.5) * c,
                zy as f64 * z + (row + 0.5) * c,
            )
        })
    }

    /// The shift at the `i`-th point of the wide calibration lattice (33 points a row, 7
    /// zones apart).
    pub fn calibration_shift(&self, i: usize) -> f64 {
        let z = f64::from(NOISE_ZONE) * 7.0;
        self.shift((i % 33) as f64 * z + 11.0, (i / 33 % 33) as f64 * z + 17.0)
    }
}

/// The spread of `values` (between their 10% and 90% quantiles), 0 when empty.
pub fn spread(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    q(0.9) - q(0.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_and_ranges() {
        assert!(MacroField::new(&Structure::OFF, 1, 0.3).unwrap().is_none());
        let bad = Structure {
            weight: -1.0,
            ..Structure::default()
        };
        assert!(bad.validate().is_err());
        let bad = Structure {
            scale: 1.0,
            ..Structure::default()
        };
        assert!(bad.validate().is_err());
        assert_eq!(
            spread(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]),
            8.0
        );
    }

    #[test]
    fn shifts_are_bounded_and_vary_slowly() {
        let m = MacroField::new(&Structure::default(), 3, 0.2)
            .unwrap()
            .unwrap();
        let limit = 1.2 * 0.2;
        let (mut step, mut lo, mut hi) = (0.0, 0.0f64, 0.0f64);
        for i in 0..400 {
            let a = m.node_shift(i, 7);
            assert!(a.abs() <= limit + 1e-12);
            step += (a - m.node_shift(i + 1, 7)).abs() / 400.0;
            (lo, hi) = (lo.min(a), hi.max(a));
        }
        // Over 200 zones the field swings both ways, but a half-zone step moves it by a
        // small fraction of its range: the layer changes over several zones.
        assert!(lo < -limit * 0.3 && hi > limit * 0.3, "{lo} {hi}");
        assert!(step < 0.1 * (hi - lo), "{step} of {}", hi - lo);
    }
}
