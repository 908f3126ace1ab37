//! Stage 1, second half: a parsed spec checked against its ranges and limits, each error
//! naming the field as the spec wrote it.

use super::{
    Algorithm, MAX_BATCH, MAX_BINS, MAX_CODONS, MAX_EVALUATIONS, MAX_MAPS, MAX_SECONDS,
    MAX_VARIATIONS, NumberRange, Production, Range, Spec,
};
use crate::error::SearchError;
use crate::generator::Kind;
use grid_core::text::excerpt;
use serde_json::Value;
fn range_ok(path: &str, lo: f64, hi: f64) -> Result<(), SearchError> {
    if lo.is_finite() && hi.is_finite() && lo <= hi {
        Ok(())
    } else {
        Err(SearchError::value(
            path,
            format!("[{lo}, {hi}]: expected finite numbers with lo <= hi"),
        ))
    }
}

fn at_most(path: &str, value: usize, lo: usize, hi: usize) -> Result<(), SearchError> {
    if (lo..=hi).contains(&value) {
        Ok(())
    } else {
        Err(SearchError::value(
            path,
            format!("{value} is outside {lo}..={hi}"),
        ))
    }
}

impl Spec {
    /// Which generator the spec searches, and its skeleton document.
    pub fn skeleton(&self) -> Result<(Kind, &Value), SearchError> {
        let given: Vec<(Kind, &Value)> = [
            (Kind::Marahel, &self.marahel),
            (Kind::Heroes, &self.heroes),
            (Kind::Mario, &self.mario),
            (Kind::Zones, &self.zones),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
        match given.as_slice() {
            [one] => Ok(*one),
            _ => Err(SearchError::value(
                "spec",
                format!(
                    "give exactly one of marahel, heroes, mario and zones (given: {})",
                    if given.is_empty() {
                        "none".to_string()
                    } else {
                        given
                            .iter()
                            .map(|(k, _)| k.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                ),
            )),
        }
    }

    /// Checks every number against its range and limit (names are checked later, against
    /// the skeleton's entities, by [`crate::Search::new`]).
    pub fn check(&self) -> Result<(), SearchError> {
        self.skeleton()?;
        at_most("vary", self.vary.len(), 0, MAX_VARIATIONS)?;
        at_most("maps", self.maps, 1, MAX_MAPS)?;
        at_most("keep", self.keep, 1, 1000)?;
        self.check_selection()?;
        if !(self.spread.is_finite() && self.spread >= 0.0) {
            return Err(SearchError::value("spread", "expected a number >= 0"));
        }
        for (i, v) in self.vary.iter().enumerate() {
            check_range(&format!("vary[{i}]"), &v.range)?;
        }
        at_most("measure.blocks", self.measure.blocks, 1, 1000)?;
        if !matches!(self.measure.connectivity, 4 | 8) {
            return Err(SearchError::value(
                "measure.connectivity",
                "expected 4 or 8",
            ));
        }
        for (i, c) in self.constraints.iter().enumerate() {
            let path = format!("constraints[{i}]");
            if c.min.is_none() && c.max.is_none() {
                return Err(SearchError::value(path, "give min, max or both"));
            }
            range_ok(&path, c.min.unwrap_or(f64::MIN), c.max.unwrap_or(f64::MAX))?;
            if c.scale.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
                return Err(SearchError::value(path + ".scale", "expected a number > 0"));
            }
        }
        for (i, t) in self.objectives.iter().enumerate() {
            if !t.weight.is_finite() {
                return Err(SearchError::value(
                    format!("objectives[{i}].weight"),
                    "expected a finite number",
                ));
            }
        }
        self.check_algorithm()?;
        crate::targets::check(&self.targets)?;
        crate::defined::check(&self.metrics)?;
        if !self.targets.is_empty() && matches!(self.algorithm, Algorithm::MapElites { .. }) {
            return Err(SearchError::value(
                "targets",
                "give targets with es or nsga2 (a MAP-Elites archive is already a grid of values: run its cells with levelgen search --run-cell)",
            ));
        }
        self.check_budget()
    }

    fn check_selection(&self) -> Result<(), SearchError> {
        let s = &self.selection;
        if let Some(pool) = s.pool {
            at_most("selection.pool", pool, self.keep, 10_000)?;
        }
        for (name, v) in [("nearest", s.nearest), ("differing", s.differing)] {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                return Err(SearchError::value(
                    format!("selection.{name}"),
                    format!("{v}: expected a number in [0, 1]"),
                ));
            }
        }
        Ok(())
    }

    fn check_algorithm(&self) -> Result<(), SearchError> {
        let mutation = |m: f64| {
            if m.is_finite() && m > 0.0 && m <= 1.0 {
                Ok(())
            } else {
                Err(SearchError::value(
                    "algorithm.mutation",
                    format!("{m}: expected a number in (0, 1]"),
                ))
            }
        };
        match &self.algorithm {
            Algorithm::Es {
                mu,
                lambda,
                mutation: m,
            } => {
                at_most("algorithm.mu", *mu, 1, MAX_BATCH)?;
                at_most("algorithm.lambda", *lambda, 1, MAX_BATCH)?;
                mutation(*m)
            }
            Algorithm::Nsga2 {
                population,
                mutation: m,
            } => {
                at_most("algorithm.population", *population, 2, MAX_BATCH)?;
                mutation(*m)
            }
            Algorithm::MapElites {
                x,
                y,
                initial,
                batch,
                mutation: m,
            } => {
                for (name, axis) in [("algorithm.x", x), ("algorithm.y", y)] {
                    at_most(&format!("{name}.bins"), axis.bins, 1, MAX_BINS)?;
                    range_ok(name, axis.min, axis.max)?;
                    if axis.min == axis.max {
                        return Err(SearchError::value(name, "min and max must differ"));
                    }
                }
                at_most("algorithm.initial", *initial, 1, MAX_BATCH)?;
                at_most("algorithm.batch", *batch, 1, MAX_BATCH)?;
                mutation(*m)
            }
        }
    }

    fn check_budget(&self) -> Result<(), SearchError> {
        let b = &self.budget;
        if b.evaluations.is_none() && b.seconds.is_none() {
            return Err(SearchError::value(
                "budget",
                "give evaluations, seconds or both",
            ));
        }
        if let Some(n) = b.evaluations
            && !(1..=MAX_EVALUATIONS).contains(&n)
        {
            return Err(SearchError::value(
                "budget.evaluations",
                format!("{n} is outside 1..={MAX_EVALUATIONS}"),
            ));
        }
        if let Some(s) = b.seconds
            && !(s.is_finite() && s > 0.0 && s <= MAX_SECONDS)
        {
            return Err(SearchError::value(
                "budget.seconds",
                format!("{s}: expected a number in (0, {MAX_SECONDS}]"),
            ));
        }
        Ok(())
    }
}

fn check_range(path: &str, range: &Range) -> Result<(), SearchError> {
    match range {
        Range::Int([lo, hi]) => range_ok(&format!("{path}.int"), *lo as f64, *hi as f64),
        Range::Float([lo, hi]) => range_ok(&format!("{path}.float"), *lo, *hi),
        Range::Choice(values) => at_most(&format!("{path}.choice"), values.len(), 1, 10_000),
        Range::Optional(true) => Ok(()),
        Range::Optional(false) => Err(SearchError::value(
            format!("{path}.optional"),
            "false: leave the variation out instead",
        )),
        Range::Grammar(g) => {
            let path = format!("{path}.grammar");
            at_most(&format!("{path}.codons"), g.codons, 1, MAX_CODONS)?;
            for (name, production) in &g.rules {
                let here = format!("{path}.rules.{}", excerpt(name));
                if !(name.starts_with('<') && name.ends_with('>') && name.len() > 2) {
                    return Err(SearchError::value(here, "a symbol is written <name>"));
                }
                match production {
                    Production::Options(options) => {
                        at_most(&here, options.len(), 1, 10_000)?;
                    }
                    Production::Number(NumberRange::Int([lo, hi])) => {
                        range_ok(&here, *lo as f64, *hi as f64)?
                    }
                    Production::Number(NumberRange::Float([lo, hi])) => range_ok(&here, *lo, *hi)?,
                }
            }
            Ok(())
        }
    }
}
