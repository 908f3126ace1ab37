//! Stage 1: the search spec, read from JSON and checked against the limits.
//!
//! The schema (every field, with defaults) is documented in `docs/search.md`; in short:
//!
//! ```json
//! {
//!   "marahel": { "metadata": {"min": "14x14", "max": "14x14"}, "entities": ["empty", "solid"],
//!                "explorers": [ ... ] },
//!   "vary": [ {"path": "explorers.1.parameters.repeats", "int": [1, 6]},
//!             {"path": "explorers.0.rules.0", "grammar": {"start": "<r>", "rules": {"<r>": ["..."]}}} ],
//!   "measure": {"passable": ["empty"], "connectivity": 4},
//!   "constraints": [ {"metric": "regions", "min": 1, "max": 1} ],
//!   "objectives": [ {"metric": "longest_path", "weight": 0.01} ],
//!   "algorithm": {"type": "es", "mu": 10, "lambda": 40},
//!   "budget": {"evaluations": 4000},
//!   "seed": 1, "maps": 10, "spread": 0.5
//! }
//! ```

mod check;

use crate::error::SearchError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Most variations a spec may list.
pub const MAX_VARIATIONS: usize = 256;
/// Most maps per candidate.
pub const MAX_MAPS: usize = 1000;
/// Most evaluations (candidates) in one search.
pub const MAX_EVALUATIONS: u64 = 10_000_000;
/// Most seconds in a time budget (a day).
pub const MAX_SECONDS: f64 = 86_400.0;
/// Most bins per MAP-Elites axis.
pub const MAX_BINS: usize = 1000;
/// Most codons of one grammar variation.
pub const MAX_CODONS: usize = 256;
/// Most symbols a grammar may expand before its text is cut short.
pub const MAX_EXPANSIONS: usize = 256;
/// Most candidates in one generation or batch.
pub const MAX_BATCH: usize = 100_000;

/// A search spec: what varies, what is measured and wanted, how to search, for how long.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// The Marahel script skeleton the variations are applied to (give exactly one of
    /// `marahel`, `heroes`, `mario` and `zones`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marahel: Option<Value>,
    /// A Heroes document: `{"template": ..., "size": 64, "config": ...}`
    /// ([`crate::generator`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heroes: Option<Value>,
    /// A Mario document: `{"theme": "overground", "level": {...}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mario: Option<Value>,
    /// A zones document: `{"window": 16, "config": {...}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zones: Option<Value>,
    /// What varies: one path into the skeleton and its range each.
    #[serde(default)]
    pub vary: Vec<Variation>,
    /// How maps are measured.
    #[serde(default)]
    pub measure: Measure,
    /// The spec's own metrics by name: a built-in one with its own passable tiles, or an
    /// external command ([`crate::defined`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, crate::defined::Defined>,
    /// Ranges the maps' metrics should fall in.
    #[serde(default)]
    pub constraints: Vec<Constraint>,
    /// Weighted metrics added to each map's score (a negative weight minimises).
    #[serde(default)]
    pub objectives: Vec<Term>,
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// When to stop.
    #[serde(default)]
    pub budget: Budget,
    /// The search seed: the run is a pure function of (spec, seed) under an evaluation budget.
    #[serde(default)]
    pub seed: u64,
    /// Maps (seeds) each candidate is scored on.
    #[serde(default = "default_maps")]
    pub maps: usize,
    /// Fitness = mean map score - `spread` x standard deviation of the map scores.
    #[serde(default = "default_spread")]
    pub spread: f64,
    /// How many of the best generators the output keeps.
    #[serde(default = "default_keep")]
    pub keep: usize,
    /// How the kept generators are chosen from the search's best ([`crate::Search::select`]).
    #[serde(default)]
    pub selection: Selection,
    /// Control targets: one generator per value (or per combination of values) asked for
    /// ([`crate::targets`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<crate::targets::TargetAxis>,
}

fn default_maps() -> usize {
    10
}
fn default_spread() -> f64 {
    0.5
}
fn default_keep() -> usize {
    5
}

/// The final selection: which of the search's best candidates are kept, judged on the
/// check seeds (1..=100 by default), which the search never used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// How many of the search's best distinct candidates are checked (default
    /// [`crate::POOL_FACTOR`] x `keep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<usize>,
    /// Least mean nearest-neighbour Hamming distance (a fraction of the cells) of a kept
    /// generator's maps on the check seeds (default 0: any).
    #[serde(default)]
    pub nearest: f64,
    /// Least share of the check seeds on which two kept generators make different maps
    /// (default [`crate::MIN_DIFFERING`]).
    #[serde(default = "default_differing")]
    pub differing: f64,
}

fn default_differing() -> f64 {
    crate::MIN_DIFFERING
}

impl Default for Selection {
    fn default() -> Self {
        Self {
            pool: None,
            nearest: 0.0,
            differing: default_differing(),
        }
    }
}

impl Selection {
    /// Candidates checked for a search keeping `keep`.
    pub fn pool_size(&self, keep: usize) -> usize {
        self.pool.unwrap_or(keep * crate::POOL_FACTOR)
    }
}

/// One thing that varies: a path into the skeleton (JSON pointer or dotted) and its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variation {
    /// Where in the skeleton (`explorers.0.parameters.repeats`, `/explorers/0/rules/0`).
    pub path: String,
    /// The values it takes.
    #[serde(flatten)]
    pub range: Range,
}

/// The values a variation takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    /// A whole number in `[lo, hi]`.
    Int([i64; 2]),
    /// A number in `[lo, hi]`, rounded to 3 decimals.
    Float([f64; 2]),
    /// One of these JSON values (`null` in `explorers` removes that explorer).
    Choice(Vec<Value>),
    /// `true`: the value at the path is kept or removed (set to `null`, and dropped from
    /// `explorers`), after every other variation is written.
    Optional(bool),
    /// A string from a small grammar (rules, neighbourhood matrices, weight lists).
    Grammar(Grammar),
}

/// A context-free grammar whose text is chosen by codons: each `<symbol>` is replaced, left
/// to right, by the alternative the next codon picks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grammar {
    /// The text to expand (for example `"<rule>"`).
    pub start: String,
    /// Each symbol's alternatives: a list of texts, `{"int": [lo, hi]}` or
    /// `{"float": [lo, hi]}`.
    pub rules: BTreeMap<String, Production>,
    /// Codons (genes) this variation has; expansion wraps around them.
    #[serde(default = "default_codons")]
    pub codons: usize,
}

fn default_codons() -> usize {
    12
}

/// The alternatives of one grammar symbol.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Production {
    /// Texts, which may contain further `<symbols>`.
    Options(Vec<String>),
    /// A number written into the text.
    Number(NumberRange),
}

/// A number range inside a grammar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum NumberRange {
    /// A whole number in `[lo, hi]`.
    Int([i64; 2]),
    /// A number in `[lo, hi]`, written with 2 decimals.
    Float([f64; 2]),
}

/// How maps are measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measure {
    /// Entity names a walker can stand on: the cells of the empty fraction and regions, of
    /// the longest path, the cells path distances go through. Left out (or empty): the
    /// generator's walkable tiles ([`crate::generator::Kind::default_passable`]; `empty` for
    /// Marahel).
    #[serde(default)]
    pub passable: Vec<String>,
    /// 4 or 8: which neighbours are connected.
    #[serde(default = "default_connectivity")]
    pub connectivity: u8,
    /// Blocks per side for the block entropy.
    #[serde(default = "default_blocks")]
    pub blocks: usize,
    /// Up to this many passable cells the longest path is exact (a BFS from every cell);
    /// above, the double-sweep estimate (0: always the estimate).
    #[serde(default = "default_exact_cells")]
    pub exact_path_cells: usize,
}

fn default_exact_cells() -> usize {
    grid_core::metrics::paths::EXACT_CELLS
}

fn default_connectivity() -> u8 {
    4
}
fn default_blocks() -> usize {
    5
}

impl Default for Measure {
    fn default() -> Self {
        Self {
            passable: Vec::new(),
            connectivity: default_connectivity(),
            blocks: default_blocks(),
            exact_path_cells: default_exact_cells(),
        }
    }
}

/// A range a metric should fall in on every map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraint {
    /// The metric's name.
    pub metric: String,
    /// Lowest value that satisfies.
    #[serde(default)]
    pub min: Option<f64>,
    /// Highest value that satisfies.
    #[serde(default)]
    pub max: Option<f64>,
    /// How far outside the range halves the reward (default: the bound's size, at least 1).
    #[serde(default)]
    pub scale: Option<f64>,
}

/// A weighted metric in the score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// The metric's name.
    pub metric: String,
    /// Its weight (negative to minimise).
    #[serde(default = "default_weight")]
    pub weight: f64,
}

fn default_weight() -> f64 {
    1.0
}

/// The search algorithm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Algorithm {
    /// (μ+λ) evolution strategy on the fitness.
    Es {
        /// Parents kept.
        #[serde(default = "default_mu")]
        mu: usize,
        /// Children per generation.
        #[serde(default = "default_lambda")]
        lambda: usize,
        /// Mutation strength (standard deviation on genes in `[0, 1)`).
        #[serde(default = "default_mutation")]
        mutation: f64,
    },
    /// NSGA-II: a population ranked by Pareto dominance over the feasible fraction and each
    /// objective (its weighted mean), ties broken by crowding distance.
    Nsga2 {
        /// Population size.
        #[serde(default = "default_lambda")]
        population: usize,
        /// Mutation strength.
        #[serde(default = "default_mutation")]
        mutation: f64,
    },
    /// MAP-Elites over two metrics (means over a candidate's maps), keeping the fittest
    /// candidate of each cell.
    MapElites {
        /// The horizontal axis.
        x: Axis,
        /// The vertical axis.
        y: Axis,
        /// Random candidates before the first mutations.
        #[serde(default = "default_initial")]
        initial: usize,
        /// Candidates per batch.
        #[serde(default = "default_lambda")]
        batch: usize,
        /// Mutation strength.
        #[serde(default = "default_mutation")]
        mutation: f64,
    },
}

fn default_mu() -> usize {
    10
}
fn default_lambda() -> usize {
    40
}
fn default_mutation() -> f64 {
    0.15
}
fn default_initial() -> usize {
    200
}

/// One MAP-Elites axis: a metric binned over `[min, max]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Axis {
    /// The metric.
    pub metric: String,
    /// Lower edge of the first bin.
    pub min: f64,
    /// Upper edge of the last bin (values outside go to the edge bins).
    pub max: f64,
    /// Number of bins.
    #[serde(default = "default_bins")]
    pub bins: usize,
}

fn default_bins() -> usize {
    10
}

/// When to stop: after `evaluations` candidates (deterministic), or after `seconds` (the
/// number of candidates then depends on the machine, so the result does too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Candidates to evaluate.
    #[serde(default)]
    pub evaluations: Option<u64>,
    /// Wall-clock seconds (not deterministic).
    #[serde(default)]
    pub seconds: Option<f64>,
}

impl Default for Budget {
    fn default() -> Self {
        Self {
            evaluations: Some(2000),
            seconds: None,
        }
    }
}

/// Reads a spec from JSON text and checks it ([`Spec::check`]).
pub fn parse(text: &str) -> Result<Spec, SearchError> {
    let spec: Spec = serde_json::from_str(text).map_err(|e| {
        // serde_json ends its message with the place, which the error gives once already.
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = e.to_string();
        SearchError::Json {
            line: e.line(),
            column: e.column(),
            message: message.strip_suffix(&place).unwrap_or(&message).to_string(),
        }
    })?;
    spec.check()?;
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"{"marahel": {}, "algorithm": {"type": "es"}}"#;

    #[test]
    fn json_errors_give_their_place_once() {
        let e = parse("{\n  \"seed\": x}").unwrap_err().to_string();
        assert!(e.starts_with("line 2, column 11: "), "{e}");
        assert_eq!(e.matches("line").count(), 1, "{e}");
    }

    #[test]
    fn defaults() {
        let s = parse(MINIMAL).unwrap();
        assert_eq!((s.maps, s.keep, s.seed), (10, 5, 0));
        assert_eq!(s.selection, Selection::default());
        assert_eq!(s.selection.pool_size(s.keep), 20);
        assert_eq!((s.selection.nearest, s.selection.differing), (0.0, 0.95));
        assert_eq!(s.budget.evaluations, Some(2000));
        assert!(s.measure.passable.is_empty(), "the generator's default");
        assert_eq!(
            s.algorithm,
            Algorithm::Es {
                mu: 10,
                lambda: 40,
                mutation: 0.15
            }
        );
    }

    #[test]
    fn variations_read_each_kind() {
        let s = parse(
            r#"{"marahel": {}, "algorithm": {"type": "es"}, "vary": [
                {"path": "a", "int": [1, 3]}, {"path": "b", "float": [0.1, 0.9]},
                {"path": "c", "choice": ["x", null]},
                {"path": "d", "grammar": {"start": "<r>", "rules": {"<r>": ["a<n>"], "<n>": {"int": [1, 4]}}}}
            ]}"#,
        )
        .unwrap();
        assert_eq!(s.vary[0].range, Range::Int([1, 3]));
        assert_eq!(
            s.vary[2].range,
            Range::Choice(vec!["x".into(), Value::Null])
        );
        let Range::Grammar(g) = &s.vary[3].range else {
            panic!("grammar expected")
        };
        assert_eq!(g.codons, 12);
        assert_eq!(g.rules["<n>"], Production::Number(NumberRange::Int([1, 4])));
    }

    #[test]
    fn bad_values_name_their_place() {
        let err = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(
            err(r#"{"marahel": {}, "algorithm": {"type": "es"}, "maps": 0}"#),
            "maps: 0 is outside 1..=1000"
        );
        assert_eq!(
            err(r#"{"marahel": {}, "algorithm": {"type": "es"}, "selection": {"nearest": 1.5}}"#),
            "selection.nearest: 1.5: expected a number in [0, 1]"
        );
        assert_eq!(
            err(r#"{"marahel": {}, "algorithm": {"type": "es"}, "selection": {"pool": 3}}"#),
            "selection.pool: 3 is outside 5..=10000"
        );
        assert_eq!(
            err(
                r#"{"marahel": {}, "algorithm": {"type": "es"}, "vary": [{"path": "a", "int": [3, 1]}]}"#
            ),
            "vary[0].int: [3, 1]: expected finite numbers with lo <= hi"
        );
        assert_eq!(
            err(
                r#"{"marahel": {}, "algorithm": {"type": "es"}, "constraints": [{"metric": "regions"}]}"#
            ),
            "constraints[0]: give min, max or both"
        );
        assert_eq!(
            err(r#"{"marahel": {}, "algorithm": {"type": "es"}, "budget": {"evaluations": 0}}"#),
            "budget.evaluations: 0 is outside 1..=10000000"
        );
        assert!(err(r#"{"marahel": {}, "algorithm": {"type": "ga"}}"#).contains("unknown variant"));
        assert!(
            err(r#"{"marahel": {}, "algorithm": {"type": "es"}, "sede": 1}"#)
                .contains("unknown field")
        );
        assert_eq!(
            err(
                r#"{"marahel": {}, "algorithm": {"type": "map_elites", "x": {"metric": "a", "min": 0, "max": 1}, "y": {"metric": "b", "min": 0, "max": 1, "bins": 5000}}}"#
            ),
            "algorithm.y.bins: 5000 is outside 1..=1000"
        );
        assert_eq!(
            err(
                r#"{"marahel": {}, "algorithm": {"type": "es"}, "vary": [{"path": "a", "grammar": {"start": "<r>", "rules": {"r": ["x"]}}}]}"#
            ),
            "vary[0].grammar.rules.\"r\": a symbol is written <name>"
        );
    }
}
