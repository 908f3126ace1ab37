//! `POST /api/search`: a search from a spec (`docs/search.md`) with a small evaluation
//! budget, answered with its MAP-Elites archive (or, for the evolution strategies, the log),
//! its best document and the fill of each batch. The page watches an archive fill by asking
//! again with a larger budget: a run is a pure function of (spec, seed, evaluations), and
//! once the budget covers MAP-Elites' random start (`initial`) a larger budget extends the
//! smaller run batch by batch. Each request's work is bounded by
//! [`crate::limits::MAX_SEARCH_MAPS`] maps (Marahel) or
//! [`crate::limits::MAX_SEARCH_OTHER_MAPS`] (Heroes, Mario, zones).

use super::{Endpoint, Output};
use crate::error::{StudioError, within};
use crate::limits::{MAX_SEARCH_EVALUATIONS, MAX_SEARCH_MAPS, MAX_SEARCH_OTHER_MAPS};
use crate::work::{Cost, Job};
use levelgen_search::{Search, spec};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The body of `POST /api/search`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// The spec, as JSON text.
    pub spec: String,
    /// Candidates to evaluate (1..=[`MAX_SEARCH_EVALUATIONS`]); replaces the spec's budget.
    pub evaluations: u64,
    /// The search seed, instead of the spec's.
    pub seed: Option<u64>,
}

/// One MAP-Elites axis.
#[derive(Debug, Serialize)]
pub struct Axis {
    /// The metric.
    pub metric: String,
    /// Lower edge.
    pub min: f64,
    /// Upper edge.
    pub max: f64,
    /// Bins.
    pub bins: usize,
}

/// The MAP-Elites grid: the fitness of each cell's elite, row by row (`y` rows of `x` bins).
#[derive(Debug, Serialize)]
pub struct Grid {
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// Fitness per cell, `null` when empty.
    pub fitness: Vec<Option<f64>>,
    /// Fraction of the cells filled.
    pub coverage: f64,
}

/// The best candidate.
#[derive(Debug, Serialize)]
pub struct Best {
    /// Its fitness.
    pub fitness: f64,
    /// Fraction of its maps meeting every constraint.
    pub feasible: f64,
    /// Its mean of each metric, by name.
    pub means: serde_json::Map<String, Value>,
    /// The file its generator's command reads (a Marahel script, Heroes template, Mario or
    /// zones settings).
    pub document: Value,
    /// The flags that go with it, one per line (Heroes, Mario, zones).
    pub args: Option<String>,
}

/// The answer.
#[derive(Debug, Serialize)]
pub struct SearchResponse {
    /// Which generator was searched.
    pub generator: &'static str,
    /// Candidates evaluated.
    pub evaluations: u64,
    /// Per batch: `[evaluations, best fitness, filled cells]`.
    pub log: Vec<[f64; 3]>,
    /// The grid (MAP-Elites only).
    pub grid: Option<Grid>,
    /// The best candidate, if any ran.
    pub best: Option<Best>,
}

fn check_evaluations(evaluations: u64) -> Result<(), StudioError> {
    if (1..=MAX_SEARCH_EVALUATIONS).contains(&evaluations) {
        Ok(())
    } else {
        Err(StudioError::input(
            "body.evaluations",
            format!("{evaluations} is outside 1..={MAX_SEARCH_EVALUATIONS}"),
        ))
    }
}

/// Memory a search may hold: its archive, its batch of candidates' maps.
const SEARCH_MEMORY: u64 = 64 << 20;

impl Endpoint for SearchRequest {
    /// Always the heavy lane: every evaluation generates maps.
    fn cost(&self) -> Result<Cost, StudioError> {
        check_evaluations(self.evaluations)?;
        Ok(Cost {
            memory: SEARCH_MEMORY,
            cells: self.evaluations * 10_000,
        })
    }

    /// A search is not stopped part-way (its evaluation budget bounds it); `job` is checked
    /// before it starts.
    fn run(self, job: &Job) -> Result<Output, StudioError> {
        job.check()?;
        run(self)
    }
}

/// Runs the request.
pub fn run(req: SearchRequest) -> Result<Output, StudioError> {
    let bad = |e: levelgen_search::SearchError| StudioError::input("spec", e.to_string());
    let mut spec = spec::parse(&req.spec).map_err(bad)?;
    // A request must not start programs on the machine serving the studio.
    if let Some((name, _)) = spec.metrics.iter().find(|(_, d)| d.command.is_some()) {
        return Err(StudioError::input(
            "spec",
            format!(
                "metrics.{}.command: the studio runs no external commands; run this spec with levelgen search",
                grid_core::text::excerpt(name)
            ),
        ));
    }
    check_evaluations(req.evaluations)?;
    let maps = (req.evaluations as usize).saturating_mul(spec.maps);
    let limit = match spec.skeleton().map_err(bad)?.0 {
        levelgen_search::Kind::Marahel => MAX_SEARCH_MAPS,
        _ => MAX_SEARCH_OTHER_MAPS,
    };
    within("maps (evaluations x maps per candidate)", maps, limit)?;
    spec.budget.evaluations = Some(req.evaluations);
    spec.budget.seconds = None;
    if let Some(seed) = req.seed {
        spec.seed = seed;
    }
    let search = Search::new(&spec).map_err(bad)?;
    let outcome = search.run(&mut |_| {});
    let kind = search.evaluator().kind;
    let grid = outcome.grid.as_ref().map(|g| {
        let axis = |b: &levelgen_search::archive::Bins| Axis {
            metric: b.metric.clone(),
            min: b.min,
            max: b.max,
            bins: b.bins,
        };
        Grid {
            x: axis(&g.x),
            y: axis(&g.y),
            fitness: g
                .cells
                .iter()
                .map(|c| c.as_ref().map(|e| e.eval.fitness))
                .collect(),
            coverage: g.coverage(),
        }
    });
    let best = outcome.best.first().map(|(e, doc)| {
        let (document, args) = kind.ready_to_run(doc);
        Best {
            fitness: e.eval.fitness,
            feasible: e.eval.feasible,
            means: outcome
                .names
                .iter()
                .zip(&e.eval.means)
                .map(|(n, v)| (n.clone(), serde_json::json!(v)))
                .collect(),
            document,
            args,
        }
    });
    Output::json(SearchResponse {
        generator: kind.name(),
        evaluations: outcome.evaluations,
        log: outcome
            .log
            .iter()
            .map(|r| [r.evaluations as f64, r.best_fitness, r.filled as f64])
            .collect(),
        grid,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_with_a_command_metric_is_refused_before_anything_runs() {
        // The command would leave a file behind if it ran.
        let marker = std::env::temp_dir().join("levelgen-studio-command-ran");
        let _ = std::fs::remove_file(&marker);
        let spec = format!(
            r#"{{"marahel": {{"metadata": {{"min": "4x4", "max": "4x4"}}, "entities": ["empty", "solid"],
                "explorers": [{{"type": "horz", "region": "map", "rules": ["-> self(empty)"]}}]}},
              "metrics": {{"m": {{"command": ["sh", "-c", "touch {}; echo 1"]}}}},
              "objectives": [{{"metric": "m"}}], "algorithm": {{"type": "es"}}}}"#,
            marker.display()
        );
        let err = run(SearchRequest {
            spec,
            evaluations: 1,
            seed: None,
        })
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("metrics.\"m\".command: the studio runs no external commands"),
            "{err}"
        );
        assert!(!marker.exists());
    }
}
