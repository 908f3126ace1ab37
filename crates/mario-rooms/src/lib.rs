//! # mario-rooms
//!
//! Super Mario levels assembled from hand-made pieces, in the manner of the jcatlos
//! LevelGenerator, and proven playable. Output is Mario AI Framework level text.
//!
//! The pipeline, one module per stage:
//!
//! | stage | module |
//! |---|---|
//! | room files, both formats (detected from line 1) | [`room`] |
//! | macro files and inline macros | [`macros`] |
//! | section files | [`section`] |
//! | loading directories / the embedded library | [`library`] |
//! | the level settings (serde) and their check | [`config`] |
//! | assembly: start, sections, finish; seeded | [`assemble`] |
//! | building the pieces into one level | `build` |
//! | difficulty: the profile of 1..5 | [`difficulty`] |
//! | the dressing operations: gaps, plateaus, pipes, enemies per window | `dress` |
//! | shaping: spacing, pits, coins and flat runs on SMB's scale | [`shape`] |
//! | teaching: single lessons where the difficulty is below 2 | [`teach`] |
//! | variation: blocks, coin rows and places that differ from level to level | [`vary`] |
//! | set pieces: rated challenge patterns and the teaching curve | [`setpiece`] |
//! | the dressing stage run: dress, check and repair, put enemies back | `dressing` |
//! | the difficulty estimated from what a level demands | [`estimate`] |
//! | the level text format, [`grid_core::TileMap`] | [`level`] |
//! | the playability checker | [`playability`] |
//! | level-design features (enemies, gaps, height changes) | [`measure`] |
//! | PNG preview | [`preview`] |
//! | entities as objects for TMX and JSON object layers | [`objects`] |
//! | the char legend | [`tiles`] |
//! | errors | [`error`] |
//! | size limits and work budgets | [`limits`] |
//!
//! Formats, the library, the CLI and the checker are described in `docs/mario.md`.
//!
//! ## Speed
//!
//! One level per iteration, **dressing and playability check included**, embedded library,
//! default configuration (difficulty 1:3). Machine: 2 vCPU Intel Xeon, shared with other
//! builds (load average 6-7 during these runs; in another run on the same load the
//! 1000- and 8000-column levels took 2.04 ms and 16.2 ms, 7.9x).
//!
//! | level | criterion (wall) | CPU time (`perf stat`) |
//! |---|---|---|
//! | default, ~324 columns (the reference's levels are ~330 to the flag; it takes 8 ms warm) | 0.43 ms | 0.34 ms |
//! | `length: 1000`, ~1050 columns | 1.61 ms | 1.09 ms |
//! | `length: 8000`, ~8050 columns | 13.2 ms (**8.2x** the 1000-column level) | 8.55 ms (7.8x) |
//! | check only, 1000 columns | 0.62 ms | |
//! | loading the embedded library | 0.59 ms | |
//!
//! With the shaping and set pieces (spacing makes levels about 15 % longer than asked), in
//! **CPU time** (criterion's `cpu_` benchmarks measure the thread's CPU time, so other work
//! on the machine does not stretch them; 2 vCPU Xeon under a load average of about 17):
//! `length: 1000` (about 1210 columns) 2.18 and 2.22 ms, `length: 8000` (about
//! 9270 columns) 19.1 and 19.9 ms, **8.8x and 9.0x** in two runs (9.4x before a restocked
//! level's block groups went in ahead of its check, which saves long levels a full check).
//! In wall time under that load criterion gives 12.8 and 131.9 ms (10.3x): waiting for the
//! CPU, not the work, grows. The table above predates the shaping and set pieces. 100
//! default levels (375 columns) take 66 ms of CPU in all, process start included
//! (`perf stat -e task-clock target/release/examples/timing 0 100`, two runs).
//! With the variation stage ([`vary`]), under a load average of about 2, the `cpu_`
//! benchmarks give 2.01 and 17.2 ms, **8.6x**, and 100 default levels take 0.06 s of CPU
//! (`/usr/bin/time target/release/examples/timing 0 100`).
//! With the teaching stage ([`teach`]) and `length` giving levels about that long
//! (about 990 and 7930 columns), under a load average of about 2.3: the `cpu_` benchmarks
//! give 1.53 and 13.99 ms, **9.1x**, and 100 default levels (373 columns) take 0.06 s wall,
//! 0.05 s of user CPU (`/usr/bin/time target/release/examples/timing 0 100`, two runs).
//!
//! Criterion: `cargo bench -p mario-rooms --bench mario_rooms -- --warm-up-time 1
//! --measurement-time 3`; its CPU-time group alone: `... -- cpu_ --warm-up-time 1
//! --measurement-time 5`. `perf stat` figures: `perf stat -e task-clock
//! target/release/examples/timing N LEVELS` divided by the levels; they include the process
//! start and one library load. Levels longer than 512 columns are checked in windows
//! (`playability` module docs), so the check grows linearly with the length, and a dressed
//! level is repaired where the check fails instead of re-assembled (the last repair takes
//! out every enemy near the spot, the rooms' own too). What would grow faster than the
//! length is re-assembly: a level whose rooms meet badly is assembled again whole, which
//! long levels need more often; 30 seeds of 8000 columns all passed at the first assembly.
//!
//! ```
//! use mario_rooms::{Library, LevelConfig, generate};
//! let lib = Library::builtin().unwrap();
//! let g = generate(&lib, &LevelConfig::default(), 7).unwrap();
//! assert_eq!(g.level.height(), 16);
//! assert!(g.level.start().is_some() && g.level.exit().is_some());
//! assert!(g.report.unwrap().playable);
//! ```

pub mod assemble;
mod build;
pub mod chunk;
pub mod config;
pub mod difficulty;
mod dress;
mod dressing;
pub mod error;
pub mod estimate;
pub mod level;
pub mod library;
pub mod limits;
pub mod macros;
pub mod measure;
pub mod objects;
pub mod playability;
pub mod preview;
pub mod room;
pub mod section;
pub mod setpiece;
pub mod shape;
pub mod teach;
pub mod tiles;
pub mod vary;

pub use assemble::{GeneratedLevel, LevelConfig, Step, Substitution, fits, generate, tags_match};
pub use chunk::Chunk;
pub use config::LevelOptions;
pub use error::{Diagnostic, MarioError, Strictness};
pub use level::MarioLevel;
pub use library::{Library, Source, THEMES};
pub use macros::Macro;
pub use measure::Features;
pub use playability::{PlayReport, check, explore};
pub use room::{Room, RoomFormat};
pub use section::{Cell, Section};

/// Parses one room file (either format), strictly. `name` is the room's name.
pub fn parse_room(name: &str, file: &str, text: &str) -> Result<Room, MarioError> {
    room::parse_room(
        name,
        file,
        text,
        &mut error::Hazards::new(Strictness::Strict),
    )
}

/// Parses one section file, strictly.
pub fn parse_section(name: &str, file: &str, text: &str) -> Result<Section, MarioError> {
    section::parse_section(
        name,
        file,
        text,
        &mut error::Hazards::new(Strictness::Strict),
    )
}

/// Parses one macro file, strictly.
pub fn parse_macro(file: &str, text: &str) -> Result<Macro, MarioError> {
    macros::parse_macro(file, text, &mut error::Hazards::new(Strictness::Strict))
}
