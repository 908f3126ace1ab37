//! Stage 2: validate a [`RawScript`] and compile it into a [`Program`].
//!
//! Every name is resolved here (entities to codes, neighbourhoods to offset lists,
//! estimators to enum variants); every number is range-checked; every mistake becomes a
//! [`MarahelError`] naming its JSON path and what was expected.

use crate::error::MarahelError;
use crate::program::{
    ConnectStyle, Divider, DividerKind, Entity, Explorer, ExplorerKind, Nbh, Program, Range,
    RegionRef,
};
use crate::rule::Names;
use crate::script::{RawExplorer, RawRegions, RawScript};
use grid_core::Neighborhood;
use grid_core::neighborhood::PREDEFINED;

/// Most entities a script may define (cells are bytes: entities, unknown, out).
pub const MAX_ENTITIES: usize = 250;
/// Largest map side.
pub const MAX_SIDE: usize = 16_384;
/// Largest map area (cells).
pub const MAX_AREA: usize = 64 << 20;
/// Most repeats of one explorer.
pub const MAX_REPEATS: u64 = 1_000_000;

/// Explorer type names and aliases, with their kind tag.
pub const EXPLORER_TYPES: [(&str, &str); 27] = [
    ("narrow_horz", "horz"),
    ("narrow", "horz"),
    ("horz", "horz"),
    ("horizontal", "horz"),
    ("narrow_vert", "vert"),
    ("vert", "vert"),
    ("vertical", "vert"),
    ("narrow_rand", "rand"),
    ("random", "rand"),
    ("rand", "rand"),
    ("turtle_drunk", "drunk"),
    ("turtle", "drunk"),
    ("drunk", "drunk"),
    ("digger", "drunk"),
    ("turtle_heur", "greedy"),
    ("agent", "greedy"),
    ("greedy", "greedy"),
    ("turtle_connect", "connect"),
    ("connect", "connect"),
    ("wide_heur", "wide"),
    ("wide", "wide"),
    ("heuristic", "wide"),
    ("order", "wide"),
    ("wide_rand", "wrand"),
    ("rorder", "wrand"),
    ("rand_order", "wrand"),
    ("narrow_rnd", "rand"),
];

/// Parses `"WxH"` (or `"A"` for `AxA`) into positive sizes.
pub fn parse_size(text: &str, path: &str) -> Result<(usize, usize), MarahelError> {
    let bad = || {
        MarahelError::value(
            path,
            format!(
                "{text:?} is not a size (expected \"WxH\" with whole numbers >= 1, e.g. \"50x50\")"
            ),
        )
    };
    let t = text.trim();
    let (w, h) = match t.split_once(['x', 'X']) {
        Some((w, h)) => (w.trim(), h.trim()),
        None => (t, t),
    };
    let w: usize = w.parse().map_err(|_| bad())?;
    let h: usize = h.parse().map_err(|_| bad())?;
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

/// Parses a whole number `"n"` or a range `"a,b"` with every value `>= low`.
pub fn parse_range(text: &str, path: &str, low: u64, high: u64) -> Result<Range, MarahelError> {
    let bad = || {
        MarahelError::value(
            path,
            format!("{text:?} is not a whole number from {low} to {high} (or a range \"min,max\")"),
        )
    };
    let num = |s: &str| -> Result<u64, MarahelError> {
        let v: u64 = s.trim().parse().map_err(|_| bad())?;
        if v < low || v > high {
            Err(bad())
        } else {
            Ok(v)
        }
    };
    let (min, max) = match text.split_once(',') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => {
            let v = num(text)?;
            (v, v)
        }
    };
    if max < min {
        return Err(MarahelError::value(
            path,
            format!("range {text:?} has max < min"),
        ));
    }
    Ok(Range { min, max })
}

/// Validates and compiles a raw script.
pub fn compile(raw: &RawScript) -> Result<Program, MarahelError> {
    let min = parse_size(&raw.metadata.min, "metadata.min")?;
    let max = parse_size(&raw.metadata.max, "metadata.max")?;
    for (name, (w, h)) in [("min", min), ("max", max)] {
        if w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_AREA {
            return Err(MarahelError::value(
                format!("metadata.{name}"),
                format!("{w}x{h} is too large (at most {MAX_SIDE} per side and {MAX_AREA} cells)"),
            ));
        }
    }
    check_min_max("metadata", min, max)?;
    // Entities.
    if raw.entities.len() > MAX_ENTITIES {
        return Err(MarahelError::value(
            "entities",
            format!("{} entities (at most {MAX_ENTITIES})", raw.entities.len()),
        ));
    }
    let mut entities = Vec::new();
    for (i, e) in raw.entities.iter().enumerate() {
        let path = format!("entities[{i}]");
        let name = e.name.trim();
        if name.is_empty()
            || name.contains(|c: char| ",|:()<>=!-".contains(c) || c.is_whitespace())
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(MarahelError::value(
                path,
                format!(
                    "{name:?} is not a usable entity name (expected a word: letters, digits, '_', not starting with a digit)"
                ),
            ));
        }
        if [
            "any", "entity", "unknown", "out", "random", "percent", "cpercent", "rpercent",
        ]
        .contains(&name)
            || name.starts_with("noise")
            || name == "dist"
        {
            return Err(MarahelError::value(
                path,
                format!("{name:?} is a reserved word of the language"),
            ));
        }
        if entities.iter().any(|x: &Entity| x.name == name) {
            return Err(MarahelError::value(
                path,
                format!("duplicate entity {name:?}"),
            ));
        }
        let color = match &e.color {
            None => None,
            Some(c) => {
                let hex = c.trim().trim_start_matches("0x").trim_start_matches('#');
                let v = u32::from_str_radix(hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 6)
                    .ok_or_else(|| {
                        MarahelError::value(
                            format!("{path}.color"),
                            format!("{c:?} is not a colour (expected \"0xRRGGBB\")"),
                        )
                    })?;
                Some([(v >> 16) as u8, (v >> 8) as u8, v as u8])
            }
        };
        let count = match (&e.min, &e.max) {
            (None, None) => None,
            (lo, hi) => {
                let lo = match lo {
                    Some(t) => parse_range(t, &format!("{path}.min"), 0, u32::MAX as u64)?.min,
                    None => 0,
                };
                let hi = match hi {
                    Some(t) => parse_range(t, &format!("{path}.max"), 0, u32::MAX as u64)?.min,
                    None => u64::MAX,
                };
                if hi < lo {
                    return Err(MarahelError::Impossible {
                        path: format!("{path}.max"),
                        message: format!("max count {hi} is below min count {lo}"),
                    });
                }
                Some(Range { min: lo, max: hi })
            }
        };
        entities.push(Entity {
            name: name.to_string(),
            color,
            count,
        });
    }
    // Neighbourhoods: the script's, then the predefined ones it does not redefine.
    let mut nbhs: Vec<Nbh> = Vec::new();
    for (name, matrix) in &raw.neighborhoods {
        let path = format!("neighborhoods.{name}");
        if name.trim().is_empty() || name.contains(['(', ')', ',', '|']) || name == "dist" {
            return Err(MarahelError::value(
                path,
                format!("{name:?} is not a usable neighbourhood name"),
            ));
        }
        let n =
            Neighborhood::parse(matrix).map_err(|e| MarahelError::value(&path, e.to_string()))?;
        if n.is_empty() {
            return Err(MarahelError::value(
                path,
                format!("{matrix:?} selects no cell (use 1 or 3)"),
            ));
        }
        let offsets = n
            .offsets()
            .iter()
            .map(|p| (p.x as i32, p.y as i32))
            .collect();
        nbhs.push(Nbh {
            name: name.clone(),
            offsets,
        });
    }
    for name in PREDEFINED {
        if !nbhs.iter().any(|n| n.name == name) {
            let n = Neighborhood::predefined(name).expect("predefined");
            let offsets = n
                .offsets()
                .iter()
                .map(|p| (p.x as i32, p.y as i32))
                .collect();
            nbhs.push(Nbh {
                name: name.to_string(),
                offsets,
            });
        }
    }
    let divider = match &raw.regions {
        None => None,
        Some(r) => Some(compile_divider(r, max)?),
    };
    let entity_names: Vec<String> = entities.iter().map(|e| e.name.clone()).collect();
    let nbh_names: Vec<String> = nbhs.iter().map(|n| n.name.clone()).collect();
    let nbh_len: Vec<usize> = nbhs.iter().map(|n| n.offsets.len()).collect();
    let names = Names {
        entities: &entity_names,
        nbhs: &nbh_names,
        nbh_len: &nbh_len,
        legacy: raw.legacy,
    };
    let mut dist_slots = 0;
    let mut explorers = Vec::new();
    for e in &raw.explorers {
        explorers.push(compile_explorer(
            e,
            &names,
            &nbhs,
            divider.as_ref(),
            &mut dist_slots,
        )?);
    }
    // Row-at-a-time execution needs to know whether anything writes `out` into the map.
    let out_code = names.out() as u8;
    let writes_out = explorers
        .iter()
        .flat_map(|e: &Explorer| &e.rules)
        .flat_map(|r| &r.executers)
        .any(|e| e.choices.contains(&out_code));
    for ex in &mut explorers {
        ex.bulk = crate::explorer::bulk::eligible(ex, &nbhs, writes_out);
    }
    let mut program = Program {
        min,
        max,
        divider,
        entities,
        nbhs,
        explorers,
        dist_slots,
        legend: Default::default(),
    };
    program.legend = std::sync::Arc::new(crate::map::legend(&program));
    Ok(program)
}

fn compile_divider(r: &RawRegions, map_max: (usize, usize)) -> Result<Divider, MarahelError> {
    let kind = match r.kind.trim() {
        "equal" => DividerKind::Equal,
        "bsp" => DividerKind::Bsp,
        "sampling" | "sample" => DividerKind::Sampling {
            trials: match &r.trials {
                None => None,
                Some(t) => {
                    Some(parse_range(t, "regions.parameters.trials", 1, 1_000_000)?.min as usize)
                }
            },
        },
        other => {
            return Err(MarahelError::unknown(
                "regions.type",
                "divider",
                other,
                ["equal", "bsp", "sampling", "sample"],
            ));
        }
    };
    if r.trials.is_some() && !matches!(kind, DividerKind::Sampling { .. }) {
        return Err(MarahelError::value(
            "regions.parameters.trials",
            "only the sampling divider takes `trials`",
        ));
    }
    let number = match &r.number {
        None => 1,
        Some(t) => parse_range(t, "regions.number", 1, 100_000)?.min as usize,
    };
    let min = match &r.min {
        None => (1, 1),
        Some(t) => parse_size(t, "regions.parameters.min")?,
    };
    let max = match (&r.max, kind) {
        (Some(t), _) => parse_size(t, "regions.parameters.max")?,
        (None, DividerKind::Bsp) if r.min.is_none() => (usize::MAX, usize::MAX),
        (None, DividerKind::Bsp) => (usize::MAX, usize::MAX),
        (None, _) => min,
    };
    check_min_max("regions.parameters", min, max)?;
    let what = if kind == DividerKind::Equal {
        "divisions"
    } else {
        "regions of"
    };
    if min.0 > map_max.0 || min.1 > map_max.1 {
        return Err(MarahelError::Impossible {
            path: "regions.parameters.min".into(),
            message: format!(
                "{what} {}x{} do not fit in the largest map {}x{}",
                min.0, min.1, map_max.0, map_max.1
            ),
        });
    }
    if kind == DividerKind::Bsp {
        let fit = (map_max.0 / min.0) * (map_max.1 / min.1);
        if fit < number {
            return Err(MarahelError::Impossible {
                path: "regions.number".into(),
                message: format!(
                    "{number} regions of at least {}x{} do not fit in the largest map {}x{} (at most {fit})",
                    min.0, min.1, map_max.0, map_max.1
                ),
            });
        }
    }
    Ok(Divider {
        kind,
        number,
        min,
        max,
    })
}

fn compile_explorer(
    e: &RawExplorer,
    names: &Names,
    nbhs: &[Nbh],
    divider: Option<&Divider>,
    dist_slots: &mut usize,
) -> Result<Explorer, MarahelError> {
    let p = &e.path;
    let at = |k: &str| format!("{p}.{k}");
    let param = |k: &str| format!("{p}.parameters.{k}");
    let tag = EXPLORER_TYPES
        .iter()
        .find(|(n, _)| *n == e.kind.trim())
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            MarahelError::unknown(
                at("type"),
                "explorer type",
                e.kind.clone(),
                EXPLORER_TYPES.iter().map(|(n, _)| *n),
            )
        })?;
    // Regions.
    let mut regions = Vec::new();
    for part in e.region.split(',') {
        let part = part.trim();
        regions.push(match part {
            "map" => RegionRef::Map,
            "all" => RegionRef::All,
            _ => {
                let i: usize = part.parse().map_err(|_| {
                    MarahelError::unknown(at("region"), "region", part, ["map", "all", "0", "1", "..."])
                })?;
                match divider {
                    None => {
                        return Err(MarahelError::value(
                            at("region"),
                            format!("region {i} asked for, but the script has no `regions` divider (use \"map\")"),
                        ));
                    }
                    Some(d) if i >= d.number => {
                        return Err(MarahelError::value(
                            at("region"),
                            format!("region {i} asked for, but the divider makes at most {} (0..{})", d.number, d.number - 1),
                        ));
                    }
                    Some(_) => RegionRef::Index(i),
                }
            }
        });
    }
    let pr = &e.params;
    let buffer = match pr.replace.as_deref().map(str::trim) {
        None | Some("same") => false,
        Some("buffer") => true,
        Some(other) => {
            return Err(MarahelError::unknown(
                param("replace"),
                "replace mode",
                other,
                ["same", "buffer"],
            ));
        }
    };
    let out = match &pr.out {
        None => names.out() as u8,
        Some(o) => names.code(o.trim()).ok_or_else(|| {
            let mut known = names.entities.to_vec();
            known.extend(["unknown".to_string(), "out".to_string()]);
            MarahelError::unknown(param("out"), "entity", o.trim(), known)
        })? as u8,
    };
    let repeats = match &pr.repeats {
        None => Range { min: 1, max: 1 },
        Some(t) => parse_range(t, &param("repeats"), 1, MAX_REPEATS)?,
    };
    let limit = 1u64 << 40;
    let tiles = pr
        .tiles
        .as_ref()
        .map(|t| parse_range(t, &param("tiles"), 1, limit))
        .transpose()?;
    let changes = pr
        .changes
        .as_ref()
        .map(|t| parse_range(t, &param("changes"), 1, limit))
        .transpose()?;
    let nbh_index = |name: &str, path: String| {
        nbhs.iter().position(|n| n.name == name).ok_or_else(|| {
            MarahelError::unknown(
                path,
                "neighbourhood",
                name,
                nbhs.iter().map(|n| n.name.clone()),
            )
        })
    };
    let directions = nbh_index(
        pr.directions.as_deref().unwrap_or("plus").trim(),
        param("directions"),
    )?;
    let only =
        |field: &Option<String>, key: &str, ok: bool, who: &str| -> Result<(), MarahelError> {
            if field.is_some() && !ok {
                Err(MarahelError::value(
                    param(key),
                    format!(
                        "`{key}` has no effect on a {} explorer (only {who})",
                        e.kind.trim()
                    ),
                ))
            } else {
                Ok(())
            }
        };
    only(&pr.dirprob, "dirprob", tag == "drunk", "turtle_drunk")?;
    only(
        &pr.heuristics,
        "heuristics",
        tag == "greedy" || tag == "wide",
        "turtle_heur and wide_heur",
    )?;
    only(&pr.entities, "entities", tag == "connect", "turtle_connect")?;
    only(
        &pr.directions,
        "directions",
        matches!(tag, "drunk" | "greedy" | "connect"),
        "turtles",
    )?;
    only(
        &pr.tiles,
        "tiles",
        tag != "connect",
        "explorers other than connect; connect ends when all areas are joined",
    )?;
    let heuristics = |names: &Names, slots: &mut usize| -> Result<Vec<_>, MarahelError> {
        let text = pr.heuristics.as_ref().ok_or_else(|| {
            MarahelError::shape(
                param("heuristics"),
                "missing (expected estimators such as \"noise,random\")",
            )
        })?;
        let list: Vec<_> = text
            .split(',')
            .map(|h| {
                names
                    .estimator(h, slots)
                    .map_err(|m| MarahelError::value(param("heuristics"), m))
            })
            .collect::<Result<_, _>>()?;
        if list.len() > crate::explorer::wide::MAX_HEURISTICS {
            return Err(MarahelError::value(
                param("heuristics"),
                format!(
                    "{} heuristics (at most {})",
                    list.len(),
                    crate::explorer::wide::MAX_HEURISTICS
                ),
            ));
        }
        Ok(list)
    };
    let kind = match tag {
        "horz" => ExplorerKind::Horizontal,
        "vert" => ExplorerKind::Vertical,
        "rand" => ExplorerKind::RandomNarrow,
        "drunk" => {
            let dirprob = match &pr.dirprob {
                None => 0.1,
                Some(t) => t
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| (0.0..=1.0).contains(v))
                    .ok_or_else(|| {
                        MarahelError::value(
                            param("dirprob"),
                            format!("{t:?} is not a probability (expected a number from 0 to 1)"),
                        )
                    })?,
            };
            ExplorerKind::Drunk { dirprob }
        }
        "greedy" => ExplorerKind::Greedy {
            heuristics: heuristics(names, dist_slots)?,
        },
        "wide" => ExplorerKind::WideHeur {
            heuristics: heuristics(names, dist_slots)?,
        },
        "wrand" => ExplorerKind::WideRand,
        _ => {
            let text = pr.entities.as_deref().unwrap_or("entity");
            let weights = names
                .list(text)
                .map_err(|m| MarahelError::value(param("entities"), m))?;
            let offs = &nbhs[directions].offsets;
            let can = |f: &dyn Fn(&(i32, i32)) -> bool| offs.iter().any(f);
            if !(can(&|o| o.0 > 0) && can(&|o| o.0 < 0) && can(&|o| o.1 > 0) && can(&|o| o.1 < 0)) {
                return Err(MarahelError::value(
                    param("directions"),
                    format!(
                        "connect must be able to move left, right, up and down; {:?} cannot",
                        nbhs[directions].name
                    ),
                ));
            }
            let style = match pr.connector.as_deref().map(str::trim) {
                None => ConnectStyle::Tour,
                Some("short") => ConnectStyle::Short,
                Some("random") => ConnectStyle::Random,
                Some("hub") => ConnectStyle::Hub,
                Some("full") => ConnectStyle::Full,
                Some(t) => {
                    return Err(MarahelError::unknown(
                        param("type"),
                        "connector type",
                        t,
                        ["short", "random", "hub", "full"],
                    ));
                }
            };
            ExplorerKind::Connect {
                entities: weights.iter().map(|&w| w > 0).collect(),
                style,
            }
        }
    };
    if e.rules.is_empty() {
        return Err(MarahelError::shape(
            at("rules"),
            "no rules (expected at least one \"conditions -> executers\")",
        ));
    }
    let mut rules = Vec::new();
    for (j, text) in e.rules.iter().enumerate() {
        rules.push(names.rule(text, &format!("{p}.rules[{j}]"), dist_slots)?);
    }
    let border = e
        .border
        .as_ref()
        .map(|b| parse_range(b, &format!("{p}.region.border"), 0, MAX_SIDE as u64))
        .transpose()?;
    let ex = Explorer {
        path: p.clone(),
        kind,
        regions,
        border,
        buffer,
        out,
        repeats,
        tiles,
        changes,
        directions,
        rules,
        bulk: false,
    };
    Ok(ex)
}

/// `<path>.max` must be at least `<path>.min` on both axes.
fn check_min_max(path: &str, min: (usize, usize), max: (usize, usize)) -> Result<(), MarahelError> {
    if max.0 < min.0 || max.1 < min.1 {
        return Err(MarahelError::value(
            format!("{path}.max"),
            format!(
                "{}x{} is smaller than {path}.min {}x{}",
                max.0, max.1, min.0, min.1
            ),
        ));
    }
    Ok(())
}
