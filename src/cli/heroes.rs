//! `levelgen heroes`: template-driven Heroes zone maps, exported as Pocket Heroes `.hmm`.

use super::common::{
    CommonArgs, Formats, json_input, json_with_overrides, parse_square, write_generic,
    write_with_objects,
};
use super::error::CliError;
use super::output::{Output, Target};
use grid_core::export::ExportOptions;
use grid_core::overrides::Override;
use heroes_zones::{Config, Template, generate, hmm, preview, vcmi};
use std::path::{Path, PathBuf};

/// Generate a Heroes-style zone map from a template: MapGen-KorGE JSON (plus added fields) or
/// a VCMI random-map template file (pick one with --template, players with --players). --out
/// takes .hmm (Pocket Heroes editor map), .png (preview), .txt, .json or .tmx. Without --out,
/// prints the map as text.
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
    /// Change one value of the template: `PATH=VALUE` (`zones.0.size=30`,
    /// `/connections/0/guardValue=5000`; the value JSON or else text). Repeatable.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<Override>,
    /// Change one value of the config (the built-in one without --config): `PATH=VALUE`,
    /// e.g. `mapSize=64`. Repeatable.
    #[arg(long = "config-set", value_name = "PATH=VALUE")]
    pub config_set: Vec<Override>,
    /// Map size `WxH`, square: 32x32, 64x64, 128x128 or 256x256; a single number is short
    /// for a square (default: the config's mapSize).
    #[arg(long, value_parser = parse_side)]
    pub size: Option<u32>,
    /// Also write a PNG preview here (in a batch, one per map: `STEM_SEED.png`).
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// PNG previews get a legend strip naming their colours.
    #[arg(long)]
    pub legend: bool,
    /// PNG previews draw the .hmm's obstacle objects, each over its footprint in its own
    /// shade and outlined (at 128x128 and below), instead of obstacle cells.
    #[arg(long)]
    pub footprints: bool,
    /// Shared flags (--seed, --count, --out, --format, --quiet).
    #[command(flatten)]
    pub common: CommonArgs,
}

fn with_path(path: &Path, e: heroes_zones::HeroesError) -> CliError {
    CliError::input_msg(format!("{}: {e}", path.display()))
}

/// The map sides the `.hmm` format and the generator support.
pub const SIDES: [u32; 4] = [32, 64, 128, 256];

/// A Heroes map size: `NxN` or `N`, N one of [`SIDES`].
pub fn parse_side(text: &str) -> Result<u32, String> {
    let side = parse_square(text)?;
    if !SIDES.contains(&side) {
        return Err(format!(
            "{side}x{side}: a Heroes map is 32x32, 64x64, 128x128 or 256x256 (or 32, 64, 128, 256)"
        ));
    }
    Ok(side)
}

/// What `levelgen heroes` writes: `.hmm` editor maps (its own format, the default in a
/// directory), PNG previews and the generic formats.
pub const FORMATS: Formats = Formats {
    generator: "heroes",
    known: &["hmm", "png", "txt", "json", "tmx"],
    dir: "hmm",
    stdout: "txt",
};

/// Writes `map` to `target` in `format` as `levelgen heroes --out` does (the JSON document
/// with zones and objects, the TMX with its object layer, the `.hmm`, the preview PNG).
pub fn write_map(
    out: &Output,
    map: &heroes_zones::HeroesMap,
    target: &Target,
    format: &str,
    look: preview::Options,
) -> Result<(), CliError> {
    match format {
        "hmm" => out.write(target, &hmm::export(map).to_bytes()),
        "png" => out.write(
            target,
            &preview::png_with(map, look).map_err(CliError::output_msg)?,
        ),
        "json" => out.write(target, heroes_zones::document::to_json(map).as_bytes()),
        "tmx" => {
            let objects = heroes_zones::document::tmx_objects(map);
            let opts = ExportOptions::default();
            write_with_objects(out, map, target, format, &objects, &opts)
        }
        _ => write_generic(out, map, target, format, &ExportOptions::default()),
    }
}

/// The config: `--config` or the built-in one, with the `--config-set` overrides.
fn read_config(args: &Args) -> Result<Config, CliError> {
    let flag = "--config-set";
    let text = match &args.config {
        Some(p) => json_input(p, &args.config_set, flag)?,
        None if args.config_set.is_empty() => return Ok(Config::default()),
        None => {
            let builtin = serde_json::to_string(&Config::default())
                .map_err(|e| CliError::output_msg(e.to_string()))?;
            json_with_overrides(&builtin, &args.config_set, flag)
                .map_err(|e| CliError::input_msg(format!("built-in config: {e}")))?
        }
    };
    let name = args
        .config
        .as_deref()
        .unwrap_or(Path::new("built-in config"));
    Config::from_json(&text).map_err(|e| with_path(name, e))
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<(), CliError> {
    let text = json_input(&args.template, &args.set, "--set")?;
    let config = read_config(&args)?;
    let msg = args.common.messages();
    let (template, size) = if vcmi::is_vcmi(&text) {
        let opts = vcmi::Options {
            players: args.players,
            side: args.size,
        };
        let c = vcmi::load(&text, args.template_name.as_deref(), &opts)
            .map_err(|e| with_path(&args.template, e))?;
        for w in &c.warnings {
            msg.warn(format!("warning: {}: {w}", args.template.display()));
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
        (t, args.size.unwrap_or(config.map_size))
    };
    let name = args
        .template
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("heroes")
        .to_string();
    let c = &args.common;
    let plan = c.plan(&name, &FORMATS)?;
    if let Some(png) = &args.png {
        plan.check_preview("--png", png)?;
    }
    let out = Output::guarding(
        [Some(args.template.as_path()), args.config.as_deref()]
            .into_iter()
            .flatten(),
    );
    let look = preview::Options {
        footprints: args.footprints,
        legend: args.legend,
    };
    // Maps are generated in parallel and written in seed order.
    c.batch(&name).for_each_ordered(
        || (),
        |_, seed| generate(&template, &config, size, seed),
        |seed, map| -> Result<(), CliError> {
        let map = map.map_err(|e| with_path(&args.template, e))?;
        msg.summary(format!(
            "{name} seed {seed}: {} zones, {} objects, area error {:.1}%, {} forced portals, {} portals for crossing connections, {} connections left out, {} repaired",
            map.zones.len(),
            map.objects.len(),
            map.stats.max_area_error * 100.0,
            map.stats.forced_portals,
            map.stats.planar_portals,
            map.stats.left_out.len(),
            map.stats.repaired
        ));
        if let Some(png) = &args.png {
            let target = Target::File(plan.preview(png, seed));
            write_map(&out, &map, &target, "png", look)?;
            msg.wrote(&target);
        }
        let target = plan.target(seed);
        write_map(&out, &map, &target, plan.format(), look)?;
        msg.wrote(&target);
        Ok(())
        },
    )?;
    msg.finish();
    Ok(())
}
