//! Stage 6: the final selection. The search's best distinct candidates are checked on seeds
//! it never used (1..=100 by default) and kept by that check, best first, when their maps
//! are far enough apart ([`crate::spec::Selection`]): each kept generator's own maps by the
//! nearest-neighbour floor, two kept generators' maps by the share of seeds on which they
//! differ.

use crate::Search;
use crate::archive::Outcome;
use crate::diversity;
use crate::diversity::differing_share;
use crate::evaluate::{Evaluation, Scored, Scratch};
use crate::spec::Selection;
use serde::Serialize;
use serde_json::Value;

/// How a script does on a set of seeds (the acceptance check of a found generator).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Check {
    /// Maps made.
    pub maps: usize,
    /// Fraction meeting every constraint.
    pub feasible: f64,
    /// Fraction of distinct maps.
    pub distinct: f64,
    /// Mean of each metric, in the search's metric order.
    pub means: Vec<f64>,
    /// Fitness on these seeds.
    pub fitness: f64,
    /// Mean over the maps of the Hamming distance to the nearest other map (a fraction of
    /// the cells; 0 when the maps were too large to keep, see
    /// [`crate::evaluate::MAX_KEPT_CELLS`]).
    pub nearest: f64,
}

/// By default, two kept generators make different maps on at least this share of the check
/// seeds ([`Search::select`]).
pub const MIN_DIFFERING: f64 = 0.95;

/// By default, the search hands this many times `keep` candidates to [`Search::select`].
pub const POOL_FACTOR: usize = 4;

impl Search {
    /// Scores a script (for example a found generator) on `seeds`, serially. The longest
    /// path is exact here up to at least [`grid_core::metrics::paths::EXACT_CELLS`] passable
    /// cells, even when the spec had the search use the double-sweep estimate (a lower
    /// bound, so a map the search counted as long enough is).
    pub fn check(&self, document: &Value, seeds: std::ops::Range<u64>) -> Result<Check, String> {
        self.check_maps(document, seeds).map(|(check, _)| check)
    }

    /// [`Search::check`], also returning the maps (cells row by row, one per seed; none
    /// when they are too large to keep).
    pub fn check_maps(
        &self,
        document: &Value,
        seeds: std::ops::Range<u64>,
    ) -> Result<(Check, Vec<Vec<grid_core::TileId>>), String> {
        self.check_scored(document, seeds)
            .map(|(check, scored)| (check, scored.cells))
    }

    fn check_scored(
        &self,
        document: &Value,
        seeds: std::ops::Range<u64>,
    ) -> Result<(Check, Scored), String> {
        let generator = self.evaluator.kind.build(document)?;
        let seeds: Vec<u64> = seeds.collect();
        let mut scored =
            self.checker
                .score_maps(generator.as_ref(), &seeds, &mut Scratch::default(), true);
        if let Some(e) = scored.eval.error.take() {
            return Err(e);
        }
        let nearest = diversity::set_value(diversity::SetMetric::Nearest, &scored.cells, &[]);
        let check = Check {
            maps: seeds.len(),
            feasible: scored.eval.feasible,
            distinct: scored.distinct,
            means: std::mem::take(&mut scored.eval.means),
            fitness: scored.eval.fitness,
            nearest,
        };
        Ok((check, scored))
    }

    /// The final selection: checks every candidate of `outcome.pool` on `seeds` (in
    /// parallel, folded in order), ranks them by the check ([`Evaluation::rank`]: feasible
    /// share, then fitness) and keeps, best first, up to `keep` of them that are far enough
    /// apart ([`choose`]: the spec's `selection.nearest` floor and `selection.differing`
    /// share). `outcome.best` becomes the kept generators in check order, so the first is
    /// the best by the check; their checks are returned in the same order.
    pub fn select(
        &self,
        outcome: &mut Outcome,
        seeds: std::ops::Range<u64>,
    ) -> Result<Vec<Check>, String> {
        use rayon::prelude::*;
        let checked: Vec<Checked> = outcome
            .pool
            .par_iter()
            .map(|(_, document)| {
                let (check, scored) = self.check_scored(document, seeds.clone())?;
                Ok(Checked {
                    check,
                    hashes: scored.hashes,
                    spread_measured: !scored.cells.is_empty(),
                })
            })
            .collect::<Result<_, String>>()?;
        let kept = choose(&checked, self.spec.keep, &self.spec.selection);
        outcome.best = kept.iter().map(|&i| outcome.pool[i].clone()).collect();
        Ok(kept.into_iter().map(|i| checked[i].check.clone()).collect())
    }
}

/// A candidate of the final selection, as its check saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// Its check.
    pub check: Check,
    /// Its maps, one 64-bit hash per check seed ([`crate::evaluate::Scored::hashes`]).
    pub hashes: Vec<u64>,
    /// Whether its maps were kept, so `check.nearest` was measured.
    pub spread_measured: bool,
}

/// Which of the `checked` candidates to keep, best first: in the order of their checks
/// (feasible share, then fitness, then pool order), each candidate whose maps' mean
/// nearest-neighbour distance is at least `selection.nearest` and whose maps differ from
/// those of every candidate kept before on at least `selection.differing` of the seeds (a
/// near-duplicate, one whose maps mostly equal a better one's, is skipped; maps are
/// compared by their hashes, so this holds for maps of any size), until `keep` are kept. Fewer remain when the pool holds no more such candidates; when none meets
/// the floor, the best by the check alone is kept, so there is always a best generator
/// (its `nearest` then says by how much it missed). Candidates whose maps were too large
/// to keep ([`crate::evaluate::MAX_KEPT_CELLS`]) are not held to the floor.
pub fn choose(checked: &[Checked], keep: usize, selection: &Selection) -> Vec<usize> {
    let rank = |c: &Check| Evaluation {
        fitness: c.fitness,
        means: Vec::new(),
        feasible: c.feasible,
        error: None,
    };
    let mut order: Vec<usize> = (0..checked.len()).collect();
    order.sort_by(|&a, &b| {
        rank(&checked[a].check)
            .rank(&rank(&checked[b].check))
            .then(a.cmp(&b))
    });
    let spread_out = |c: &Checked| !c.spread_measured || c.check.nearest >= selection.nearest;
    let mut kept: Vec<usize> = Vec::new();
    for &i in &order {
        if kept.len() == keep {
            break;
        }
        let apart = kept.iter().all(|&k| {
            differing_share(&checked[i].hashes, &checked[k].hashes) >= selection.differing
        });
        if apart && spread_out(&checked[i]) {
            kept.push(i);
        }
    }
    if kept.is_empty() {
        kept.extend(order.first());
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check with this feasible share, fitness and nearest distance, and maps given by
    /// their hashes.
    fn candidate(feasible: f64, fitness: f64, nearest: f64, hashes: &[u64]) -> Checked {
        let check = Check {
            maps: hashes.len(),
            feasible,
            distinct: 1.0,
            means: Vec::new(),
            fitness,
            nearest,
        };
        Checked {
            check,
            hashes: hashes.to_vec(),
            spread_measured: true,
        }
    }

    fn selection(nearest: f64) -> Selection {
        Selection {
            nearest,
            ..Selection::default()
        }
    }

    #[test]
    fn the_floor_skips_clumped_generators_and_the_next_ones_fill_in() {
        let checked = vec![
            candidate(1.0, 3.0, 0.30, &[1, 2, 3, 4]), // best by the check, but clumped
            candidate(1.0, 2.0, 0.40, &[5, 6, 7, 8]),
            candidate(0.5, 9.0, 0.45, &[9, 10, 11, 12]),
            candidate(1.0, 1.0, 0.39, &[13, 14, 15, 16]),
        ];
        assert_eq!(choose(&checked, 2, &selection(0.0)), vec![0, 1]);
        assert_eq!(choose(&checked, 2, &selection(0.38)), vec![1, 3]);
        assert_eq!(choose(&checked, 5, &selection(0.38)), vec![1, 3, 2]);
    }

    #[test]
    fn generators_whose_spread_was_not_measured_are_not_held_to_the_floor() {
        let mut large = candidate(1.0, 1.0, 0.0, &[1, 2]);
        large.spread_measured = false;
        let checked = vec![candidate(1.0, 2.0, 0.1, &[3, 4]), large];
        assert_eq!(choose(&checked, 2, &selection(0.38)), vec![1]);
    }

    #[test]
    fn near_duplicates_are_skipped_and_the_best_stays_when_none_meets_the_floor() {
        let checked = vec![
            candidate(1.0, 3.0, 0.40, &[1, 2, 3, 4]),
            // Equal to the first on 1 of 4 seeds: differs on 75% < 95%.
            candidate(1.0, 2.0, 0.40, &[1, 6, 7, 8]),
            candidate(1.0, 1.0, 0.40, &[5, 6, 7, 8]),
        ];
        assert_eq!(choose(&checked, 3, &selection(0.0)), vec![0, 2]);
        let loose = Selection {
            differing: 0.75,
            ..selection(0.0)
        };
        assert_eq!(choose(&checked, 3, &loose), vec![0, 1]);
        assert_eq!(choose(&checked, 3, &selection(0.5)), vec![0]);
    }
}
