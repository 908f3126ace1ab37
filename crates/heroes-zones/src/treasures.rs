//! Step 10: guards and treasures. Guards stand on passages, next to portals and mines, and
//! beside valuable treasures, by guard level (the template/config rules of the reference, with
//! every range drawn per guard). Treasures come from the zone's value bands, or from its
//! `richness` budget (per [`RICHNESS_AREA`] cells) and the config's chances and costs, and lie
//! in piles of up to [`PILE_ITEMS`] on neighbouring cells with the strongest guard any of them
//! asks for.

use crate::hmm::ids::ARTIFACTS;
use crate::map::{Cell, ObjectKind, Realised, TreasureKind};
use crate::strength;
use crate::template::{Config, Resource, Template, TemplateZone};
use crate::work::{SIDES, Work};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Without value bands, a zone's `richness` is its treasure budget per this many cells, so
/// small zones are not crowded and large ones not empty.
pub const RICHNESS_AREA: u32 = 1000;
/// Most treasures in one pile (neighbouring cells, one guard).
pub const PILE_ITEMS: usize = 3;

/// A treasure pile of `value` gold: its kind, and the guard level it deserves (if any).
pub fn pile(value: u32, rng: &mut LevelRng) -> (TreasureKind, Option<u8>) {
    let kind = match value {
        0..750 => TreasureKind::Resource(Resource::REAL[rng.random_range(0..7)]),
        750..1500 => TreasureKind::Campfire,
        1500..3000 => TreasureKind::Chest,
        _ => TreasureKind::Artifact(ARTIFACTS[rng.random_range(0..ARTIFACTS.len())]),
    };
    let guard = (value >= 2000).then(|| (value / 2500).min(6) as u8);
    (kind, guard)
}

fn add_guard(w: &mut Work, at: usize, zone: usize, level: u8, config: &Config, rng: &mut LevelRng) {
    let count = config
        .guard_count
        .get(level as usize)
        .map_or(0, |r| r.draw(rng).max(0) as u32);
    add_stack(w, at, zone, (level, count));
}

/// A guard of `(level, count)` at `at`.
fn add_stack(w: &mut Work, at: usize, zone: usize, (level, count): (u8, u32)) {
    w.set(at, Cell::Guard);
    w.add(ObjectKind::Guard { level, count }, at, zone);
}

/// The guard a connection asks for: from its guard value if it has one, else from its level
/// (or the config's); `None` for no guard.
fn connection_guard(
    c: &crate::template::TemplateConnection,
    config: &Config,
    rng: &mut LevelRng,
) -> Option<(u8, Option<u32>)> {
    if let Some(v) = c.guard_value {
        let (l, n) = strength::stack(strength::strength(v, strength::CONNECTION), rng)?;
        return Some((l, Some(n)));
    }
    let mut level = c.guard_level.draw(rng);
    if level == -1 {
        level = config.connection_guard_level.draw(rng);
    }
    (level >= 0).then(|| (level.min(6) as u8, None))
}

/// A free (non-road) 4-neighbour of `i` in `zone`.
fn free_side(w: &Work, i: usize, zone: usize) -> Option<usize> {
    SIDES
        .iter()
        .filter_map(|&(dx, dy)| w.offset(i, dx, dy))
        .find(|&n| {
            w.zone_of[n] as usize == zone
                && matches!(w.cell(n), Cell::Free | Cell::Approach | Cell::Road)
        })
}

pub(crate) fn place(
    w: &mut Work,
    template: &Template,
    pos: &[usize],
    mine_guards: &[crate::buildings::MineGuard],
    config: &Config,
    rng: &mut LevelRng,
) {
    // Connection guards.
    for (j, c) in template.connections.iter().enumerate() {
        if c.wide {
            continue;
        }
        let Some((level, count)) = connection_guard(c, config, rng) else {
            continue;
        };
        let guard = |w: &mut Work, at: usize, z: usize, rng: &mut LevelRng| match count {
            Some(n) => add_stack(w, at, z, (level, n)),
            None => add_guard(w, at, z, level, config, rng),
        };
        match w.realised[j].clone() {
            Some(Realised::Passage([p, _])) => guard(w, p, pos[c.first as usize], rng),
            Some(Realised::Portal { .. }) => {
                let ends: Vec<(usize, usize)> = w
                    .objects
                    .iter()
                    .filter(|o| matches!(o.kind, ObjectKind::Portal { connection, .. } if connection == j))
                    .map(|o| (w.anchor(o), o.zone as usize))
                    .collect();
                for (a, z) in ends {
                    if let Some(ap) = w.offset(a, 0, 1)
                        && matches!(w.cell(ap), Cell::Approach | Cell::Road | Cell::Free)
                    {
                        guard(w, ap, z, rng);
                    }
                }
            }
            Some(Realised::LeftOut { .. }) | None => {}
        }
    }
    // Mine guards, on the mine's approach.
    for &(oi, level, count) in mine_guards {
        if level < 0 {
            continue;
        }
        let (a, z) = (w.anchor(&w.objects[oi]), w.objects[oi].zone as usize);
        if let Some(ap) = w.offset(a, 0, 1) {
            match count {
                Some(n) => add_stack(w, ap, z, (level.min(6) as u8, n)),
                None => add_guard(w, ap, z, level.min(6) as u8, config, rng),
            }
        }
    }
    // Treasures.
    for (zi, z) in template.zones.iter().enumerate() {
        treasures_of_zone(w, zi, z, config, rng);
    }
}

/// A treasure pile's guard: a level (count from the config) or a whole stack.
#[derive(Clone, Copy)]
enum Guard {
    Level(u8),
    Stack((u8, u32)),
}

fn treasures_of_zone(
    w: &mut Work,
    zi: usize,
    z: &TemplateZone,
    config: &Config,
    rng: &mut LevelRng,
) {
    let mut spots: Vec<usize> = w.zone_cells[zi]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| w.cell(c) == Cell::Free && w.walkable_sides(c).count() >= 2)
        .collect();
    let mut take = |w: &Work, rng: &mut LevelRng| -> Option<usize> {
        for _ in 0..64 {
            if spots.is_empty() {
                return None;
            }
            let k = rng.random_range(0..spots.len());
            let c = spots.swap_remove(k);
            if w.cell(c) == Cell::Free {
                return Some(c);
            }
        }
        None
    };
    let mut piles: Vec<(TreasureKind, u32, Option<Guard>)> = Vec::new();
    if !z.treasures.is_empty() {
        let area = w.zones[zi].area;
        for b in &z.treasures {
            let n = (area as u64 * b.density as u64 / 1000).min(200);
            for _ in 0..n {
                let v = if b.max > b.min {
                    rng.random_range(b.min..=b.max)
                } else {
                    b.min
                };
                let (k, g) = pile(v, rng);
                let g = match z.monsters {
                    None => g.map(Guard::Level),
                    Some(m) => strength::zone_index(m)
                        .filter(|&i| strength::pile_guarded(v, i))
                        .and_then(|i| strength::stack(strength::strength(v, i), rng))
                        .map(Guard::Stack),
                };
                piles.push((k, v, g));
            }
        }
    } else {
        let area = w.zones[zi].area as i64;
        let mut budget = (z.richness.max(0) as i64 * area / RICHNESS_AREA as i64).min(2000) as i32;
        let chance = &config.treasure_chance;
        let cost = &config.treasure_cost;
        while budget > 0 && piles.len() < 400 {
            let mut r: f64 = rng.random_range(0.0..1.0);
            let mut t = 0;
            while t < 3 && r >= chance.get(t).copied().unwrap_or(1.0) {
                r -= chance.get(t).copied().unwrap_or(1.0);
                t += 1;
            }
            let kind = match t {
                0 => TreasureKind::Resource(Resource::REAL[rng.random_range(0..7)]),
                1 => TreasureKind::Campfire,
                2 => TreasureKind::Chest,
                _ => TreasureKind::Artifact(ARTIFACTS[rng.random_range(0..ARTIFACTS.len())]),
            };
            let guard = matches!(kind, TreasureKind::Artifact(_)).then_some(Guard::Level(2));
            piles.push((kind, 0, guard));
            budget -= cost.get(t).copied().unwrap_or(1).max(1);
        }
    }
    // Piles of 1..=PILE_ITEMS treasures on neighbouring cells, guarded by the strongest
    // guard any of them asks for.
    let mut k = 0;
    while k < piles.len() {
        let want = 1 + rng.random_range(0..PILE_ITEMS);
        let Some(c) = take(w, rng) else { break };
        let mut cells = vec![c];
        while cells.len() < want.min(piles.len() - k) {
            let wr: &Work = w;
            let next = cells
                .iter()
                .flat_map(|&p| {
                    SIDES
                        .iter()
                        .filter_map(move |&(dx, dy)| wr.offset(p, dx, dy))
                })
                .find(|&n| {
                    wr.zone_of[n] as usize == zi && wr.cell(n) == Cell::Free && !cells.contains(&n)
                });
            match next {
                Some(n) => cells.push(n),
                None => break,
            }
        }
        let items = &piles[k..k + cells.len()];
        k += cells.len();
        for (&cell, &(kind, value, _)) in cells.iter().zip(items) {
            w.set(cell, Cell::Treasure);
            w.add(ObjectKind::Treasure { kind, value }, cell, zi);
        }
        let guard = items.iter().filter_map(|i| i.2).max_by_key(|g| match *g {
            Guard::Level(l) => (l, 0),
            Guard::Stack((l, n)) => (l, n),
        });
        if let Some(guard) = guard
            && let Some(g) = cells
                .iter()
                .find_map(|&c| free_side(w, c, zi).filter(|&g| w.cell(g) == Cell::Free))
        {
            match guard {
                Guard::Level(level) => add_guard(w, g, zi, level, config, rng),
                Guard::Stack(stack) => add_stack(w, g, zi, stack),
            }
        }
    }
}
