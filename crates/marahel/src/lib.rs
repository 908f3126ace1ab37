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
//! | validate, resolve names to indices, neighbourhoods to offsets, estimators to variants; warnings | [`compile`] -> [`program`], [`rule`], [`estimator`], [`executer`] |
//! | what a visit costs, for the work budget | [`cost`] |
//! | per map: size, regions | [`engine`], [`divider`] |
//! | explorers, within a work budget | [`explorer`] ([`explorer::narrow`], [`explorer::row_order`], [`explorer::turtle`], [`explorer::connect`], [`explorer::connect2017`], [`explorer::wide`]) |
//! | `dist` planes | [`distance`] |
//! | the hook a faster layer plugs into; the thread's buffers | [`hook`], [`workspace`] |
//! | faster strategies with the same maps, one plan per pass (cargo feature `accel`) | `accel` |
//! | output | [`map::MarahelMap`], a [`grid_core::TileMap`] |
//!
//! Errors are one enum, [`MarahelError`]; each names its JSON path (`explorers[2].rules[0]`)
//! and what was expected, listing the known names. Things a script says that have no effect
//! are [`Warning`]s ([`Script::warnings`]); strict mode ([`Script::parse_strict`]) makes
//! them errors. Nothing panics or loops unboundedly on any input; nothing recurses on the map
//! size.
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
//! | cells of one neighbourhood | [`cost::MAX_NBH_CELLS`] |
//! | work of one explorer on one map | [`explorer::VISITS_PER_CELL`] visits per map cell, at least [`explorer::MIN_VISITS`] ([`explorer::visit_budget`]); a visit reading more than [`cost::READS_PER_VISIT`] cells counts as one visit per [`cost::READS_PER_VISIT`] cells ([`cost`]) |
//! | walks whose cost is quadratic in the region's area (`maxDist(nbh, ..)`/`avgDist(nbh, ..)`; `minDist(nbh, ..)` in a pass that writes the map it reads) | [`distance::quadratic::QUADRATIC_STEPS`] steps per map (`maxDist`/`avgDist`: visits times region cells; a live `minDist`: region cells for its first plane and per changed cell): an error |
//!
//! The work budget counts every visit of a walker or `narrow_rand`, and one visit per region
//! cell for every scan, wide or connect pass, over all repeats and regions. A script that asks
//! for more (a `turtle_drunk` with `tiles: 10^12` on a 10x10 map) is cut at the budget: the
//! pass that would go past it walks only what is left, later passes are skipped, and the map
//! carries a warning naming the budget (in strict mode, an error). Such a run ends in
//! milliseconds on small maps and grows linearly with the map. Scripts within the budget are
//! not affected.
//!
//! The walk forms of the 2017 distance estimators cost up to the region's area per visit (see
//! Speed below), with no near-linear exact method known: each region pass that reads a
//! walking `maxDist`/`avgDist` is charged its visits times the region's area before it
//! starts, a live pass reading a walking `minDist` the region's area for its first plane and
//! again for every cell it changes, and a map that would take more than
//! [`distance::quadratic::QUADRATIC_STEPS`] is refused with
//! [`MarahelError::Limit`] naming the rule, the estimator, the region and the limit (about
//! one pass over a 100x100 region, 1.4 s; [`distance::quadratic`] says why an error and not
//! a cut).
//!
//! Error messages quote the script only through [`grid_core::text::excerpt`] (at most 60
//! characters, escaped) and cut long JSON paths and lists of known names, so an error line
//! stays short whatever the input.
//!
//! ## Deviations from the reference (v0.3.0), and why
//!
//! * `tiles`/`changes` default to the current region's area on every map: the reference kept
//!   the first map's value, leaving cells unknown on larger maps.
//! * `dist(list)` is the distance to the nearest listed cell of the region (`-1`: none): the
//!   reference measured the distance to *unknown* cells and made `-1` true.
//! * `cpercent` works: the reference rejected it through a typo.
//! * BSP returns fewer regions with a warning when the map is too small, and sampling never
//!   overlaps, defaults `number` to 1 and puts its regions where they are: the reference
//!   deleted regions and crashed, or overlapped them.
//! * Wide explorers visit every cell of a copy of the region, sorted once: the reference
//!   skipped the last cell and re-sorted after every step (A² log A).
//! * Connect floods iteratively, works on any region, accepts `neighborhood` for
//!   `directions`, and leaves a corridor it cannot finish with a warning: the reference
//!   overflowed its stack on large maps, mixed coordinates off the origin and could hang.
//! * Connect joins the areas along a minimum spanning tree of the shortest corridors between
//!   neighbouring areas (plus one loop half of the time), instead of a random tour between area
//!   centres: the tour cut long parallel straight corridors across big maps (a few cells dug
//!   per joined area instead of 64 on a 400x240 cave; [`explorer::connect`]). The tour, which
//!   gives the reference's statistics, runs under [`Compat::Reference`] (`metadata.compat:
//!   "reference"`, [`Script::with_compat`]; [`explorer::connect::tour`]).
//! * The 2017 connector types keep the paper's meanings ([`explorer::connect2017`]), with the
//!   2017 engine's typos fixed (a centroid that ignored `y`, a hub that was always area 0);
//!   `random` and `full` corridors go around cells the rules will not dig, by A*, as 2017's did.
//! * `metadata.max` and the dividers' maxima are inclusive: the README says "between min and
//!   max"; the reference excluded `max`.
//! * Every seed, 0 included, gives its own map, a pure function of (script, seed): the
//!   reference ignored seed 0 and continued its stream between calls.
//! * Noise is seeded per map, laid over map coordinates with `noiseN` features about `5*N`
//!   tiles wide: the reference's field was the same for every map and stretched to the
//!   region (so `feature_wide_and_greedy`'s blobs are larger: block entropy 0.45, not 0.72).
//! * Sampling places each region against the map edges and the regions placed before, with
//!   a random gap of 0-3 tiles, shrinking it towards `min` when nothing fits: this is how it
//!   never overlaps, with the gap chosen to keep `reference_test`'s fill statistics.
//! * Unknown fields and names, empty conditions or executers, chained comparisons, `=`,
//!   all-zero weights and malformed matrices or sizes are errors with a path: the reference
//!   ignored them, resolved typos to `unknown`, or hung.
//! * A parameter an explorer ignores (`dirprob` on `narrow_horz`) is a warning: evolved
//!   scripts give every explorer every parameter; strict mode makes it an error.
//! * A neighbourhood matrix without a centre, `rules` given as one string, and executers
//!   writing `out` or `any` are errors: a matrix without a centre silently counted from its
//!   top-left cell, `rules` is an array in the language, and such executers wrote
//!   `out`/`unknown` into the map.
//! * The 2017 estimators `minDist`/`maxDist`/`avgDist` work in both dialects
//!   ([`distance::paths`]): `maxDist` returns the largest distance (the 2017 engine's
//!   `max = max` typo made it 0) and `avgDist` averages over every listed cell (2017 averaged
//!   per entity, then divided by the number of entities, found or not); walks are found by
//!   breadth-first search, which gives A*'s lengths.
//! * 2017 `agent`s live at once and move in turn with their `speed`, `change`, `lifespan`
//!   and `allowed` cells ([`explorer::agents`]); the 2017 engine's slips (reading `allowed`
//!   from `start`, stopping with the last agent of a round) are fixed. 2017
//!   `borderType: wrap` wraps reads, writes and walker moves around the region, and automata
//!   with `start`/`exploration` walk breadth-first from their start ([`explorer::flood`]).
//! * The 2017 `digger` divider drops its rooms where the digger walks (the 2017 engine put
//!   them at random spots and moved the digger diagonally), and never overlaps them unless
//!   `allowIntersection` (2017 accepted an overlap after 100 rejections).
//! * `narrow_rnd` and `narrow_drunk` (README spellings) are accepted as `narrow_rand` and
//!   `turtle_drunk`.
//! * Each explorer has a work budget ([`explorer::VISITS_PER_CELL`]): the reference ran a
//!   `tiles` of 10^12 for ever.
//!
//! * A full `narrow_horz`/`narrow_vert` scan whose cells cannot see each other's writes
//!   (buffered, or reading only counts fixed by the region's shape) draws no start cell and
//!   runs row by row, a condition at a time ([`explorer::row_order`]): the map is the same
//!   up to the order of its random draws, and this order lets it run a row at a time.
//!
//! Kept as in the reference because scripts rely on it: the random start of the narrow scans,
//! the first-matching-rule-wins order, `out` counting region borders, the drunk walker's
//! `plus` including "stand still", a lone `nbh(list)` condition meaning "every cell matches".
//!
//! ## Speed
//!
//! The crate is a reference core (everything above) and an acceleration layer, `accel`,
//! behind the default cargo feature of that name: compiled rules, live neighbourhood counts,
//! row-batched and whole-region scans, the drunk walker's step loops, count planes, live
//! `dist` structures and connect's raster plan and table walk. The core knows the layer only
//! through one hook ([`hook::Observer`]): it reports every write of the map through it and
//! offers it each region pass; without the feature the hook does nothing and the core runs
//! alone (`cargo test -p marahel --no-default-features` runs the core's whole suite). The
//! layer's planner makes one plan per region pass (strategy, count planes, live `dist`,
//! connect's raster and walk); every strategy gives the core's maps exactly and can be
//! switched off (`Accel`, `Script::with_accel`; `Accel::none()` is the plain core), and
//! `Script::generate_traced` lists each pass's plan, with the reason when it fell back to
//! the general path. `tests/accel.rs` compares every strategy, alone and all together, with
//! the core on every example, fixture and random script.
//!
//! Cost is about linear in the map's area, the BSP split and connect included; `dist` in a
//! pass that writes the map it reads costs O(log² area) per read and write at worst, in any
//! visiting order (the layer's `live_dist`).
//! The 2017 Manhattan `maxDist(list)`/`avgDist(list)` likewise cost O(log area) per read and
//! write in such a pass (the layer's `spread`). Known exceptions: the three-argument
//! `maxDist`/`avgDist`, which search the region from every cell they are read at; and
//! `minDist(nbh, list)` in a pass that writes the map it reads (`replace: same`), whose
//! walk plane is computed again after each write that closes a cell to walks or removes a
//! target (the 2017 default, `buffer`, computes it once per pass; other writes lower it in
//! place, the layer's `live_walk`, which is quadratic only at worst). Both are limited
//! ([`distance::quadratic`]). The measured figures, with the command and the machine, are in the crate's
//! `README.md`.

#[cfg(feature = "accel")]
pub mod accel;
pub mod compile;
pub mod cost;
pub mod distance;
pub mod divider;
pub mod engine;
pub mod error;
pub mod estimator;
pub mod executer;
pub mod explorer;
pub mod hook;
pub mod legacy;
pub mod map;
pub mod noise;
pub mod program;
pub mod rule;
pub mod script;
pub mod workspace;

#[cfg(feature = "accel")]
pub use accel::{Accel, PassReport, Strategy};
pub use error::{MarahelError, Warning};
pub use map::MarahelMap;
pub use program::{Compat, Program};

/// A parsed and validated script, ready to generate maps.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    program: Program,
    /// What the layer behind [`hook`] built from the program.
    built: hook::Built,
    strict: bool,
}

impl Script {
    /// Parses and validates a script (v0.3.0 or a 2017 dialect). What the script says that
    /// has no effect (a parameter the explorer ignores) is kept in [`Script::warnings`].
    pub fn parse(text: &str) -> Result<Self, MarahelError> {
        Self::compiled(&script::read(text)?)
    }

    /// [`Script::parse`] in strict mode: every warning is an error
    /// ([`MarahelError::Strict`]), when parsing and when generating (a map that would carry
    /// a warning, such as an explorer cut at its work budget, is an error instead).
    pub fn parse_strict(text: &str) -> Result<Self, MarahelError> {
        Self::parse(text)?.strict()
    }

    /// Parses and validates an already-decoded JSON value.
    pub fn from_value(value: &serde_json::Value) -> Result<Self, MarahelError> {
        Self::compiled(&script::from_value(value)?)
    }

    /// The script a raw script compiles to (not strict).
    fn compiled(raw: &script::RawScript) -> Result<Self, MarahelError> {
        let program = compile::compile(raw)?;
        let built = hook::build(&program);
        let strict = false;
        Ok(Self {
            program,
            built,
            strict,
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

    /// The same script with connect run as this crate's spanning tree
    /// ([`Compat::Default`]) or as the reference's tour ([`Compat::Reference`]), whatever its
    /// `metadata.compat` says.
    pub fn with_compat(mut self, compat: Compat) -> Self {
        self.program.set_compat(compat);
        self
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

    /// Generates the map of `seed`.
    pub fn generate(&self, seed: u64) -> Result<MarahelMap, MarahelError> {
        self.checked(
            engine::generate(&self.program, &self.built, seed, None, None)?,
            seed,
        )
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
        self.check_size(width, height)?;
        let map = engine::generate(
            &self.program,
            &self.built,
            seed,
            Some((width, height)),
            None,
        )?;
        self.checked(map, seed)
    }

    /// The explorers whose work at `width` x `height` will go past their work budget
    /// ([`explorer::planned_work`] over [`explorer::visit_budget`]): maps of that size will be
    /// cut there, with a warning. `levelgen check` reports these at the script's largest size.
    pub fn budget_warnings(&self, width: usize, height: usize) -> Vec<Warning> {
        let budget = explorer::visit_budget((width * height) as u64);
        let regions = self.program.divider.as_ref().map_or(1, |d| d.number);
        let map = grid_core::Rect::new(0, 0, width as i64, height as i64);
        let over = |ex: &program::Explorer| {
            let work = explorer::planned_work(ex, width, height, regions);
            (work > budget).then(|| Warning {
                path: ex.path.clone(),
                message: format!(
                    "asks for up to {work} visits on a {width}x{height} map (a visit reads up to \
                     {} cells, counted as {} visit(s)), over its work budget of {budget}: such \
                     maps are cut at the budget",
                    ex.cost.reads(map),
                    ex.cost.weight(map)
                ),
            })
        };
        self.program.explorers.iter().filter_map(over).collect()
    }

    /// Whether maps of `width` x `height` can be made.
    fn check_size(&self, width: usize, height: usize) -> Result<(), MarahelError> {
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
        Ok(())
    }
}
