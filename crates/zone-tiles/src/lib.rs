//! # zone-tiles
//!
//! Noise-driven 3x3 zone matching into a tiled world (the technique of Pryme8's Das_Noise
//! demos), made seamless and streamable.
//!
//! A **zone** (60x60 px by default) is a 3x3 grid of **cells**; each cell is on or off, so a
//! zone has 512 [states](state::ZoneState). A base [noise](noise) is averaged over each cell
//! and thresholded ([matcher]); the 9 bits pick one tile of an [atlas](atlas) that an artist
//! repaints from a machine-drawn reference. [Seamless mode](seamless) decides cells on the
//! dual grid so neighbouring zones always agree at their shared edges. The [world] is
//! unbounded and any window of it can be generated on its own, in parallel. [export] writes
//! the state grid (JSON), the black-and-white map, the painted map and Tiled TMX over the
//! 102-tile symmetry-reduced tileset with flip bits.
//!
//! Pipeline, one module per stage:
//!
//! | stage | module |
//! |---|---|
//! | states, bit order, D4 classes | [`state`] |
//! | reference atlases, cutting artists' atlases | [`atlas`] |
//! | base noise, normalised to [0, 1] | [`noise`] |
//! | cell averages, thresholds, states | [`matcher`] |
//! | dual-grid decisions, border-mismatch metric | [`seamless`] |
//! | windows of the unbounded world, rayon | [`world`] |
//! | JSON, PNG, painted PNG, TMX | [`export`] |
//! | the error enum | [`error`] |
//!
//! ```
//! use zone_tiles::{ZoneConfig, ZoneGenerator, ZoneRect, Mode};
//! use zone_tiles::seamless::border_mismatch;
//! let config = ZoneConfig { mode: Mode::Seamless, ..ZoneConfig::default() };
//! let world = ZoneGenerator::new(config, 7)?.generate(ZoneRect::new(0, 0, 8, 8))?;
//! assert_eq!(border_mismatch(&world.states).mismatched, 0);
//! # Ok::<(), zone_tiles::ZoneError>(())
//! ```
//!
//! ## Measured figures
//!
//! PERF_PLACEHOLDER

pub mod atlas;
pub mod error;
pub mod export;
pub mod matcher;
pub mod noise;
pub mod seamless;
pub mod state;
pub mod world;

pub use atlas::{Atlas, AtlasKind};
pub use error::{Result, ZoneError};
pub use matcher::{Sampling, Threshold};
pub use noise::{Distance, Noise, NoiseConfig, NoiseKind, WorleyOutput};
pub use state::{ClassRef, SymmetryTable, Transform, ZoneState};
pub use world::{Mode, ZoneConfig, ZoneGenerator, ZoneRect, ZoneWorld};
