//! The map's meaning in JSON and TMX: zones, objects (with their catalogue ids, footprints,
//! owners, values and guard strengths) and connections, beside the tiles.
//!
//! [`to_json`] writes grid-core's tile document (`height`, `legend`, `rows`, `width`) with
//! the keys of a [`Document`] added; [`read_json`] reads one back and checks it;
//! [`tmx_objects`] lists the same objects for a TMX object layer
//! ([`grid_core::export::to_tmx_with_objects`]).
//!
//! Schema (`format` = [`FORMAT`]); `x`, `y` are cells, `(0, 0)` top left:
//!
//! | key | value |
//! |---|---|
//! | `format`, `name`, `size` | [`FORMAT`], the template name, the map side |
//! | `zones` | [`ZoneDoc`]s in template order: `position`, `id` (the template's `index`), `terrain`, `kind`, `owner` (player of its first castle, −1 none), `area` (cells), `centre` |
//! | `zoneOf` | `size` rows of `size` zone positions: every cell's zone |
//! | `objects` | [`ObjectDoc`]s: `kind` (`castle`, `mine`, `visitable`, `portal`, `treasure`, `guard`, `obstacle`), `id` (the `hmm.xml` id; none for treasures other than artifacts and for guards), `x`, `y` (the anchor, the `.hmm` position), `zone`, `footprint` (blocked cells as `[dx, dy]` from the anchor), and where they apply `owner`, `item`, `value`, `pile`, `level`, `count`, `strength`, `connection` |
//! | `connections` | [`ConnectionDoc`]s in template order: `index`, `realised` (`passage`, `portal`, `left out`), `cells` (a passage's two cells, a portal pair's anchors), `reason` |

use crate::map::{HeroesMap, ObjectKind, Realised, TreasureKind};
use crate::strength::UNIT_VALUE;
use serde::{Deserialize, Serialize};

/// The `format` of a heroes JSON map.
pub const FORMAT: &str = "levelgen-heroes/1";

/// A zone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct ZoneDoc {
    pub position: usize,
    pub id: i32,
    pub terrain: crate::Surface,
    pub kind: crate::ZoneKind,
    pub owner: i8,
    pub area: u32,
    pub centre: [f64; 2],
}

/// An object or obstacle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct ObjectDoc {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub x: u16,
    pub y: u16,
    pub zone: u16,
    pub footprint: Vec<[i8; 2]>,
    /// Castles and mines: the owning player (−1 neutral).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<i8>,
    /// Treasures: `resource:GOLD`, `campfire`, `chest` or `artifact`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// Treasures: the item's value in gold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
    /// Treasures: the value of its whole pile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pile: Option<u32>,
    /// Guards: creature level 0..6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Guards: creatures (0 = the game draws the number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// Guards: strength, `count` x a typical unit's worth of the level (none for a drawn
    /// count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<u32>,
    /// Portals: the template connection they realise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection: Option<usize>,
}

/// A template connection as realised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct ConnectionDoc {
    pub index: usize,
    pub realised: String,
    pub cells: Vec<[usize; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The keys a heroes JSON map adds to the tile document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Document {
    pub format: String,
    pub name: String,
    pub size: usize,
    pub zones: Vec<ZoneDoc>,
    #[serde(rename = "zoneOf")]
    pub zone_of: Vec<Vec<u8>>,
    pub objects: Vec<ObjectDoc>,
    pub connections: Vec<ConnectionDoc>,
}

fn footprint(id: &str) -> Vec<[i8; 2]> {
    crate::hmm::ids::footprint(id)
        .unwrap_or(&[(0, 0)])
        .iter()
        .map(|&(x, y)| [x, y])
        .collect()
}

fn object(o: &crate::MapObject) -> ObjectDoc {
    let mut d = ObjectDoc {
        x: o.x,
        y: o.y,
        zone: o.zone,
        footprint: vec![[0, 0]],
        ..ObjectDoc::default()
    };
    match &o.kind {
        ObjectKind::Castle { id, player, .. } => {
            (d.kind, d.id, d.owner) = ("castle".into(), Some(id.to_string()), Some(*player));
            d.footprint = footprint(id);
        }
        ObjectKind::Mine { id, player, .. } => {
            (d.kind, d.id, d.owner) = ("mine".into(), Some(id.to_string()), Some(*player));
            d.footprint = footprint(id);
        }
        ObjectKind::Visitable { id } => {
            (d.kind, d.id) = ("visitable".into(), Some(id.to_string()));
            d.footprint = footprint(id);
        }
        ObjectKind::Portal { id, connection } => {
            (d.kind, d.id) = ("portal".into(), Some(id.to_string()));
            d.connection = Some(*connection);
        }
        ObjectKind::Treasure { kind, value, pile } => {
            d.kind = "treasure".into();
            d.item = Some(match kind {
                TreasureKind::Resource(r) => format!(
                    "resource:{}",
                    serde_json::to_value(r)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default()
                ),
                TreasureKind::Campfire => "campfire".into(),
                TreasureKind::Chest => "chest".into(),
                TreasureKind::Artifact(a) => {
                    d.id = Some(a.to_string());
                    "artifact".into()
                }
            });
            (d.value, d.pile) = (Some(*value), Some(*pile));
        }
        ObjectKind::Guard { level, count } => {
            d.kind = "guard".into();
            (d.level, d.count) = (Some(*level), Some(*count));
            d.strength =
                (*count > 0).then(|| count.saturating_mul(UNIT_VALUE[(*level as usize).min(6)]));
        }
    }
    d
}

/// The [`Document`] of `map`.
pub fn document(map: &HeroesMap) -> Document {
    let n = map.size;
    let zones = map
        .zones
        .iter()
        .enumerate()
        .map(|(p, z)| ZoneDoc {
            position: p,
            id: z.index,
            terrain: z.surface,
            kind: z.kind,
            owner: map
                .objects
                .iter()
                .find_map(|o| match o.kind {
                    ObjectKind::Castle { player, .. } if o.zone as usize == p => Some(player),
                    _ => None,
                })
                .unwrap_or(-1),
            area: z.area,
            centre: [z.centre.0, z.centre.1],
        })
        .collect();
    let mut objects: Vec<ObjectDoc> = map.objects.iter().map(object).collect();
    objects.extend(map.decorations.iter().map(|d| ObjectDoc {
        kind: "obstacle".into(),
        id: Some(d.id.to_string()),
        x: d.x,
        y: d.y,
        zone: d.zone,
        footprint: d.footprint().iter().map(|&(x, y)| [x, y]).collect(),
        ..ObjectDoc::default()
    }));
    let connections = map
        .connections
        .iter()
        .enumerate()
        .map(|(index, r)| {
            let (realised, cells, reason) = match r {
                Realised::Passage(c) => ("passage", c.iter().map(|&i| [i % n, i / n]).collect(), None),
                Realised::Portal { reason } => (
                    "portal",
                    map.objects
                        .iter()
                        .filter(|o| matches!(o.kind, ObjectKind::Portal { connection, .. } if connection == index))
                        .map(|o| [o.x as usize, o.y as usize])
                        .collect(),
                    Some(reason.to_string()),
                ),
                Realised::LeftOut { reason } => ("left out", Vec::new(), Some(reason.to_string())),
            };
            ConnectionDoc {
                index,
                realised: realised.into(),
                cells,
                reason,
            }
        })
        .collect();
    Document {
        format: FORMAT.into(),
        name: map.name.clone(),
        size: n,
        zones,
        zone_of: map
            .zone_of
            .as_slice()
            .chunks(n)
            .map(<[u8]>::to_vec)
            .collect(),
        objects,
        connections,
    }
}

/// The JSON map: grid-core's tile document with the [`Document`]'s keys added.
pub fn to_json(map: &HeroesMap) -> String {
    let tiles = grid_core::export::to_json(map, grid_core::export::JsonTiles::Names);
    let doc = serde_json::to_string(&document(map)).unwrap_or_else(|_| "{}".into());
    match (tiles.trim_end().strip_suffix('}'), doc.strip_prefix('{')) {
        (Some(head), Some(tail)) if tail.len() > 1 => format!("{head},{tail}\n"),
        _ => tiles,
    }
}

/// The objects of `map` (obstacles included) for a TMX object layer: named by their
/// catalogue id (or kind), typed by kind, at their anchor.
pub fn tmx_objects(map: &HeroesMap) -> Vec<grid_core::export::MapObject> {
    document(map)
        .objects
        .into_iter()
        .map(|o| grid_core::export::MapObject {
            name: o.id.clone().unwrap_or_else(|| o.kind.clone()),
            kind: o.kind,
            x: o.x as usize,
            y: o.y as usize,
        })
        .collect()
}

/// What [`read_json`] found: counts of zones, objects by kind, connections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Map side.
    pub size: usize,
    /// Zones.
    pub zones: usize,
    /// Objects by kind, sorted by kind.
    pub objects: Vec<(String, usize)>,
    /// Connections.
    pub connections: usize,
}

/// Reads a JSON map back and checks it: the [`FORMAT`], a `size` of 32, 64, 128 or 256 with
/// `width`, `height`, `rows` and `zoneOf` that size, zone positions in order, every cell's
/// zone and every object's zone a zone, every object's footprint on the map, known object
/// kinds, and no two obstacle footprints on one cell. The problems found, at most
/// [`crate::error::MAX_LISTED`] of them and then how many more, otherwise.
pub fn read_json(text: &str) -> Result<Summary, Vec<String>> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| vec![e.to_string()])?;
    let doc: Document = serde_json::from_value(value.clone()).map_err(|e| vec![e.to_string()])?;
    let problems = problems(&value, &doc);
    if !problems.is_empty() {
        let more = problems.len().saturating_sub(crate::error::MAX_LISTED);
        let mut listed: Vec<String> = problems
            .into_iter()
            .take(crate::error::MAX_LISTED)
            .collect();
        if more > 0 {
            listed.push(format!("and {more} more"));
        }
        return Err(listed);
    }
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for o in &doc.objects {
        *kinds.entry(o.kind.clone()).or_default() += 1;
    }
    Ok(Summary {
        size: doc.size,
        zones: doc.zones.len(),
        objects: kinds.into_iter().collect(),
        connections: doc.connections.len(),
    })
}

fn problems(value: &serde_json::Value, doc: &Document) -> Vec<String> {
    let mut problems = Vec::new();
    if doc.format != FORMAT {
        problems.push(format!("format {:?}, expected {FORMAT:?}", doc.format));
    }
    let n = doc.size;
    if ![32, 64, 128, 256].contains(&n) {
        problems.push(format!("size {n}: not 32, 64, 128 or 256"));
        return problems;
    }
    for key in ["width", "height"] {
        if value.get(key).and_then(|v| v.as_u64()) != Some(n as u64) {
            problems.push(format!("{key} is not the size {n}"));
        }
    }
    let rows = value.get("rows").and_then(|r| r.as_array());
    if rows.is_none_or(|r| {
        r.len() != n
            || r.iter()
                .any(|row| row.as_array().is_none_or(|c| c.len() != n))
    }) {
        problems.push(format!("rows are not {n} rows of {n} cells"));
    }
    if doc.zone_of.len() != n || doc.zone_of.iter().any(|r| r.len() != n) {
        problems.push(format!("zoneOf is not {n} rows of {n} zones"));
    }
    let zones = doc.zones.len();
    for (k, z) in doc.zones.iter().enumerate() {
        if z.position != k {
            problems.push(format!("zones[{k}]: position {}", z.position));
        }
    }
    if let Some((y, x)) = doc
        .zone_of
        .iter()
        .enumerate()
        .find_map(|(y, r)| r.iter().position(|&z| z as usize >= zones).map(|x| (y, x)))
    {
        problems.push(format!("zoneOf ({x}, {y}): no such zone"));
    }
    let mut covered = vec![false; n * n];
    for (k, o) in doc.objects.iter().enumerate() {
        if ![
            "castle",
            "mine",
            "visitable",
            "portal",
            "treasure",
            "guard",
            "obstacle",
        ]
        .contains(&o.kind.as_str())
        {
            problems.push(format!("objects[{k}]: unknown kind {:?}", o.kind));
        }
        if o.zone as usize >= zones {
            problems.push(format!("objects[{k}]: zone {} is not a zone", o.zone));
        }
        for &[dx, dy] in &o.footprint {
            let (x, y) = (o.x as i64 + dx as i64, o.y as i64 + dy as i64);
            if x < 0 || y < 0 || x >= n as i64 || y >= n as i64 {
                problems.push(format!(
                    "objects[{k}]: footprint cell ({x}, {y}) off the map"
                ));
                continue;
            }
            let i = y as usize * n + x as usize;
            if o.kind == "obstacle" {
                if covered[i] {
                    problems.push(format!("objects[{k}]: obstacles overlap at ({x}, {y})"));
                }
                covered[i] = true;
            }
        }
    }
    problems
}
