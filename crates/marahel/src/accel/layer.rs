//! The acceleration layer behind the core's hook ([`crate::hook::Observer`]): what it builds
//! once per script ([`Built`]: the switches and the compiled rules), its state while a map is
//! made ([`Layer`]), and how it answers each call of the hook.

use super::caches::{Caches, Kept};
use super::compiled::Kernel;
use super::{Accel, PassReport, planner};
use crate::distance::paths::Stat;
use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::explorer::{Limits, reads_estimator};
use crate::hook::{DistRead, Observer, Start};
use crate::program::{Explorer, Program};
use grid_core::Rect;

/// What the layer builds from a program once: which strategies may run, and each explorer's
/// rules compiled for cell-by-cell visits (`None`: interpret them).
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    /// Which strategies may run.
    pub accel: Accel,
    /// Per explorer, its compiled rules.
    pub kernels: Vec<Option<Kernel>>,
}

/// Every strategy allowed, and the rules of every explorer compiled.
pub fn build(p: &Program) -> Built {
    with(p, Accel::all())
}

/// The layer of `p` with only the strategies `accel` allows.
pub fn with(p: &Program, accel: Accel) -> Built {
    let kernels = p.explorers.iter().map(|ex| match accel.compiled_rules {
        true => Kernel::new(ex, &p.nbhs),
        false => None,
    });
    Built {
        accel,
        kernels: kernels.collect(),
    }
}

/// The layer's state while a map is made ([`crate::engine::Ctx::layer`]).
#[derive(Debug)]
pub struct Layer<'a> {
    /// What the script built.
    pub built: &'a Built,
    /// Which strategies may run (the script's).
    pub accel: Accel,
    /// What the strategies keep between visits.
    pub caches: Caches,
    /// Index of the running explorer.
    pub explorer: usize,
    /// The running explorer's compiled rules.
    pub kernel: Option<&'a Kernel>,
    /// Whether the running explorer reads a neighbourhood estimator.
    reads_nbh: bool,
    /// Whether the running explorer's live planes may be kept from one repeat to the next
    /// ([`planner::keeps_planes`]).
    pub keep_planes: bool,
    /// Whether the pass running reads its neighbourhood counts from count planes (its plan).
    pub count_planes: bool,
    /// Where the plan of each pass is recorded, when asked.
    pub trace: Option<&'a mut Vec<PassReport>>,
}

impl<'a> Observer<'a> for Layer<'a> {
    fn new(p: &Program, (built, kept, trace): Start<'a, '_>) -> Self {
        Layer {
            built,
            accel: built.accel,
            caches: Caches::new(p, kept),
            explorer: 0,
            kernel: None,
            reads_nbh: false,
            keep_planes: false,
            count_planes: false,
            trace,
        }
    }

    fn keep(self, kept: &mut Kept) {
        self.caches.keep(kept);
    }

    fn start_explorer(&mut self, index: usize, ex: &Explorer) {
        self.explorer = index;
        self.kernel = self.built.kernels[index].as_ref();
        self.reads_nbh = reads_estimator(ex, |e| matches!(e, Estimator::Neighborhood { .. }));
        self.caches.start_explorer(ex, self.accel);
    }

    fn regions(&mut self, ex: &Explorer, list: &[Rect]) {
        self.keep_planes = planner::keeps_planes(ex, list);
    }

    fn end_explorer(&mut self, cells: usize) {
        self.caches.end_explorer(cells);
    }

    #[inline(always)]
    fn watching(&self) -> bool {
        self.caches.watching()
    }

    #[inline(always)]
    fn on_write(&mut self, version: u64, at: impl Fn() -> (usize, usize), old: u8, new: u8) {
        self.caches.on_write(version, at, old, new);
    }

    fn pass(
        ex: &Explorer,
        ctx: &mut Ctx,
        lim: Limits,
        warnings: &mut Vec<String>,
        core: impl FnOnce(&mut Ctx, &mut Vec<String>),
    ) {
        planner::pass(ex, ctx, lim, warnings, core);
    }

    #[inline(always)]
    fn visit(_: &Explorer, ctx: &mut Ctx, x: usize, y: usize) -> Option<bool> {
        let k = ctx.layer.kernel?;
        Some(k.visit(ctx, x, y))
    }

    #[inline]
    fn count(
        ctx: &mut Ctx,
        slot: usize,
        nbh: usize,
        w: &[u32; 256],
        at: (usize, usize),
    ) -> Option<u32> {
        // The front buffer is frozen during a buffered pass: count the whole region at once
        // (vectorised row sums) and read the result.
        let on = ctx.layer.count_planes;
        on.then(|| ctx.count_plane(slot, nbh, w, at.0, at.1, false))
    }

    #[inline]
    fn distance(&mut self, q: DistRead, targets: &[bool]) -> Option<u32> {
        let live = &mut self.caches.live_dist;
        live.on
            .then(|| live.distance(q.slot, targets, q.now, q.map, q.at))
    }

    #[inline]
    fn spread(&mut self, q: DistRead, stat: Stat, targets: &[bool]) -> Option<Option<f64>> {
        let live = &mut self.caches.live_dist;
        live.on
            .then(|| live.spread((q.slot, stat), targets, q.now, q.map, q.at))
    }

    #[inline]
    fn walk(&mut self, q: DistRead, walk: (&[bool], &[bool], &[(i64, i64)])) -> Option<u32> {
        let live = &mut self.caches.live_dist;
        live.on.then(|| live.walk(q.slot, walk, q.now, q.map, q.at))
    }
}

impl Layer<'_> {
    /// Whether the running explorer reads a neighbourhood estimator.
    pub fn reads_nbh(&self) -> bool {
        self.reads_nbh
    }
}
