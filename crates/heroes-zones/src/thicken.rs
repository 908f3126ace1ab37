//! Step 11a: thicker walls. Where the packing of [`crate::decorate`] leaves a wall cell to a
//! single-cell avatar (a wall one cell thin, a cell between pieces), free ground beside it is
//! walled so a 2x2 piece fits: of the four 2x2 squares holding the cell, those whose other
//! cells are walls left to single-cell avatars or plain free ground (at most
//! [`MOST_NEW_WALLS`] of them) are tried, fewest new walls first, and the first whose free
//! cells can all be walled is. A free cell is walled only if it is
//!
//! - plain ground ([`Cell::Free`]) holding no object;
//! - a **simple point** of the open ground: its walkable 8-neighbours form one unbroken run
//!   around it, both with and without the guards' 3x3 zones of control. Then every way that
//!   went through it goes round it instead, for a hero stepping diagonally and for a walker
//!   without diagonal steps, so walling it cuts nothing off, joins nothing, and no zone, guard,
//!   building or pile loses its way in.
//!
//! Walls only ever grow here, so a sealed border stays sealed and a pocket stays a pocket.

use crate::decorate::Decoration;
use crate::map::{Cell, Feature, ObjectKind};
use crate::work::Work;
use grid_core::neighborhood::{RING, ring_runs};

/// Most free cells walled to give one single-cell wall a 2x2 square.
pub const MOST_NEW_WALLS: usize = 3;

/// Walls free ground beside the single-cell avatars of `decorations` (see the module docs);
/// returns how many cells were walled.
pub(crate) fn run(w: &mut Work, decorations: &[Decoration]) -> usize {
    let side = w.side;
    let mut occupied = vec![false; side * side];
    for o in &w.objects {
        occupied[w.anchor(o)] = true;
    }
    let guards = w
        .objects
        .iter()
        .filter(|o| matches!(o.kind, ObjectKind::Guard { .. }));
    let zoc = crate::measure::zones_of_control(side, guards.map(|o| w.anchor(o)));
    let mut single = vec![false; side * side];
    for d in decorations.iter().filter(|d| !d.multi_cell()) {
        single[d.y as usize * side + d.x as usize] = true;
    }
    let mut walled = 0;
    for d in decorations.iter().filter(|d| !d.multi_cell()) {
        let i = d.y as usize * side + d.x as usize;
        if !single[i] {
            continue;
        }
        let feature = match w.cell(i) {
            Cell::Obstacle => w.feature[i],
            _ => Feature::Ridge as u8,
        };
        for (square, new) in squares(w, i, &single, &occupied) {
            if wall_all(w, &new, feature, &zoc) {
                walled += new.len();
                for c in square {
                    single[c] = false;
                }
                break;
            }
        }
    }
    walled
}

/// Walls every cell of `new` in turn if each is a [`simple`] point when its turn comes; else
/// leaves the map as it was and returns `false`.
fn wall_all(w: &mut Work, new: &[usize], feature: u8, zoc: &[bool]) -> bool {
    for (k, &c) in new.iter().enumerate() {
        if !simple(w, c, zoc) {
            for &d in &new[..k] {
                w.set(d, Cell::Free);
                w.feature[d] = Feature::None as u8;
            }
            return false;
        }
        w.set(c, Cell::Obstacle);
        w.feature[c] = feature;
    }
    true
}

/// The 2x2 squares holding `i` that need at most [`MOST_NEW_WALLS`] new walls, or failing
/// that the 3-cell corners (`X.` over `XX`, the shape every surface has a piece for), fewest
/// new walls first, each with those cells.
fn squares(
    w: &Work,
    i: usize,
    single: &[bool],
    occupied: &[bool],
) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut out: Vec<(usize, Vec<usize>, Vec<usize>)> = Vec::new();
    for (ox, oy) in [(-1, -1), (0, -1), (-1, 0), (0, 0)] {
        let mut target = Vec::with_capacity(4);
        let mut new = Vec::new();
        let mut corner = false;
        for (k, (dx, dy)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
            let Some(c) = w.offset(i, ox + dx, oy + dy) else {
                target.clear();
                break;
            };
            if single[c] {
                target.push(c);
            } else if w.cell(c) == Cell::Free && !occupied[c] {
                target.push(c);
                new.push(c);
            } else if k == 1 && c != i {
                // The top-right cell may stay out: a corner piece covers the other three.
                corner = true;
            } else {
                new.clear();
                target.clear();
                break;
            }
        }
        let whole = if corner { 3 } else { 4 };
        if target.len() == whole && !new.is_empty() && new.len() <= MOST_NEW_WALLS {
            out.push((usize::from(corner), target, new));
        }
    }
    out.sort_by_key(|s| (s.0, s.2.len()));
    out.into_iter().map(|(_, t, n)| (t, n)).collect()
}

/// Whether walling `c` keeps the open ground's connections: its walkable neighbours form at
/// most one run round it, counted with and without the guards' zones of control.
fn simple(w: &Work, c: usize, zoc: &[bool]) -> bool {
    [false, true].into_iter().all(|blocked_zoc| {
        let open = RING.map(|(dx, dy)| {
            w.offset(c, dx, dy)
                .is_some_and(|n| w.cell(n).walkable() && !(blocked_zoc && zoc[n]))
        });
        ring_runs(open) <= 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work(rows: &[&str]) -> Work {
        let side = rows.len();
        let cells = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|b| match b {
                b'#' => Cell::Obstacle as u8,
                _ => Cell::Free as u8,
            })
            .collect();
        Work {
            side,
            cells,
            zone_of: vec![0; side * side],
            feature: vec![0; side * side],
            zones: Vec::new(),
            zone_cells: Vec::new(),
            objects: Vec::new(),
            realised: Vec::new(),
            nodes: Vec::new(),
            stats: Default::default(),
        }
    }

    #[test]
    fn a_cell_bridging_two_sides_is_not_simple() {
        // The centre joins the open left and right columns: walling it would cut them.
        let w = work(&[".#.", "...", ".#."]);
        assert!(!simple(&w, 4, &[false; 9]));
        // Beside a wall with open ground all on one side it is simple.
        let w = work(&["###", "...", "..."]);
        assert!(simple(&w, 4, &[false; 9]));
        // A guard's zone of control counts as closed in the second test.
        let w = work(&["...", "...", "..."]);
        let mut zoc = [false; 9];
        for k in [1, 7] {
            zoc[k] = true;
        }
        assert!(simple(&w, 4, &[false; 9]));
        zoc[3] = true;
        zoc[5] = true;
        assert!(!simple(&w, 4, &zoc));
    }

    #[test]
    fn a_thin_wall_gets_a_square() {
        // A one-cell wall end: the square to its right needs two free cells walled.
        let mut w = work(&["....", ".#..", ".#..", "...."]);
        let d = |x, y| Decoration {
            id: "rocks_3",
            x,
            y,
            zone: 0,
        };
        let walled = run(&mut w, &[d(1, 1), d(1, 2)]);
        assert_eq!(walled, 2);
        let walls = w
            .cells
            .iter()
            .filter(|&&c| c == Cell::Obstacle as u8)
            .count();
        assert_eq!(walls, 4);
    }
}
