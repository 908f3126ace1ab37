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
//! | [`metrics`] | expressive-range metrics: empty fraction, regions, block entropy |
//! | [`path`] | [`astar`] on the `pathfinding` crate |
//! | [`rng`] | [`Seed`] and [`LevelRng`] (Xoshiro256++), with child streams |
//! | [`export`] | text, JSON, PNG and Tiled TMX for any [`TileMap`] |
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
pub mod path;
pub mod rng;
pub mod tile;

pub use connectivity::{
    ComponentCounter, Components, Connectivity, UNREACHABLE, components, distance_map, flood_fill,
};
pub use geom::{Axis, Dir, Point, Rect};
pub use grid::Grid;
pub use metrics::{BlockGrid, EmptySet, MapMetrics, MetricsScratch};
pub use neighborhood::{Neighborhood, NeighborhoodError};
pub use path::{Path, astar};
pub use rng::{LevelRng, Seed};
pub use tile::{Legend, Rgb, TileGrid, TileId, TileKind, TileMap};

/// Re-export of `rand`, so generator crates and users share one version of its traits.
pub use rand;
