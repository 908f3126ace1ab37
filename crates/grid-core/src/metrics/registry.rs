//! The registry of named map metrics: one list, read by `levelgen analyze` (`--x`/`--y`)
//! and `levelgen search` (constraints, objectives and axes name these), and open to every
//! tool that lets a user pick a metric by name.
//!
//! Each [`MetricDef`] is a name, a one-line description and a function of a [`TileMap`], its
//! [`EmptySet`] (the tiles that count as empty, or passable) and the [`Settings`] it is read
//! with (connectivity, entropy blocks, the exact longest path's limit). [`Settings::PAPER`]
//! is the paper's: 4-connected regions and paths, a 5x5 block grid.
//!
//! | name | value on one map |
//! |---|---|
//! | `empty_fraction` | empty tiles / all tiles |
//! | `regions` | connected regions of empty tiles |
//! | `block_entropy` | mean binary entropy of the empty fraction over the block grid |
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
//! assert_eq!(regions.measure(&map, &empty), 2.0);
//! assert!(registry::find("nonsense").is_none());
//! ```

use super::paths::{EXACT_CELLS, longest_path_with};
use super::{BlockGrid, EmptySet, MapMetrics, measure};
use crate::connectivity::{Connectivity, components};
use crate::tile::TileMap;

/// How the metrics read a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Which neighbours are connected (regions, paths).
    pub conn: Connectivity,
    /// The blocks of the block entropy.
    pub blocks: BlockGrid,
    /// Up to this many empty tiles the longest path is exact, above it the double-sweep
    /// estimate ([`super::paths::longest_path_with`]).
    pub exact_path_cells: usize,
}

impl Settings {
    /// The paper's: 4-connected, 5x5 blocks, the longest path exact up to
    /// [`EXACT_CELLS`] empty tiles.
    pub const PAPER: Settings = Settings {
        conn: Connectivity::Four,
        blocks: BlockGrid::PAPER,
        exact_path_cells: EXACT_CELLS,
    };
}

impl Default for Settings {
    fn default() -> Self {
        Self::PAPER
    }
}

/// One named metric.
#[derive(Clone, Copy, Debug)]
pub struct MetricDef {
    /// The name tools and users pick it by (`snake_case`).
    pub name: &'static str,
    /// What it measures, in one line.
    pub description: &'static str,
    /// Its value on a map, given the tiles that count as empty and the settings.
    pub eval: fn(&dyn TileMap, &EmptySet, &Settings) -> f64,
    /// Its value read from the one-pass measures of the same map ([`MapMetrics`], which
    /// counts 4-connected regions), for the metrics that pass computes.
    pub from_summary: Option<fn(&MapMetrics) -> f64>,
}

impl MetricDef {
    /// The value on `map` with the paper's settings.
    pub fn measure(&self, map: &dyn TileMap, empty: &EmptySet) -> f64 {
        (self.eval)(map, empty, &Settings::PAPER)
    }

    /// The value on `map` with `settings`, read from `summary` (the one-pass measures of
    /// this map with the same empty tiles and `settings.blocks`) when this metric is one of
    /// them and the settings are 4-connected, measured otherwise. Tools measuring several
    /// metrics of a map pass one summary to all of them.
    pub fn value(
        &self,
        map: &dyn TileMap,
        empty: &EmptySet,
        settings: &Settings,
        summary: Option<&MapMetrics>,
    ) -> f64 {
        match (self.from_summary, summary) {
            (Some(read), Some(m)) if settings.conn == Connectivity::Four => read(m),
            _ => (self.eval)(map, empty, settings),
        }
    }
}

/// Every registered metric, in the order tools list them.
pub const METRICS: [MetricDef; 5] = [
    MetricDef {
        name: "empty_fraction",
        description: "empty tiles / all tiles",
        eval: empty_fraction,
        from_summary: Some(|m| m.empty_fraction),
    },
    MetricDef {
        name: "regions",
        description: "connected regions of empty tiles",
        eval: regions,
        from_summary: Some(|m| m.regions as f64),
    },
    MetricDef {
        name: "block_entropy",
        description: "mean binary entropy of the empty fraction over the block grid",
        eval: block_entropy,
        from_summary: Some(|m| m.block_entropy),
    },
    MetricDef {
        name: "longest_path",
        description: "longest shortest path (steps) between two empty tiles",
        eval: longest,
        from_summary: None,
    },
    MetricDef {
        name: "largest_region",
        description: "tiles of the largest region / all empty tiles",
        eval: largest_region,
        from_summary: None,
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

fn empty_fraction(map: &dyn TileMap, empty: &EmptySet, s: &Settings) -> f64 {
    measure(map, empty, s.blocks).empty_fraction
}

fn regions(map: &dyn TileMap, empty: &EmptySet, s: &Settings) -> f64 {
    match s.conn {
        Connectivity::Four => measure(map, empty, s.blocks).regions as f64,
        conn => region_sizes(map, empty, conn).len() as f64,
    }
}

fn block_entropy(map: &dyn TileMap, empty: &EmptySet, s: &Settings) -> f64 {
    measure(map, empty, s.blocks).block_entropy
}

fn longest(map: &dyn TileMap, empty: &EmptySet, s: &Settings) -> f64 {
    f64::from(longest_path_with(map, empty, s.conn, s.exact_path_cells).length)
}

fn region_sizes(map: &dyn TileMap, empty: &EmptySet, conn: Connectivity) -> Vec<u32> {
    let w = map.width();
    components(w, map.height(), conn, |i| {
        empty.contains(map.tile(i % w, i / w))
    })
    .sizes
}

fn largest_region(map: &dyn TileMap, empty: &EmptySet, s: &Settings) -> f64 {
    let sizes = region_sizes(map, empty, s.conn);
    let total: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
    let largest = sizes.iter().copied().max().unwrap_or(0);
    if total == 0 {
        0.0
    } else {
        largest as f64 / total as f64
    }
}

/// The span `[lo, hi)` an expressive-range plot bins `values` over: their range, widened
/// by a hair so the largest value falls in the last bin; a span of 1 centred on the value
/// when all are equal, and `[0, 1)` when there are none.
pub fn span(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .into_iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        (0.0, 1.0)
    } else if hi - lo < 1e-9 {
        (lo - 0.5, lo + 0.5)
    } else {
        (lo, hi + (hi - lo) * 1e-9)
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
        let value = |n: &str| find(n).unwrap().measure(&m, &empty);
        assert_eq!(value("empty_fraction"), 7.0 / 12.0);
        assert_eq!(value("regions"), 3.0);
        assert_eq!(value("longest_path"), 2.0);
        assert_eq!(value("largest_region"), 3.0 / 7.0);
        // 5x5 blocks over 4x3: one tile per block in the used blocks, so every block is
        // pure and the entropy 0.
        assert_eq!(value("block_entropy"), 0.0);
        let none = map("##\n##\n");
        assert_eq!(find("largest_region").unwrap().measure(&none, &empty), 0.0);
    }

    #[test]
    fn settings_change_what_is_read() {
        // Two diagonal neighbours: two 4-connected regions, one 8-connected.
        let m = map(".#\n#.\n");
        let empty = EmptySet::from_ids(&[0]);
        let eight = Settings {
            conn: Connectivity::Eight,
            ..Settings::PAPER
        };
        let regions = find("regions").unwrap();
        assert_eq!(regions.value(&m, &empty, &Settings::PAPER, None), 2.0);
        assert_eq!(regions.value(&m, &empty, &eight, None), 1.0);
        assert_eq!(
            find("longest_path")
                .unwrap()
                .value(&m, &empty, &eight, None),
            1.0
        );
        assert_eq!(
            find("largest_region")
                .unwrap()
                .value(&m, &empty, &eight, None),
            1.0
        );
        // A summary is read when 4-connected and measured past otherwise.
        let summary = measure(&m, &empty, BlockGrid::PAPER);
        let planted = MapMetrics {
            regions: 9,
            ..summary
        };
        assert_eq!(
            regions.value(&m, &empty, &Settings::PAPER, Some(&planted)),
            9.0
        );
        assert_eq!(regions.value(&m, &empty, &eight, Some(&planted)), 1.0);
        for def in &METRICS {
            let s = Settings::PAPER;
            assert_eq!(
                def.value(&m, &empty, &s, Some(&summary)),
                def.value(&m, &empty, &s, None),
                "{}",
                def.name
            );
        }
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

    #[test]
    fn spans_hold_every_value_and_widen_flat_ones() {
        let (lo, hi) = span([3.0, 1.0, 2.0]);
        assert_eq!(lo, 1.0);
        assert!(hi > 3.0 && hi < 3.0 + 1e-6, "{hi}");
        assert_eq!(span([2.0, 2.0]), (1.5, 2.5));
        assert_eq!(span(std::iter::empty()), (0.0, 1.0));
    }
}
