//! `levelgen.search`: a search spec run by the search crate, its archive handed back as
//! `levelgen search` writes it (`archive.json`) plus its log as CSV.

use crate::error::{self, Failure};
use crate::jobs::Input;
use levelgen_search::{Search, spec};
use pyo3::prelude::*;

/// Runs the spec (`text` or `path`) with optional seed and budget overrides, on a pool of
/// `threads` threads (None: rayon's global pool), then the final check on map seeds
/// `1..=check` that picks and orders the kept generators, as `levelgen search` does.
/// Returns `(archive JSON, log CSV)`.
#[pyfunction]
#[pyo3(signature = (text, path, seed, evaluations, threads, check))]
pub fn search(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    seed: Option<u64>,
    evaluations: Option<u64>,
    threads: Option<usize>,
    check: u64,
) -> PyResult<(String, String)> {
    let input = Input { text, path };
    let run = || -> error::Result<(String, String)> {
        let text = match (&input.text, &input.path) {
            (Some(t), _) => t.clone(),
            (None, Some(p)) => levelgen::cli::output::read_text(std::path::Path::new(p))
                .map_err(|e| Failure::new(error::Class::File, e.message).with_source(p))?,
            (None, None) => {
                return Err(Failure::argument("no spec: give a path, JSON text or dict"));
            }
        };
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
        let search = Search::new(&spec).map_err(at)?;
        let run_and_check = || {
            let mut outcome = search.run(&mut |_| {});
            search
                .select(&mut outcome, 1..check.max(1) + 1)
                .map(|_| outcome)
                .map_err(|e| Failure::new(error::Class::Search, e))
        };
        let outcome = match threads {
            None => run_and_check()?,
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build()
                .map_err(|e| Failure::argument(e.to_string()))?
                .install(run_and_check)?,
        };
        let space = &search.evaluator().space;
        let archive = outcome.to_json(|e| space.decode(&e.genome).ok());
        let mut json = serde_json::to_string_pretty(&archive)
            .map_err(|e| Failure::new(error::Class::Search, e.to_string()))?;
        json.push('\n');
        Ok((json, outcome.log_csv()))
    };
    py.detach(run).map_err(|e| e.into_py(py))
}
