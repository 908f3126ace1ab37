//! A prepared generator: the input read, parsed and checked once, then run for any seed.
//!
//! Preparing does what the CLI does before its first map (read the file, apply the
//! overrides, parse, validate); [`Job::make`] is what it does per seed. Both are free of
//! Python, so a batch runs them on rayon's threads with the GIL released.

use crate::error::{self, Class, Failure, Result};
use crate::made::Made;
use grid_core::overrides::Override;
use heroes_zones::{Config, Template, vcmi};
use levelgen::cli::common::json_with_overrides;
use levelgen::cli::output::read_text;
use marahel::Script;
use mario_rooms::{LevelConfig, LevelOptions, Library, Strictness};
use std::path::{Path, PathBuf};
use zone_tiles::{BiomeConfig, World, ZoneConfig, ZoneRect};

/// An input document: text in hand, or a file to read.
#[derive(Clone, Debug)]
pub struct Input {
    /// The document's text, when given as text (a JSON string, or a dict dumped).
    pub text: Option<String>,
    /// The file, when given as a path.
    pub path: Option<String>,
}

impl Input {
    /// The text with the overrides applied, and the file name for messages.
    fn read(&self, class: Class, sets: &[Override], flag: &str) -> Result<String> {
        let text = match (&self.text, &self.path) {
            (Some(t), _) => t.clone(),
            (None, Some(p)) => read_text(Path::new(p))
                .map_err(|e| Failure::new(Class::File, e.message).with_source(p))?,
            (None, None) => {
                return Err(Failure::argument(
                    "no input: give a path, JSON text or dict",
                ));
            }
        };
        json_with_overrides(&text, sets, flag)
            .map_err(|e| Failure::new(class, e).in_file(self.path.as_deref()))
    }
}

/// Parses `PATH=VALUE` overrides.
pub fn overrides(sets: &[String], flag: &str) -> Result<Vec<Override>> {
    sets.iter()
        .map(|s| {
            s.parse::<Override>()
                .map_err(|e| Failure::argument(format!("{flag} {s}: {e}")))
        })
        .collect()
}

/// A generator ready to run for any seed.
#[derive(Debug)]
pub enum Job {
    /// A Marahel script, with an optional size.
    Marahel {
        /// The parsed script.
        script: Box<Script>,
        /// `WxH` overriding the script's metadata.
        size: Option<(usize, usize)>,
    },
    /// A Heroes template.
    Heroes {
        /// The template.
        template: Box<Template>,
        /// The config.
        config: Box<Config>,
        /// The map side.
        side: u32,
        /// The template's file, named in generation errors as the CLI does.
        source: Option<String>,
    },
    /// A Mario library and level settings.
    Mario {
        /// The room library.
        library: Box<Library>,
        /// The level settings.
        config: Box<LevelConfig>,
    },
    /// Zones settings and the window.
    Zones {
        /// The settings.
        config: Box<ZoneConfig>,
        /// Terrains, when asked for.
        biomes: Option<BiomeConfig>,
        /// The window of zones.
        rect: ZoneRect,
    },
}

/// The warnings found while preparing (shown by the CLI before the first map).
pub type Warnings = Vec<String>;

/// Prepares a Marahel script.
pub fn marahel(
    input: &Input,
    size: Option<(usize, usize)>,
    sets: &[String],
    strict: bool,
) -> Result<(Job, Warnings)> {
    let sets = overrides(sets, "--set")?;
    let text = input.read(Class::Marahel, &sets, "--set")?;
    let script = match strict {
        true => Script::parse_strict(&text),
        false => Script::parse(&text),
    }
    .map_err(|e| error::marahel(&e).in_file(input.path.as_deref()))?;
    if let Some((w, h)) = size
        && (w == 0 || h == 0)
    {
        return Err(Failure::argument(format!(
            "size {w}x{h}: expected WxH with whole numbers >= 1"
        )));
    }
    let warnings = script.warnings().iter().map(|w| w.to_string()).collect();
    Ok((
        Job::Marahel {
            script: Box::new(script),
            size,
        },
        warnings,
    ))
}

/// The Heroes options besides the template.
#[derive(Clone, Debug, Default)]
pub struct HeroesOptions {
    /// The map side (32, 64, 128 or 256).
    pub side: Option<u32>,
    /// Players of a VCMI template.
    pub players: Option<u8>,
    /// The template's name in a VCMI file.
    pub template_name: Option<String>,
    /// The config, when not the built-in one.
    pub config: Option<Input>,
    /// Overrides of the template.
    pub sets: Vec<String>,
    /// Overrides of the config.
    pub config_sets: Vec<String>,
}

/// Prepares a Heroes template.
pub fn heroes(input: &Input, opts: &HeroesOptions) -> Result<(Job, Warnings)> {
    if let Some(side) = opts.side
        && !levelgen::cli::heroes::SIDES.contains(&side)
    {
        return Err(Failure::argument(format!(
            "{side}x{side}: a Heroes map is 32x32, 64x64, 128x128 or 256x256 (or 32, 64, 128, 256)"
        )));
    }
    let sets = overrides(&opts.sets, "--set")?;
    let text = input.read(Class::Heroes, &sets, "--set")?;
    let config = heroes_config(opts)?;
    let at = |e: heroes_zones::HeroesError| error::heroes(&e).in_file(input.path.as_deref());
    let mut warnings = Vec::new();
    let (template, side) = if vcmi::is_vcmi(&text) {
        let vopts = vcmi::Options {
            players: opts.players,
            side: opts.side,
        };
        let c = vcmi::load(&text, opts.template_name.as_deref(), &vopts).map_err(at)?;
        warnings = c.warnings;
        (c.template, c.side)
    } else {
        if opts.template_name.is_some() || opts.players.is_some() {
            let name = input.path.as_deref().unwrap_or("template");
            return Err(Failure::argument(format!(
                "{name}: template_name and players apply to VCMI template files"
            )));
        }
        let t = Template::from_json(&text).map_err(at)?;
        (t, opts.side.unwrap_or(config.map_size))
    };
    let job = Job::Heroes {
        template: Box::new(template),
        config: Box::new(config),
        side,
        source: input.path.clone(),
    };
    Ok((job, warnings))
}

/// The config: given or built in, with its overrides (as `--config` and `--config-set`).
fn heroes_config(opts: &HeroesOptions) -> Result<Config> {
    let flag = "--config-set";
    let sets = overrides(&opts.config_sets, flag)?;
    let text = match &opts.config {
        Some(input) => input.read(Class::Heroes, &sets, flag)?,
        None if sets.is_empty() => return Ok(Config::default()),
        None => {
            let builtin = serde_json::to_string(&Config::default())
                .map_err(|e| Failure::new(Class::Heroes, e.to_string()))?;
            json_with_overrides(&builtin, &sets, flag)
                .map_err(|e| Failure::new(Class::Heroes, format!("built-in config: {e}")))?
        }
    };
    let name = opts
        .config
        .as_ref()
        .map_or(Some("built-in config"), |c| c.path.as_deref());
    Config::from_json(&text).map_err(|e| error::heroes(&e).in_file(name))
}

/// The Mario options.
#[derive(Clone, Debug, Default)]
pub struct MarioOptions {
    /// Directories of room, section and macro files replacing the theme's.
    pub dirs: [Option<String>; 3],
    /// The embedded library's theme.
    pub theme: String,
    /// Treat the library's hazards as errors.
    pub strict: bool,
    /// Minimum height in rows.
    pub height: usize,
    /// Minimum length in columns.
    pub length: usize,
    /// Difficulty ramp.
    pub difficulty: Option<(f32, f32)>,
    /// Section roles.
    pub sequence: Option<Vec<String>>,
    /// The reference's setup.
    pub reference: bool,
    /// Check playability.
    pub check: bool,
    /// Overrides of the `LevelConfig` JSON.
    pub sets: Vec<String>,
}

/// Prepares a Mario library and settings, as `levelgen mario` does.
pub fn mario(opts: &MarioOptions) -> Result<(Job, Warnings)> {
    let dirs: Vec<Option<PathBuf>> = opts
        .dirs
        .iter()
        .map(|d| d.as_ref().map(PathBuf::from))
        .collect();
    let strictness = if opts.strict || dirs.iter().all(Option::is_none) {
        Strictness::Strict
    } else {
        Strictness::Lenient
    };
    let library = Library::load_theme(
        dirs[0].as_deref(),
        dirs[1].as_deref(),
        dirs[2].as_deref(),
        strictness,
        &opts.theme,
    )
    .map_err(|e| error::mario(&e))?;
    let warnings = library.diagnostics.iter().map(|d| d.to_string()).collect();
    if let Some((a, b)) = opts.difficulty
        && !(a.is_finite() && b.is_finite())
    {
        return Err(Failure::argument(format!(
            "difficulty {a}:{b}: expected finite numbers"
        )));
    }
    let cfg = LevelConfig::from_options(&LevelOptions {
        reference: opts.reference,
        height: opts.height,
        length: opts.length,
        check: opts.check,
        roles: opts.sequence.clone(),
        difficulty: opts.difficulty.map(Some),
    })
    .map_err(|e| error::mario(&e))?;
    let sets = overrides(&opts.sets, "--set")?;
    let cfg = levelgen::cli::common::settings_with_overrides(cfg, &sets)
        .map_err(|e| Failure::cli(Class::Mario, e))?;
    let job = Job::Mario {
        library: Box::new(library),
        config: Box::new(cfg),
    };
    Ok((job, warnings))
}

/// Prepares zones settings, checked before anything is generated, as `levelgen zones` does.
pub fn zones(
    config: ZoneConfig,
    sets: &[String],
    biomes: bool,
    rect: ZoneRect,
) -> Result<(Job, Warnings)> {
    let sets = overrides(sets, "--set")?;
    let config = levelgen::cli::common::settings_with_overrides(config, &sets)
        .map_err(|e| Failure::cli(Class::Zones, e))?;
    config.validate().map_err(|e| error::zones(&e))?;
    config.check_window(rect).map_err(|e| error::zones(&e))?;
    let job = Job::Zones {
        config: Box::new(config),
        biomes: biomes.then(BiomeConfig::default),
        rect,
    };
    Ok((job, Vec::new()))
}

impl Job {
    /// The map of `seed`.
    pub fn make(&self, seed: u64) -> Result<Made> {
        match self {
            Job::Marahel { script, size } => match size {
                Some((w, h)) => script.generate_sized(seed, *w, *h),
                None => script.generate(seed),
            }
            .map(Made::Marahel)
            .map_err(|e| error::marahel(&e)),
            Job::Heroes {
                template,
                config,
                side,
                source,
            } => heroes_zones::generate(template, config, *side, seed)
                .map(|m| Made::Heroes(Box::new(m)))
                .map_err(|e| error::heroes(&e).in_file(source.as_deref())),
            Job::Mario { library, config } => mario_rooms::generate(library, config, seed)
                .map(|g| Made::Mario(Box::new(g)))
                .map_err(|e| error::mario(&e)),
            Job::Zones {
                config,
                biomes,
                rect,
            } => World::new(**config, *biomes, seed)
                .and_then(|streamer| {
                    let world = streamer.generator().generate_par(*rect)?;
                    Ok(Made::Zones(Box::new(world), Box::new(streamer)))
                })
                .map_err(|e| error::zones(&e)),
        }
    }
}
