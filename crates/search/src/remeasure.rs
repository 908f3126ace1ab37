//! Stage 5: honest archives. An elite won its MAP-Elites cell on the search's few map
//! seeds, so its recorded values are the luckiest of many draws. Before the archive is
//! reported, every elite is scored again on fresh seeds (`Seed(seed).stream("fresh")`,
//! never used by the search), and the grid is rebuilt from those scores: the values the
//! archive records are the fresh ones, and an elite that only looked like it belonged in
//! its cell moves (or loses to another elite there).
//!
//! **Seed count adapting to noise.** Each elite is first scored on `n = max(maps, 16)`
//! seeds, then on `n` more; when the two halves' means of the grid's axis metrics differ
//! by more than [`TOLERANCE`] of their size (or of 1, for values below 1), `n` doubles,
//! up to [`MAX_SEEDS`]. The recorded score is that of all seeds of the last round.

use crate::archive::{Elite, EliteGrid};
use crate::evaluate::{Evaluator, Scratch};
use grid_core::Seed;
use rayon::prelude::*;

/// Most fresh seeds per elite.
pub const MAX_SEEDS: usize = 128;

/// How far two halves' axis means may differ, relative to their size (at least 1).
pub const TOLERANCE: f64 = 0.02;

/// Fresh seeds number `from..from + n` of the search seeded `search_seed`.
fn fresh(search_seed: u64, from: usize, n: usize) -> Vec<u64> {
    let root = Seed(search_seed).stream("fresh");
    (from..from + n).map(|i| root.child(i as u64).0).collect()
}

/// Scores `elite` again on fresh seeds, as many as its noise needs; `axes` are the metric
/// indices whose means must settle.
pub fn remeasure(ev: &Evaluator, search_seed: u64, elite: &Elite, axes: &[usize]) -> Elite {
    let mut scratch = Scratch::default();
    let mut n = ev.seeds.len().max(16);
    loop {
        let (a, b) = (fresh(search_seed, 0, n), fresh(search_seed, n, n));
        let first = ev.evaluate_on(&elite.genome, &a, &mut scratch);
        let second = ev.evaluate_on(&elite.genome, &b, &mut scratch);
        let settled = first.is_valid()
            && second.is_valid()
            && axes.iter().all(|&m| {
                let (x, y) = (first.means[m], second.means[m]);
                (x - y).abs() <= TOLERANCE * x.abs().max(y.abs()).max(1.0)
            });
        if settled || 2 * n >= MAX_SEEDS || !first.is_valid() {
            let all = fresh(search_seed, 0, 2 * n);
            return Elite {
                genome: elite.genome.clone(),
                eval: ev.evaluate_on(&elite.genome, &all, &mut scratch),
                born: elite.born,
            };
        }
        n *= 2;
    }
}

/// The grid rebuilt from its elites scored again on fresh seeds (in parallel, folded in
/// cell order, so the result does not depend on the thread count).
pub fn honest_grid(ev: &Evaluator, search_seed: u64, grid: &EliteGrid) -> EliteGrid {
    let axes = [grid.x.index, grid.y.index];
    let elites: Vec<&Elite> = grid.cells.iter().flatten().collect();
    let fresh: Vec<Elite> = elites
        .par_iter()
        .map(|e| remeasure(ev, search_seed, e, &axes))
        .collect();
    let mut out = EliteGrid::new(grid.x.clone(), grid.y.clone());
    for e in &fresh {
        out.offer(e);
    }
    out
}
