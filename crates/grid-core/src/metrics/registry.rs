//! The registry of named map metrics: one list, read by `levelgen analyze` (`--x`/`--y`)
//! and open to every tool that lets a user pick a metric by name.
//!
//! Each [`MetricDef`] is a name, a one-line description and a function of a [`TileMap`] and
//! its [`EmptySet`] (the tiles that count as empty, or passable). The functions use the
//! paper's settings: 4-connected regions and paths, a 5x5 block grid.
//!
//! | name | value on one map |
//! |---|---|
//! | `empty_fraction` | empty tiles / all tiles |
//! | `regions` | 4-connected regions of empty tiles |
//! | `block_entropy` | mean binary entropy of the empty fraction over a 5x5 block grid |
//! | `longest_path` | longest shortest path between empty tiles ([`super::paths`]) |
//! | `largest_region` | tiles of the largest region / all empty tiles (0 with no empty tile) |
//!
//! ```
//! use grid_core::{Legend, TileKind, TileGrid};
//! use grid_core::metrics::{EmptySet, registry};
//! let legend = Legend::new(vec![
//!     TileKind::new("empty", '.', [255; 3]),
//!     TileKind::new("solid", '#', [0; 3]),
//! ]);
//! let map = TileGrid::from_text("..#\n#.#\n##.\n", legend).unwrap();
//! let empty = EmptySet::from_ids(&[0]);
//! let regions = registry::find("regions").unwrap();
//! assert_eq!((regions.measure)(&map, &empty), 2.0);
//! assert!(registry::find("nonsense").is_none());
//! ```

use super::paths::longest_path;
use super::{BlockGrid, EmptySet, measure};
use crate::connectivity::{Connectivity, components};
use crate::tile::TileMap;

/// One named metric.
#[derive(Clone, Copy, Debug)]
pub struct MetricDef {
    /// The name tools and users pick it by (`snake_case`).
    pub name: &'static str,
    /// What it measures, in one line.
    pub description: &'static str,
    /// Its value on a map, given the tiles that count as empty.
    pub measure: fn(&dyn TileMap, &EmptySet) -> f64,
}

/// Every registered metric, in the order tools list them.
pub const METRICS: [MetricDef; 5] = [
    MetricDef {
        name: "empty_fraction",
        description: "empty tiles / all tiles",
        measure: empty_fraction,
    },
    MetricDef {
        name: "regions",
        description: "4-connected regions of empty tiles",
        measure: regions,
    },
    MetricDef {
        name: "block_entropy",
        description: "mean binary entropy of the empty fraction over a 5x5 block grid",
        measure: block_entropy,
    },
    MetricDef {
        name: "longest_path",
        description: "longest shortest path (4-connected steps) between two empty tiles",
        measure: longest,
    },
    MetricDef {
        name: "largest_region",
        description: "tiles of the largest region / all empty tiles",
        measure: largest_region,
    },
];

/// The metric called `name`, if registered.
pub fn find(name: &str) -> Option<&'static MetricDef> {
    METRICS.iter().find(|m| m.name == name)
}

/// The registered names, comma-separated (for error messages).
pub fn names() -> String {
    METRICS.map(|m| m.name).join(", ")
}

fn empty_fraction(map: &dyn TileMap, empty: &EmptySet) -> f64 {
    measure(map, empty, BlockGrid::PAPER).empty_fraction
}

fn regions(map: &dyn TileMap, empty: &EmptySet) -> f64 {
    measure(map, empty, BlockGrid::PAPER).regions as f64
}

fn block_entropy(map: &dyn TileMap, empty: &EmptySet) -> f64 {
    measure(map, empty, BlockGrid::PAPER).block_entropy
}

fn longest(map: &dyn TileMap, empty: &EmptySet) -> f64 {
    f64::from(longest_path(map, empty, Connectivity::Four).length)
}

fn largest_region(map: &dyn TileMap, empty: &EmptySet) -> f64 {
    let (w, h) = (map.width(), map.height());
    let comps = components(w, h, Connectivity::Four, |i| {
        empty.contains(map.tile(i % w, i / w))
    });
    let total: u64 = comps.sizes.iter().map(|&s| u64::from(s)).sum();
    let largest = comps.sizes.iter().copied().max().unwrap_or(0);
    if total == 0 {
        0.0
    } else {
        largest as f64 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{Legend, TileGrid, TileKind};

    fn map(text: &str) -> TileGrid {
        let legend = Legend::new(vec![
            TileKind::new("empty", '.', [255; 3]),
            TileKind::new("solid", '#', [0; 3]),
        ]);
        TileGrid::from_text(text, legend).unwrap()
    }

    #[test]
    fn every_metric_by_hand() {
        // Regions {(0,0),(1,0),(1,1)} and {(3,0),(3,1),(3,2)} and {(0,2)}: 7 empty of 12.
        let m = map("..#.\n#.#.\n.##.\n");
        let empty = EmptySet::from_ids(&[0]);
        let value = |n: &str| (find(n).unwrap().measure)(&m, &empty);
        assert_eq!(value("empty_fraction"), 7.0 / 12.0);
        assert_eq!(value("regions"), 3.0);
        assert_eq!(value("longest_path"), 2.0);
        assert_eq!(value("largest_region"), 3.0 / 7.0);
        // 5x5 blocks over 4x3: one tile per block in the used blocks, so every block is
        // pure and the entropy 0.
        assert_eq!(value("block_entropy"), 0.0);
        let none = map("##\n##\n");
        assert_eq!(
            (find("largest_region").unwrap().measure)(&none, &empty),
            0.0
        );
    }

    #[test]
    fn names_are_unique_and_described() {
        for (i, m) in METRICS.iter().enumerate() {
            assert!(!m.description.is_empty());
            assert!(METRICS[..i].iter().all(|o| o.name != m.name), "{}", m.name);
            assert_eq!(find(m.name).unwrap().name, m.name);
        }
        assert_eq!(
            names(),
            "empty_fraction, regions, block_entropy, longest_path, largest_region"
        );
    }
}
