//! Step 10: guards and treasures. Guards stand on passages, next to portals and mines, and
//! at the entrance of treasure pockets, by guard level (the template/config rules of the
//! reference, with every range drawn per guard). Treasure comes in piles: a value band's draw
//! becomes a mixed pile ([`compose`]: resources, campfires, chests and, in piles of four or
//! more items, one artifact of the class its share is worth), a `richness` budget (per
//! [`RICHNESS_AREA`] cells) buys items by the config's chances and costs, grouped in piles of
//! up to three. A guarded pile of the zone's top band (without bands: a pile with an artifact)
//! lies in a pocket walled by obstacles with its guard at the entrance ([`crate::pockets`]);
//! other piles, and top ones no pocket fits, lie on open ground with their guard beside them.

use crate::hmm::ids;
use crate::map::{Cell, ObjectKind, Realised, TreasureKind};
use crate::pockets::{self, Filler};
use crate::strength;
use crate::template::{Config, Resource, Template, TemplateZone};
use crate::work::{SIDES, Work};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Without value bands, a zone's `richness` is its treasure budget per this many cells, so
/// small zones are not crowded and large ones not empty.
pub const RICHNESS_AREA: u32 = 1000;
/// Most treasures in one pile (neighbouring cells, one guard).
pub const PILE_ITEMS: usize = 5;
/// Gold a pile holds per item: a band draw of `v` becomes `1 + v / ITEM_VALUE` items (at most
/// [`PILE_ITEMS`]).
pub const ITEM_VALUE: u32 = 2500;
/// Items a pile needs before one of them may be an artifact (so artifacts are at most a
/// quarter of the items of band piles).
pub const ARTIFACT_PILE: usize = 4;
/// Value of a richness item by kind (resource, campfire, chest, artifact), for pile values.
pub const RICHNESS_VALUE: [u32; 4] = [500, 1000, 1500, 3000];

/// The items of a pile worth `value` gold: `1 + value / ITEM_VALUE` of them (at most
/// [`PILE_ITEMS`]); with [`ARTIFACT_PILE`] or more, one is an artifact worth two fifths of
/// the pile (its class by that worth, [`ids::artifact_class`]); the rest share the remainder
/// equally as resources (under 750), campfires (under 1500) or chests.
pub fn compose(value: u32, rng: &mut LevelRng) -> Vec<(TreasureKind, u32)> {
    let n = (1 + value / ITEM_VALUE).min(PILE_ITEMS as u32) as usize;
    let mut out = Vec::with_capacity(n);
    let mut rest = value;
    if n >= ARTIFACT_PILE {
        let worth = value / 5 * 2;
        let class = &ids::ARTIFACT_CLASSES[ids::artifact_class(worth)];
        out.push((
            TreasureKind::Artifact(class[rng.random_range(0..class.len())]),
            worth,
        ));
        rest -= worth;
    }
    let k = (n - out.len()) as u32;
    for j in 0..k {
        let share = rest / k + if j == 0 { rest % k } else { 0 };
        let kind = match share {
            0..750 => TreasureKind::Resource(Resource::REAL[rng.random_range(0..7)]),
            750..1500 => TreasureKind::Campfire,
            _ => TreasureKind::Chest,
        };
        out.push((kind, share));
    }
    out
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
    let mut filler = Filler::new(w.cells.len());
    for (zi, z) in template.zones.iter().enumerate() {
        treasures_of_zone(w, zi, z, config, &mut filler, rng);
    }
}

/// A treasure pile's guard: a level (count from the config) or a whole stack.
#[derive(Clone, Copy)]
enum Guard {
    Level(u8),
    Stack((u8, u32)),
}

/// A pile to place.
struct Pile {
    items: Vec<(TreasureKind, u32)>,
    value: u32,
    guard: Option<Guard>,
    /// From the zone's top value band (or, without bands, guarded): pocketed first.
    top: bool,
}

/// The piles of a zone with value bands: one per draw of each band.
fn band_piles(w: &Work, zi: usize, z: &TemplateZone, rng: &mut LevelRng) -> Vec<Pile> {
    let area = w.zones[zi].area;
    // The top band: the one reaching the highest value; a draw of any band at least its
    // minimum counts as top.
    let top = z
        .treasures
        .iter()
        .max_by_key(|b| (b.max.max(b.min), b.min))
        .map_or(0, |b| b.min);
    let mut piles = Vec::new();
    for b in &z.treasures {
        let n = (area as u64 * b.density as u64 / 1000).min(200);
        for _ in 0..n {
            let v = if b.max > b.min {
                rng.random_range(b.min..=b.max)
            } else {
                b.min
            };
            let guard = match z.monsters {
                None => (v >= 2000).then(|| Guard::Level((v / 2500).min(6) as u8)),
                Some(m) => strength::zone_index(m)
                    .filter(|&i| strength::pile_guarded(v, i))
                    .and_then(|i| strength::stack(strength::strength(v, i), rng))
                    .map(Guard::Stack),
            };
            piles.push(Pile {
                items: compose(v, rng),
                value: v,
                guard,
                top: v >= top,
            });
        }
    }
    piles
}

/// The piles of a zone without bands: items bought from its richness budget, in piles of
/// 1..=3; a pile with an artifact is guarded.
fn richness_piles(
    w: &Work,
    zi: usize,
    z: &TemplateZone,
    config: &Config,
    rng: &mut LevelRng,
) -> Vec<Pile> {
    let area = w.zones[zi].area as i64;
    let mut budget = (z.richness.max(0) as i64 * area / RICHNESS_AREA as i64).min(2000) as i32;
    let chance = &config.treasure_chance;
    let cost = &config.treasure_cost;
    let mut items = Vec::new();
    while budget > 0 && items.len() < 400 {
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
            _ => {
                let class = &ids::ARTIFACT_CLASSES[0];
                TreasureKind::Artifact(class[rng.random_range(0..class.len())])
            }
        };
        items.push((kind, RICHNESS_VALUE[t]));
        budget -= cost.get(t).copied().unwrap_or(1).max(1);
    }
    let mut piles = Vec::new();
    let mut rest = &items[..];
    while !rest.is_empty() {
        let n = (1 + rng.random_range(0..3)).min(rest.len());
        let (these, tail) = rest.split_at(n);
        rest = tail;
        let artifact = these
            .iter()
            .any(|(k, _)| matches!(k, TreasureKind::Artifact(_)));
        piles.push(Pile {
            items: these.to_vec(),
            value: these.iter().map(|i| i.1).sum(),
            guard: artifact.then_some(Guard::Level(2)),
            top: artifact,
        });
    }
    piles
}

fn treasures_of_zone(
    w: &mut Work,
    zi: usize,
    z: &TemplateZone,
    config: &Config,
    filler: &mut Filler,
    rng: &mut LevelRng,
) {
    let mut spots: Vec<usize> = w.zone_cells[zi]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| w.cell(c) == Cell::Free && w.walkable_sides(c).count() >= 2)
        .collect();
    let mut piles = if z.treasures.is_empty() {
        richness_piles(w, zi, z, config, rng)
    } else {
        band_piles(w, zi, z, rng)
    };
    // Guarded piles of the top band first: they get the pockets.
    piles.sort_by_key(|p| !(p.top && p.guard.is_some()));
    let mut dug = 0;
    for pile in &piles {
        let pocket = if pile.top && pile.guard.is_some() && dug < pockets::MAX_POCKETS {
            pockets::dig(w, zi, pile.items.len(), &mut spots, filler, rng)
        } else {
            None
        };
        let (cells, guard_at) = match pocket {
            Some(p) => {
                dug += 1;
                (p.cells, Some(p.guard))
            }
            None => match open_ground(w, zi, pile.items.len(), &mut spots, rng) {
                Some(cells) => (cells, None),
                None => break,
            },
        };
        for (&cell, &(kind, value)) in cells.iter().zip(&pile.items) {
            w.set(cell, Cell::Treasure);
            let pile = pile.value;
            w.add(ObjectKind::Treasure { kind, value, pile }, cell, zi);
        }
        // On open ground the guard stands beside the pile (found once its cells are taken).
        let guard_at = guard_at.or_else(|| {
            cells
                .iter()
                .find_map(|&c| free_side(w, c, zi).filter(|&g| w.cell(g) == Cell::Free))
        });
        if let (Some(guard), Some(g)) = (pile.guard, guard_at) {
            match guard {
                Guard::Level(level) => add_guard(w, g, zi, level, config, rng),
                Guard::Stack(stack) => add_stack(w, g, zi, stack),
            }
        }
    }
}

/// Whether a guard stands on a cell next to `i` (8-neighbours): a pile there would lie in
/// that guard's zone of control, guarded by a guard not its own.
fn beside_guard(w: &Work, i: usize) -> bool {
    crate::seal::steps().any(|(dx, dy)| {
        w.offset(i, dx, dy)
            .is_some_and(|n| w.cell(n) == Cell::Guard)
    })
}

/// Up to `items` neighbouring free cells on open ground, none beside a guard, from a spot drawn from `spots`.
fn open_ground(
    w: &Work,
    zi: usize,
    items: usize,
    spots: &mut Vec<usize>,
    rng: &mut LevelRng,
) -> Option<Vec<usize>> {
    let mut start = None;
    for _ in 0..64 {
        if spots.is_empty() {
            break;
        }
        let c = spots.swap_remove(rng.random_range(0..spots.len()));
        if w.cell(c) == Cell::Free && !beside_guard(w, c) {
            start = Some(c);
            break;
        }
    }
    let mut cells = vec![start?];
    while cells.len() < items {
        let next = cells
            .iter()
            .flat_map(|&p| {
                SIDES
                    .iter()
                    .filter_map(move |&(dx, dy)| w.offset(p, dx, dy))
            })
            .find(|&n| {
                w.zone_of[n] as usize == zi
                    && w.cell(n) == Cell::Free
                    && !cells.contains(&n)
                    && !beside_guard(w, n)
            });
        match next {
            Some(n) => cells.push(n),
            None => break,
        }
    }
    Some(cells)
}
