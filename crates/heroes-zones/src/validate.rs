//! Step 0b: validation before generating. Every problem is reported at once, each naming the
//! zone (`zones[i]`), connection (`connections[j]`) or config field.

use crate::error::HeroesError;
use crate::template::{Config, ConnectionType, RandomRange, Surface, Template, ZoneKind};

/// Smallest number of cells a zone's share of the map may have.
pub const MIN_ZONE_CELLS: u32 = 100;
/// Portal pairs the `.hmm` format can keep apart: 3 two-way ids (`teleport1..3`) plus
/// 3 pairs made of two one-way colour pairs each (6 colours, `teleport_<colour>_ent/_ext`).
pub const MAX_PORTAL_PAIRS: usize = 6;
/// Most zones a template may have. Zone ids fit a byte per cell, but layout time grows with
/// the square of the zone count (about 1 s for 64 zones in a release build), and the largest
/// community templates have 48 zones.
pub const MAX_ZONES: usize = 64;
/// Most connections a template may have: a planar zone graph of [`MAX_ZONES`] zones has at
/// most `3 * 64 - 6` border-sharing pairs, plus [`MAX_PORTAL_PAIRS`] portals.
pub const MAX_CONNECTIONS: usize = 3 * MAX_ZONES;
/// Most treasure value bands per zone.
pub const MAX_BANDS: usize = 16;
/// Longest template name, in characters (it is written into the `.hmm`).
pub const MAX_NAME_CHARS: usize = 200;
/// Largest accepted `size` of a zone.
pub const MAX_ZONE_SIZE: i32 = 100_000;
/// Largest accepted number of castles or mines in one zone.
pub const MAX_OBJECTS_PER_ZONE: i32 = 32;

/// Checks `config` (and the map side it asks for, unless `size` overrides it).
pub fn validate_config(config: &Config, problems: &mut Vec<String>) {
    let mut bad = |at: &str, m: String| problems.push(format!("config.{at}: {m}"));
    if ![32, 64, 128, 256].contains(&config.map_size) {
        bad(
            "mapSize",
            format!("{} is not 32, 64, 128 or 256", config.map_size),
        );
    }
    for (name, r) in [
        ("connectionGuardLevel", config.connection_guard_level),
        ("mineGuardLevel", config.mine_guard_level),
    ] {
        if r.min > r.max || r.min < -1 || r.max > 6 {
            bad(
                name,
                format!("{{{}, {}}} must lie in -1..6 with min <= max", r.min, r.max),
            );
        }
    }
    if config.treasure_chance.len() != 4 {
        bad(
            "treasureChance",
            format!("expected 4 values, got {}", config.treasure_chance.len()),
        );
    } else {
        let sum: f64 = config.treasure_chance.iter().sum();
        if config
            .treasure_chance
            .iter()
            .any(|c| !(c.is_finite() && *c >= 0.0))
            || (sum - 1.0).abs() > 1e-6
        {
            bad(
                "treasureChance",
                format!("values must be >= 0 and sum to 1 (sum {sum})"),
            );
        }
    }
    if config.treasure_cost.len() != 4 || config.treasure_cost.iter().any(|&c| c < 1) {
        bad("treasureCost", "expected 4 values, each >= 1".into());
    }
    if config.guard_count.len() != 7 {
        bad(
            "guardCount",
            format!("expected 7 ranges, got {}", config.guard_count.len()),
        );
    }
    for (i, r) in config.guard_count.iter().enumerate() {
        if r.min < 0 || r.min > r.max || r.max > 10_000 {
            bad(
                &format!("guardCount[{i}]"),
                format!("{{{}, {}}} must be 0 <= min <= max <= 10000", r.min, r.max),
            );
        }
    }
}

fn check_range(problems: &mut Vec<String>, at: &str, r: RandomRange, lo: i32, hi: i32) {
    if r.min > r.max || r.min < lo || r.max > hi {
        problems.push(format!(
            "{at}: {{{}, {}}} must satisfy {lo} <= min <= max <= {hi}",
            r.min, r.max
        ));
    }
}

/// Position of each zone in `template.zones`, by index (`None` for indices no zone has).
pub fn zone_positions(template: &Template) -> Vec<Option<usize>> {
    let n = template.zones.len();
    let mut pos = vec![None; n];
    for (i, z) in template.zones.iter().enumerate() {
        if z.index >= 0 && (z.index as usize) < n && pos[z.index as usize].is_none() {
            pos[z.index as usize] = Some(i);
        }
    }
    pos
}

/// How many zones have a connection that needs a shared border (not a PORTAL).
fn bordered_zones(template: &Template, n: usize) -> usize {
    let mut has = vec![false; n];
    for c in &template.connections {
        if c.kind != ConnectionType::Portal && c.first != c.second {
            for z in [c.first, c.second] {
                if z >= 0 && (z as usize) < n {
                    has[z as usize] = true;
                }
            }
        }
    }
    has.iter().filter(|&&h| h).count()
}

/// Feasibility of the portal budget before any layout: zones are regions of the plane, so at
/// most `3n - 6` pairs of the `n` zones with such connections can share a border (a planar graph); every other connection
/// needs a portal pair. Returns the problem if more than [`MAX_PORTAL_PAIRS`] would be needed.
pub fn portal_shortfall(zones: usize, bordered: usize, portals: usize) -> Option<String> {
    let planar = match zones {
        0 | 1 => 0,
        2 => 1,
        n => 3 * n - 6,
    };
    let forced = bordered.saturating_sub(planar);
    (forced + portals > MAX_PORTAL_PAIRS).then(|| {
        format!(
            "{bordered} connections need a shared border, but {zones} zones can share at most \
             {planar} borders, so {forced} would become portal pairs (plus {portals} PORTAL \
             connections): the .hmm format has ids for {MAX_PORTAL_PAIRS} portal pairs"
        )
    })
}

/// Checks the template for a map of side `size`; `Ok` or every problem found.
pub fn validate(template: &Template, config: &Config, size: u32) -> Result<(), HeroesError> {
    let mut p = Vec::new();
    validate_config(config, &mut p);
    let n = template.zones.len();
    if n == 0 {
        p.push("zones: the template has no zones".into());
    }
    if n > MAX_ZONES {
        p.push(format!(
            "zones: {n} zones, at most {MAX_ZONES} are supported"
        ));
    }
    if template.connections.len() > MAX_CONNECTIONS {
        p.push(format!(
            "connections: {} connections, at most {MAX_CONNECTIONS} are supported",
            template.connections.len()
        ));
    }
    let name_chars = template.name.chars().count();
    if name_chars > MAX_NAME_CHARS {
        p.push(format!(
            "name: {name_chars} characters, at most {MAX_NAME_CHARS}"
        ));
    }
    // Past the size limits nothing else is checked: the per-zone checks would only list
    // the same kind of problem thousands of times.
    if !p.is_empty() && (n > MAX_ZONES || template.connections.len() > MAX_CONNECTIONS) {
        return Err(HeroesError::Many(p));
    }
    if ![32, 64, 128, 256].contains(&size) {
        p.push(format!("size: {size} is not 32, 64, 128 or 256"));
    }
    let mut seen: Vec<Option<usize>> = vec![None; n];
    let mut players_with_castle = [false; 6];
    for (i, z) in template.zones.iter().enumerate() {
        let at = format!("zones[{i}]");
        if z.index < 0 || z.index as usize >= n {
            p.push(format!(
                "{at}.index: {} is not in 0..{n} (zone indices must be 0..n-1)",
                z.index
            ));
        } else if let Some(j) = seen[z.index as usize] {
            p.push(format!(
                "{at}.index: duplicate zone index {} (also zones[{j}])",
                z.index
            ));
        } else {
            seen[z.index as usize] = Some(i);
        }
        if !(z.surface.decoratable() || z.surface == Surface::Random) {
            p.push(format!("{at}.surface: {:?} cannot be decorated by the .hmm export (use one of {:?} or RANDOM)", z.surface, Surface::DECORATABLE));
        }
        if z.size < 1 || z.size > MAX_ZONE_SIZE {
            p.push(format!(
                "{at}.size: {} must be in 1..={MAX_ZONE_SIZE}",
                z.size
            ));
        }
        if !(0..=100_000).contains(&z.richness) {
            p.push(format!(
                "{at}.richness: {} must be in 0..=100000",
                z.richness
            ));
        }
        check_range(
            &mut p,
            &format!("{at}.minesNum"),
            z.mines_num,
            0,
            MAX_OBJECTS_PER_ZONE,
        );
        check_range(
            &mut p,
            &format!("{at}.castlesNum"),
            z.castles_num,
            0,
            MAX_OBJECTS_PER_ZONE,
        );
        if z.castles.len() > MAX_OBJECTS_PER_ZONE as usize
            || z.mines.len() > MAX_OBJECTS_PER_ZONE as usize
        {
            p.push(format!("{at}: at most {MAX_OBJECTS_PER_ZONE} castles and {MAX_OBJECTS_PER_ZONE} mines per zone"));
        }
        for (k, c) in z.castles.iter().enumerate() {
            if !(-1..=5).contains(&c.player) {
                p.push(format!(
                    "{at}.castles[{k}].player: {} must be -1 (neutral) or 0..5",
                    c.player
                ));
            } else if c.player >= 0 {
                players_with_castle[c.player as usize] = true;
            }
        }
        for (k, m) in z.mines.iter().enumerate() {
            check_range(
                &mut p,
                &format!("{at}.mines[{k}].guardLevel"),
                m.guard_level,
                -100,
                6,
            );
            if !(-1..=5).contains(&m.player) {
                p.push(format!(
                    "{at}.mines[{k}].player: {} must be -1 (neutral) or 0..5",
                    m.player
                ));
            }
        }
        if z.treasures.len() > MAX_BANDS {
            p.push(format!(
                "{at}.treasures: {} bands, at most {MAX_BANDS}",
                z.treasures.len()
            ));
        }
        for (k, b) in z.treasures.iter().enumerate() {
            if b.min > b.max || b.max > 1_000_000 || b.density > 100 {
                p.push(format!(
                    "{at}.treasures[{k}]: need min <= max <= 1000000 and density <= 100"
                ));
            }
        }
        if matches!(z.kind, ZoneKind::PlayerStart | ZoneKind::CpuStart)
            && !z.castles.iter().any(|c| c.player >= 0)
        {
            p.push(format!(
                "{at}.kind: PLAYER_START and CPU_START need a castle with a player (0..5)"
            ));
        }
    }
    for (i, z) in template.zones.iter().enumerate() {
        for (k, m) in z.mines.iter().enumerate() {
            if (0..=5).contains(&m.player) && !players_with_castle[m.player as usize] {
                p.push(format!("zones[{i}].mines[{k}].player: player {} owns no castle, so the map would not declare it", m.player));
            }
        }
    }
    // Connections.
    let mut adj = vec![Vec::new(); n];
    let mut pairs = std::collections::BTreeMap::new();
    let mut portals = 0;
    for (j, c) in template.connections.iter().enumerate() {
        let at = format!("connections[{j}]");
        let ok = |v: i32| v >= 0 && (v as usize) < n && seen[v as usize].is_some();
        if !ok(c.first) || !ok(c.second) {
            let missing = if ok(c.first) { c.second } else { c.first };
            p.push(format!("{at}: connection to missing zone {missing}"));
            continue;
        }
        if c.first == c.second {
            p.push(format!("{at}: zone {} is connected to itself", c.first));
            continue;
        }
        let key = (c.first.min(c.second), c.first.max(c.second));
        if let Some(prev) = pairs.insert(key, j) {
            p.push(format!(
                "{at}: duplicate connection {}-{} (also connections[{prev}])",
                key.0, key.1
            ));
            continue;
        }
        check_range(&mut p, &format!("{at}.guardLevel"), c.guard_level, -100, 6);
        if c.kind == ConnectionType::Portal {
            portals += 1;
        }
        adj[c.first as usize].push(c.second as usize);
        adj[c.second as usize].push(c.first as usize);
    }
    if portals > MAX_PORTAL_PAIRS {
        p.push(format!("connections: {portals} PORTAL connections, but the .hmm format has ids for {MAX_PORTAL_PAIRS} portal pairs"));
    } else if let Some(m) =
        portal_shortfall(bordered_zones(template, n), pairs.len() - portals, portals)
    {
        p.push(format!("connections: {m}"));
    }
    if n > 0 && seen.iter().all(Option::is_some) {
        let mut reached = vec![false; n];
        let mut stack = vec![0usize];
        reached[0] = true;
        while let Some(z) = stack.pop() {
            for &o in &adj[z] {
                if !reached[o] {
                    reached[o] = true;
                    stack.push(o);
                }
            }
        }
        for (idx, r) in reached.iter().enumerate() {
            if !r {
                let pos = seen[idx].unwrap_or(idx);
                p.push(format!(
                    "zones[{pos}]: zone {idx} is unreachable from zone 0 in the connection graph"
                ));
            }
        }
        // Capacity: every zone's share of the map must hold a castle-sized area.
        let total: i64 = template
            .zones
            .iter()
            .map(|z| z.size.clamp(1, MAX_ZONE_SIZE) as i64)
            .sum();
        let cells = (size as i64) * (size as i64);
        for (i, z) in template.zones.iter().enumerate() {
            let share = cells * z.size.clamp(1, MAX_ZONE_SIZE) as i64 / total.max(1);
            if share < MIN_ZONE_CELLS as i64 {
                p.push(format!("zones[{i}]: {n} zones are more than a {size}x{size} map can hold (zone {} would get {share} cells, needs {MIN_ZONE_CELLS})", z.index));
                break;
            }
        }
    }
    match p.len() {
        0 => Ok(()),
        1 => {
            let s = p.pop().unwrap_or_default();
            let (at, msg) = s.split_once(": ").unwrap_or(("template", &s));
            Err(HeroesError::invalid(at, msg))
        }
        _ => Err(HeroesError::Many(p)),
    }
}
