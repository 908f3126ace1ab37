//! Stage 2: validate a [`RawScript`] and compile it into a [`Program`].
//!
//! Every name is resolved here (entities to codes, neighbourhoods to offset lists,
//! estimators to enum variants); every number is range-checked; every mistake becomes a
//! [`MarahelError`] naming its JSON path and what was expected.

use crate::error::{MarahelError, Warning};
use crate::estimator::Estimator;
use crate::program::{
    Compat, ConnectStyle, Divider, DividerKind, Entity, Explorer, ExplorerKind, Nbh, Program,
    Range, RegionRef,
};
use crate::script::{RawExplorer, RawRegions, RawScript};
use grid_core::Neighborhood;
use grid_core::neighborhood::PREDEFINED;
use grid_core::text::excerpt;

mod explorer;
mod rules;
use explorer::compile_explorer;
use rules::Names;

/// Most entities a script may define (cells are bytes: entities, unknown, out).
pub const MAX_ENTITIES: usize = 250;
/// Largest map side.
pub const MAX_SIDE: usize = 16_384;
/// Largest map area (cells).
pub const MAX_AREA: usize = 64 << 20;
/// Most repeats of one explorer.
pub const MAX_REPEATS: u64 = 1_000_000;

/// Explorer type names and aliases, with their kind tag (in the order error messages list
/// them).
#[rustfmt::skip]
pub const EXPLORER_TYPES: [(&str, &str); 28] = [
    ("narrow_horz", "horz"), ("narrow", "horz"), ("horz", "horz"), ("horizontal", "horz"),
    ("narrow_vert", "vert"), ("vert", "vert"), ("vertical", "vert"),
    ("narrow_rand", "rand"), ("random", "rand"), ("rand", "rand"),
    ("turtle_drunk", "drunk"), ("turtle", "drunk"), ("drunk", "drunk"), ("digger", "drunk"),
    ("turtle_heur", "greedy"), ("agent", "greedy"), ("greedy", "greedy"),
    ("turtle_connect", "connect"), ("connect", "connect"),
    ("wide_heur", "wide"), ("wide", "wide"), ("heuristic", "wide"), ("order", "wide"),
    ("wide_rand", "wrand"), ("rorder", "wrand"), ("rand_order", "wrand"),
    ("narrow_rnd", "rand"), ("narrow_drunk", "drunk"),
];

/// A script's neighbourhood matrix, which must mark its centre (`2`, or `3` when the centre
/// is part of the neighbourhood): without one the offsets would silently count from the
/// top-left corner.
fn parse_matrix(matrix: &str, path: &str) -> Result<Neighborhood, MarahelError> {
    use grid_core::neighborhood::NeighborhoodError as E;
    let n = Neighborhood::parse(matrix).map_err(|e| {
        let m = excerpt(matrix);
        MarahelError::value(
            path,
            match e {
                E::Empty => e.to_string(),
                E::BadChar {
                    position, found, ..
                } => format!(
                    "unexpected {found:?} at character {position} of {m} (expected a digit 0-3 or ',')"
                ),
                E::TwoCentres { first, second, .. } => format!(
                    "more than one centre (2 or 3) in {m}: at characters {first} and {second}"
                ),
            },
        )
    })?;
    if !matrix.contains(['2', '3']) {
        return Err(MarahelError::value(
            path,
            format!(
                "{} has no centre (mark it with 2, or 3 to include it, e.g. \"010,131,010\")",
                excerpt(matrix)
            ),
        ));
    }
    Ok(n)
}

/// Parses `"WxH"` (or `"A"` for `AxA`) into positive sizes.
pub fn parse_size(text: &str, path: &str) -> Result<(usize, usize), MarahelError> {
    let bad = || {
        MarahelError::value(
            path,
            format!(
                "{} is not a size (expected \"WxH\" with whole numbers >= 1, e.g. \"50x50\")",
                excerpt(text),
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
            format!(
                "{} is not a whole number from {low} to {high} (or a range \"min,max\")",
                excerpt(text)
            ),
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
            format!("range {} has max < min", excerpt(text)),
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
    let entities = compile_entities(raw)?;
    let nbhs = compile_neighborhoods(raw)?;
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
    let mut warnings = Vec::new();
    for e in &raw.explorers {
        explorers.push(compile_explorer(
            e,
            &names,
            &nbhs,
            divider.as_ref(),
            &mut dist_slots,
            &mut warnings,
        )?);
    }
    // Order-free scans need to know whether anything writes `out` into the map.
    let out_code = names.out() as u8;
    let writes_out = explorers
        .iter()
        .flat_map(|e: &Explorer| &e.rules)
        .flat_map(|r| &r.executers)
        .any(|e| e.choices.contains(&out_code));
    for ex in &mut explorers {
        // Wrapping regions run through the interpreter, which wraps its reads and writes.
        ex.order_free = !ex.wrap && crate::explorer::row_order::applies(ex, &nbhs, writes_out);
        ex.progress = crate::explorer::reads_estimator(ex, |e| {
            matches!(e, Estimator::Percent | Estimator::CPercent)
        });
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
        warnings,
        compat: Compat::Default,
    };
    let compat = match &raw.metadata.compat {
        None => Compat::Default,
        Some(t) => Compat::parse(t).ok_or_else(|| {
            MarahelError::unknown(
                "metadata.compat",
                "compatibility",
                t,
                ["default", "reference"],
            )
        })?,
    };
    program.set_compat(compat);
    program.legend = std::sync::Arc::new(crate::map::legend(&program));
    Ok(program)
}

/// The script's entities: names checked (a word, not reserved, not repeated), 2017 colours
/// and count bounds parsed.
fn compile_entities(raw: &RawScript) -> Result<Vec<Entity>, MarahelError> {
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
                    "{} is not a usable entity name (expected a word: letters, digits, '_', not starting with a digit)",
                    excerpt(name),
                ),
            ));
        }
        let reserved = [
            "any", "entity", "unknown", "out", "random", "percent", "cpercent", "rpercent", "dist",
        ];
        if reserved.contains(&name) || name.starts_with("noise") {
            return Err(MarahelError::value(
                path,
                format!("{} is a reserved word of the language", excerpt(name)),
            ));
        }
        if entities.iter().any(|x: &Entity| x.name == name) {
            return Err(MarahelError::value(
                path,
                format!("duplicate entity {}", excerpt(name)),
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
                            format!("{} is not a colour (expected \"0xRRGGBB\")", excerpt(c)),
                        )
                    })?;
                Some([(v >> 16) as u8, (v >> 8) as u8, v as u8])
            }
        };
        let bound = |text: &Option<String>, key: &str, default: u64| match text {
            Some(t) => Ok(parse_range(t, &format!("{path}.{key}"), 0, u32::MAX as u64)?.min),
            None => Ok::<_, MarahelError>(default),
        };
        let count = match (&e.min, &e.max) {
            (None, None) => None,
            (lo, hi) => {
                let (lo, hi) = (bound(lo, "min", 0)?, bound(hi, "max", u64::MAX)?);
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
    Ok(entities)
}

/// The neighbourhoods: the script's, then the predefined ones it does not redefine.
fn compile_neighborhoods(raw: &RawScript) -> Result<Vec<Nbh>, MarahelError> {
    let mut nbhs: Vec<Nbh> = Vec::new();
    for (name, matrix) in &raw.neighborhoods {
        let path = format!("neighborhoods.{name}");
        if name.trim().is_empty() || name.contains(['(', ')', ',', '|']) || name == "dist" {
            return Err(MarahelError::value(
                path,
                format!("{} is not a usable neighbourhood name", excerpt(name)),
            ));
        }
        let n = parse_matrix(matrix, &path)?;
        if n.len() > crate::cost::MAX_NBH_CELLS {
            return Err(MarahelError::Limit {
                path,
                message: format!(
                    "the neighbourhood has {} cells; at most {} (every reading touches each of them)",
                    n.len(),
                    crate::cost::MAX_NBH_CELLS
                ),
            });
        }
        if n.is_empty() {
            return Err(MarahelError::value(
                path,
                format!("{} selects no cell (use 1 or 3)", excerpt(matrix)),
            ));
        }
        nbhs.push(Nbh::new(name, &n));
    }
    for name in PREDEFINED {
        if !nbhs.iter().any(|n| n.name == name) {
            let n = Neighborhood::predefined(name).expect("predefined");
            nbhs.push(Nbh::new(name, &n));
        }
    }
    Ok(nbhs)
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
        "digger" => {
            let prob = |i: usize, key: &str| {
                probability(r.digger[i].as_deref(), format!("regions.parameters.{key}"))
            };
            DividerKind::Digger {
                prob_dir: prob(0, "probDir")?,
                prob_spawn: prob(1, "probSpawn")?,
                allow_intersection: match r.digger[2].as_deref().map(str::trim) {
                    None | Some("false") => false,
                    Some("true") => true,
                    Some(t) => {
                        return Err(MarahelError::value(
                            "regions.parameters.allowIntersection",
                            format!("{} is not true or false", excerpt(t)),
                        ));
                    }
                },
            }
        }
        other => {
            return Err(MarahelError::unknown(
                "regions.type",
                "divider",
                other,
                ["equal", "bsp", "sampling", "sample", "digger"],
            ));
        }
    };
    if r.digger.iter().any(Option::is_some) && !matches!(kind, DividerKind::Digger { .. }) {
        return Err(MarahelError::value(
            "regions.parameters",
            "only the digger divider takes `probDir`, `probSpawn` and `allowIntersection`",
        ));
    }
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

/// A probability parameter: `text` parsed as a number from 0 to 1, 0.1 when left out (the
/// reference's default for `dirprob`, `probDir` and `probSpawn`); `path` names it in errors.
fn probability(text: Option<&str>, path: String) -> Result<f64, MarahelError> {
    let Some(t) = text else { return Ok(0.1) };
    t.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .ok_or_else(|| {
            MarahelError::value(
                path,
                format!("{} is not a probability (a number from 0 to 1)", excerpt(t)),
            )
        })
}
