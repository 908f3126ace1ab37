//! `levelgen zones`: noise-driven 3x3 zone matching into a tiled world, and its atlases.

use super::common::{CommonArgs, Formats, extension, settings_with_overrides, write_generic};
use super::error::CliError;
use super::output::{Output, Target};
use clap::Subcommand;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use grid_core::export::ExportOptions;
use grid_core::overrides::Override;
use std::path::PathBuf;
use zone_tiles::corner;
use zone_tiles::corner::atlas::CornerAtlas;
use zone_tiles::export::{
    black_and_white, paint, state_grid_json, write_tmx, write_tmx_builtin, write_tmx_terrains_file,
    write_tmx_with_atlas_file,
};
use zone_tiles::options::{
    CONNECTED_CHOICES, Choice, DISTANCE_CHOICES, NOISE_CHOICES, NoiseName, WORLEY_CHOICES,
    WorleyName, parse_connected, parse_distance,
};
use zone_tiles::procedural::{Geometry, ProceduralTiles, Style};
use zone_tiles::seamless::border_mismatch;
use zone_tiles::{
    Atlas, AtlasKind, BiomeConfig, Connected, Distance, Mode, Terrain, World, ZoneConfig,
    ZoneOptions, ZoneRect,
};

/// The values an option takes, each with its help, from zone-tiles' one list.
fn choices(list: &'static [Choice]) -> PossibleValuesParser {
    PossibleValuesParser::new(
        list.iter()
            .map(|(name, help)| PossibleValue::new(*name).help(*help)),
    )
}

fn noise_names() -> impl TypedValueParser<Value = NoiseName> {
    choices(&NOISE_CHOICES).map(|s| s.parse().expect("a listed noise name"))
}

fn distance_names() -> impl TypedValueParser<Value = Distance> {
    choices(&DISTANCE_CHOICES).map(|s| parse_distance(&s).expect("a listed distance name"))
}

fn worley_names() -> impl TypedValueParser<Value = WorleyName> {
    choices(&WORLEY_CHOICES).map(|s| s.parse().expect("a listed Worley output"))
}

fn connected_names() -> impl TypedValueParser<Value = Connected> {
    choices(&CONNECTED_CHOICES).map(|s| parse_connected(&s).expect("a listed connectivity"))
}

/// Generate a world of zones: each zone is 3x3 cells picked from noise, one atlas tile per
/// zone. Without --out, prints the cell map.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// `atlas` writes the reference atlas instead of a world.
    #[command(subcommand)]
    pub action: Option<Action>,
    /// Base noise.
    #[arg(long, value_parser = noise_names(), default_value = "worley")]
    pub noise: NoiseName,
    /// Worley distance function.
    #[arg(long, value_parser = distance_names(), default_value = "chebyshev")]
    pub distance: Distance,
    /// Worley output.
    #[arg(long, value_parser = worley_names(), default_value = "f1")]
    pub worley: WorleyName,
    /// Noise pixels (60 per zone) per noise unit (default: 100 for simplex/perlin and ratio
    /// Worley, 40 for F1 Worley).
    #[arg(long)]
    pub scale: Option<f64>,
    /// Octaves (1..=8), summed and normalised.
    #[arg(long, default_value_t = 1)]
    pub octaves: u32,
    /// Amplitude factor per octave, (0, 1].
    #[arg(long, default_value_t = 0.5)]
    pub persistence: f64,
    /// A cell is on (wall) when its mean noise (in [0, 1]) is above this. The same value
    /// means different shares of wall for different noise kinds; the default is --fill 0.45.
    #[arg(long, conflicts_with = "fill")]
    pub threshold: Option<f64>,
    /// Instead of a threshold: the fraction of cells on (wall), in [0, 1] ("top X%"),
    /// calibrated per seed on 16x16 zones; the same share for every noise kind [default: 0.45].
    #[arg(long)]
    pub fill: Option<f64>,
    /// The reference's look: every zone decides its own 3x3 cells, so neighbouring zones
    /// disagree along many shared edges and the zone grid shows, and no macro layer. Without
    /// it (the default) cells are decided on the dual grid and neighbouring zones agree at
    /// every shared edge.
    #[arg(long)]
    pub reference: bool,
    /// Strength of the macro layer under the detail: rock masses and open caverns about 8
    /// zones across, in units of the detail's spread; 0 is the detail alone [default: 1.2,
    /// or 0 with --reference].
    #[arg(long, value_name = "WEIGHT")]
    pub structure: Option<f64>,
    /// The default (cells on the dual grid, borders always agree); kept for scripts.
    #[arg(long, conflicts_with = "reference", hide = true)]
    pub seamless: bool,
    /// Make the floor (off cells) 4-connected, decided locally so chunks still agree.
    /// `--connected` (= `windows`): every window of at least 7x7 zones, at any origin, is
    /// one floor area on its own, walls made blocks of zones. `--connected regions`: all
    /// floor one area and every chunk one area on its own, passages dug along the caves.
    #[arg(long, value_parser = connected_names(), num_args = 0..=1, default_missing_value = "windows")]
    pub connected: Option<Connected>,
    /// Window size in zones, `WxH` (`--zones` is an alias).
    #[arg(long, visible_alias = "zones", default_value = "20x20")]
    pub size: String,
    /// Zone coordinates of the window's top-left zone, X,Y (any integers: the world is unbounded).
    #[arg(long, default_value = "0,0", allow_hyphen_values = true)]
    pub origin: String,
    /// Zone side in pixels when drawn (a multiple of 3). The map does not depend on it: the
    /// noise sees every zone as 60 noise pixels.
    #[arg(long, default_value_t = 60)]
    pub zone_size: u32,
    /// Sample every N-th noise pixel of a cell (a cell is 20 noise pixels; 1 = every one).
    #[arg(long, default_value_t = 2)]
    pub stride: u32,
    /// An artist's atlas PNG (512 tiles 32x16, or 102 tiles 17x6) to paint PNG/TMX output;
    /// TMX output uses all its tiles and writes the file beside the map unchanged. A square
    /// image is a corner atlas: 4x4 tiles, tile i having wall at corner c (0 top-left, 1
    /// top-right, 2 bottom-left, 3 bottom-right) when bit c of i is set, four per zone.
    #[arg(long)]
    pub atlas: Option<PathBuf>,
    /// Terrains from an altitude noise: the corner tiles draw open water, shallows and
    /// beaches, meadow and forest, gravel and cliffs, with drawn borders between them (what
    /// is floor stays walkable).
    ///
    /// With --zone-tiles, one tile per zone in the terrain's style; TMX then uses the
    /// compact biome tileset (102 tiles per terrain, placed with flips). With --atlas, the
    /// atlas holds one atlas per terrain stacked top to bottom (32N x 48N or 17N x 18N px;
    /// `levelgen zones atlas --builtin --biomes` draws one).
    #[arg(long, conflicts_with = "plain")]
    pub biomes: bool,
    /// PNG output: the black-and-white cell map instead of the built-in procedural tiles.
    #[arg(long, conflicts_with = "atlas")]
    pub plain: bool,
    /// Draw one built-in tile per zone (its 3x3 cells, the 512-state procedural tileset)
    /// instead of the default corner tiles (four per zone, each chosen by its four corner
    /// cells on the dual grid). Always so with --reference, whose zones disagree at borders.
    #[arg(long, conflicts_with_all = ["atlas", "plain"])]
    pub zone_tiles: bool,
    /// Change one setting by its path in the `ZoneConfig` JSON, after the other flags
    /// (repeatable): `--set noise.octaves=3`, `--set threshold.fill=0.5`, `--set mode=seamless`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<Override>,
    /// Shared flags (--seed, --count, --out, --format, --quiet).
    #[command(flatten)]
    pub common: CommonArgs,
}

/// Subcommands of `zones`.
#[derive(Subcommand, Debug)]
pub enum Action {
    /// Write the machine-drawn reference atlas that an artist repaints.
    Atlas(AtlasArgs),
}

/// `levelgen zones atlas`.
#[derive(clap::Args, Debug)]
pub struct AtlasArgs {
    /// The 102-tile symmetry-reduced atlas (17x6) instead of all 512 states (32x16).
    #[arg(long)]
    pub reduced: bool,
    /// The 16 built-in corner tiles (4x4, in the order `zones --atlas` reads a corner atlas,
    /// zone-size / 2 px each) instead of a zone atlas.
    #[arg(long, conflicts_with_all = ["reduced", "builtin", "biomes"])]
    pub corners: bool,
    /// Tile side in pixels (a multiple of 3).
    #[arg(long, default_value_t = 60)]
    pub zone_size: u32,
    /// The built-in procedural tiles instead of the numbered reference drawing (with
    /// --reduced, their direction-free art, which the flips of the reduced tileset keep right).
    #[arg(long)]
    pub builtin: bool,
    /// A biome atlas: one atlas per terrain (water, grass, rock) stacked top to bottom, as
    /// `zones --biomes --atlas` reads it (with --builtin, in each terrain's colours).
    #[arg(long)]
    pub biomes: bool,
    /// Output PNG (`-` for stdout).
    #[arg(long)]
    pub out: PathBuf,
    /// Print nothing but errors (no `wrote PATH` line).
    #[arg(long, short)]
    pub quiet: bool,
    /// Kept for symmetry with the other subcommands: the file written is printed anyway.
    #[arg(long, short, conflicts_with = "quiet")]
    pub verbose: bool,
}

fn parse_origin(text: &str) -> Result<(i64, i64), CliError> {
    let err = || {
        CliError::input_msg(format!(
            "--origin {}: expected X,Y zone coordinates",
            grid_core::text::excerpt(text)
        ))
    };
    let (x, y) = text.split_once(',').ok_or_else(err)?;
    Ok((
        x.trim().parse().map_err(|_| err())?,
        y.trim().parse().map_err(|_| err())?,
    ))
}

/// The options the flags name (zone-tiles' one builder of the settings).
pub fn options(args: &Args) -> ZoneOptions {
    ZoneOptions {
        noise: args.noise,
        distance: args.distance,
        worley: args.worley,
        scale: args.scale,
        octaves: args.octaves,
        persistence: args.persistence,
        threshold: args.threshold,
        fill: args.fill,
        reference: args.reference,
        structure: args.structure,
        connected: args.connected.unwrap_or_default(),
        zone_size: args.zone_size,
        stride: args.stride,
    }
}

/// The generator configuration the flags describe (before `--set`).
pub fn config(args: &Args) -> Result<ZoneConfig, CliError> {
    options(args).config().map_err(CliError::input)
}

/// What `levelgen zones` writes: PNG (its own picture, the default in a directory), the
/// zone-state JSON, TMX (corner tiles with a corner wangset by default), LDtk (corner
/// tiles) and the cell map as text.
pub const FORMATS: Formats = Formats {
    generator: "zones",
    known: &["png", "json", "tmx", "ldtk", "txt"],
    dir: "png",
    stdout: "txt",
};

/// Runs `levelgen zones`.
pub fn run(args: Args) -> Result<(), CliError> {
    if let Some(Action::Atlas(a)) = &args.action {
        return run_atlas(a);
    }
    let c = &args.common;
    let plan = c.plan("zones", &FORMATS)?;
    let (w, h) = super::common::parse_size(&args.size)
        .and_then(|(w, h)| match (u32::try_from(w), u32::try_from(h)) {
            (Ok(w), Ok(h)) => Ok((w, h)),
            _ => Err(format!("{w}x{h}: too many zones (at most 65536 per side)")),
        })
        .map_err(|e| CliError::input_msg(format!("--size {e}")))?;
    let (ox, oy) = parse_origin(&args.origin)?;
    let corner_atlas = match &args.atlas {
        Some(p) if corner::atlas::is_corner_file(p).map_err(CliError::input)? => {
            if args.biomes {
                return Err(CliError::input_msg(format!(
                    "--atlas {}: a corner atlas (4x4 tiles) draws wall and floor only; with \
                     --biomes give a biome atlas (`levelgen zones atlas --builtin --biomes`)",
                    p.display()
                )));
            }
            Some((CornerAtlas::load(p).map_err(CliError::input)?, p.as_path()))
        }
        _ => None,
    };
    let atlas = match &args.atlas {
        _ if corner_atlas.is_some() => None,
        Some(p) if args.biomes => {
            Some((Atlas::load_biomes(p).map_err(CliError::input)?, p.as_path()))
        }
        Some(p) => Some((
            vec![Atlas::load(p, None, None).map_err(CliError::input)?],
            p.as_path(),
        )),
        None => None,
    };
    let cfg = settings_with_overrides(config(&args)?, &args.set)?;
    let biomes = args.biomes.then(BiomeConfig::default);
    // Every limit is checked before anything is generated or allocated.
    cfg.validate().map_err(CliError::input)?;
    cfg.check_window(ZoneRect::new(ox, oy, w, h))
        .map_err(CliError::input)?;
    if plan.format() == "png" {
        let zone = match (&corner_atlas, &atlas) {
            (Some((a, _)), _) => 2 * a.size(),
            (None, Some((a, _))) => a.first().map_or(cfg.zone_size, Atlas::zone_size),
            (None, None) => cfg.zone_size,
        };
        zone_tiles::limits::check_image(u64::from(w), u64::from(h), zone)
            .map_err(CliError::input)?;
    }
    let corners = !args.zone_tiles
        && !args.plain
        && atlas.is_none()
        && corner_atlas.is_none()
        && cfg.mode == Mode::Seamless;
    if plan.format() == "ldtk" && !corners && corner_atlas.is_none() {
        return Err(CliError::input_msg(LDTK_NEEDS_CORNERS));
    }
    let out = Output::guarding(args.atlas.as_deref());
    let msg = c.messages();
    // Worlds are generated in parallel and written in seed order.
    c.batch("zones").for_each_ordered(
        || (),
        |_, seed| {
            World::new(cfg, biomes, seed).and_then(|streamer| {
                let world = streamer.generator().generate_par(ZoneRect::new(ox, oy, w, h))?;
                Ok((world, streamer))
            })
        },
        |seed, world| -> Result<(), CliError> {
        let (world, streamer) = world.map_err(CliError::input)?;
        let m = border_mismatch(&world.states);
        let mut distinct = [false; 512];
        for s in world.states.as_slice() {
            distinct[s.index() as usize] = true;
        }
        msg.summary(format!(
            "seed {seed}: {w}x{h} zones, {} distinct states, border mismatch {:.1}% of zone pairs ({} mode)",
            distinct.iter().filter(|&&d| d).count(),
            100.0 * m.rate(),
            match cfg.mode {
                Mode::Reference => "reference",
                Mode::Seamless => "seamless",
            }
        ));
        let look = match (&corner_atlas, &atlas, args.plain) {
            (Some((a, path)), _, _) => Look::CornerAtlas(a, path, &streamer),
            (None, Some((a, path)), _) => Look::Atlas(a, path, &streamer),
            (None, None, true) => Look::Plain,
            (None, None, false) if corners => Look::Corners(&streamer),
            (None, None, false) => Look::Procedural(&streamer),
        };
        let target = plan.target(seed);
        write_world(&out, &world, &target, plan.format(), &look, args.biomes)?;
        msg.wrote(&target);
        Ok(())
        },
    )?;
    msg.finish();
    Ok(())
}

/// Why `.ldtk` output is refused without the corner tiles.
const LDTK_NEEDS_CORNERS: &str = "LDtk output draws corner tiles: it needs a seamless world \
     (no --reference), no --plain or --zone-tiles, and no --atlas but a corner atlas";

/// How a PNG is painted.
enum Look<'a> {
    /// An artist's atlas (with biomes, one per terrain), the PNG file it was read from, and
    /// the world that knows the terrains.
    Atlas(&'a [Atlas], &'a std::path::Path, &'a World),
    /// Black and white cells.
    Plain,
    /// The built-in procedural tiles, one per zone (with biomes, when asked for).
    Procedural(&'a World),
    /// The built-in corner tiles on the dual grid (with biomes, when asked for).
    Corners(&'a World),
    /// An artist's 16-tile corner atlas, the PNG file it was read from, and the world.
    CornerAtlas(&'a CornerAtlas, &'a std::path::Path, &'a World),
}

fn write_world(
    out: &Output,
    world: &zone_tiles::ZoneWorld,
    target: &Target,
    format: &str,
    look: &Look<'_>,
    biomes: bool,
) -> Result<(), CliError> {
    let zone_err = |e: zone_tiles::ZoneError| match e {
        zone_tiles::ZoneError::Write { .. } => CliError::output(e),
        _ => CliError::input(e),
    };
    match format {
        "png" => {
            let img = match look {
                Look::Atlas(a, _, streamer) if biomes => streamer.paint_with_atlases(world, a),
                Look::Atlas(a, _, _) => paint(world, &a[0]),
                Look::Plain => black_and_white(world, world.zone_size),
                Look::Procedural(streamer) => streamer.paint(world),
                Look::Corners(streamer) => streamer.paint_corners(world),
                Look::CornerAtlas(a, _, streamer) => {
                    corner::world_keys(world, streamer.biomes()).and_then(|keys| a.paint(&keys))
                }
            }
            .map_err(zone_err)?;
            let png = grid_core::export::encode_png(img.width(), img.height(), img.as_raw())
                .map_err(CliError::output_msg)?;
            out.write(target, &png)
        }
        "json" => out.write(target, state_grid_json(world).as_bytes()),
        "txt" if *target == Target::Stdout => out.write(
            target,
            format!("{}\n", grid_core::export::to_text(world).trim_end()).as_bytes(),
        ),
        "tmx" => match target {
            Target::File(path) => out.write_files(path, |tmp| match look {
                Look::Corners(streamer) => {
                    let grid = corner::world_keys(world, streamer.biomes()).map_err(zone_err)?;
                    corner::export::write_tmx(&grid, streamer.corner_tiles(), tmp).map_err(zone_err)
                }
                Look::CornerAtlas(a, source, streamer) => {
                    let grid = corner::world_keys(world, streamer.biomes()).map_err(zone_err)?;
                    corner::atlas::write_tmx(&grid, a, tmp, source).map_err(zone_err)
                }
                Look::Procedural(streamer) if biomes => {
                    write_tmx_builtin(world, streamer, tmp).map_err(zone_err)
                }
                Look::Atlas(a, source, streamer) if biomes => {
                    write_tmx_terrains_file(world, streamer, tmp, a, source).map_err(zone_err)
                }
                Look::Atlas(a, source, _) => {
                    write_tmx_with_atlas_file(world, tmp, &a[0], source).map_err(zone_err)
                }
                _ => write_tmx(world, tmp, None).map_err(zone_err),
            }),
            Target::Stdout => Err(CliError::input_msg("a .tmx map cannot go to stdout")),
        },
        "ldtk" => match (target, look) {
            (Target::File(path), Look::Corners(streamer)) => out.write_files(path, |tmp| {
                let nodes = corner::nodes(world, streamer.biomes()).map_err(zone_err)?;
                let grid = corner::keys(&nodes, 2 * world.origin.0, 2 * world.origin.1);
                corner::export::write_ldtk(&nodes, &grid, streamer.corner_tiles(), tmp)
                    .map_err(zone_err)
            }),
            (Target::File(path), Look::CornerAtlas(a, source, streamer)) => {
                out.write_files(path, |tmp| {
                    let nodes = corner::nodes(world, streamer.biomes()).map_err(zone_err)?;
                    let grid = corner::keys(&nodes, 2 * world.origin.0, 2 * world.origin.1);
                    corner::atlas::write_ldtk(&nodes, &grid, a, tmp, source).map_err(zone_err)
                })
            }
            (Target::Stdout, _) => Err(CliError::input_msg("an .ldtk project cannot go to stdout")),
            _ => Err(CliError::input_msg(LDTK_NEEDS_CORNERS)),
        },
        _ => write_generic(out, world, target, format, &ExportOptions::default()),
    }
}

fn run_atlas(a: &AtlasArgs) -> Result<(), CliError> {
    let target = Target::from_arg(&a.out);
    if let Target::File(path) = &target
        && extension(path) != "png"
    {
        return Err(CliError::input_msg(format!(
            "--out {}: an atlas is a PNG image; give a .png file or `-`",
            path.display()
        )));
    }
    if a.corners {
        let img = CornerAtlas::builtin(a.zone_size)
            .map_err(CliError::input)?
            .to_image();
        return write_atlas_png(a, &target, (img.width(), img.height()), img.as_raw());
    }
    let kind = if a.reduced {
        AtlasKind::Reduced
    } else {
        AtlasKind::Full
    };
    let styles: Vec<Style> = if a.biomes {
        Terrain::ALL.iter().map(|t| t.style()).collect()
    } else {
        vec![Style::DUNGEON]
    };
    let mut blocks = Vec::with_capacity(styles.len());
    for style in styles {
        let atlas = if a.builtin {
            let tiles = ProceduralTiles::new(a.zone_size, Geometry::Thirds, style)
                .map_err(CliError::input)?;
            match kind {
                AtlasKind::Full => tiles.full_atlas(),
                AtlasKind::Reduced => tiles.reduced_atlas(),
            }
        } else {
            Atlas::reference(kind, a.zone_size)
        }
        .map_err(CliError::input)?;
        blocks.push(atlas);
    }
    let img = Atlas::stack_image(&blocks);
    write_atlas_png(a, &target, (img.width(), img.height()), img.as_raw())
}

/// Writes an atlas image for `zones atlas`.
fn write_atlas_png(
    a: &AtlasArgs,
    target: &Target,
    (w, h): (u32, u32),
    rgb: &[u8],
) -> Result<(), CliError> {
    let png = grid_core::export::encode_png(w, h, rgb).map_err(CliError::output_msg)?;
    Output::new().write(target, &png)?;
    if !a.quiet
        && let Target::File(p) = target
    {
        super::output::note(format!("wrote {}", p.display()));
    }
    Ok(())
}
