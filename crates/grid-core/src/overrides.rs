//! Overrides: change one value of a JSON input by its path, without editing the file.
//!
//! `--set key=value` on the command line, the studio's sliders and a search's genome all
//! vary an input (a Marahel script, a Heroes template, a generator's settings) the same way:
//! as a path into the input's JSON and a new value for it. The path is either a JSON pointer
//! (`/explorers/0/parameters/tiles`, RFC 6901, with `~1` for `/` and `~0` for `~`) or a
//! dotted path (`explorers.0.parameters.tiles`); array elements are numbered from 0. The
//! value is JSON when it parses as JSON (`5`, `true`, `[1,2]`, `"text"`), otherwise the text
//! itself as a string (`wall`).
//!
//! An override may replace any existing value and may add a new key to an existing object,
//! but never creates the objects or arrays on its path: a typo in the path is an error, not
//! a silently added field.
//!
//! ```
//! use grid_core::overrides::{Override, apply_all};
//! let mut script = serde_json::json!({"metadata": {"width": 20}, "explorers": [{"type": "ca"}]});
//! let sets: Vec<Override> = ["metadata.width=50", "/explorers/0/type=drunk"]
//!     .iter()
//!     .map(|s| s.parse().unwrap())
//!     .collect();
//! apply_all(&mut script, &sets).unwrap();
//! assert_eq!(script["metadata"]["width"], 50);
//! assert_eq!(script["explorers"][0]["type"], "drunk");
//! ```

use crate::text::{excerpt, json_kind};
use serde_json::Value;
use std::str::FromStr;
use thiserror::Error;

/// A bad override, or one whose path does not lead anywhere in the input.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OverrideError {
    /// The text is not `path=value`.
    #[error("override {text}: expected PATH=VALUE, e.g. metadata.width=40")]
    Syntax {
        /// An excerpt of the text given.
        text: String,
    },
    /// A step of the path names nothing in the input.
    #[error("override {path}: {at} has no {step}")]
    Missing {
        /// The override's path, as given.
        path: String,
        /// The part of the path that exists (`/` for the root).
        at: String,
        /// The step that does not.
        step: String,
    },
    /// A step of the path goes into a number, string, boolean or null.
    #[error("override {path}: {at} is {kind}, not an object or array")]
    NotAContainer {
        /// The override's path, as given.
        path: String,
        /// The part of the path that exists.
        at: String,
        /// What is there (`a number`, ...).
        kind: &'static str,
    },
}

/// One `path=value` override.
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    /// The path as given (pointer or dotted).
    pub path: String,
    /// The path split into its steps (object keys or array indices).
    pub steps: Vec<String>,
    /// The new value.
    pub value: Value,
}

impl Override {
    /// An override of the value at `path` (a JSON pointer or a dotted path).
    pub fn new(path: &str, value: Value) -> Self {
        Self {
            path: path.to_string(),
            steps: split_path(path),
            value,
        }
    }
}

impl FromStr for Override {
    type Err = OverrideError;

    /// `PATH=VALUE`: the value is JSON when it parses as JSON, else a string.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let syntax = || OverrideError::Syntax {
            text: excerpt(text),
        };
        let (path, raw) = text.split_once('=').ok_or_else(syntax)?;
        let path = path.trim();
        if path.is_empty() || path == "/" {
            return Err(syntax());
        }
        let value =
            serde_json::from_str(raw.trim()).unwrap_or_else(|_| Value::String(raw.to_string()));
        Ok(Self::new(path, value))
    }
}

fn split_path(path: &str) -> Vec<String> {
    match path.strip_prefix('/') {
        Some(pointer) => pointer
            .split('/')
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect(),
        None => path.split('.').map(str::to_string).collect(),
    }
}

/// Applies one override to `doc`.
pub fn apply(doc: &mut Value, set: &Override) -> Result<(), OverrideError> {
    let Some((last, parents)) = set.steps.split_last() else {
        return Err(OverrideError::Syntax {
            text: excerpt(&set.path),
        });
    };
    let mut at = String::new();
    let mut node = doc;
    for step in parents {
        let here = if at.is_empty() { "/" } else { at.as_str() };
        let missing = || OverrideError::Missing {
            path: set.path.clone(),
            at: here.to_string(),
            step: excerpt(step),
        };
        node = match node {
            Value::Object(map) => map.get_mut(step.as_str()).ok_or_else(missing)?,
            Value::Array(items) => step
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .ok_or_else(missing)?,
            other => {
                return Err(OverrideError::NotAContainer {
                    path: set.path.clone(),
                    at: here.to_string(),
                    kind: json_kind(other),
                });
            }
        };
        at.push('/');
        at.push_str(step);
    }
    let here = if at.is_empty() { "/".to_string() } else { at };
    match node {
        Value::Object(map) => {
            map.insert(last.clone(), set.value.clone());
            Ok(())
        }
        Value::Array(items) => {
            let slot = last.parse::<usize>().ok().and_then(|i| items.get_mut(i));
            match slot {
                Some(slot) => {
                    *slot = set.value.clone();
                    Ok(())
                }
                None => Err(OverrideError::Missing {
                    path: set.path.clone(),
                    at: here,
                    step: excerpt(last),
                }),
            }
        }
        other => Err(OverrideError::NotAContainer {
            path: set.path.clone(),
            at: here,
            kind: json_kind(other),
        }),
    }
}

/// Applies overrides in order (a later one wins over an earlier one on the same path).
pub fn apply_all(doc: &mut Value, sets: &[Override]) -> Result<(), OverrideError> {
    sets.iter().try_for_each(|s| apply(doc, s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(text: &str) -> Override {
        text.parse().unwrap()
    }

    #[test]
    fn values_parse_as_json_or_fall_back_to_text() {
        assert_eq!(set("a=5").value, json!(5));
        assert_eq!(set("a=[1, 2]").value, json!([1, 2]));
        assert_eq!(set("a=\"5\"").value, json!("5"));
        assert_eq!(set("a=wall").value, json!("wall"));
        assert_eq!(set("a=x=y").value, json!("x=y"));
    }

    #[test]
    fn pointer_and_dotted_paths_reach_the_same_place() {
        let doc = json!({"e": [{"p": {"n": 1}}], "a/b": {"~": 0}});
        for path in ["e.0.p.n=2", "/e/0/p/n=2"] {
            let mut d = doc.clone();
            apply(&mut d, &set(path)).unwrap();
            assert_eq!(d["e"][0]["p"]["n"], 2, "{path}");
        }
        let mut d = doc.clone();
        apply(&mut d, &set("/a~1b/~0=7")).unwrap();
        assert_eq!(d["a/b"]["~"], 7);
    }

    #[test]
    fn a_new_key_is_added_only_to_an_existing_object() {
        let mut d = json!({"m": {}});
        apply(&mut d, &set("m.w=3")).unwrap();
        assert_eq!(d["m"]["w"], 3);
        let e = apply(&mut d, &set("x.w=3")).unwrap_err();
        assert!(
            matches!(e, OverrideError::Missing { ref at, .. } if at == "/"),
            "{e}"
        );
    }

    #[test]
    fn bad_paths_are_errors_naming_where() {
        let mut d = json!({"a": [1, 2], "n": 4});
        let e = apply(&mut d, &set("a.5=0")).unwrap_err();
        assert_eq!(e.to_string(), "override a.5: /a has no \"5\"");
        let e = apply(&mut d, &set("n.x=0")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "override n.x: /n is a number, not an object or array"
        );
        assert!(matches!(
            "novalue".parse::<Override>(),
            Err(OverrideError::Syntax { .. })
        ));
        assert!(matches!(
            "=3".parse::<Override>(),
            Err(OverrideError::Syntax { .. })
        ));
    }

    #[test]
    fn later_overrides_win() {
        let mut d = json!({"a": 0});
        apply_all(&mut d, &[set("a=1"), set("a=2")]).unwrap();
        assert_eq!(d["a"], 2);
    }
}
