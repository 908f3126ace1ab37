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

use crate::algorithms::{Local, Scorer, score_checked};
use crate::archive::{Elite, EliteGrid};
use crate::evaluate::{Evaluation, Evaluator};
use crate::space::Genome;
use grid_core::Seed;

/// Most fresh seeds per elite.
pub const MAX_SEEDS: usize = 128;

/// How far two halves' axis means may differ, relative to their size (at least 1).
pub const TOLERANCE: f64 = 0.02;

/// Fresh seeds number `from..from + n` of the search seeded `search_seed`.
fn fresh(search_seed: u64, from: usize, n: usize) -> Vec<u64> {
    let root = Seed(search_seed).stream("fresh");
    (from..from + n).map(|i| root.child(i as u64).0).collect()
}

/// Whether an elite's two halves agree: both valid and every axis mean within
/// [`TOLERANCE`].
fn settled(first: &Evaluation, second: &Evaluation, axes: &[usize]) -> bool {
    first.is_valid()
        && second.is_valid()
        && axes.iter().all(|&m| {
            let (x, y) = (first.means[m], second.means[m]);
            (x - y).abs() <= TOLERANCE * x.abs().max(y.abs()).max(1.0)
        })
}

/// Scores `elite` again on fresh seeds, as many as its noise needs, on this machine
/// ([`remeasure_all`] of one elite).
pub fn remeasure(ev: &Evaluator, search_seed: u64, elite: &Elite, axes: &[usize]) -> Elite {
    remeasure_all(ev, &Local, search_seed, &[elite], axes)
        .ok()
        .and_then(|v| v.into_iter().next())
        .unwrap_or_else(|| elite.clone())
}

/// Scores `elites` again on fresh seeds, each on as many as its noise needs; `axes` are the
/// metric indices whose means must settle. The elites still unsettled after a round share
/// its seed count, so each round is a few batches handed to `scorer`; an elite's result is
/// the same whichever others it is measured with.
pub fn remeasure_all(
    ev: &Evaluator,
    scorer: &dyn Scorer,
    search_seed: u64,
    elites: &[&Elite],
    axes: &[usize],
) -> Result<Vec<Elite>, String> {
    let mut out: Vec<Option<Elite>> = vec![None; elites.len()];
    let mut pending: Vec<usize> = (0..elites.len()).collect();
    let mut n = ev.seeds.len().max(16);
    while !pending.is_empty() {
        let genomes: Vec<Genome> = pending.iter().map(|&i| elites[i].genome.clone()).collect();
        let (a, b) = (fresh(search_seed, 0, n), fresh(search_seed, n, n));
        let first = score_checked(scorer, ev, &genomes, &a)?;
        let second = score_checked(scorer, ev, &genomes, &b)?;
        let last = 2 * n >= MAX_SEEDS;
        let (done, rest): (Vec<usize>, Vec<usize>) = (0..pending.len())
            .partition(|&k| last || !first[k].is_valid() || settled(&first[k], &second[k], axes));
        let finished: Vec<Genome> = done.iter().map(|&k| genomes[k].clone()).collect();
        let evals = score_checked(scorer, ev, &finished, &fresh(search_seed, 0, 2 * n))?;
        for (&k, eval) in done.iter().zip(evals) {
            let elite = elites[pending[k]];
            out[pending[k]] = Some(Elite {
                genome: elite.genome.clone(),
                eval,
                born: elite.born,
            });
        }
        pending = rest.iter().map(|&k| pending[k]).collect();
        n *= 2;
    }
    Ok(out.into_iter().flatten().collect())
}

/// The grid rebuilt from its elites scored again on fresh seeds by `scorer` (folded in
/// cell order, so the result depends neither on the thread count nor on the scorer).
pub fn honest_grid(
    ev: &Evaluator,
    scorer: &dyn Scorer,
    search_seed: u64,
    grid: &EliteGrid,
) -> Result<EliteGrid, String> {
    let axes = [grid.x.index, grid.y.index];
    let elites: Vec<&Elite> = grid.cells.iter().flatten().collect();
    let fresh = remeasure_all(ev, scorer, search_seed, &elites, &axes)?;
    let mut out = EliteGrid::new(grid.x.clone(), grid.y.clone());
    for e in &fresh {
        out.offer(e);
    }
    Ok(out)
}
