//! The one error type of the crate: every mistake names where it is and what was expected.

use thiserror::Error;

/// Everything that can go wrong reading a search spec or starting a search.
///
/// Each variant names its place in the spec (`vary[2].int`, `constraints[0].metric`), so a
/// message reads like `constraints[0].metric: unknown metric "longest" (known: ...)`.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SearchError {
    /// The text is not JSON, or a field has the wrong shape.
    #[error("line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// A value is out of range, inconsistent or over a limit.
    #[error("{path}: {message}")]
    BadValue {
        /// Where in the spec.
        path: String,
        /// What was wrong and what was expected.
        message: String,
    },
    /// A metric name is not known.
    #[error("{path}: unknown metric {name} (known: {known})")]
    UnknownMetric {
        /// Where in the spec.
        path: String,
        /// An excerpt of the name as written.
        name: String,
        /// The accepted forms.
        known: String,
    },
    /// The skeleton script, with every variation at its middle value, is not a valid
    /// Marahel script (so no candidate could be).
    #[error("marahel: {0}")]
    Skeleton(String),
    /// A Heroes, Mario or zones skeleton (with every variation at its lowest value) does not
    /// build.
    #[error("{generator}: {message}")]
    Generator {
        /// The spec key (`heroes`, `mario`, `zones`).
        generator: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A variation's path does not lead into the skeleton.
    #[error("vary[{index}]: {message}")]
    Path {
        /// The variation's index.
        index: usize,
        /// What the override said.
        message: String,
    },
}

impl SearchError {
    /// A bad value at `path`.
    pub fn value(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::BadValue {
            path: path.into(),
            message: message.into(),
        }
    }
}
