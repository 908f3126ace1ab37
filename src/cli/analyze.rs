//! `levelgen analyze`: the expressive range of a generator over many seeds.
//!
//! ```text
//! levelgen analyze marahel examples/marahel/cave.json --count 1000 --out er/
//! levelgen analyze marahel a.json b.json --seeds 0..500 --empty empty,player --blocks 5 --out er/
//! ```
//!
//! Writes into `--out DIR`: `maps.csv` (one row per map), `summary.csv` and `summary.json`
//! (mean, median, min, max of each metric; the JSON adds timings), `heatmap.png` (empty
//! fraction vs regions) and `entropy.png` (block-entropy box plot), each atomically and
//! never over one of the inputs, and prints the summary table on stderr. Several inputs are analysed side by side (one heat-map panel and one box each).
//!
//! The flags mirror the generator subcommands' `--seed`/`--count`/`--out`/`--quiet`, but
//! are declared here rather than through `CommonArgs` because analysis needs a different
//! default count (1000, as in the paper) and a required output directory.

use super::error::CliError;
use super::output::{Output, Target, create_dir, note};
use crate::analyze::axes::{self, Axes};
use crate::analyze::{self, AnalyzeError, Settings, plot, summary};
use crate::batch::{SeedRange, with_threads};
use clap::builder::PossibleValuesParser;
use grid_core::metrics::{BlockGrid, registry};
use std::path::PathBuf;

/// Arguments of `levelgen analyze`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The generator whose inputs are analysed.
    #[arg(value_parser = PossibleValuesParser::new(["marahel", "heroes", "mario", "zones", "heroes-zones", "mario-rooms", "zone-tiles"]))]
    pub generator: String,
    /// The generator's input: marahel, a script; heroes, a template JSON; mario, `builtin`
    /// or a room-library directory; zones, a ZoneConfig JSON, `default` or `seamless`.
    /// Several inputs are analysed side by side.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Seed of the first map; map `i` uses seed `seed + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of maps per input (seeds `seed..seed+count`).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Seed range `A..B` (B excluded) instead of --seed/--count, to split a large run across
    /// machines: the `maps.csv` of `0..500` and `500..1000` concatenate to that of `0..1000`.
    #[arg(long, conflicts_with_all = ["seed", "count"])]
    pub seeds: Option<SeedRange>,
    /// Tile names that count as empty, separated by `,` or `|` (default: the generator's).
    #[arg(long)]
    pub empty: Option<String>,
    /// Entropy block grid: `N` (NxN) or `COLSxROWS`.
    #[arg(long, default_value = "5")]
    pub blocks: BlockGrid,
    /// The heat map's metric across: one of the registry's (`grid_core::metrics::registry`):
    /// empty_fraction, regions, block_entropy, longest_path, largest_region.
    #[arg(long, default_value = "empty_fraction", value_parser = PossibleValuesParser::new(registry::METRICS.map(|m| m.name)))]
    pub x: String,
    /// The heat map's metric up (as --x).
    #[arg(long, default_value = "regions", value_parser = PossibleValuesParser::new(registry::METRICS.map(|m| m.name)))]
    pub y: String,
    /// Output directory (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Map size `NxN` (or `N`) for generators that take one: the Heroes map (32, 64, 128 or
    /// 256; default 128) or the zones window in zones (default 20). Ignored by marahel (the
    /// script sets its size) and mario (the rooms do).
    #[arg(long, value_parser = super::common::parse_square)]
    pub size: Option<u32>,
    /// The Heroes generation config JSON (as `levelgen heroes --config`; default: the
    /// built-in config). Only for the heroes generator.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print nothing but errors (no table, no progress bar); the files are still written.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also print every file written.
    #[arg(long, short, conflicts_with = "quiet")]
    pub verbose: bool,
}

impl Args {
    /// The seeds to analyse.
    pub fn seed_range(&self) -> SeedRange {
        self.seeds
            .unwrap_or_else(|| SeedRange::from_count(self.seed, self.count))
    }

    /// The empty-tile names given, if any.
    pub fn empty_names(&self) -> Result<Option<Vec<String>>, CliError> {
        let Some(text) = &self.empty else {
            return Ok(None);
        };
        let names: Vec<String> = text
            .split([',', '|'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        if names.is_empty() {
            return Err(CliError::input_msg(format!(
                "--empty {}: expected tile names separated by ',' or '|'",
                grid_core::text::excerpt(text)
            )));
        }
        Ok(Some(names))
    }
}

fn cli_err(e: AnalyzeError) -> CliError {
    if e.is_input() {
        CliError::input(e)
    } else {
        CliError::output(e)
    }
}

/// Runs `levelgen analyze`.
pub fn run(args: Args) -> Result<(), CliError> {
    let empty = args.empty_names()?;
    let short = match args.seeds {
        Some(r) => r.is_empty(),
        None => args.seed_range().len() < args.count,
    };
    if short {
        return Err(CliError::input_msg(format!(
            "seeds {}: fewer seeds than asked (a range holds no seed, or the seeds run past {})",
            args.seed_range(),
            u64::MAX
        )));
    }
    let options = analyze::OpenOptions {
        size: args.size,
        config: args.config.clone(),
    };
    let subjects = args
        .inputs
        .iter()
        .map(|p| analyze::open(&args.generator, p, &options))
        .collect::<Result<Vec<_>, _>>()
        .map_err(cli_err)?;
    let out = Output::guarding(args.inputs.iter().chain(&args.config).map(PathBuf::as_path));
    // Every file's name is checked against the inputs before the analysis runs.
    for name in OUTPUT_FILES {
        out.check(&args.out.join(name))?;
    }
    create_dir(&args.out)?;
    let settings = Settings {
        seeds: args.seed_range(),
        empty: empty.clone(),
        blocks: args.blocks,
        quiet: args.quiet,
        axes: Axes {
            x: axes::metric(&args.x).map_err(CliError::input_msg)?,
            y: axes::metric(&args.y).map_err(CliError::input_msg)?,
        },
    };
    let runs = with_threads(args.threads, || {
        subjects
            .iter()
            .map(|s| analyze::analyze(s.as_ref(), &settings))
            .collect::<Result<Vec<_>, _>>()
    })
    .map_err(CliError::input_msg)?
    .map_err(cli_err)?;

    let summaries: Vec<_> = runs.iter().map(summary::summarize).collect();
    let empty_text = match &empty {
        Some(n) => n.join("|"),
        None => format!(
            "default: {}",
            subjects
                .first()
                .map_or(String::new(), |s| s.default_empty().join("|"))
        ),
    };
    let files: [(&str, String); 3] = [
        ("maps.csv", summary::rows_csv(&runs)),
        ("summary.csv", summary::summary_csv(&summaries)),
        (
            "summary.json",
            summary::summary_json(
                &summaries,
                &settings.seeds.to_string(),
                &settings.blocks.to_string(),
                &empty_text,
            ),
        ),
    ];
    let histogram = summary::histogram_csv(&runs);
    let written = std::cell::Cell::new(0);
    for (name, text) in files.iter().chain(&histogram) {
        let path = args.out.join(name);
        out.write(&Target::File(path.clone()), text.as_bytes())?;
        wrote(&args, &written, &path);
    }
    let heat = args.out.join("heatmap.png");
    out.write_files(&heat, |tmp| {
        if settings.axes.is_default() {
            plot::heat_map(&runs, tmp)
        } else {
            axes::heat_map(&runs, &settings.axes, tmp)
        }
        .map_err(cli_err)
    })?;
    wrote(&args, &written, &heat);
    let boxes = args.out.join("entropy.png");
    let blocks = settings.blocks.to_string();
    out.write_files(&boxes, |tmp| {
        plot::entropy_box_plot(&runs, &blocks, tmp).map_err(cli_err)
    })?;
    wrote(&args, &written, &boxes);
    let curves = args.out.join("difficulty.png");
    if crate::analyze::mario::response_curves(&runs, &curves).map_err(cli_err)? {
        wrote(&args, &written, &curves);
    }
    if !args.quiet {
        note(summary::table(&summaries).trim_end());
    }
    if !args.quiet && !args.verbose {
        note(format!(
            "wrote {} files to {}",
            written.get(),
            args.out.display()
        ));
    }
    Ok(())
}

/// The files `levelgen analyze` writes into `--out` (a histogram file is added for some
/// generators; see [`summary::histogram_csv`]).
const OUTPUT_FILES: [&str; 5] = [
    "maps.csv",
    "summary.csv",
    "summary.json",
    "heatmap.png",
    "entropy.png",
];

fn wrote(args: &Args, written: &std::cell::Cell<usize>, path: &std::path::Path) {
    written.set(written.get() + 1);
    if args.verbose {
        note(format!("wrote {}", path.display()));
    }
}
