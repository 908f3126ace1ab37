//! The whole-map check: every castle, mine, visitable, treasure, guard, passage and portal must
//! be reachable from every castle, walking as a hero does (8-connected: diagonal steps too)
//! and through portals, and no zone border may have a gap ([`crate::seal`]). Unreachable
//! objects are repaired by carving to the reached area of their zone; what cannot be repaired
//! is removed (treasures, visitables, mines) or fails the generation with a report (castles,
//! passages, portals).

use crate::connect::carve_to_main;
use crate::error::HeroesError;
use crate::map::{Cell, ObjectKind, Realised};
use crate::seal::steps;
use crate::work::Work;
use std::collections::VecDeque;

/// Cells a hero can reach from the start (the first castle's approach, else any passage or
/// walkable cell), following portals.
pub(crate) fn reached(w: &Work) -> Vec<bool> {
    let n = w.side * w.side;
    let mut seen = vec![false; n];
    let start = w
        .objects
        .iter()
        .find(|o| matches!(o.kind, ObjectKind::Castle { .. }))
        .and_then(|o| w.walkable_sides(w.anchor(o)).next())
        .or_else(|| (0..n).find(|&i| w.cell(i) == Cell::Passage))
        .or_else(|| (0..n).find(|&i| w.cell(i).walkable()));
    let Some(start) = start else { return seen };
    // Portal ends by connection.
    let ends: Vec<(usize, usize)> = w
        .objects
        .iter()
        .filter_map(|o| match o.kind {
            ObjectKind::Portal { connection, .. } => Some((connection, w.anchor(o))),
            _ => None,
        })
        .collect();
    let mut queue = VecDeque::from([start]);
    seen[start] = true;
    let mut used = vec![false; ends.len()];
    loop {
        while let Some(i) = queue.pop_front() {
            for (dx, dy) in steps() {
                if let Some(nb) = w.offset(i, dx, dy)
                    && !seen[nb]
                    && w.cell(nb).walkable()
                {
                    seen[nb] = true;
                    queue.push_back(nb);
                }
            }
        }
        // Portals whose entrance is reached open their partners.
        let mut opened = false;
        for k in 0..ends.len() {
            if used[k] || !touches(w, ends[k].1, &seen) {
                continue;
            }
            used[k] = true;
            for (m, &(conn, at)) in ends.iter().enumerate() {
                if m != k && conn == ends[k].0 {
                    for nb in w.walkable_sides(at).collect::<Vec<_>>() {
                        if !seen[nb] {
                            seen[nb] = true;
                            queue.push_back(nb);
                            opened = true;
                        }
                    }
                }
            }
        }
        if !opened {
            break;
        }
    }
    seen
}

fn touches(w: &Work, anchor: usize, seen: &[bool]) -> bool {
    w.walkable_sides(anchor).any(|n| seen[n])
}

/// Whether object `o` (by anchor) is reached.
fn object_reached(w: &Work, k: usize, seen: &[bool]) -> bool {
    let o = &w.objects[k];
    let a = w.anchor(o);
    match o.kind {
        ObjectKind::Treasure { .. } | ObjectKind::Guard { .. } => seen[a],
        _ => touches(w, a, seen),
    }
}

/// Unreachable things, described.
pub(crate) fn unreachable(w: &Work, seen: &[bool]) -> Vec<String> {
    let mut out = Vec::new();
    for k in 0..w.objects.len() {
        if !object_reached(w, k, seen) {
            let o = &w.objects[k];
            out.push(format!(
                "{:?} at ({}, {}) in zone {}",
                o.kind, o.x, o.y, w.zones[o.zone as usize].index
            ));
        }
    }
    for (j, r) in w.realised.iter().enumerate() {
        if let Some(Realised::Passage([p, q])) = r
            && !(seen[*p] && seen[*q])
        {
            out.push(format!("passage of connections[{j}]"));
        }
    }
    out
}

/// Fails on a gap in a zone border (nothing later may open one, so it is not repaired).
fn sealed(w: &Work) -> Result<(), HeroesError> {
    let s = w.side;
    let gaps: Vec<String> = crate::seal::gaps(w)
        .into_iter()
        .map(|(i, j)| {
            format!(
                "zone border open between ({}, {}) and ({}, {})",
                i % s,
                i / s,
                j % s,
                j / s
            )
        })
        .collect();
    if gaps.is_empty() {
        Ok(())
    } else {
        Err(HeroesError::Generation(crate::error::join_some(
            &gaps, "; ",
        )))
    }
}

pub(crate) fn run(w: &mut Work) -> Result<(), HeroesError> {
    sealed(w)?;
    for _round in 0..3 {
        let seen = reached(w);
        let bad: Vec<usize> = (0..w.objects.len())
            .filter(|&k| !object_reached(w, k, &seen))
            .collect();
        let bad_passages = w
            .realised
            .iter()
            .any(|r| matches!(r, Some(Realised::Passage([p, q])) if !(seen[*p] && seen[*q])));
        if bad.is_empty() && !bad_passages {
            return Ok(());
        }
        let mut main = seen.clone();
        for k in bad {
            let (a, z) = (w.anchor(&w.objects[k]), w.objects[k].zone as usize);
            let from = if w.cell(a).walkable() {
                Some(a)
            } else {
                w.walkable_sides(a).next()
            };
            if let Some(f) = from
                && carve_to_main(w, z, f, &mut main).is_some()
            {
                w.stats.repaired += 1;
            }
        }
        if bad_passages {
            for j in 0..w.realised.len() {
                if let Some(Realised::Passage([p, q])) = w.realised[j] {
                    for c in [p, q] {
                        if !main[c] {
                            let z = w.zone_of[c] as usize;
                            if carve_to_main(w, z, c, &mut main).is_some() {
                                w.stats.repaired += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // Remove what is still unreachable and may go; fail on the rest.
    let seen = reached(w);
    let mut fatal = Vec::new();
    let mut k = 0;
    while k < w.objects.len() {
        if object_reached(w, k, &seen) {
            k += 1;
            continue;
        }
        let o = w.objects[k].clone();
        match o.kind {
            ObjectKind::Castle { .. } | ObjectKind::Portal { .. } => {
                fatal.push(format!(
                    "{:?} at ({}, {}) in zone {}",
                    o.kind, o.x, o.y, w.zones[o.zone as usize].index
                ));
                k += 1;
            }
            _ => {
                let a = w.anchor(&o);
                if matches!(w.cell(a), Cell::Treasure | Cell::Guard | Cell::Entrance) {
                    w.set(a, Cell::Obstacle);
                }
                w.stats
                    .removed
                    .push(format!("unreachable {:?} at ({}, {})", o.kind, o.x, o.y));
                w.objects.remove(k);
            }
        }
    }
    fatal.extend(
        unreachable(w, &seen)
            .into_iter()
            .filter(|s| s.starts_with("passage")),
    );
    if fatal.is_empty() {
        Ok(())
    } else {
        Err(HeroesError::Generation(format!(
            "unreachable after repair: {}",
            crate::error::join_some(&fatal, "; ")
        )))
    }
}
