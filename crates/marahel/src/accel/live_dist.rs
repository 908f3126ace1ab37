//! `dist(list)` and the 2017 Manhattan `maxDist(list)`/`avgDist(list)` in a pass that writes
//! the map it reads (a live pass), at no more than O(log² A) per read and per write in a
//! region of `A` cells, whatever the visiting order and wherever the writes land.
//!
//! The plain core computes the whole region's distance plane ([`crate::distance::transform`])
//! or statistics ([`crate::distance::paths::Spread`]) again at the first read after every
//! write: O(A) per write. Here, for every such estimator the pass reads ([`LiveDist::on`]):
//!
//! - `dist`: the plane is computed at the first read of a region and read as long as writes
//!   only add targets, at most 256 of them: a read is the least of the plane's value and the
//!   distances to the targets added since (a pass placing a few items stays there); from the
//!   first removal or too many additions on, reads go to a [`Nearest`] built from the map as
//!   it then is (O(A), once);
//! - `maxDist`, `avgDist`: a [`LiveSpread`] is built at the first read (O(A));
//! - a walking `minDist(nbh, list[, allowed])`: its walk plane, lowered through the writes
//!   that only open cells or add targets, computed again after any other
//!   ([`crate::accel::live_walk`]; this one is not O(log² A));
//!
//! and every later write that changes a cell of the region into or out of a target updates
//! them ([`LiveDist::record`], called by [`crate::engine::Ctx`] on every write of the front
//! buffer).
//!
//! Each tracked estimator remembers the map version it has seen every write up to; a write
//! that did not go through the record (a fast path that writes without it bumps the version
//! by itself) leaves it behind, and the next read starts again from the map (exactly what the
//! core does after every write). A region pass of `A` reads and `O(A)` writes thus costs
//! O(A log² A) at worst.

use crate::accel::live_walk::LiveWalk;
use crate::accel::nearest::Nearest;
use crate::accel::spread::LiveSpread;
use crate::distance::{self, paths::Stat};
use crate::estimator::Estimator;
use crate::program::Explorer;
use grid_core::Rect;

/// Whether the passes of `ex` keep their distance estimators here (the planner's choice for
/// the whole explorer, reported as [`crate::accel::PassReport::distance_log`]): allowed by
/// `accel`, the explorer writes the map it reads (not `replace: buffer`) and reads
/// `dist(list)`, a Manhattan `maxDist`/`avgDist` or a walking `minDist`.
pub fn wanted(ex: &Explorer, accel: crate::Accel) -> bool {
    accel.distance_patching && !ex.buffer && reads_distances(ex)
}

/// Whether `ex` reads `dist(list)`, a Manhattan `maxDist`/`avgDist` or a walking `minDist`.
fn reads_distances(ex: &Explorer) -> bool {
    crate::explorer::reads_estimator(ex, |e| match e {
        Estimator::Distance { to_out, .. } => !to_out,
        Estimator::PathDistance { walk, stat, .. } => walk.is_none() || *stat == Stat::Min,
        _ => false,
    })
}

/// The distance estimators a live pass keeps up to date with its writes.
#[derive(Clone, Debug, Default)]
pub struct LiveDist {
    /// Whether writes are recorded (a live pass reading `dist`,
    /// [`crate::Accel::distance_patching`]).
    pub on: bool,
    /// Per estimator slot.
    slots: Vec<Option<Tracked>>,
}

/// Most added targets a `dist` plane is read with (each read is the least of the plane's
/// value and the distances to these); past them, or after a removal, the targets are kept in
/// a [`Nearest`].
const ADDED: usize = 256;

/// One estimator on one region.
#[derive(Clone, Debug)]
struct Tracked {
    /// The region.
    region: Rect,
    /// Which codes are targets.
    targets: Vec<bool>,
    /// The map version this has seen every write up to.
    version: u64,
    /// What is kept.
    kept: Kept,
}

/// What a tracked estimator keeps.
#[derive(Clone, Debug)]
enum Kept {
    /// `dist` while writes only add targets: the distance plane and the targets added since
    /// it was computed (local cells, at most [`ADDED`]).
    Plane { plane: Vec<u32>, added: Added },
    /// `dist`, once a target changed and before the next read.
    Changed,
    /// `dist` from then on.
    Nearest(Nearest),
    /// `maxDist`, `avgDist`.
    Spread(LiveSpread),
    /// `minDist(nbh, list[, allowed])`.
    Walk(LiveWalk),
}

impl LiveDist {
    /// Starts a pass: recording (`on`) or not; forgets every estimator.
    pub fn start(&mut self, on: bool) {
        self.on = on;
        self.slots.clear();
    }

    /// Records the write of `old` -> `new` at map cell `(x, y)` that made map version
    /// `version`.
    #[inline]
    pub fn record(&mut self, version: u64, (x, y): (usize, usize), old: u8, new: u8) {
        for t in self.slots.iter_mut().flatten() {
            if t.version + 1 != version {
                // Behind already: the next read starts again.
                continue;
            }
            t.version = version;
            let r = t.region;
            let (lx, ly) = (x as i64 - r.x, y as i64 - r.y);
            if lx < 0 || ly < 0 || lx >= r.w || ly >= r.h {
                continue;
            }
            let (lx, ly) = (lx as usize, ly as usize);
            if let Kept::Walk(walk) = &mut t.kept {
                walk.record(ly * r.w as usize + lx, old, new, &t.targets);
                continue;
            }
            let now = t.targets[new as usize];
            if t.targets[old as usize] == now {
                continue;
            }
            match &mut t.kept {
                Kept::Plane { added, .. } if now && added.xs.len() < ADDED => {
                    added.xs.push(lx as i32);
                    added.ys.push(ly as i32);
                }
                Kept::Plane { .. } => t.kept = Kept::Changed,
                Kept::Changed => {}
                Kept::Nearest(n) => n.set(lx, ly, now),
                Kept::Spread(s) => s.set(lx, ly, now),
                Kept::Walk(_) => unreachable!("recorded above"),
            }
        }
    }

    /// The entry of `slot` for `region` at map `version`, started again (`start`, from the
    /// region's rectangle) unless it has seen every write since it was made.
    fn entry(
        &mut self,
        slot: usize,
        targets: &[bool],
        (region, version): (Rect, u64),
        start: impl FnOnce(Option<Kept>) -> Kept,
    ) -> &mut Tracked {
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, || None);
        }
        let entry = &mut self.slots[slot];
        let fresh = matches!(entry, Some(t) if t.region == region && t.version == version);
        if !fresh {
            let kept = start(entry.take().map(|t| t.kept));
            *entry = Some(Tracked {
                region,
                targets: targets.to_vec(),
                version,
                kept,
            });
        }
        entry.as_mut().expect("filled")
    }

    /// `dist`: the distance from map cell `(x, y)` of `region` to its nearest target
    /// (`u32::MAX`: none) for estimator `slot` on map `front` (`w` wide) at map `version`.
    pub fn distance(
        &mut self,
        slot: usize,
        targets: &[bool],
        now: (Rect, u64),
        (front, w): (&[u8], usize),
        (x, y): (usize, usize),
    ) -> u32 {
        let (rx, ry, rw, rh) = rect(now.0);
        let (lx, ly) = (x - rx, y - ry);
        let t = self.entry(slot, targets, now, |old| {
            let mut plane = match old {
                Some(Kept::Plane { plane, .. }) => plane,
                _ => Vec::new(),
            };
            distance::transform(front, w, (rx, ry, rw, rh), targets, &mut plane);
            let added = Added::default();
            Kept::Plane { plane, added }
        });
        if let Kept::Plane { plane, added } = &t.kept {
            // The plane's targets all stand; the nearest is one of them or an added one.
            let added = added.nearest(lx as i32, ly as i32);
            return plane[ly * rw + lx].min(added);
        }
        if let Kept::Changed = t.kept {
            t.kept = Kept::Nearest(Nearest::new(rw, rh, |cx, cy| {
                targets[front[(ry + cy) * w + rx + cx] as usize]
            }));
        }
        match &t.kept {
            Kept::Nearest(n) => n.distance(lx, ly),
            _ => unreachable!("a dist estimator keeps a plane or its targets"),
        }
    }

    /// Manhattan `maxDist` or `avgDist` (`stat`) at map cell `(x, y)` of `region`, `None`
    /// with no target, for estimator `slot`.
    pub fn spread(
        &mut self,
        (slot, stat): (usize, Stat),
        targets: &[bool],
        now: (Rect, u64),
        (front, w): (&[u8], usize),
        (x, y): (usize, usize),
    ) -> Option<f64> {
        let (rx, ry, rw, rh) = rect(now.0);
        let t = self.entry(slot, targets, now, |_| {
            Kept::Spread(LiveSpread::new(rw, rh, |cx, cy| {
                targets[front[(ry + cy) * w + rx + cx] as usize]
            }))
        });
        match &t.kept {
            Kept::Spread(s) => s.get(stat, (x - rx, y - ry)),
            _ => unreachable!("a maxDist or avgDist estimator keeps its statistics"),
        }
    }
}

impl LiveDist {
    /// `minDist(nbh, list[, allowed])` (walks along `offsets` through `allowed` codes) at map
    /// cell `(x, y)` of `region`, `u32::MAX` with no target reached, for estimator `slot`.
    pub fn walk(
        &mut self,
        slot: usize,
        (targets, allowed, offsets): (&[bool], &[bool], &[(i64, i64)]),
        now: (Rect, u64),
        map: (&[u8], usize),
        (x, y): (usize, usize),
    ) -> u32 {
        let r = rect(now.0);
        let t = self.entry(slot, targets, now, |old| {
            let plane = match old {
                Some(Kept::Walk(w)) => w.into_plane(),
                _ => Vec::new(),
            };
            Kept::Walk(LiveWalk::new((r, map, targets), allowed, offsets, plane))
        });
        match &mut t.kept {
            Kept::Walk(walk) => walk.get((r, map, targets), (x - r.0, y - r.1)),
            _ => unreachable!("a walking minDist keeps its walk plane"),
        }
    }
}

/// Targets added since a plane was computed, as two columns of local coordinates (so the
/// nearest is found a vector of them at a time).
#[derive(Clone, Debug, Default)]
struct Added {
    xs: Vec<i32>,
    ys: Vec<i32>,
}

impl Added {
    /// The distance from `(x, y)` to the nearest added target (`u32::MAX`: none).
    fn nearest(&self, x: i32, y: i32) -> u32 {
        let d = self.xs.iter().zip(&self.ys);
        d.map(|(&ax, &ay)| ((ax - x).abs() + (ay - y).abs()) as u32)
            .fold(u32::MAX, u32::min)
    }
}

/// `region` as `(x, y, w, h)`.
fn rect(r: Rect) -> (usize, usize, usize, usize) {
    (r.x as usize, r.y as usize, r.w as usize, r.h as usize)
}
