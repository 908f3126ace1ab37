//! # grid-core
//!
//! The shared core of levelgen: everything the generators have in common, written once.
//!
//! | module | what |
//! |---|---|
//! | [`grid`] | [`Grid<T>`], a dense row-major buffer |
//! | [`tile`] | [`TileId`], [`Legend`], [`TileGrid`] and [`TileMap`], the trait every generator's output implements |
//! | [`geom`] | [`Point`], [`Dir`], [`Rect`] |
//! | [`neighborhood`] | [`Neighborhood`] offset lists and the Marahel matrix notation |
//! | [`connectivity`] | iterative flood fill, components and BFS distance maps |
//! | [`metrics`] | expressive-range metrics: empty fraction, regions, block entropy; [`metrics::paths`]: longest shortest path, tile counts, path distances |
//! | [`path`] | [`astar`] on the `pathfinding` crate |
//! | [`rng`] | [`Seed`] and [`LevelRng`] (Xoshiro256++), with child streams |
//! | [`overrides`] | `path=value` overrides of a JSON input (`--set`, sliders, searches) |
//! | [`text`] | short, escaped excerpts of user input for error messages |
//! | [`export`] | text, JSON, PNG and Tiled TMX for any [`TileMap`] |
//!
//! ## Measured speed
//!
//! `cargo bench -p grid-core --bench grid_core -- --warm-up-time 1 --measurement-time 4` on the
//! project machine (2 vCPU Intel Xeon, 23 GiB, load average about 2.5 from other work), medians:
//!
//! | benchmark | time | per cell |
//! |---|---|---|
//! | `components`, 2000x2000, 55% open, 4-connected (labels + sizes) | 84 ms | 21 ns |
//! | `ComponentCounter::count`, same grid, scratch reused | 37 ms | 9 ns |
//! | `distance_map`, 2000x2000 open, one source | 27 ms | 7 ns |
//! | `astar`, 256x256, 75% open, 8-connected, corner to corner | 1.5 ms | |
//!
//! All four are iterative: the 2000x2000 cases run on the default thread stack.
//!
//! ```
//! use grid_core::{Legend, TileKind, TileGrid, TileMap, export};
//! let legend = Legend::new(vec![
//!     TileKind::new("empty", '.', [240, 240, 240]),
//!     TileKind::new("wall", '#', [40, 40, 40]),
//! ]);
//! let mut map = TileGrid::new(4, 2, 1, legend);
//! map.tiles.set(1, 1, 0);
//! assert_eq!(export::to_text(&map), "####\n#.##\n");
//! ```

pub mod connectivity;
pub mod export;
pub mod geom;
pub mod grid;
pub mod metrics;
pub mod neighborhood;
pub mod overrides;
pub mod path;
pub mod rng;
pub mod text;
pub mod tile;

pub use connectivity::{
    ComponentCounter, Components, Connectivity, UNREACHABLE, components, components_by_key,
    distance_map, flood_fill,
};
pub use geom::{Axis, Dir, Point, Rect};
pub use grid::Grid;
pub use metrics::{BlockGrid, EmptySet, MapMetrics, MetricsScratch};
pub use neighborhood::{Neighborhood, NeighborhoodError};
pub use path::{Path, astar};
pub use rng::{LevelRng, Seed, below};
pub use tile::{Legend, Rgb, TileGrid, TileId, TileKind, TileMap};

/// Re-export of `rand`, so generator crates and users share one version of its traits.
pub use rand;
