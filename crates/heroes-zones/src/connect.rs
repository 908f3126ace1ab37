//! Step 8: join isolated open parts inside each zone. Walkable components of a zone are found;
//! tiny free pockets are filled; every other component is joined to the zone's main one by an
//! A* path (`grid_core::astar`, on the `pathfinding` crate) that prefers open ground and cuts
//! through obstacles only where it must.

use crate::map::Cell;
use crate::work::{SIDES, Work};
use grid_core::{Connectivity, astar};

/// Pockets of at most this many plain free cells are filled instead of joined.
pub const POCKET: usize = 8;

/// Carves the cheapest path inside `zone` from `from` to the nearest cell with `main[i]`,
/// turning obstacles into free ground; marks everything it joins as main. Returns the cells
/// carved, or `None` if no path exists.
pub(crate) fn carve_to_main(
    w: &mut Work,
    zone: usize,
    from: usize,
    main: &mut [bool],
) -> Option<usize> {
    let goal = w.zone_cells[zone]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| main[c])
        .min_by_key(|&c| w.dist2(c, from))?;
    let side = w.side;
    let path = {
        let cells = &w.cells;
        let zone_of = &w.zone_of;
        astar(side, side, from, goal, Connectivity::Four, 1, |_, to| {
            if zone_of[to] as usize != zone {
                return None;
            }
            let c = Cell::from_id(cells[to]);
            if c.walkable() {
                Some(1)
            } else if c == Cell::Obstacle {
                Some(3)
            } else {
                None
            }
        })?
    };
    let mut carved = 0;
    for &c in &path.cells {
        if w.cell(c) == Cell::Obstacle {
            w.set(c, Cell::Free);
            carved += 1;
        }
    }
    // Everything now joined becomes main (BFS over the not-yet-main walkable cells).
    let mut stack = vec![from];
    main[from] = true;
    while let Some(i) = stack.pop() {
        for &(dx, dy) in &SIDES {
            if let Some(n) = w.offset(i, dx, dy)
                && !main[n]
                && w.zone_of[n] as usize == zone
                && w.cell(n).walkable()
            {
                main[n] = true;
                stack.push(n);
            }
        }
    }
    Some(carved)
}

/// The walkable components of `zone` (cells of each), using `label` as scratch (reset after).
fn zone_components(w: &Work, zone: usize, label: &mut [bool]) -> Vec<Vec<usize>> {
    let mut comps = Vec::new();
    for &c in &w.zone_cells[zone] {
        let c = c as usize;
        if label[c] || !w.cell(c).walkable() {
            continue;
        }
        let mut comp = vec![c];
        label[c] = true;
        let mut head = 0;
        while head < comp.len() {
            let i = comp[head];
            head += 1;
            for &(dx, dy) in &SIDES {
                if let Some(n) = w.offset(i, dx, dy)
                    && !label[n]
                    && w.zone_of[n] as usize == zone
                    && w.cell(n).walkable()
                {
                    label[n] = true;
                    comp.push(n);
                }
            }
        }
        comps.push(comp);
    }
    for comp in &comps {
        for &i in comp {
            label[i] = false;
        }
    }
    comps
}

pub(crate) fn run(w: &mut Work) {
    let side = w.side;
    let mut main = vec![false; side * side];
    let mut scratch = vec![false; side * side];
    for zone in 0..w.zones.len() {
        let mut comps = zone_components(w, zone, &mut scratch);
        // Fill tiny pockets of plain ground.
        comps.retain(|comp| {
            if comp.len() <= POCKET && comp.iter().all(|&i| w.cell(i) == Cell::Free) {
                for &i in comp {
                    w.cells[i] = Cell::Obstacle as u8;
                }
                false
            } else {
                true
            }
        });
        if comps.len() <= 1 {
            continue;
        }
        let anchor = w.nodes[zone].first().copied();
        let mi = anchor
            .and_then(|a| comps.iter().position(|c| c.contains(&a)))
            .unwrap_or_else(|| {
                (0..comps.len())
                    .max_by_key(|&k| comps[k].len())
                    .unwrap_or(0)
            });
        for &i in &comps[mi] {
            main[i] = true;
        }
        for (k, comp) in comps.iter().enumerate() {
            if k == mi || main[comp[0]] {
                continue;
            }
            if let Some(n) = carve_to_main(w, zone, comp[0], &mut main) {
                w.stats.carved_cells += n;
            }
        }
    }
}
