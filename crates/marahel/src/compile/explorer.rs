//! Compiling one explorer: its type and aliases, region, parameters, limits and rules.

use super::*;
use crate::script::RawParams;
use grid_core::text::excerpt;

pub(super) fn compile_explorer(
    e: &RawExplorer,
    names: &Names,
    nbhs: &[Nbh],
    divider: Option<&Divider>,
    dist_slots: &mut usize,
    warnings: &mut Vec<Warning>,
) -> Result<Explorer, MarahelError> {
    let p = &e.path;
    let at = |k: &str| format!("{p}.{k}");
    let param = |k: &str| format!("{p}.parameters.{k}");
    // 2017 agents come only from the 2017 translation, which gives their parameters.
    let tag = EXPLORER_TYPES
        .iter()
        .find(|(n, _)| *n == e.kind.trim())
        .map(|(_, t)| *t)
        .or(e.params.agent.as_ref().map(|_| "agents"))
        .or(e.params.flood.as_ref().map(|_| "flood"))
        .ok_or_else(|| {
            MarahelError::unknown(
                at("type"),
                "explorer type",
                e.kind.clone(),
                EXPLORER_TYPES.iter().map(|(n, _)| *n),
            )
        })?;
    let regions = region_refs(&e.region, at("region"), divider)?;
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
    let budget = |text: &Option<String>, key: &str| {
        let range = |t: &String| parse_range(t, &param(key), 1, 1 << 40);
        text.as_ref().map(range).transpose()
    };
    let tiles = budget(&pr.tiles, "tiles")?;
    let changes = budget(&pr.changes, "changes")?;
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
    // A parameter the language knows but this explorer ignores is a warning (an error in
    // strict mode): evolved scripts carry such genes.
    let mut only = |field: &Option<String>, key: &str, ok: bool, who: &str| {
        if field.is_some() && !ok {
            warnings.push(Warning {
                path: param(key),
                message: format!(
                    "`{key}` has no effect on a {} explorer (only {who})",
                    excerpt(e.kind.trim())
                ),
            });
        }
    };
    only(&pr.dirprob, pr.dirprob_key, tag == "drunk", "turtle_drunk");
    only(
        &pr.heuristics,
        "heuristics",
        tag == "greedy" || tag == "wide",
        "turtle_heur and wide_heur",
    );
    only(&pr.entities, "entities", tag == "connect", "turtle_connect");
    only(
        &pr.directions,
        "directions",
        matches!(tag, "drunk" | "greedy" | "connect" | "agents"),
        "turtles",
    );
    only(
        &pr.tiles,
        "tiles",
        tag != "connect",
        "explorers other than connect; connect ends when all areas are joined",
    );
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
        if tag == "wide" && list.len() > crate::explorer::wide::MAX_HEURISTICS {
            return Err(MarahelError::value(
                param("heuristics"),
                format!(
                    "{} heuristics (a wide_heur explorer sorts by at most {})",
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
            let dirprob = probability(pr.dirprob.as_deref(), param(pr.dirprob_key))?;
            ExplorerKind::Drunk { dirprob }
        }
        "greedy" => ExplorerKind::Greedy {
            heuristics: heuristics(names, dist_slots)?,
        },
        "wide" => ExplorerKind::WideHeur {
            heuristics: heuristics(names, dist_slots)?,
        },
        "wrand" => ExplorerKind::WideRand,
        "flood" => {
            let (start, exploration) = pr.flood.as_ref().expect("floods have their parameters");
            let start = match start {
                None => (0.0, 0.0),
                Some(t) => flood_start(t, param("start"))?,
            };
            let name = exploration.as_deref().unwrap_or("sequential").trim();
            ExplorerKind::Flood {
                start,
                explore: nbh_index(name, param("exploration"))?,
            }
        }
        "agents" => {
            let a = pr.agent.as_ref().expect("agents have their parameters");
            let range = |v: &Option<String>, key: &str, low: u64, default: u64| match v {
                None => Ok(Range {
                    min: default,
                    max: default,
                }),
                Some(t) => parse_range(t, &param(key), low, 1 << 30),
            };
            let allowed = names
                .list(a.allowed.as_deref().unwrap_or("any"))
                .map_err(|m| MarahelError::value(param("allowed"), m))?;
            ExplorerKind::Agents(crate::explorer::agents::AgentSpec {
                number: range(&a.number, "number", 0, 1)?,
                speed: range(&a.speed, "speed", 1, 1)?,
                change: range(&a.change, "change", 1, 1)?,
                lifespan: range(&a.lifespan, "lifespan", 0, 50)?,
                allowed: allowed.iter().map(|&w| w > 0).collect(),
            })
        }
        _ => connect_kind(pr, names, &nbhs[directions], &param)?,
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
    let mut ex = Explorer {
        path: p.clone(),
        kind,
        regions,
        border,
        wrap: e.wrap,
        buffer,
        out,
        repeats,
        tiles,
        changes,
        directions,
        rules,
        order_free: false,
        cost: Default::default(),
        progress: false,
    };
    ex.cost = crate::cost::visit_cost(&ex, names.nbh_len);
    Ok(ex)
}

/// The regions of an explorer's `region` text (`map`, `all` or indices, comma-separated);
/// `path` names it in errors.
fn region_refs(
    text: &str,
    path: String,
    divider: Option<&Divider>,
) -> Result<Vec<RegionRef>, MarahelError> {
    let mut regions = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        regions.push(match part {
            "map" => RegionRef::Map,
            "all" => RegionRef::All,
            _ => {
                let i: usize = part.parse().map_err(|_| {
                    MarahelError::unknown(&path, "region", part, ["map", "all", "0", "1", "..."])
                })?;
                match divider {
                    None => {
                        return Err(MarahelError::value(
                            path,
                            format!("region {i} asked for, but the script has no `regions` divider (use \"map\")"),
                        ));
                    }
                    Some(d) if i >= d.number => {
                        return Err(MarahelError::value(
                            path,
                            format!("region {i} asked for, but the divider makes at most {} (0..{})", d.number, d.number - 1),
                        ));
                    }
                    Some(_) => RegionRef::Index(i),
                }
            }
        });
    }
    Ok(regions)
}

/// A flood's `start`, `"fx,fy"` or `"f"` (fractions, clamped to 0..=1); `path` names it in
/// errors.
fn flood_start(t: &str, path: String) -> Result<(f64, f64), MarahelError> {
    let bad = || {
        MarahelError::value(
            path.clone(),
            format!("{} is not \"fx,fy\" (fractions from 0 to 1)", excerpt(t)),
        )
    };
    let v: Vec<f64> = t
        .split(',')
        .map(|p| p.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    match v[..] {
        [f] => Ok((f.clamp(0.0, 1.0), f.clamp(0.0, 1.0))),
        [fx, fy] => Ok((fx.clamp(0.0, 1.0), fy.clamp(0.0, 1.0))),
        _ => Err(bad()),
    }
}

/// A `turtle_connect` (or 2017 `connector`) explorer's kind: the `entities` its areas are
/// made of and how they are joined; `dirs` must move in all four ways.
fn connect_kind(
    pr: &RawParams,
    names: &Names,
    dirs: &Nbh,
    param: &dyn Fn(&str) -> String,
) -> Result<ExplorerKind, MarahelError> {
    let text = pr.entities.as_deref().unwrap_or("entity");
    let weights = names
        .list(text)
        .map_err(|m| MarahelError::value(param("entities"), m))?;
    let can = |f: &dyn Fn(&(i32, i32)) -> bool| dirs.offsets.iter().any(f);
    if !(can(&|o| o.0 > 0) && can(&|o| o.0 < 0) && can(&|o| o.1 > 0) && can(&|o| o.1 < 0)) {
        return Err(MarahelError::value(
            param("directions"),
            format!(
                "connect must be able to move left, right, up and down; {:?} cannot",
                dirs.name
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
    Ok(ExplorerKind::Connect {
        entities: weights.iter().map(|&w| w > 0).collect(),
        style,
    })
}
