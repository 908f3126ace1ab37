//! # levelgen-search
//!
//! Finds generators that make the levels you ask for: a search over the Marahel scripts (or
//! Heroes templates, Mario or zones settings, see [`generator`]) a skeleton and its
//! variations describe, scored on the maps each makes.
//!
//! ```
//! use levelgen_search::Search;
//! let spec = levelgen_search::spec::parse(r#"{
//!   "marahel": {"metadata": {"min": "10x10", "max": "10x10"}, "entities": ["empty", "solid"],
//!     "explorers": [{"type": "horz", "region": "map", "rules": ["random < 0.5 -> self(solid)", "-> self(empty)"]}]},
//!   "vary": [{"path": "explorers.0.rules.0", "grammar": {"start": "random < <p> -> self(solid)",
//!             "rules": {"<p>": {"float": [0.0, 1.0]}}, "codons": 1}}],
//!   "constraints": [{"metric": "empty_fraction", "min": 0.7, "max": 0.8}],
//!   "algorithm": {"type": "es", "mu": 4, "lambda": 8},
//!   "budget": {"evaluations": 60}, "maps": 4, "seed": 1
//! }"#).unwrap();
//! let outcome = Search::new(&spec).unwrap().run(&mut |_| {});
//! let (best, script) = &outcome.best[0];
//! assert!(best.eval.feasible >= 0.5, "{:?}", best.eval);
//! assert!(script["explorers"][0]["rules"][0].as_str().unwrap().starts_with("random < 0.2"));
//! ```
//!
//! ## Pipeline (one module per stage)
//!
//! | stage | module |
//! |---|---|
//! | read and check the spec (JSON, limits) | [`spec`] |
//! | genome ↔ document: variations written into the skeleton with [`grid_core::overrides`] | [`space`] |
//! | document → maps by seed, and the generator's own metrics ([`Generator`]) | [`generator`] |
//! | metrics by name, and the [`Metric`] trait for your own | [`metric`] |
//! | the spec's own metrics: own passable tiles, external commands | [`defined`] |
//! | metrics computed outside: commands and the caller's functions, cached, failures named | [`external`] |
//! | score a candidate on several map seeds: constraints, objectives, mean and spread | [`evaluate`] |
//! | measures of a set of maps: nearest neighbours, layouts, maps two generators share | [`diversity`] |
//! | (μ+λ) ES, NSGA-II and MAP-Elites over a shared batch driver | [`algorithms`] |
//! | MAP-Elites elites scored again on fresh seeds, the grid rebuilt from those scores | [`remeasure`] |
//! | control targets: one search and one generator per asked metric value | [`targets`] |
//! | elites, grid, log, JSON and CSV | [`archive`] |
//! | the final selection: the best candidates checked on unused seeds, kept far apart | [`select`] |
//!
//! ## Determinism
//!
//! Each batch of candidates is drawn serially from the search RNG
//! (`Seed(seed).stream("search")`), evaluated in parallel with rayon and folded in batch
//! order, so under an **evaluation** budget the outcome is a pure function of (spec, seed)
//! at any thread count (`tests/search.rs` checks 1 and 2 threads). [`Search::run_with`]
//! hands the batches to a [`algorithms::Scorer`] of the caller's instead (other processes,
//! a cluster: the Python package's `levelgen.ray.search`), with the same outcome. A **seconds** budget
//! stops after the batch during which time ran out, which depends on the machine: use it to
//! explore, and an evaluation budget to reproduce. The candidates of one batch are scored
//! on the same map seeds, so they are compared on equal terms: MAP-Elites uses one seed set
//! throughout (`Seed(seed).stream("maps").child(i)`); the evolution strategy draws a fresh
//! set each generation and scores the parents again on it with the children, so no
//! generator survives for having been lucky on one set of seeds.
//!
//! ## Limits
//!
//! Checked when the spec is read, before anything is allocated: at most
//! [`spec::MAX_VARIATIONS`] variations, [`spec::MAX_CODONS`] codons per grammar,
//! [`spec::MAX_MAPS`] maps per candidate, [`spec::MAX_EVALUATIONS`] evaluations,
//! [`spec::MAX_BATCH`] candidates per batch, [`spec::MAX_BINS`] bins per axis, a day of
//! seconds. A grammar stops expanding after [`spec::MAX_EXPANSIONS`] symbols. Map sizes are
//! each generator's own limits; a zones window is at most
//! [`generator::MAX_ZONES_WINDOW`] zones a side. The `diversity`, `nearest` and `isolated:T` metrics keep a candidate's maps, at most
//! [`evaluate::MAX_KEPT_CELLS`] cells, checked before the first map is made. A candidate whose script does not parse scores `f64::MIN` and is
//! logged as invalid; the search goes on.

pub mod algorithms;
pub mod archive;
pub mod defined;
pub mod diversity;
pub mod error;
pub mod evaluate;
pub mod external;
pub mod generator;
pub mod metric;
pub mod remeasure;
pub mod select;
pub mod space;
pub mod spec;
pub mod targets;

pub use archive::{Elite, EliteGrid, LogRow, Outcome};
pub use error::SearchError;
pub use evaluate::{Evaluation, Evaluator};
pub use generator::{Generated, Generator, Kind};
pub use metric::Metric;
pub use select::{Check, MIN_DIFFERING, POOL_FACTOR};
pub use spec::Spec;

use algorithms::{Driver, Local, Scorer, es, map_elites, nsga2};
use archive::Bins;
use evaluate::Bound;
use grid_core::metrics::BlockGrid;
use grid_core::{Connectivity, Seed};
use metric::{MeasureSetup, MetricKind};
use serde_json::Value;
use space::Space;
use spec::Algorithm;
use std::sync::Arc;

/// A checked search, ready to run.
#[derive(Clone, Debug)]
pub struct Search {
    spec: Spec,
    evaluator: Evaluator,
    /// The evaluator of [`Search::check`]: the same, with the longest path exact up to at
    /// least [`grid_core::metrics::paths::EXACT_CELLS`] passable cells.
    checker: Evaluator,
    custom: Vec<Arc<dyn Metric>>,
}

impl Search {
    /// Compiles a spec: the variations against the skeleton, the metric names against the
    /// skeleton's entities.
    pub fn new(spec: &Spec) -> Result<Self, SearchError> {
        Self::with_metrics(spec, Vec::new())
    }

    /// Like [`Search::new`], with the user's own metrics available by name.
    pub fn with_metrics(spec: &Spec, custom: Vec<Arc<dyn Metric>>) -> Result<Self, SearchError> {
        Self::with_functions(spec, custom, Vec::new())
    }

    /// Like [`Search::with_metrics`], also with metrics computed by the caller's functions
    /// by name ([`external::MetricFn`]: they may fail, which makes the candidate invalid
    /// with the metric named, and their values are cached per map, as the spec's external
    /// commands are; the Python package's callables). A function's name may not be a
    /// built-in metric's, the spec's own or a custom one's. Each function is called once
    /// here, on the skeleton's map of seed 0: its error is the compile error.
    pub fn with_functions(
        spec: &Spec,
        custom: Vec<Arc<dyn Metric>>,
        functions: Vec<(String, Arc<dyn external::MetricFn>)>,
    ) -> Result<Self, SearchError> {
        spec.check()?;
        let (kind, _) = spec.skeleton()?;
        let space = Space::new(spec)?;
        let first = space.decode(&space.checking_genome())?;
        let entities = kind.entities(&first)?;
        if kind != generator::Kind::Marahel {
            kind.build(&first).map_err(|e| SearchError::Generator {
                generator: kind.name(),
                message: e,
            })?;
        }
        let passable = if spec.measure.passable.is_empty() {
            kind.default_passable()
        } else {
            spec.measure.passable.clone()
        };
        for (i, p) in passable.iter().enumerate() {
            if !entities.contains(p) {
                return Err(SearchError::value(
                    format!("measure.passable[{i}]"),
                    format!(
                        "{} is not an entity of the script (known: {})",
                        grid_core::text::excerpt(p),
                        entities.join(", ")
                    ),
                ));
            }
        }
        let mut names: Vec<String> = vec!["empty_fraction".into(), "regions".into()];
        let mut wanted: Vec<(String, String)> = Vec::new();
        for (i, c) in spec.constraints.iter().enumerate() {
            wanted.push((c.metric.clone(), format!("constraints[{i}].metric")));
        }
        for (i, t) in spec.objectives.iter().enumerate() {
            wanted.push((t.metric.clone(), format!("objectives[{i}].metric")));
        }
        for (i, t) in spec.targets.iter().enumerate() {
            wanted.push((t.metric.clone(), format!("targets[{i}].metric")));
        }
        if let Algorithm::MapElites { x, y, .. } = &spec.algorithm {
            wanted.push((x.metric.clone(), "algorithm.x.metric".into()));
            wanted.push((y.metric.clone(), "algorithm.y.metric".into()));
        }
        let mut metrics: Vec<MetricKind> = names
            .iter()
            .map(|n| MetricKind::parse(n, &[], &[], &[], "").expect("registered"))
            .collect();
        let functions = named_functions(spec, &entities, kind.extras(), &custom, functions)?;
        for (name, path) in &wanted {
            let metric = match spec.metrics.get(name) {
                Some(d) => defined::kind(name, d, &entities, kind.extras(), &custom)?,
                None => match functions.iter().find(|f| f.name == *name) {
                    Some(f) => MetricKind::External(f.clone()),
                    None => MetricKind::parse(name, &entities, kind.extras(), &custom, path)?,
                },
            };
            if !names.contains(name) {
                names.push(name.clone());
                metrics.push(metric);
            }
        }
        let index = |name: &str| names.iter().position(|n| n == name).expect("collected");
        let bounds = spec
            .constraints
            .iter()
            .map(|c| {
                let (min, max) = (c.min.unwrap_or(f64::MIN), c.max.unwrap_or(f64::MAX));
                let size = if c.min.is_some() {
                    min.abs()
                } else {
                    max.abs()
                };
                Bound {
                    metric: index(&c.metric),
                    min,
                    max,
                    scale: c.scale.unwrap_or(size.max(1.0)),
                }
            })
            .collect();
        let terms = spec
            .objectives
            .iter()
            .map(|t| (index(&t.metric), t.weight))
            .collect();
        let setup = MeasureSetup {
            passable,
            conn: if spec.measure.connectivity == 8 {
                Connectivity::Eight
            } else {
                Connectivity::Four
            },
            blocks: BlockGrid::square(spec.measure.blocks),
            exact_path_cells: spec.measure.exact_path_cells,
        };
        let maps = Seed(spec.seed).stream("maps");
        let seeds = (0..spec.maps as u64).map(|i| maps.child(i).0).collect();
        let evaluator = Evaluator {
            kind,
            space,
            metrics,
            names,
            setup,
            bounds,
            terms,
            seeds,
            map_root: maps.0,
            spread: spec.spread,
        };
        try_externals(kind, &first, &evaluator.metrics)?;
        let mut checker = evaluator.clone();
        checker.setup.exact_path_cells = checker
            .setup
            .exact_path_cells
            .max(grid_core::metrics::paths::EXACT_CELLS);
        Ok(Self {
            spec: spec.clone(),
            evaluator,
            checker,
            custom,
        })
    }

    /// The evaluator (space, metrics, seeds).
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// The user's metrics this search knows.
    pub fn custom_metrics(&self) -> &[Arc<dyn Metric>] {
        &self.custom
    }

    /// Runs the search; `progress` sees each batch's log row, on the calling thread.
    pub fn run(&self, progress: &mut dyn FnMut(&LogRow)) -> Outcome {
        self.run_with(progress, &Local)
            .unwrap_or_else(|e| unreachable!("the local scorer does not fail: {e}"))
    }

    /// [`Search::run`] with the candidates scored by `scorer` (for example on other
    /// machines) instead of on rayon's threads: every batch of the search and of the
    /// MAP-Elites remeasure goes through it. With a scorer that returns
    /// [`Evaluator::evaluate_on`]'s evaluations, the outcome equals [`Search::run`]'s. The
    /// scorer's first error stops the search and is returned.
    pub fn run_with(
        &self,
        progress: &mut dyn FnMut(&LogRow),
        scorer: &dyn Scorer,
    ) -> Result<Outcome, String> {
        let spec = &self.spec;
        let ev = &self.evaluator;
        let mut rng = Seed(spec.seed).stream("search").rng();
        let max = spec.budget.evaluations.unwrap_or(spec::MAX_EVALUATIONS);
        let mut driver = Driver::new(ev, max, spec.budget.seconds, progress).with_scorer(scorer);
        let (elites, grid) = match &spec.algorithm {
            Algorithm::Es {
                mu,
                lambda,
                mutation,
            } => {
                let s = es::EsSettings {
                    mu: *mu,
                    lambda: *lambda,
                    mutation: *mutation,
                };
                (es::run(&ev.space, s, &mut rng, &mut driver), None)
            }
            Algorithm::Nsga2 {
                population,
                mutation,
            } => {
                let s = es::EsSettings {
                    mu: *population,
                    lambda: *population,
                    mutation: *mutation,
                };
                let terms = &ev.terms;
                let goals = |e: &Elite| nsga2::goals(e, terms);
                (
                    nsga2::run(&ev.space, s, &goals, &mut rng, &mut driver),
                    None,
                )
            }
            Algorithm::MapElites {
                x,
                y,
                initial,
                batch,
                mutation,
            } => {
                let bins = |a: &spec::Axis| Bins {
                    metric: a.metric.clone(),
                    index: ev.names.iter().position(|n| *n == a.metric).unwrap_or(0),
                    min: a.min,
                    max: a.max,
                    bins: a.bins,
                };
                let mut grid = archive::EliteGrid::new(bins(x), bins(y));
                let s = map_elites::MapElitesSettings {
                    initial: *initial,
                    batch: *batch,
                    mutation: *mutation,
                };
                map_elites::run(&ev.space, s, &mut grid, &mut rng, &mut driver);
                if let Some(e) = driver.failure.take() {
                    return Err(e);
                }
                let grid = remeasure::honest_grid(ev, scorer, spec.seed, &grid)?;
                let best = grid.best(grid.cells.len()).into_iter().cloned().collect();
                (best, Some(grid))
            }
        };
        if let Some(e) = driver.failure.take() {
            return Err(e);
        }
        // The best distinct scripts (clones and genes that change nothing give the same
        // script), more than `keep`, for the final selection.
        let mut pool: Vec<(Elite, Value)> = Vec::new();
        for e in elites.into_iter().filter(|e| e.eval.is_valid()) {
            if pool.len() == spec.selection.pool_size(spec.keep) {
                break;
            }
            if let Ok(script) = ev.space.decode(&e.genome)
                && pool.iter().all(|(_, s)| *s != script)
            {
                pool.push((e, script));
            }
        }
        Ok(Outcome {
            names: ev.names.clone(),
            best: pool.iter().take(spec.keep).cloned().collect(),
            pool,
            grid,
            log: driver.log,
            evaluations: driver.done,
            first_error: driver.first_error,
        })
    }

    /// The archive document of `outcome` (what `levelgen search` writes as `archive.json`):
    /// every cell's elite with its decoded document, and the generator searched, which
    /// `--run-cell` builds the cells' maps with.
    pub fn archive_json(&self, outcome: &Outcome) -> Value {
        let space = &self.evaluator().space;
        let mut archive = outcome.to_json(|e| space.decode(&e.genome).ok());
        archive["generator"] = Value::from(self.evaluator().kind.name());
        archive
    }
}

/// The caller's functions as named external metrics, their names checked: plain (letters,
/// digits, `_` and `-`), unique, and neither a built-in metric nor one of the spec's or the
/// caller's own.
fn named_functions(
    spec: &Spec,
    entities: &[String],
    extras: &[&str],
    custom: &[Arc<dyn Metric>],
    functions: Vec<(String, Arc<dyn external::MetricFn>)>,
) -> Result<Vec<Arc<external::External>>, SearchError> {
    let mut named: Vec<Arc<external::External>> = Vec::new();
    for (name, function) in functions {
        let path = format!("metrics.{}", grid_core::text::excerpt(&name));
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let taken = if !plain {
            Some("a metric's name is letters, digits, _ and -")
        } else if spec.metrics.contains_key(&name) {
            Some("the spec defines a metric of this name")
        } else if named.iter().any(|f| f.name == name) {
            Some("two functions have this name")
        } else if MetricKind::parse(&name, entities, extras, custom, "").is_ok() {
            Some("a built-in or registered metric has this name")
        } else {
            None
        };
        if let Some(why) = taken {
            return Err(SearchError::value(path, why));
        }
        named.push(Arc::new(external::External::new(&name, &path, function)));
    }
    Ok(named)
}

/// Runs every external metric (the spec's commands, the caller's functions) once, on the
/// skeleton's map of seed 0, so one that cannot work is an error when the search is
/// compiled rather than an invalid search.
fn try_externals(
    kind: generator::Kind,
    first: &Value,
    metrics: &[MetricKind],
) -> Result<(), SearchError> {
    let externals: Vec<&Arc<external::External>> = metrics
        .iter()
        .filter_map(|m| match m {
            MetricKind::External(c) => Some(c),
            _ => None,
        })
        .collect();
    if externals.is_empty() {
        return Ok(());
    }
    let generated =
        kind.build(first)
            .and_then(|g| g.generate(0))
            .map_err(|e| SearchError::Generator {
                generator: kind.name(),
                message: e,
            })?;
    for c in externals {
        c.measure(generated.map.as_ref())
            .map_err(|e| SearchError::value(c.path.clone(), e))?;
    }
    Ok(())
}
