//! `levelgen mario`: Super Mario levels assembled from rooms, sections and macros, each
//! proven playable, written as Mario AI Framework level text.

use super::common::{
    CommonArgs, Formats, settings_with_overrides, write_generic, write_with_objects,
};
use super::error::CliError;
use super::output::{Output, Target};
use grid_core::export::ExportOptions;
use mario_rooms::{LevelConfig, LevelOptions, Library, Strictness, generate, preview};
use std::path::PathBuf;

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
    /// Also write a PNG preview here (in a batch, one per map: `STEM_SEED.png`).
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Mark the standing tiles the playability checker reached in the --png preview.
    #[arg(long)]
    pub show_reach: bool,
    /// Minimum level height in rows.
    #[arg(long, default_value_t = 16)]
    pub height: usize,
    /// Level length in columns, about: the sequence stops early, or extra `hard` sections
    /// are added, so that the level comes out near it.
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
    /// List the rooms, sections and set pieces (with their first columns) of each level
    /// (`-v` lists them too).
    #[arg(long)]
    pub explain: bool,
    /// Change one setting by its path in the `LevelConfig` JSON, after the other flags
    /// (repeatable): `--set difficulty=[2,4]`, `--set length=800`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<grid_core::overrides::Override>,
    /// Shared flags (--seed, --count, --out, --format, --quiet).
    #[command(flatten)]
    pub common: CommonArgs,
}

/// What `levelgen mario` writes: Mario AI Framework level text (`.txt` or `.lvl`, its own
/// format and the default), PNG and the generic JSON and TMX.
pub const FORMATS: Formats = Formats {
    generator: "mario",
    known: &["txt", "lvl", "png", "json", "tmx"],
    dir: "txt",
    stdout: "txt",
};

fn write_level(
    out: &Output,
    level: &mario_rooms::MarioLevel,
    target: &Target,
    format: &str,
) -> Result<(), CliError> {
    match format {
        "txt" | "lvl" if *target == Target::Stdout => {
            out.write(target, format!("{}\n", level.to_text()).as_bytes())
        }
        "txt" | "lvl" => out.write(target, level.to_text().as_bytes()),
        "json" | "tmx" => {
            let objects = mario_rooms::objects::objects(level);
            let opts = ExportOptions::default();
            write_with_objects(out, level, target, format, &objects, &opts)
        }
        _ => write_generic(out, level, target, format, &ExportOptions::default()),
    }
}

fn write_preview(
    out: &Output,
    level: &mario_rooms::MarioLevel,
    target: &Target,
    reach: bool,
    theme: &str,
) -> Result<(), CliError> {
    let (w, h, mut rgb) = if reach {
        preview::render_with_reach(level, 8)
    } else {
        preview::render(level, 8)
    };
    preview::apply_theme(&mut rgb, theme);
    let png = grid_core::export::encode_png(w, h, &rgb).map_err(CliError::output_msg)?;
    out.write(target, &png)
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

/// Runs the subcommand.
pub fn run(args: Args) -> Result<(), CliError> {
    let c = &args.common;
    let plan = c.plan("mario", &FORMATS)?;
    if let Some(png) = &args.png {
        plan.check_preview("--png", png)?;
    }
    let msg = c.messages();
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
    for d in &lib.diagnostics {
        msg.warn(d.to_string());
    }
    if args.check_rooms {
        let failures = mario_rooms::playability::unplayable_rooms(&lib, 16);
        if failures.is_empty() {
            msg.warn(format!(
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
    let difficulty = args
        .difficulty
        .as_deref()
        .map(parse_difficulty)
        .transpose()?;
    let cfg = LevelConfig::from_options(&LevelOptions {
        reference: args.reference,
        height: args.height,
        length: args.length,
        check: !args.no_check,
        roles: args.sequence.clone(),
        difficulty: difficulty.map(Some),
    })
    .map_err(CliError::input)?;
    let cfg = settings_with_overrides(cfg, &args.set)?;
    let out = Output::guarding(
        [&args.rooms, &args.sections, &args.macros]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path),
    );
    // Levels are generated in parallel and written in seed order.
    c.batch("mario").for_each_ordered(
        || (),
        |_, seed| generate(&lib, &cfg, seed),
        |seed, g| -> Result<(), CliError> {
            let g = g.map_err(CliError::input)?;
            let asked = match cfg.difficulty {
                Some((a, b)) if a == b => format!("difficulty asked {a}"),
                Some((a, b)) => format!("difficulty asked {a}:{b}"),
                None => "no difficulty asked".to_string(),
            };
            msg.summary(format!(
                "mario seed {seed}: {}x{}, {} rooms, sections [{}], {asked}, estimated {:.1}, mean room rating {:.2}, {} set pieces, {}{}",
                g.level.width(),
                g.level.height(),
                g.rooms.len(),
                g.sections.join(", "),
                mario_rooms::estimate::estimate(&g.level),
                g.difficulty,
                g.pieces.len(),
                g.report
                    .as_ref()
                    .map_or("not checked".to_string(), |r| r.summary()),
                if g.attempts > 1 {
                    format!(" (attempt {})", g.attempts)
                } else {
                    String::new()
                }
            ));
            if args.explain || args.common.verbose {
                let pieces: Vec<String> = g.pieces.iter().map(|(x, n)| format!("{n} @{x}")).collect();
                msg.summary(format!("  sections: {}", g.sections.join(", ")));
                msg.summary(format!("  rooms: {}", g.rooms.join(", ")));
                msg.summary(format!("  set pieces: {}", pieces.join(", ")));
            }
            if let Some(png) = &args.png {
                let target = Target::File(plan.preview(png, seed));
                write_preview(&out, &g.level, &target, args.show_reach, &args.theme)?;
                msg.wrote(&target);
            }
            let target = plan.target(seed);
            write_level(&out, &g.level, &target, plan.format())?;
            msg.wrote(&target);
            Ok(())
        },
    )?;
    msg.finish();
    Ok(())
}
