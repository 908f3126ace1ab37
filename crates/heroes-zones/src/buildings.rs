//! Step 4: castles and mines. Every castle of a zone is placed (the first nearest the zone's
//! centre, the others spread out), then its mines; each keeps a free approach cell in front of
//! its entrance, which the connect step and the global check make reachable.

use crate::hmm::ids;
use crate::map::{Cell, ObjectKind};
use crate::template::{Config, Fraction, Resource, TemplateCastle, TemplateZone, ZoneKind};
use crate::work::Work;
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Candidate anchors of `zone` ordered by how well they suit the next object: the first
/// object goes near the centre, later ones far from objects already in the zone.
fn candidates(w: &Work, zone: usize, first: bool, keep: usize, rng: &mut LevelRng) -> Vec<usize> {
    let (cx, cy) = w.zones[zone].centre;
    let side = w.side;
    let existing: Vec<usize> = w
        .objects
        .iter()
        .filter(|o| o.zone as usize == zone)
        .map(|o| w.anchor(o))
        .collect();
    let salt: u64 = rng.random();
    let mut scored: Vec<(i64, usize)> = w.zone_cells[zone]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| w.cell(c) == Cell::Free)
        .map(|c| {
            let (x, y) = ((c % side) as f64, (c / side) as f64);
            let centre = ((x - cx).powi(2) + (y - cy).powi(2)) as i64;
            let jitter = (grid_core::rng::mix64(salt ^ c as u64) & 7) as i64;
            let s = if first || existing.is_empty() {
                centre + jitter
            } else {
                let near = existing.iter().map(|&e| w.dist2(c, e)).min().unwrap_or(0);
                // Far from other objects, but not out at the border.
                centre / 4 - near.min(400) * 2 + jitter * 4
            };
            (s, c)
        })
        .collect();
    // Only the best few hundred are ever tried in practice: select, then sort those.
    if scored.len() > keep {
        scored.select_nth_unstable(keep);
        scored.truncate(keep);
    }
    scored.sort_unstable();
    scored.into_iter().map(|(_, c)| c).collect()
}

/// Places `kind` with footprint `fp` at the best candidate; returns the approach cell.
pub(crate) fn place_object(
    w: &mut Work,
    zone: usize,
    fp: &[(i8, i8)],
    approach: (i64, i64),
    kind: ObjectKind,
    first: bool,
    rng: &mut LevelRng,
) -> Option<usize> {
    // The best few hundred candidates first; all of them only if those fail.
    for keep in [400, usize::MAX] {
        for c in candidates(w, zone, first, keep, rng) {
            if let Some(ap) = w.place(c, fp, approach, zone) {
                w.add(kind, c, zone);
                return Some(ap);
            }
        }
        if w.zone_cells[zone].len() <= keep {
            break;
        }
    }
    None
}

/// The mines of a zone: the explicit ones, then random ones until `minesNum` is reached.
pub fn mine_list(
    z: &TemplateZone,
    config: &Config,
    rng: &mut LevelRng,
) -> Vec<(Resource, i32, i32, Option<u32>)> {
    let mut out: Vec<(Resource, i32, i32, Option<u32>)> = Vec::new();
    let guard = |m: &crate::template::TemplateMine, rng: &mut LevelRng| m.guard_level.draw(rng);
    for m in &z.mines {
        let res = if m.resource == Resource::Random {
            Resource::REAL[rng.random_range(0..7)]
        } else {
            m.resource
        };
        out.push((res, m.player, guard(m, rng), m.guard_value));
    }
    let want = if z.kind == ZoneKind::Junction && z.mines.is_empty() {
        0
    } else {
        z.mines_num.draw(rng).max(0) as usize
    };
    while out.len() < want {
        let has =
            |r: Resource, o: &Vec<(Resource, i32, i32, Option<u32>)>| o.iter().any(|m| m.0 == r);
        let res = if config.prioritize_base_mines.value
            && !(has(Resource::Ore, &out) && has(Resource::Wood, &out))
        {
            if has(Resource::Ore, &out) {
                Resource::Wood
            } else {
                Resource::Ore
            }
        } else {
            let missing: Vec<Resource> = Resource::REAL
                .iter()
                .copied()
                .filter(|r| !has(*r, &out))
                .collect();
            if missing.is_empty() {
                Resource::REAL[rng.random_range(0..7)]
            } else {
                missing[rng.random_range(0..missing.len())]
            }
        };
        out.push((res, -1, -2, None));
    }
    // Base mines first, as in the reference.
    out.sort_by_key(|m| !matches!(m.0, Resource::Ore | Resource::Wood));
    out
}

/// A mine's guard for the guard step: object index, level (below 0: none) and, when the
/// zone's monster strength decided it, the creature count.
pub(crate) type MineGuard = (usize, i32, Option<u32>);

/// Places castles and mines in every zone. Returns each mine's guard for the guard step.
pub(crate) fn place(
    w: &mut Work,
    zones: &[TemplateZone],
    config: &Config,
    rng: &mut LevelRng,
) -> Vec<MineGuard> {
    let mut mine_guards = Vec::new();
    for (zi, z) in zones.iter().enumerate() {
        let castles: Vec<TemplateCastle> = if !z.castles.is_empty() {
            z.castles.clone()
        } else if z.kind == ZoneKind::Junction {
            Vec::new()
        } else {
            vec![TemplateCastle::default(); z.castles_num.draw(rng).max(0) as usize]
        };
        for (k, c) in castles.iter().enumerate() {
            let o = rng.random_range(0..2usize);
            let mut placed = None;
            for t in 0..2 {
                let (id, fp) = ids::CASTLES[(o + t) % 2];
                let approach = if id == "small_01" { (0, 1) } else { (1, 0) };
                let kind = ObjectKind::Castle {
                    id,
                    fraction: c.fraction,
                    player: c.player.clamp(-1, 5) as i8,
                };
                placed = place_object(w, zi, fp, approach, kind, k == 0, rng);
                if placed.is_some() {
                    break;
                }
            }
            match placed {
                Some(ap) => w.nodes[zi].push(ap),
                None => w
                    .stats
                    .removed
                    .push(format!("zones[{zi}].castles[{k}]: no room for a castle")),
            }
        }
        let surface = w.zones[zi].surface;
        for (k, (res, player, level, value)) in mine_list(z, config, rng).into_iter().enumerate() {
            let (id, fp) = ids::mine(res, surface);
            let kind = ObjectKind::Mine {
                id,
                resource: res,
                player: player.clamp(-1, 5) as i8,
            };
            match place_object(w, zi, fp, (0, 1), kind, false, rng) {
                // Mines are not road vertices (as in VCMI): roads join towns and passages.
                Some(_) => {
                    let oi = w.objects.len() - 1;
                    if let (Some(m), Some(v)) = (z.monsters, value) {
                        let guard = crate::strength::zone_index(m).and_then(|i| {
                            crate::strength::stack(crate::strength::strength(v, i), rng)
                        });
                        if let Some((l, c)) = guard {
                            mine_guards.push((oi, l as i32, Some(c)));
                        }
                        continue;
                    }
                    let mut lvl = level;
                    if !(-1..=6).contains(&lvl) {
                        lvl = config.mine_guard_level.draw(rng);
                        if config.decrease_guard_level_at_base_mine_by_one.value
                            && matches!(res, Resource::Ore | Resource::Wood)
                        {
                            lvl -= 1;
                        }
                    }
                    mine_guards.push((oi, lvl, None));
                }
                None => w
                    .stats
                    .removed
                    .push(format!("zones[{zi}] mine {k} ({res:?}): no room")),
            }
        }
    }
    mine_guards
}

/// The faction of a castle as written (RANDOM stays RANDOM: PH resolves it).
pub fn faction_ordinal(f: Fraction) -> u8 {
    f as u8
}
