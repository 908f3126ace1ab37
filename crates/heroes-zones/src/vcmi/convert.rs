//! A VCMI template onto this crate's [`Template`]: zone kinds, sizes, owners, towns, mines by
//! resource, treasure bands, monster strength, connection guards and types, road flags and
//! `*LikeZone` inheritance. What a `.hmm` map cannot hold (an underground level, creature
//! factions, more than six players, fort-less towns, ...) becomes a warning naming the field.

use super::Warnings;
use super::names::{QUIET_KEYS, faction, native_terrain, resource, terrain, unheld};
use super::parse::{Band, Connection, VcmiTemplate, Zone};
use super::size::{choose_players, choose_side, player_counts};
use crate::error::HeroesError;
use crate::template::{
    ConnectionType, Fraction, MonsterStrength, RandomRange, Surface, Template, TemplateCastle,
    TemplateConnection, TemplateMine, TemplateZone, TreasureBand, ZoneKind,
};
use crate::validate::{MAX_BANDS, MAX_NAME_CHARS, MAX_OBJECTS_PER_ZONE, MAX_ZONE_SIZE};
use grid_core::text::excerpt;
use std::collections::{BTreeMap, BTreeSet};

/// Most `*LikeZone` hops followed (as VCMI).
pub const MAX_LIKE_HOPS: usize = 50;

/// Choices the template leaves open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Number of players (default: the most the template and the format allow).
    pub players: Option<u8>,
    /// Map side (default: chosen from the template's size range and zone count).
    pub side: Option<u32>,
}

/// A converted template.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// The template in this crate's model.
    pub template: Template,
    /// The map side to generate at.
    pub side: u32,
    /// The number of players.
    pub players: u8,
    /// What the `.hmm` format cannot hold, one line per kind of field.
    pub warnings: Vec<String>,
}

/// Follows `like` from zone `id` (at most [`MAX_LIKE_HOPS`]) to the zone whose own field is
/// used.
fn resolve<'a>(
    zones: &'a BTreeMap<i64, &'a Zone>,
    id: i64,
    like: fn(&Zone) -> Option<i64>,
    field: &str,
    at: &str,
) -> Result<&'a Zone, HeroesError> {
    let mut cur = id;
    for _ in 0..=MAX_LIKE_HOPS {
        let z = zones.get(&cur).ok_or_else(|| {
            HeroesError::invalid(
                format!("{at}.zones.\"{id}\".{field}"),
                format!("zone {cur} does not exist"),
            )
        })?;
        match like(z) {
            Some(next) if next != cur => cur = next,
            _ => return Ok(z),
        }
    }
    Err(HeroesError::invalid(
        format!("{at}.zones.\"{id}\".{field}"),
        format!("more than {MAX_LIKE_HOPS} steps (a cycle?)"),
    ))
}

/// Converts `t` with `opts`.
pub fn convert(t: &VcmiTemplate, opts: &Options) -> Result<Converted, HeroesError> {
    let at = excerpt(&t.id);
    let mut w = Warnings::default();
    let counts = player_counts(&t.players).ok_or_else(|| {
        HeroesError::invalid(
            format!("{at}.players"),
            format!("{} is not a player count or range", excerpt(&t.players)),
        )
    })?;
    let players = choose_players(&counts, opts.players, &at, &mut w)?;
    for key in t.other.keys().filter(|k| !QUIET_KEYS.contains(&k.as_str())) {
        w.add(format!("{at}.{}", excerpt(key)), unheld(key));
    }
    let by_id: BTreeMap<i64, &Zone> = t.zones.iter().map(|(id, z)| (*id, z)).collect();
    let connections = connections(t, &by_id, &at, &mut w)?;
    let kept = reachable_zones(t, &connections, &at, &mut w);
    let index: BTreeMap<i64, i32> = kept
        .iter()
        .enumerate()
        .map(|(k, &id)| (id, k as i32))
        .collect();
    let mut zones = Vec::new();
    for &id in &kept {
        zones.push(zone(id, &by_id, players, &at, &mut w)?);
    }
    for (k, z) in zones.iter_mut().enumerate() {
        z.index = k as i32;
    }
    let connections = connections
        .into_iter()
        .map(|(a, b, mut c)| {
            c.first = index[&a];
            c.second = index[&b];
            c
        })
        .collect();
    let sizes: Vec<i32> = zones.iter().map(|z| z.size).collect();
    let side = choose_side(t, &sizes, opts.side, &mut w)?;
    Ok(Converted {
        template: Template {
            name: t.id.chars().take(MAX_NAME_CHARS).collect(),
            zones,
            connections,
        },
        side,
        players,
        warnings: w.lines(),
    })
}

/// The connections to realise, as (zone id, zone id, connection) with guards and types set.
fn connections(
    t: &VcmiTemplate,
    zones: &BTreeMap<i64, &Zone>,
    at: &str,
    w: &mut Warnings,
) -> Result<Vec<(i64, i64, TemplateConnection)>, HeroesError> {
    let mut out: Vec<(i64, i64, TemplateConnection)> = Vec::new();
    let mut seen: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for (k, c) in t.connections.iter().enumerate() {
        let cat = format!("{at}.connections[{k}]");
        let id = |s: &str, f: &str| -> Result<i64, HeroesError> {
            let v: i64 = s.trim().parse().map_err(|_| {
                HeroesError::invalid(
                    format!("{cat}.{f}"),
                    format!("{} is not a zone id", excerpt(s)),
                )
            })?;
            if zones.contains_key(&v) {
                Ok(v)
            } else {
                Err(HeroesError::invalid(
                    format!("{cat}.{f}"),
                    format!("zone {v} does not exist"),
                ))
            }
        };
        let (a, b) = (id(&c.a, "a")?, id(&c.b, "b")?);
        let Some(kind) = connection_kind(c, &cat, w)? else {
            continue;
        };
        if a == b {
            w.add(cat.clone(), "a zone connected to itself: left out (a portal pair inside one zone adds nothing to reach)");
            continue;
        }
        let guard = (c.guard > 0 && c.kind.as_deref() != Some("wide")).then_some(c.guard);
        let key = (a.min(b), a.max(b));
        if let Some(&prev) = seen.get(&key) {
            w.add(cat.clone(), "a second connection between the same zones: merged into one passage with the stronger guard");
            let p = &mut out[prev].2;
            p.guard_value = p.guard_value.max(guard);
            p.wide &= c.kind.as_deref() == Some("wide");
            if kind == ConnectionType::Road {
                p.kind = ConnectionType::Road;
            }
            continue;
        }
        seen.insert(key, out.len());
        out.push((
            a,
            b,
            TemplateConnection {
                first: 0,
                second: 0,
                kind,
                guard_level: RandomRange::fixed(-2),
                guard_value: guard,
                wide: c.kind.as_deref() == Some("wide"),
            },
        ));
    }
    Ok(out)
}

/// The connection type of `c`, or `None` when it makes no passage.
fn connection_kind(
    c: &Connection,
    cat: &str,
    w: &mut Warnings,
) -> Result<Option<ConnectionType>, HeroesError> {
    for key in c.other.keys() {
        w.add(format!("{cat}.{}", excerpt(key)), unheld(key));
    }
    let road = match c.road.as_deref() {
        None | Some("random") => ConnectionType::Regular,
        Some("true") => ConnectionType::Road,
        Some("false") => {
            w.add(
                format!("{cat}.road"),
                "\"false\": not held (every passage gets a road, as \"random\" and \"true\" do)",
            );
            ConnectionType::Regular
        }
        Some(other) => {
            return Err(HeroesError::invalid(
                format!("{cat}.road"),
                format!(
                    "{} is not \"true\", \"false\" or \"random\"",
                    excerpt(other)
                ),
            ));
        }
    };
    Ok(match c.kind.as_deref() {
        None | Some("guarded") | Some("wide") => Some(road),
        Some("forcePortal") => Some(ConnectionType::Portal),
        Some(k @ ("fictive" | "repulsive")) => {
            w.add(
                format!("{cat}.type"),
                &format!("\"{k}\" only moves zones in VCMI's layout: left out"),
            );
            None
        }
        Some(other) => {
            return Err(HeroesError::invalid(
                format!("{cat}.type"),
                format!(
                    "{} is not guarded, wide, fictive, repulsive or forcePortal",
                    excerpt(other)
                ),
            ));
        }
    })
}

/// Zone ids reachable from the lowest id through `conns`; the others are left out with a
/// warning (the map could not reach them).
fn reachable_zones(
    t: &VcmiTemplate,
    conns: &[(i64, i64, TemplateConnection)],
    at: &str,
    w: &mut Warnings,
) -> Vec<i64> {
    let ids: Vec<i64> = t.zones.iter().map(|z| z.0).collect();
    let mut reached: BTreeSet<i64> = ids.first().copied().into_iter().collect();
    let mut stack: Vec<i64> = reached.iter().copied().collect();
    while let Some(z) = stack.pop() {
        for &(a, b, _) in conns {
            for (x, y) in [(a, b), (b, a)] {
                if x == z && reached.insert(y) {
                    stack.push(y);
                }
            }
        }
    }
    for id in ids.iter().filter(|id| !reached.contains(id)) {
        w.add(
            format!("{at}.zones.\"{id}\""),
            "no connection reaches this zone: left out",
        );
    }
    ids.into_iter().filter(|id| reached.contains(id)).collect()
}

/// The treasure bands in this crate's units. VCMI's density counts piles per 400 tiles, but
/// its piles stop once a zone's free space is used up; read as piles per 1000 cells (0.4 of
/// the nominal count) they leave room for roads and open ground.
fn bands(list: &[Band], zat: &str, w: &mut Warnings) -> Vec<TreasureBand> {
    if list.len() > MAX_BANDS {
        w.add(
            format!("{zat}.treasure"),
            &format!("more than {MAX_BANDS} bands: the rest are left out"),
        );
    }
    list.iter()
        .take(MAX_BANDS)
        .filter(|b| b.density > 0)
        .map(|b| TreasureBand {
            min: b.min.min(b.max).min(1_000_000),
            max: b.max.min(1_000_000),
            density: b.density.min(100),
        })
        .collect()
}

fn zone(
    id: i64,
    zones: &BTreeMap<i64, &Zone>,
    players: u8,
    at: &str,
    w: &mut Warnings,
) -> Result<TemplateZone, HeroesError> {
    let z = zones[&id];
    let zat = format!("{at}.zones.\"{id}\"");
    for key in z.other.keys().filter(|k| !QUIET_KEYS.contains(&k.as_str())) {
        w.add(format!("{zat}.{}", excerpt(key)), unheld(key));
    }
    // Computer players come on top of the human ones, up to the format's six.
    let most = if z.kind == "cpuStart" {
        super::size::MAX_PLAYERS
    } else {
        players
    };
    let owner = z.owner.filter(|o| (1..=most as i64).contains(o));
    let kind = match z.kind.as_str() {
        "playerStart" if owner.is_some() => ZoneKind::PlayerStart,
        "cpuStart" if owner.is_some() => ZoneKind::CpuStart,
        "playerStart" | "cpuStart" | "treasure" => ZoneKind::Treasure,
        "junction" => ZoneKind::Junction,
        k @ ("sealed" | "water") => {
            w.add(
                format!("{zat}.type"),
                &format!("\"{k}\" zones are generated as treasure zones"),
            );
            ZoneKind::Treasure
        }
        other => {
            return Err(HeroesError::invalid(
                format!("{zat}.type"),
                format!(
                    "{} is not playerStart, cpuStart, treasure, junction, sealed or water",
                    excerpt(other)
                ),
            ));
        }
    };
    if z.forced_level.as_deref() == Some("underground") {
        w.add(
            format!("{zat}.forcedLevel"),
            "the .hmm format has one level: the zone is placed on the surface",
        );
    }
    let towns = resolve(zones, id, |z| z.towns_like_zone, "townsLikeZone", at)?;
    let fraction = town_faction(towns, &zat, w);
    let castles = castles(towns, kind, owner, fraction, &zat, w);
    let terrain_zone = resolve(
        zones,
        id,
        |z| z.terrain_type_like_zone,
        "terrainTypeLikeZone",
        at,
    )?;
    let surface = surface(terrain_zone, fraction, &zat, w);
    let mines = mines(
        resolve(zones, id, |z| z.mines_like_zone, "minesLikeZone", at)?,
        &zat,
        w,
    );
    let treasure_zone = resolve(zones, id, |z| z.treasure_like_zone, "treasureLikeZone", at)?;
    let treasures = bands(&treasure_zone.treasure, &zat, w);
    let monsters = match z.monsters.as_deref() {
        None | Some("normal") => MonsterStrength::Normal,
        Some("weak") => MonsterStrength::Weak,
        Some("strong") => MonsterStrength::Strong,
        Some("none") => MonsterStrength::None,
        Some(other) => {
            return Err(HeroesError::invalid(
                format!("{zat}.monsters"),
                format!("{} is not none, weak, normal or strong", excerpt(other)),
            ));
        }
    };
    // Richness (visitables) from the zone's treasure value per 1000 cells.
    let value: u64 = treasures
        .iter()
        .map(|b| (b.min as u64 + b.max as u64) / 2 * b.density as u64)
        .sum();
    Ok(TemplateZone {
        surface,
        size: (z.size.round().clamp(1.0, MAX_ZONE_SIZE as f64)) as i32,
        index: 0,
        richness: (value / 6000).min(100) as i32,
        mines_num: RandomRange::fixed(mines.len() as i32),
        mines,
        castles_num: RandomRange::fixed(0),
        castles,
        connections: Vec::new(),
        kind,
        treasures,
        monsters: Some(monsters),
    })
}

/// The faction of a zone's towns: the one Pocket Heroes faction among `allowedTowns` (less
/// `bannedTowns`), else random.
fn town_faction(z: &Zone, zat: &str, w: &mut Warnings) -> Fraction {
    let banned: Vec<Option<Fraction>> = z.banned_towns.iter().map(|t| faction(t)).collect();
    let allowed: BTreeSet<u8> = z
        .allowed_towns
        .iter()
        .filter_map(|t| faction(t))
        .filter(|f| !banned.contains(&Some(*f)))
        .map(|f| f as u8)
        .collect();
    if !z.allowed_towns.is_empty() && allowed.is_empty() {
        w.add(
            format!("{zat}.allowedTowns"),
            "no Pocket Heroes faction among them: random factions",
        );
    }
    match allowed.iter().next() {
        Some(&f) if allowed.len() == 1 => [
            Fraction::Citadel,
            Fraction::Stronghold,
            Fraction::Tower,
            Fraction::Dungeon,
            Fraction::Fortress,
            Fraction::Necropolis,
        ][f as usize % 6],
        _ => Fraction::Random,
    }
}

fn castles(
    z: &Zone,
    kind: ZoneKind,
    owner: Option<i64>,
    fraction: Fraction,
    zat: &str,
    w: &mut Warnings,
) -> Vec<TemplateCastle> {
    let mut out = Vec::new();
    let player = match kind {
        ZoneKind::PlayerStart | ZoneKind::CpuStart => owner.map_or(-1, |o| o as i32 - 1),
        _ => -1,
    };
    for (field, towns, player) in [
        ("playerTowns", &z.player_towns, player),
        ("neutralTowns", &z.neutral_towns, -1),
    ] {
        let Some(t) = towns else { continue };
        if t.towns > 0 {
            w.add(
                format!("{zat}.{field}.towns"),
                "Pocket Heroes has no towns without a fort: they are castles",
            );
        }
        let n = t
            .castles
            .saturating_add(t.towns)
            .min(MAX_OBJECTS_PER_ZONE as u32);
        out.extend((0..n).map(|_| TemplateCastle { fraction, player }));
    }
    if matches!(kind, ZoneKind::PlayerStart | ZoneKind::CpuStart)
        && !out.iter().any(|c| c.player >= 0)
    {
        out.insert(0, TemplateCastle { fraction, player });
    }
    if out.len() > MAX_OBJECTS_PER_ZONE as usize {
        w.add(
            format!("{zat}.neutralTowns"),
            &format!("more than {MAX_OBJECTS_PER_ZONE} towns: the rest are left out"),
        );
        out.truncate(MAX_OBJECTS_PER_ZONE as usize);
    }
    out
}

fn surface(z: &Zone, fraction: Fraction, zat: &str, w: &mut Warnings) -> Surface {
    if z.match_terrain_to_town.unwrap_or(true) && fraction != Fraction::Random {
        return native_terrain(fraction);
    }
    let mapped: BTreeSet<Surface> = z.terrain_types.iter().filter_map(|t| terrain(t)).collect();
    if mapped.len() < z.terrain_types.len() {
        w.add(
            format!("{zat}.terrainTypes"),
            "water, rock and subterranean terrains are not decorated by the .hmm export: left out",
        );
    }
    match mapped.iter().next() {
        Some(&s) if mapped.len() == 1 => s,
        _ => Surface::Random,
    }
}

fn mines(z: &Zone, zat: &str, w: &mut Warnings) -> Vec<TemplateMine> {
    let mut out = Vec::new();
    for (name, &count) in &z.mines {
        let Some((res, value)) = resource(name) else {
            w.add(
                format!("{zat}.mines.{}", excerpt(name)),
                "not a resource: left out",
            );
            continue;
        };
        let room = MAX_OBJECTS_PER_ZONE as usize - out.len();
        if count as usize > room {
            w.add(
                format!("{zat}.mines"),
                &format!("more than {MAX_OBJECTS_PER_ZONE} mines: the rest are left out"),
            );
        }
        out.extend((0..(count as usize).min(room)).map(|_| TemplateMine {
            resource: res,
            player: -1,
            guard_level: RandomRange::fixed(-2),
            guard_value: Some(value),
        }));
    }
    out
}
