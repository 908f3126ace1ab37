//! A* path search on a grid with a caller-given step cost, on the `pathfinding` crate.

use crate::connectivity::Connectivity;

/// A path found by [`astar`]: the flat indices from start to goal (both included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// Cells from start to goal, as flat row-major indices.
    pub cells: Vec<usize>,
    /// Total cost of the steps.
    pub cost: u32,
}

/// The cheapest path from `start` to `goal` (flat indices) on a `width x height` grid.
///
/// `step_cost(from, to)` is the cost of moving between neighbouring cells, or `None` where the
/// move is forbidden. `min_step` must not exceed any step's cost: the heuristic is the
/// Manhattan (4-connected) or Chebyshev (8-connected) distance times `min_step`, which keeps it
/// admissible so the path is optimal. Ties are broken deterministically. Returns `None` when no
/// path exists or an index is outside the grid.
///
/// ```
/// use grid_core::{astar, Connectivity};
/// // 3x3, the middle column is blocked except at the bottom.
/// let blocked = [false, true, false, false, true, false, false, false, false];
/// let p = astar(3, 3, 0, 2, Connectivity::Four, 1, |_, to| (!blocked[to]).then_some(1)).unwrap();
/// assert_eq!(p.cost, 6);
/// assert_eq!(p.cells.first(), Some(&0));
/// assert_eq!(p.cells.last(), Some(&2));
/// ```
pub fn astar(
    width: usize,
    height: usize,
    start: usize,
    goal: usize,
    conn: Connectivity,
    min_step: u32,
    mut step_cost: impl FnMut(usize, usize) -> Option<u32>,
) -> Option<Path> {
    let n = width * height;
    if start >= n || goal >= n {
        return None;
    }
    let (gx, gy) = ((goal % width) as u32, (goal / width) as u32);
    let heuristic = move |&i: &usize| {
        let (x, y) = ((i % width) as u32, (i / width) as u32);
        let (dx, dy) = (x.abs_diff(gx), y.abs_diff(gy));
        let d = match conn {
            Connectivity::Four => dx + dy,
            Connectivity::Eight => dx.max(dy),
        };
        d.saturating_mul(min_step)
    };
    // Successors live in a fixed array: no allocation per expanded node.
    let successors = |&i: &usize| {
        let mut out = [(0usize, 0u32); 8];
        let mut n = 0;
        conn.for_each_neighbor(width, height, i, |nb| {
            if let Some(c) = step_cost(i, nb) {
                out[n] = (nb, c);
                n += 1;
            }
        });
        out.into_iter().take(n)
    };
    pathfinding::prelude::astar(&start, successors, heuristic, |&i| i == goal)
        .map(|(cells, cost)| Path { cells, cost })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_optimal_path_around_a_wall() {
        // 10x10 with a vertical wall at x=5 from y=0..9, gap at y=9.
        let (w, h) = (10, 10);
        let wall = |i: usize| i % w == 5 && i / w < 9;
        let p = astar(w, h, 0, 9, Connectivity::Four, 1, |_, to| {
            (!wall(to)).then_some(1)
        })
        .unwrap();
        assert_eq!(p.cost, 9 + 18);
        assert_eq!(p.cells.len(), 28);
        // Every step is to a 4-neighbour and avoids the wall.
        for pair in p.cells.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let d = (a % w).abs_diff(b % w) + (a / w).abs_diff(b / w);
            assert_eq!(d, 1);
            assert!(!wall(b));
        }
    }

    #[test]
    fn respects_costs_and_reports_no_path() {
        let (w, h) = (5, 3);
        // Row 1 is cheap, rows 0 and 2 are expensive: the path dips through row 1.
        let cost = |_: usize, to: usize| Some(if to / w == 1 { 1 } else { 10 });
        let p = astar(w, h, 0, 4, Connectivity::Four, 1, cost).unwrap();
        assert_eq!(p.cost, 1 + 4 + 10);
        assert!(
            astar(w, h, 0, 14, Connectivity::Four, 1, |_, to| (to % w != 2)
                .then_some(1))
            .is_none()
        );
        assert!(astar(w, h, 0, 99, Connectivity::Four, 1, cost).is_none());
        let diag = astar(w, h, 0, 14, Connectivity::Eight, 1, |_, _| Some(1)).unwrap();
        assert_eq!(diag.cost, 4);
    }
}
