//! What the acceleration layer keeps while a map is made ([`Caches`]: count and live planes,
//! live `dist`, scratch), and what one thread keeps from one map to the next
//! ([`Workspace`]). All of it can be thrown away and computed again.

use super::count_planes::PlaneScratch;
use super::live::LivePlanes;
use super::live_dist::{self, LiveDist};
use crate::engine::{FlatNbh, Memo};
use crate::program::{Explorer, Program};

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
    /// The caches of a map of `p`, with the buffers `ws` kept from the last map.
    pub fn new(p: &Program, ws: &mut Workspace) -> Caches {
        Caches {
            count_planes: Memo::new(p.dist_slots),
            scratch: std::mem::take(&mut ws.scratch),
            live_dist: LiveDist::default(),
            live: std::mem::take(&mut ws.live),
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

    /// After the map: gives the buffers back to `ws` for the next map.
    pub fn keep(self, ws: &mut Workspace) {
        ws.scratch = self.scratch;
        ws.live = self.live;
    }
}

/// Buffers one thread reuses from one map to the next (on small maps, allocating them afresh
/// costs about as much as a pass): the neighbourhoods laid out for the last map's width, the
/// back buffer, the count planes' scratch and live planes, and the entity counts.
#[derive(Debug, Default)]
pub struct Workspace {
    /// The program's neighbourhoods for width `nbhs_w`.
    pub nbhs: Vec<FlatNbh>,
    /// The width `nbhs` are laid out for.
    nbhs_w: usize,
    /// The back buffer.
    pub back: Vec<u8>,
    /// Count plane scratch.
    scratch: PlaneScratch,
    /// Live count planes.
    live: LivePlanes,
    /// Entity counts.
    pub counts: Vec<u32>,
}

/// Maps of more cells than this (a 1024x1024 map has this many) keep neither their scratch
/// from one explorer to the next nor their buffers for the next map (peak memory on huge maps;
/// below it, a thread keeps at most a few bytes per cell of the largest map it made).
pub const KEEP_CELLS: usize = 1 << 20;

thread_local! {
    /// This thread's buffers, kept from one map to the next.
    static WORKSPACE: std::cell::RefCell<Workspace> = std::cell::RefCell::default();
}

/// Runs `f` with this thread's workspace (a fresh one if it is in use), and keeps the buffers
/// for the next map unless the map has more than [`KEEP_CELLS`] cells.
pub fn with_workspace<T>(cells: usize, f: impl FnOnce(&mut Workspace) -> T) -> T {
    WORKSPACE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut ws) => {
            let t = f(&mut ws);
            if cells > KEEP_CELLS {
                *ws = Workspace::default();
            }
            t
        }
        Err(_) => f(&mut Workspace::default()),
    })
}

impl Workspace {
    /// Lays out `p`'s neighbourhoods for width `w`, unless the kept ones are already those.
    pub fn lay_out(&mut self, p: &Program, w: usize) {
        let same_program = self.nbhs.len() == p.nbhs.len()
            && self.nbhs.iter().zip(&p.nbhs).all(|(f, n)| {
                f.offsets.len() == n.offsets.len()
                    && (f.offsets.iter().zip(&n.offsets))
                        .all(|(&a, &(x, y))| a == (x as i64, y as i64))
            });
        if !same_program {
            self.nbhs = p.nbhs.iter().map(|n| FlatNbh::new(&n.offsets, w)).collect();
        } else if self.nbhs_w != w {
            // Only the flat deltas depend on the width.
            for n in &mut self.nbhs {
                for (f, &(x, y)) in n.flat.iter_mut().zip(&n.offsets) {
                    *f = crate::engine::flat(x, y, w);
                }
            }
        }
        self.nbhs_w = w;
    }
}
