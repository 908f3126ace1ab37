//! The `levelgen` CLI: one subcommand per generator, plus `analyze`.
//!
//! Each subcommand lives in its own module with an `Args` struct (clap) and a `run` function;
//! every one plans its output with [`common`] and writes through [`output`]. The flags, file
//! naming, formats and exit codes are described for users in `docs/cli.md`.

pub mod analyze;
pub mod check;
pub mod common;
pub mod error;
pub mod heroes;
pub mod marahel;
pub mod mario;
pub mod output;
pub mod search;
mod search_cell;
mod search_targets;
pub mod studio;
pub mod zones;

use clap::{Parser, Subcommand};
use error::CliError;
use std::process::ExitCode;

/// Procedural level generators for 2D tile games.
///
/// With no arguments, generates the Marahel paper's cave map from an embedded script,
/// prints it and writes a PNG preview.
#[derive(Parser, Debug)]
#[command(name = "levelgen", version, about, long_about = None)]
pub struct Cli {
    /// The generator to run; none runs the default cave demo.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Expressive-range analysis: metrics, summary and plots over many seeds.
    Analyze(analyze::Args),
    /// Validate files: .hmm maps, Mario levels, Marahel scripts, heroes templates and
    /// configs, Mario room/section/macro files; exit 2 if any has an error.
    Check(check::Args),
    /// Template-driven Heroes zone map, exported as a Pocket Heroes `.hmm` editor map.
    Heroes(heroes::Args),
    /// Run a Marahel script (JSON level-generator language).
    Marahel(marahel::Args),
    /// Super Mario levels from room, section and macro files, proven playable (Mario AI text).
    Mario(mario::Args),
    /// Search Marahel scripts, Heroes templates or Mario and zones settings for maps that meet
    /// a spec (MAP-Elites, evolution strategy, NSGA-II).
    Search(search::Args),
    /// A local web page to see and steer every generator live (`--port N`, `--open`).
    Studio(studio::Args),
    /// Noise-driven 3x3 zone matching into a tiled world (`zones atlas` writes the atlas).
    Zones(zones::Args),
}

/// Parses the arguments, runs, and maps errors to exit codes: 0 success (also when stdout
/// is closed early), 1 an I/O or internal failure, 2 bad input.
pub fn main() -> ExitCode {
    ignore_file_size_signal();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap quotes the whole offending argument; a long one is cut.
            let text = e.render().to_string();
            if text
                .lines()
                .all(|l| l.chars().count() <= output::MAX_LINE_CHARS)
            {
                let _ = e.print();
            } else {
                output::note(text.trim_end());
            }
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(error::EXIT_BAD_INPUT),
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_closed_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            output::note(format!("error: {e}"));
            ExitCode::from(e.code)
        }
    }
}

/// Under a file-size limit (`ulimit -f`), a write past it raises `SIGXFSZ`, which kills the
/// process by default; ignored, the write fails with an error the output layer reports
/// (exit 1, the previous file intact).
#[allow(unsafe_code)]
fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code; it is
    // done once at start-up, before any thread is spawned.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Some(Command::Analyze(args)) => analyze::run(args),
        Some(Command::Check(args)) => check::run(args),
        None => marahel::default_run(std::path::Path::new("levelgen-cave.png")),
        Some(Command::Heroes(args)) => heroes::run(args),
        Some(Command::Marahel(args)) => marahel::run(args),
        Some(Command::Mario(args)) => mario::run(args),
        Some(Command::Search(args)) => search::run(args),
        Some(Command::Studio(args)) => studio::run(args),
        Some(Command::Zones(args)) => zones::run(args),
    }
}
