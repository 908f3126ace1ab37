//! Path and count metrics for any [`TileMap`]: the longest shortest path between passable
//! cells, the count of each tile, and BFS path distances between tiles (player → key → door).
//!
//! | metric | definition |
//! |---|---|
//! | **longest shortest path** | the largest BFS step distance between two passable cells of the same 4- (or 8-) connected region: the maze's "longest path" |
//! | **tile counts** | how many cells hold each tile id of the legend |
//! | **path distance** | BFS steps from the nearest cell of one tile set to the nearest cell of another, through passable cells |
//!
//! ## Exact or estimated
//!
//! The longest shortest path (the graph's diameter) is computed exactly, by a BFS from every
//! passable cell, when the map has at most [`EXACT_CELLS`] passable cells (a 32x32 map of open
//! floor); that costs `O(F²)` for `F` passable cells. Larger maps use the **double sweep**: in
//! each region, a BFS from the region's first cell (row-major) finds the farthest cell (the
//! first one, row-major, on ties), and a BFS from there gives the estimate. The double sweep
//! is exact on trees (perfect mazes) and never more than the true value, at least half of it
//! on any graph. [`LongestPath::exact`] says which was used. Both are deterministic.
//!
//! Every BFS is [`distance_map`](crate::connectivity::distance_map): iterative, safe on
//! 2000x2000 maps.
//!
//! ```
//! use grid_core::{Legend, TileKind, TileGrid, Connectivity};
//! use grid_core::metrics::EmptySet;
//! use grid_core::metrics::paths::{longest_path, path_distance, tile_counts};
//! let legend = Legend::new(vec![
//!     TileKind::new("empty", '.', [255; 3]),
//!     TileKind::new("solid", '#', [0; 3]),
//!     TileKind::new("key", 'k', [255, 200, 0]),
//! ]);
//! let map = TileGrid::from_text("...\n##.\nk..\n", legend).unwrap();
//! let floor = EmptySet::from_ids(&[0, 2]);
//! let longest = longest_path(&map, &floor, Connectivity::Four);
//! assert_eq!((longest.length, longest.exact), (6, true));
//! assert_eq!(tile_counts(&map), vec![6, 2, 1]);
//! // The floor cell nearest the key is its neighbour.
//! assert_eq!(path_distance(&map, &[0], &[2], &floor, Connectivity::Four), Some(1));
//! ```

use crate::connectivity::{Connectivity, UNREACHABLE, components, distance_map};
use crate::metrics::EmptySet;
use crate::tile::{TileId, TileMap};

/// Up to this many passable cells, [`longest_path`] is exact (a BFS from every cell);
/// above it, the double-sweep estimate.
pub const EXACT_CELLS: usize = 1024;

/// The longest shortest path of a map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LongestPath {
    /// BFS steps between the two farthest-apart passable cells of one region (0 when the
    /// map has at most one passable cell per region).
    pub length: u32,
    /// Whether `length` is exact (a BFS from every cell) or the double-sweep estimate.
    pub exact: bool,
}

/// The longest shortest path between cells where `pass` holds (flat row-major indices),
/// exact up to `exact_cells` passable cells (normally [`EXACT_CELLS`]) and estimated by
/// double sweep above (see the module docs).
pub fn longest_path_cells(
    width: usize,
    height: usize,
    conn: Connectivity,
    exact_cells: usize,
    pass: impl Fn(usize) -> bool,
) -> LongestPath {
    let open: Vec<usize> = (0..width * height).filter(|&i| pass(i)).collect();
    let farthest = |source: usize| -> (usize, u32) {
        let dist = distance_map(width, height, &[source], conn, &pass);
        let mut best = (source, 0);
        for (i, &d) in dist.as_slice().iter().enumerate() {
            if d != UNREACHABLE && d > best.1 {
                best = (i, d);
            }
        }
        best
    };
    if open.len() <= exact_cells {
        let length = open.iter().map(|&s| farthest(s).1).max().unwrap_or(0);
        return LongestPath {
            length,
            exact: true,
        };
    }
    let regions = components(width, height, conn, &pass);
    let mut first = vec![usize::MAX; regions.count()];
    for (i, &label) in regions.labels.as_slice().iter().enumerate() {
        if label != crate::connectivity::Components::NONE && first[label as usize] == usize::MAX {
            first[label as usize] = i;
        }
    }
    let length = first
        .iter()
        .map(|&start| farthest(farthest(start).0).1)
        .max()
        .unwrap_or(0);
    LongestPath {
        length,
        exact: false,
    }
}

/// The longest shortest path between the cells of `map` whose tile is in `passable`: exact
/// up to [`EXACT_CELLS`] passable cells, the double-sweep estimate above.
pub fn longest_path<M: TileMap + ?Sized>(
    map: &M,
    passable: &EmptySet,
    conn: Connectivity,
) -> LongestPath {
    longest_path_with(map, passable, conn, EXACT_CELLS)
}

/// [`longest_path`] with another limit for the exact computation (0: always the double
/// sweep, `usize::MAX`: always exact).
pub fn longest_path_with<M: TileMap + ?Sized>(
    map: &M,
    passable: &EmptySet,
    conn: Connectivity,
    exact_cells: usize,
) -> LongestPath {
    let open = passable_mask(map, passable);
    longest_path_cells(map.width(), map.height(), conn, exact_cells, |i| open[i])
}

/// How many cells hold each tile id: `counts[id]` for every id of the legend (ids outside
/// the legend are counted too, the vector growing to hold them).
pub fn tile_counts<M: TileMap + ?Sized>(map: &M) -> Vec<usize> {
    let mut counts = vec![0usize; map.legend().len()];
    for y in 0..map.height() {
        for x in 0..map.width() {
            let id = map.tile(x, y) as usize;
            if id >= counts.len() {
                counts.resize(id + 1, 0);
            }
            counts[id] += 1;
        }
    }
    counts
}

/// BFS steps from the nearest cell holding one of `from` to the nearest cell holding one of
/// `to`, moving through cells whose tile is in `passable` (the `from` cells themselves need
/// not be passable; a `to` cell must be, to be entered). `None` when no `to` cell is
/// reachable or either set is absent from the map; `Some(0)` when a cell is in both.
pub fn path_distance<M: TileMap + ?Sized>(
    map: &M,
    from: &[TileId],
    to: &[TileId],
    passable: &EmptySet,
    conn: Connectivity,
) -> Option<u32> {
    let (w, h) = (map.width(), map.height());
    let cells_of = |ids: &[TileId]| -> Vec<usize> {
        (0..w * h)
            .filter(|&i| ids.contains(&map.tile(i % w, i / w)))
            .collect()
    };
    let (sources, targets) = (cells_of(from), cells_of(to));
    if sources.is_empty() || targets.is_empty() {
        return None;
    }
    let open = passable_mask(map, passable);
    let dist = distance_map(w, h, &sources, conn, |i| open[i]);
    targets
        .iter()
        .map(|&t| dist.as_slice()[t])
        .filter(|&d| d != UNREACHABLE)
        .min()
}

/// The passable mask of `map`, row-major.
fn passable_mask<M: TileMap + ?Sized>(map: &M, passable: &EmptySet) -> Vec<bool> {
    let (w, h) = (map.width(), map.height());
    let mut open = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            open.push(passable.contains(map.tile(x, y)));
        }
    }
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{Legend, TileGrid, TileKind};

    fn map(text: &str) -> TileGrid {
        let legend = Legend::new(vec![
            TileKind::new("empty", '.', [255; 3]),
            TileKind::new("solid", '#', [0; 3]),
            TileKind::new("player", '@', [0, 0, 255]),
            TileKind::new("key", 'k', [255, 200, 0]),
            TileKind::new("door", '+', [150, 90, 40]),
        ]);
        TileGrid::from_text(text, legend).unwrap()
    }

    fn floor() -> EmptySet {
        EmptySet::from_ids(&[0, 2, 3, 4])
    }

    /// The brute-force diameter: max over all pairs of the BFS distance, by hand-rolled
    /// Floyd–Warshall on the 4-neighbour graph (independent of `distance_map`).
    fn floyd(m: &TileGrid, pass: &EmptySet) -> u32 {
        let (w, h) = (m.width(), m.height());
        let n = w * h;
        let inf = u32::MAX / 4;
        let mut d = vec![inf; n * n];
        let open = |i: usize| pass.contains(m.tile(i % w, i / w));
        for i in (0..n).filter(|&i| open(i)) {
            d[i * n + i] = 0;
            let (x, y) = (i % w, i / w);
            if x + 1 < w && open(i + 1) {
                d[i * n + i + 1] = 1;
                d[(i + 1) * n + i] = 1;
            }
            if y + 1 < h && open(i + w) {
                d[i * n + i + w] = 1;
                d[(i + w) * n + i] = 1;
            }
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    let via = d[i * n + k] + d[k * n + j];
                    if via < d[i * n + j] {
                        d[i * n + j] = via;
                    }
                }
            }
        }
        d.into_iter().filter(|&v| v < inf).max().unwrap_or(0)
    }

    #[test]
    fn serpentine_maze_by_hand() {
        // One corridor snaking through 5 rows: 5 + 1 + 5 + 1 + 5 = 17 cells, 16 steps.
        let m = map(".....\n####.\n.....\n.####\n.....\n");
        let l = longest_path(&m, &floor(), Connectivity::Four);
        assert_eq!(
            l,
            LongestPath {
                length: 16,
                exact: true
            }
        );
        assert_eq!(floyd(&m, &floor()), 16);
    }

    #[test]
    fn open_room_and_regions() {
        // A 4x3 open room: corner to corner 3 + 2 = 5. A separate 2-cell region is shorter.
        let m = map("....#..\n....###\n....###\n");
        assert_eq!(longest_path(&m, &floor(), Connectivity::Four).length, 5);
        // 8-connected: the diagonal cuts the corner distance to max(3, 2) = 3, and the room
        // and the pair are still apart (column 4 is solid on every row).
        assert_eq!(longest_path(&m, &floor(), Connectivity::Eight).length, 3);
        // No floor, one floor cell.
        assert_eq!(
            longest_path(&map("##\n##\n"), &floor(), Connectivity::Four).length,
            0
        );
        assert_eq!(
            longest_path(&map("#.\n##\n"), &floor(), Connectivity::Four).length,
            0
        );
    }

    #[test]
    fn exact_matches_floyd_on_awkward_shapes() {
        for text in [
            ".#...\n...#.\n.#.#.\n.#...\n",
            "..#..\n.....\n#.#.#\n.....\n",
            "...\n.#.\n...\n",
        ] {
            let m = map(text);
            let got = longest_path(&m, &floor(), Connectivity::Four);
            assert!(got.exact);
            assert_eq!(got.length, floyd(&m, &floor()), "{text}");
        }
    }

    #[test]
    fn double_sweep_on_large_maps() {
        // 40x40 open floor (1600 cells > EXACT_CELLS): the estimate is exact here (corner to
        // corner, 39 + 39), and flagged as an estimate.
        let m = TileGrid::new(40, 40, 0, map(".\n").legend);
        let l = longest_path(&m, &floor(), Connectivity::Four);
        assert_eq!(
            l,
            LongestPath {
                length: 78,
                exact: false
            }
        );
        // A 60x40 serpentine (walls on odd rows, the gap alternating sides, 1220 floor
        // cells): one corridor with a one-cell stub at the bottom, a tree, so double sweep is
        // exact: 20 rows of 59 steps, 19 two-step links between rows, one step into the stub.
        let mut s = TileGrid::new(60, 40, 0, m.legend.clone());
        for y in (1..40).step_by(2) {
            for x in 0..60 {
                s.tiles.set(x, y, 1);
            }
            let gap = if (y / 2) % 2 == 0 { 59 } else { 0 };
            s.tiles.set(gap, y, 0);
        }
        let l = longest_path(&s, &floor(), Connectivity::Four);
        assert!(!l.exact);
        assert_eq!(l.length, 20 * 59 + 19 * 2 + 1);
        // The limit can be moved either way.
        let exact = longest_path_with(&s, &floor(), Connectivity::Four, usize::MAX);
        assert_eq!(
            exact,
            LongestPath {
                length: l.length,
                exact: true
            }
        );
        let m = map(".....\n####.\n.....\n");
        let sweep = longest_path_with(&m, &floor(), Connectivity::Four, 0);
        assert_eq!(
            sweep,
            LongestPath {
                length: 10,
                exact: false
            }
        );
    }

    #[test]
    fn counts_and_entity_distances() {
        let m = map("@.#k\n.##.\n...+\n");
        assert_eq!(tile_counts(&m), vec![6, 3, 1, 1, 1]);
        // @ (0,0) -> down 2, right 3, up 2 = k: 7 steps; k -> + is 2 steps down.
        assert_eq!(
            path_distance(&m, &[2], &[3], &floor(), Connectivity::Four),
            Some(7)
        );
        assert_eq!(
            path_distance(&m, &[3], &[4], &floor(), Connectivity::Four),
            Some(2)
        );
        // A key walled in is unreachable; an absent tile gives None too.
        let walled = map("@.#k\n.###\n....\n");
        assert_eq!(
            path_distance(&walled, &[2], &[3], &floor(), Connectivity::Four),
            None
        );
        assert_eq!(
            path_distance(&walled, &[2], &[4], &floor(), Connectivity::Four),
            None
        );
        // The target must be passable to be entered.
        let no_key_floor = EmptySet::from_ids(&[0, 2]);
        assert_eq!(
            path_distance(&m, &[2], &[3], &no_key_floor, Connectivity::Four),
            None
        );
        assert_eq!(
            path_distance(&m, &[2], &[2, 3], &floor(), Connectivity::Four),
            Some(0)
        );
    }
}
