//! Stage 2: the search space. A genome is a list of genes in `[0, 1)`; each variation reads
//! one gene (int, float, choice) or several (a grammar's codons), and its value is written
//! into the skeleton with [`grid_core::overrides`] before the script is parsed.
//!
//! One representation for every kind of variation lets the algorithms stay generic: a
//! mutation moves a numeric gene by a small Gaussian step and redraws a categorical gene.
//! After the overrides, `null` entries of the `explorers` array are removed, so a choice
//! between an explorer and `null` adds or removes a whole explorer.

use crate::error::SearchError;
use crate::spec::{Grammar, MAX_EXPANSIONS, NumberRange, Production, Range, Spec};
use grid_core::LevelRng;
use grid_core::overrides::{Override, apply};
use grid_core::rand::RngExt;
use serde_json::Value;

/// A candidate: one gene in `[0, 1)` per slot of the space.
pub type Genome = Vec<f64>;

/// Whether a gene is a position on a scale (moved by small steps) or a pick among options
/// (redrawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneKind {
    /// Int and float variations.
    Numeric,
    /// Choices and grammar codons.
    Categorical,
}

/// The compiled variations of a spec over its skeleton.
#[derive(Clone, Debug)]
pub struct Space {
    skeleton: Value,
    slots: Vec<Slot>,
    kinds: Vec<GeneKind>,
}

#[derive(Clone, Debug)]
struct Slot {
    path: String,
    range: Range,
    first: usize,
}

impl Space {
    /// Compiles the spec's variations. Every path must lead into the skeleton (checked by
    /// writing each variation's first value).
    pub fn new(spec: &Spec) -> Result<Self, SearchError> {
        let mut slots = Vec::new();
        let mut kinds = Vec::new();
        for v in &spec.vary {
            let first = kinds.len();
            match &v.range {
                Range::Int(_) | Range::Float(_) => kinds.push(GeneKind::Numeric),
                Range::Choice(_) | Range::Optional(_) => kinds.push(GeneKind::Categorical),
                Range::Grammar(g) => {
                    kinds.extend(std::iter::repeat_n(GeneKind::Categorical, g.codons))
                }
            }
            slots.push(Slot {
                path: v.path.clone(),
                range: v.range.clone(),
                first,
            });
        }
        let space = Self {
            skeleton: spec.skeleton()?.1.clone(),
            slots,
            kinds,
        };
        // Every path must lead somewhere with every variation present.
        space.decode(&vec![MAX_GENE; space.len()])?;
        Ok(space)
    }

    /// Genes per genome.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether nothing varies.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The kind of each gene.
    pub fn kinds(&self) -> &[GeneKind] {
        &self.kinds
    }

    /// The script of `genome`: the skeleton with every variation written in, then the
    /// optional values that are off set to `null`, and `null` explorers removed.
    pub fn decode(&self, genome: &[f64]) -> Result<Value, SearchError> {
        let mut doc = self.skeleton.clone();
        let mut removed = Vec::new();
        for (index, slot) in self.slots.iter().enumerate() {
            let value = match slot.value(genome) {
                Write::Set(value) => value,
                Write::Keep => continue,
                Write::Remove => {
                    removed.push(index);
                    continue;
                }
            };
            let set = Override::new(&slot.path, value);
            apply(&mut doc, &set).map_err(|e| SearchError::Path {
                index,
                message: e.to_string(),
            })?;
        }
        for index in removed {
            let set = Override::new(&self.slots[index].path, Value::Null);
            apply(&mut doc, &set).map_err(|e| SearchError::Path {
                index,
                message: e.to_string(),
            })?;
        }
        if let Some(Value::Array(explorers)) = doc.get_mut("explorers") {
            explorers.retain(|e| !e.is_null());
        }
        Ok(doc)
    }

    /// The genome closest to the skeleton's own values: each variation's gene is the one
    /// that writes the value the skeleton already has at its path (an optional value that
    /// is present is kept; a grammar's codons are found by parsing the skeleton's text).
    /// A value the range cannot produce takes the nearest number, or the first option.
    /// Every search puts this genome first in its first batch.
    pub fn skeleton_genome(&self) -> Genome {
        let mut genome = vec![0.0; self.len()];
        for slot in &self.slots {
            let steps = Override::new(&slot.path, Value::Null).steps;
            let value = steps
                .iter()
                .try_fold(&self.skeleton, |node, step| match node {
                    Value::Object(map) => map.get(step.as_str()),
                    Value::Array(items) => step.parse::<usize>().ok().and_then(|i| items.get(i)),
                    _ => None,
                });
            let at = slot.first;
            match (&slot.range, value) {
                (Range::Optional(_), v) => {
                    genome[at] = if v.is_some_and(|v| !v.is_null()) {
                        0.75
                    } else {
                        0.25
                    };
                }
                (Range::Int([lo, hi]), Some(v)) => {
                    if let Some(v) = v.as_f64() {
                        let span = (hi - lo) as f64 + 1.0;
                        genome[at] = ((v.round() - *lo as f64 + 0.5) / span).clamp(0.0, MAX_GENE);
                    }
                }
                (Range::Float([lo, hi]), Some(v)) => {
                    if let Some(v) = v.as_f64().filter(|_| hi > lo) {
                        genome[at] = ((v - lo) / (hi - lo)).clamp(0.0, MAX_GENE);
                    }
                }
                (Range::Choice(values), Some(v)) => {
                    if let Some(i) = values.iter().position(|c| c == v) {
                        genome[at] = (i as f64 + 0.5) / values.len() as f64;
                    }
                }
                (Range::Grammar(g), Some(Value::String(text))) => {
                    if let Some(codons) = invert(g, text) {
                        genome[at..at + g.codons].copy_from_slice(&codons);
                    }
                }
                _ => {}
            }
        }
        genome
    }

    /// The genome that checks the skeleton: every gene at the low end of its range, and
    /// every optional value kept, so the explorers keep the indices the spec wrote.
    pub fn checking_genome(&self) -> Genome {
        let mut genome = vec![0.0; self.len()];
        for slot in &self.slots {
            if let Range::Optional(_) = slot.range {
                genome[slot.first] = 0.75;
            }
        }
        genome
    }

    /// The first batch of a search: [`Space::skeleton_genome`], then `n - 1` random ones.
    pub fn first_batch(&self, n: usize, rng: &mut LevelRng) -> Vec<Genome> {
        let skeleton = (n > 0).then(|| self.skeleton_genome());
        let random = (1..n).map(|_| self.random(rng));
        skeleton.into_iter().chain(random).collect()
    }

    /// A uniformly random genome.
    pub fn random(&self, rng: &mut LevelRng) -> Genome {
        (0..self.len()).map(|_| rng.random::<f64>()).collect()
    }

    /// A mutated copy of `parent`: each gene changes with probability
    /// `max(strength, 1/len)`; a numeric gene by a Gaussian step of deviation `strength`
    /// (clamped into `[0, 1)`), a categorical gene by a fresh draw.
    pub fn mutate(&self, parent: &[f64], strength: f64, rng: &mut LevelRng) -> Genome {
        let rate = strength.max(1.0 / self.len().max(1) as f64);
        let mut child = parent.to_vec();
        for (gene, kind) in child.iter_mut().zip(&self.kinds) {
            if rng.random::<f64>() >= rate {
                continue;
            }
            *gene = match kind {
                GeneKind::Numeric => (*gene + strength * gaussian(rng)).clamp(0.0, MAX_GENE),
                GeneKind::Categorical => rng.random::<f64>(),
            };
        }
        child
    }
}

/// The largest gene value (genes live in `[0, 1)`).
const MAX_GENE: f64 = 1.0 - 1e-9;

/// A standard normal draw (Box–Muller on two uniform draws).
fn gaussian(rng: &mut LevelRng) -> f64 {
    let u1 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The index among `n` options a gene picks.
fn pick(gene: f64, n: usize) -> usize {
    ((gene * n as f64) as usize).min(n.saturating_sub(1))
}

fn int_of(gene: f64, lo: i64, hi: i64) -> i64 {
    let span = (hi - lo) as f64 + 1.0;
    (lo + (gene * span).floor() as i64).min(hi)
}

fn float_of(gene: f64, lo: f64, hi: f64) -> f64 {
    lo + gene * (hi - lo)
}

/// What a variation does to the skeleton.
enum Write {
    /// Writes this value.
    Set(Value),
    /// Leaves the skeleton's value (an optional value that is on).
    Keep,
    /// Removes the value, after the other variations (an optional value that is off).
    Remove,
}

impl Slot {
    fn value(&self, genome: &[f64]) -> Write {
        let gene = genome.get(self.first).copied().unwrap_or(0.0);
        Write::Set(match &self.range {
            Range::Optional(_) if gene < 0.5 => return Write::Remove,
            Range::Optional(_) => return Write::Keep,
            Range::Int([lo, hi]) => Value::from(int_of(gene, *lo, *hi)),
            Range::Float([lo, hi]) => {
                Value::from((float_of(gene, *lo, *hi) * 1000.0).round() / 1000.0)
            }
            Range::Choice(values) => values[pick(gene, values.len())].clone(),
            Range::Grammar(g) => {
                let end = (self.first + g.codons).min(genome.len());
                Value::String(expand(g, &genome[self.first.min(end)..end]))
            }
        })
    }
}

/// Expands `grammar` with `codons`: the leftmost `<symbol>` is replaced by the alternative
/// the next codon picks (codons wrap around), until no symbol is left or
/// [`MAX_EXPANSIONS`] symbols have been expanded (then the rest stays as written).
pub fn expand(grammar: &Grammar, codons: &[f64]) -> String {
    let mut out = String::new();
    // Pieces still to write, last first: expanding a symbol pushes what follows it, then
    // its replacement.
    let mut todo: Vec<String> = vec![grammar.start.clone()];
    let mut used = 0usize;
    while let Some(piece) = todo.pop() {
        let found = (used < MAX_EXPANSIONS)
            .then(|| find_symbol(&piece, grammar))
            .flatten();
        let Some((start, end)) = found else {
            out.push_str(&piece);
            continue;
        };
        let codon = codons
            .get(used % codons.len().max(1))
            .copied()
            .unwrap_or(0.0);
        used += 1;
        out.push_str(&piece[..start]);
        todo.push(piece[end..].to_string());
        todo.push(produce(&grammar.rules[&piece[start..end]], codon));
    }
    out
}

/// The text a production writes for `codon`.
fn produce(production: &Production, codon: f64) -> String {
    match production {
        Production::Options(options) => options[pick(codon, options.len())].clone(),
        Production::Number(NumberRange::Int([lo, hi])) => int_of(codon, *lo, *hi).to_string(),
        Production::Number(NumberRange::Float([lo, hi])) => {
            format!("{:.2}", float_of(codon, *lo, *hi))
        }
    }
}

/// Most steps [`invert`] takes before giving up (the parse backtracks over options).
const MAX_PARSE_STEPS: usize = 10_000;

/// Codons with which `grammar` expands to `target`, if it can (found by a backtracking
/// parse of at most [`MAX_PARSE_STEPS`] steps, then confirmed by [`expand`]).
pub fn invert(grammar: &Grammar, target: &str) -> Option<Vec<f64>> {
    let mut parse = Parse {
        grammar,
        codons: vec![None; grammar.codons.max(1)],
        steps: 0,
    };
    if !parse.matches(target, vec![grammar.start.clone()], 0) {
        return None;
    }
    let codons: Vec<f64> = parse.codons[..grammar.codons]
        .iter()
        .map(|c| c.unwrap_or(0.0))
        .collect();
    (expand(grammar, &codons) == target).then_some(codons)
}

/// The state of [`invert`]'s parse: the codons fixed so far and the steps taken.
struct Parse<'a> {
    grammar: &'a Grammar,
    codons: Vec<Option<f64>>,
    steps: usize,
}

impl Parse<'_> {
    /// Whether the pieces `todo` (last first, as in [`expand`]) can write `rest`, the
    /// `used`-th symbol next.
    fn matches(&mut self, rest: &str, mut todo: Vec<String>, used: usize) -> bool {
        self.steps += 1;
        if self.steps > MAX_PARSE_STEPS || used >= MAX_EXPANSIONS {
            return false;
        }
        let Some(piece) = todo.pop() else {
            return rest.is_empty();
        };
        let Some((start, end)) = find_symbol(&piece, self.grammar) else {
            return rest
                .strip_prefix(piece.as_str())
                .is_some_and(|r| self.matches(r, todo, used));
        };
        let Some(rest) = rest.strip_prefix(&piece[..start]) else {
            return false;
        };
        todo.push(piece[end..].to_string());
        let production = &self.grammar.rules[&piece[start..end]];
        let slot = used % self.codons.len();
        let prior = self.codons[slot];
        for gene in candidates(production, rest) {
            let gene = prior.unwrap_or(gene);
            let text = produce(production, gene);
            self.codons[slot] = Some(gene);
            let mut next = todo.clone();
            next.push(text);
            if self.matches(rest, next, used + 1) {
                return true;
            }
            self.codons[slot] = prior;
            if prior.is_some() {
                break;
            }
        }
        false
    }
}

/// The genes a production might have used to write the start of `rest`: one per option, or
/// the gene of each number `rest` starts with.
fn candidates(production: &Production, rest: &str) -> Vec<f64> {
    let number_ends = || {
        let bytes = rest.as_bytes();
        let mut ends = Vec::new();
        for end in 1..=bytes.len().min(24) {
            if rest.is_char_boundary(end) && rest[..end].parse::<f64>().is_ok() {
                ends.push(end);
            }
        }
        ends.into_iter()
            .rev()
            .map(|end| rest[..end].parse::<f64>().unwrap_or(0.0))
    };
    match production {
        Production::Options(options) => (0..options.len())
            .map(|i| (i as f64 + 0.5) / options.len() as f64)
            .collect(),
        Production::Number(NumberRange::Int([lo, hi])) => number_ends()
            .map(|v| ((v - *lo as f64 + 0.5) / ((hi - lo) as f64 + 1.0)).clamp(0.0, MAX_GENE))
            .collect(),
        Production::Number(NumberRange::Float([lo, hi])) => number_ends()
            .map(|v| {
                if hi > lo {
                    // A hair above, so that rounding to 2 decimals gives `v` back.
                    ((v - lo) / (hi - lo) + 1e-12).clamp(0.0, MAX_GENE)
                } else {
                    0.0
                }
            })
            .collect(),
    }
}

/// The byte span of the first `<name>` in `text` that is a symbol of `grammar` (a `<` that
/// starts no symbol, as in `random < 0.5`, is text).
fn find_symbol(text: &str, grammar: &Grammar) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(offset) = text[from..].find('<') {
        let start = from + offset;
        if let Some(len) = text[start..].find('>') {
            let end = start + len + 1;
            if grammar.rules.contains_key(&text[start..end]) {
                return Some((start, end));
            }
        }
        from = start + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::parse;
    use grid_core::Seed;

    fn spec(vary: &str) -> Spec {
        parse(&format!(
            r#"{{"marahel": {{"metadata": {{"min": "8x8", "max": "8x8"}}, "entities": ["empty", "solid"],
                "explorers": [{{"type": "horz", "region": "map", "parameters": {{"repeats": 1}}, "rules": ["x"]}},
                              {{"type": "horz", "region": "map", "rules": ["y"]}}]}},
                "algorithm": {{"type": "es"}}, "vary": {vary}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn genes_map_onto_values() {
        let s = spec(
            r#"[{"path": "explorers.0.parameters.repeats", "int": [1, 4]},
                {"path": "/explorers/0/rules/0", "choice": ["a", "b", "c"]},
                {"path": "metadata.min", "float": [0.5, 1.5]}]"#,
        );
        let space = Space::new(&s).unwrap();
        assert_eq!(space.len(), 3);
        let doc = space.decode(&[0.0, 0.99, 0.25]).unwrap();
        assert_eq!(doc["explorers"][0]["parameters"]["repeats"], 1);
        assert_eq!(doc["explorers"][0]["rules"][0], "c");
        assert_eq!(doc["metadata"]["min"], 0.75);
        let doc = space.decode(&[MAX_GENE, 0.4, 0.0]).unwrap();
        assert_eq!(doc["explorers"][0]["parameters"]["repeats"], 4);
        assert_eq!(doc["explorers"][0]["rules"][0], "b");
        // Each of the 4 ints gets a quarter of [0, 1).
        let ints: Vec<i64> = [0.0, 0.24, 0.26, 0.5, 0.74, 0.76]
            .iter()
            .map(|&g| int_of(g, 1, 4))
            .collect();
        assert_eq!(ints, vec![1, 1, 2, 3, 3, 4]);
    }

    #[test]
    fn null_explorers_are_removed() {
        let s = spec(r#"[{"path": "explorers.0", "choice": [null, {"type": "vert"}]}]"#);
        let space = Space::new(&s).unwrap();
        let without = space.decode(&[0.1]).unwrap();
        assert_eq!(without["explorers"].as_array().unwrap().len(), 1);
        assert_eq!(without["explorers"][0]["rules"][0], "y");
        let with = space.decode(&[0.9]).unwrap();
        assert_eq!(with["explorers"][0]["type"], "vert");
    }

    #[test]
    fn optional_explorers_are_removed_after_the_other_writes() {
        let s = spec(
            r#"[{"path": "explorers.0", "optional": true},
                {"path": "explorers.0.parameters.repeats", "int": [1, 4]}]"#,
        );
        let space = Space::new(&s).unwrap();
        let off = space.decode(&[0.2, 0.9]).unwrap();
        assert_eq!(off["explorers"].as_array().unwrap().len(), 1);
        assert_eq!(off["explorers"][0]["rules"][0], "y");
        let on = space.decode(&[0.7, 0.9]).unwrap();
        assert_eq!(on["explorers"][0]["parameters"]["repeats"], 4);
        assert_eq!(on["explorers"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn bad_paths_are_errors_naming_the_variation() {
        let s =
            spec(r#"[{"path": "a", "int": [1, 2]}, {"path": "explorers.7.type", "int": [1, 2]}]"#);
        assert_eq!(
            Space::new(&s).unwrap_err().to_string(),
            "vary[1]: override explorers.7.type: /explorers has no \"7\""
        );
    }

    #[test]
    fn grammar_expands_left_to_right_with_numbers() {
        let s = spec(
            r#"[{"path": "explorers.1.rules.0", "grammar": {"start": "<r>", "codons": 4, "rules": {
                "<r>": ["random < <p> -> self(<e>)", "<n>(<e>) >= <k> -> self(<e>)"],
                "<p>": {"float": [0.0, 1.0]}, "<k>": {"int": [1, 8]},
                "<n>": ["plus", "all"], "<e>": ["empty", "solid"]}}}]"#,
        );
        let space = Space::new(&s).unwrap();
        assert_eq!(space.kinds(), &[GeneKind::Categorical; 4]);
        // Codons: r -> option 0; p -> 0.25; e -> solid.
        let doc = space.decode(&[0.1, 0.25, 0.9, 0.0]).unwrap();
        assert_eq!(
            doc["explorers"][1]["rules"][0],
            "random < 0.25 -> self(solid)"
        );
        // Option 1: n, e, k, e; the fifth symbol wraps to codon 0 (0.6 -> solid).
        let doc = space.decode(&[0.6, 0.7, 0.1, 0.5]).unwrap();
        assert_eq!(
            doc["explorers"][1]["rules"][0],
            "all(empty) >= 5 -> self(solid)"
        );
    }

    #[test]
    fn the_skeleton_genome_writes_the_skeletons_values() {
        let s = spec(
            r#"[{"path": "explorers.0.parameters.repeats", "int": [0, 4]},
                {"path": "explorers.1", "optional": true},
                {"path": "explorers.0.type", "choice": ["vert", "horz"]},
                {"path": "explorers.1.rules.0", "grammar": {"start": "<r>", "codons": 3, "rules": {
                    "<r>": ["y", "random < <p> -> self(<e>)"], "<p>": {"float": [0.0, 0.6]},
                    "<e>": ["empty", "solid"]}}}]"#,
        );
        let space = Space::new(&s).unwrap();
        let genome = space.skeleton_genome();
        assert_eq!(space.decode(&genome).unwrap(), space.skeleton);
        // A text the grammar writes is parsed back into codons, numbers included.
        let Range::Grammar(g) = &space.slots[3].range else {
            panic!("a grammar")
        };
        for text in [
            "random < 0.37 -> self(solid)",
            "random < 0.00 -> self(empty)",
            "y",
        ] {
            let codons = invert(g, text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(expand(g, &codons), text);
        }
        assert_eq!(invert(g, "random < 0.9 -> self(solid)"), None);
        assert_eq!(invert(g, "z"), None);
    }

    #[test]
    fn runaway_grammars_stop() {
        let s = spec(
            r#"[{"path": "explorers.1.rules.0", "grammar": {"start": "<a>", "codons": 1, "rules": {"<a>": ["x<a>"]}}}]"#,
        );
        let space = Space::new(&s).unwrap();
        let doc = space.decode(&[0.0]).unwrap();
        let text = doc["explorers"][1]["rules"][0].as_str().unwrap();
        assert_eq!(text, format!("{}<a>", "x".repeat(MAX_EXPANSIONS)));
    }

    #[test]
    fn mutation_stays_in_range_and_is_seeded() {
        let s = spec(
            r#"[{"path": "explorers.0.parameters.repeats", "int": [1, 4]}, {"path": "explorers.0.rules.0", "choice": ["a", "b"]}]"#,
        );
        let space = Space::new(&s).unwrap();
        let mut a = Seed(3).rng();
        let mut b = Seed(3).rng();
        let parent = space.random(&mut a);
        assert_eq!(parent, space.random(&mut b));
        let mut changed = 0;
        for _ in 0..200 {
            let child = space.mutate(&parent, 0.5, &mut a);
            assert_eq!(child, space.mutate(&parent, 0.5, &mut b));
            assert!(child.iter().all(|g| (0.0..1.0).contains(g)));
            changed += (child != parent) as usize;
        }
        assert!(changed > 100, "{changed}");
    }
}
