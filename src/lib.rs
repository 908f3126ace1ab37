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

pub use grid_core;
pub use heroes_zones;
pub use marahel;
pub use mario_rooms;
pub use zone_tiles;

pub mod analyze;
pub mod batch;
pub mod cli;
