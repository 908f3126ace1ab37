//! Live count planes: the weighted neighbourhood count (`all(solid)`, `plus(empty|water)`, ...)
//! of every cell of the current region, kept exact while a pass rewrites the map.
//!
//! A plane is computed once when a region pass starts ([`LivePlanes::begin`], the vectorised
//! whole-region count of [`crate::engine::count_plane`]); from then on every write of a cell
//! adds the change of its weight to the counts of the cells whose neighbourhood contains it
//! ([`LivePlanes::update`]: one addition per offset), so reading a count is one load instead of
//! one load per offset. Counts use wrapping `u32` arithmetic, exactly as counting afresh does.
//! In a buffered pass the front buffer is frozen and the planes are never updated.
//!
//! All planes of a pass share one padded layout: the region plus a margin as wide as the
//! farthest offset, so updates near the region's edge need no bounds tests (cells in the margin
//! are updated but never read).

use crate::engine::{Canvas, FlatNbh, PlaneScratch, count_plane};
use grid_core::Rect;

/// What one plane counts: a neighbourhood and the weight of each cell code.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaneSpec {
    /// Index into the program's neighbourhoods.
    pub nbh: usize,
    /// Weight of each code.
    pub weights: Box<[u32; 256]>,
}

/// How one live plane changes on a write.
#[derive(Debug, Default)]
struct Plane {
    /// Weight of each code.
    weights: Vec<u32>,
    /// The cells whose count a write changes: padded index deltas `-(dy * pitch + dx)`,
    /// shifted by `-lowest` so that they are all `>= 0`.
    deltas: Vec<usize>,
    /// The smallest delta.
    lowest: isize,
}

/// The live planes of the current region pass (buffers reused across passes).
#[derive(Debug, Default)]
pub struct LivePlanes {
    /// Planes; the first `active` are in use.
    planes: Vec<Plane>,
    /// The padded counts of every plane, one after the other (`len` each).
    data: Vec<u32>,
    /// Cells per plane in `data`.
    len: usize,
    /// Number of planes in use (0: none, writes update nothing).
    active: usize,
    /// Whether writes update the planes (false in buffered passes).
    tracking: bool,
    /// The region.
    region: Rect,
    /// Row pitch of the padded layout.
    pitch: usize,
    /// Padded index of the region's top-left cell.
    origin: usize,
    /// Region-local counts of [`count_plane`] (scratch).
    compact: Vec<u32>,
}

impl LivePlanes {
    /// Whether any plane is in use.
    #[inline]
    pub fn is_active(&self) -> bool {
        self.active != 0
    }

    /// Whether writes must update the planes.
    #[inline]
    pub fn tracking(&self) -> bool {
        self.tracking
    }

    /// Padded index of cell `(x, y)` (global coordinates, inside the region).
    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        self.origin + (y - self.region.y as usize) * self.pitch + (x - self.region.x as usize)
    }

    /// Row pitch of the padded layout.
    #[inline]
    pub fn pitch(&self) -> usize {
        self.pitch
    }

    /// Count of plane `k` at padded index `i`.
    #[inline]
    pub fn get(&self, k: usize, i: usize) -> u32 {
        self.data[k * self.len + i]
    }

    /// Computes `specs` over region `r` of the front buffer; `out_w` gives, per spec, the
    /// weight of a cell outside the region. `tracking`: whether writes will update them.
    #[allow(clippy::too_many_arguments)]
    pub fn begin(
        &mut self,
        specs: &[PlaneSpec],
        canvas: &Canvas,
        nbhs: &[FlatNbh],
        r: Rect,
        out_w: impl Fn(&[u32; 256]) -> u32,
        tracking: bool,
        scratch: &mut PlaneScratch,
    ) {
        let (rw, rh) = (r.w as usize, r.h as usize);
        // One margin for all planes: the farthest offset on each side.
        let (mut left, mut right, mut top, mut bottom) = (0usize, 0usize, 0usize, 0usize);
        for s in specs {
            for &(dx, dy) in &nbhs[s.nbh].offsets {
                left = left.max(dx.max(0) as usize);
                right = right.max((-dx).max(0) as usize);
                top = top.max(dy.max(0) as usize);
                bottom = bottom.max((-dy).max(0) as usize);
            }
        }
        self.region = r;
        self.pitch = left + rw + right;
        self.origin = top * self.pitch + left;
        self.tracking = tracking;
        let len = self.pitch * (top + rh + bottom);
        self.len = len;
        if self.planes.len() < specs.len() {
            self.planes.resize_with(specs.len(), Plane::default);
        }
        self.data.clear();
        self.data.resize(len * specs.len(), 0);
        for (k, (s, plane)) in specs.iter().zip(&mut self.planes).enumerate() {
            let n = &nbhs[s.nbh];
            count_plane(
                canvas,
                r,
                n,
                &s.weights,
                out_w(&s.weights),
                scratch,
                &mut self.compact,
            );
            for ly in 0..rh {
                let at = k * len + self.origin + ly * self.pitch;
                self.data[at..at + rw].copy_from_slice(&self.compact[ly * rw..(ly + 1) * rw]);
            }
            plane.weights.clear();
            plane.weights.extend_from_slice(&s.weights[..]);
            let pitch = self.pitch as isize;
            let mut deltas: Vec<isize> = n
                .offsets
                .iter()
                .map(|&(dx, dy)| -(dy as isize * pitch + dx as isize))
                .collect();
            deltas.sort_unstable();
            plane.lowest = deltas.first().copied().unwrap_or(0);
            plane.deltas.clear();
            plane
                .deltas
                .extend(deltas.iter().map(|&d| (d - plane.lowest) as usize));
        }
        self.active = specs.len();
    }

    /// Ends the pass: writes no longer update anything.
    pub fn end(&mut self) {
        self.active = 0;
        self.tracking = false;
    }

    /// Cell `(x, y)` of the region changed from `old` to `new`.
    #[inline]
    pub fn update(&mut self, x: usize, y: usize, old: u8, new: u8) {
        let i = self.index(x, y) as isize;
        for (k, plane) in self.planes[..self.active].iter().enumerate() {
            let dw = plane.weights[new as usize].wrapping_sub(plane.weights[old as usize]);
            if dw == 0 {
                continue;
            }
            let first = k * self.len + (i + plane.lowest) as usize;
            let data = &mut self.data[first..];
            for &d in &plane.deltas {
                data[d] = data[d].wrapping_add(dw);
            }
        }
    }
}
