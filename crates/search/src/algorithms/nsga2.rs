//! NSGA-II (Deb et al., 2002) on the evolution strategy's loop: each generation a
//! population of `n` makes `n` children (mutated copies of parents won in binary
//! tournaments), parents and children are scored on the generation's fresh map seeds, and
//! the next population is filled front by front of Pareto rank, the last front by crowding
//! distance.
//!
//! The goals, all maximised: the fraction of feasible maps, then each objective's weighted
//! mean (`weight x mean`). The population comes back ordered by rank, then by fitness.

use super::Driver;
use super::es::EsSettings;
use crate::archive::Elite;
use crate::space::{Genome, Space};
use grid_core::{LevelRng, below};
use std::cmp::Ordering;

/// The goals of an elite: feasible fraction, then `weight x mean` per objective term
/// (metric index, weight). An invalid script scores `f64::MIN` on every goal.
pub fn goals(e: &Elite, terms: &[(usize, f64)]) -> Vec<f64> {
    if !e.eval.is_valid() {
        return vec![f64::MIN; 1 + terms.len()];
    }
    std::iter::once(e.eval.feasible)
        .chain(terms.iter().map(|&(m, w)| w * e.eval.means[m]))
        .collect()
}

/// Whether `a` dominates `b`: no worse on every goal, better on one.
fn dominates(a: &[f64], b: &[f64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x >= y) && a.iter().zip(b).any(|(x, y)| x > y)
}

/// Pareto rank of each point (0 = not dominated), by repeated peeling: O(n² x goals) per
/// front, fine for populations of hundreds.
pub fn ranks(points: &[Vec<f64>]) -> Vec<usize> {
    let n = points.len();
    let mut rank = vec![usize::MAX; n];
    let mut level = 0;
    let mut left = n;
    while left > 0 {
        let front: Vec<usize> = (0..n)
            .filter(|&i| rank[i] == usize::MAX)
            .filter(|&i| {
                !(0..n).any(|j| rank[j] == usize::MAX && dominates(&points[j], &points[i]))
            })
            .collect();
        for &i in &front {
            rank[i] = level;
        }
        left -= front.len();
        level += 1;
    }
    rank
}

/// Crowding distance of each member of one front (`members` index into `points`): the sum
/// over goals of the normalised gap between its neighbours; the extremes get infinity.
// `g` picks a goal inside each point; iterating over `points` would not give goal columns.
#[allow(clippy::needless_range_loop)]
pub fn crowding(points: &[Vec<f64>], members: &[usize]) -> Vec<f64> {
    let mut dist = vec![0.0; members.len()];
    let goals = points.first().map_or(0, Vec::len);
    for g in 0..goals {
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by(|&a, &b| points[members[a]][g].total_cmp(&points[members[b]][g]));
        let (lo, hi) = (
            points[members[order[0]]][g],
            points[members[order[order.len() - 1]]][g],
        );
        dist[order[0]] = f64::INFINITY;
        dist[order[order.len() - 1]] = f64::INFINITY;
        if hi > lo {
            for k in 1..order.len().saturating_sub(1) {
                let gap = points[members[order[k + 1]]][g] - points[members[order[k - 1]]][g];
                dist[order[k]] += gap / (hi - lo);
            }
        }
    }
    dist
}

/// Keeps `n` of `pool`: whole fronts by rank, the last one by crowding distance (ties by
/// birth); returns them ordered by rank, then fitness, then birth, with each one's rank and
/// crowding distance.
fn select(
    pool: Vec<Elite>,
    n: usize,
    goals: &dyn Fn(&Elite) -> Vec<f64>,
) -> Vec<(Elite, usize, f64)> {
    let points: Vec<Vec<f64>> = pool.iter().map(goals).collect();
    let rank = ranks(&points);
    let mut crowd = vec![0.0; pool.len()];
    for level in 0..=rank.iter().copied().max().unwrap_or(0) {
        let members: Vec<usize> = (0..pool.len()).filter(|&i| rank[i] == level).collect();
        for (m, d) in members.iter().zip(crowding(&points, &members)) {
            crowd[*m] = d;
        }
    }
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.sort_by(|&a, &b| {
        rank[a]
            .cmp(&rank[b])
            .then(crowd[b].total_cmp(&crowd[a]))
            .then(pool[a].born.cmp(&pool[b].born))
    });
    order.truncate(n);
    let mut kept: Vec<(Elite, usize, f64)> = order
        .into_iter()
        .map(|i| (pool[i].clone(), rank[i], crowd[i]))
        .collect();
    kept.sort_by(|a, b| {
        a.1.cmp(&b.1)
            .then(a.0.eval.rank(&b.0.eval))
            .then(a.0.born.cmp(&b.0.born))
    });
    kept
}

/// The binary tournament winner: lower rank, then larger crowding distance.
fn tournament<'a>(pop: &'a [(Elite, usize, f64)], rng: &mut LevelRng) -> &'a Elite {
    let a = &pop[below(rng, pop.len())];
    let b = &pop[below(rng, pop.len())];
    match a.1.cmp(&b.1).then(b.2.total_cmp(&a.2)) {
        Ordering::Greater => &b.0,
        _ => &a.0,
    }
}

/// Runs NSGA-II until the budget is spent; returns the final population, ordered by rank
/// then fitness.
pub fn run(
    space: &Space,
    s: EsSettings,
    goals: &dyn Fn(&Elite) -> Vec<f64>,
    rng: &mut LevelRng,
    driver: &mut Driver,
) -> Vec<Elite> {
    let first = driver.allowance(s.mu);
    let genomes = space.first_batch(first, rng);
    let start = driver.evaluate(genomes);
    let mut population = select(start.clone(), s.mu, goals);
    let best = population.first().map(|p| p.0.clone());
    driver.record(&start, best.as_ref(), 0);
    for generation in 1.. {
        let n = driver
            .allowance(population.len() + s.lambda)
            .saturating_sub(population.len());
        if n == 0 || population.is_empty() {
            break;
        }
        let children: Vec<Genome> = (0..n)
            .map(|_| space.mutate(&tournament(&population, rng).genome, s.mutation, rng))
            .collect();
        let born = driver.done + population.len() as u64;
        let mut genomes: Vec<Genome> = population.iter().map(|p| p.0.genome.clone()).collect();
        genomes.extend(children);
        let evals = driver.evaluate_on(&genomes, generation);
        let pool: Vec<Elite> = genomes
            .into_iter()
            .zip(evals)
            .enumerate()
            .map(|(i, (genome, eval))| Elite {
                genome,
                eval,
                born: match population.get(i) {
                    Some(parent) => parent.0.born,
                    None => born + (i - population.len()) as u64,
                },
            })
            .collect();
        let batch = pool[population.len()..].to_vec();
        population = select(pool, s.mu, goals);
        let best = population.first().map(|p| p.0.clone());
        driver.record(&batch, best.as_ref(), 0);
    }
    population.into_iter().map(|p| p.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_by_hand() {
        // (1,1) is dominated by (2,2); (3,0) and (0,3) and (2,2) are not dominated.
        let p = vec![
            vec![2.0, 2.0],
            vec![1.0, 1.0],
            vec![3.0, 0.0],
            vec![0.0, 3.0],
            vec![0.5, 0.5],
        ];
        assert_eq!(ranks(&p), vec![0, 1, 0, 0, 2]);
        assert!(dominates(&p[0], &p[1]));
        assert!(!dominates(&p[0], &p[0]));
    }

    #[test]
    fn crowding_by_hand() {
        // One goal front 0, 1, 3, 4 (sorted): extremes infinite; 1 gets (3-0)/4, 3 gets (4-1)/4.
        let p = vec![vec![0.0], vec![3.0], vec![1.0], vec![4.0]];
        let d = crowding(&p, &[0, 1, 2, 3]);
        assert_eq!(d, vec![f64::INFINITY, 0.75, 0.75, f64::INFINITY]);
    }
}
