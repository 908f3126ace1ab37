//! `levelgen mario`: Super Mario levels assembled from rooms, sections and macros, each
//! proven playable, written as Mario AI Framework level text.

use super::common::{CommonArgs, ensure_parent, extension, write_generic};
use super::error::CliError;
use grid_core::export::ExportOptions;
use mario_rooms::{LevelConfig, Library, Strictness, generate, preview};
use std::path::{Path, PathBuf};

/// Generate Mario levels from a room library (by default the embedded one). --out takes
/// .txt (Mario AI Framework level text), .png, .json or .tmx; without --out the level text
/// is printed.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory of room files (both formats; read with its direct subdirectories).
    #[arg(long)]
    pub rooms: Option<PathBuf>,
    /// Directory of section files.
    #[arg(long)]
    pub sections: Option<PathBuf>,
    /// Directory of macro files.
    #[arg(long)]
    pub macros: Option<PathBuf>,
    /// Theme of the embedded library: overground (default), underground, athletic, castle
    /// (parts given with --rooms/--sections/--macros replace the theme's).
    #[arg(long, default_value = "overground")]
    pub theme: String,
    /// Also write a PNG preview here (with --count > 1, one per seed: `name_<seed>.png`).
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Mark the standing tiles the playability checker reached in the --png preview.
    #[arg(long)]
    pub show_reach: bool,
    /// Minimum level height in rows.
    #[arg(long, default_value_t = 16)]
    pub height: usize,
    /// Minimum level length in columns (extra `hard` sections until reached).
    #[arg(long, default_value_t = 0)]
    pub length: usize,
    /// Difficulty from 1 (easiest) to 5 (hardest), fractions allowed: `D`, or `A:B` for a
    /// ramp from the level's start to its end. Default 1:3.
    #[arg(long)]
    pub difficulty: Option<String>,
    /// The section sequence as roles, e.g. `intro,intro,hard,twist,hard` (the default).
    /// `intro` cells exclude hard and twist rooms, `hard` cells easy and twist rooms.
    #[arg(long, value_delimiter = ',')]
    pub sequence: Option<Vec<String>>,
    /// Use the reference's setup: start/finish tagged `bullet`, INTRO, INTRO, HARD, TWIST,
    /// 70 % `challenge` -> `bullet` (for the jcatlos data).
    #[arg(long)]
    pub reference: bool,
    /// Treat the reference data's hazards (placeholder colliding with a tile char,
    /// probabilities over 100 %, size mismatches) as errors instead of warnings.
    #[arg(long)]
    pub strict: bool,
    /// Check every room of the library on its own (16 macro draws each, between two strips
    /// of ground) instead of generating; exit 2 if any room is not playable.
    #[arg(long)]
    pub check_rooms: bool,
    /// Skip the playability check.
    #[arg(long)]
    pub no_check: bool,
    /// Shared flags (--seed, --count, --out, --format, --quiet).
    #[command(flatten)]
    pub common: CommonArgs,
}

fn write_text(path: &Path, text: &str) -> Result<(), CliError> {
    ensure_parent(path)?;
    std::fs::write(path, text).map_err(|e| {
        CliError::output(std::io::Error::new(
            e.kind(),
            format!("{}: {e}", path.display()),
        ))
    })
}

fn parse_difficulty(s: &str) -> Result<(f32, f32), CliError> {
    let bad = || {
        CliError::input_msg(format!(
            "--difficulty {}: expected `A` or `A:B` (numbers)",
            grid_core::text::excerpt(s)
        ))
    };
    let mut parts = s.split(':').map(|p| p.trim().parse::<f32>());
    let a = parts.next().ok_or_else(bad)?.map_err(|_| bad())?;
    let b = match parts.next() {
        Some(b) => b.map_err(|_| bad())?,
        None => a,
    };
    if parts.next().is_some() || !a.is_finite() || !b.is_finite() {
        return Err(bad());
    }
    Ok((a, b))
}

/// Rejects an output name whose format mario cannot write, before any level is made.
fn check_out_format(args: &Args) -> Result<(), CliError> {
    let Some(out) = args.common.out_path("mario", 0) else {
        return Ok(());
    };
    let ext = extension(&out);
    if ext == "txt" || ext == "lvl" || grid_core::export::Format::from_path(&out).is_some() {
        return Ok(());
    }
    Err(CliError::input_msg(format!(
        "{}: unknown output format for mario (expected .txt, .lvl, .json, .png or .tmx)",
        out.display()
    )))
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<(), CliError> {
    check_out_format(&args)?;
    let strictness = if args.strict
        || (args.rooms.is_none() && args.sections.is_none() && args.macros.is_none())
    {
        Strictness::Strict
    } else {
        Strictness::Lenient
    };
    let lib = Library::load_theme(
        args.rooms.as_deref(),
        args.sections.as_deref(),
        args.macros.as_deref(),
        strictness,
        &args.theme,
    )
    .map_err(CliError::input)?;
    if !args.common.quiet {
        for d in &lib.diagnostics {
            eprintln!("{d}");
        }
    }
    if args.check_rooms {
        let failures = mario_rooms::playability::unplayable_rooms(&lib, 16);
        if failures.is_empty() {
            args.common.say(format!(
                "{} rooms: every middle room is playable on its own",
                lib.rooms.len()
            ));
            return Ok(());
        }
        let list: Vec<String> = failures
            .iter()
            .map(|f| {
                format!(
                    "{} ({}), macro seed {}: {}",
                    f.room,
                    f.file,
                    f.seed,
                    f.report.summary()
                )
            })
            .collect();
        return Err(CliError::input_msg(format!(
            "{} room(s) not playable on their own:\n  {}",
            failures.len(),
            list.join("\n  ")
        )));
    }
    let mut cfg = if args.reference {
        LevelConfig::reference()
    } else {
        LevelConfig::default()
    };
    cfg.height = args.height;
    cfg.min_length = args.length;
    cfg.check_playability = !args.no_check;
    if let Some(roles) = &args.sequence {
        cfg.sequence = roles
            .iter()
            .map(|r| r.trim())
            .filter(|r| !r.is_empty())
            .map(mario_rooms::Step::for_role)
            .collect();
    }
    if let Some(d) = &args.difficulty {
        cfg.difficulty = Some(parse_difficulty(d)?);
    }
    // Levels are generated in parallel and written in seed order.
    args.common.batch("mario").for_each_ordered(
        || (),
        |_, seed| generate(&lib, &cfg, seed),
        |seed, g| -> Result<(), CliError> {
            let g = g.map_err(CliError::input)?;
            args.common.say(format!(
                "mario seed {seed}: {}x{}, {} rooms, sections [{}], difficulty {:.2}, {}{}",
                g.level.width(),
                g.level.height(),
                g.rooms.len(),
                g.sections.join(", "),
                g.difficulty,
                g.report
                    .as_ref()
                    .map_or("not checked".to_string(), |r| r.summary()),
                if g.attempts > 1 {
                    format!(" (attempt {})", g.attempts)
                } else {
                    String::new()
                }
            ));
            if let Some(png) = &args.png {
                let path = if args.common.is_batch() {
                    let stem = png.file_stem().and_then(|s| s.to_str()).unwrap_or("mario");
                    png.with_file_name(format!("{stem}_{seed}.png"))
                } else {
                    png.clone()
                };
                ensure_parent(&path)?;
                if args.show_reach {
                    preview::write_png_with_reach(&g.level, &path, 8)
                } else {
                    preview::write_png(&g.level, &path, 8)
                }
                .map_err(CliError::output)?;
                args.common.wrote(&path);
            }
            match args.common.out_path("mario", seed) {
                Some(out) => {
                    let ext = extension(&out);
                    if ext == "txt" || ext == "lvl" {
                        write_text(&out, &g.level.to_text())?;
                    } else {
                        write_generic(&g.level, &out, &ExportOptions::default())?;
                    }
                    args.common.wrote(&out);
                }
                None => {
                    if !args.common.quiet {
                        println!("{}", g.level.to_text());
                    }
                }
            }
            Ok(())
        },
    )
}
