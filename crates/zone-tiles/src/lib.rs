//! # zone-tiles
//!
//! Noise-driven 3x3 zone matching into a tiled world (the technique of Pryme8's Das_Noise
//! demos), made seamless and streamable.
//!
//! A **zone** (60x60 px by default) is a 3x3 grid of **cells**; each cell is on (wall) or off
//! (floor), so a zone has 512 [states](state::ZoneState). A base [`noise`] (from a hashed
//! [`lattice`], so the world has no period) is averaged over each cell and thresholded
//! ([matcher]; by default 45% of cells are wall for every noise kind); the 9 bits pick one
//! tile of an [`atlas`] that an artist repaints, or of the built-in [`procedural`] tileset.
//! [Seamless mode](seamless) (the default) decides cells on the dual grid so neighbouring
//! zones always agree at their shared edges; the noise sees every zone as
//! [`NOISE_ZONE`](matcher::NOISE_ZONE) noise pixels, so the map does not depend on the drawn
//! zone size; [connected mode](connect) makes all floor one area (and every chunk
//! one area on its own), and [every-window mode](blocks) makes every window at any origin one
//! area on its own, with walls turned into blocks of zones. The [world] is
//! unbounded and any window of it can be generated on its own, in parallel; a [`World`]
//! streams 16x16-zone chunks of zones and tiles, optionally painted per [`biome`]. The
//! built-in look of a seamless world is [`corner`] tiles: four per zone on the dual grid,
//! each chosen by its four corner cells (16 wall/floor tiles), with biome materials drawn
//! as layers with their own borders. [export] writes the state grid (JSON), the
//! black-and-white map, the painted map and Tiled TMX with a [wangset](wang) for Tiled's
//! terrain brush; [`corner::export`] writes corner-tile TMX (corner wangset) and LDtk.
//! Every size and work limit is checked before anything is allocated ([`limits`]).
//!
//! Pipeline, one module per stage:
//!
//! | stage | module |
//! |---|---|
//! | states, bit order, D4 classes | [`state`] |
//! | reference atlases, cutting artists' atlases | [`atlas`] |
//! | lattice noise without a period (hashed gradients and points) | [`lattice`] |
//! | base noise, normalised to [0, 1] | [`noise`] |
//! | the hot loop: Worley F1 means by pruned candidates | [`worley_mean`] |
//! | cell averages, thresholds, states | [`matcher`] |
//! | the macro layer: rock masses, open caverns | [`structure`] |
//! | dual-grid decisions, border-mismatch metric | [`seamless`] |
//! | one floor area: regions joined through doors, passages dug along the caves | [`connect`] |
//! | every window one floor area: blocks of zones on a jittered macro grid | [`blocks`] |
//! | options by the names users type, one builder of the settings | [`options`] |
//! | windows of the unbounded world, rayon | [`world`] |
//! | the built-in look: corner tiles on the dual grid, terrain layers | [`corner`] |
//! | the per-zone tileset drawn by code (reference mode, atlases) | [`procedural`] |
//! | terrains from an altitude noise, with transitions | [`biome`] |
//! | chunks of zones and tiles for streaming, biome painting | [`stream`] |
//! | JSON, PNG, painted PNG, TMX | [`export`] |
//! | Tiled terrain data (wangsets) for the TMX | [`wang`] |
//! | size limits and work budgets | [`limits`] |
//! | the error enum | [`error`] |
//!
//! ```
//! use zone_tiles::{ZoneConfig, ZoneGenerator, ZoneRect, Mode};
//! use zone_tiles::seamless::border_mismatch;
//! let config = ZoneConfig::default();
//! assert_eq!(config.mode, Mode::Seamless);
//! let world = ZoneGenerator::new(config, 7)?.generate(ZoneRect::new(0, 0, 8, 8))?;
//! assert_eq!(border_mismatch(&world.states).mismatched, 0);
//! # Ok::<(), zone_tiles::ZoneError>(())
//! ```
//!
//! ## Measured figures
//!
//! Criterion, release build, one core, on a 2 vCPU Intel Xeon (24 GiB) shared with other
//! builds while measuring (load average 6 to 7), in the thread's CPU time (`chunk_cpu`,
//! `corners`, `million_cpu`):
//!
//! ```text
//! cargo bench -p zone-tiles --bench zone_tiles -- --warm-up-time 1 --measurement-time 3 'chunk_cpu|million_cpu|corners'
//! ```
//!
//! | one 16x16-zone chunk | thread CPU time |
//! |---|---|
//! | [`World::chunk`], defaults (seamless, macro layer, stride 2) | **0.52 ms** |
//! | [`World::chunk`], reference mode, stride 2 | 1.07 ms |
//! | [`World::chunk`], [`ZoneConfig::streaming`] (connected regions, stride 10) | 0.83 ms |
//! | [`World::chunk`], [`Connected::Windows`], defaults | 1.87 ms |
//! | [`World::chunk`], [`Connected::Windows`], seamless, stride 10 | 0.91 ms |
//! | [`World::chunk_corners`] (the default look's 32x32 tiles), defaults | 0.53 ms |
//! | [`World::chunk_corner_image`] (960x960 px), defaults; with biomes | 0.84 ms; 1.79 ms |
//!
//! A million zones ([`ZoneGenerator::generate`] of 1000x1000 zones, defaults, one thread):
//! 1.82 s of thread CPU time.
//!
//! The default noise's hot loop ([`worley_mean`]) keeps, per piece of a cell's samples, only
//! the feature points that can be nearest there, with the same `f64` results as sampling one
//! by one.
//!
//! Cost is proportional to the samples per cell; the quality of strided sampling (share of
//! zones whose state differs from full sampling, 6,400 seamless zones, macro layer off):
//! stride 2 (default) 0.77% (Worley F1) and 0.00% (Simplex), stride 5 4.6% and 0.59%,
//! stride 10 17% and 1.6%
//! (`cargo run --release -p zone-tiles --example zones_report -- docs/images`, which also
//! prints the border-mismatch, wall-share and floor-area tables of `docs/zone-tiles.md` and
//! draws its pictures).
//!
//! Rows of zones are independent and equal-cost, so [`ZoneGenerator::generate_par`] splits
//! them evenly over rayon's threads; the result is identical for any thread count (tested).

pub mod atlas;
pub mod biome;
pub mod blocks;
pub mod connect;
pub mod corner;
pub mod error;
pub mod export;
pub mod lattice;
pub mod limits;
pub mod matcher;
pub mod noise;
pub mod options;
pub mod procedural;
pub mod seamless;
pub mod state;
pub mod stream;
pub mod structure;
pub mod wang;
pub mod world;
pub mod worley_mean;

pub use atlas::{Atlas, AtlasKind};
pub use biome::{BiomeConfig, Terrain};
pub use connect::Connected;
pub use error::{Result, ZoneError};
pub use matcher::{Sampling, Threshold};
pub use noise::{Distance, Noise, NoiseConfig, NoiseKind, WorleyOutput};
pub use options::ZoneOptions;
pub use state::{ClassRef, SymmetryTable, Transform, ZoneState};
pub use stream::{CHUNK_ZONES, Chunk, TileRef, World};
pub use structure::Structure;
pub use world::{Mode, Place, ZoneConfig, ZoneGenerator, ZoneRect, ZoneWorld};
