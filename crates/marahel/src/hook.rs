//! The one place where the core meets a layer that runs its passes faster: the [`Observer`]
//! hook and the feature gate that picks who implements it.
//!
//! The core calls the hook at a few points of a map's making: when an explorer starts and
//! ends, when a region pass is about to run ([`Observer::pass`], which may run the pass its
//! own way or hand it back), at every visit of a cell (compiled rules may answer it), when a
//! neighbourhood or `dist` estimator is read (a plane kept by the layer may answer it), and at
//! every write of the front buffer ([`Observer::on_write`]), which is how the layer keeps its
//! planes exact. With the default cargo feature `accel` the layer of `src/accel` implements
//! it; without it, `Plain` does: every call is a no-op that the compiler removes, and the
//! core runs alone (`cargo test -p marahel --no-default-features`). The layer's state lives
//! in [`crate::engine::Ctx::layer`] and in the script ([`Built`]), never in the program.

use crate::distance::paths::Stat;
use crate::engine::Ctx;
use crate::explorer::Limits;
use crate::program::{Explorer, Program};
use grid_core::Rect;

#[cfg(feature = "accel")]
pub use crate::accel::{Built, Kept, Layer, PassReport as Report, build};

/// What the layer reads at a map's start: the script's [`Built`] part, the buffers a thread
/// kept from its last map, and where to record each pass's plan.
pub type Start<'a, 'k> = (&'a Built, &'k mut Kept, Option<&'a mut Vec<Report>>);

/// How the core reports to the layer, and what it asks of it. Every method but the
/// constructors has a plain answer: "nothing kept" (`None`, `false`) or "run it yourself".
pub trait Observer<'a>: Sized {
    /// The layer's state for one map of `p`.
    fn new(p: &Program, start: Start<'a, '_>) -> Self;
    /// After the map: the buffers worth keeping for the thread's next map go to `kept`.
    fn keep(self, kept: &mut Kept);
    /// Explorer number `index`, `ex`, starts on the map.
    fn start_explorer(&mut self, index: usize, ex: &Explorer);
    /// The region passes of the explorer that started run over `list`, in order.
    fn regions(&mut self, ex: &Explorer, list: &[Rect]);
    /// The explorer that started ended, on a map of `cells` cells.
    fn end_explorer(&mut self, cells: usize);
    /// Whether [`Observer::on_write`] must see every write (else writes may skip it).
    fn watching(&self) -> bool;
    /// The front buffer's cell at `at()` changed from `old` to `new`, making map version
    /// `version`.
    fn on_write(&mut self, version: u64, at: impl Fn() -> (usize, usize), old: u8, new: u8);
    /// Runs one region pass of `ex` (region `ctx.region`, limits `lim`, the map's
    /// `warnings`): the layer's own way, or else by calling `core`, the core's pass.
    fn pass(
        ex: &Explorer,
        ctx: &mut Ctx,
        lim: Limits,
        warnings: &mut Vec<String>,
        core: impl FnOnce(&mut Ctx, &mut Vec<String>),
    );
    /// The visit of `(x, y)` by `ex`'s rules, when the layer runs them (whether a rule fired);
    /// `None`: the core interprets them.
    fn visit(ex: &Explorer, ctx: &mut Ctx, x: usize, y: usize) -> Option<bool>;
    /// A neighbourhood estimator's count (estimator `slot`, neighbourhood `nbh`) at `(x, y)`,
    /// when the layer keeps it; `None`: the core counts.
    fn count(
        ctx: &mut Ctx,
        slot: usize,
        nbh: usize,
        w: &[u32; 256],
        at: (usize, usize),
    ) -> Option<u32>;
    /// `dist(targets)` of estimator `slot` at `at` on `map` (front buffer, width) in region
    /// and version `now`, when the layer keeps it (`u32::MAX`: no target); `None`: the core
    /// computes it.
    fn distance(&mut self, q: DistRead, targets: &[bool]) -> Option<u32>;
    /// The 2017 Manhattan `stat` (`maxDist`/`avgDist`/`minDist`) of slot `q.slot`, when the
    /// layer keeps it: `Some(value)` (`None` inside: no target); `None`: the core computes it.
    fn spread(&mut self, q: DistRead, stat: Stat, targets: &[bool]) -> Option<Option<f64>>;
    /// A walking `minDist` (targets, allowed codes, offsets) of slot `q.slot`, when the layer
    /// keeps it (`u32::MAX`: unreachable); `None`: the core computes it.
    fn walk(&mut self, q: DistRead, walk: (&[bool], &[bool], &[(i64, i64)])) -> Option<u32>;
}

/// Where a distance estimator is read: its slot, the region and map version, the front
/// buffer and its width, the cell.
#[derive(Clone, Copy, Debug)]
pub struct DistRead<'m> {
    /// The estimator's cache slot.
    pub slot: usize,
    /// The region and the map version.
    pub now: (Rect, u64),
    /// The front buffer and its width.
    pub map: (&'m [u8], usize),
    /// The cell read.
    pub at: (usize, usize),
}

/// The core alone: nothing kept, every pass run by the core.
#[cfg(not(feature = "accel"))]
#[derive(Debug, Default)]
pub struct Plain;

/// Without a layer, a script builds nothing beside its program.
#[cfg(not(feature = "accel"))]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Built;
/// Without a layer, a thread keeps nothing of its own for the layer.
#[cfg(not(feature = "accel"))]
pub type Kept = ();
/// Without a layer, no pass is recorded.
#[cfg(not(feature = "accel"))]
pub type Report = std::convert::Infallible;
/// The layer the core runs with.
#[cfg(not(feature = "accel"))]
pub type Layer<'a> = Plain;

#[cfg(not(feature = "accel"))]
impl<'a> Observer<'a> for Plain {
    fn new(_: &Program, _: Start<'a, '_>) -> Self {
        Plain
    }
    fn keep(self, _: &mut Kept) {}
    fn start_explorer(&mut self, _: usize, _: &Explorer) {}
    fn regions(&mut self, _: &Explorer, _: &[Rect]) {}
    fn end_explorer(&mut self, _: usize) {}
    #[inline(always)]
    fn watching(&self) -> bool {
        false
    }
    #[inline(always)]
    fn on_write(&mut self, _: u64, _: impl Fn() -> (usize, usize), _: u8, _: u8) {}
    #[inline(always)]
    fn pass(
        _: &Explorer,
        ctx: &mut Ctx,
        _: Limits,
        warnings: &mut Vec<String>,
        core: impl FnOnce(&mut Ctx, &mut Vec<String>),
    ) {
        core(ctx, warnings)
    }
    #[inline(always)]
    fn visit(_: &Explorer, _: &mut Ctx, _: usize, _: usize) -> Option<bool> {
        None
    }
    #[inline(always)]
    fn count(_: &mut Ctx, _: usize, _: usize, _: &[u32; 256], _: (usize, usize)) -> Option<u32> {
        None
    }
    #[inline(always)]
    fn distance(&mut self, _: DistRead, _: &[bool]) -> Option<u32> {
        None
    }
    #[inline(always)]
    fn spread(&mut self, _: DistRead, _: Stat, _: &[bool]) -> Option<Option<f64>> {
        None
    }
    #[inline(always)]
    fn walk(&mut self, _: DistRead, _: (&[bool], &[bool], &[(i64, i64)])) -> Option<u32> {
        None
    }
}

/// What the layer builds from a program once per script (nothing without a layer).
#[cfg(not(feature = "accel"))]
pub fn build(_: &Program) -> Built {
    Built
}
