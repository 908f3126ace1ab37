//! The zones settings from keyword arguments, through the CLI's own flags and mapping
//! (`levelgen zones` parsed by clap, then `levelgen::cli::zones::config`), so
//! `levelgen.zones(...)` and `levelgen zones ...` with the same values build the same
//! `ZoneConfig`, whatever flags the CLI gains.

use crate::error::{Failure, Result};
use clap::Parser;
use levelgen::cli::{Cli, Command};
use zone_tiles::ZoneConfig;

/// The settings of `levelgen zones FLAGS...` (`flags` without the program and subcommand,
/// e.g. `["--noise", "simplex", "--seamless"]`).
pub fn config(flags: &[String]) -> Result<ZoneConfig> {
    let argv = ["levelgen", "zones"]
        .into_iter()
        .map(String::from)
        .chain(flags.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| {
        let text = e.render().to_string();
        let first = text.lines().next().unwrap_or("bad zones settings");
        Failure::argument(first.trim_start_matches("error: ").to_string())
    })?;
    match cli.command {
        Some(Command::Zones(args)) if args.action.is_none() => {
            levelgen::cli::zones::config(&args).map_err(|e| Failure::argument(e.to_string()))
        }
        _ => Err(Failure::argument("bad zones settings")),
    }
}
