//! Estimators: the numbers rules compare. Compiled to enum variants, evaluated at a cell.

use crate::engine::Ctx;
use crate::hook::{Layer, Observer};
use crate::noise::NoiseField;
use grid_core::rand::RngExt;

/// A compiled estimator.
#[derive(Clone, Debug, PartialEq)]
pub enum Estimator {
    /// A constant.
    Number(f64),
    /// `nbh(list)`: weighted count of the neighbourhood's cells whose value is in the list.
    /// Cells outside the region read the explorer's `out` entity (and always count as `out`).
    Neighborhood {
        /// Index into the program's neighbourhoods.
        nbh: usize,
        /// Weight of each cell code (entities, then unknown, then out; 0 beyond).
        weights: Box<[u32; 256]>,
        /// Cache slot (for the whole-region count plane of buffered passes).
        slot: usize,
        /// Every value a cell inside a region can hold (entities, unknown) has the same
        /// weight, so the count depends only on the region's shape (e.g. `plus(out)`,
        /// `self(any)`), as long as nothing writes `out` into the map.
        uniform: bool,
    },
    /// `dist(list)`: Manhattan distance to the nearest cell of the region holding a listed
    /// entity (`dist(out)`: to the nearest cell outside the region); `-1` when there is none.
    Distance {
        /// Which codes are targets.
        targets: Vec<bool>,
        /// Distance to the region's outside instead.
        to_out: bool,
        /// Cache slot.
        slot: usize,
    },
    /// 2017 `minDist`/`maxDist`/`avgDist` other than `minDist(list)` (which is
    /// [`Estimator::Distance`]): see [`crate::distance::paths`].
    PathDistance {
        /// Least, largest or mean.
        stat: crate::distance::paths::Stat,
        /// Walk along this neighbourhood through cells of these codes, or Manhattan (`None`).
        walk: Option<(usize, Vec<bool>)>,
        /// Which codes are targets.
        targets: Vec<bool>,
        /// Cache slot.
        slot: usize,
        /// The estimator as written (for messages).
        text: String,
    },
    /// `name` or `a|b`: weighted count of those entities in the current region.
    Count {
        /// Weight of each cell code.
        weights: Vec<u32>,
    },
    /// `random`: uniform in `[0, 1)`, one draw per evaluation.
    Random,
    /// `noise` / `noiseN`: Perlin noise in `[-1, 1]` with features about `5*N` tiles wide.
    Noise {
        /// Feature size in tiles.
        scale: f64,
    },
    /// Fraction of the explorer's visits done in this region pass.
    Percent,
    /// Fraction of the explorer's allowed rule firings used in this region pass.
    CPercent,
    /// Fraction of the explorer's repeats done.
    RPercent,
}

impl Estimator {
    /// Whether the value can change while an explorer runs (reads the map or progress).
    pub fn is_dynamic(&self) -> bool {
        matches!(
            self,
            Estimator::Neighborhood { .. }
                | Estimator::Distance { .. }
                | Estimator::PathDistance { .. }
                | Estimator::Count { .. }
                | Estimator::Percent
                | Estimator::CPercent
                | Estimator::RPercent
        )
    }

    /// The value at cell `(x, y)` (global coordinates, inside the region).
    ///
    /// The common cases (a constant, a neighbourhood count read straight from the map) are
    /// inlined into the caller; the rest go through `Estimator::eval_other`.
    #[inline(always)]
    pub fn eval(&self, ctx: &mut Ctx, x: usize, y: usize) -> f64 {
        match self {
            Estimator::Number(v) => *v,
            Estimator::Neighborhood { nbh, weights, .. } if !ctx.buffer => {
                ctx.count_nbh(*nbh, weights, x, y) as f64
            }
            _ => self.eval_other(ctx, x, y),
        }
    }

    /// [`Estimator::eval`] for every case.
    #[inline(never)]
    fn eval_other(&self, ctx: &mut Ctx, x: usize, y: usize) -> f64 {
        match self {
            Estimator::Number(v) => *v,
            Estimator::Neighborhood {
                nbh, weights, slot, ..
            } => {
                // The layer may keep the count (the front buffer is frozen during a
                // buffered pass).
                match Layer::count(ctx, *slot, *nbh, weights, (x, y)) {
                    Some(v) => v as f64,
                    None => ctx.count_nbh(*nbh, weights, x, y) as f64,
                }
            }
            Estimator::Distance {
                targets,
                to_out,
                slot,
            } => ctx.distance(*slot, targets, *to_out, x, y),
            Estimator::PathDistance {
                stat,
                walk,
                targets,
                slot,
                ..
            } => ctx.path_distance(*slot, *stat, walk.as_ref(), targets, x, y),
            Estimator::Count { weights } => ctx
                .counts
                .iter()
                .zip(weights)
                .map(|(&c, &w)| (c as u64) * (w as u64))
                .sum::<u64>() as f64,
            Estimator::Random => ctx.rng.random::<f64>(),
            Estimator::Noise { scale } => {
                let seed = ctx.noise_seed;
                let field = ctx.noise.get_or_init(|| NoiseField::new(&mut seed.rng()));
                field.get(x as f64 / scale, y as f64 / scale)
            }
            Estimator::Percent => ctx.percent,
            Estimator::CPercent => ctx.cpercent,
            Estimator::RPercent => ctx.rpercent,
        }
    }
}
