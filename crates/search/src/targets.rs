//! Control targets: one generator per asked metric value (a list), or per combination of
//! values of several metrics (a grid).
//!
//! A spec's `targets` lists axes, each a metric and its values; the targets are every
//! combination of one value per axis (one axis: its values). For each target the spec's
//! search (ES or NSGA-II) runs on its own, with one more constraint per axis: the metric
//! within `h = tolerance x |value|` of the value (`h = tolerance` for a value of 0), a near
//! miss rewarded by `1 / (1 + d / h)` (a steeper slope than a constraint's default, so the
//! search is pulled into the narrow band). The target's best `4 x keep` distinct
//! candidates are then checked on the check seeds, and the target's generator is the one
//! whose means lie nearest the bands (the largest distance outside a band, in band
//! widths; 0 inside every band), then the one with the most maps on target. Its **measured** values are its means on further seeds that neither the
//! search nor the selection saw (the check seeds' count, right after them), so the
//! reported value is not the lucky one that won the selection.
//!
//! Target `i` searches with the seed `Seed(seed).stream("target").child(i)`: the result is
//! a pure function of (spec, seed), as a single search is.

use crate::error::SearchError;
use crate::evaluate::Bound;
use crate::{Check, Elite, LogRow, Search};
use grid_core::Seed;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most targets (combinations) one spec may ask for.
pub const MAX_TARGETS: usize = 1000;

/// One axis of the targets: a metric and the values asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetAxis {
    /// The metric (any name a constraint takes).
    pub metric: String,
    /// The values asked for.
    pub values: Vec<f64>,
    /// How near a map's value must be to count as on target, as a fraction of the value.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
}

fn default_tolerance() -> f64 {
    0.1
}

/// Checks the axes (the metric names are checked by [`Search::new`]).
pub fn check(axes: &[TargetAxis]) -> Result<(), SearchError> {
    let mut count = 1usize;
    for (i, a) in axes.iter().enumerate() {
        let path = format!("targets[{i}]");
        if a.values.is_empty() {
            return Err(SearchError::value(
                format!("{path}.values"),
                "give at least one value",
            ));
        }
        if let Some(v) = a.values.iter().find(|v| !v.is_finite()) {
            return Err(SearchError::value(
                format!("{path}.values"),
                format!("{v}: expected finite numbers"),
            ));
        }
        if !(a.tolerance.is_finite() && a.tolerance > 0.0) {
            return Err(SearchError::value(
                format!("{path}.tolerance"),
                format!("{}: expected a number > 0", a.tolerance),
            ));
        }
        count = count.saturating_mul(a.values.len());
    }
    if count > MAX_TARGETS {
        return Err(SearchError::value(
            "targets",
            format!("{count} combinations; at most {MAX_TARGETS}"),
        ));
    }
    Ok(())
}

/// Every target: one value per axis, the first axis varying slowest.
pub fn combinations(axes: &[TargetAxis]) -> Vec<Vec<f64>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter()
            .flat_map(|head| {
                axis.values.iter().map(move |&v| {
                    let mut t = head.clone();
                    t.push(v);
                    t
                })
            })
            .collect()
    })
}

/// The constraint that holds a map on `value` of the metric at `index`.
pub fn bound(index: usize, value: f64, tolerance: f64) -> Bound {
    let half = if value == 0.0 {
        tolerance
    } else {
        tolerance * value.abs()
    };
    Bound {
        metric: index,
        min: value - half,
        max: value + half,
        scale: half,
    }
}

/// The generator found for one target.
#[derive(Clone, Debug)]
pub struct TargetHit {
    /// The value asked for on each axis.
    pub target: Vec<f64>,
    /// The generator as the search scored it.
    pub elite: Elite,
    /// Its document (script or settings).
    pub document: Value,
    /// Its check on the selection seeds (the target's constraints included).
    pub check: Check,
    /// Its check on the fresh seeds: `means` holds the measured values.
    pub measured: Check,
    /// Candidates this target's search evaluated.
    pub evaluations: u64,
}

impl Search {
    /// Runs the spec's search once per target ([`combinations`] of `spec.targets`), picks
    /// each target's generator by a check on `seeds` and measures it on as many seeds right
    /// after them. `progress` sees each batch's log row and the target's index.
    pub fn run_targets(
        &self,
        seeds: std::ops::Range<u64>,
        progress: &mut dyn FnMut(usize, &LogRow),
    ) -> Result<Vec<TargetHit>, String> {
        let fresh = seeds.end..seeds.end + (seeds.end - seeds.start);
        let index = |metric: &str| {
            self.evaluator
                .names
                .iter()
                .position(|n| n == metric)
                .expect("target metrics are collected by Search::new")
        };
        let mut hits = Vec::new();
        for (i, target) in combinations(&self.spec.targets).into_iter().enumerate() {
            let mut one = self.clone();
            one.spec.seed = Seed(self.spec.seed).stream("target").child(i as u64).0;
            for (axis, &value) in self.spec.targets.iter().zip(&target) {
                let b = bound(index(&axis.metric), value, axis.tolerance);
                one.evaluator.bounds.push(b.clone());
                one.checker.bounds.push(b);
            }
            let outcome = one.run(&mut |row| progress(i, row));
            let (elite, document, check) = one
                .closest(&outcome.pool, &target, seeds.clone())?
                .ok_or_else(|| format!("target {}: the search found no valid generator", i + 1))?;
            let measured = one.check(&document, fresh.clone())?;
            hits.push(TargetHit {
                target,
                elite,
                document,
                check,
                measured,
                evaluations: outcome.evaluations,
            });
        }
        Ok(hits)
    }
}

impl Search {
    /// The target's pick from `pool`: each candidate checked on `seeds`, the one whose means
    /// lie nearest the target's bands (the largest distance outside a band, in band
    /// widths) first, then by the share of maps on target and the fitness.
    fn closest(
        &self,
        pool: &[(Elite, Value)],
        target: &[f64],
        seeds: std::ops::Range<u64>,
    ) -> Result<Option<(Elite, Value, Check)>, String> {
        use rayon::prelude::*;
        let checked: Vec<Check> = pool
            .par_iter()
            .map(|(_, document)| self.check(document, seeds.clone()))
            .collect::<Result<_, _>>()?;
        let bands = &self.evaluator.bounds[self.evaluator.bounds.len() - target.len()..];
        let off = |c: &Check| {
            bands
                .iter()
                .map(|b| {
                    let v = c.means[b.metric];
                    (b.min - v).max(v - b.max).max(0.0) / (b.max - b.min).max(f64::MIN_POSITIVE)
                })
                .fold(0.0, f64::max)
        };
        let best = (0..pool.len()).min_by(|&a, &b| {
            let (ca, cb) = (&checked[a], &checked[b]);
            off(ca)
                .total_cmp(&off(cb))
                .then(cb.feasible.total_cmp(&ca.feasible))
                .then(cb.fitness.total_cmp(&ca.fitness))
                .then(a.cmp(&b))
        });
        Ok(best.map(|i| (pool[i].0.clone(), pool[i].1.clone(), checked[i].clone())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(metric: &str, values: &[f64]) -> TargetAxis {
        TargetAxis {
            metric: metric.into(),
            values: values.to_vec(),
            tolerance: 0.1,
        }
    }

    #[test]
    fn a_list_and_a_grid() {
        assert_eq!(
            combinations(&[axis("a", &[1.0, 2.0])]),
            vec![vec![1.0], vec![2.0]]
        );
        assert_eq!(
            combinations(&[axis("a", &[1.0, 2.0]), axis("b", &[5.0, 6.0, 7.0])]),
            vec![
                vec![1.0, 5.0],
                vec![1.0, 6.0],
                vec![1.0, 7.0],
                vec![2.0, 5.0],
                vec![2.0, 6.0],
                vec![2.0, 7.0]
            ]
        );
    }

    #[test]
    fn the_bound_is_the_tolerance_around_the_value() {
        let b = bound(3, 40.0, 0.1);
        assert_eq!((b.metric, b.min, b.max), (3, 36.0, 44.0));
        assert_eq!(b.reward(44.0), 1.0);
        assert_eq!(b.reward(32.0), 1.0 / (1.0 + 4.0 / 4.0));
        let zero = bound(0, 0.0, 0.5);
        assert_eq!((zero.min, zero.max), (-0.5, 0.5));
    }

    #[test]
    fn bad_axes_name_their_place() {
        let err = |a: &[TargetAxis]| check(a).unwrap_err().to_string();
        assert_eq!(
            err(&[axis("a", &[])]),
            "targets[0].values: give at least one value"
        );
        let mut t = axis("a", &[1.0]);
        t.tolerance = 0.0;
        assert_eq!(
            err(&[axis("a", &[1.0]), t]),
            "targets[1].tolerance: 0: expected a number > 0"
        );
        let many: Vec<f64> = (0..40).map(f64::from).collect();
        assert_eq!(
            err(&[axis("a", &many), axis("b", &many)]),
            "targets: 1600 combinations; at most 1000"
        );
        assert!(check(&[axis("a", &[20.0, 30.0])]).is_ok());
    }
}
