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
    /// JSON that parses but holds the wrong kind of value where the format expects another
    /// (a config file holding `[]`, a range written as an array): `at` is the JSON path.
    #[error("{what} JSON at {at}: expected {expected}, found {found}")]
    WrongType {
        /// `"template"` or `"config"`.
        what: &'static str,
        /// JSON path of the value, `$` for the whole document.
        at: String,
        /// What the format expects there.
        expected: &'static str,
        /// What the file holds there (`an array`, `a string`, ...).
        found: &'static str,
    },
    /// Several validation problems at once (each one an [`HeroesError::Invalid`] line); at
    /// most [`MAX_LISTED`] are listed, then how many more there are.
    #[error("{}", list_problems(.0))]
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

/// The most problems one [`HeroesError::Many`] message lists (so a hostile template cannot
/// make a megabyte error).
pub const MAX_LISTED: usize = 20;

/// `problems` as one message: a count, then at most [`MAX_LISTED`] lines.
pub fn list_problems(problems: &[String]) -> String {
    let mut out = format!("{} problems in the template:", problems.len());
    for p in problems.iter().take(MAX_LISTED) {
        out.push('\n');
        out.push_str(p);
    }
    if problems.len() > MAX_LISTED {
        out.push_str(&format!("\n... and {} more", problems.len() - MAX_LISTED));
    }
    out
}

/// The first [`MAX_LISTED`] of `items` joined by `sep`, then how many more there are.
pub fn join_some(items: &[String], sep: &str) -> String {
    let mut out = items
        .iter()
        .take(MAX_LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join(sep);
    if items.len() > MAX_LISTED {
        out.push_str(&format!("{sep}... and {} more", items.len() - MAX_LISTED));
    }
    out
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
