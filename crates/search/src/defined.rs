//! Metrics a spec defines under `metrics`, by name: a built-in metric read with its own
//! passable tiles, or an external command.
//!
//! ```json
//! "metrics": {
//!   "key_without_door": { "metric": "distance:player:key", "passable": ["empty", "player", "key", "enemy"] },
//!   "enemy_gap": { "command": ["python3", "examples/search/metrics/enemy_gap.py"], "timeout": 5 }
//! }
//! ```
//!
//! **Own passable tiles.** `passable` replaces the spec's `measure.passable` for this metric
//! only: "the player reaches the key without passing the door" is a distance whose walker
//! may not stand on the door. It applies to the registry's map metrics and to distances.
//!
//! **Commands.** The command (a program and its arguments, run from the current folder,
//! without a shell) reads one map on standard input, as `levelgen ... --format json` writes
//! it (`{"height", "legend", "rows", "width"}`, tiles by name), and prints one number. It
//! runs at most `timeout` seconds per map (default 5, at most 600), then it is killed. A
//! command that fails, runs over time or prints anything but one finite number makes the
//! candidate invalid, with a message naming the metric. Values are cached per map. Commands
//! run through [`crate::external`], as a caller's own functions do.

use crate::error::SearchError;
use crate::external::{Command, External, MAX_TIMEOUT};
use crate::metric::{Metric, MetricKind};
use grid_core::text::excerpt;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One entry of the spec's `metrics`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defined {
    /// A built-in metric (read with `passable` when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The passable entities of this metric (instead of `measure.passable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passable: Option<Vec<String>>,
    /// A program and its arguments that read a map as JSON and print a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// Seconds the command may run on one map.
    #[serde(default = "default_timeout")]
    pub timeout: f64,
}

fn default_timeout() -> f64 {
    5.0
}

/// Checks the spec's `metrics` (the built-in names they use are checked by
/// [`crate::Search::new`]).
pub fn check(defs: &std::collections::BTreeMap<String, Defined>) -> Result<(), SearchError> {
    for (name, d) in defs {
        let path = format!("metrics.{}", excerpt(name));
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !plain {
            return Err(SearchError::value(
                path,
                "a metric's name is letters, digits, _ and -",
            ));
        }
        match (&d.metric, &d.command) {
            (Some(_), None) => {}
            (None, Some(argv)) => {
                if argv.is_empty() || argv[0].is_empty() {
                    return Err(SearchError::value(
                        path + ".command",
                        "give the program and its arguments, [\"python3\", \"my_metric.py\"]",
                    ));
                }
                if d.passable.is_some() {
                    return Err(SearchError::value(
                        path + ".passable",
                        "a command reads the whole map; passable is for a built-in metric",
                    ));
                }
            }
            _ => {
                return Err(SearchError::value(
                    path,
                    "give either metric (with passable) or command",
                ));
            }
        }
        if !(d.timeout.is_finite() && d.timeout > 0.0 && d.timeout <= MAX_TIMEOUT) {
            return Err(SearchError::value(
                path + ".timeout",
                format!("{}: expected seconds in (0, {MAX_TIMEOUT}]", d.timeout),
            ));
        }
    }
    Ok(())
}

/// The metric the spec's entry `name` defines (its built-in metric resolved against the
/// script's `entities`, the generator's `extras` and the user's `custom` metrics).
pub fn kind(
    name: &str,
    d: &Defined,
    entities: &[String],
    extras: &[&str],
    custom: &[Arc<dyn Metric>],
) -> Result<MetricKind, SearchError> {
    let path = format!("metrics.{}", excerpt(name));
    if let Some(argv) = &d.command {
        let command = Arc::new(Command::new(argv, d.timeout));
        return Ok(MetricKind::External(Arc::new(External::new(
            name,
            &(path + ".command"),
            command,
        ))));
    }
    let inner_name = d.metric.as_deref().unwrap_or_default();
    let inner = MetricKind::parse(
        inner_name,
        entities,
        extras,
        custom,
        &(path.clone() + ".metric"),
    )?;
    let Some(passable) = &d.passable else {
        return Ok(inner);
    };
    if !matches!(inner, MetricKind::Map(_) | MetricKind::Distance(_)) {
        return Err(SearchError::value(
            path + ".passable",
            format!(
                "{} does not walk the map; passable is for the registry's map metrics and distance:A:B",
                excerpt(inner_name)
            ),
        ));
    }
    if let Some((i, p)) = passable
        .iter()
        .enumerate()
        .find(|(_, p)| !entities.contains(p))
    {
        return Err(SearchError::value(
            format!("{path}.passable[{i}]"),
            format!(
                "{} is not an entity of the script (known: {})",
                excerpt(p),
                entities.join(", ")
            ),
        ));
    }
    Ok(MetricKind::Passable(Box::new(inner), passable.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn defs(json: &str) -> Result<(), String> {
        let d: BTreeMap<String, Defined> = serde_json::from_str(json).map_err(|e| e.to_string())?;
        check(&d).map_err(|e| e.to_string())
    }

    #[test]
    fn definitions_are_checked() {
        assert!(defs(r#"{"a": {"metric": "regions", "passable": ["x"]}}"#).is_ok());
        assert!(defs(r#"{"a": {"command": ["sh", "-c", "echo 1"]}}"#).is_ok());
        assert_eq!(
            defs(r#"{"a": {"metric": "regions", "command": ["x"]}}"#).unwrap_err(),
            "metrics.\"a\": give either metric (with passable) or command"
        );
        assert_eq!(
            defs(r#"{"a": {"command": []}}"#).unwrap_err(),
            "metrics.\"a\".command: give the program and its arguments, [\"python3\", \"my_metric.py\"]"
        );
        assert_eq!(
            defs(r#"{"a b": {"metric": "regions"}}"#).unwrap_err(),
            "metrics.\"a b\": a metric's name is letters, digits, _ and -"
        );
        assert_eq!(
            defs(r#"{"a": {"command": ["x"], "timeout": 0}}"#).unwrap_err(),
            "metrics.\"a\".timeout: 0: expected seconds in (0, 600]"
        );
    }
}
