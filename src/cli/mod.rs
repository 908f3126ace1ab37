//! The `levelgen` CLI: one subcommand per generator, plus `analyze`.
//!
//! Each subcommand lives in its own module with an `Args` struct (clap) and a `run` function.

pub mod analyze;
pub mod common;
pub mod error;
pub mod heroes;
pub mod marahel;
pub mod mario;
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
    /// Template-driven Heroes zone map, exported as a Pocket Heroes `.hmm` editor map.
    Heroes(heroes::Args),
    /// Run a Marahel script (JSON level-generator language).
    Marahel(marahel::Args),
    /// Super Mario levels from room, section and macro files, proven playable (Mario AI text).
    Mario(mario::Args),
    /// A local web page to see and steer every generator live (`--port N`, `--open`).
    Studio(studio::Args),
    /// Noise-driven 3x3 zone matching into a tiled world (`zones atlas` writes the atlas).
    Zones(zones::Args),
}

/// Parses the arguments, runs, and maps errors to exit codes (2 for bad input).
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
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
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.code)
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Some(Command::Analyze(args)) => analyze::run(args),
        None => marahel::default_run(std::path::Path::new("levelgen-cave.png")),
        Some(Command::Heroes(args)) => heroes::run(args),
        Some(Command::Marahel(args)) => marahel::run(args),
        Some(Command::Mario(args)) => mario::run(args),
        Some(Command::Studio(args)) => studio::run(args),
        Some(Command::Zones(args)) => zones::run(args),
    }
}
