//! Stage 1: JSON text -> raw script structs (strings, in the script's order), with JSON paths.
//!
//! The v0.3.0 format is read here; the 2017 dialects are recognised and handed to
//! [`crate::legacy`], which produces the same [`RawScript`]. Values the reference reads with
//! `parseInt`/`parseFloat` may be JSON numbers or strings; everything else must be a string.
//! Unknown fields are errors (the reference ignores them silently).

use crate::error::MarahelError;
use grid_core::text::json_kind;
use serde::Serialize;
use serde_json::{Map, Value};

/// A whole script, before names are resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RawScript {
    /// Map size range.
    pub metadata: RawMetadata,
    /// The region divider, if any.
    pub regions: Option<RawRegions>,
    /// Entity names (index = position), with optional 2017 colour and count bounds.
    pub entities: Vec<RawEntity>,
    /// User neighbourhoods `(name, matrix)`, in script order.
    pub neighborhoods: Vec<(String, String)>,
    /// The explorers, in order.
    pub explorers: Vec<RawExplorer>,
    /// Whether this came from a 2017 dialect (changes defaults: `plus`/`all` without centre).
    pub legacy: bool,
}

/// `metadata`: `"WxH"` strings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RawMetadata {
    /// Smallest map.
    pub min: String,
    /// Largest map (inclusive).
    pub max: String,
    /// `compat`: `default` or `reference` ([`crate::Compat`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compat: Option<String>,
}

/// `regions`: a divider.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RawRegions {
    /// `equal`, `bsp`, `sampling`/`sample`.
    pub kind: String,
    /// `number`.
    pub number: Option<String>,
    /// `parameters.min`.
    pub min: Option<String>,
    /// `parameters.max`.
    pub max: Option<String>,
    /// `parameters.trials` (sampling).
    pub trials: Option<String>,
    /// 2017 digger `parameters.probDir`, `probSpawn`, `allowIntersection`.
    pub digger: [Option<String>; 3],
}

/// One entity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RawEntity {
    /// Its name.
    pub name: String,
    /// 2017 `color` (`"0xRRGGBB"`).
    pub color: Option<String>,
    /// 2017 minimum count on the final map.
    pub min: Option<String>,
    /// 2017 maximum count on the final map.
    pub max: Option<String>,
}

/// One explorer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RawExplorer {
    /// Explorer type or alias.
    pub kind: String,
    /// `"map"`, `"all"` or a comma-separated index list.
    pub region: String,
    /// 2017 region border inset `"min,max"`.
    pub border: Option<String>,
    /// `parameters`.
    pub params: RawParams,
    /// Rule strings.
    pub rules: Vec<String>,
    /// JSON path of this explorer in the original script (for messages).
    pub path: String,
    /// 2017 `borderType: wrap`: the region's edges wrap around.
    pub wrap: bool,
}

/// Explorer `parameters`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RawParams {
    /// `same` or `buffer`.
    pub replace: Option<String>,
    /// Entity read outside the region.
    pub out: Option<String>,
    /// Passes (a number or a 2017 `"min,max"` range).
    pub repeats: Option<String>,
    /// Visits per region and pass.
    pub tiles: Option<String>,
    /// Rule firings per region and pass.
    pub changes: Option<String>,
    /// Movement neighbourhood.
    pub directions: Option<String>,
    /// Drunk direction-change probability (`dirprob` or `change`).
    pub dirprob: Option<String>,
    /// The name `dirprob` was given under (`dirprob` or `change`), for messages.
    #[serde(skip)]
    pub dirprob_key: &'static str,
    /// Comma-separated estimators (greedy, wide_heur).
    pub heuristics: Option<String>,
    /// Connect: the entities forming areas.
    pub entities: Option<String>,
    /// 2017 automata `start` and `exploration`; only the 2017 translation sets them.
    #[serde(skip)]
    pub flood: Option<(Option<String>, Option<String>)>,
    /// 2017 agent parameters; only the 2017 translation sets them.
    #[serde(skip)]
    pub agent: Option<RawAgent>,
    /// 2017 connector `type` (short/random/hub/full); only the 2017 translation sets it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connector: Option<String>,
}

/// A 2017 `agent` explorer's own parameters (ranges `"min,max"` as text).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawAgent {
    /// Agents per region.
    pub number: Option<String>,
    /// Turns per move.
    pub speed: Option<String>,
    /// Moves per direction.
    pub change: Option<String>,
    /// Moves before an agent dies.
    pub lifespan: Option<String>,
    /// Entities an agent may stand on.
    pub allowed: Option<String>,
}

/// A JSON object being read, with its path; remembers nothing else.
pub(crate) struct Obj<'a> {
    pub map: &'a Map<String, Value>,
    pub path: String,
}

impl<'a> Obj<'a> {
    pub fn new(v: &'a Value, path: impl Into<String>) -> Result<Self, MarahelError> {
        let path = path.into();
        match v {
            Value::Object(map) => Ok(Self { map, path }),
            other => Err(MarahelError::shape(
                if path.is_empty() {
                    "(script)".into()
                } else {
                    path
                },
                format!("expected an object, found {}", json_kind(other)),
            )),
        }
    }

    /// The JSON path of `key` in this object.
    pub fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// Rejects keys outside `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<(), MarahelError> {
        for key in self.map.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(MarahelError::unknown(
                    self.at(key),
                    "field",
                    key.clone(),
                    allowed.iter().copied(),
                ));
            }
        }
        Ok(())
    }

    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// A string or number field, as text.
    pub fn text(&self, key: &str) -> Result<Option<String>, MarahelError> {
        match self.map.get(key) {
            None => Ok(None),
            Some(v) => text_value(v, &self.at(key)).map(Some),
        }
    }

    /// An array field; `what` names its items in messages, `example` follows them when
    /// the field is missing.
    pub fn array(&self, key: &str, what: &str, example: &str) -> Result<&'a [Value], MarahelError> {
        let message = match self.map.get(key) {
            Some(Value::Array(items)) => return Ok(items),
            Some(other) => format!("expected an array of {what}, found {}", json_kind(other)),
            None => format!("missing (expected an array of {what}{example})"),
        };
        Err(MarahelError::shape(self.at(key), message))
    }

    pub fn req_text(&self, key: &str) -> Result<String, MarahelError> {
        self.text(key)?
            .ok_or_else(|| MarahelError::shape(self.at(key), "missing (expected a string)"))
    }
}

/// A string, or a number written as text.
pub(crate) fn text_value(v: &Value, path: &str) -> Result<String, MarahelError> {
    match v {
        Value::Number(n) => Ok(n.to_string()),
        _ => string_value(v, path),
    }
}

/// Parses JSON text into a raw script, recognising the 2017 dialects.
pub fn read(text: &str) -> Result<RawScript, MarahelError> {
    let value: Value = serde_json::from_str(text).map_err(|e| MarahelError::Json {
        line: e.line(),
        column: e.column(),
        message: without_location(&e),
    })?;
    from_value(&value)
}

/// What serde_json says, without its own " at line L column C" (the error names it once).
fn without_location(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let tail = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&tail).unwrap_or(&text).to_string()
}

/// A raw script from parsed JSON (either dialect).
pub fn from_value(value: &Value) -> Result<RawScript, MarahelError> {
    if crate::legacy::is_legacy(value) {
        return crate::legacy::translate(value);
    }
    let root = Obj::new(value, "")?;
    root.only(&[
        "metadata",
        "regions",
        "entities",
        "neighborhoods",
        "explorers",
    ])?;
    let metadata = read_metadata(&root)?;
    let regions = match root.get("regions") {
        None | Some(Value::Null) => None,
        Some(v) => Some(read_regions(&Obj::new(v, "regions")?, "number")?),
    };
    let entities = entity_names(root.array("entities", "entity names", "")?, "entities")?;
    let neighborhoods = read_neighborhoods(root.get("neighborhoods"), "neighborhoods")?;
    let explorers = root
        .array("explorers", "explorers", "")?
        .iter()
        .enumerate()
        .map(|(i, v)| read_explorer(v, &format!("explorers[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RawScript {
        metadata,
        regions,
        entities,
        neighborhoods,
        explorers,
        legacy: false,
    })
}

/// The entities of a list of names; `key` names the list in errors.
pub(crate) fn entity_names(items: &[Value], key: &str) -> Result<Vec<RawEntity>, MarahelError> {
    let entity = |(i, v)| {
        Ok(RawEntity {
            name: string_value(v, &format!("{key}[{i}]"))?,
            color: None,
            min: None,
            max: None,
        })
    };
    items.iter().enumerate().map(entity).collect()
}

/// A string (and only a string).
pub(crate) fn string_value(v: &Value, path: &str) -> Result<String, MarahelError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        other => Err(MarahelError::shape(
            path,
            format!("expected a string, found {}", json_kind(other)),
        )),
    }
}

fn read_metadata(root: &Obj) -> Result<RawMetadata, MarahelError> {
    let v = root.get("metadata").ok_or_else(|| {
        MarahelError::shape(
            "metadata",
            "missing (expected {\"min\": \"WxH\", \"max\": \"WxH\"})",
        )
    })?;
    let m = Obj::new(v, "metadata")?;
    m.only(&["min", "max", "compat"])?;
    let min = m.req_text("min")?;
    let max = m.text("max")?.unwrap_or_else(|| min.clone());
    let compat = m.text("compat")?;
    Ok(RawMetadata { min, max, compat })
}

/// Reads a divider object; `number_key` is `number` (v0.3.0) or `numberOfRegions` (2017-10).
pub(crate) fn read_regions(r: &Obj, number_key: &str) -> Result<RawRegions, MarahelError> {
    r.only(&["type", number_key, "parameters"])?;
    let kind = r.text("type")?.ok_or_else(|| {
        MarahelError::shape(r.at("type"), "missing (expected equal, bsp or sampling)")
    })?;
    let number = r.text(number_key)?;
    let (mut min, mut max, mut trials) = (None, None, None);
    let mut digger = [None, None, None];
    if let Some(p) = r.get("parameters") {
        let p = Obj::new(p, r.at("parameters"))?;
        let keys = ["probDir", "probSpawn", "allowIntersection"];
        p.only(&["min", "max", "trials", keys[0], keys[1], keys[2]])?;
        min = p.text("min")?;
        max = p.text("max")?;
        trials = p.text("trials")?;
        for (slot, key) in digger.iter_mut().zip(keys) {
            *slot = match p.get(key) {
                Some(Value::Bool(b)) => Some(b.to_string()),
                _ => p.text(key)?,
            };
        }
    }
    Ok(RawRegions {
        kind,
        number,
        min,
        max,
        trials,
        digger,
    })
}

pub(crate) fn read_neighborhoods(
    v: Option<&Value>,
    path: &str,
) -> Result<Vec<(String, String)>, MarahelError> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(v) => {
            let o = Obj::new(v, path)?;
            o.map
                .iter()
                .map(|(k, v)| Ok((k.clone(), string_value(v, &o.at(k))?)))
                .collect()
        }
    }
}

fn read_explorer(v: &Value, path: &str) -> Result<RawExplorer, MarahelError> {
    let e = Obj::new(v, path)?;
    e.only(&["type", "region", "parameters", "rules"])?;
    let kind = e.text("type")?.unwrap_or_else(|| "horizontal".into());
    let region = e.text("region")?.unwrap_or_else(|| "map".into());
    let params = match e.get("parameters") {
        None => RawParams::default(),
        Some(p) => read_params(&Obj::new(p, e.at("parameters"))?)?,
    };
    let rules = read_rules(&e)?;
    Ok(RawExplorer {
        kind,
        region,
        border: None,
        wrap: false,
        params,
        rules,
        path: path.to_string(),
    })
}

pub(crate) fn read_rules(e: &Obj) -> Result<Vec<String>, MarahelError> {
    let example = " like \"self(solid) -> self(empty)\"";
    let items = e.array("rules", "rule strings", example)?;
    let rule = |(i, v)| string_value(v, &format!("{}[{i}]", e.at("rules")));
    items.iter().enumerate().map(rule).collect()
}

fn read_params(p: &Obj) -> Result<RawParams, MarahelError> {
    p.only(&[
        "replace",
        "out",
        "repeats",
        "tiles",
        "changes",
        "directions",
        "dirprob",
        "change",
        "heuristics",
        "entities",
        "neighborhood",
    ])?;
    if p.get("dirprob").is_some() && p.get("change").is_some() {
        return Err(MarahelError::value(
            p.at("change"),
            "both `dirprob` and `change` given (they are the same parameter; keep one)",
        ));
    }
    if p.get("directions").is_some() && p.get("neighborhood").is_some() {
        return Err(MarahelError::value(
            p.at("neighborhood"),
            "both `directions` and `neighborhood` given (they are the same parameter; keep one)",
        ));
    }
    Ok(RawParams {
        replace: p.text("replace")?,
        out: p.text("out")?,
        repeats: p.text("repeats")?,
        tiles: p.text("tiles")?,
        changes: p.text("changes")?,
        // At most one of each pair is given (checked above).
        directions: p.text("directions")?.or(p.text("neighborhood")?),
        dirprob: p.text("dirprob")?.or(p.text("change")?),
        dirprob_key: match p.get("change") {
            Some(_) => "change",
            None => "dirprob",
        },
        heuristics: p.text("heuristics")?,
        entities: p.text("entities")?,
        ..RawParams::default()
    })
}
