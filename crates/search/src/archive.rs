//! Stage 5: what a search leaves: the elites, the MAP-Elites grid, the log, and their JSON
//! and CSV forms.

use crate::algorithms::better_first;
use crate::evaluate::Evaluation;
use crate::space::Genome;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// An evaluated candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Elite {
    /// Its genes.
    pub genome: Genome,
    /// Its score.
    pub eval: Evaluation,
    /// Its evaluation number (0 = the first candidate of the run).
    pub born: u64,
}

/// One line of the run's log, written after each batch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogRow {
    /// Candidates evaluated so far.
    pub evaluations: u64,
    /// Fitness of the best candidate so far.
    pub best_fitness: f64,
    /// Its fraction of feasible maps.
    pub best_feasible: f64,
    /// Mean fitness of the batch's valid candidates.
    pub batch_mean_fitness: f64,
    /// Candidates of the batch whose script could not run.
    pub batch_invalid: usize,
    /// Filled MAP-Elites cells (0 for other algorithms).
    pub filled: usize,
}

/// One binned axis of the MAP-Elites grid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bins {
    /// Metric name.
    pub metric: String,
    /// Its index in the search's metric list.
    #[serde(skip)]
    pub index: usize,
    /// Lower edge.
    pub min: f64,
    /// Upper edge.
    pub max: f64,
    /// Number of bins.
    pub bins: usize,
}

impl Bins {
    /// The bin of `value` (values outside `[min, max]` go to the edge bins).
    pub fn bin(&self, value: f64) -> usize {
        let t = (value - self.min) / (self.max - self.min);
        ((t * self.bins as f64).floor().max(0.0) as usize).min(self.bins - 1)
    }
}

/// The MAP-Elites archive: the fittest valid candidate of each cell, row-major (`y * x.bins
/// + x`).
#[derive(Clone, Debug, PartialEq)]
pub struct EliteGrid {
    /// Horizontal axis.
    pub x: Bins,
    /// Vertical axis.
    pub y: Bins,
    /// The cells.
    pub cells: Vec<Option<Elite>>,
}

impl EliteGrid {
    /// An empty grid.
    pub fn new(x: Bins, y: Bins) -> Self {
        let cells = vec![None; x.bins * y.bins];
        Self { x, y, cells }
    }

    /// The cell of an evaluation.
    pub fn cell_of(&self, eval: &Evaluation) -> usize {
        let bx = self.x.bin(eval.means[self.x.index]);
        let by = self.y.bin(eval.means[self.y.index]);
        by * self.x.bins + bx
    }

    /// Puts `e` in its cell if the cell is empty or holds a candidate it outranks
    /// ([`Evaluation::rank`]: feasible share, then fitness); invalid
    /// candidates are ignored. Returns whether it went in.
    pub fn offer(&mut self, e: &Elite) -> bool {
        if !e.eval.is_valid() {
            return false;
        }
        let cell = self.cell_of(&e.eval);
        let better = self.cells[cell]
            .as_ref()
            .is_none_or(|old| e.eval.rank(&old.eval) == std::cmp::Ordering::Less);
        if better {
            self.cells[cell] = Some(e.clone());
        }
        better
    }

    /// Indices of the filled cells, in order.
    pub fn filled(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_some())
            .map(|(i, _)| i)
    }

    /// Fraction of cells filled.
    pub fn coverage(&self) -> f64 {
        self.filled().count() as f64 / self.cells.len().max(1) as f64
    }

    /// The `k` fittest elites, best first.
    pub fn best(&self, k: usize) -> Vec<&Elite> {
        let mut all: Vec<&Elite> = self.cells.iter().flatten().collect();
        all.sort_by(|a, b| better_first(a, b));
        all.truncate(k);
        all
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The metric names, in the order of every `means` vector.
    pub names: Vec<String>,
    /// The best candidates, best first, with their scripts: after [`crate::Search::run`]
    /// the first `keep` of the pool, after [`crate::Search::select`] the kept generators in
    /// the final check's order.
    pub best: Vec<(Elite, Value)>,
    /// The best distinct candidates of the search, best first by its ranking, up to the
    /// spec's `selection.pool` ([`crate::POOL_FACTOR`] x `keep` by default): what
    /// [`crate::Search::select`] chooses from. For the evolution strategy they come from its
    /// last generation, parents and children, all scored on the same seeds.
    pub pool: Vec<(Elite, Value)>,
    /// The MAP-Elites grid, for that algorithm.
    pub grid: Option<EliteGrid>,
    /// One row per batch.
    pub log: Vec<LogRow>,
    /// Candidates evaluated.
    pub evaluations: u64,
    /// Why the first invalid candidate was invalid (its script did not run, a metric
    /// failed, ...), if any was: the log counts them all in `batch_invalid`.
    pub first_error: Option<String>,
}

fn means(names: &[String], eval: &Evaluation) -> Value {
    let mut m = Map::new();
    for (n, v) in names.iter().zip(&eval.means) {
        m.insert(n.clone(), json!(v));
    }
    Value::Object(m)
}

fn elite_json(names: &[String], e: &Elite, script: Option<&Value>) -> Value {
    let mut v = json!({
        "born": e.born,
        "fitness": e.eval.fitness,
        "feasible": e.eval.feasible,
        "means": means(names, &e.eval),
        "genome": e.genome,
    });
    if let Some(s) = script {
        v["script"] = s.clone();
    }
    v
}

impl Outcome {
    /// The archive as JSON: metrics, the best generators with their scripts, the grid's
    /// cells (with their scripts, through `script_of`) and the log.
    pub fn to_json(&self, script_of: impl Fn(&Elite) -> Option<Value>) -> Value {
        let best: Vec<Value> = self
            .best
            .iter()
            .map(|(e, s)| elite_json(&self.names, e, Some(s)))
            .collect();
        let grid = self.grid.as_ref().map(|g| {
            let cells: Vec<Value> = g
                .cells
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.as_ref().map(|e| (i, e)))
                .map(|(i, e)| {
                    let mut v = elite_json(&self.names, e, script_of(e).as_ref());
                    v["x"] = json!(i % g.x.bins);
                    v["y"] = json!(i / g.x.bins);
                    v
                })
                .collect();
            json!({"x": g.x, "y": g.y, "coverage": g.coverage(), "cells": cells})
        });
        let mut doc = json!({
            "metrics": self.names,
            "evaluations": self.evaluations,
            "best": best,
            "grid": grid,
            "log": self.log,
        });
        if let Some(e) = &self.first_error {
            doc["first_error"] = json!(e);
        }
        doc
    }

    /// The log as CSV, one row per batch.
    pub fn log_csv(&self) -> String {
        let mut s = String::from(
            "evaluations,best_fitness,best_feasible,batch_mean_fitness,batch_invalid,filled\n",
        );
        for r in &self.log {
            s.push_str(&format!(
                "{},{},{},{},{},{}\n",
                r.evaluations,
                r.best_fitness,
                r.best_feasible,
                r.batch_mean_fitness,
                r.batch_invalid,
                r.filled
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elite(fitness: f64, x: f64, y: f64, born: u64) -> Elite {
        Elite {
            genome: vec![],
            eval: Evaluation {
                fitness,
                means: vec![x, y],
                feasible: 1.0,
                error: None,
            },
            born,
        }
    }

    fn bins(index: usize) -> Bins {
        Bins {
            metric: format!("m{index}"),
            index,
            min: 0.0,
            max: 1.0,
            bins: 4,
        }
    }

    #[test]
    fn bins_clamp_to_the_edges() {
        let b = bins(0);
        let got: Vec<usize> = [-1.0, 0.0, 0.24, 0.25, 0.99, 1.0, 7.0]
            .iter()
            .map(|&v| b.bin(v))
            .collect();
        assert_eq!(got, vec![0, 0, 0, 1, 3, 3, 3]);
    }

    #[test]
    fn grid_keeps_the_fittest_per_cell() {
        let mut g = EliteGrid::new(bins(0), bins(1));
        assert!(g.offer(&elite(0.5, 0.1, 0.1, 0)));
        assert!(!g.offer(&elite(0.4, 0.2, 0.2, 1)));
        assert!(!g.offer(&elite(0.5, 0.2, 0.2, 2)), "ties keep the older");
        assert!(g.offer(&elite(0.9, 0.2, 0.2, 3)));
        assert!(g.offer(&elite(0.1, 0.9, 0.6, 4)));
        let mut bad = elite(9.0, 0.5, 0.5, 5);
        bad.eval.error = Some("x".into());
        assert!(!g.offer(&bad));
        assert_eq!(g.filled().collect::<Vec<_>>(), vec![0, 2 * 4 + 3]);
        assert_eq!(g.coverage(), 2.0 / 16.0);
        let best: Vec<u64> = g.best(5).iter().map(|e| e.born).collect();
        assert_eq!(best, vec![3, 4]);
    }
}
