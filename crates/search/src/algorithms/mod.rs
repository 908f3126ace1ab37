//! Stage 4: the search algorithms, one file each, sharing one driver.
//!
//! Every algorithm works in batches: it draws a batch of genomes serially from the search
//! RNG, the [`Driver`] evaluates them in parallel (rayon, results collected in batch
//! order), and the algorithm folds them in, in index order. Nothing depends on which thread
//! evaluated what, so a run is a pure function of (spec, seed) under an evaluation budget,
//! at any thread count. A seconds budget is checked between batches, so how many batches
//! run depends on the machine: such runs are not reproducible.

pub mod es;
pub mod map_elites;
pub mod nsga2;

use crate::archive::{Elite, LogRow};
use crate::evaluate::{Evaluation, Evaluator, Scratch};
use crate::space::Genome;
use rayon::prelude::*;
use std::time::Instant;

/// Evaluates batches within the budget and keeps the log.
pub struct Driver<'a> {
    evaluator: &'a Evaluator,
    max_evaluations: u64,
    deadline: Option<Instant>,
    /// Candidates evaluated so far.
    pub done: u64,
    /// One row per batch.
    pub log: Vec<LogRow>,
    progress: &'a mut dyn FnMut(&LogRow),
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
            progress,
        }
    }

    /// How many of `wanted` candidates the budget still allows (0 when it is spent).
    pub fn allowance(&self, wanted: usize) -> usize {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
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

    /// Evaluates `genomes` in parallel on the seeds of `round`, in the order given.
    pub fn evaluate_on(&mut self, genomes: &[Genome], round: u64) -> Vec<Evaluation> {
        let ev = self.evaluator;
        let seeds = ev.round_seeds(round);
        let evals = genomes
            .par_iter()
            .map_init(Scratch::default, |s, g| ev.evaluate_on(g, &seeds, s))
            .collect();
        self.done += genomes.len() as u64;
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
