//! The Pocket Heroes editor map format `.hmm` (specs/heroes.md c.1-c.9): a complete model of
//! versions 0x18 and 0x19 ([`HmmFile`]), a byte-exact reader ([`HmmFile::parse`]) and writer
//! ([`HmmFile::to_bytes`]), the export of a generated map ([`export()`]) and a validator
//! implementing the editor's checks ([`check::validate`]).

pub mod catalog;
pub mod check;
pub mod export;
pub mod ids;
mod read;
mod write;

pub use catalog::Catalog;
pub use check::{Report, reachability, validate};
pub use export::export;

/// The header key `EMAP_FILE_HDR_KEY` ("xR#v" on disk).
pub const KEY: u32 = 0x7623_5278;
/// The version this crate writes (`EMAP_FILE_VERSION`).
pub const VERSION: u32 = 0x19;

/// A cell position (`point`: s16 x, s16 y).
pub type Pos = (i16, i16);
/// An army: 7 × (creature type, count); type −1 is an empty slot.
pub type Army = [(i16, i32); 7];
/// The empty army.
pub const EMPTY_ARMY: Army = [(-1, 0); 7];

/// A text entry (version 0x19): key, type, one text per language bit set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEntry {
    /// Key, e.g. "Map name".
    pub key: String,
    /// `TextEntryType` (1 map name, 2 description, ...).
    pub tet: i16,
    /// Texts for each set bit of the language mask.
    pub texts: Vec<String>,
}

/// A timed event.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct TimeEvent {
    pub name: String,
    pub text: String,
    pub player_mask: u32,
    pub first_time: u32,
    pub repeat: i32,
    pub minerals: [i32; 7],
}

/// A player declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// `PLAYER_ID` 0..5.
    pub id: i8,
    /// `PLAYER_TYPE_MASK` 0..2.
    pub type_mask: i8,
    /// Main castle position and create-hero flag.
    pub main_castle: Option<(Pos, u8)>,
}

/// A hero.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Hero {
    pub proto: String,
    pub owner: i8,
    pub pos: Pos,
    pub custom_name: String,
    pub level: u32,
    pub experience: i32,
    pub skills: Vec<(i8, i8)>,
    pub artifacts: Vec<(u16, i16)>,
    pub furt_skills: Vec<(u16, i16)>,
    pub army: Army,
    pub custom_spells: u8,
    pub spells: Vec<u16>,
}

/// The type-specific tail of a map item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemTail {
    /// MINERAL (0): mineral type, amount (0 = random).
    Mineral(i8, i32),
    /// MANACRYSTAL (1): amount.
    Mana(i32),
    /// CAMPFIRE (2), CHEST (3), LAMP (6): nothing.
    Nothing,
    /// ARTIFACT (4): artifact id.
    Artifact(String),
    /// SPELLSCROLL (5): spell id.
    Spell(u16),
    /// KEYGUARD (7): key.
    Key(u8),
}

/// A map item (treasure).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct MapItem {
    pub kind: u8,
    pub pos: Pos,
    pub guard: Army,
    pub message: String,
    pub tail: ItemTail,
}

/// A guard (creature stack on the map).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Guard {
    pub creature: i16,
    pub count: i32,
    pub disposition: u8,
    pub not_grow: u8,
    pub pos: Pos,
    pub message: String,
}

/// A reward of a map event.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Reward {
    pub kind: i32,
    /// Artifact id when `kind == 7`.
    pub artifact: Option<String>,
    pub fparam: i32,
    pub sparam: i32,
}

/// A map event.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct MapEvent {
    pub pos: Pos,
    pub guard: Army,
    pub reward_msg: String,
    pub attack_msg: String,
    pub player_mask: u32,
    pub rewards: Vec<Reward>,
}

/// A visitable, ownerable (with `owner`) or castle object.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Visitable {
    pub id: String,
    pub pos: Pos,
    pub guard: Army,
    pub message: String,
}

/// An ownerable (mine, observation tower).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Ownerable {
    pub id: String,
    pub owner: i8,
    pub pos: Pos,
    pub guard: Army,
}

/// A castle.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Castle {
    pub id: String,
    pub ctype: u8,
    pub owner: i8,
    pub pos: Pos,
    pub garrison: Army,
    pub name: String,
    pub buildings: Vec<(u8, u8)>,
}

/// A whole `.hmm` file (versions 0x18 and 0x19; every field kept, so parse → write is
/// byte-identical).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HmmFile {
    /// 0x18 or 0x19.
    pub version: u32,
    /// 0..3 for 32, 64, 128, 256.
    pub size_code: u8,
    /// Language mask (0x19).
    pub lng_mask: u32,
    /// Text entries (0x19).
    pub texts: Vec<TextEntry>,
    /// Map name (0x18).
    pub name: String,
    /// Map description (0x18).
    pub description: String,
    /// Map version string.
    pub map_version: String,
    /// Author.
    pub author: String,
    /// Timed events.
    pub time_events: Vec<TimeEvent>,
    /// Ultimate artifact position and radius.
    pub ultimate: (Pos, u32),
    /// Players.
    pub players: Vec<Player>,
    /// Heroes.
    pub heroes: Vec<Hero>,
    /// Map items.
    pub items: Vec<MapItem>,
    /// Guards.
    pub guards: Vec<Guard>,
    /// Map events.
    pub events: Vec<MapEvent>,
    /// Visitables.
    pub visitables: Vec<Visitable>,
    /// Ownerables.
    pub ownerables: Vec<Ownerable>,
    /// Castles.
    pub castles: Vec<Castle>,
    /// (N+1)² surface nodes (surf, alt), row-major.
    pub nodes: Vec<(u8, u8)>,
    /// Decorations: anchor and avatar id.
    pub decorations: Vec<(Pos, String)>,
    /// Path elements: cell and id.
    pub paths: Vec<(Pos, String)>,
}

impl HmmFile {
    /// The map side N.
    pub fn side(&self) -> usize {
        32usize << self.size_code.min(3)
    }

    /// The map name (text entry "Map name" in 0x19, the literal name in 0x18).
    pub fn map_name(&self) -> &str {
        if self.version > 0x18 {
            self.texts
                .iter()
                .find(|t| t.key == "Map name")
                .and_then(|t| t.texts.first())
                .map_or("", |s| s.as_str())
        } else {
            &self.name
        }
    }
}
