//! Flood fill, connected components and BFS distance maps over any cell predicate.
//!
//! Everything here is iterative (an explicit queue, never recursion), so a 2000x2000 open grid
//! is as safe as a 10x10 one. Predicates take a flat row-major index `y * width + x`.

use crate::grid::Grid;
use std::collections::VecDeque;

/// Which cells touch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// Orthogonal neighbours only.
    #[default]
    Four,
    /// Orthogonal and diagonal neighbours.
    Eight,
}

const FOUR: [(isize, isize); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const EIGHT: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl Connectivity {
    /// The neighbour offsets, row-major.
    pub fn offsets(self) -> &'static [(isize, isize)] {
        match self {
            Connectivity::Four => &FOUR,
            Connectivity::Eight => &EIGHT,
        }
    }

    /// Calls `f` with the flat index of each in-bounds neighbour of `index`, in row-major
    /// order of the offsets.
    #[inline]
    pub fn for_each_neighbor(
        self,
        width: usize,
        height: usize,
        index: usize,
        mut f: impl FnMut(usize),
    ) {
        let x = index % width;
        let (left, right) = (x > 0, x + 1 < width);
        let (up, down) = (index >= width, index + width < width * height);
        match self {
            Connectivity::Four => {
                if up {
                    f(index - width);
                }
                if left {
                    f(index - 1);
                }
                if right {
                    f(index + 1);
                }
                if down {
                    f(index + width);
                }
            }
            Connectivity::Eight => {
                if up {
                    if left {
                        f(index - width - 1);
                    }
                    f(index - width);
                    if right {
                        f(index - width + 1);
                    }
                }
                if left {
                    f(index - 1);
                }
                if right {
                    f(index + 1);
                }
                if down {
                    if left {
                        f(index + width - 1);
                    }
                    f(index + width);
                    if right {
                        f(index + width + 1);
                    }
                }
            }
        }
    }
}

/// The indices of every cell reachable from `start` through cells where `pass` holds
/// (including `start`, if it passes), in BFS order. Empty if `start` fails `pass` or lies
/// outside the grid.
pub fn flood_fill(
    width: usize,
    height: usize,
    start: usize,
    conn: Connectivity,
    mut pass: impl FnMut(usize) -> bool,
) -> Vec<usize> {
    let mut out = Vec::new();
    if start >= width * height || !pass(start) {
        return out;
    }
    let mut seen = vec![false; width * height];
    seen[start] = true;
    out.push(start);
    let mut head = 0;
    while head < out.len() {
        let i = out[head];
        head += 1;
        conn.for_each_neighbor(width, height, i, |n| {
            if !seen[n] && pass(n) {
                seen[n] = true;
                out.push(n);
            }
        });
    }
    out
}

/// Connected components of the cells where `pass` holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// Component label of each cell ([`Components::NONE`] where `pass` fails).
    pub labels: Grid<u32>,
    /// Size of each component, indexed by label. Labels are numbered in row-major order of
    /// each component's first cell.
    pub sizes: Vec<u32>,
}

impl Components {
    /// The label of cells outside every component.
    pub const NONE: u32 = u32::MAX;

    /// Number of components.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// The label of the largest component (the first one on ties).
    pub fn largest(&self) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        for (i, &s) in self.sizes.iter().enumerate() {
            if best.is_none_or(|(_, bs)| s > bs) {
                best = Some((i as u32, s));
            }
        }
        best.map(|(i, _)| i)
    }

    /// The flat indices of each component's cells, grouped by label.
    pub fn cells(&self) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = self
            .sizes
            .iter()
            .map(|&s| Vec::with_capacity(s as usize))
            .collect();
        for (i, &l) in self.labels.as_slice().iter().enumerate() {
            if l != Self::NONE {
                out[l as usize].push(i);
            }
        }
        out
    }
}

/// Labels the connected components of the cells where `pass` holds.
pub fn components(
    width: usize,
    height: usize,
    conn: Connectivity,
    mut pass: impl FnMut(usize) -> bool,
) -> Components {
    let n = width * height;
    let mut labels = vec![Components::NONE; n];
    let open: Vec<bool> = (0..n).map(&mut pass).collect();
    let mut sizes = Vec::new();
    let mut queue = Vec::new();
    for s in 0..n {
        if !open[s] || labels[s] != Components::NONE {
            continue;
        }
        let label = sizes.len() as u32;
        labels[s] = label;
        queue.clear();
        queue.push(s);
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head];
            head += 1;
            conn.for_each_neighbor(width, height, i, |nb| {
                if open[nb] && labels[nb] == Components::NONE {
                    labels[nb] = label;
                    queue.push(nb);
                }
            });
        }
        sizes.push(queue.len() as u32);
    }
    Components {
        labels: Grid::from_vec(width, height, labels).expect("length is width*height"),
        sizes,
    }
}

/// Labels the connected regions of cells with equal keys: two neighbouring cells join when
/// `key` gives both the same `Some` value; cells whose key is `None` get
/// [`Components::NONE`]. (For example the contiguous parts of each zone of a zone map.)
/// Labels are numbered in row-major order of each region's first cell, as in [`components`].
pub fn components_by_key<K: PartialEq>(
    width: usize,
    height: usize,
    conn: Connectivity,
    mut key: impl FnMut(usize) -> Option<K>,
) -> Components {
    let n = width * height;
    let keys: Vec<Option<K>> = (0..n).map(&mut key).collect();
    let mut labels = vec![Components::NONE; n];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    for s in 0..n {
        if keys[s].is_none() || labels[s] != Components::NONE {
            continue;
        }
        let label = sizes.len() as u32;
        labels[s] = label;
        stack.push(s);
        let mut size = 0u32;
        while let Some(i) = stack.pop() {
            size += 1;
            conn.for_each_neighbor(width, height, i, |nb| {
                if labels[nb] == Components::NONE && keys[nb] == keys[s] {
                    labels[nb] = label;
                    stack.push(nb);
                }
            });
        }
        sizes.push(size);
    }
    Components {
        labels: Grid::from_vec(width, height, labels).expect("length is width*height"),
        sizes,
    }
}

/// Reusable scratch space for counting components without allocating per call.
#[derive(Clone, Debug, Default)]
pub struct ComponentCounter {
    open: Vec<bool>,
    stack: Vec<u32>,
}

impl ComponentCounter {
    /// An empty counter; buffers grow on first use and are then reused.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of connected components of the cells where `pass` holds (`pass` is called
    /// once per cell).
    pub fn count(
        &mut self,
        width: usize,
        height: usize,
        conn: Connectivity,
        pass: impl FnMut(usize) -> bool,
    ) -> usize {
        let n = width * height;
        self.open.clear();
        self.open.extend((0..n).map(pass));
        let mut count = 0;
        for s in 0..n {
            if !self.open[s] {
                continue;
            }
            count += 1;
            self.open[s] = false;
            self.stack.clear();
            self.stack.push(s as u32);
            while let Some(i) = self.stack.pop() {
                let (open, stack) = (&mut self.open, &mut self.stack);
                conn.for_each_neighbor(width, height, i as usize, |nb| {
                    if open[nb] {
                        open[nb] = false;
                        stack.push(nb as u32);
                    }
                });
            }
        }
        count
    }
}

/// BFS step distance from the nearest of `sources` to every cell, moving only through cells
/// where `pass` holds. Sources count even if they fail `pass`. Unreachable cells get
/// [`UNREACHABLE`].
pub fn distance_map(
    width: usize,
    height: usize,
    sources: &[usize],
    conn: Connectivity,
    mut pass: impl FnMut(usize) -> bool,
) -> Grid<u32> {
    let n = width * height;
    let mut dist = vec![UNREACHABLE; n];
    let mut queue = VecDeque::new();
    for &s in sources {
        if s < n && dist[s] == UNREACHABLE {
            dist[s] = 0;
            queue.push_back(s);
        }
    }
    while let Some(i) = queue.pop_front() {
        let d = dist[i] + 1;
        conn.for_each_neighbor(width, height, i, |nb| {
            if dist[nb] == UNREACHABLE && pass(nb) {
                dist[nb] = d;
                queue.push_back(nb);
            }
        });
    }
    Grid::from_vec(width, height, dist).expect("length is width*height")
}

/// The distance of cells [`distance_map`] cannot reach.
pub const UNREACHABLE: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{Legend, TileGrid, TileKind, TileMap};

    fn map(text: &str) -> TileGrid {
        let legend = Legend::new(vec![
            TileKind::new("empty", '.', [255; 3]),
            TileKind::new("wall", '#', [0; 3]),
        ]);
        TileGrid::from_text(text, legend).unwrap()
    }

    #[test]
    fn four_vs_eight_components() {
        let m = map(".#.\n#.#\n.#.\n");
        let open = |i: usize| m.tiles.as_slice()[i] == 0;
        let c4 = components(3, 3, Connectivity::Four, open);
        let c8 = components(3, 3, Connectivity::Eight, open);
        assert_eq!(c4.count(), 5);
        assert_eq!(c8.count(), 1);
        assert_eq!(c8.sizes, vec![5]);
        assert_eq!(*c4.labels.at(1, 1), 2);
        assert_eq!(*c4.labels.at(1, 0), Components::NONE);
        assert_eq!(
            ComponentCounter::new().count(3, 3, Connectivity::Four, open),
            5
        );
    }

    #[test]
    fn equal_key_regions() {
        // Rows `1 1 2 1 / 2 2 2 1 / 1 0 0 1`: zone 1 falls into three parts, zone 2 is one
        // region of four cells; 0 cells are left out.
        let zones = [1, 1, 2, 1, 2, 2, 2, 1, 1, 0, 0, 1];
        let c = components_by_key(4, 3, Connectivity::Four, |i| {
            (zones[i] != 0).then_some(zones[i])
        });
        assert_eq!(c.sizes, vec![2, 4, 3, 1]);
        assert_eq!(c.labels.as_slice()[9], Components::NONE);
        assert_eq!(*c.labels.at(3, 0), 2);
        assert_eq!(*c.labels.at(0, 1), 1);
        assert_eq!(*c.labels.at(0, 2), 3);
    }

    #[test]
    fn flood_fill_and_distances() {
        let m = map("..#.\n.##.\n....\n");
        let open = |i: usize| m.tiles.as_slice()[i] == 0;
        let (w, h) = (m.width(), m.height());
        let filled = flood_fill(w, h, 0, Connectivity::Four, open);
        assert_eq!(filled.len(), 9);
        assert!(flood_fill(w, h, 2, Connectivity::Four, open).is_empty());
        let d = distance_map(w, h, &[0], Connectivity::Four, open);
        assert_eq!(*d.at(3, 0), 7);
        assert_eq!(*d.at(2, 0), UNREACHABLE);
        let comps = components(w, h, Connectivity::Four, open);
        assert_eq!(comps.largest(), Some(0));
        assert_eq!(comps.cells()[0].len(), 9);
    }

    #[test]
    fn huge_open_grid_does_not_overflow() {
        let (w, h) = (2000, 2000);
        // A serpentine wall pattern makes a single very long corridor plus the open case.
        let c = components(w, h, Connectivity::Four, |_| true);
        assert_eq!(c.sizes, vec![(w * h) as u32]);
        let snake = |i: usize| {
            let (x, y) = (i % w, i / w);
            y % 2 == 0 || (y % 4 == 1 && x == w - 1) || (y % 4 == 3 && x == 0)
        };
        let c = components(w, h, Connectivity::Four, snake);
        assert_eq!(c.count(), 1);
        let d = distance_map(w, h, &[0], Connectivity::Four, snake);
        let last = (0..w * h)
            .filter(|&i| snake(i))
            .map(|i| d.as_slice()[i])
            .max();
        assert_eq!(last, Some((w * h / 2 + h / 2 - 1) as u32));
        assert_eq!(
            ComponentCounter::new().count(w, h, Connectivity::Eight, snake),
            1
        );
    }
}
