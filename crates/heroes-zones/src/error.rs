//! [`HeroesError`]: the one error type of the crate.

use thiserror::Error;

/// Everything that can go wrong: bad template/config JSON, a template that cannot be generated,
/// a generation that failed its global check, or a malformed `.hmm` file.
#[derive(Debug, Error)]
pub enum HeroesError {
    /// The JSON did not parse; `path` is where (JSON path), `line`/`column` are 1-based.
    #[error("{what} JSON at line {line}, column {column}: {message}")]
    Json {
        /// `"template"` or `"config"`.
        what: &'static str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message (names the field or enum value).
        message: String,
    },
    /// A template or config that parses but cannot be generated; `at` names the zone,
    /// connection or config field (`zones[3]`, `connections[2]`, `config.mapSize`).
    #[error("{at}: {message}")]
    Invalid {
        /// Where: a JSON path such as `zones[3].surface` or `connections[1]`.
        at: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// Several validation problems at once (each one an [`HeroesError::Invalid`] line).
    #[error("{} problems in the template:\n{}", .0.len(), .0.join("\n"))]
    Many(Vec<String>),
    /// Generation ran but the result failed the whole-map check and could not be repaired.
    #[error("generation failed: {0}")]
    Generation(String),
    /// A `.hmm` file that does not follow the layout: byte `offset` and what was expected.
    #[error(".hmm at byte {offset}: {message}")]
    Hmm {
        /// Byte offset of the problem.
        offset: usize,
        /// What was read and what was expected.
        message: String,
    },
    /// An I/O failure reading or writing `path`.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

impl HeroesError {
    /// A validation error at `at`.
    pub fn invalid(at: impl Into<String>, message: impl Into<String>) -> Self {
        HeroesError::Invalid {
            at: at.into(),
            message: message.into(),
        }
    }
}
