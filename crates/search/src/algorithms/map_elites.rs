//! MAP-Elites: a grid over two metrics (each candidate's means over its maps), keeping the
//! fittest valid candidate of each cell; new candidates are mutated copies of elites drawn
//! uniformly from the filled cells.

use super::Driver;
use crate::archive::{Elite, EliteGrid};
use crate::space::Space;
use grid_core::{LevelRng, below};

/// Settings of the algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapElitesSettings {
    /// Random candidates first.
    pub initial: usize,
    /// Candidates per batch after that.
    pub batch: usize,
    /// Mutation strength.
    pub mutation: f64,
}

/// Runs MAP-Elites into `grid` until the budget is spent.
pub fn run(
    space: &Space,
    s: MapElitesSettings,
    grid: &mut EliteGrid,
    rng: &mut LevelRng,
    driver: &mut Driver,
) {
    let n = driver.allowance(s.initial);
    let genomes = space.first_batch(n, rng);
    let batch = driver.evaluate(genomes);
    fold(grid, &batch, driver);
    loop {
        let n = driver.allowance(s.batch);
        if n == 0 {
            break;
        }
        let filled: Vec<usize> = grid.filled().collect();
        let genomes = (0..n)
            .map(|_| {
                if filled.is_empty() {
                    space.random(rng)
                } else {
                    let cell = filled[below(rng, filled.len())];
                    let parent = grid.cells[cell].as_ref().expect("a filled cell");
                    space.mutate(&parent.genome, s.mutation, rng)
                }
            })
            .collect();
        let batch = driver.evaluate(genomes);
        fold(grid, &batch, driver);
    }
}

fn fold(grid: &mut EliteGrid, batch: &[Elite], driver: &mut Driver) {
    for e in batch {
        grid.offer(e);
    }
    let best = grid.best(1);
    driver.record(batch, best.first().copied(), grid.filled().count());
}
