//! Measures of a generated map that need no template: how far each zone's area is from its
//! target, and which objects a hero can reach (walking 4-connected over walkable cells and
//! through portals, computed independently of the global check in [`crate::check`]).
//!
//! `levelgen analyze` reports these as extras and `levelgen search` offers them as metrics.

use crate::map::{HeroesMap, ObjectKind};
use grid_core::Grid;

/// `(max, mean)` of `|area - target| / target` over the zones.
pub fn area_errors(map: &HeroesMap) -> (f64, f64) {
    let errs: Vec<f64> = map
        .zones
        .iter()
        .filter(|z| z.target_area > 0)
        .map(|z| (z.area as f64 - z.target_area as f64).abs() / z.target_area as f64)
        .collect();
    if errs.is_empty() {
        return (0.0, 0.0);
    }
    let max = errs.iter().copied().fold(0.0, f64::max);
    (max, errs.iter().sum::<f64>() / errs.len() as f64)
}

const SIDES: [(i64, i64); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

fn neighbours(side: usize, i: usize) -> impl Iterator<Item = usize> {
    let (x, y) = ((i % side) as i64, (i / side) as i64);
    SIDES.iter().filter_map(move |&(dx, dy)| {
        let (nx, ny) = (x + dx, y + dy);
        (nx >= 0 && ny >= 0 && (nx as usize) < side && (ny as usize) < side)
            .then(|| ny as usize * side + nx as usize)
    })
}

/// Cells a hero reaches from the walkable side of the first castle (else the first walkable
/// cell), walking 4-connected over walkable cells; a reached portal end opens the walkable
/// sides of the other ends of its connection.
pub fn reached(map: &HeroesMap) -> Grid<bool> {
    let side = map.size;
    let n = side * side;
    let mut seen = vec![false; n];
    let walk = |i: usize| map.cell(i).walkable();
    let anchor = |x: u16, y: u16| y as usize * side + x as usize;
    let start = map
        .objects
        .iter()
        .find(|o| matches!(o.kind, ObjectKind::Castle { .. }))
        .and_then(|o| neighbours(side, anchor(o.x, o.y)).find(|&nb| walk(nb)))
        .or_else(|| (0..n).find(|&i| walk(i)));
    let portals: Vec<(usize, usize)> = map
        .objects
        .iter()
        .filter_map(|o| match o.kind {
            ObjectKind::Portal { connection, .. } => Some((connection, anchor(o.x, o.y))),
            _ => None,
        })
        .collect();
    let mut opened = vec![false; portals.len()];
    let mut queue: Vec<usize> = start.into_iter().collect();
    for &s in &queue {
        seen[s] = true;
    }
    // Each round floods, then opens newly touched portals; at most one round per portal.
    for _ in 0..=portals.len() {
        while let Some(i) = queue.pop() {
            for nb in neighbours(side, i) {
                if !seen[nb] && walk(nb) {
                    seen[nb] = true;
                    queue.push(nb);
                }
            }
        }
        for k in 0..portals.len() {
            let at = portals[k].1;
            if opened[k] || !(seen[at] || neighbours(side, at).any(|nb| seen[nb])) {
                continue;
            }
            opened[k] = true;
            for &(conn, at) in &portals {
                if conn == portals[k].0 {
                    for nb in neighbours(side, at) {
                        if !seen[nb] && walk(nb) {
                            seen[nb] = true;
                            queue.push(nb);
                        }
                    }
                }
            }
        }
        if queue.is_empty() {
            break;
        }
    }
    Grid::from_vec(side, side, seen).unwrap_or_else(|| Grid::new(0, 0, false))
}

/// Fraction of objects whose anchor is reached or touches a reached cell (1 with no objects).
pub fn reachable_objects(map: &HeroesMap) -> f64 {
    if map.objects.is_empty() {
        return 1.0;
    }
    let seen = reached(map);
    let side = map.size;
    let ok = map
        .objects
        .iter()
        .filter(|o| {
            let at = o.y as usize * side + o.x as usize;
            at < side * side
                && (seen.as_slice()[at] || neighbours(side, at).any(|nb| seen.as_slice()[nb]))
        })
        .count();
    ok as f64 / map.objects.len() as f64
}
