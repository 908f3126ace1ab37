//! Step 0: the template and config formats (serde), as MapGen-KorGE writes them, plus the
//! fields a map designer expects (zone kind, castle owner and faction, treasure value bands).
//!
//! Decoding is strict like the reference (kotlinx.serialization defaults): unknown keys are
//! errors and enum values are the exact upper-case names. Every field is documented in
//! `docs/heroes.md`.

use crate::error::HeroesError;
use grid_core::LevelRng;
use grid_core::rand::RngExt;
use serde::{Deserialize, Serialize};

/// An inclusive integer range `{"min": a, "max": b}`, drawn **per use** (the reference drew it
/// once per object, so every consumer shared one number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomRange {
    /// Smallest value (inclusive).
    pub min: i32,
    /// Largest value (inclusive); must be `>= min` (checked by validation).
    pub max: i32,
}

impl RandomRange {
    /// The range holding only `v`.
    pub const fn fixed(v: i32) -> Self {
        Self { min: v, max: v }
    }

    /// A fresh draw in `min..=max` (`min` if the range is inverted; validation rejects that).
    pub fn draw(&self, rng: &mut LevelRng) -> i32 {
        if self.max <= self.min {
            self.min
        } else {
            rng.random_range(self.min..=self.max)
        }
    }
}

/// A boolean written `{"value": true|false}`; `{}` is false (as in the reference).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomBoolean {
    /// The value.
    #[serde(default)]
    pub value: bool,
}

impl RandomBoolean {
    const fn yes() -> Self {
        Self { value: true }
    }
}

/// Terrain of a zone; the ordinal is Pocket Heroes' `SURF_TYPE` written into `.hmm` nodes.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Surface {
    Water,
    Sand,
    Dirt,
    Grass,
    Swamp,
    Lava,
    Wasteland,
    Desert,
    Snow,
    Ndesert,
    Pavement,
    Nwasteland,
    Count,
    /// Drawn per map from the decoratable surfaces.
    Random,
}

impl Surface {
    /// The surfaces a generated zone may have (those with 1x1 obstacle avatars).
    pub const DECORATABLE: [Surface; 9] = [
        Surface::Sand,
        Surface::Dirt,
        Surface::Grass,
        Surface::Swamp,
        Surface::Lava,
        Surface::Wasteland,
        Surface::Desert,
        Surface::Snow,
        Surface::Ndesert,
    ];

    /// The `SURF_TYPE` ordinal.
    pub fn ordinal(self) -> u8 {
        self as u8
    }

    /// Whether the exporter has obstacle avatars for it.
    pub fn decoratable(self) -> bool {
        Self::DECORATABLE.contains(&self)
    }

    /// PH's `SURF_COLOR` (GRASS as in PH, 24,97,16).
    pub fn color(self) -> [u8; 3] {
        match self {
            Surface::Water => [8, 28, 128],
            Surface::Sand => [214, 182, 148],
            Surface::Dirt => [99, 48, 8],
            Surface::Grass => [24, 97, 16],
            Surface::Swamp => [0, 44, 0],
            Surface::Lava => [48, 48, 48],
            Surface::Wasteland => [165, 85, 16],
            Surface::Desert => [181, 138, 24],
            Surface::Snow => [220, 220, 220],
            Surface::Ndesert => [192, 160, 0],
            Surface::Pavement => [160, 160, 160],
            Surface::Nwasteland => [192, 192, 160],
            Surface::Count | Surface::Random => [250, 250, 250],
        }
    }
}

/// A mine's resource (`MINERAL_TYPE` ordinals; `RANDOM` is drawn per mine).
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Resource {
    Gold,
    Ore,
    Wood,
    Mercury,
    Gems,
    Crystal,
    Sulfur,
    Random,
}

impl Resource {
    /// The seven real resources in ordinal order.
    pub const REAL: [Resource; 7] = [
        Resource::Gold,
        Resource::Ore,
        Resource::Wood,
        Resource::Mercury,
        Resource::Gems,
        Resource::Crystal,
        Resource::Sulfur,
    ];
}

/// A castle's faction (`CTL_TYPE` ordinals; `RANDOM` = 6 is a valid random castle in PH).
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Fraction {
    Citadel,
    Stronghold,
    Tower,
    Dungeon,
    Fortress,
    Necropolis,
    #[default]
    Random,
}

/// How two zones are joined.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum ConnectionType {
    /// A passage across the shared border, with a road through it (as every passage has).
    Road,
    /// A passage across the shared border, with a road through it (a portal pair if the zones
    /// do not touch).
    #[default]
    Regular,
    /// Always a portal pair.
    Portal,
}

/// What a zone is for (added; the reference has no zone kinds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ZoneKind {
    /// A player's home: needs a castle with an owner.
    PlayerStart,
    /// A computer player's home (VCMI's `cpuStart`): needs a castle with an owner, whose
    /// player the `.hmm` declares computer-only.
    CpuStart,
    /// An ordinary zone with castles, mines and treasures.
    #[default]
    Treasure,
    /// A crossing: no random castles or mines, few obstacles.
    Junction,
}

/// How strong a zone's guards are (added, after VCMI's `monsters`): with it, treasure and
/// mine guards follow VCMI's value-to-strength rule ([`crate::strength`]) instead of the
/// reference's fixed levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum MonsterStrength {
    /// No treasure or mine guards (connection guards stay).
    None,
    /// Weaker guards, fewer guarded piles.
    Weak,
    /// The standard.
    Normal,
    /// Stronger guards, more guarded piles.
    Strong,
}

/// A treasure value band (added): `density` piles per 1000 zone cells, each worth a value
/// drawn in `min..=max` (in gold units; the value picks the treasure kind and guard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreasureBand {
    /// Lowest pile value.
    pub min: u32,
    /// Highest pile value.
    pub max: u32,
    /// Piles per 1000 cells of the zone.
    pub density: u32,
}

/// An explicit mine of a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateMine {
    /// The resource (`RANDOM` is drawn).
    pub resource: Resource,
    /// Owner: −1 neutral, 0..5 a player who owns a castle.
    #[serde(default = "minus_one")]
    pub player: i32,
    /// Guard level; outside −1..6 it comes from `config.mineGuardLevel`; −1 means no guard.
    #[serde(default = "minus_two_range")]
    pub guard_level: RandomRange,
    /// The mine's value in gold (added): when set and the zone has `monsters`, the guard's
    /// strength comes from it ([`crate::strength`]) instead of `guardLevel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_value: Option<u32>,
}

/// A castle of a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateCastle {
    /// Faction (`RANDOM` by default).
    #[serde(default)]
    pub fraction: Fraction,
    /// Owner: −1 neutral, 0..5 a player (RED, GREEN, BLUE, CYAN, MAGENTA, YELLOW).
    #[serde(default = "minus_one")]
    pub player: i32,
}

impl Default for TemplateCastle {
    /// A neutral castle of random faction (as `{}` in JSON).
    fn default() -> Self {
        Self {
            fraction: Fraction::Random,
            player: -1,
        }
    }
}

/// A connection between two zones (by zone `index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateConnection {
    /// One zone's index.
    pub first: i32,
    /// The other zone's index.
    pub second: i32,
    /// Passage or portal.
    #[serde(default, rename = "type")]
    pub kind: ConnectionType,
    /// Guard level: −1 takes `config.connectionGuardLevel`, −2 or lower means no guard, 0..6.
    #[serde(default = "minus_one_range")]
    pub guard_level: RandomRange,
    /// Guard value (added, VCMI's `guard`): when set, the guard's creature level and count
    /// come from it ([`crate::strength`]) and `guardLevel` is not used; 0 means no guard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_value: Option<u32>,
    /// An open border without a guard (added, VCMI's `wide`): the passage opens up to
    /// [`crate::passages::WIDE_CELLS`] cells of the shared border and no guard stands in it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wide: bool,
}

/// One zone of a template.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateZone {
    /// Terrain of the whole zone.
    pub surface: Surface,
    /// Relative **area** weight (this crate balances areas to it within 15%).
    pub size: i32,
    /// The zone's id, used by connections; each index once.
    pub index: i32,
    /// Treasure budget (the reference's richness; also sets the number of visitables).
    #[serde(default = "fourteen")]
    pub richness: i32,
    /// Number of mines wanted; random mines are added until there are this many.
    #[serde(default = "mines_default")]
    pub mines_num: RandomRange,
    /// Explicit mines (always placed).
    #[serde(default)]
    pub mines: Vec<TemplateMine>,
    /// Number of default castles when `castles` is empty.
    #[serde(default = "castles_default")]
    pub castles_num: RandomRange,
    /// Explicit castles: **all** are placed (the reference placed only the first).
    #[serde(default)]
    pub castles: Vec<TemplateCastle>,
    /// Parsed for compatibility; unused, as in the reference.
    #[serde(default)]
    pub connections: Vec<TemplateConnection>,
    /// What the zone is for (added).
    #[serde(default)]
    pub kind: ZoneKind,
    /// Treasure value bands (added); when empty the `richness` budget rule is used.
    #[serde(default)]
    pub treasures: Vec<TreasureBand>,
    /// Guard strength of the zone's treasures and mines (added); unset keeps the reference's
    /// rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monsters: Option<MonsterStrength>,
}

/// A template: zones and the connections between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// Map name, written into the `.hmm`.
    pub name: String,
    /// The zones.
    pub zones: Vec<TemplateZone>,
    /// The edges of the zone graph.
    pub connections: Vec<TemplateConnection>,
}

/// Generator settings (the reference's config; same keys and defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", default)]
pub struct Config {
    /// Kept for compatibility; the CLI's `--out` decides where files go.
    pub export_path: String,
    /// 32, 64, 128 or 256 (the CLI's `--size` overrides it).
    pub map_size: u32,
    /// Random mines start with ORE and WOOD.
    pub prioritize_base_mines: RandomBoolean,
    /// Level for connections whose `guardLevel` is −1.
    pub connection_guard_level: RandomRange,
    /// Level for mines whose `guardLevel` is outside −1..6.
    pub mine_guard_level: RandomRange,
    /// ORE and WOOD mine guards are one level lower.
    pub decrease_guard_level_at_base_mine_by_one: RandomBoolean,
    /// Players' main castles get a hero (the `.hmm` "create hero" byte).
    pub spawn_hero_at_castle: RandomBoolean,
    /// Portals are road vertices too.
    pub connect_teleport_with_road: RandomBoolean,
    /// Chances of RESOURCE, CAMPFIRE, CHEST, ARTIFACT treasures (4 values summing to 1).
    pub treasure_chance: Vec<f64>,
    /// Richness each of those costs (4 values).
    pub treasure_cost: Vec<i32>,
    /// Creature count per guard level 0..6 (7 ranges, drawn per guard; 0 = random).
    pub guard_count: Vec<RandomRange>,
    /// Kept for compatibility (the CLI always writes what `--out` asks).
    pub auto_export: bool,
    /// Kept for compatibility.
    pub generate_all: bool,
    /// Draw roads (step 9).
    pub add_roads: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            export_path: "exported.hmm".into(),
            map_size: 64,
            prioritize_base_mines: RandomBoolean::yes(),
            connection_guard_level: RandomRange { min: 1, max: 3 },
            mine_guard_level: RandomRange::fixed(-1),
            decrease_guard_level_at_base_mine_by_one: RandomBoolean::yes(),
            spawn_hero_at_castle: RandomBoolean::default(),
            connect_teleport_with_road: RandomBoolean::default(),
            treasure_chance: vec![0.72, 0.15, 0.10, 0.03],
            treasure_cost: vec![1, 2, 3, 5],
            guard_count: vec![RandomRange { min: 1, max: 100 }; 7],
            auto_export: true,
            generate_all: true,
            add_roads: true,
        }
    }
}

fn minus_one() -> i32 {
    -1
}
fn fourteen() -> i32 {
    14
}
fn minus_two_range() -> RandomRange {
    RandomRange::fixed(-2)
}
fn minus_one_range() -> RandomRange {
    RandomRange::fixed(-1)
}
fn mines_default() -> RandomRange {
    RandomRange { min: 0, max: 2 }
}
fn castles_default() -> RandomRange {
    RandomRange { min: 0, max: 1 }
}

/// Largest template or config text accepted, in bytes (checked before parsing).
pub const MAX_INPUT_BYTES: usize = 4 << 20;

/// Keys whose values are arrays in the template and config formats. Anywhere else an array
/// is the wrong type (serde would otherwise read `[1, 3]` as a `{min, max}` range and `[]`
/// as a config of defaults).
const ARRAY_KEYS: [&str; 8] = [
    "zones",
    "connections",
    "mines",
    "castles",
    "treasures",
    "treasureChance",
    "treasureCost",
    "guardCount",
];

/// A serde_json error as [`HeroesError::Json`]: the location once, and the parser's message
/// (which may quote the input) through [`grid_core::text::excerpt_with`].
pub(crate) fn json_err(what: &'static str, e: serde_json::Error) -> HeroesError {
    let text = e.to_string();
    let message = match text.rsplit_once(" at line ") {
        Some((m, _)) if e.line() > 0 => m.to_string(),
        _ => text,
    };
    HeroesError::Json {
        what,
        line: e.line(),
        column: e.column(),
        message: grid_core::text::excerpt_with(&message, 160),
    }
}

/// Rejects arrays where the format has objects or plain values (see [`ARRAY_KEYS`]) and a
/// document that is not an object. Iterative (a stack), so nesting depth cannot overflow.
fn check_shape(root: &serde_json::Value, what: &'static str) -> Result<(), HeroesError> {
    use serde_json::Value;
    let wrong = |at: String, expected, v: &Value| HeroesError::WrongType {
        what,
        at,
        expected,
        found: grid_core::text::json_kind(v),
    };
    if !root.is_object() {
        return Err(wrong("$".into(), "an object", root));
    }
    let mut stack: Vec<(String, &Value, bool)> = vec![("$".into(), root, false)];
    while let Some((at, v, array_allowed)) = stack.pop() {
        match v {
            Value::Array(_) if !array_allowed => {
                return Err(wrong(at, "an object or a single value", v));
            }
            Value::Array(items) => {
                for (k, item) in items.iter().enumerate() {
                    stack.push((format!("{at}[{k}]"), item, false));
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let plain = key.len() <= 40
                        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                    let at = if plain {
                        format!("{at}.{key}")
                    } else {
                        format!("{at}.{}", grid_core::text::excerpt(key))
                    };
                    stack.push((at, item, ARRAY_KEYS.contains(&key.as_str())));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Parses `text` strictly as `T`: size limit, JSON syntax, shape, then serde.
fn parse_strict<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &'static str,
) -> Result<T, HeroesError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(HeroesError::invalid(
            what,
            format!(
                "{} bytes, at most {MAX_INPUT_BYTES} are accepted",
                text.len()
            ),
        ));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| json_err(what, e))?;
    check_shape(&value, what)?;
    // Parsed again from the text (not the value) so errors keep their line and column.
    serde_json::from_str(text).map_err(|e| json_err(what, e))
}

impl Template {
    /// Parses a template (strict: unknown keys, lower-case enum names and values of the
    /// wrong JSON type are errors; at most [`MAX_INPUT_BYTES`]).
    pub fn from_json(text: &str) -> Result<Self, HeroesError> {
        parse_strict(text, "template")
    }

    /// The template as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl Config {
    /// Parses a config (strict like [`Template::from_json`]; missing keys take the
    /// reference's defaults, but the document must be an object).
    pub fn from_json(text: &str) -> Result<Self, HeroesError> {
        parse_strict(text, "config")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    #[test]
    fn parses_reference_shapes_and_defaults() {
        let t = Template::from_json(
            r#"{"name":"t","zones":[{"surface":"SNOW","size":50,"index":0,
            "mines":[{"resource":"ORE","guardLevel":{"min":-2,"max":-2}}],"castles":[{}]}],
            "connections":[]}"#,
        )
        .unwrap();
        let z = &t.zones[0];
        assert_eq!(z.richness, 14);
        assert_eq!(z.mines_num, RandomRange { min: 0, max: 2 });
        assert_eq!(z.castles[0].player, -1);
        assert_eq!(z.castles[0].fraction, Fraction::Random);
        assert_eq!(z.kind, ZoneKind::Treasure);
        assert_eq!(TemplateCastle::default(), z.castles[0]);
        let c = Config::from_json("{\"mapSize\":128,\"addRoads\":false}").unwrap();
        assert_eq!(c.map_size, 128);
        assert!(!c.add_roads);
        assert!(c.prioritize_base_mines.value);
        assert!(
            !Config::from_json("{\"spawnHeroAtCastle\":{}}")
                .unwrap()
                .spawn_hero_at_castle
                .value
        );
    }

    #[test]
    fn strict_like_the_reference() {
        let e = Template::from_json(r#"{"name":"t","zones":[],"connections":[],"extra":1}"#)
            .unwrap_err();
        assert!(e.to_string().contains("extra"), "{e}");
        let e = Template::from_json(
            r#"{"name":"t","zones":[{"surface":"snow","size":1,"index":0}],"connections":[]}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("snow"), "{e}");
    }

    #[test]
    fn ranges_are_drawn_per_use() {
        let r = RandomRange { min: 1, max: 100 };
        let mut rng = Seed(3).rng();
        let draws: Vec<i32> = (0..20).map(|_| r.draw(&mut rng)).collect();
        assert!(draws.iter().all(|v| (1..=100).contains(v)));
        assert!(draws.windows(2).any(|w| w[0] != w[1]));
        assert_eq!(RandomRange { min: 5, max: 2 }.draw(&mut rng), 5);
    }
}
