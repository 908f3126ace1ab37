//! Stage 3a: the generators a search varies. A candidate's document (the skeleton with its
//! variations written in) is built into a [`Generator`], which makes one map per seed and
//! measures what only that generator knows (its *extras*).
//!
//! | spec key | document | extras |
//! |---|---|---|
//! | `marahel` | a Marahel script | none |
//! | `heroes` | `{"template": TEMPLATE, "size": 64, "config": CONFIG}` (`size` 32, 64, 128 or 256, default 64; `config` optional, default the crate's) | `max_zone_area_error`, `mean_zone_area_error`, `reachable_objects`, `objects` ([`heroes_zones::measure`]) |
//! | `mario` | `{"theme": "overground", "level": LEVEL_CONFIG}` (the built-in library of that theme; `level` a [`mario_rooms::LevelConfig`], default its defaults) | `playable` (1 or 0: the playability checker's verdict, run here when the settings skip it), `enemies_per_100`, `gaps`, `jumps` ([`mario_rooms::Features`]) |
//! | `zones` | `{"window": 16, "config": ZONE_CONFIG}` (a window of `window` x `window` zones at the origin, 1 to 256; `config` a [`zone_tiles::ZoneConfig`]) | `mismatched_pairs`, `mismatched_cells` ([`zone_tiles::seamless::border_mismatch`]) |
//!
//! The map measured by the common metrics is the generator's tile map: Marahel's entities,
//! the Heroes cell map, the Mario level, the zones' cell-level on/off map.

use crate::error::SearchError;
use grid_core::{TileId, TileMap};
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// Largest zones window side a search document may ask for.
pub const MAX_ZONES_WINDOW: u32 = 256;

/// One map and the generator's own measures of it (in [`Kind::extras`] order).
pub struct Generated {
    /// The map.
    pub map: Box<dyn TileMap + Send>,
    /// The extras' values.
    pub extras: Vec<f64>,
}

impl std::fmt::Debug for Generated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generated")
            .field("width", &self.map.width())
            .field("height", &self.map.height())
            .field("extras", &self.extras)
            .finish()
    }
}

impl Generated {
    /// The map's tile ids, row by row.
    pub fn cells(&self) -> Vec<TileId> {
        let (w, h) = (self.map.width(), self.map.height());
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| self.map.tile(x, y))
            .collect()
    }
}

/// A built candidate: makes maps by seed.
pub trait Generator: Send + Sync + std::fmt::Debug {
    /// The map of `seed` and its extras.
    fn generate(&self, seed: u64) -> Result<Generated, String>;
    /// The largest map this generator makes, `(width, height)` (for the memory limit of the
    /// `diversity` metric).
    fn max_size(&self) -> (usize, usize);
}

/// Which generator a spec searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Marahel scripts.
    Marahel,
    /// Heroes-zones templates.
    Heroes,
    /// Mario-rooms level settings.
    Mario,
    /// Zone-tiles settings.
    Zones,
}

const HEROES_EXTRAS: [&str; 4] = [
    "max_zone_area_error",
    "mean_zone_area_error",
    "reachable_objects",
    "objects",
];
const MARIO_EXTRAS: [&str; 4] = ["playable", "enemies_per_100", "gaps", "jumps"];
const ZONES_EXTRAS: [&str; 2] = ["mismatched_pairs", "mismatched_cells"];

impl Kind {
    /// The spec key (`marahel`, `heroes`, `mario`, `zones`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Marahel => "marahel",
            Kind::Heroes => "heroes",
            Kind::Mario => "mario",
            Kind::Zones => "zones",
        }
    }

    /// The kind whose spec key is `name` ([`Kind::name`]).
    pub fn from_name(name: &str) -> Option<Kind> {
        [Kind::Marahel, Kind::Heroes, Kind::Mario, Kind::Zones]
            .into_iter()
            .find(|k| k.name() == name)
    }

    /// The generator's own metrics, by name.
    pub fn extras(self) -> &'static [&'static str] {
        match self {
            Kind::Marahel => &[],
            Kind::Heroes => &HEROES_EXTRAS,
            Kind::Mario => &MARIO_EXTRAS,
            Kind::Zones => &ZONES_EXTRAS,
        }
    }

    /// The passable tiles when the spec's `measure.passable` is left out: Marahel's
    /// `empty`; the Heroes walkable cells; every Mario cell Mario passes through (air,
    /// coins, markers, enemies); the zones' `off` cells.
    pub fn default_passable(self) -> Vec<String> {
        let names: Vec<&str> = match self {
            Kind::Marahel => vec!["empty"],
            Kind::Heroes => vec!["free", "approach", "road", "passage", "guard", "treasure"],
            Kind::Mario => mario_rooms::tiles::CHARS
                .iter()
                .filter(|c| {
                    use mario_rooms::tiles::TileClass;
                    matches!(c.class, TileClass::Empty | TileClass::Enemy)
                })
                .map(|c| c.name)
                .collect(),
            Kind::Zones => vec!["off"],
        };
        names.into_iter().map(String::from).collect()
    }

    /// The tile names of the maps of `doc` (what `count:` and `distance:` may name).
    pub fn entities(self, doc: &Value) -> Result<Vec<String>, SearchError> {
        let names = |legend: &grid_core::Legend| -> Vec<String> {
            legend.kinds().iter().map(|k| k.name.clone()).collect()
        };
        Ok(match self {
            Kind::Marahel => {
                let script = marahel::Script::from_value(doc)
                    .map_err(|e| SearchError::Skeleton(e.to_string()))?;
                script
                    .program()
                    .entities
                    .iter()
                    .map(|e| e.name.clone())
                    .collect()
            }
            Kind::Heroes => names(&heroes_zones::map::legend()),
            Kind::Mario => names(mario_rooms::tiles::legend()),
            Kind::Zones => names(&zone_tiles::world::cell_legend()),
        })
    }

    /// Builds the generator of `doc`; the message says what is wrong with it.
    pub fn build(self, doc: &Value) -> Result<Box<dyn Generator>, String> {
        match self {
            Kind::Marahel => marahel::Script::from_value(doc)
                .map(|s| Box::new(MarahelGen(s)) as Box<dyn Generator>)
                .map_err(|e| e.to_string()),
            Kind::Heroes => HeroesGen::build(doc).map(|g| Box::new(g) as Box<dyn Generator>),
            Kind::Mario => MarioGen::build(doc).map(|g| Box::new(g) as Box<dyn Generator>),
            Kind::Zones => ZonesGen::build(doc).map(|g| Box::new(g) as Box<dyn Generator>),
        }
    }

    /// What a found generator is written as, ready to run: the file (`best.json`) and, for
    /// generators whose command takes its settings as flags, the arguments (one per line, to
    /// be given with `xargs -a FILE levelgen GENERATOR`).
    ///
    /// | kind | file | arguments |
    /// |---|---|---|
    /// | marahel | the script (`levelgen marahel best.json`) | none |
    /// | heroes | the template (`levelgen heroes best.json`) | `--size N` (and `--config-set` lines for a `config`) |
    /// | mario | the [`mario_rooms::LevelConfig`] JSON | `--theme`, `--height`, `--length`, `--difficulty`, `--sequence`, `--no-check` as the settings say |
    /// | zones | the [`zone_tiles::ZoneConfig`] JSON | `--size WxW` and one `--set KEY=JSON` per setting |
    pub fn ready_to_run(self, doc: &Value) -> (Value, Option<String>) {
        let set_lines = |flag: &str, doc: Option<&Value>| -> String {
            let Some(Value::Object(map)) = doc else {
                return String::new();
            };
            map.iter()
                .map(|(k, v)| format!("{flag}\n'{k}={}'\n", v.to_string().replace('\'', "'\\''")))
                .collect()
        };
        match self {
            Kind::Marahel => (doc.clone(), None),
            Kind::Heroes => {
                let size = doc.get("size").cloned().unwrap_or(64.into());
                let args =
                    format!("--size\n{size}\n") + &set_lines("--config-set", doc.get("config"));
                (
                    doc.get("template").cloned().unwrap_or(Value::Null),
                    Some(args),
                )
            }
            Kind::Mario => {
                let level = doc
                    .get("level")
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Default::default()));
                let cfg: mario_rooms::LevelConfig =
                    serde_json::from_value(level.clone()).unwrap_or_default();
                (level, Some(mario_args(doc, &cfg)))
            }
            Kind::Zones => {
                let w = doc.get("window").and_then(Value::as_u64).unwrap_or(16);
                let args = format!("--size\n{w}x{w}\n") + &set_lines("--set", doc.get("config"));
                (
                    doc.get("config").cloned().unwrap_or(Value::Null),
                    Some(args),
                )
            }
        }
    }
}

fn mario_args(doc: &Value, cfg: &mario_rooms::LevelConfig) -> String {
    let theme = doc
        .get("theme")
        .and_then(Value::as_str)
        .unwrap_or("overground");
    let mut args = format!(
        "--theme\n{theme}\n--height\n{}\n--length\n{}\n",
        cfg.height, cfg.length
    );
    if let Some((a, b)) = cfg.difficulty {
        args.push_str(&format!("--difficulty\n{a}:{b}\n"));
    }
    let roles: Vec<&str> = cfg.sequence.iter().map(|s| s.role.as_str()).collect();
    if !roles.is_empty() {
        args.push_str(&format!("--sequence\n{}\n", roles.join(",")));
    }
    if !cfg.check_playability {
        args.push_str("--no-check\n");
    }
    args
}

/// Reads `doc[key]` as `T` (missing: `T::default()`), naming the key in errors.
fn field<T: serde::de::DeserializeOwned + Default>(doc: &Value, key: &str) -> Result<T, String> {
    match doc.get(key) {
        None => Ok(T::default()),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| {
            format!(
                "{key}: {}",
                grid_core::text::excerpt_with(&e.to_string(), 160)
            )
        }),
    }
}

/// Checks that `doc` is an object with only `keys`.
fn only_keys(doc: &Value, keys: &[&str]) -> Result<(), String> {
    let Value::Object(map) = doc else {
        return Err(format!("expected an object with keys {}", keys.join(", ")));
    };
    match map.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(k) => Err(format!(
            "unknown key {} (known: {})",
            grid_core::text::excerpt(k),
            keys.join(", ")
        )),
        None => Ok(()),
    }
}

#[derive(Debug)]
struct MarahelGen(marahel::Script);

impl Generator for MarahelGen {
    fn generate(&self, seed: u64) -> Result<Generated, String> {
        let map = self.0.generate(seed).map_err(|e| e.to_string())?;
        Ok(Generated {
            map: Box::new(map),
            extras: Vec::new(),
        })
    }

    fn max_size(&self) -> (usize, usize) {
        self.0.size_range().1
    }
}

#[derive(Debug)]
struct HeroesGen {
    template: heroes_zones::Template,
    config: heroes_zones::Config,
    size: u32,
}

impl HeroesGen {
    fn build(doc: &Value) -> Result<Self, String> {
        only_keys(doc, &["template", "size", "config"])?;
        let template = doc.get("template").ok_or("template: missing")?;
        let template = heroes_zones::Template::from_json(&template.to_string())
            .map_err(|e| format!("template: {e}"))?;
        let config = match doc.get("config") {
            None => heroes_zones::Config::default(),
            Some(c) => heroes_zones::Config::from_json(&c.to_string())
                .map_err(|e| format!("config: {e}"))?,
        };
        let size = match doc.get("size") {
            None => 64,
            Some(v) => v
                .as_u64()
                .filter(|s| [32, 64, 128, 256].contains(s))
                .ok_or_else(|| format!("size: {v} is not 32, 64, 128 or 256"))?
                as u32,
        };
        heroes_zones::validate::validate(&template, &config, size).map_err(|e| e.to_string())?;
        Ok(Self {
            template,
            config,
            size,
        })
    }
}

impl Generator for HeroesGen {
    fn generate(&self, seed: u64) -> Result<Generated, String> {
        let map = heroes_zones::generate(&self.template, &self.config, self.size, seed)
            .map_err(|e| e.to_string())?;
        let (max, mean) = heroes_zones::measure::area_errors(&map);
        let extras = vec![
            max,
            mean,
            heroes_zones::measure::reachable_objects(&map),
            map.objects.len() as f64,
        ];
        Ok(Generated {
            map: Box::new(map),
            extras,
        })
    }

    fn max_size(&self) -> (usize, usize) {
        (self.size as usize, self.size as usize)
    }
}

/// The built-in library of each theme, loaded once.
fn theme_library(theme: &str) -> Result<Arc<mario_rooms::Library>, String> {
    const THEMES: [&str; 4] = ["overground", "underground", "athletic", "castle"];
    static LIBRARIES: [OnceLock<Result<Arc<mario_rooms::Library>, String>>; 4] =
        [const { OnceLock::new() }; 4];
    let i = THEMES.iter().position(|t| *t == theme).ok_or_else(|| {
        format!(
            "theme: {} (known: {})",
            grid_core::text::excerpt(theme),
            THEMES.join(", ")
        )
    })?;
    LIBRARIES[i]
        .get_or_init(|| {
            mario_rooms::Library::builtin_theme(theme)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .clone()
}

#[derive(Debug)]
struct MarioGen {
    library: Arc<mario_rooms::Library>,
    config: mario_rooms::LevelConfig,
}

impl MarioGen {
    fn build(doc: &Value) -> Result<Self, String> {
        only_keys(doc, &["theme", "level"])?;
        let theme = match doc.get("theme") {
            None => "overground",
            Some(v) => v.as_str().ok_or("theme: expected a string")?,
        };
        let config: mario_rooms::LevelConfig = field(doc, "level")?;
        mario_rooms::assemble::check_config(&config).map_err(|e| format!("level: {e}"))?;
        Ok(Self {
            library: theme_library(theme)?,
            config,
        })
    }
}

impl Generator for MarioGen {
    fn generate(&self, seed: u64) -> Result<Generated, String> {
        let g =
            mario_rooms::generate(&self.library, &self.config, seed).map_err(|e| e.to_string())?;
        let report = match g.report {
            Some(r) => r,
            None => mario_rooms::playability::check(&g.level),
        };
        let f = mario_rooms::Features::of(&g.level);
        let extras = vec![
            f64::from(u8::from(report.playable)),
            f.enemies_per_100(),
            f.gaps as f64,
            report.jumps as f64,
        ];
        Ok(Generated {
            map: Box::new(g.level),
            extras,
        })
    }

    fn max_size(&self) -> (usize, usize) {
        // Levels grow with their content; the crate's cell limit bounds them.
        (mario_rooms::limits::MAX_CELLS, 1)
    }
}

#[derive(Debug)]
struct ZonesGen {
    config: zone_tiles::ZoneConfig,
    window: u32,
}

impl ZonesGen {
    fn build(doc: &Value) -> Result<Self, String> {
        only_keys(doc, &["window", "config"])?;
        let config: zone_tiles::ZoneConfig = field(doc, "config")?;
        let window = match doc.get("window") {
            None => 16,
            Some(v) => v
                .as_u64()
                .filter(|w| (1..=u64::from(MAX_ZONES_WINDOW)).contains(w))
                .ok_or_else(|| format!("window: {v} is outside 1..={MAX_ZONES_WINDOW}"))?
                as u32,
        };
        config
            .validate()
            .and_then(|()| config.check_window(zone_tiles::ZoneRect::new(0, 0, window, window)))
            .map_err(|e| format!("config: {e}"))?;
        Ok(Self { config, window })
    }
}

impl Generator for ZonesGen {
    fn generate(&self, seed: u64) -> Result<Generated, String> {
        let world = zone_tiles::ZoneGenerator::new(self.config, seed)
            .and_then(|g| g.generate(zone_tiles::ZoneRect::new(0, 0, self.window, self.window)))
            .map_err(|e| e.to_string())?;
        let m = zone_tiles::seamless::border_mismatch(&world.states);
        let frac = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let extras = vec![
            frac(m.mismatched, m.pairs),
            frac(m.cell_mismatched, m.cell_pairs),
        ];
        Ok(Generated {
            map: Box::new(world),
            extras,
        })
    }

    fn max_size(&self) -> (usize, usize) {
        let side = 3 * self.window as usize;
        (side, side)
    }
}
