//! VCMI's names (factions, terrains, resources, keys) in this crate's model, and why the
//! keys a `.hmm` map cannot hold are left out.

use crate::template::{Fraction, Resource, Surface};

pub(crate) fn faction(name: &str) -> Option<Fraction> {
    Some(match name.to_ascii_lowercase().as_str() {
        "castle" => Fraction::Citadel,
        "stronghold" => Fraction::Stronghold,
        "tower" => Fraction::Tower,
        "dungeon" => Fraction::Dungeon,
        "fortress" => Fraction::Fortress,
        "necropolis" => Fraction::Necropolis,
        _ => return None,
    })
}

pub(crate) fn native_terrain(f: Fraction) -> Surface {
    match f {
        Fraction::Citadel => Surface::Grass,
        Fraction::Stronghold => Surface::Wasteland,
        Fraction::Tower => Surface::Snow,
        Fraction::Dungeon => Surface::Lava,
        Fraction::Fortress => Surface::Swamp,
        Fraction::Necropolis => Surface::Dirt,
        Fraction::Random => Surface::Random,
    }
}

pub(crate) fn terrain(name: &str) -> Option<Surface> {
    Some(match name.to_ascii_lowercase().as_str() {
        "dirt" => Surface::Dirt,
        "sand" => Surface::Sand,
        "grass" => Surface::Grass,
        "snow" => Surface::Snow,
        "swamp" => Surface::Swamp,
        "rough" => Surface::Wasteland,
        "lava" => Surface::Lava,
        _ => return None,
    })
}

pub(crate) fn resource(name: &str) -> Option<(Resource, u32)> {
    Some(match name.to_ascii_lowercase().as_str() {
        "wood" => (Resource::Wood, 1500),
        "ore" => (Resource::Ore, 1500),
        "mercury" => (Resource::Mercury, 3500),
        "sulfur" => (Resource::Sulfur, 3500),
        "crystal" => (Resource::Crystal, 3500),
        "gems" => (Resource::Gems, 3500),
        "gold" => (Resource::Gold, 7000),
        _ => return None,
    })
}

/// Keys read elsewhere or without meaning for a map (editor positions, lobby texts).
pub(crate) const QUIET_KEYS: [&str; 6] = [
    "visiblePositionX",
    "visiblePositionY",
    "visibleSize",
    "description",
    "humans",
    "name",
];

/// Why a known VCMI key cannot be held by a `.hmm` map.
pub(crate) fn unheld(key: &str) -> &'static str {
    match key {
        "allowedMonsters" | "bannedMonsters" => {
            "creature factions are not held: guards are random creatures of their level"
        }
        "townsAreSameType" => "not held: each castle's faction is drawn by the game",
        "customObjects" | "customObjectsLikeZone" => {
            "custom object lists are not held: objects come from the Pocket Heroes tables"
        }
        "townHints" => "town hints are not held: factions follow allowedTowns",
        "bannedTerrains" => "not held: the terrain follows terrainTypes or the town",
        "allowedWaterContent" => "the .hmm maps made here have no water zone",
        "settings" | "bannedSpells" | "enabledSpells" | "bannedArtifacts" | "enabledArtifacts"
        | "bannedSkills" | "enabledSkills" | "bannedHeroes" | "enabledHeroes" => {
            "game settings and ban lists are not held by .hmm"
        }
        _ => "not a VCMI template key: ignored",
    }
}
