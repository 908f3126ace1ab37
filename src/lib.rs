//! # levelgen
//!
//! Procedural level generators for 2D tile games, on one shared core. This facade re-exports
//! the workspace crates and hosts the `levelgen` CLI.
//!
//! | crate | what |
//! |---|---|
//! | [`grid_core`] | grids, tiles, neighbourhoods, connectivity, A*, seeded RNG, exports |
//! | [`marahel`] | the Marahel JSON language for constructive generators |
//! | [`heroes_zones`] | Heroes-style zone maps from a template, exported to `.hmm` |
//! | [`mario_rooms`] | Mario levels assembled from rooms, sections and macros |
//! | [`zone_tiles`] | 3x3 noise-zone matching into tiled worlds |
//! | [`search`] | searching Marahel scripts, Heroes templates, Mario and zones settings for maps that meet objectives (MAP-Elites, ES, NSGA-II) |

pub use grid_core;
pub use heroes_zones;
/// The generator search (crate `levelgen-search`).
pub use levelgen_search as search;
pub use marahel;
pub use mario_rooms;
pub use zone_tiles;

pub mod analyze;
pub mod batch;
pub mod cli;
