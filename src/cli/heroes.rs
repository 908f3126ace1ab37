//! `levelgen heroes`: template-driven Heroes zone maps, exported as Pocket Heroes `.hmm`.

use super::common::{CommonArgs, ensure_parent, extension, write_generic};
use super::error::CliError;
use grid_core::export::ExportOptions;
use heroes_zones::{Config, Template, generate, hmm, preview, vcmi};
use std::path::{Path, PathBuf};

/// Generate a Heroes-style zone map from a template: MapGen-KorGE JSON (plus added fields) or
/// a VCMI random-map template file (pick one with --template, players with --players). --out takes .hmm (Pocket Heroes editor map), .png (preview), .txt, .json or .tmx.
/// Without --out, prints the map as text.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The template JSON (this crate's format or a VCMI template file).
    pub template: PathBuf,
    /// The template to use from a VCMI file holding several (by name).
    #[arg(long = "template", value_name = "NAME")]
    pub template_name: Option<String>,
    /// Number of players for a VCMI template (within its `players` range, at most 6).
    #[arg(long)]
    pub players: Option<u8>,
    /// The config JSON (defaults: the crate's built-in config).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Map side: 32, 64, 128 or 256 (default: the config's mapSize).
    #[arg(long, value_parser = ["32", "64", "128", "256"])]
    pub size: Option<String>,
    /// Also write a PNG preview here.
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Shared flags (--seed, --count, --out, --format, --quiet).
    #[command(flatten)]
    pub common: CommonArgs,
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::read(path, e))
}

fn with_path(path: &Path, e: heroes_zones::HeroesError) -> CliError {
    CliError::input_msg(format!("{}: {e}", path.display()))
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    ensure_parent(path)?;
    std::fs::write(path, bytes).map_err(|e| {
        CliError::output(std::io::Error::new(
            e.kind(),
            format!("{}: {e}", path.display()),
        ))
    })
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<(), CliError> {
    let config = match &args.config {
        Some(p) => Config::from_json(&read(p)?).map_err(|e| with_path(p, e))?,
        None => Config::default(),
    };
    let size = match &args.size {
        Some(s) => Some(
            s.parse::<u32>()
                .map_err(|e| CliError::input_msg(format!("--size: {e}")))?,
        ),
        None => None,
    };
    let text = read(&args.template)?;
    let (template, size) = if vcmi::is_vcmi(&text) {
        let opts = vcmi::Options {
            players: args.players,
            side: size,
        };
        let c = vcmi::load(&text, args.template_name.as_deref(), &opts)
            .map_err(|e| with_path(&args.template, e))?;
        if !args.common.quiet {
            for w in &c.warnings {
                eprintln!("warning: {}: {w}", args.template.display());
            }
        }
        (c.template, c.side)
    } else {
        if args.template_name.is_some() || args.players.is_some() {
            return Err(CliError::input_msg(format!(
                "{}: --template and --players apply to VCMI template files",
                args.template.display()
            )));
        }
        let t = Template::from_json(&text).map_err(|e| with_path(&args.template, e))?;
        (t, size.unwrap_or(config.map_size))
    };
    let name = args
        .template
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("heroes")
        .to_string();
    // Maps are generated in parallel and written in seed order.
    args.common.batch(&name).for_each_ordered(
        || (),
        |_, seed| generate(&template, &config, size, seed),
        |seed, map| -> Result<(), CliError> {
        let map = map.map_err(|e| with_path(&args.template, e))?;
        args.common.say(format!(
            "{name} seed {seed}: {} zones, {} objects, area error {:.1}%, {} forced portals, {} connections left out, {} repaired",
            map.zones.len(),
            map.objects.len(),
            map.stats.max_area_error * 100.0,
            map.stats.forced_portals,
            map.stats.left_out.len(),
            map.stats.repaired
        ));
        if let Some(png) = &args.png {
            let bytes = preview::png(&map).map_err(CliError::input_msg)?;
            write_bytes(png, &bytes)?;
            args.common.wrote(png);
        }
        match args.common.out_path(&name, seed) {
            Some(out) => {
                let ext = extension(&out);
                match ext.as_str() {
                    "hmm" => write_bytes(&out, &hmm::export(&map).to_bytes())?,
                    "png" => write_bytes(&out, &preview::png(&map).map_err(CliError::input_msg)?)?,
                    _ => write_generic(&map, &out, &ExportOptions::default())?,
                }
                args.common.wrote(&out);
            }
            None => {
                if !args.common.quiet {
                    print!("{}", grid_core::export::to_text(&map));
                }
            }
        }
        Ok(())
        },
    )
}
