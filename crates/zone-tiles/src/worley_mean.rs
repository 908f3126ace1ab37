//! The matcher's hot loop for the default noise: the sum of Worley F1 (one octave) over a
//! lattice of samples, the same `f64` as summing [`worley_f1`](crate::lattice::worley_f1)
//! sample by sample, several times faster.
//!
//! [`worley_f1`](crate::lattice::worley_f1) looks at the feature points of the 3x3 lattice
//! cells around each sample, one sample at a time. Here the samples are first split by the
//! lattice lines into rectangles, each inside one lattice cell, and the 9 candidate points of
//! a rectangle are filtered once: a point is dropped when its smallest possible distance to
//! the rectangle is larger than the largest possible distance of some other candidate, so it
//! is the nearest point of no sample there. Usually one or two points remain, and each sample
//! takes the minimum over those.
//!
//! Why the result is bit-identical: dropping a point never changes a minimum (the bounds
//! are computed from the rectangle's extreme samples with the same rounded operations, and
//! rounding is monotonic); every sample's distance is the same floating-point expression;
//! and the sum runs over the samples in the same row-major order. Tested against
//! [`Noise::get`](crate::noise::Noise::get) for every distance.

use crate::lattice::feature_point;
use crate::noise::Distance;

/// Most samples per side handled here (larger lattices take the general path).
pub const MAX_SIDE: usize = 24;
/// Most lattice cells per side that a sample lattice may span here.
const MAX_CELLS: usize = 4;
/// Side of the block of feature points around the spanned lattice cells.
const BLOCK: usize = MAX_CELLS + 2;

/// A run of ascending samples inside one lattice cell: the cell and the index range.
#[derive(Clone, Copy, Default)]
struct Run {
    cell: i64,
    start: usize,
    end: usize,
}

/// The runs of `v` (ascending), or `None` when it spans more than [`MAX_CELLS`] cells or
/// skips a cell.
fn runs(v: &[f64]) -> Option<([Run; MAX_CELLS], usize)> {
    let mut out = [Run::default(); MAX_CELLS];
    let mut n = 0;
    for (i, &x) in v.iter().enumerate() {
        // Below the next cell's start the sample is in the current cell (floor is a call).
        if n > 0 && x >= out[n - 1].cell as f64 && x < out[n - 1].cell as f64 + 1.0 {
            out[n - 1].end = i + 1;
            continue;
        }
        let cell = x.floor() as i64;
        if n > 0 && out[n - 1].cell == cell {
            out[n - 1].end = i + 1;
            continue;
        }
        if n == MAX_CELLS || (n > 0 && out[n - 1].cell.checked_add(1) != Some(cell)) {
            return None;
        }
        out[n] = Run {
            cell,
            start: i,
            end: i + 1,
        };
        n += 1;
    }
    Some((out, n))
}

/// The candidate points of one rectangle of samples: indices into the block of points.
#[derive(Clone, Copy, Default)]
struct Near {
    idx: [u8; 9],
    len: usize,
}

/// The points `block[i]`, `i` in `cells`, that can be nearest to some sample of
/// `[xa, xb] x [ya, yb]`.
fn near(
    block: &[(f64, f64)],
    cells: [usize; 9],
    (xa, xb): (f64, f64),
    (ya, yb): (f64, f64),
    eval: impl Fn(f64, f64) -> f64,
) -> Near {
    // The larger of two offsets (never NaN here), without `f64::max`'s NaN handling.
    let max = |a: f64, b: f64| if a > b { a } else { b };
    let mut gaps = [0.0; 9];
    let mut reach = f64::INFINITY;
    for (gap, &i) in gaps.iter_mut().zip(&cells) {
        let (px, py) = block[i];
        let far = eval(
            max((xa - px).abs(), (xb - px).abs()),
            max((ya - py).abs(), (yb - py).abs()),
        );
        if far < reach {
            reach = far;
        }
        *gap = eval(
            max(max(xa - px, px - xb), 0.0),
            max(max(ya - py, py - yb), 0.0),
        );
    }
    let mut out = Near::default();
    for (&gap, &i) in gaps.iter().zip(&cells) {
        if gap <= reach {
            out.idx[out.len] = i as u8;
            out.len += 1;
        }
    }
    out
}

/// The sum of Worley F1 under `distance` (each value clamped to [0, 1]) over the samples
/// `(xs[i], ys[j])` in lattice units, both ascending, in row-major order; `None` when a side
/// has more than [`MAX_SIDE`] samples or spans more than 4 lattice cells (or skips one).
pub fn worley_f1_sum(seed: u64, distance: Distance, xs: &[f64], ys: &[f64]) -> Option<f64> {
    // Each distance of two absolute offsets, written as `Distance::eval` computes it (for
    // non-negative, non-NaN offsets, `if a > b { a } else { b }` is `a.max(b)`).
    match distance {
        Distance::Chebyshev => sum_with(seed, xs, ys, |a, b| if a > b { a } else { b }),
        Distance::Euclidean => sum_with(seed, xs, ys, |a, b| (a * a + b * b).sqrt()),
        Distance::Manhattan => sum_with(seed, xs, ys, |a, b| a + b),
    }
}

/// [`worley_f1_sum`] for one distance function `eval` of absolute offsets.
fn sum_with(
    seed: u64,
    xs: &[f64],
    ys: &[f64],
    eval: impl Fn(f64, f64) -> f64 + Copy,
) -> Option<f64> {
    if xs.is_empty() || ys.is_empty() || xs.len() > MAX_SIDE || ys.len() > MAX_SIDE {
        return None;
    }
    let (xr, nx) = runs(xs)?;
    let (yr, ny) = runs(ys)?;
    // Feature points of the spanned cells and their neighbours, hashed once.
    let (cx0, cy0) = (xr[0].cell.wrapping_sub(1), yr[0].cell.wrapping_sub(1));
    let mut block = [(0.0, 0.0); BLOCK * BLOCK];
    for r in 0..ny + 2 {
        for c in 0..nx + 2 {
            block[r * BLOCK + c] =
                feature_point(seed, cx0.wrapping_add(c as i64), cy0.wrapping_add(r as i64));
        }
    }
    let mut sum = 0.0;
    for (ry, y_run) in yr[..ny].iter().enumerate() {
        let yspan = (ys[y_run.start], ys[y_run.end - 1]);
        // Runs are consecutive cells, so run `k`'s cell sits at block offset `k + 1`.
        let nears: [Near; MAX_CELLS] = std::array::from_fn(|rx| {
            let Some(x_run) = xr[..nx].get(rx) else {
                return Near::default();
            };
            let cells = std::array::from_fn(|k| (ry + k / 3) * BLOCK + rx + k % 3);
            near(
                &block,
                cells,
                (xs[x_run.start], xs[x_run.end - 1]),
                yspan,
                eval,
            )
        });
        for &y in &ys[y_run.start..y_run.end] {
            for (x_run, near) in xr[..nx].iter().zip(&nears) {
                sum = add_row(sum, &block, near, &xs[x_run.start..x_run.end], y, eval);
            }
        }
    }
    Some(sum)
}

/// Adds the values of the samples `(x, y)` for `x` in `xs` to `sum`, in order: each sample's
/// smallest distance to the kept points, at most 1.
#[inline]
fn add_row(
    mut sum: f64,
    block: &[(f64, f64)],
    near: &Near,
    xs: &[f64],
    y: f64,
    eval: impl Fn(f64, f64) -> f64,
) -> f64 {
    let clamp = |d: f64| if d > 1.0 { 1.0 } else { d };
    if near.len == 1 {
        // One point can be nearest.
        let (px, py) = block[near.idx[0] as usize];
        let dy = (y - py).abs();
        for &x in xs {
            sum += clamp(eval((x - px).abs(), dy));
        }
        return sum;
    }
    // Each kept point's column and its row offset, out of the loop.
    let mut px = [0.0; 9];
    let mut dy = [0.0; 9];
    for (k, &i) in near.idx[..near.len].iter().enumerate() {
        px[k] = block[i as usize].0;
        dy[k] = (y - block[i as usize].1).abs();
    }
    let (px, dy) = (&px[..near.len], &dy[..near.len]);
    for &x in xs {
        let mut best = f64::INFINITY;
        for (&px, &dy) in px.iter().zip(dy) {
            let d = eval((x - px).abs(), dy);
            if d < best {
                best = d;
            }
        }
        sum += clamp(best);
    }
    sum
}

#[cfg(test)]
mod tests {
    use crate::noise::{Distance, Noise, NoiseConfig, NoiseKind, WorleyOutput};

    /// The mean of `k x k` samples through [`Noise::get`], summed in row-major order.
    fn slow_mean(noise: &Noise, x0: f64, y0: f64, k: u32, step: f64) -> f64 {
        let mut sum = 0.0;
        for j in 0..k {
            for i in 0..k {
                sum += noise.get(x0 + f64::from(i) * step, y0 + f64::from(j) * step);
            }
        }
        sum / f64::from(k * k)
    }

    #[test]
    fn fast_means_are_bit_identical_to_sample_by_sample_means() {
        let (mut checked, mut fast_paths) = (0, 0);
        for distance in [
            Distance::Chebyshev,
            Distance::Euclidean,
            Distance::Manhattan,
        ] {
            for scale in [3.0, 17.0, 40.0, 333.0] {
                let config = NoiseConfig {
                    kind: NoiseKind::Worley {
                        distance,
                        output: WorleyOutput::F1,
                    },
                    scale,
                    ..NoiseConfig::worley()
                };
                let noise = Noise::new(&config, 11).unwrap();
                for (n, (k, step)) in [(10, 2.0), (20, 1.0), (4, 5.0), (2, 10.0), (7, 3.0)]
                    .into_iter()
                    .enumerate()
                {
                    for t in 0..40 {
                        let x0 = -700.3 + f64::from(t) * 37.7 + n as f64;
                        let y0 = 1.5e9 * f64::from(t % 3) - 91.1 * f64::from(t);
                        let fast = noise.lattice_mean(x0, y0, k, step);
                        let slow = slow_mean(&noise, x0, y0, k, step);
                        assert_eq!(fast.to_bits(), slow.to_bits(), "{config:?} {x0} {y0} {k}");
                        let took_fast_path = noise.worley_f1_mean(x0, y0, k, step).is_some();
                        // At 3 px per lattice cell a sample lattice spans too many cells.
                        assert_eq!(took_fast_path, scale > 3.0 || k * step as u32 <= 10);
                        fast_paths += usize::from(took_fast_path);
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 4 * 5 * 40);
        assert!(fast_paths >= 3 * 3 * 5 * 40, "{fast_paths}");
    }
}
