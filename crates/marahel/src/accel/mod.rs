//! The acceleration layer: faster ways to run an explorer pass that give exactly the maps of
//! the reference core (the interpreter in [`crate::explorer`], [`crate::rule`] and
//! [`crate::estimator`]).
//!
//! The layer is compiled with the default cargo feature `accel` and reaches the core only
//! through its hook: [`layer`] implements [`crate::hook::Observer`] (every write of the map
//! comes through it; the state is the script's [`Built`] and [`Layer`]). One planner
//! ([`plan`], in [`planner`]) makes one [`Plan`] for each region pass of an explorer: the
//! [`Strategy`] that runs it, whether its counts come from count planes, whether its `dist`
//! is kept live, connect's raster plan and walk, from the explorer's compiled form, the state
//! of the pass and the [`Accel`] options; [`pass`] consumes it whole. Every strategy can be
//! switched off ([`Accel`], through [`crate::Script::with_accel`]); [`Accel::none`] runs the
//! plain core, cell by cell. [`crate::Script::generate_traced`] lists each pass's plan, with
//! the reason when it fell back to the general path ([`PassReport`]); `tests/accel.rs`
//! compares every strategy, alone and together, with the core.

pub mod batch;
pub mod caches;
pub mod compiled;
pub mod connect_tree;
pub mod connect_walk;
pub mod count_planes;
pub mod layer;
pub mod live;
pub mod live_dist;
pub mod live_walk;
pub mod nearest;
pub mod planner;
pub mod pred;
pub mod spread;
pub mod steps;

pub use caches::Kept;
pub use layer::{Built, Layer, build};
pub use planner::{Plan, pass, plan};

use crate::error::MarahelError;
use crate::map::MarahelMap;
use crate::program::{ConnectStyle, ExplorerKind};

/// Which strategies may run (all by default). For tests and comparisons: every combination
/// gives the same maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accel {
    /// Rules compiled once into per-code tables and integer tests ([`crate::accel::compiled`]); off:
    /// every condition is evaluated by its estimators. Off also switches off everything that
    /// runs on compiled rules (live planes, line visits, byte scans, walker step loops, the
    /// connect walk over cell rules).
    pub compiled_rules: bool,
    /// Neighbourhood counts of the region kept up to date as the map changes
    /// ([`crate::accel::live`]).
    pub live_planes: bool,
    /// Compiled rules visiting a scan line at a time ([`crate::accel::compiled::Kernel::visit_line`]).
    pub line_visits: bool,
    /// Live counts stored as bytes when every count fits one (else `u32`).
    pub byte_counts: bool,
    /// Two byte counts of one neighbourhood stored as one `u16` pair, updated with one
    /// addition per offset.
    pub paired_counts: bool,
    /// Pairs kept with a padded plane of the region's codes, so byte scans run across rows
    /// and fire straight into the planes.
    pub code_plane: bool,
    /// Horizontal scans of a cellular automaton sixteen cells at a time over byte counts
    /// ([`crate::accel::compiled::Kernel::scan_rows`]).
    pub byte_scan: bool,
    /// Order-free full scans run a condition at a time over a row, with count planes
    /// ([`crate::accel::batch`]); off: the core runs them cell by cell in the same order.
    pub row_batching: bool,
    /// Order-free full scans with one source of draws run over the whole region at once
    /// ([`crate::accel::batch::whole`]).
    pub whole_region: bool,
    /// Drunk walkers of the digger's shape run their own step loop ([`steps`]).
    pub walker_steps: bool,
    /// Neighbourhood counts of a buffered pass computed for the whole region at once
    /// ([`crate::accel::count_planes`]).
    pub count_planes: bool,
    /// `dist` and the 2017 Manhattan `maxDist`/`avgDist` in a live pass read from structures
    /// every write keeps up to date ([`live_dist`]: O(log² area) per read and write); off:
    /// the whole region's distance plane or statistics are computed again after every
    /// write.
    pub distance_patching: bool,
    /// Connect's walker steers by a table of its step choices, taken as straight runs, and
    /// digs with a table of its rules when they read and write the visited cell only
    /// ([`connect_walk`]); off: a step at a time, the rules run at every cell of a corridor.
    pub connect_walk: bool,
    /// Connect plans its corridors for the 4 unit steps and the 8 steps of the 3x3 square
    /// with raster passes over the region ([`connect_tree`]); off: a breadth-first search
    /// from every area and a sort of every border pair.
    pub connect_raster: bool,
}

impl Default for Accel {
    fn default() -> Self {
        Self::all()
    }
}

impl Accel {
    /// Every strategy may run.
    pub const fn all() -> Self {
        Accel {
            compiled_rules: true,
            live_planes: true,
            byte_counts: true,
            paired_counts: true,
            code_plane: true,
            line_visits: true,
            byte_scan: true,
            row_batching: true,
            whole_region: true,
            walker_steps: true,
            count_planes: true,
            distance_patching: true,
            connect_walk: true,
            connect_raster: true,
        }
    }

    /// No strategy: the plain core, rules interpreted cell by cell.
    pub const fn none() -> Self {
        Accel {
            compiled_rules: false,
            live_planes: false,
            byte_counts: false,
            paired_counts: false,
            code_plane: false,
            line_visits: false,
            byte_scan: false,
            row_batching: false,
            whole_region: false,
            walker_steps: false,
            count_planes: false,
            distance_patching: false,
            connect_walk: false,
            connect_raster: false,
        }
    }

    /// Every option with its name, for listing and for switching one at a time.
    pub fn options(&mut self) -> [(&'static str, &mut bool); 14] {
        [
            ("compiled_rules", &mut self.compiled_rules),
            ("live_planes", &mut self.live_planes),
            ("byte_counts", &mut self.byte_counts),
            ("paired_counts", &mut self.paired_counts),
            ("code_plane", &mut self.code_plane),
            ("line_visits", &mut self.line_visits),
            ("byte_scan", &mut self.byte_scan),
            ("row_batching", &mut self.row_batching),
            ("whole_region", &mut self.whole_region),
            ("walker_steps", &mut self.walker_steps),
            ("count_planes", &mut self.count_planes),
            ("distance_patching", &mut self.distance_patching),
            ("connect_walk", &mut self.connect_walk),
            ("connect_raster", &mut self.connect_raster),
        ]
    }

    /// [`Accel::all`] with one option (named as in [`Accel::options`]) switched off; `None`
    /// for an unknown name.
    pub fn all_but(name: &str) -> Option<Self> {
        let mut a = Self::all();
        let (_, flag) = a.options().into_iter().find(|(n, _)| *n == name)?;
        *flag = false;
        Some(a)
    }
}

/// The acceleration switches of a script (the core's [`crate::Script`] knows nothing of them).
impl crate::Script {
    /// The same script with only the acceleration strategies `accel` allows ([`crate::accel`]).
    /// Maps are identical whatever the options; for tests and comparison.
    pub fn with_accel(mut self, accel: Accel) -> Self {
        if accel.compiled_rules != self.built.accel.compiled_rules {
            self.built = layer::with(&self.program, accel);
        }
        self.built.accel = accel;
        self
    }

    /// The acceleration strategies this script may use.
    pub fn accel(&self) -> Accel {
        self.built.accel
    }

    /// Per explorer, whether its rules are compiled ([`Accel::compiled_rules`]; rules of a
    /// wrapping region, or too many of them, are interpreted).
    pub fn compiled_rules(&self) -> Vec<bool> {
        self.built.kernels.iter().map(Option::is_some).collect()
    }

    /// Generates the map of `seed` (at `size`, else in the script's range) and lists the
    /// plan of each region pass, in order ([`plan`]).
    pub fn generate_traced(
        &self,
        seed: u64,
        size: Option<(usize, usize)>,
    ) -> Result<(MarahelMap, Vec<PassReport>), MarahelError> {
        if let Some((w, h)) = size {
            self.check_size(w, h)?;
        }
        let mut trace = Vec::new();
        let map =
            crate::engine::generate(&self.program, &self.built, seed, size, Some(&mut trace))?;
        Ok((self.checked(map, seed)?, trace))
    }

    /// The same script without row batching ([`Accel::row_batching`]).
    pub fn without_row_batching(self) -> Self {
        let a = self.accel();
        self.with_accel(Accel {
            row_batching: false,
            ..a
        })
    }

    /// The same script with every explorer's rules interpreted condition by condition
    /// ([`Accel::compiled_rules`]; everything that runs on compiled rules goes with them).
    pub fn without_compiled_rules(self) -> Self {
        let a = self.accel();
        self.with_accel(Accel {
            compiled_rules: false,
            ..a
        })
    }

    /// The same script with every `dist` plane of a live pass computed again after each
    /// write ([`Accel::distance_patching`]).
    pub fn without_distance_patching(self) -> Self {
        let a = self.accel();
        self.with_accel(Accel {
            distance_patching: false,
            ..a
        })
    }
}

/// How one region pass runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// Core: rules interpreted at each visited cell.
    Interpret,
    /// Core: an order-free full scan, row by row, a condition at a time over the row's
    /// undecided cells ([`crate::explorer::row_order`]).
    RowOrder,
    /// Compiled rules at each visited cell.
    Compiled,
    /// Compiled rules a scan line at a time.
    Lines,
    /// Sixteen cells at a time over byte counts.
    ByteScan,
    /// An order-free full scan, a row at a time over count planes and byte masks.
    Rows,
    /// An order-free full scan, the whole region at once.
    Whole,
    /// The drunk walker's own step loop.
    WalkerSteps,
    /// Connect's corridors dug with a table of its rules ([`connect_walk`]).
    ConnectWalk,
}

impl Strategy {
    /// The strategy's name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Interpret => "interpret",
            Strategy::RowOrder => "row-order",
            Strategy::Compiled => "compiled",
            Strategy::Lines => "lines",
            Strategy::ByteScan => "byte-scan",
            Strategy::Rows => "rows",
            Strategy::Whole => "whole",
            Strategy::WalkerSteps => "walker-steps",
            Strategy::ConnectWalk => "connect-walk",
        }
    }

    /// Whether this is one of the core's own ways (no acceleration).
    pub fn is_core(self) -> bool {
        matches!(self, Strategy::Interpret | Strategy::RowOrder)
    }
}

/// What ran one region pass of an explorer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassReport {
    /// Index of the explorer in the script.
    pub explorer: usize,
    /// The explorer's type ([`kind_name`]).
    pub kind: &'static str,
    /// The strategy.
    pub strategy: Strategy,
    /// How the pass's live neighbourhood counts are stored ([`live::LivePlanes`]: `words`,
    /// `bytes`, `pairs`, `coded-pairs`), or `None` when it reads none.
    pub live_planes: Option<&'static str>,
    /// Whether the pass's neighbourhood estimators read counts of the whole region computed
    /// at once (a buffered pass, [`Accel::count_planes`]).
    pub count_planes: bool,
    /// Whether the pass's `dist` estimators are kept up to date with its writes
    /// ([`live_dist`], [`Accel::distance_patching`]).
    pub distance_log: bool,
    /// Whether the pass's connect planned its corridors with raster passes
    /// ([`connect_tree`], [`Accel::connect_raster`]).
    pub connect_raster: bool,
    /// Whether the pass's connect walker steered by its step table ([`connect_walk`],
    /// [`Accel::connect_walk`]).
    pub connect_walk: bool,
    /// Why the pass ran the general path (the core's, or compiled rules a cell at a time)
    /// when a faster one exists for its explorer type: a switch off (`"line_visits off"`)
    /// or what the faster path cannot run; `None` otherwise.
    pub fallback: Option<&'static str>,
}

/// The name of an explorer type, as the v0.3.0 language spells it (2017 types by their
/// 2017 names).
pub fn kind_name(kind: &ExplorerKind) -> &'static str {
    match kind {
        ExplorerKind::Horizontal => "narrow_horz",
        ExplorerKind::Vertical => "narrow_vert",
        ExplorerKind::RandomNarrow => "narrow_rand",
        ExplorerKind::Drunk { .. } => "turtle_drunk",
        ExplorerKind::Flood { .. } => "automata_flood",
        ExplorerKind::Agents(_) => "agent",
        ExplorerKind::Greedy { .. } => "turtle_heur",
        ExplorerKind::Connect {
            style: ConnectStyle::Tour | ConnectStyle::ReferenceTour,
            ..
        } => "turtle_connect",
        ExplorerKind::Connect { .. } => "connector",
        ExplorerKind::WideHeur { .. } => "wide_heur",
        ExplorerKind::WideRand => "wide_rand",
    }
}
