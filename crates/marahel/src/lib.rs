//! # marahel
//!
//! The Marahel language (Khalifa & Togelius, AIIDE 2017; reference `amidos2006/marahel`
//! v0.3.0): a JSON description of a constructive 2D tile generator. A script names a map size
//! range, entities, neighbourhoods, a region divider and a list of explorers whose rules
//! rewrite the map.
//!
//! ```
//! use marahel::Script;
//! use grid_core::{TileMap, export};
//! let script = Script::parse(r#"{
//!   "metadata": {"min": "8x4", "max": "8x4"},
//!   "entities": ["solid", "empty"],
//!   "explorers": [
//!     {"type": "narrow_horz", "region": "map", "rules": ["self(any) -> self(solid)"]},
//!     {"type": "narrow_horz", "region": "map", "rules": ["plus(out) == 0 -> self(empty)"]}
//!   ]
//! }"#).unwrap();
//! let map = script.generate(7).unwrap();
//! assert_eq!(export::to_text(&map), "########\n#......#\n#......#\n########\n");
//! ```
//!
//! ## Pipeline (one module per stage)
//!
//! | stage | module |
//! |---|---|
//! | JSON -> raw structs with JSON paths | [`script`] (v0.3.0), [`legacy`] (2017 dialects) |
//! | validate, resolve names to indices, neighbourhoods to offsets, estimators to variants | [`compile`] -> [`program`], [`rule`], [`estimator`], [`executer`] |
//! | per map: size, regions | [`engine`] ([`plane`]: count planes), [`divider`] |
//! | explorers | [`explorer`] ([`explorer::narrow`], [`explorer::turtle`], [`explorer::connect`], [`explorer::connect2017`], [`explorer::wide`]; full scans a row or a region at a time: [`explorer::bulk`]) |
//! | rules at a cell: compiled tests, live neighbourhood counts, `dist` planes | [`kernel`], [`live`], [`distance`] |
//! | output | [`map::MarahelMap`], a [`grid_core::TileMap`] |
//!
//! Errors are one enum, [`MarahelError`]; each names its JSON path (`explorers[2].rules[0]`)
//! and what was expected, listing the known names. Nothing panics or loops unboundedly on any
//! input; nothing recurses on the map size.
//!
//! ## Limits
//!
//! Every limit is checked before the work it bounds, and named in the message that reports it:
//!
//! | what | limit |
//! |---|---|
//! | map side, map area | [`compile::MAX_SIDE`] per side, [`compile::MAX_AREA`] cells |
//! | entities | [`compile::MAX_ENTITIES`] |
//! | `repeats` | [`compile::MAX_REPEATS`] |
//! | `tiles`, `changes` | 2^40 as written; in practice the work budget below |
//! | heuristics of a `wide_heur` explorer | [`explorer::wide::MAX_HEURISTICS`] (its sort key is a fixed array); `turtle_heur` takes any number |
//! | work of one explorer on one map | [`explorer::VISITS_PER_CELL`] visits per map cell, at least [`explorer::MIN_VISITS`] ([`explorer::visit_budget`]) |
//!
//! The work budget counts every visit of a walker or `narrow_rand`, and one visit per region
//! cell for every scan, wide or connect pass, over all repeats and regions. A script that asks
//! for more (a `turtle_drunk` with `tiles: 10^12` on a 10x10 map) is cut at the budget: the
//! pass that would go past it walks only what is left, later passes are skipped, and the map
//! carries a warning naming the budget (so the run ends in milliseconds on small maps and
//! grows linearly with the map). Scripts within the budget are not affected.
//!
//! Error messages quote the script only through [`grid_core::text::excerpt`] (at most 60
//! characters, escaped) and cut long JSON paths and lists of known names, so an error line
//! stays short whatever the input.
//!
//! ## Deviations from the reference (each a defect of spec §12, fixed)
//!
//! * **Limits per region, per map.** `tiles`/`changes` default to the *current region's* area
//!   on every map; the reference freezes the first map's value, leaving unknown cells.
//! * **`dist(list)`** is the Manhattan distance to the nearest cell of the listed entities
//!   in the region (`dist(out)`: to the region's edge), `-1` when there is none, compared like
//!   any number; the reference measured the distance to *unknown* cells and made `-1` true.
//! * **`cpercent`** works (firings / allowed firings); the reference rejected it (typo).
//! * **BSP** never deletes regions or crashes: when the map is too small it returns fewer
//!   regions with a warning; a request no map of the size range can hold is a parse error.
//! * **Sampling** defaults `number` to 1, never returns overlapping regions (rejection
//!   sampling with shrinking sizes), and its regions' cells are where the regions are.
//! * **Wide explorers** work on a copy of the region's cells, visit *every* cell (the
//!   reference skipped the last and left the next explorer the leftovers), run `percent`
//!   forwards, and sort once (O(A log A)) instead of re-sorting after every step (A² log A).
//! * **Connect** uses an iterative flood fill (no stack overflow on 2000x2000), works on any
//!   region (the reference mixed local and global coordinates off the origin), reads
//!   `neighborhood` as an alias of `directions`, rejects `directions` that cannot move in all
//!   four directions, and skips (with a warning) a waypoint it cannot approach instead of
//!   hanging. Areas use the `directions` adjacency made symmetric.
//! * **2017 connector types keep their meanings** ([`explorer::connect2017`]); v0.3.0 HEAD
//!   has no `connector`, and its `turtle_connect` tour is unchanged. `short` (the 2017
//!   default) is a minimum spanning tree of the shortest corridors between areas (2017 grew a
//!   tree from area 0 to the nearest *centroid*, with a centroid that ignored `y`: a typo);
//!   `random` joins the areas in random order, each to a random earlier one, random cell to
//!   random cell (as 2017); `hub` joins every area by its shortest corridor to the area whose
//!   centroid has the least total Manhattan distance to the others (2017's `centerGroup` meant
//!   this but compared area 0 with itself, so it always picked area 0); `full` is that random
//!   spanning tree plus a corridor between every other pair (2017 drew pairs with a rising
//!   probability and could leave areas unconnected), its extra corridors stopping with a
//!   warning after 8 steps per region cell. Corridors are dug with the rules like connect's;
//!   2017's A* detours around cells the rules would not change are not reproduced (the
//!   corridor goes straight through; the rules decide what to dig). A `connector` without a
//!   `type` is `short`, as in 2017.
//! * **Inclusive maxima**: `metadata.max`, equal divisions and sampling sizes include `max`
//!   (the README says "between min and max"; the reference excluded it).
//! * **Seeds**: every seed, including 0, gives its own map; a map is a pure function of
//!   (script, seed). Each stage (size, regions, noise, each explorer) has its own stream.
//! * **Noise** is seeded per map and laid over map coordinates with a random offset: `noiseN`
//!   has features about `5*N` tiles wide whatever the region size (the reference's field was
//!   the same for every unseeded map, 0 on each region's first row and column, and stretched
//!   to the region). This is the one fix that moves a fixture's statistics: in
//!   `feature_wide_and_greedy` (`noise3` ordering) the blobs are larger, so its block entropy is
//!   0.45 instead of 0.72 and it has 2.6 instead of 3.1 regions (`tests/parity.rs`).
//! * **Parsing is strict**: unknown fields, unknown entity/neighbourhood/estimator/region names,
//!   empty conditions or executers (trailing commas), chained comparisons (`0 < x < 1`), `=`,
//!   all-zero weights, `repeats < 1`, malformed matrices and sizes are errors with a path
//!   (the reference ignored most of them, resolved typos to `unknown`/`self`, or hung).
//!   Whitespace in matrices and heuristic lists is ignored everywhere; `WxH` accepts `X`.
//!   `narrow_rnd` (a README spelling) is accepted as `narrow_rand`.
//! * **Sampling placement** packs each region against the map edges and the regions already
//!   placed, with a random gap of 0-3 tiles (calibrated so `reference_test` keeps the
//!   reference's fill statistics), shrinking a region towards `min` when nothing fits.
//! * **Empty executers** are errors rather than `self(any)` (a random write).
//! * Parameters that an explorer ignores (`dirprob` on `narrow_horz`, `tiles` on connect,
//!   ...) are warnings ([`Script::warnings`]), so a typo in the explorer type is noticed
//!   while evolved scripts, whose explorers all carry every parameter, still run; strict
//!   mode ([`Script::parse_strict`], `levelgen marahel --strict`) makes every warning an
//!   error. Unknown field names are always errors (usually typos).
//! * **Silent mistakes are errors**: a neighbourhood matrix without a centre (`2` or `3`;
//!   the reference counted from the top-left cell), `rules` given as one string instead of an
//!   array, and executers writing `out` or `any` (which includes `unknown`).
//!   `narrow_drunk` (a README spelling) is accepted as `turtle_drunk`.
//!
//! Kept as in the reference because scripts rely on it: the random start of the narrow scans,
//! the first-matching-rule-wins order, `out` counting region borders, the drunk walker's
//! `plus` including "stand still", a lone `nbh(list)` condition meaning "every cell matches".
//!
//! ## Speed and memory
//!
//! Measured in session 3 with `cargo bench -p marahel --bench marahel -- --warm-up-time 1
//! --measurement-time 3` on an idle 2 vCPU Intel Xeon, against the reference run under node on
//! the same machine (full table, method and history in `crates/marahel/README.md`): the cave
//! example at 50x50 in 21 µs (220x the reference; the target was about 30 µs) and at 500x500
//! in 1.8 ms (83x the 50x50 time: linear); the wide explorers over 2500x (O(A log A) instead
//! of A² log A); a 2000x2000 cave in about 0.13 s with a 49 MB peak.
//!
//! Session 5 timed every fixture script interleaved with the reference (the machine's speed
//! swung by up to 1.8x), eight rounds each, taking the ratio per round. The harness is
//! `benches/reference/bench.js` and our side is `examples/per_size.rs`. The median rounds:
//! paper_cave 264x, the example cave 202x, paper_nonuniform 191x, reference_test 184x (its
//! 2020 copy 185x), paper_uniform 184x, paper_mine 183x, paper_digger 133x, roguelike 133x.
//! readme_example runs at 135x per finished map (the spec's `ms/map`); the reference throws on
//! 36% of its maps, and counting those crashes as maps it runs at 116x. Every map is the
//! same as before the speed work: the compiled rules ([`kernel`], [`live`]) are checked against the interpreter
//! ([`Script::without_compiled_rules`]) by `tests/kernel.rs` and `tests/connect_walk.rs`.

pub mod compile;
pub mod distance;
pub mod divider;
pub mod engine;
pub mod error;
pub mod estimator;
pub mod executer;
pub mod explorer;
pub mod kernel;
pub mod legacy;
pub mod live;
pub mod map;
pub mod noise;
pub mod plane;
pub mod program;
pub mod rule;
pub mod script;

pub use error::{MarahelError, Warning};
pub use map::MarahelMap;
pub use program::Program;

/// A parsed and validated script, ready to generate maps.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    program: Program,
    strict: bool,
}

impl Script {
    /// Parses and validates a script (v0.3.0 or a 2017 dialect). What the script says that
    /// has no effect (a parameter the explorer ignores) is kept in [`Script::warnings`].
    pub fn parse(text: &str) -> Result<Self, MarahelError> {
        let raw = script::read(text)?;
        Ok(Self {
            program: compile::compile(&raw)?,
            strict: false,
        })
    }

    /// [`Script::parse`] in strict mode: every warning is an error
    /// ([`MarahelError::Strict`]), when parsing and when generating (a map that would carry
    /// a warning, such as an explorer cut at its work budget, is an error instead).
    pub fn parse_strict(text: &str) -> Result<Self, MarahelError> {
        Self::parse(text)?.strict()
    }

    /// Parses and validates an already-decoded JSON value.
    pub fn from_value(value: &serde_json::Value) -> Result<Self, MarahelError> {
        let raw = script::from_value(value)?;
        Ok(Self {
            program: compile::compile(&raw)?,
            strict: false,
        })
    }

    /// The same script in strict mode (see [`Script::parse_strict`]); an error when the script
    /// has a warning.
    pub fn strict(mut self) -> Result<Self, MarahelError> {
        if let Some(w) = self.program.warnings.first() {
            return Err(w.clone().into_error());
        }
        self.strict = true;
        Ok(self)
    }

    /// What the script says that has no effect, in script order.
    pub fn warnings(&self) -> &[Warning] {
        &self.program.warnings
    }

    /// The compiled program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The smallest and largest map size `((w, h), (w, h))`.
    pub fn size_range(&self) -> ((usize, usize), (usize, usize)) {
        (self.program.min, self.program.max)
    }

    /// The same script with every explorer run cell by cell in scan order, even where it could
    /// run a row at a time ([`explorer::bulk`]). Maps are identical when those passes draw no
    /// random numbers; otherwise the draws are made in another order. For tests and comparison.
    pub fn without_row_batching(mut self) -> Self {
        for ex in &mut self.program.explorers {
            ex.bulk = false;
        }
        self
    }

    /// The same script with every explorer's rules interpreted condition by condition instead
    /// of run in their compiled form ([`kernel`]). Maps are identical (the compiled form makes
    /// the same draws in the same order); for tests and comparison.
    pub fn without_compiled_rules(mut self) -> Self {
        for ex in &mut self.program.explorers {
            ex.kernel = None;
        }
        self
    }

    /// The same script with every `dist` plane of a live pass computed again after each
    /// write instead of corrected from the log of writes ([`distance`]). Maps are identical;
    /// for tests and comparison.
    pub fn without_distance_patching(mut self) -> Self {
        self.program.patch_distances = false;
        self
    }

    /// Generates the map of `seed`.
    pub fn generate(&self, seed: u64) -> Result<MarahelMap, MarahelError> {
        self.checked(engine::generate(&self.program, seed, None), seed)
    }

    /// In strict mode, a map with a warning is an error.
    fn checked(&self, map: MarahelMap, seed: u64) -> Result<MarahelMap, MarahelError> {
        match map.warnings.first() {
            Some(w) if self.strict => Err(MarahelError::Strict {
                path: format!("seed {seed}"),
                message: w.clone(),
            }),
            _ => Ok(map),
        }
    }

    /// Generates the map of `seed` at a given size instead of the script's range.
    pub fn generate_sized(
        &self,
        seed: u64,
        width: usize,
        height: usize,
    ) -> Result<MarahelMap, MarahelError> {
        if width == 0
            || height == 0
            || width > compile::MAX_SIDE
            || height > compile::MAX_SIDE
            || width * height > compile::MAX_AREA
        {
            return Err(MarahelError::value(
                "size",
                format!(
                    "{width}x{height} is not a usable size (1..={} per side, at most {} cells)",
                    compile::MAX_SIDE,
                    compile::MAX_AREA
                ),
            ));
        }
        if let Some(d) = &self.program.divider
            && (d.min.0 > width || d.min.1 > height)
        {
            return Err(MarahelError::Impossible {
                path: "size".into(),
                message: format!(
                    "regions of at least {}x{} do not fit in {width}x{height}",
                    d.min.0, d.min.1
                ),
            });
        }
        let map = engine::generate(&self.program, seed, Some((width, height)));
        self.checked(map, seed)
    }
}
