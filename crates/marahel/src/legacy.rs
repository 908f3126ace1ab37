//! The 2017 dialects (the AIIDE 2017 paper's engine), translated into the v0.3.0 form.
//!
//! | 2017 | becomes |
//! |---|---|
//! | `minDimension`/`maxDimension` | `metadata.min`/`max` |
//! | `region` or `regions` with `numberOfRegions` | `regions` with `number` (min/max swapped per dimension when reversed, as the 2017 engine did) |
//! | `entity`/`entities` object `{name: {color, min, max}}` | entity list; `color` becomes the legend colour; `min`/`max` counts are enforced by regenerating up to 10 times |
//! | `neighborhood` | `neighborhoods`; the 2017 defaults `plus` = `010,121,010`, `all` = `111,121,111` (no centre) |
//! | `rule` | `explorers` |
//! | `automata`/`sequential` (`iterations`, `start`, `exploration`) | `narrow_horz` (`repeats`), `replace: buffer` by default as in 2017; with `start` or `exploration`, a breadth-first walk ([`crate::explorer::flood`]) |
//! | `random` (`numberOfTiles`, `iterations`) | `narrow_rand` (`tiles`, `repeats`) |
//! | `agent` (`number`, `speed`, `change`, `lifespan`, `directions`, `allowed`) | the 2017 agents ([`crate::explorer::agents`]), living at once and moving in turn |
//! | `connector` (`type` short/random/hub/full, `neighborhood`, `entities`; `changes`, an extension, bounds its firings per region pass as for every explorer, default the region's area) | `turtle_connect` with the 2017 joining rule of its `type` (default `short`, as in 2017); see [`crate::explorer::connect2017`] |
//! | region object `{name, border, replacingType, borderType}` | `region` string (`"a-b"` ranges expanded), `border` inset range, `replace`, `out` (`borderType: wrap`: the explorer's regions wrap around, for neighbourhood reads and writes and walker moves) |
//! | estimator `complete` | `percent` |
//! | estimators `minDist`/`maxDist`/`avgDist` (one or three arguments) | the same estimators, in both dialects ([`crate::distance::paths`]) |
//!
//! The `digger` divider (`probDir`, `probSpawn`, `allowIntersection`) is a divider of both
//! dialects ([`crate::divider`]). Every 2017 feature has a translation;
//! [`MarahelError::Unsupported`] remains for parameters the 2017 engines did not have.

use crate::error::MarahelError;
use crate::script::{
    Obj, RawAgent, RawEntity, RawExplorer, RawMetadata, RawParams, RawScript, entity_names,
    read_neighborhoods, read_regions, read_rules, text_value,
};
use grid_core::text::excerpt;
use serde_json::{Map, Value};

/// Whether `v` looks like a 2017 script.
pub fn is_legacy(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    ["rule", "entity", "region", "neighborhood"]
        .iter()
        .any(|k| o.contains_key(*k))
        || o.get("metadata")
            .and_then(Value::as_object)
            .is_some_and(|m| m.contains_key("minDimension"))
        || o.get("entities").is_some_and(Value::is_object)
        || o.get("explorers")
            .and_then(Value::as_array)
            .is_some_and(|a| {
                a.iter()
                    .any(|e| e.get("region").is_some_and(Value::is_object))
            })
}

/// Translates a 2017 script.
pub fn translate(v: &Value) -> Result<RawScript, MarahelError> {
    let root = Obj::new(v, "")?;
    root.only(&[
        "metadata",
        "region",
        "regions",
        "entity",
        "entities",
        "neighborhood",
        "neighborhoods",
        "rule",
        "explorers",
    ])?;
    let m = Obj::new(
        root.get("metadata")
            .ok_or_else(|| MarahelError::shape("metadata", "missing"))?,
        "metadata",
    )?;
    m.only(&["min", "max", "minDimension", "maxDimension"])?;
    let min = m.req_text(either(&m, "minDimension", "min").0)?;
    let max = m.text(either(&m, "maxDimension", "max").0)?;
    let max = max.unwrap_or_else(|| min.clone());
    let regions = match either(&root, "region", "regions") {
        (_, None) => None,
        (key, Some(r)) => {
            let o = Obj::new(r, key)?;
            let mut raw = read_regions(&o, either(&o, "numberOfRegions", "number").0)?;
            if let (Some(a), Some(b)) = (&raw.min, &raw.max) {
                let pa = crate::compile::parse_size(a, &format!("{key}.parameters.min"))?;
                let pb = crate::compile::parse_size(b, &format!("{key}.parameters.max"))?;
                raw.min = Some(format!("{}x{}", pa.0.min(pb.0), pa.1.min(pb.1)));
                raw.max = Some(format!("{}x{}", pa.0.max(pb.0), pa.1.max(pb.1)));
            }
            Some(raw)
        }
    };
    let (ekey, ents) = match either(&root, "entity", "entities") {
        (ekey, Some(e)) => (ekey, e),
        (_, None) => return Err(MarahelError::shape("entities", "missing")),
    };
    let mut entities = Vec::new();
    match ents {
        Value::Array(items) => entities = entity_names(items, ekey)?,
        v => {
            let o = Obj::new(v, ekey)?;
            for (name, spec) in o.map {
                let s = Obj::new(spec, o.at(name))?;
                s.only(&["color", "min", "max"])?;
                entities.push(RawEntity {
                    name: name.clone(),
                    color: s.text("color")?,
                    min: s.text("min")?,
                    max: s.text("max")?,
                });
            }
        }
    }
    let (nkey, nbhs) = either(&root, "neighborhood", "neighborhoods");
    let mut neighborhoods = read_neighborhoods(nbhs, nkey)?;
    for (name, m) in [
        ("plus", "010,121,010"),
        ("all", "111,121,111"),
        ("sequential", "31,10"),
    ] {
        if !neighborhoods.iter().any(|(n, _)| n == name) {
            neighborhoods.push((name.into(), m.into()));
        }
    }
    let (xkey, list) = either(&root, "rule", "explorers");
    let list = match list {
        Some(Value::Array(a)) => a,
        _ => {
            return Err(MarahelError::shape(
                xkey,
                "missing (expected an array of explorers)",
            ));
        }
    };
    let mut explorers = Vec::new();
    for (i, v) in list.iter().enumerate() {
        explorers.push(explorer(v, &format!("{xkey}[{i}]"))?);
    }
    Ok(RawScript {
        metadata: RawMetadata {
            min,
            max,
            compat: None,
        },
        regions,
        entities,
        neighborhoods,
        explorers,
        legacy: true,
    })
}

/// The 2017 key `old` if the script has it, else the v0.3.0 `new`, with its value.
fn either<'a>(
    root: &Obj<'a>,
    old: &'static str,
    new: &'static str,
) -> (&'static str, Option<&'a Value>) {
    match root.get(old) {
        Some(v) => (old, Some(v)),
        None => (new, root.get(new)),
    }
}

/// `"0-2,4"` -> `"0,1,2,4"`.
fn expand_names(name: &str, path: &str) -> Result<String, MarahelError> {
    let mut out = Vec::new();
    for part in name.split(',') {
        let part = part.trim();
        if let Some((a, b)) = part.split_once('-') {
            let (a, b): (usize, usize) = match (a.trim().parse(), b.trim().parse()) {
                (Ok(a), Ok(b)) if a <= b && b - a < 100_000 => (a, b),
                _ => {
                    return Err(MarahelError::value(
                        path,
                        format!("{} is not a range \"a-b\"", excerpt(part)),
                    ));
                }
            };
            out.extend((a..=b).map(|i| i.to_string()));
        } else {
            out.push(part.to_string());
        }
    }
    Ok(out.join(","))
}

fn explorer(v: &Value, path: &str) -> Result<RawExplorer, MarahelError> {
    let e = Obj::new(v, path)?;
    e.only(&["type", "region", "parameters", "rules"])?;
    let old = e.text("type")?.unwrap_or_else(|| "automata".into());
    let mut params = RawParams::default();
    let (mut region, mut border, mut wrap) = ("map".to_string(), None, false);
    let mut replace = Some("buffer".to_string());
    match e.get("region") {
        None => {}
        Some(v @ Value::Object(_)) => {
            let r = Obj::new(v, e.at("region"))?;
            r.only(&[
                "name",
                "border",
                "sameBorder",
                "replacingType",
                "borderType",
            ])?;
            region = expand_names(
                &r.text("name")?.unwrap_or_else(|| "map".into()),
                &r.at("name"),
            )?;
            border = r.text("border")?;
            if let Some(t) = r.text("replacingType")? {
                replace = Some(t);
            }
            match r.text("borderType")?.as_deref().map(str::trim) {
                None | Some("none") => {}
                Some("wrap") => wrap = true,
                Some(entity) => params.out = Some(entity.to_string()),
            }
        }
        Some(other) => {
            region = expand_names(&text_value(other, &e.at("region"))?, &e.at("region"))?
        }
    }
    let no_parameters = Map::new();
    let p = match e.get("parameters") {
        None => Obj {
            map: &no_parameters,
            path: e.at("parameters"),
        },
        Some(p) => Obj::new(p, e.at("parameters"))?,
    };
    let check = |allowed: &[&str]| -> Result<(), MarahelError> {
        match p.map.keys().find(|k| !allowed.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(MarahelError::Unsupported {
                path: p.at(k),
                message: format!("parameter `{k}` of a 2017 `{old}` explorer"),
            }),
        }
    };
    let kind = match old.trim() {
        "automata" | "sequential" => {
            check(&["iterations", "start", "exploration"])?;
            params.repeats = p.text("iterations")?;
            let (start, exploration) = (p.text("start")?, p.text("exploration")?);
            match start.is_some() || exploration.is_some() {
                true => {
                    params.flood = Some((start, exploration));
                    "flood2017"
                }
                false => "narrow_horz",
            }
        }
        "random" => {
            check(&["iterations", "numberOfTiles"])?;
            params.repeats = p.text("iterations")?;
            params.tiles = p.text("numberOfTiles")?;
            "narrow_rand"
        }
        "agent" => {
            check(&[
                "number",
                "speed",
                "change",
                "lifespan",
                "directions",
                "allowed",
            ])?;
            params.directions = p.text("directions")?;
            params.agent = Some(RawAgent {
                number: p.text("number")?,
                speed: p.text("speed")?,
                change: p.text("change")?,
                lifespan: p.text("lifespan")?,
                allowed: p.text("allowed")?,
            });
            replace = None;
            "agent2017"
        }
        "connector" => {
            check(&["type", "neighborhood", "entities", "changes"])?;
            params.changes = p.text("changes")?;
            let t = p.text("type")?.unwrap_or_else(|| "short".into());
            if !["short", "random", "hub", "full"].contains(&t.trim()) {
                return Err(MarahelError::unknown(
                    format!("{path}.parameters.type"),
                    "connector type",
                    t,
                    ["short", "random", "hub", "full"],
                ));
            }
            params.connector = Some(t.trim().to_string());
            params.directions = p.text("neighborhood")?;
            params.entities = p.text("entities")?;
            replace = None;
            "turtle_connect"
        }
        other => {
            return Err(MarahelError::unknown(
                e.at("type"),
                "2017 explorer type",
                other,
                ["automata", "sequential", "random", "agent", "connector"],
            ));
        }
    };
    params.replace = replace;
    Ok(RawExplorer {
        kind: kind.into(),
        region,
        border,
        params,
        rules: read_rules(&e)?,
        path: path.to_string(),
        wrap,
    })
}
