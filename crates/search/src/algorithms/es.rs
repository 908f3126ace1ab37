//! (μ+λ) evolution strategy: keep the μ fittest of parents and children; each child is a
//! mutated copy of a parent drawn uniformly.
//!
//! Each generation scores its children and its parents again on a fresh set of map seeds
//! (round `g` of [`crate::Evaluator::round_seeds`]), so parents and children are compared on
//! the same maps and a generator that was only lucky on one seed set does not survive on
//! that luck. The re-scoring counts towards the evaluation budget.

use super::{Driver, better_first};
use crate::archive::Elite;
use crate::space::{Genome, Space};
use grid_core::{LevelRng, below};

/// Settings of the strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EsSettings {
    /// Parents kept.
    pub mu: usize,
    /// Children per generation.
    pub lambda: usize,
    /// Mutation strength.
    pub mutation: f64,
}

/// Runs the strategy until the budget is spent; returns the last generation scored, parents
/// and children, best first: the final population (its first `mu`), then the children that
/// did not survive, which the final selection may still prefer for their distinct maps.
pub fn run(space: &Space, s: EsSettings, rng: &mut LevelRng, driver: &mut Driver) -> Vec<Elite> {
    let first = driver.allowance(s.mu.max(s.lambda));
    let genomes = space.first_batch(first, rng);
    let start = driver.evaluate(genomes);
    let mut last = start.clone();
    last.sort_by(better_first);
    let mut population = last[..s.mu.min(last.len())].to_vec();
    // The log row describes the whole first batch (its invalid candidates included).
    driver.record(&start, population.first(), 0);
    for generation in 1.. {
        let n = driver
            .allowance(population.len() + s.lambda)
            .saturating_sub(population.len());
        if n == 0 || population.is_empty() {
            break;
        }
        let children: Vec<Genome> = (0..n)
            .map(|_| {
                let parent = &population[below(rng, population.len())];
                space.mutate(&parent.genome, s.mutation, rng)
            })
            .collect();
        let born = driver.done + population.len() as u64;
        let mut genomes: Vec<Genome> = population.iter().map(|p| p.genome.clone()).collect();
        genomes.extend(children);
        let evals = driver.evaluate_on(&genomes, generation);
        let mut next: Vec<Elite> = Vec::with_capacity(genomes.len());
        for (i, (genome, eval)) in genomes.into_iter().zip(evals).enumerate() {
            let born = match population.get(i) {
                Some(parent) => parent.born,
                None => born + (i - population.len()) as u64,
            };
            next.push(Elite { genome, eval, born });
        }
        let batch = next[population.len()..].to_vec();
        next.sort_by(better_first);
        population = next[..s.mu.min(next.len())].to_vec();
        last = next;
        driver.record(&batch, population.first(), 0);
    }
    last
}
