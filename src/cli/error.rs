//! The CLI's error: a message and an exit code.
//!
//! Exit codes: 0 success (also when stdout is closed early, as by `| head`), 1 an I/O or
//! internal failure (a write that failed, a full disk), 2 bad input (a malformed file or
//! flag, an output that would overwrite an input, a run that would make nothing).

use std::fmt;

/// Exit code for bad input (a malformed script, template or argument).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for failures that are not the input's fault (writing output).
pub const EXIT_FAILURE: u8 = 1;

/// An error the CLI reports on stderr before exiting with [`CliError::code`].
#[derive(Debug)]
pub struct CliError {
    /// What went wrong, with its causes.
    pub message: String,
    /// The process exit code.
    pub code: u8,
}

fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(cause) = src {
        let c = cause.to_string();
        if !s.contains(&c) {
            s.push_str(": ");
            s.push_str(&c);
        }
        src = cause.source();
    }
    s
}

impl CliError {
    /// Bad input: exit code 2.
    pub fn input(e: impl std::error::Error + 'static) -> Self {
        Self {
            message: chain(&e),
            code: EXIT_BAD_INPUT,
        }
    }

    /// Bad input described in words: exit code 2.
    pub fn input_msg(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: EXIT_BAD_INPUT,
        }
    }

    /// Output could not be written: exit code 1.
    pub fn output(e: impl std::error::Error + 'static) -> Self {
        Self {
            message: chain(&e),
            code: EXIT_FAILURE,
        }
    }

    /// Output could not be written, described in words: exit code 1.
    pub fn output_msg(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: EXIT_FAILURE,
        }
    }

    /// Stdout was closed by its reader (a pipe into `head`): the run ends quietly with
    /// exit code 0, as Unix tools do.
    pub fn closed_pipe() -> Self {
        Self {
            message: String::new(),
            code: 0,
        }
    }

    /// Whether this is [`CliError::closed_pipe`].
    pub fn is_closed_pipe(&self) -> bool {
        self.code == 0
    }

    /// A file that could not be read: bad input, naming the file.
    pub fn read(path: &std::path::Path, e: std::io::Error) -> Self {
        Self::input_msg(format!("{}: {e}", path.display()))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
