//! `dist(list)` in a pass that writes the map it reads (a live pass), at no more than
//! O(log² A) per read and per write in a region of `A` cells, whatever the visiting order
//! and wherever the writes land.
//!
//! The plain core computes the whole region's distance plane ([`crate::distance::transform`],
//! O(A)) again at the first read after every write: O(A) per write. Here, for every `dist`
//! estimator the pass reads ([`LiveDist::on`]):
//!
//! - the plane is computed at the first read of a region and read as long as no write has
//!   made a cell a target or stopped it being one (one load per read);
//! - from the first such write on, reads go to a [`Nearest`] built from the map as it then
//!   is (O(A), once), and every later write that changes a cell of the region into or out of
//!   a target updates it ([`LiveDist::record`], called by [`crate::engine::Ctx`] on every
//!   write of the front buffer).
//!
//! Each tracked estimator remembers the map version it has seen every write up to; a write
//! that did not go through the record (a fast path that writes without it bumps the version
//! by itself) leaves it behind, and the next read starts again from the map (exactly what the
//! core does after every write). A region pass of `A` reads and `O(A)` writes thus costs
//! O(A log² A) at worst.

use crate::accel::nearest::Nearest;
use crate::distance;
use grid_core::Rect;

/// The `dist` estimators a live pass keeps up to date with its writes.
#[derive(Clone, Debug, Default)]
pub struct LiveDist {
    /// Whether writes are recorded (a live pass reading `dist`, [`crate::Accel::distance_patching`]).
    pub on: bool,
    /// Per estimator slot.
    slots: Vec<Option<Tracked>>,
}

/// One `dist` estimator on one region.
#[derive(Clone, Debug)]
struct Tracked {
    /// The region.
    region: Rect,
    /// Which codes are targets.
    targets: Vec<bool>,
    /// The map version this has seen every write up to.
    version: u64,
    /// The distance plane, valid while `nearest` is `None` and `plane_valid`.
    plane: Vec<u32>,
    /// Whether no write has changed a target since the plane was computed.
    plane_valid: bool,
    /// The targets once they changed.
    nearest: Option<Nearest>,
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
            let now = t.targets[new as usize];
            if t.targets[old as usize] == now {
                continue;
            }
            let r = t.region;
            let (lx, ly) = (x as i64 - r.x, y as i64 - r.y);
            if lx < 0 || ly < 0 || lx >= r.w || ly >= r.h {
                continue;
            }
            match &mut t.nearest {
                Some(n) => n.set(lx as usize, ly as usize, now),
                None => t.plane_valid = false,
            }
        }
    }

    /// The distance from map cell `(x, y)` of `region` to its nearest target (`u32::MAX`:
    /// none) for estimator `slot` on map `front` (`w` wide) at version `version`.
    pub fn read(
        &mut self,
        slot: usize,
        targets: &[bool],
        (region, version): (Rect, u64),
        (front, w): (&[u8], usize),
        (x, y): (usize, usize),
    ) -> u32 {
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, || None);
        }
        let rect = (
            region.x as usize,
            region.y as usize,
            region.w as usize,
            region.h as usize,
        );
        let (lx, ly) = (x - rect.0, y - rect.1);
        let entry = &mut self.slots[slot];
        let fresh = matches!(entry, Some(t) if t.region == region && t.version == version);
        if !fresh {
            let mut plane = entry.take().map(|t| t.plane).unwrap_or_default();
            distance::transform(front, w, rect, targets, &mut plane);
            *entry = Some(Tracked {
                region,
                targets: targets.to_vec(),
                version,
                plane,
                plane_valid: true,
                nearest: None,
            });
        }
        let t = entry.as_mut().expect("filled");
        if t.plane_valid {
            return t.plane[ly * rect.2 + lx];
        }
        if t.nearest.is_none() {
            // The plane is never read again: free it before the structure takes its place.
            t.plane = Vec::new();
        }
        let n = t.nearest.get_or_insert_with(|| {
            Nearest::new(rect.2, rect.3, |cx, cy| {
                targets[front[(rect.1 + cy) * w + rect.0 + cx] as usize]
            })
        });
        n.distance(lx, ly)
    }
}
