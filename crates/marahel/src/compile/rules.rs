//! The rule text (grammar in [`crate::rule`]) parsed into [`Rule`]s: conditions of
//! estimators, executers, entity lists, with every name resolved.

use crate::distance::paths::Stat;
use crate::error::MarahelError;
use crate::error::known_list;
use crate::estimator::Estimator;
use crate::executer::Executer;
use crate::rule::{Condition, Op, Rule};
use grid_core::text::excerpt;

/// What the rule parser needs to resolve names.
#[derive(Debug)]
pub struct Names<'a> {
    /// Entity names, index = code.
    pub entities: &'a [String],
    /// Neighbourhood names, index = neighbourhood id.
    pub nbhs: &'a [String],
    /// Number of offsets of each neighbourhood.
    pub nbh_len: &'a [usize],
    /// Whether 2017 words (`complete`) are allowed.
    pub legacy: bool,
}

/// Keywords an estimator may be, besides entity names.
const ESTIMATOR_WORDS: [&str; 6] = [
    "random", "noise", "noiseN", "percent", "cpercent", "rpercent",
];

impl Names<'_> {
    /// Code of the unknown value.
    pub fn unknown(&self) -> usize {
        self.entities.len()
    }
    /// Code of `out`.
    pub fn out(&self) -> usize {
        self.entities.len() + 1
    }
    /// Number of codes.
    pub fn codes(&self) -> usize {
        self.entities.len() + 2
    }

    /// The code of one name (entity, `unknown`, `out`).
    pub fn code(&self, name: &str) -> Option<usize> {
        match name {
            "unknown" => Some(self.unknown()),
            "out" => Some(self.out()),
            _ => self.entities.iter().position(|e| e == name),
        }
    }

    fn known_entities(&self) -> Vec<String> {
        let mut k: Vec<String> = self.entities.to_vec();
        k.extend(["any", "entity", "unknown", "out"].map(String::from));
        k
    }

    fn nbh(&self, name: &str) -> Result<usize, String> {
        self.nbhs.iter().position(|n| n == name).ok_or_else(|| {
            format!(
                "unknown neighbourhood {} (known: {})",
                excerpt(name),
                known_list(self.nbhs)
            )
        })
    }

    /// Parses an entity list `a:2|b` into per-code weights.
    pub fn list(&self, text: &str) -> Result<Vec<u32>, String> {
        let mut w = vec![0u32; self.codes()];
        for item in text.split('|') {
            let item = item.trim();
            let (name, weight) = match item.split_once(':') {
                Some((n, k)) => {
                    let k = k.trim();
                    let v: u32 = k.parse().ok().filter(|&v| v <= 1_000_000).ok_or_else(|| {
                        format!(
                            "weight {} of {} is not a whole number from 0 to 1000000",
                            excerpt(k),
                            excerpt(n.trim())
                        )
                    })?;
                    (n.trim(), v)
                }
                None => (item, 1),
            };
            if name.is_empty() {
                return Err(format!("empty entity name in list {}", excerpt(text)));
            }
            match name {
                "any" => (0..=self.entities.len()).for_each(|c| w[c] += weight),
                "entity" => (0..self.entities.len()).for_each(|c| w[c] += weight),
                _ => match self.code(name) {
                    Some(c) => w[c] += weight,
                    None => {
                        return Err(format!(
                            "unknown entity {} (known: {})",
                            excerpt(name),
                            known_list(&self.known_entities())
                        ));
                    }
                },
            }
        }
        if w.iter().all(|&v| v == 0) {
            return Err(format!("all weights in {} are zero", excerpt(text)));
        }
        Ok(w)
    }

    /// Splits `name(list)`.
    fn call<'t>(&self, text: &'t str) -> Result<Option<(&'t str, &'t str)>, String> {
        let Some(open) = text.find('(') else {
            return Ok(None);
        };
        if !text.ends_with(')') {
            return Err(format!(
                "{}: expected `name(list)` ending with ')'",
                excerpt(text)
            ));
        }
        let name = text[..open].trim();
        let inner = &text[open + 1..text.len() - 1];
        if inner.contains('(') || inner.contains(')') {
            return Err(format!("{}: nested parentheses", excerpt(text)));
        }
        Ok(Some((name, inner.trim())))
    }

    /// `minDist`/`maxDist`/`avgDist` with arguments `list` or `nbh, list[, allowed]`.
    fn path_distance(
        &self,
        stat: Stat,
        (text, inner): (&str, &str),
        dist_slots: &mut usize,
    ) -> Result<Estimator, String> {
        let codes = |text: &str| -> Result<Vec<bool>, String> {
            Ok(self.list(text.trim())?.iter().map(|&w| w > 0).collect())
        };
        let args: Vec<&str> = inner.split(',').map(str::trim).collect();
        let slot = next_slot(dist_slots);
        let (walk, targets) = match args[..] {
            [list] if stat == Stat::Min => {
                return Ok(Estimator::Distance {
                    targets: codes(list)?,
                    to_out: false,
                    slot,
                });
            }
            [list] => (None, codes(list)?),
            [nbh, list] => (Some((self.nbh(nbh)?, codes("any")?)), codes(list)?),
            [nbh, list, allowed] => (Some((self.nbh(nbh)?, codes(allowed)?)), codes(list)?),
            _ => {
                return Err(format!(
                    "{} arguments (expected `list` or `neighbourhood, list[, allowed]`)",
                    args.len()
                ));
            }
        };
        Ok(Estimator::PathDistance {
            stat,
            walk,
            targets,
            slot,
            text: text.to_string(),
        })
    }

    /// Parses one estimator.
    pub fn estimator(&self, text: &str, dist_slots: &mut usize) -> Result<Estimator, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("empty estimator".into());
        }
        if let Some((name, inner)) = self.call(text)? {
            if let Some(stat) = match name {
                "minDist" => Some(Stat::Min),
                "maxDist" => Some(Stat::Max),
                "avgDist" => Some(Stat::Avg),
                _ => None,
            } {
                return self.path_distance(stat, (text, inner), dist_slots);
            }
            if name == "dist" {
                let to_out = inner == "out";
                let weights = if to_out {
                    vec![0; self.codes()]
                } else {
                    self.list(inner)?
                };
                return Ok(Estimator::Distance {
                    targets: weights.iter().map(|&w| w > 0).collect(),
                    to_out,
                    slot: next_slot(dist_slots),
                });
            }
            let nbh = self.nbh(name)?;
            let mut table = Box::new([0u32; 256]);
            for (slot, w) in table.iter_mut().zip(self.list(inner)?) {
                *slot = w;
            }
            let uniform = table[..=self.unknown()].iter().all(|&w| w == table[0]);
            return Ok(Estimator::Neighborhood {
                nbh,
                weights: table,
                uniform,
                slot: next_slot(dist_slots),
            });
        }
        if text.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.') {
            return text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(Estimator::Number)
                .ok_or_else(|| format!("{} is not a number", excerpt(text)));
        }
        match text {
            "random" => return Ok(Estimator::Random),
            "percent" => return Ok(Estimator::Percent),
            "complete" if self.legacy => return Ok(Estimator::Percent),
            "cpercent" => return Ok(Estimator::CPercent),
            "rpercent" => return Ok(Estimator::RPercent),
            _ => {}
        }
        if let Some(rest) = text.strip_prefix("noise") {
            let n: f64 = if rest.is_empty() {
                1.0
            } else {
                match rest.parse::<u32>() {
                    Ok(n) if n > 0 => n as f64,
                    _ => {
                        return Err(format!(
                            "{}: expected `noise` or `noiseN` with N a whole number >= 1",
                            excerpt(text),
                        ));
                    }
                }
            };
            return Ok(Estimator::Noise { scale: 5.0 * n });
        }
        match self.list(text) {
            Ok(weights) => Ok(Estimator::Count { weights }),
            Err(_) if !text.contains('|') && !text.contains(':') => {
                let mut known: Vec<String> = ESTIMATOR_WORDS.map(String::from).to_vec();
                known.extend(self.known_entities());
                known.push("NBH(list)".into());
                known.push("dist(list)".into());
                Err(format!(
                    "unknown estimator {} (known: {})",
                    excerpt(text),
                    known_list(&known)
                ))
            }
            Err(e) => Err(e),
        }
    }

    fn condition(&self, text: &str, dist_slots: &mut usize) -> Result<Condition, String> {
        const OPS: [(&str, Op); 6] = [
            (">=", Op::Ge),
            ("<=", Op::Le),
            ("==", Op::Eq),
            ("!=", Op::Ne),
            (">", Op::Gt),
            ("<", Op::Lt),
        ];
        let mut found: Option<(usize, &str, Op)> = None;
        let bytes = text.as_bytes();
        'scan: for i in 0..bytes.len() {
            for (s, op) in OPS {
                // Bytes, not `text[i..]`: `i` may fall inside a character of more than one
                // byte; an operator is ASCII, so where one is found is a character boundary.
                if bytes[i..].starts_with(s.as_bytes()) {
                    found = Some((i, s, op));
                    break 'scan;
                }
            }
            if bytes[i] == b'=' {
                return Err(format!(
                    "{}: `=` is not an operator (expected one of >= <= == != > <)",
                    excerpt(text),
                ));
            }
        }
        match found {
            None => {
                let left = self.estimator(text, dist_slots)?;
                let (op, threshold) = match &left {
                    Estimator::Neighborhood { nbh, .. } => (Op::Ge, self.nbh_len[*nbh] as f64),
                    _ => (Op::Gt, 0.0),
                };
                Ok(Condition {
                    left,
                    op,
                    right: Estimator::Number(threshold),
                })
            }
            Some((i, s, op)) => {
                let rhs = &text[i + s.len()..];
                if rhs.contains(['<', '>', '=', '!']) {
                    return Err(format!(
                        "{}: more than one comparison (write `a < b, b < c` as two conditions)",
                        excerpt(text),
                    ));
                }
                if text[..i].trim().is_empty() || rhs.trim().is_empty() {
                    return Err(format!(
                        "{}: `{s}` needs an estimator on both sides",
                        excerpt(text)
                    ));
                }
                Ok(Condition {
                    left: self.estimator(&text[..i], dist_slots)?,
                    op,
                    right: self.estimator(rhs, dist_slots)?,
                })
            }
        }
    }

    fn executer(&self, text: &str) -> Result<Executer, String> {
        let text = text.trim();
        let Some((name, inner)) = self.call(text)? else {
            return Err(format!(
                "executer {}: expected `neighbourhood(entities)` such as `self(solid)`",
                excerpt(text),
            ));
        };
        if name == "dist" {
            return Err("`dist` is an estimator, not an executer".into());
        }
        let nbh = self.nbh(name)?;
        for item in inner.split('|') {
            let word = item.split(':').next().unwrap_or("").trim();
            if word == "out" || word == "any" {
                return Err(format!(
                    "executer {}: cannot write `{word}` ({}; name the entities to write)",
                    excerpt(text),
                    match word {
                        "out" => "`out` stands for the cells outside the region",
                        _ => "`any` includes `unknown`",
                    }
                ));
            }
        }
        let weights = self.list(inner)?;
        let mut choices = Vec::new();
        for (code, &w) in weights.iter().enumerate() {
            for _ in 0..w.min(10_000) {
                choices.push(code as u8);
            }
        }
        Ok(Executer { nbh, choices })
    }

    /// Parses a whole rule; errors carry `path` and the rule text.
    pub fn rule(
        &self,
        text: &str,
        path: &str,
        dist_slots: &mut usize,
    ) -> Result<Rule, MarahelError> {
        let err = |message: String| MarahelError::BadRule {
            path: path.to_string(),
            rule: text.to_string(),
            message,
        };
        let mut parts = text.split("->");
        let (Some(conds), Some(execs)) = (parts.next(), parts.next()) else {
            return Err(err("missing `->` between conditions and executers".into()));
        };
        if parts.next().is_some() {
            return Err(err("more than one `->`".into()));
        }
        let mut conditions = Vec::new();
        if !conds.trim().is_empty() {
            for (i, c) in split_outside_parentheses(conds).enumerate() {
                if c.trim().is_empty() {
                    return Err(err(format!("condition {} is empty (stray comma?)", i + 1)));
                }
                conditions.push(self.condition(c.trim(), dist_slots).map_err(&err)?);
            }
        }
        let mut executers = Vec::new();
        for (i, e) in split_outside_parentheses(execs).enumerate() {
            if e.trim().is_empty() {
                return Err(err(format!(
                    "executer {} is empty (stray comma?); expected `neighbourhood(entities)`",
                    i + 1
                )));
            }
            executers.push(self.executer(e).map_err(&err)?);
        }
        Ok(Rule {
            conditions,
            executers,
        })
    }
}

/// The next free cache slot (each distance and neighbourhood estimator has its own).
fn next_slot(slots: &mut usize) -> usize {
    *slots += 1;
    *slots - 1
}

/// The parts of `text` between commas that are not inside parentheses
/// (`minDist(plus, a, b) < 3, random < 0.5` is two conditions).
fn split_outside_parentheses(text: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter()
}
