//! Stage 4: the search algorithms, one file each, sharing one driver.
//!
//! Every algorithm works in batches: it draws a batch of genomes serially from the search
//! RNG, the [`Driver`] evaluates them in parallel (rayon, results collected in batch
//! order), and the algorithm folds them in, in index order. Nothing depends on which thread
//! evaluated what, so a run is a pure function of (spec, seed) under an evaluation budget,
//! at any thread count. A seconds budget is checked between batches, so how many batches
//! run depends on the machine: such runs are not reproducible.
//!
//! The driver hands each batch to a [`Scorer`]: [`Local`] (rayon on this machine) by
//! default, or one of the caller's that scores candidates elsewhere (other processes, a
//! cluster). Since a candidate's evaluation is a pure function of its genome and map seeds,
//! any scorer returning [`Evaluator::evaluate_on`]'s evaluations gives the same run.

pub mod es;
pub mod map_elites;
pub mod nsga2;

use crate::archive::{Elite, LogRow};
use crate::evaluate::{Evaluation, Evaluator, Scratch};
use crate::space::Genome;
use rayon::prelude::*;
use std::time::Instant;

/// Scores a batch of candidates on one set of map seeds: the step the [`Driver`] (and the
/// MAP-Elites remeasure) hands out, so it can run elsewhere.
pub trait Scorer: Sync {
    /// One evaluation per genome, in the order given, each equal to
    /// `evaluator.evaluate_on(genome, seeds, ..)` for the run to equal a local one. An
    /// error (a lost worker, a wrong count) stops the search: no further batch is drawn.
    fn score(
        &self,
        evaluator: &Evaluator,
        genomes: &[Genome],
        seeds: &[u64],
    ) -> Result<Vec<Evaluation>, String>;
}

/// The default [`Scorer`]: the candidates in parallel on rayon's threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Local;

impl Scorer for Local {
    fn score(
        &self,
        evaluator: &Evaluator,
        genomes: &[Genome],
        seeds: &[u64],
    ) -> Result<Vec<Evaluation>, String> {
        Ok(genomes
            .par_iter()
            .map_init(Scratch::default, |s, g| evaluator.evaluate_on(g, seeds, s))
            .collect())
    }
}

/// Runs `scorer` and checks that it returned one evaluation per genome.
pub(crate) fn score_checked(
    scorer: &dyn Scorer,
    evaluator: &Evaluator,
    genomes: &[Genome],
    seeds: &[u64],
) -> Result<Vec<Evaluation>, String> {
    let evals = scorer.score(evaluator, genomes, seeds)?;
    if evals.len() != genomes.len() {
        return Err(format!(
            "the scorer returned {} evaluations for {} candidates",
            evals.len(),
            genomes.len()
        ));
    }
    Ok(evals)
}

/// Evaluates batches within the budget and keeps the log.
pub struct Driver<'a> {
    evaluator: &'a Evaluator,
    max_evaluations: u64,
    deadline: Option<Instant>,
    /// Candidates evaluated so far.
    pub done: u64,
    /// One row per batch.
    pub log: Vec<LogRow>,
    /// Why the scorer failed, if it did (the budget is then spent).
    pub failure: Option<String>,
    /// The error of the first invalid candidate (in evaluation order), if any.
    pub first_error: Option<String>,
    progress: &'a mut dyn FnMut(&LogRow),
    scorer: &'a dyn Scorer,
}

impl std::fmt::Debug for Driver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("done", &self.done)
            .field("max_evaluations", &self.max_evaluations)
            .finish()
    }
}

impl<'a> Driver<'a> {
    /// A driver for `max_evaluations` candidates or until `seconds` have passed.
    pub fn new(
        evaluator: &'a Evaluator,
        max_evaluations: u64,
        seconds: Option<f64>,
        progress: &'a mut dyn FnMut(&LogRow),
    ) -> Self {
        Self {
            evaluator,
            max_evaluations,
            deadline: seconds.map(|s| Instant::now() + std::time::Duration::from_secs_f64(s)),
            done: 0,
            log: Vec::new(),
            failure: None,
            first_error: None,
            progress,
            scorer: &Local,
        }
    }

    /// The driver scoring its batches with `scorer` instead of [`Local`].
    pub fn with_scorer(mut self, scorer: &'a dyn Scorer) -> Self {
        self.scorer = scorer;
        self
    }

    /// How many of `wanted` candidates the budget still allows (0 when it is spent).
    pub fn allowance(&self, wanted: usize) -> usize {
        if self.failure.is_some() || self.deadline.is_some_and(|d| Instant::now() >= d) {
            return 0;
        }
        wanted.min(self.max_evaluations.saturating_sub(self.done) as usize)
    }

    /// Evaluates `genomes` in parallel on the round-0 seeds; the elites come back in the
    /// order given, numbered by evaluation.
    pub fn evaluate(&mut self, genomes: Vec<Genome>) -> Vec<Elite> {
        let first = self.done;
        let evals = self.evaluate_on(&genomes, 0);
        genomes
            .into_iter()
            .zip(evals)
            .enumerate()
            .map(|(i, (genome, eval))| Elite {
                genome,
                eval,
                born: first + i as u64,
            })
            .collect()
    }

    /// Evaluates `genomes` with the scorer on the seeds of `round`, in the order given.
    /// When the scorer fails, the candidates come back invalid and the budget is spent.
    pub fn evaluate_on(&mut self, genomes: &[Genome], round: u64) -> Vec<Evaluation> {
        let ev = self.evaluator;
        let seeds = ev.round_seeds(round);
        let evals = match score_checked(self.scorer, ev, genomes, &seeds) {
            Ok(evals) => evals,
            Err(e) => {
                let invalid = Evaluation::invalid(e.clone(), ev.metrics.len());
                self.failure.get_or_insert(e);
                vec![invalid; genomes.len()]
            }
        };
        self.done += genomes.len() as u64;
        if self.first_error.is_none() {
            self.first_error = evals.iter().find_map(|e| e.error.clone());
        }
        evals
    }

    /// Records the state after a batch.
    pub fn record(&mut self, batch: &[Elite], best: Option<&Elite>, filled: usize) {
        let valid: Vec<&Elite> = batch.iter().filter(|e| e.eval.is_valid()).collect();
        let row = LogRow {
            evaluations: self.done,
            best_fitness: best.map_or(f64::NAN, |b| b.eval.fitness),
            best_feasible: best.map_or(0.0, |b| b.eval.feasible),
            batch_mean_fitness: if valid.is_empty() {
                f64::NAN
            } else {
                valid.iter().map(|e| e.eval.fitness).sum::<f64>() / valid.len() as f64
            },
            batch_invalid: batch.len() - valid.len(),
            filled,
        };
        (self.progress)(&row);
        self.log.push(row);
    }
}

/// Orders elites best first: larger feasible share, then higher fitness
/// ([`crate::Evaluation::rank`]), then earlier birth.
pub fn better_first(a: &Elite, b: &Elite) -> std::cmp::Ordering {
    a.eval.rank(&b.eval).then(a.born.cmp(&b.born))
}
