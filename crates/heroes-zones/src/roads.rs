//! Step 9: roads. Per zone, a minimum spanning tree (`petgraph`) over its road vertices
//! (castle approaches and every passage cell; optionally portals) is drawn with 8-connected
//! A* (heroes step diagonally) at octile cost, so a road runs straight and turns through
//! diagonals, never as a staircase of side steps; it prefers existing roads, keeps a cell away
//! from obstacles where it can and avoids 2x2 blocks of road. Then every staircase corner (a
//! road cell whose only two road neighbours touch each other diagonally) is dropped, and
//! remaining 2x2 blocks lose a corner that no other road needs. Roads only run between
//! vertices, so they have no dangling ends.

use crate::map::Cell;
use crate::work::Work;
use grid_core::{Connectivity, astar};
use petgraph::algo::min_spanning_tree;
use petgraph::data::Element;
use petgraph::graph::UnGraph;

/// Cost of a side step on a road or passage (free ground costs [`GROUND`]); a diagonal
/// step costs [`DIAGONAL`] / [`STRAIGHT`] times as much.
pub const ON_ROAD: u32 = 1;
/// Cost of a side step on open ground.
pub const GROUND: u32 = 3;
/// Weight of a side step.
pub const STRAIGHT: u32 = 10;
/// Weight of a diagonal step (about `STRAIGHT * √2`: roads take the shortest line, not a
/// staircase of side steps).
pub const DIAGONAL: u32 = 14;
/// Cost per step the A* heuristic assumes (above `ON_ROAD * STRAIGHT`: faster, paths
/// near-optimal).
pub const HEURISTIC_STEP: u32 = 3 * STRAIGHT;
/// Extra cost of a step next to an obstacle, border or building.
pub const NEAR_WALL: u32 = 1;
/// Extra cost of a step that would complete a 2x2 block of road.
pub const BLOCK: u32 = 6;

/// Whether a road at `i` would complete a 2x2 block with the roads (and passages) there.
fn completes_block(side: usize, cells: &[u8], i: usize) -> bool {
    let road = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as usize) < side
            && (y as usize) < side
            && matches!(
                Cell::from_id(cells[y as usize * side + x as usize]),
                Cell::Road | Cell::Passage
            )
    };
    let (x, y) = ((i % side) as i64, (i / side) as i64);
    [(-1, -1), (0, -1), (-1, 0), (0, 0)]
        .iter()
        .any(|&(ox, oy)| {
            let (x0, y0) = (x + ox, y + oy);
            [(0, 0), (1, 0), (0, 1), (1, 1)]
                .iter()
                .filter(|&&(dx, dy)| (x0 + dx, y0 + dy) != (x, y))
                .all(|&(dx, dy)| road(x0 + dx, y0 + dy))
        })
}

/// Whether `i` has an obstacle, border or building among its 8 neighbours.
fn near_wall(side: usize, cells: &[u8], i: usize) -> bool {
    let mut wall = false;
    Connectivity::Eight.for_each_neighbor(side, side, i, |n| {
        wall |= Cell::from_id(cells[n]).blocked();
    });
    wall
}

/// Removes one corner of every 2x2 block of road whose other road neighbours are all inside
/// the block (the road network stays connected); the cell becomes free ground.
fn thin_blocks(w: &mut Work) {
    let side = w.side;
    for y in 0..side.saturating_sub(1) {
        for x in 0..side - 1 {
            let block = [
                y * side + x,
                y * side + x + 1,
                (y + 1) * side + x,
                (y + 1) * side + x + 1,
            ];
            if !block.iter().all(|&c| w.cell(c) == Cell::Road) {
                continue;
            }
            let spare = block.iter().copied().find(|&c| {
                let mut outside = 0;
                Connectivity::Eight.for_each_neighbor(side, side, c, |n| {
                    if !block.contains(&n) && matches!(w.cell(n), Cell::Road | Cell::Passage) {
                        outside += 1;
                    }
                });
                outside == 0
            });
            if let Some(c) = spare {
                w.set(c, Cell::Free);
            }
        }
    }
}

pub(crate) fn run(w: &mut Work) {
    let before: Vec<bool> = (0..w.cells.len())
        .map(|i| w.cell(i) == Cell::Free)
        .collect();
    draw(w);
    unstair(w, &before);
    thin_blocks(w);
}

/// The offsets of the two road (or passage) cells among the 8 neighbours of `i`, when there
/// are exactly two.
fn two_neighbours(side: usize, i: usize, road: impl Fn(usize) -> bool) -> Option<[(i64, i64); 2]> {
    let (x, y) = ((i % side) as i64, (i / side) as i64);
    let mut found = [(0i64, 0i64); 2];
    let mut k = 0;
    Connectivity::Eight.for_each_neighbor(side, side, i, |n| {
        if road(n) {
            if k < 2 {
                found[k] = ((n % side) as i64 - x, (n / side) as i64 - y);
            }
            k += 1;
        }
    });
    (k == 2).then_some(found)
}

/// Whether road cell `i` makes a sharp turn: exactly two road (or passage) cells among its 8
/// neighbours, at 90 degrees or less from each other as seen from `i` (a staircase step, or
/// a zigzag of diagonal steps); a straight road or one bending by 45 degrees has none.
pub fn sharp_turn(side: usize, i: usize, road: impl Fn(usize) -> bool) -> bool {
    two_neighbours(side, i, road).is_some_and(|[a, b]| a.0 * b.0 + a.1 * b.1 >= 0)
}

/// Whether road cell `i` is a staircase corner: a [`sharp_turn`] whose two road neighbours
/// touch each other, so the road needs no `i` (a hero steps from one to the other).
pub fn stair_corner(side: usize, i: usize, road: impl Fn(usize) -> bool) -> bool {
    two_neighbours(side, i, road)
        .is_some_and(|[a, b]| (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1)
}

/// Drops staircase corners ([`stair_corner`]) among the road cells that were free ground
/// before the roads (`was_free`), in cell order, each checked on the roads as they are then.
fn unstair(w: &mut Work, was_free: &[bool]) {
    let side = w.side;
    for (i, &free) in was_free.iter().enumerate() {
        if w.cell(i) != Cell::Road || !free {
            continue;
        }
        let cells = &w.cells;
        if stair_corner(side, i, |n| {
            matches!(Cell::from_id(cells[n]), Cell::Road | Cell::Passage)
        }) {
            w.set(i, Cell::Free);
        }
    }
}

fn draw(w: &mut Work) {
    let side = w.side;
    for zone in 0..w.zones.len() {
        let nodes: Vec<usize> = w.nodes[zone].clone();
        if nodes.len() < 2 {
            continue;
        }
        let mut g = UnGraph::<usize, i64>::new_undirected();
        let ids: Vec<_> = nodes.iter().map(|&n| g.add_node(n)).collect();
        for a in 0..nodes.len() {
            for b in a + 1..nodes.len() {
                g.add_edge(ids[a], ids[b], w.dist2(nodes[a], nodes[b]));
            }
        }
        let mut edges: Vec<(usize, usize)> = min_spanning_tree(&g)
            .filter_map(|e| match e {
                Element::Edge { source, target, .. } => Some((source, target)),
                _ => None,
            })
            .collect();
        edges.sort_by_key(|&(a, b)| w.dist2(nodes[a], nodes[b]));
        for (a, b) in edges {
            let path = {
                let cells = &w.cells;
                let zone_of = &w.zone_of;
                astar(
                    side,
                    side,
                    nodes[a],
                    nodes[b],
                    Connectivity::Eight,
                    HEURISTIC_STEP,
                    |from, to| {
                        if zone_of[to] as usize != zone {
                            return None;
                        }
                        let step = if from % side != to % side && from / side != to / side {
                            DIAGONAL
                        } else {
                            STRAIGHT
                        };
                        let base = match Cell::from_id(cells[to]) {
                            Cell::Road | Cell::Passage => return Some(ON_ROAD * step),
                            Cell::Free | Cell::Approach | Cell::Treasure => GROUND,
                            _ => return None,
                        };
                        let wall = if near_wall(side, cells, to) {
                            NEAR_WALL
                        } else {
                            0
                        };
                        let block = if completes_block(side, cells, to) {
                            BLOCK
                        } else {
                            0
                        };
                        Some((base + wall + block) * step)
                    },
                )
            };
            if let Some(p) = path {
                for c in p.cells {
                    if matches!(w.cell(c), Cell::Free | Cell::Approach) {
                        w.set(c, Cell::Road);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The road cells of `rows` ('=' road), and the flat index of the cell marked '*' (a road
    /// cell too).
    fn grid(rows: &[&str]) -> (usize, Vec<bool>, usize) {
        let side = rows.len();
        let cells: Vec<char> = rows.iter().flat_map(|r| r.chars()).collect();
        let road = cells.iter().map(|&c| c == '=' || c == '*').collect();
        (side, road, cells.iter().position(|&c| c == '*').unwrap())
    }

    #[test]
    fn turns_are_classified() {
        // (rows, sharp turn, staircase corner)
        let cases: [(&[&str], bool, bool); 5] = [
            (&["...", "=*=", "..."], false, false), // straight
            (&["..=", ".*.", "=.."], false, false), // straight diagonal
            (&["...", "=*.", "..="], false, false), // 45 degree bend
            (&[".=.", "=*.", "..."], true, true),   // staircase step
            (&["=.=", ".*.", "..."], true, false),  // zigzag
        ];
        for (rows, sharp, stair) in cases {
            let (side, road, i) = grid(rows);
            assert_eq!(sharp_turn(side, i, |n| road[n]), sharp, "{rows:?}");
            assert_eq!(stair_corner(side, i, |n| road[n]), stair, "{rows:?}");
        }
    }
}
