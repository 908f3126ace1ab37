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
        let replacement = match &grammar.rules[&piece[start..end]] {
            Production::Options(options) => options[pick(codon, options.len())].clone(),
            Production::Number(NumberRange::Int([lo, hi])) => int_of(codon, *lo, *hi).to_string(),
            Production::Number(NumberRange::Float([lo, hi])) => {
                format!("{:.2}", float_of(codon, *lo, *hi))
            }
        };
        todo.push(replacement);
    }
    out
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
