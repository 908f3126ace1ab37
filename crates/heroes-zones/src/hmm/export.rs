//! Export of a [`HeroesMap`] as a version-0x19 [`HmmFile`], without the reference exporter's
//! defects (specs/heroes.md c.7): players are castle owners with their real ids and a valid
//! type mask, treasure types are PH's, artifacts are written, every surface node row is right,
//! multi-cell obstacles never overlap and nothing is piled at (0, 0).

use super::ids;
use super::*;
use crate::map::{HeroesMap, ObjectKind, TreasureKind};
use crate::template::ZoneKind;

/// `PLAYER_TYPE_MASK` written for every player: human or computer.
pub const TYPE_MASK_ANY: i8 = 2;
/// `PLAYER_TYPE_MASK` of a computer-only player (the owner of a `CPU_START` zone's castle).
pub const TYPE_MASK_COMPUTER: i8 = 1;

/// The `.hmm` file of a generated map.
pub fn export(map: &HeroesMap) -> HmmFile {
    let n = map.size;
    let size_code = match n {
        32 => 0,
        64 => 1,
        128 => 2,
        _ => 3,
    };
    let p = |o: &crate::map::MapObject| (o.x as i16, o.y as i16);
    let mut owners: Vec<i8> = Vec::new();
    let mut castles = Vec::new();
    let mut ownerables = Vec::new();
    let mut visitables = Vec::new();
    let mut items = Vec::new();
    let mut guards = Vec::new();
    for o in &map.objects {
        match &o.kind {
            ObjectKind::Castle {
                id,
                fraction,
                player,
            } => {
                if *player >= 0 && !owners.contains(player) {
                    owners.push(*player);
                }
                castles.push(Castle {
                    id: id.to_string(),
                    ctype: *fraction as u8,
                    owner: *player,
                    pos: p(o),
                    garrison: EMPTY_ARMY,
                    name: String::new(),
                    buildings: Vec::new(),
                });
            }
            ObjectKind::Mine { id, player, .. } => ownerables.push(Ownerable {
                id: id.to_string(),
                owner: *player,
                pos: p(o),
                guard: EMPTY_ARMY,
            }),
            ObjectKind::Visitable { id } | ObjectKind::Portal { id, .. } => {
                visitables.push(Visitable {
                    id: id.to_string(),
                    pos: p(o),
                    guard: EMPTY_ARMY,
                    message: String::new(),
                })
            }
            ObjectKind::Treasure { kind, .. } => {
                let (k, tail) = match kind {
                    TreasureKind::Resource(r) => (0, ItemTail::Mineral(*r as i8, 0)),
                    TreasureKind::Campfire => (2, ItemTail::Nothing),
                    TreasureKind::Chest => (3, ItemTail::Nothing),
                    TreasureKind::Artifact(a) => (4, ItemTail::Artifact(a.to_string())),
                };
                items.push(MapItem {
                    kind: k,
                    pos: p(o),
                    guard: EMPTY_ARMY,
                    message: String::new(),
                    tail,
                });
            }
            ObjectKind::Guard { level, count } => guards.push(Guard {
                creature: 0x0F00 + *level as i16,
                count: *count as i32,
                disposition: 1,
                not_grow: 0,
                pos: p(o),
                message: String::new(),
            }),
        }
    }
    owners.sort_unstable();
    let players = owners
        .iter()
        .map(|&pid| {
            let main = castles
                .iter()
                .find(|c| c.owner == pid)
                .map(|c| (c.pos, map.spawn_hero as u8));
            // A player whose castles stand in computer start zones only is computer-only.
            let zones: Vec<usize> = map
                .objects
                .iter()
                .filter_map(|o| match o.kind {
                    ObjectKind::Castle { player, .. } if player == pid => Some(o.zone as usize),
                    _ => None,
                })
                .collect();
            let computer = !zones.is_empty()
                && zones
                    .iter()
                    .all(|&z| map.zones[z].kind == ZoneKind::CpuStart);
            Player {
                id: pid,
                type_mask: if computer {
                    TYPE_MASK_COMPUTER
                } else {
                    TYPE_MASK_ANY
                },
                main_castle: main,
            }
        })
        .collect();
    let mut nodes = Vec::with_capacity((n + 1) * (n + 1));
    for y in 0..=n {
        for x in 0..=n {
            nodes.push((map.surface_at(x.min(n - 1), y.min(n - 1)).ordinal(), 0));
        }
    }
    let decorations = map
        .decorations
        .iter()
        .map(|d| ((d.x as i16, d.y as i16), d.id.to_string()))
        .collect();
    let mut paths = Vec::new();
    let road = map.road_cells();
    for y in 0..n {
        for x in 0..n {
            if road[y * n + x] {
                paths.push((
                    (x as i16, y as i16),
                    ids::road(map.surface_at(x, y)).to_string(),
                ));
            }
        }
    }
    HmmFile {
        version: VERSION,
        size_code,
        lng_mask: 1,
        texts: vec![
            TextEntry {
                key: "Map name".into(),
                tet: 1,
                texts: vec![map.name.clone()],
            },
            TextEntry {
                key: "Map Description".into(),
                tet: 2,
                texts: vec!["Generated by levelgen heroes-zones".into()],
            },
        ],
        name: String::new(),
        description: String::new(),
        map_version: String::new(),
        author: "levelgen".into(),
        time_events: Vec::new(),
        ultimate: ((0, 0), 0),
        players,
        heroes: Vec::new(),
        items,
        guards,
        events: Vec::new(),
        visitables,
        ownerables,
        castles,
        nodes,
        decorations,
        paths,
    }
}
