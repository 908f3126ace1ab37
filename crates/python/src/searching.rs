//! `levelgen.search`: a search spec run by the search crate, its archive handed back as
//! `levelgen search` writes it (`archive.json`) plus its log as CSV.
//!
//! The candidates may be scored by a Python callable instead of rayon ([`PyScorer`]):
//! `levelgen.ray` hands each batch to Ray tasks, which score their share with
//! [`Evaluator`], the search's own evaluator compiled from the same spec. A candidate's
//! evaluation is a pure function of its genome and map seeds, so the archive is the same.

use crate::error::{self, Failure};
use crate::jobs::Input;
use levelgen_search::algorithms::{Local, Scorer};
use levelgen_search::external::MetricFn;
use levelgen_search::space::Genome;
use levelgen_search::{Evaluation, Search, spec};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// An evaluation as plain values: `(fitness, means, feasible, error)`.
type EvalTuple = (f64, Vec<f64>, f64, Option<String>);

fn to_tuple(e: Evaluation) -> EvalTuple {
    (e.fitness, e.means, e.feasible, e.error)
}

fn from_tuple((fitness, means, feasible, error): EvalTuple) -> Evaluation {
    Evaluation {
        fitness,
        means,
        feasible,
        error,
    }
}

/// The spec's text: given, or read from `path` with the CLI's message on failure.
fn spec_text(input: &Input) -> error::Result<String> {
    match (&input.text, &input.path) {
        (Some(t), _) => Ok(t.clone()),
        (None, Some(p)) => levelgen::cli::output::read_text(std::path::Path::new(p))
            .map_err(|e| Failure::new(error::Class::File, e.message).with_source(p)),
        (None, None) => Err(Failure::argument("no spec: give a path, JSON text or dict")),
    }
}

/// The spec parsed with the seed and budget overrides, compiled with the caller's metric
/// functions.
fn compile(
    input: &Input,
    seed: Option<u64>,
    evaluations: Option<u64>,
    functions: Vec<(String, Arc<dyn MetricFn>)>,
) -> error::Result<Search> {
    let text = spec_text(input)?;
    let at = |e: levelgen_search::SearchError| error::search(&e).in_file(input.path.as_deref());
    let mut spec = spec::parse(&text).map_err(at)?;
    if let Some(seed) = seed {
        spec.seed = seed;
    }
    if evaluations.is_some() {
        spec.budget.evaluations = evaluations;
        spec.budget.seconds = None;
    }
    spec.check().map_err(at)?;
    Search::with_functions(&spec, Vec::new(), functions).map_err(at)
}

/// `f` on a pool of `threads` threads (None: rayon's global pool).
fn on_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> error::Result<T> + Send,
) -> error::Result<T> {
    match threads {
        None => f(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| Failure::argument(e.to_string()))?
            .install(f),
    }
}

/// A Python callable `scorer(genomes, seeds) -> [(fitness, means, feasible, error), ...]`
/// as the search's [`Scorer`]; its first exception is kept to be raised as it was.
struct PyScorer {
    callable: Py<PyAny>,
    raised: Mutex<Option<PyErr>>,
}

impl Scorer for PyScorer {
    fn score(
        &self,
        _: &levelgen_search::Evaluator,
        genomes: &[Genome],
        seeds: &[u64],
    ) -> Result<Vec<Evaluation>, String> {
        Python::attach(|py| {
            let called = self
                .callable
                .call1(py, (genomes.to_vec(), seeds.to_vec()))
                .and_then(|out| out.extract::<Vec<EvalTuple>>(py));
            match called {
                Ok(evals) => Ok(evals.into_iter().map(from_tuple).collect()),
                Err(e) => {
                    let message = e.to_string();
                    let mut raised = self.raised.lock().unwrap_or_else(|p| p.into_inner());
                    raised.get_or_insert(e);
                    Err(message)
                }
            }
        })
    }
}

/// Runs the spec (`text` or `path`) with optional seed and budget overrides, on a pool of
/// `threads` threads (None: rayon's global pool), or with its candidates scored by
/// `scorer`, then the final check on map seeds `1..=check` that picks and orders the kept
/// generators, as `levelgen search` does. `metrics` are `(name, callable)` pairs the spec
/// may name like built-in metrics ([`crate::search_metrics`]). Returns `(archive JSON, log
/// CSV)`.
#[pyfunction]
#[pyo3(signature = (text, path, seed, evaluations, threads, check, scorer = None, metrics = Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    seed: Option<u64>,
    evaluations: Option<u64>,
    threads: Option<usize>,
    check: u64,
    scorer: Option<Py<PyAny>>,
    metrics: Vec<(String, Py<PyAny>)>,
) -> PyResult<(String, String)> {
    let input = Input { text, path };
    let functions = crate::search_metrics::functions(metrics);
    let scorer = scorer.map(|callable| PyScorer {
        callable,
        raised: Mutex::new(None),
    });
    let run = || -> error::Result<(String, String)> {
        let search = compile(&input, seed, evaluations, functions)?;
        let run_and_check = || {
            let mut outcome = match &scorer {
                None => search.run_with(&mut |_| {}, &Local),
                Some(s) => search.run_with(&mut |_| {}, s),
            }
            .map_err(|e| Failure::new(error::Class::Search, e))?;
            search
                .select(&mut outcome, 1..check.max(1) + 1)
                .map(|_| outcome)
                .map_err(|e| Failure::new(error::Class::Search, e))
        };
        let outcome = on_threads(threads, run_and_check)?;
        let archive = search.archive_json(&outcome);
        let mut json = serde_json::to_string_pretty(&archive)
            .map_err(|e| Failure::new(error::Class::Search, e.to_string()))?;
        json.push('\n');
        Ok((json, outcome.log_csv()))
    };
    let result = py.detach(run);
    let raised = scorer.and_then(|s| s.raised.into_inner().unwrap_or_else(|p| p.into_inner()));
    match (result, raised) {
        (Err(_), Some(e)) => Err(e),
        (result, _) => result.map_err(|e| e.into_py(py)),
    }
}

/// A search spec's evaluator: scores candidates (genomes) on map seeds exactly as the
/// search does, on rayon's threads with the GIL released. The worker side of
/// `levelgen.ray.search`.
#[derive(Debug)]
#[pyclass(module = "levelgen._levelgen", name = "Evaluator", frozen)]
pub struct Evaluator {
    search: Search,
}

#[pymethods]
impl Evaluator {
    /// Compiles the spec (`text` or `path`).
    #[new]
    #[pyo3(signature = (text, path = None))]
    fn new(py: Python<'_>, text: Option<String>, path: Option<String>) -> PyResult<Self> {
        let input = Input { text, path };
        py.detach(|| compile(&input, None, None, Vec::new()))
            .map(|search| Self { search })
            .map_err(|e| e.into_py(py))
    }

    /// Each genome's `(fitness, means, feasible, error)` on `seeds`, in the order given.
    #[pyo3(signature = (genomes, seeds, threads = None))]
    fn score(
        &self,
        py: Python<'_>,
        genomes: Vec<Genome>,
        seeds: Vec<u64>,
        threads: Option<usize>,
    ) -> PyResult<Vec<EvalTuple>> {
        let ev = self.search.evaluator();
        py.detach(|| {
            on_threads(threads, || {
                Local
                    .score(ev, &genomes, &seeds)
                    .map_err(|e| Failure::new(error::Class::Search, e))
            })
        })
        .map(|evals| evals.into_iter().map(to_tuple).collect())
        .map_err(|e| e.into_py(py))
    }
}
