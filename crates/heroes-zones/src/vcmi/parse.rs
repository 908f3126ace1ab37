//! VCMI template files as written: JSON with `//` comments and trailing commas (VCMI's
//! parser accepts both), one or several templates per file keyed by their names. Each zone
//! and connection is read into typed fields; keys this crate does not know are kept so the
//! conversion can name them in a warning.

use crate::error::HeroesError;
use crate::template::{MAX_INPUT_BYTES, json_err};
use grid_core::text::excerpt;
use grid_core::text::json_kind;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A town count object (`playerTowns`, `neutralTowns`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Towns {
    /// Towns with a fort.
    #[serde(default)]
    pub castles: u32,
    /// Towns without a fort.
    #[serde(default)]
    pub towns: u32,
    /// Other keys (densities, legacy hints).
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// A treasure value band: `density` piles per 400 zone tiles, each worth `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct Band {
    /// Lowest pile value.
    #[serde(default)]
    pub min: u32,
    /// Highest pile value.
    #[serde(default)]
    pub max: u32,
    /// Piles per 400 tiles.
    #[serde(default)]
    pub density: u32,
}

/// One zone as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Zone {
    /// `playerStart`, `cpuStart`, `treasure`, `junction`, `sealed` or `water`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Relative size (default 1).
    #[serde(default = "one")]
    pub size: f64,
    /// Owning player 1..8.
    pub owner: Option<i64>,
    /// Towns of the owner.
    pub player_towns: Option<Towns>,
    /// Neutral towns.
    pub neutral_towns: Option<Towns>,
    /// Town factions allowed.
    #[serde(default)]
    pub allowed_towns: Vec<String>,
    /// Town factions banned.
    #[serde(default)]
    pub banned_towns: Vec<String>,
    /// Whether the terrain follows the main town's faction (default true).
    pub match_terrain_to_town: Option<bool>,
    /// Terrains to draw from.
    #[serde(default)]
    pub terrain_types: Vec<String>,
    /// `none`, `weak`, `normal` (default) or `strong`.
    pub monsters: Option<String>,
    /// Mines by resource name.
    #[serde(default)]
    pub mines: BTreeMap<String, u32>,
    /// Treasure bands.
    #[serde(default)]
    pub treasure: Vec<Band>,
    /// `automatic`, `surface` or `underground`.
    pub forced_level: Option<String>,
    /// Inherit mines from this zone.
    pub mines_like_zone: Option<i64>,
    /// Inherit treasure bands from this zone.
    pub treasure_like_zone: Option<i64>,
    /// Inherit terrain from this zone.
    pub terrain_type_like_zone: Option<i64>,
    /// Inherit town settings from this zone.
    pub towns_like_zone: Option<i64>,
    /// Every other key.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

fn one() -> f64 {
    1.0
}

/// One connection as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Connection {
    /// One zone id.
    pub a: String,
    /// The other zone id.
    pub b: String,
    /// Guard value (default 0: none).
    #[serde(default)]
    pub guard: u32,
    /// `guarded` (default), `wide`, `fictive`, `repulsive`, `forcePortal`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// `"true"`, `"false"` or `"random"` (default).
    pub road: Option<String>,
    /// Every other key.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// One template as written.
#[derive(Clone, Debug, PartialEq)]
pub struct VcmiTemplate {
    /// The template's key in its file (its name).
    pub id: String,
    /// `minSize` (`s`, `m`, `l`, `xl`, `h`, `xh`, `g`, optional `+u`, or `WxHxD`).
    pub min_size: String,
    /// `maxSize`.
    pub max_size: String,
    /// `players`: `"2"`, `"2-4"`, `"2,4"`.
    pub players: String,
    /// Zones by id, in id order.
    pub zones: Vec<(i64, Zone)>,
    /// Connections in file order.
    pub connections: Vec<Connection>,
    /// Other top-level keys (`humans`, `description`, `settings`, ...).
    pub other: BTreeMap<String, Value>,
}

/// `text` as strict JSON: `//` comments outside strings removed, trailing commas before
/// `}` or `]` removed. Positions (lines, columns) are kept: comments become spaces.
pub fn strip_json5(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            out.push(c);
            if c == b'\\' && i + 1 < bytes.len() {
                out.push(bytes[i + 1]);
                i += 1;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
            out.push(c);
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
            continue;
        } else if c == b',' {
            let next = bytes[i + 1..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .map(|k| bytes[i + 1 + k]);
            out.push(if matches!(next, Some(b'}' | b']')) {
                b' '
            } else {
                c
            });
        } else {
            out.push(c);
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by ASCII bytes, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

fn invalid(at: String, message: impl Into<String>) -> HeroesError {
    HeroesError::invalid(at, message)
}

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a serde_json::Map<String, Value>, HeroesError> {
    v.as_object().ok_or_else(|| HeroesError::WrongType {
        what: "VCMI template",
        at: at.to_string(),
        expected: "an object",
        found: json_kind(v),
    })
}

fn typed<T: serde::de::DeserializeOwned>(v: &Value, at: &str) -> Result<T, HeroesError> {
    T::deserialize(v).map_err(|e| invalid(at.to_string(), excerpt_message(&e.to_string())))
}

fn excerpt_message(m: &str) -> String {
    grid_core::text::excerpt_with(m, 160)
}

fn string(
    map: &serde_json::Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<String, HeroesError> {
    match map.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(v) => Err(HeroesError::WrongType {
            what: "VCMI template",
            at: format!("{at}.{key}"),
            expected: "a string",
            found: json_kind(v),
        }),
        None => Err(invalid(format!("{at}.{key}"), "missing (required)")),
    }
}

/// Reads one template object; `at` names it in errors.
fn template(id: &str, v: &Value) -> Result<VcmiTemplate, HeroesError> {
    let at = excerpt(id);
    let map = object(v, &at)?;
    let zones_at = format!("{at}.zones");
    let zones_value = map
        .get("zones")
        .ok_or_else(|| invalid(zones_at.clone(), "missing (required)"))?;
    let mut zones = Vec::new();
    for (key, z) in object(zones_value, &zones_at)? {
        let zat = format!("{zones_at}.{}", excerpt(key));
        let zid: i64 = key
            .trim()
            .parse()
            .map_err(|_| invalid(zat.clone(), "a zone id must be an integer"))?;
        object(z, &zat)?;
        zones.push((zid, typed::<Zone>(z, &zat)?));
    }
    zones.sort_by_key(|z| z.0);
    let conns_at = format!("{at}.connections");
    let connections = match map.get("connections") {
        None => return Err(invalid(conns_at, "missing (required)")),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(k, c)| typed::<Connection>(c, &format!("{conns_at}[{k}]")))
            .collect::<Result<Vec<_>, _>>()?,
        Some(v) => {
            return Err(HeroesError::WrongType {
                what: "VCMI template",
                at: conns_at,
                expected: "an array",
                found: json_kind(v),
            });
        }
    };
    let known = ["zones", "connections", "minSize", "maxSize", "players"];
    Ok(VcmiTemplate {
        id: id.to_string(),
        min_size: string(map, "minSize", &at)?,
        max_size: string(map, "maxSize", &at)?,
        players: string(map, "players", &at)?,
        zones,
        connections,
        other: map
            .iter()
            .filter(|(k, _)| !known.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    })
}

/// Every template of a VCMI template file, in name order.
pub fn parse_file(text: &str) -> Result<Vec<VcmiTemplate>, HeroesError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(invalid(
            "VCMI template".into(),
            format!("{} bytes, at most {MAX_INPUT_BYTES}", text.len()),
        ));
    }
    let value: Value =
        serde_json::from_str(&strip_json5(text)).map_err(|e| json_err("VCMI template", e))?;
    let top = object(&value, "$")?;
    top.iter().map(|(id, t)| template(id, t)).collect()
}

/// Whether `text` looks like a VCMI template file rather than this crate's own template
/// format (which has `zones` at the top level).
pub fn is_vcmi(text: &str) -> bool {
    match serde_json::from_str::<Value>(&strip_json5(text)) {
        Ok(Value::Object(top)) => !top.contains_key("zones") && !top.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_accepted() {
        let text = "{ \"T\" : { \"minSize\": \"s\", \"maxSize\": \"m\", // size\n \"players\": \"2\",\n\
            \"zones\": { \"2\": {\"type\": \"treasure\", \"note\": \"a // b\",}, \"1\": {\"type\": \"playerStart\", \"owner\": 1} },\n\
            \"connections\": [ {\"a\": \"1\", \"b\": \"2\", \"guard\": 5000}, ], } }";
        let ts = parse_file(text).unwrap();
        assert_eq!(ts.len(), 1);
        let t = &ts[0];
        assert_eq!(t.zones.iter().map(|z| z.0).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(t.zones[1].1.other["note"], "a // b");
        assert_eq!(t.connections[0].guard, 5000);
        assert!(is_vcmi(text));
        assert!(!is_vcmi(r#"{"name":"t","zones":[],"connections":[]}"#));
    }

    #[test]
    fn errors_name_the_template_and_zone() {
        let e = parse_file(r#"{"T":{"minSize":"s","maxSize":"m","players":"2","zones":{"x":{"type":"treasure"}},"connections":[]}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"T\".zones.\"x\""), "{e}");
        let e = parse_file(r#"{"T":{"minSize":"s","maxSize":"m","players":"2","zones":{"1":{"type":"treasure","size":"big"}},"connections":[]}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"T\".zones.\"1\""), "{e}");
        let e = parse_file("[]").unwrap_err().to_string();
        assert!(e.contains("expected an object"), "{e}");
        let e = parse_file(r#"{"T":{"maxSize":"m","players":"2","zones":{},"connections":[]}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("minSize: missing"), "{e}");
    }
}
