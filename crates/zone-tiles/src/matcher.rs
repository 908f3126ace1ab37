//! Matching: average the noise over each cell, threshold it, and pack 9 cells into a state.
//!
//! A cell of side `c` px is averaged from a `k x k` lattice of samples, `k = ceil(c / stride)`,
//! spaced `stride` px apart and centred on the cell's centre (pixel `i` is sampled at `i`). [`Sampling::Full`] samples
//! every pixel (stride 1, 400 samples for a 20 px cell). The default [`Sampling::Stride`]`(2)`
//! takes 100 samples per 20 px cell, like the reference measurements; larger strides trade
//! accuracy for speed (see the crate docs for measured figures).
//!
//! A cell is on when its average is **greater than** the threshold. [`Threshold::Fixed`] is a
//! value in [0, 1] of the normalised noise; [`Threshold::Fill`] asks for a fraction of cells
//! on ("the top X%") and is resolved once per generator into a fixed value: the quantile of
//! the cell averages of a fixed calibration window (16x16 zones at the origin). That keeps
//! every zone a pure function of `(config, seed, zone)`, so streaming still works; the fill is
//! exact on the calibration window and a close estimate elsewhere.

use crate::error::{Result, ZoneError};
use crate::noise::Noise;
use crate::state::ZoneState;
use serde::{Deserialize, Serialize};

/// The side of a zone in **noise pixels**, whatever its drawn size (`zone_size`): the noise,
/// its scale and the sampling stride are measured on this frame, so the map (every cell
/// state) is the same for any tile size, and `zone_size` only changes how large the
/// pictures are. 60 is the reference's zone size, so at the default size noise pixels are
/// picture pixels.
pub const NOISE_ZONE: u32 = 60;

/// The side of a cell in noise pixels (`NOISE_ZONE / 3`).
pub const NOISE_CELL: u32 = NOISE_ZONE / 3;

/// How densely a cell is sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sampling {
    /// Every pixel of the cell.
    Full,
    /// Every `n`-th pixel in each direction (`n >= 1`).
    Stride(u32),
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling::Stride(2)
    }
}

impl Sampling {
    /// The stride in pixels.
    pub fn stride(self) -> u32 {
        match self {
            Sampling::Full => 1,
            Sampling::Stride(n) => n,
        }
    }

    /// Checks the stride against the cell side.
    pub fn validate(self, cell: u32) -> Result<()> {
        let stride = self.stride();
        if stride == 0 || stride > cell {
            return Err(ZoneError::Stride { stride, cell });
        }
        Ok(())
    }
}

/// When a cell is on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Threshold {
    /// On when the cell average is above this value in [0, 1].
    Fixed(f64),
    /// About this fraction of cells on, in [0, 1] (a quantile threshold).
    Fill(f64),
}

/// The default share of cells on (wall): 45%, whatever the noise kind.
pub const DEFAULT_FILL: f64 = 0.45;

impl Default for Threshold {
    /// [`Threshold::Fill`]`(`[`DEFAULT_FILL`]`)`: the same share of wall (45%) and floor (55%)
    /// for every noise kind. A fixed value means different shares for different kinds (0.45
    /// turns on 31% of cells with Worley F1, 57% with Simplex, 61% with Perlin and 4% with the
    /// reference's Worley ratio; see the crate docs).
    fn default() -> Self {
        Threshold::Fill(DEFAULT_FILL)
    }
}

impl Threshold {
    /// Checks the value's range.
    pub fn validate(self) -> Result<()> {
        match self {
            Threshold::Fixed(v) if !(0.0..=1.0).contains(&v) => {
                Err(ZoneError::ThresholdOutOfRange { value: v })
            }
            Threshold::Fill(v) if !(0.0..=1.0).contains(&v) => {
                Err(ZoneError::FillOutOfRange { value: v })
            }
            _ => Ok(()),
        }
    }
}

/// The mean noise over the `size x size` px window with top-left corner `(x0, y0)`.
///
/// The `k x k` sample lattice (`k = ceil(size / stride)`, spacing `stride`) is centred on the
/// window's centre, so strided means are unbiased estimates of the full mean.
#[inline]
pub fn window_average(noise: &Noise, x0: f64, y0: f64, size: u32, stride: u32) -> f64 {
    let (k, first, s) = sample_lattice(size, stride);
    noise.lattice_mean(x0 + first, y0 + first, k, s)
}

/// The sample lattice of a window of `size` px: samples per side, offset of the first
/// sample from the window's corner, spacing.
fn sample_lattice(size: u32, stride: u32) -> (u32, f64, f64) {
    let stride = stride.max(1);
    let k = size.div_ceil(stride);
    let s = f64::from(stride);
    let first = (f64::from(size) - 1.0) * 0.5 - f64::from(k - 1) * s * 0.5;
    (k, first, s)
}

/// The 9 cell averages of the zone whose top-left pixel is `(x0, y0)`, row-major.
pub fn cell_averages(noise: &Noise, x0: f64, y0: f64, zone: u32, stride: u32) -> [f64; 9] {
    let c = zone / 3;
    let mut out = [0.0; 9];
    for (i, v) in out.iter_mut().enumerate() {
        let (col, row) = ((i % 3) as u32, (i / 3) as u32);
        *v = window_average(
            noise,
            x0 + f64::from(col * c),
            y0 + f64::from(row * c),
            c,
            stride,
        );
    }
    out
}

/// The state of 9 cell averages under `threshold` (on when above).
#[inline]
pub fn state_of(averages: &[f64; 9], threshold: f64) -> ZoneState {
    let mut bits = 0u16;
    for (i, &v) in averages.iter().enumerate() {
        bits |= u16::from(v > threshold) << i;
    }
    ZoneState::from_bits(bits)
}

/// The fixed threshold that turns on the top `fill` fraction of `values`.
/// `fill = 0` gives 2 (nothing on), `fill = 1` gives -1 (everything on).
pub fn quantile_threshold(values: &mut [f64], fill: f64) -> f64 {
    let n = values.len();
    if n == 0 || fill <= 0.0 {
        return 2.0;
    }
    if fill >= 1.0 {
        return -1.0;
    }
    values.sort_by(f64::total_cmp);
    let on = ((fill * n as f64).round() as usize).min(n);
    if on == 0 {
        return 2.0;
    }
    if on == n {
        return -1.0;
    }
    let k = n - on; // values[k..] are on
    (values[k - 1] + values[k]) * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::NoiseConfig;

    #[test]
    fn quantile_turns_on_the_requested_fraction() {
        let mut v: Vec<f64> = (0..100).map(|i| f64::from(i) / 100.0).collect();
        let t = quantile_threshold(&mut v, 0.3);
        assert_eq!(v.iter().filter(|&&x| x > t).count(), 30);
        assert_eq!(quantile_threshold(&mut v, 0.0), 2.0);
        assert_eq!(quantile_threshold(&mut v, 1.0), -1.0);
    }

    #[test]
    fn state_bits_follow_cells() {
        let mut a = [0.0; 9];
        a[2] = 0.9;
        a[6] = 0.5;
        assert_eq!(state_of(&a, 0.45).index(), 4 | 64);
    }

    #[test]
    fn strided_average_approximates_full() {
        let noise = Noise::new(&NoiseConfig::simplex(), 3).unwrap();
        let full = window_average(&noise, 100.0, 40.0, 20, 1);
        let s2 = window_average(&noise, 100.0, 40.0, 20, 2);
        let s5 = window_average(&noise, 100.0, 40.0, 20, 5);
        assert!((full - s2).abs() < 0.02, "{full} {s2}");
        assert!((full - s5).abs() < 0.05, "{full} {s5}");
    }

    #[test]
    fn range_checks() {
        assert!(matches!(
            Threshold::Fixed(1.5).validate(),
            Err(ZoneError::ThresholdOutOfRange { .. })
        ));
        assert!(matches!(
            Threshold::Fill(f64::NAN).validate(),
            Err(ZoneError::FillOutOfRange { .. })
        ));
        assert!(Sampling::Stride(0).validate(20).is_err());
        assert!(Sampling::Stride(21).validate(20).is_err());
        assert!(Sampling::Full.validate(20).is_ok());
    }
}
