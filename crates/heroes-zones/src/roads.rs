//! Step 9: roads. Per zone, a minimum spanning tree (`petgraph`) over its road vertices
//! (castle and mine approaches, passage cells, optionally portals) is drawn with A* that
//! prefers existing roads. Roads only run between vertices, so they have no dangling ends.

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

pub(crate) fn run(w: &mut Work) {
    let side = w.side;
    for zone in 0..w.zones.len() {
        let nodes = w.nodes[zone].clone();
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
                    Connectivity::Four,
                    HEURISTIC_STEP,
                    |_, to| {
                        if zone_of[to] as usize != zone {
                            return None;
                        }
                        match Cell::from_id(cells[to]) {
                            Cell::Road | Cell::Passage => Some(ON_ROAD),
                            Cell::Free | Cell::Approach | Cell::Treasure => Some(GROUND),
                            _ => None,
                        }
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
