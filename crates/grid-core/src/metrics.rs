//! Expressive-range metrics for any [`TileMap`]: the three measures of the Marahel paper.
//!
//! | metric | definition |
//! |---|---|
//! | **empty fraction** | tiles whose id is in the [`EmptySet`], divided by all tiles |
//! | **regions** | number of 4-connected components of empty tiles |
//! | **block entropy** | mean binary entropy (bits) of the empty fraction of each block of a [`BlockGrid`] (5x5 by default) |
//!
//! Block `bx` of a `cols`-column grid covers the columns `[floor(bx*W/cols), floor((bx+1)*W/cols))`,
//! likewise for rows, so a 50x50 map has 25 blocks of 10x10 tiles (as in the paper and in
//! `shared/specs/marahel.md` §14.1). The entropy of a block with empty fraction `p` is
//! `H(p) = -p·log2 p - (1-p)·log2 (1-p)`, and `H(0) = H(1) = 0`. A map narrower (or shorter) than
//! its block grid has blocks with no tiles; they are left out of the mean (a map with no tiles
//! has entropy 0).
//!
//! [`MetricsScratch`] keeps its buffers between maps, so measuring a batch allocates nothing
//! beyond the maps themselves.
//!
//! ```
//! use grid_core::{Legend, TileKind, TileGrid};
//! use grid_core::metrics::{BlockGrid, EmptySet, MetricsScratch};
//! let legend = Legend::new(vec![
//!     TileKind::new("empty", '.', [255; 3]),
//!     TileKind::new("solid", '#', [0; 3]),
//! ]);
//! let map = TileGrid::from_text("..#\n#.#\n##.\n", legend).unwrap();
//! let empty = EmptySet::from_names(&map.legend, &["empty"]).unwrap();
//! let m = MetricsScratch::new().measure(&map, &empty, BlockGrid::square(1));
//! assert_eq!(m.empty_tiles, 4);
//! assert_eq!(m.regions, 2);
//! assert!((m.empty_fraction - 4.0 / 9.0).abs() < 1e-12);
//! ```

pub mod paths;
pub mod registry;

use crate::connectivity::{ComponentCounter, Connectivity};
use crate::tile::{Legend, TileId, TileMap};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A metrics set-up error.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MetricsError {
    /// An empty-tile name is not in the map's legend.
    #[error("empty tile name {name:?} is not in the legend (known: {known})")]
    UnknownTile {
        /// The name asked for.
        name: String,
        /// The legend's names, comma-separated.
        known: String,
    },
    /// A block grid could not be parsed.
    #[error("bad block grid {text:?}: expected N or COLSxROWS with 1..=1000 blocks per side")]
    BadBlocks {
        /// The text given.
        text: String,
    },
}

/// Which tile ids count as empty space.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EmptySet {
    mask: Vec<bool>,
}

impl EmptySet {
    /// The ids of the tiles called `names` in `legend`. Every name must be in the legend.
    pub fn from_names(legend: &Legend, names: &[&str]) -> Result<Self, MetricsError> {
        let mut set = Self::default();
        set.rebuild(legend, names)?;
        Ok(set)
    }

    /// Like [`EmptySet::from_names`], but names the legend lacks are skipped, so one list
    /// (`empty|player|enemy`) serves legends that hold only some of its names.
    pub fn from_names_present(legend: &Legend, names: &[&str]) -> Self {
        let mut mask = vec![false; legend.len()];
        for name in names {
            if let Some(id) = legend.id_of(name) {
                mask[id as usize] = true;
            }
        }
        Self { mask }
    }

    /// Refills this set for `legend` and `names`, reusing its buffer.
    pub fn rebuild(&mut self, legend: &Legend, names: &[&str]) -> Result<(), MetricsError> {
        self.mask.clear();
        self.mask.resize(legend.len(), false);
        for name in names {
            let id = legend
                .id_of(name)
                .ok_or_else(|| MetricsError::UnknownTile {
                    name: (*name).to_string(),
                    known: legend
                        .kinds()
                        .iter()
                        .map(|k| k.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
            self.mask[id as usize] = true;
        }
        Ok(())
    }

    /// A set from explicit ids.
    pub fn from_ids(ids: &[TileId]) -> Self {
        let len = ids.iter().map(|&i| i as usize + 1).max().unwrap_or(0);
        let mut mask = vec![false; len];
        for &id in ids {
            mask[id as usize] = true;
        }
        Self { mask }
    }

    /// Whether `id` counts as empty (ids outside the legend never do).
    #[inline]
    pub fn contains(&self, id: TileId) -> bool {
        self.mask.get(id as usize).copied().unwrap_or(false)
    }

    /// Number of empty ids.
    pub fn len(&self) -> usize {
        self.mask.iter().filter(|&&b| b).count()
    }

    /// Whether no id counts as empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The grid of blocks the entropy is averaged over: `cols x rows` blocks (5x5 by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockGrid {
    /// Blocks across.
    pub cols: usize,
    /// Blocks down.
    pub rows: usize,
}

impl BlockGrid {
    /// The paper's 5x5 grid.
    pub const PAPER: BlockGrid = BlockGrid { cols: 5, rows: 5 };

    /// An `n x n` grid (at least 1x1).
    pub fn square(n: usize) -> Self {
        Self {
            cols: n.max(1),
            rows: n.max(1),
        }
    }

    /// Number of blocks.
    pub fn count(self) -> usize {
        self.cols * self.rows
    }

    /// The half-open range `[floor(b*len/n), floor((b+1)*len/n))` of block `b` of `n` over
    /// `len` tiles.
    #[inline]
    pub fn span(b: usize, n: usize, len: usize) -> (usize, usize) {
        (b * len / n, (b + 1) * len / n)
    }
}

impl Default for BlockGrid {
    fn default() -> Self {
        Self::PAPER
    }
}

impl fmt::Display for BlockGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

impl FromStr for BlockGrid {
    type Err = MetricsError;

    /// `"5"` (5x5) or `"4x3"` (4 across, 3 down).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || MetricsError::BadBlocks {
            text: s.to_string(),
        };
        let parse = |t: &str| -> Result<usize, MetricsError> {
            let n: usize = t.trim().parse().map_err(|_| bad())?;
            if (1..=1000).contains(&n) {
                Ok(n)
            } else {
                Err(bad())
            }
        };
        match s.split_once(['x', 'X']) {
            Some((c, r)) => Ok(Self {
                cols: parse(c)?,
                rows: parse(r)?,
            }),
            None => Ok(Self::square(parse(s)?)),
        }
    }
}

/// The measures of one map.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MapMetrics {
    /// Map width in tiles.
    pub width: usize,
    /// Map height in tiles.
    pub height: usize,
    /// Number of empty tiles.
    pub empty_tiles: usize,
    /// `empty_tiles / (width * height)` (0 for a map with no tiles).
    pub empty_fraction: f64,
    /// Number of 4-connected regions of empty tiles.
    pub regions: usize,
    /// Mean binary entropy (bits, in `[0, 1]`) of the empty fraction over the block grid.
    pub block_entropy: f64,
}

/// Binary entropy in bits: `-p·log2 p - (1-p)·log2 (1-p)`, 0 at `p = 0` and `p = 1`.
#[inline]
pub fn binary_entropy(p: f64) -> f64 {
    if p <= 0.0 || p >= 1.0 {
        0.0
    } else {
        -p * p.log2() - (1.0 - p) * (1.0 - p).log2()
    }
}

/// Reusable buffers for measuring many maps; one per thread.
#[derive(Clone, Debug, Default)]
pub struct MetricsScratch {
    open: Vec<bool>,
    block_of_x: Vec<u32>,
    block_empty: Vec<u32>,
    counter: ComponentCounter,
}

impl MetricsScratch {
    /// Empty scratch; its buffers grow to the largest map measured and are then reused.
    pub fn new() -> Self {
        Self::default()
    }

    /// Measures `map`: one pass over the tiles for the empty mask and block counts, then one
    /// component count.
    pub fn measure<M: TileMap + ?Sized>(
        &mut self,
        map: &M,
        empty: &EmptySet,
        blocks: BlockGrid,
    ) -> MapMetrics {
        let (w, h) = (map.width(), map.height());
        let (cols, rows) = (blocks.cols.max(1), blocks.rows.max(1));
        let n = w * h;

        self.block_of_x.clear();
        self.block_of_x.resize(w, 0);
        for bx in 0..cols {
            let (x0, x1) = BlockGrid::span(bx, cols, w);
            self.block_of_x[x0..x1].fill(bx as u32);
        }
        self.block_empty.clear();
        self.block_empty.resize(cols * rows, 0);
        self.open.clear();
        self.open.reserve(n);

        let mut empty_tiles = 0usize;
        for by in 0..rows {
            let (y0, y1) = BlockGrid::span(by, rows, h);
            let counts = &mut self.block_empty[by * cols..(by + 1) * cols];
            for y in y0..y1 {
                for (x, &bx) in self.block_of_x.iter().enumerate() {
                    let e = empty.contains(map.tile(x, y));
                    self.open.push(e);
                    counts[bx as usize] += e as u32;
                }
            }
        }
        for &c in &self.block_empty {
            empty_tiles += c as usize;
        }

        let open = &self.open;
        let regions = self.counter.count(w, h, Connectivity::Four, |i| open[i]);

        let mut sum = 0.0;
        let mut used = 0usize;
        for by in 0..rows {
            let (y0, y1) = BlockGrid::span(by, rows, h);
            for bx in 0..cols {
                let (x0, x1) = BlockGrid::span(bx, cols, w);
                let area = (x1 - x0) * (y1 - y0);
                if area == 0 {
                    continue;
                }
                used += 1;
                sum += binary_entropy(self.block_empty[by * cols + bx] as f64 / area as f64);
            }
        }

        MapMetrics {
            width: w,
            height: h,
            empty_tiles,
            empty_fraction: if n == 0 {
                0.0
            } else {
                empty_tiles as f64 / n as f64
            },
            regions,
            block_entropy: if used == 0 { 0.0 } else { sum / used as f64 },
        }
    }
}

/// Measures one map with fresh buffers (use [`MetricsScratch`] for batches).
pub fn measure<M: TileMap + ?Sized>(map: &M, empty: &EmptySet, blocks: BlockGrid) -> MapMetrics {
    MetricsScratch::new().measure(map, empty, blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{TileGrid, TileKind};

    fn legend() -> Legend {
        Legend::new(vec![
            TileKind::new("empty", '.', [255; 3]),
            TileKind::new("solid", '#', [0; 3]),
            TileKind::new("player", '@', [0, 0, 255]),
        ])
    }

    fn map(text: &str) -> TileGrid {
        TileGrid::from_text(text, legend()).unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn binary_entropy_values() {
        assert_eq!(binary_entropy(0.0), 0.0);
        assert_eq!(binary_entropy(1.0), 0.0);
        assert!(close(binary_entropy(0.5), 1.0));
        // H(1/4) = 2 - (3/4)·log2 3, worked by hand.
        let h = 2.0 - 0.75 * 3f64.log2();
        assert!(close(binary_entropy(0.25), h));
        assert!(close(binary_entropy(0.75), h));
        assert!((h - 0.811_278_124_459_132_8).abs() < 1e-15);
    }

    #[test]
    fn empty_fraction_and_regions_by_hand() {
        // Empty tiles: (0,0),(2,0),(0,1),(2,1),(0,3),(1,3),(3,3).
        let m = map(".#.#\n.#.#\n####\n..#.\n");
        let empty = EmptySet::from_names(&m.legend, &["empty"]).unwrap();
        let r = measure(&m, &empty, BlockGrid::PAPER);
        assert_eq!(r.empty_tiles, 7);
        assert!(close(r.empty_fraction, 7.0 / 16.0));
        // {(0,0),(0,1)}, {(2,0),(2,1)}, {(0,3),(1,3)}, {(3,3)}.
        assert_eq!(r.regions, 4);
        assert_eq!((r.width, r.height), (4, 4));
    }

    #[test]
    fn diagonal_touch_is_not_connected() {
        let m = map(".#\n#.\n");
        let empty = EmptySet::from_names(&m.legend, &["empty"]).unwrap();
        assert_eq!(measure(&m, &empty, BlockGrid::square(1)).regions, 2);
    }

    #[test]
    fn empty_set_by_several_names() {
        let m = map(".@#\n###\n");
        let only = EmptySet::from_names(&m.legend, &["empty"]).unwrap();
        let both = EmptySet::from_names(&m.legend, &["empty", "player"]).unwrap();
        assert_eq!(measure(&m, &only, BlockGrid::square(1)).empty_tiles, 1);
        let r = measure(&m, &both, BlockGrid::square(1));
        assert_eq!((r.empty_tiles, r.regions), (2, 1));
        let err = EmptySet::from_names(&m.legend, &["floor"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "empty tile name \"floor\" is not in the legend (known: empty, solid, player)"
        );
        let lenient = EmptySet::from_names_present(&m.legend, &["floor", "player"]);
        assert_eq!(lenient.len(), 1);
        assert!(lenient.contains(2) && !lenient.contains(0) && !lenient.contains(99));
        assert_eq!(EmptySet::from_ids(&[1]).len(), 1);
    }

    /// A 10x10 map with 5x5 blocks of 2x2 tiles; every 2-row band holds the same five blocks.
    #[test]
    fn block_entropy_by_hand_on_even_blocks() {
        let band = "##.###..#.\n###.#...#.\n";
        let text = band.repeat(5);
        let m = map(&text);
        let empty = EmptySet::from_names(&m.legend, &["empty"]).unwrap();
        // Per-block empties, counted by hand from `band`:
        // cols 0-1: "##","##" -> 0; cols 2-3: ".#","#." -> 2; cols 4-5: "##","#." -> 1;
        // cols 6-7: "..","..". -> 4; cols 8-9: "#.","#." -> 2.
        let h = |k: f64| binary_entropy(k / 4.0);
        let row_mean = (h(0.0) + h(2.0) + h(1.0) + h(4.0) + h(2.0)) / 5.0;
        // = (0 + 1 + 0.8112781 + 0 + 1) / 5.
        assert!(close(row_mean, (2.0 + 2.0 - 0.75 * 3f64.log2()) / 5.0));
        let r = measure(&m, &empty, BlockGrid::PAPER);
        assert!(close(r.block_entropy, row_mean), "{}", r.block_entropy);
        assert_eq!(r.empty_tiles, 5 * (2 + 1 + 4 + 2));
    }

    /// §14.1's spans on a width that 5 does not divide: W = 7 gives blocks
    /// [0,1) [1,2) [2,4) [4,5) [5,7), so widths 1, 1, 2, 1, 2.
    #[test]
    fn block_spans_follow_the_floor_formula() {
        let spans: Vec<_> = (0..5).map(|b| BlockGrid::span(b, 5, 7)).collect();
        assert_eq!(spans, vec![(0, 1), (1, 2), (2, 4), (4, 5), (5, 7)]);
        // A 7x1 map, 5x1 blocks: ". # . # # . ." -> block empties 1/1, 0/1, 1/2, 0/1, 2/2.
        // Only the third block is mixed (p = 1/2, H = 1), so the mean is 1/5.
        let m = map(".#.##..\n");
        let empty = EmptySet::from_names(&m.legend, &["empty"]).unwrap();
        let r = measure(&m, &empty, BlockGrid { cols: 5, rows: 1 });
        assert!(close(r.block_entropy, 0.2), "{}", r.block_entropy);
        // Split the other way ("-(1-p)") makes no difference: "#.#..##" gives the same.
        let m2 = map("#.#..##\n");
        let r2 = measure(&m2, &empty, BlockGrid { cols: 5, rows: 1 });
        assert!(close(r2.block_entropy, 0.2));
    }

    /// A 50x50 map checked by hand against §14.1: 10x10 blocks; the top-left block has its
    /// first 3 rows empty (30 of 100 tiles), the bottom-right block its first row (10 of 100),
    /// everything else solid. Entropy = (H(0.3) + H(0.1)) / 25.
    #[test]
    fn paper_50x50_case_by_hand() {
        let mut m = TileGrid::new(50, 50, 1, legend());
        for y in 0..3 {
            for x in 0..10 {
                m.tiles.set(x, y, 0);
            }
        }
        for x in 40..50 {
            m.tiles.set(x, 40, 0);
        }
        let empty = EmptySet::from_names(&m.legend, &["empty"]).unwrap();
        let r = measure(&m, &empty, BlockGrid::PAPER);
        // H(0.3) = 0.8812908992306927, H(0.1) = 0.4689955935892812 (by hand with log2).
        let expected = (0.881_290_899_230_692_7 + 0.468_995_593_589_281_2) / 25.0;
        assert!(
            (r.block_entropy - expected).abs() < 1e-12,
            "{}",
            r.block_entropy
        );
        assert!(close(r.empty_fraction, 40.0 / 2500.0));
        assert_eq!(r.regions, 2);
    }

    #[test]
    fn narrow_and_empty_maps() {
        // 3 wide, 5 blocks across: spans (0,0),(0,1),(1,1),(1,2),(2,3). The three blocks
        // with a column are pure (p = 1, 0, 1); the two with none are left out of the mean.
        let m = map(".#.\n");
        let empty = EmptySet::from_names(&m.legend, &["empty"]).unwrap();
        let r = measure(&m, &empty, BlockGrid { cols: 5, rows: 1 });
        assert_eq!(r.block_entropy, 0.0);
        assert_eq!(r.regions, 2);
        let none = TileGrid::new(0, 0, 0, legend());
        let r = measure(&none, &empty, BlockGrid::PAPER);
        assert_eq!((r.empty_tiles, r.regions), (0, 0));
        assert_eq!((r.empty_fraction, r.block_entropy), (0.0, 0.0));
    }

    #[test]
    fn scratch_reuse_gives_the_same_answers() {
        let a = map("..#\n#.#\n##.\n");
        let b = map(".#.#\n.#.#\n####\n..#.\n");
        let empty = EmptySet::from_names(&a.legend, &["empty"]).unwrap();
        let mut s = MetricsScratch::new();
        let ra = s.measure(&a, &empty, BlockGrid::PAPER);
        let rb = s.measure(&b, &empty, BlockGrid::PAPER);
        assert_eq!(s.measure(&a, &empty, BlockGrid::PAPER), ra);
        assert_eq!(rb, measure(&b, &empty, BlockGrid::PAPER));
        assert_eq!(ra.regions, 2);
    }

    #[test]
    fn block_grid_parsing() {
        assert_eq!("5".parse::<BlockGrid>(), Ok(BlockGrid::PAPER));
        assert_eq!(
            "4x3".parse::<BlockGrid>(),
            Ok(BlockGrid { cols: 4, rows: 3 })
        );
        assert!("0".parse::<BlockGrid>().is_err());
        assert!("4x".parse::<BlockGrid>().is_err());
        assert!("abc".parse::<BlockGrid>().is_err());
        assert_eq!(BlockGrid::PAPER.to_string(), "5x5");
    }
}
