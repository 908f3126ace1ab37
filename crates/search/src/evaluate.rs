//! Stage 3: scoring a candidate. Its genome becomes a script, the script makes one map per
//! evaluation seed, every map is measured, and the scores are folded into one fitness.
//!
//! **Map score.** Each constraint gives a reward: 1 inside its range, `1 / (1 + d / scale)`
//! at distance `d` outside it (so a near miss scores more than a far one, and the search
//! always has a slope to climb). A map is *feasible* when it meets every constraint. The
//! map's score is 1 if it is feasible (else 0), plus the mean reward (1 with no
//! constraints), plus the weighted sum of the objectives: the feasibility step makes every
//! missed map cost a whole point, however near the miss, so the search pushes the feasible
//! fraction up rather than trading it for a closer average.
//!
//! **Fitness.** `mean(score) - spread x std(score)` over the candidate's maps: a generator
//! is rewarded for being good on every seed, not on average.
//!
//! **Ranking.** Candidates are ordered by their feasible share first and by fitness only
//! among equal shares ([`Evaluation::rank`]): a generator that meets the spec on some seeds
//! always ranks above one that never does, whatever `spread` is (the spread of a partly
//! feasible generator's scores is large, so a fitness alone would punish partial success).

use crate::diversity::set_value;
use crate::generator::{Generator, Kind};
use crate::metric::{MeasureSetup, MetricKind, Resolved};
use crate::space::Space;
use grid_core::TileId;
use grid_core::metrics::MetricsScratch;
use serde::Serialize;
use std::collections::HashSet;

/// Most cells one candidate keeps for the set-level metrics (`diversity`, `nearest`, ...) (128 MiB per worker thread: two
/// bytes per tile id).
pub const MAX_KEPT_CELLS: usize = 64 << 20;

/// A 64-bit hash of a map's width and cells, to count distinct maps (the count depends only
/// on which maps are equal, barring a 64-bit collision, not on the hash values).
fn cells_hash(width: usize, cells: &[TileId]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    width.hash(&mut h);
    cells.hash(&mut h);
    h.finish()
}

/// A compiled constraint: metric index and range.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    /// Index into the metric list.
    pub metric: usize,
    /// Lowest value that satisfies.
    pub min: f64,
    /// Highest value that satisfies.
    pub max: f64,
    /// Distance outside the range that halves the reward.
    pub scale: f64,
}

impl Bound {
    /// The reward of `value`: 1 inside, `1 / (1 + d / scale)` at distance `d` outside.
    pub fn reward(&self, value: f64) -> f64 {
        let d = if value < self.min {
            self.min - value
        } else if value > self.max {
            value - self.max
        } else {
            return 1.0;
        };
        1.0 / (1.0 + d / self.scale)
    }
}

/// Everything needed to score a genome; shared read-only by the worker threads.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// The generator searched.
    pub kind: Kind,
    /// The search space.
    pub space: Space,
    /// Every metric the spec names, in first-mention order.
    pub metrics: Vec<MetricKind>,
    /// Their names, in the same order.
    pub names: Vec<String>,
    /// How to measure.
    pub setup: MeasureSetup,
    /// Constraints.
    pub bounds: Vec<Bound>,
    /// Objectives: metric index and weight.
    pub terms: Vec<(usize, f64)>,
    /// The map seeds every candidate is scored on (round 0).
    pub seeds: Vec<u64>,
    /// The root the map seeds are derived from (`Seed(seed).stream("maps")`).
    pub map_root: u64,
    /// Weight of the standard deviation in the fitness.
    pub spread: f64,
}

/// The score of one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// Mean map score minus spread x standard deviation (`f64::MIN` for an invalid script).
    pub fitness: f64,
    /// Mean of each metric over the maps.
    pub means: Vec<f64>,
    /// Fraction of maps meeting every constraint.
    pub feasible: f64,
    /// Why the script could not run, if it could not.
    pub error: Option<String>,
}

impl Evaluation {
    pub(crate) fn invalid(error: String, metrics: usize) -> Self {
        Self {
            fitness: f64::MIN,
            means: vec![0.0; metrics],
            feasible: 0.0,
            error: Some(error),
        }
    }

    /// Whether the script ran.
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }

    /// Orders two evaluations best first: the larger feasible share, then the higher
    /// fitness (an invalid script is never feasible and has the lowest fitness).
    pub fn rank(&self, other: &Self) -> std::cmp::Ordering {
        other
            .feasible
            .total_cmp(&self.feasible)
            .then(other.fitness.total_cmp(&self.fitness))
    }
}

/// Per-thread buffers.
#[derive(Debug, Default)]
pub struct Scratch {
    metrics: MetricsScratch,
    values: Vec<f64>,
}

impl Evaluator {
    /// Scores `genome` on the evaluation seeds.
    pub fn evaluate(&self, genome: &[f64], scratch: &mut Scratch) -> Evaluation {
        self.evaluate_on(genome, &self.seeds, scratch)
    }

    /// Scores `genome` on `seeds`.
    pub fn evaluate_on(&self, genome: &[f64], seeds: &[u64], scratch: &mut Scratch) -> Evaluation {
        match self.compile(genome) {
            Ok(generator) => self.score(generator.as_ref(), seeds, scratch).0,
            Err(e) => Evaluation::invalid(e, self.metrics.len()),
        }
    }

    /// The map seeds of round `round`: round 0 is [`Evaluator::seeds`]; later rounds (the
    /// evolution strategy's generations) draw fresh ones from the same root, as many.
    pub fn round_seeds(&self, round: u64) -> Vec<u64> {
        if round == 0 {
            return self.seeds.clone();
        }
        let root = grid_core::Seed(self.map_root).child(round);
        (0..self.seeds.len() as u64)
            .map(|i| root.child(i).0)
            .collect()
    }

    /// The generator of `genome`, built (for Marahel, the script parsed).
    pub fn compile(&self, genome: &[f64]) -> Result<Box<dyn Generator>, String> {
        let doc = self.space.decode(genome).map_err(|e| e.to_string())?;
        self.kind.build(&doc)
    }

    /// Scores `generator` on `seeds`; also returns the fraction of distinct maps.
    pub fn score(
        &self,
        generator: &dyn Generator,
        seeds: &[u64],
        scratch: &mut Scratch,
    ) -> (Evaluation, f64) {
        let scored = self.score_maps(generator, seeds, scratch, false);
        (scored.eval, scored.distinct)
    }

    /// Scores `generator` on `seeds`, keeping the maps' cells when a set-level metric needs
    /// them or `keep` asks for them.
    ///
    /// Distinct maps are counted by a 64-bit hash of their cells; the cells themselves are
    /// kept at most [`MAX_KEPT_CELLS`] (maps x the script's largest map area), checked
    /// before the first map is made: a metric that needs more makes the candidate invalid,
    /// while `keep` alone then keeps none.
    pub fn score_maps(
        &self,
        generator: &dyn Generator,
        seeds: &[u64],
        scratch: &mut Scratch,
        keep: bool,
    ) -> Scored {
        let n_metrics = self.metrics.len();
        let needs = |cells: bool| {
            self.metrics.iter().any(|m| match m {
                MetricKind::Diversity => cells,
                MetricKind::Set(s) => s.needs_cells() == cells,
                _ => false,
            })
        };
        let (needs_cells, needs_layouts) = (needs(true), needs(false));
        let (w, h) = generator.max_size();
        let fits = w.saturating_mul(h).saturating_mul(seeds.len()) <= MAX_KEPT_CELLS;
        let invalid = |e: String| Scored {
            eval: Evaluation::invalid(e, n_metrics),
            distinct: 0.0,
            cells: Vec::new(),
            hashes: Vec::new(),
        };
        if needs_cells && !fits {
            return invalid(format!(
                "diversity over {} maps of up to {w}x{h} would keep more than {MAX_KEPT_CELLS} cells; use fewer maps or smaller maps",
                seeds.len()
            ));
        }
        let keep_cells = needs_cells || (keep && fits);
        let mut per_map: Vec<Vec<f64>> = Vec::with_capacity(seeds.len());
        let mut cells: Vec<Vec<TileId>> = Vec::new();
        let mut layouts: Vec<Vec<f64>> = Vec::new();
        let mut hashes: Vec<u64> = Vec::with_capacity(seeds.len());
        let mut resolved: Option<Resolved> = None;
        for &seed in seeds {
            let made = match generator.generate(seed) {
                Ok(made) => made,
                Err(e) => return invalid(e),
            };
            let map = made.map.as_ref();
            let r = resolved
                .get_or_insert_with(|| Resolved::new(&self.metrics, &self.setup, map.legend()));
            if let Err(e) =
                r.measure_with(map, &made.extras, &mut scratch.metrics, &mut scratch.values)
            {
                return invalid(e);
            }
            per_map.push(scratch.values.clone());
            let tiles = made.cells();
            hashes.push(cells_hash(map.width(), &tiles));
            if needs_layouts {
                layouts.push(r.layout(&tiles, map.width()));
            }
            if keep_cells {
                cells.push(tiles);
            }
        }
        let unique = hashes.iter().collect::<HashSet<_>>().len();
        let distinct = unique as f64 / seeds.len().max(1) as f64;
        if let Some(r) = &resolved {
            for slot in r.distinct_slots() {
                per_map.iter_mut().for_each(|v| v[slot] = distinct);
            }
            for (slot, metric) in r.set_slots() {
                let d = set_value(metric, &cells, &layouts);
                per_map.iter_mut().for_each(|v| v[slot] = d);
            }
        }
        Scored {
            eval: fold(&per_map, &self.bounds, &self.terms, self.spread),
            distinct,
            cells,
            hashes,
        }
    }
}

/// A candidate scored on a set of seeds, with its maps when they were kept.
#[derive(Clone, Debug)]
pub struct Scored {
    /// The score.
    pub eval: Evaluation,
    /// Fraction of distinct maps.
    pub distinct: f64,
    /// Each seed's map, cells row by row (empty when not kept).
    pub cells: Vec<Vec<TileId>>,
    /// Each seed's map as a 64-bit hash of its width and cells (always kept): which maps of
    /// two generators are equal, whatever their size.
    pub hashes: Vec<u64>,
}

/// Folds the metric values of each map into an evaluation: the constraints `bounds`, the
/// objective `terms` (metric index, weight) and the weight `spread` of the scores' standard
/// deviation.
pub fn fold(
    per_map: &[Vec<f64>],
    bounds: &[Bound],
    terms: &[(usize, f64)],
    spread: f64,
) -> Evaluation {
    let n = per_map.len().max(1) as f64;
    let mut means = vec![0.0; per_map.first().map_or(0, Vec::len)];
    let mut scores = Vec::with_capacity(per_map.len());
    let mut feasible = 0usize;
    for values in per_map {
        for (m, v) in means.iter_mut().zip(values) {
            *m += v / n;
        }
        let rewards: Vec<f64> = bounds.iter().map(|b| b.reward(values[b.metric])).collect();
        let met = rewards.iter().all(|&r| r == 1.0);
        feasible += met as usize;
        let constraint = if rewards.is_empty() {
            1.0
        } else {
            rewards.iter().sum::<f64>() / rewards.len() as f64
        };
        let objective: f64 = terms.iter().map(|&(m, w)| w * values[m]).sum();
        scores.push(f64::from(u8::from(met)) + constraint + objective);
    }
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n;
    Evaluation {
        fitness: mean - spread * var.sqrt(),
        means,
        feasible: feasible as f64 / n,
        error: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reward_slopes_outside_the_range() {
        let b = Bound {
            metric: 0,
            min: 28.0,
            max: f64::MAX,
            scale: 28.0,
        };
        assert_eq!(b.reward(30.0), 1.0);
        assert_eq!(b.reward(28.0), 1.0);
        assert_eq!(b.reward(14.0), 1.0 / 1.5);
        assert_eq!(b.reward(0.0), 0.5);
        let one = Bound {
            metric: 0,
            min: 1.0,
            max: 1.0,
            scale: 1.0,
        };
        assert_eq!(one.reward(3.0), 1.0 / 3.0);
        assert!(one.reward(2.0) > one.reward(3.0));
    }

    /// Ten maps of one metric (a longest path), scored against `longest_path >= 28` with
    /// an objective on the same metric.
    fn scored(values: &[f64], spread: f64) -> Evaluation {
        let per_map: Vec<Vec<f64>> = values.iter().map(|&v| vec![v]).collect();
        let bound = Bound {
            metric: 0,
            min: 28.0,
            max: f64::MAX,
            scale: 28.0,
        };
        fold(&per_map, &[bound], &[(0, 0.02)], spread)
    }

    #[test]
    fn partial_success_ranks_above_none_at_every_spread() {
        // 40% feasible, the misses far off; against near misses on every map.
        let partial = [60.0, 60.0, 60.0, 60.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let never = [27.0; 10];
        for spread in [0.0, 0.25, 0.5, 1.0, 2.0, 5.0, 100.0] {
            let (a, b) = (scored(&partial, spread), scored(&never, spread));
            assert_eq!((a.feasible, b.feasible), (0.4, 0.0));
            assert_eq!(
                a.rank(&b),
                std::cmp::Ordering::Less,
                "{spread}: {a:?} {b:?}"
            );
            assert_eq!(b.rank(&a), std::cmp::Ordering::Greater);
            if spread >= 1.0 {
                // The fitness alone would have it the other way round.
                assert!(a.fitness < b.fitness, "{spread}: {a:?} {b:?}");
            }
        }
        // Among equal shares, fitness decides.
        let (a, b) = (scored(&[30.0; 10], 1.0), scored(&[40.0; 10], 1.0));
        assert_eq!(b.rank(&a), std::cmp::Ordering::Less);
    }
}
