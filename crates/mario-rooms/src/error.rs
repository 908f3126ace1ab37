//! The crate's one error type, and the non-fatal diagnostics of lenient loading.

use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// Everything that can go wrong in mario-rooms.
#[derive(Debug, Error)]
pub enum MarioError {
    /// A room, macro, section or level file is malformed: where, and what was expected.
    #[error("{file}:{line}:{col}: {message}")]
    Parse {
        /// File name (or `<level>` / `<room>` for text without a file).
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in chars).
        col: usize,
        /// What was found and what was expected.
        message: String,
    },
    /// A file or directory could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// No room of the library fits a section cell.
    #[error(
        "section `{section}` cell `{cell}` ({width}x{height}, entrance {entrance:?}, {}): no room has the tags {tags} and fits",
        exits_text(exits)
    )]
    NoFit {
        /// The section's name.
        section: String,
        /// The cell's char.
        cell: char,
        /// The tags asked for (positive and `!negative`), quoted.
        tags: String,
        /// Cell width.
        width: usize,
        /// Cell height.
        height: usize,
        /// Cell entrance, cell-relative `(x, y)`.
        entrance: (usize, usize),
        /// Cell exits, cell-relative.
        exits: Vec<(usize, usize)>,
    },
    /// No start or finish room with the asked tags.
    #[error(
        "no {role} room with the tags {tags} (a start room needs `M` and no `m`; a finish room needs `m` and `F`)"
    )]
    NoRoom {
        /// `start` or `finish`.
        role: &'static str,
        /// The tags asked for.
        tags: String,
    },
    /// A section has several exits but the library has no `route` room to follow them.
    #[error(
        "a section's extra exit at column {x}, row {y} needs a room tagged `route` to follow it, and the library has none"
    )]
    NoRoute {
        /// The exit's column in the level (before trimming).
        x: i64,
        /// Its row.
        y: i64,
    },
    /// No section has the role a sequence step asks for.
    #[error("sequence step {step}: no section has the role {role}")]
    NoSection {
        /// Step index.
        step: usize,
        /// The role, quoted.
        role: String,
    },
    /// Every attempt produced a level the playability checker rejects.
    #[error("no playable level after {attempts} attempts (seed {seed}): {reason}")]
    Unplayable {
        /// Attempts made.
        attempts: u32,
        /// The seed.
        seed: u64,
        /// Why the last attempt failed.
        reason: String,
    },
    /// A configuration value is out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// A size limit of [`crate::limits`] would be exceeded (the message names the limit).
    #[error("too large: {0}")]
    Limit(String),
}

/// A cell's exits for a message: the first four, and how many there are.
fn exits_text(exits: &[(usize, usize)]) -> String {
    let shown: Vec<String> = exits.iter().take(4).map(|e| format!("{e:?}")).collect();
    let more = if exits.len() > 4 {
        format!(" and {} more", exits.len() - 4)
    } else {
        String::new()
    };
    format!("exits [{}{more}]", shown.join(", "))
}

impl MarioError {
    /// A parse error at `file:line:col`.
    pub fn parse(file: &str, line: usize, col: usize, message: impl Into<String>) -> Self {
        Self::Parse {
            file: file.to_string(),
            line,
            col,
            message: message.into(),
        }
    }

    /// Turns the error into a [`Diagnostic`] if it is a parse error.
    pub fn into_diagnostic(self) -> Result<Diagnostic, MarioError> {
        match self {
            MarioError::Parse {
                file,
                line,
                col,
                message,
            } => Ok(Diagnostic {
                file,
                line,
                col,
                message,
            }),
            other => Err(other),
        }
    }
}

/// A hazard found while loading in [`crate::Strictness::Lenient`] mode, where the reference
/// data is accepted as the reference accepts it but every hazard is reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// File name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: warning: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// How hazards of the reference data are treated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strictness {
    /// Every hazard is an error (placeholder colliding with a tile char, probabilities over
    /// 100 %, macro and placeholder sizes differing, absent placeholders, several entrances).
    #[default]
    Strict,
    /// The reference's own data loads: hazards become [`Diagnostic`]s and are resolved the
    /// safe way (documented per hazard).
    Lenient,
}

/// Collects hazards: errors in strict mode, diagnostics in lenient mode.
#[derive(Debug, Default)]
pub(crate) struct Hazards {
    pub strictness: Strictness,
    pub diagnostics: Vec<Diagnostic>,
}

impl Hazards {
    pub fn new(strictness: Strictness) -> Self {
        Self {
            strictness,
            diagnostics: Vec::new(),
        }
    }

    /// Reports a hazard: `Err` in strict mode, recorded in lenient mode.
    pub fn report(
        &mut self,
        file: &str,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Result<(), MarioError> {
        let e = MarioError::parse(file, line, col, message);
        match self.strictness {
            Strictness::Strict => Err(e),
            Strictness::Lenient => {
                if let Ok(d) = e.into_diagnostic() {
                    self.diagnostics.push(d);
                }
                Ok(())
            }
        }
    }
}
