//! The one error type of the crate: every mistake names where it is and what was expected.

use grid_core::text::excerpt;
use thiserror::Error;

/// The longest JSON path a message prints whole (a path holds the script's own keys).
const PATH_CHARS: usize = 120;

/// The longest list of known names a message prints whole.
const KNOWN_CHARS: usize = 400;

/// `path` for a message: cut after [`PATH_CHARS`] characters.
fn short(path: &str) -> String {
    match path.char_indices().nth(PATH_CHARS) {
        None => path.to_string(),
        Some((i, _)) => format!("{}... ({} characters)", &path[..i], path.chars().count()),
    }
}

/// The known names for a message: cut after about [`KNOWN_CHARS`] characters.
pub(crate) fn known_list(known: &[impl AsRef<str>]) -> String {
    let mut out = String::new();
    for (i, name) in known.iter().enumerate() {
        if out.len() > KNOWN_CHARS {
            out.push_str(&format!(", ... ({} more)", known.len() - i));
            break;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&short(name.as_ref()));
    }
    out
}

/// Everything that can go wrong while reading a script or generating a map.
///
/// Every variant carries a `path` in JSON notation (`explorers[2].rules[0]`) that names the
/// place in the script, so a message reads like
/// `explorers[2].rules[0]: unknown neighbourhood "plsu" (known: self, all, plus, ...)`.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum MarahelError {
    /// The text is not JSON.
    #[error("line {line}, column {column}: not valid JSON: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// A field is missing, has the wrong JSON type, or is not a known field.
    #[error("{}: {message}", short(path))]
    Shape {
        /// Where.
        path: String,
        /// What was expected.
        message: String,
    },
    /// A name (entity, neighbourhood, explorer type, divider, estimator, region) is not known.
    #[error(
        "{}: unknown {kind} {} (known: {})",
        short(path),
        excerpt(name),
        known_list(known)
    )]
    UnknownName {
        /// Where.
        path: String,
        /// What sort of name (`"neighbourhood"`, `"entity"`, ...).
        kind: &'static str,
        /// The name as written.
        name: String,
        /// The names that would have been accepted.
        known: Vec<String>,
    },
    /// A value is out of range or malformed (a size, a count, a probability, a matrix).
    #[error("{}: {message}", short(path))]
    BadValue {
        /// Where.
        path: String,
        /// What was wrong and what was expected.
        message: String,
    },
    /// A rule string does not parse.
    #[error("{}: in rule {}: {message}", short(path), excerpt(rule))]
    BadRule {
        /// Where (`explorers[1].rules[0]`).
        path: String,
        /// The rule text.
        rule: String,
        /// What was expected.
        message: String,
    },
    /// The script asks for something no map can satisfy (region sizes larger than the map).
    #[error("{}: impossible: {message}", short(path))]
    Impossible {
        /// Where.
        path: String,
        /// Why.
        message: String,
    },
    /// A warning, made an error by strict mode ([`crate::Script::parse_strict`]).
    #[error("{}: {message} (an error in strict mode)", short(path))]
    Strict {
        /// Where.
        path: String,
        /// The warning.
        message: String,
    },
    /// A map on which the script would run past one of the crate's limits of work (see the
    /// crate's limits table): refused rather than run for minutes.
    #[error("{}: over a limit: {message}", short(path))]
    Limit {
        /// Where (the rule or parameter that asks for the work).
        path: String,
        /// What, how much, and the limit.
        message: String,
    },
    /// A 2017-dialect feature that has no translation.
    #[error("{}: unsupported 2017 feature: {message}", short(path))]
    Unsupported {
        /// Where.
        path: String,
        /// What and why.
        message: String,
    },
}

/// Something a script says that has no effect, or a map that could not be made entirely as
/// asked: reported, not refused (unless in strict mode).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}: {message}", short(path))]
pub struct Warning {
    /// Where (a JSON path).
    pub path: String,
    /// What and why.
    pub message: String,
}

impl Warning {
    /// The error strict mode makes of this warning.
    pub fn into_error(self) -> MarahelError {
        MarahelError::Strict {
            path: self.path,
            message: self.message,
        }
    }
}

impl MarahelError {
    /// The JSON path of the error (`""` for the whole script, `"line:col"` for JSON syntax).
    pub fn path(&self) -> String {
        match self {
            MarahelError::Json { line, column, .. } => format!("{line}:{column}"),
            MarahelError::Shape { path, .. }
            | MarahelError::UnknownName { path, .. }
            | MarahelError::BadValue { path, .. }
            | MarahelError::BadRule { path, .. }
            | MarahelError::Impossible { path, .. }
            | MarahelError::Strict { path, .. }
            | MarahelError::Limit { path, .. }
            | MarahelError::Unsupported { path, .. } => path.clone(),
        }
    }

    pub(crate) fn shape(path: impl Into<String>, message: impl Into<String>) -> Self {
        MarahelError::Shape {
            path: path.into(),
            message: message.into(),
        }
    }

    pub(crate) fn value(path: impl Into<String>, message: impl Into<String>) -> Self {
        MarahelError::BadValue {
            path: path.into(),
            message: message.into(),
        }
    }

    pub(crate) fn unknown(
        path: impl Into<String>,
        kind: &'static str,
        name: impl Into<String>,
        known: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        MarahelError::UnknownName {
            path: path.into(),
            kind,
            name: name.into(),
            known: known.into_iter().map(Into::into).collect(),
        }
    }
}
