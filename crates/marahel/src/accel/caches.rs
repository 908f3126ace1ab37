//! What the acceleration layer keeps while a map is made ([`Caches`]: count and live planes,
//! live `dist`, scratch), and what one thread keeps of it from one map to the next
//! ([`Kept`]). All of it can be thrown away and computed again.

use super::count_planes::PlaneScratch;
use super::live::LivePlanes;
use super::live_dist::{self, LiveDist};
use crate::engine::Memo;
use crate::program::{Explorer, Program};
use crate::workspace::KEEP_CELLS;

/// What a [`crate::engine::Ctx`] keeps for the acceleration strategies between visits.
#[derive(Debug, Default)]
pub struct Caches {
    /// The `dist` estimators of a live pass, kept up to date with every write
    /// ([`crate::accel::live_dist`]); `live_dist.on`: writes are recorded.
    pub live_dist: LiveDist,
    /// Count planes of neighbourhood estimators, per estimator slot
    /// ([`crate::accel::count_planes`]).
    pub count_planes: Memo<Vec<u32>>,
    /// Scratch buffers of the count planes and of the whole-region passes (reused across
    /// passes).
    pub scratch: PlaneScratch,
    /// Live count planes of the compiled rules ([`crate::accel::compiled`]), updated on every
    /// write.
    pub live: LivePlanes,
}

impl Caches {
    /// The caches of a map of `p`, with the buffers `kept` from the thread's last map.
    pub fn new(p: &Program, kept: &mut Kept) -> Caches {
        Caches {
            count_planes: Memo::new(p.dist_slots),
            scratch: std::mem::take(&mut kept.scratch),
            live_dist: LiveDist::default(),
            live: std::mem::take(&mut kept.live),
        }
    }

    /// Whether a write must be seen ([`Caches::on_write`]): live planes or a live `dist`.
    #[inline(always)]
    pub fn watching(&self) -> bool {
        self.live.tracking() || self.live_dist.on
    }

    /// The front buffer's cell at `at()` changed from `old` to `new`, making map version
    /// `version`: the live planes and the live `dist` follow.
    #[inline(always)]
    pub fn on_write(&mut self, version: u64, at: impl Fn() -> (usize, usize), old: u8, new: u8) {
        if self.live_dist.on {
            self.live_dist.record(version, at(), old, new);
        }
        if self.live.tracking() {
            let (x, y) = at();
            self.live.update(x, y, old, new);
        }
    }

    /// Before explorer `ex` runs: forgets what the last one computed, and keeps `ex`'s
    /// distance estimators live when [`live_dist::wanted`].
    pub fn start_explorer(&mut self, ex: &Explorer, accel: super::Accel) {
        self.live.release_kept();
        self.count_planes.clear();
        self.live_dist.start(live_dist::wanted(ex, accel));
    }

    /// After an explorer on a map of `cells` cells: a large map's scratch does not outlive
    /// its explorer (peak memory: the next explorer may need other buffers as large).
    pub fn end_explorer(&mut self, cells: usize) {
        if cells > KEEP_CELLS {
            self.scratch = PlaneScratch::default();
            self.live = LivePlanes::default();
        }
    }

    /// After the map: gives the buffers back to `kept` for the next map.
    pub fn keep(self, kept: &mut Kept) {
        kept.scratch = self.scratch;
        kept.live = self.live;
    }
}

/// What one thread keeps of the layer's buffers from one map to the next (in its
/// [`crate::workspace::Workspace`]): the count planes' scratch and the live planes.
#[derive(Debug, Default)]
pub struct Kept {
    /// Count plane scratch.
    scratch: PlaneScratch,
    /// Live count planes.
    live: LivePlanes,
}
