//! (μ+λ) evolution strategy: keep the μ fittest of parents and children; each child is a
//! mutated copy of a parent drawn uniformly.

use super::{Driver, better_first};
use crate::archive::Elite;
use crate::space::Space;
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

/// Runs the strategy until the budget is spent; returns the final population, best first.
pub fn run(space: &Space, s: EsSettings, rng: &mut LevelRng, driver: &mut Driver) -> Vec<Elite> {
    let first = driver.allowance(s.mu.max(s.lambda));
    let genomes = (0..first).map(|_| space.random(rng)).collect();
    let mut population = driver.evaluate(genomes);
    population.sort_by(better_first);
    population.truncate(s.mu);
    driver.record(&population, population.first(), 0);
    loop {
        let n = driver.allowance(s.lambda);
        if n == 0 || population.is_empty() {
            break;
        }
        let children = (0..n)
            .map(|_| {
                let parent = &population[below(rng, population.len())];
                space.mutate(&parent.genome, s.mutation, rng)
            })
            .collect();
        let children = driver.evaluate(children);
        let batch = children.clone();
        population.extend(children);
        population.sort_by(better_first);
        population.truncate(s.mu);
        driver.record(&batch, population.first(), 0);
    }
    population
}
