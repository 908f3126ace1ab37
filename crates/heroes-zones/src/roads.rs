//! Step 9: roads. Per zone, a minimum spanning tree (`petgraph`) over its road vertices
//! (castle approaches and passage cells, as VCMI joins towns and connection guards; optionally
//! portals) is drawn with 8-connected A* (heroes step diagonally) that prefers existing roads,
//! keeps a cell away from obstacles where it can and avoids 2x2 blocks of road; remaining
//! 2x2 blocks lose a corner that no other road needs. Roads only run between vertices, so
//! they have no dangling ends.

use crate::map::Cell;
use crate::work::Work;
use grid_core::{Connectivity, astar};
use petgraph::algo::min_spanning_tree;
use petgraph::data::Element;
use petgraph::graph::UnGraph;

/// Step cost on a road or passage (free ground costs [`GROUND`]).
pub const ON_ROAD: u32 = 1;
/// Step cost on open ground.
pub const GROUND: u32 = 3;
/// Step cost the A* heuristic assumes (above [`ON_ROAD`]: faster, paths near-optimal).
pub const HEURISTIC_STEP: u32 = 2;
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

pub(crate) fn run(w: &mut Work, road_flags: &[bool]) {
    let skip = roadless_passages(w, road_flags);
    draw(w, &skip);
    thin_blocks(w);
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Which passages get no road, decided per zone pair as VCMI does: ROAD connections always
/// get one; the others only where they join two groups of zones not yet joined by roads and
/// one of them has a castle (a spanning tree over the castles); then roads into zones without
/// a castle that lead nowhere else are dropped, repeatedly. Returns the passage cells to skip.
fn roadless_passages(w: &Work, road_flags: &[bool]) -> Vec<usize> {
    let n = w.zones.len();
    let mut town = vec![false; n];
    for o in &w.objects {
        if matches!(o.kind, crate::map::ObjectKind::Castle { .. }) {
            town[o.zone as usize] = true;
        }
    }
    let passages: Vec<(usize, usize, usize, [usize; 2])> = w
        .realised
        .iter()
        .enumerate()
        .filter_map(|(j, r)| match r {
            Some(crate::map::Realised::Passage([p, q])) => {
                Some((j, w.zone_of[*p] as usize, w.zone_of[*q] as usize, [*p, *q]))
            }
            _ => None,
        })
        .collect();
    let mut parent: Vec<usize> = (0..n).collect();
    let mut has_town = town.clone();
    let mut road = vec![false; passages.len()];
    for pass in 0..2 {
        for (k, &(j, a, b, _)) in passages.iter().enumerate() {
            let forced = road_flags.get(j).copied().unwrap_or(false);
            if road[k] || (pass == 0) != forced {
                continue;
            }
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if forced || (ra != rb && (has_town[ra] || has_town[rb])) {
                road[k] = true;
                if ra != rb {
                    parent[ra] = rb;
                    has_town[rb] |= has_town[ra];
                }
            }
        }
    }
    // Prune dead ends in zones without a castle (bounded: each round drops one road or stops).
    for _ in 0..passages.len() {
        let mut degree = vec![0usize; n];
        for (k, &(_, a, b, _)) in passages.iter().enumerate() {
            if road[k] {
                degree[a] += 1;
                degree[b] += 1;
            }
        }
        let dead = passages.iter().enumerate().find(|&(k, &(j, a, b, _))| {
            road[k]
                && !road_flags.get(j).copied().unwrap_or(false)
                && ((!town[a] && degree[a] == 1) || (!town[b] && degree[b] == 1))
        });
        match dead {
            Some((k, _)) => road[k] = false,
            None => break,
        }
    }
    passages
        .iter()
        .zip(&road)
        .filter(|&(_, &r)| !r)
        .flat_map(|(p, _)| p.3)
        .collect()
}

fn draw(w: &mut Work, skip: &[usize]) {
    let side = w.side;
    for zone in 0..w.zones.len() {
        let nodes: Vec<usize> = w.nodes[zone]
            .iter()
            .copied()
            .filter(|c| !skip.contains(c))
            .collect();
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
                    |_, to| {
                        if zone_of[to] as usize != zone {
                            return None;
                        }
                        let base = match Cell::from_id(cells[to]) {
                            Cell::Road | Cell::Passage => return Some(ON_ROAD),
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
                        Some(base + wall + block)
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
