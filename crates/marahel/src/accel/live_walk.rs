//! A walking `minDist(nbh, list[, allowed])` in a pass that writes the map it reads: its walk
//! plane kept through the writes that can only shorten walks, instead of computed again
//! after every write as the core does ([`crate::distance::paths::walk_plane`], O(area)).
//!
//! A cell's value spreads to the cells one move away when it is a target or may be crossed;
//! call such a cell open. A write that makes a cell a target, or open, and closes nothing
//! (no target lost, no open cell closed) can only shorten walks: the plane is repaired at the
//! next read by a breadth-first search from the cells so written, in order of their values,
//! which visits only the cells whose value drops (and their moves). Any other write can
//! lengthen walks anywhere: the plane is computed again at the next read, as in the core.
//! A pass whose rules write only targets of the estimator thus costs, over the whole pass,
//! O(area) plus the moves of the cells each write lowers: a cell is lowered at most as many
//! times as its first distance, so at worst the area times the longest walk (a serpentine
//! corridor filled in the direction it is walked), and a few cells per write where targets
//! are spread out. The pass is charged to the limit of
//! [`crate::distance::quadratic`] all the same.

use crate::distance::paths::{Walk, walk_plane};
use std::collections::VecDeque;

/// The walk plane of one estimator on one region, kept through the writes that lower it.
#[derive(Clone, Debug)]
pub struct LiveWalk {
    /// Distance of every local cell (`u32::MAX`: no target reached), as
    /// [`walk_plane`] gives it.
    plane: Vec<u32>,
    /// Which codes may be crossed.
    allowed: Vec<bool>,
    /// The walk's moves.
    offsets: Vec<(i64, i64)>,
    /// Local cells written open or into a target since the plane was repaired.
    opened: Vec<usize>,
    /// A write closed a cell: the plane must be computed again.
    stale: bool,
}

/// A region `(x, y, w, h)`, a map `(front, width)`, and which codes are targets.
pub type Where<'a> = ((usize, usize, usize, usize), (&'a [u8], usize), &'a [bool]);

impl LiveWalk {
    /// The plane of the map as it is, reusing `plane`'s buffer.
    pub fn new(
        at: Where,
        allowed: &[bool],
        offsets: &[(i64, i64)],
        mut plane: Vec<u32>,
    ) -> LiveWalk {
        compute(at, allowed, offsets, &mut plane);
        LiveWalk {
            plane,
            allowed: allowed.to_vec(),
            offsets: offsets.to_vec(),
            opened: Vec::new(),
            stale: false,
        }
    }

    /// The plane's buffer, to reuse.
    pub fn into_plane(self) -> Vec<u32> {
        self.plane
    }

    /// Records the write `old` -> `new` at local cell `i`.
    #[inline]
    pub fn record(&mut self, i: usize, old: u8, new: u8, targets: &[bool]) {
        if self.stale {
            return;
        }
        let (was, is) = (targets[old as usize], targets[new as usize]);
        let (was_open, is_open) = (
            was || self.allowed[old as usize],
            is || self.allowed[new as usize],
        );
        if (was && !is) || (was_open && !is_open) {
            self.stale = true;
            self.opened.clear();
        } else if (is && !was) || (is_open && !was_open) {
            self.opened.push(i);
        }
    }

    /// The distance at local cell `(x, y)` (`u32::MAX`: none), after bringing the plane up
    /// to date with the map.
    pub fn get(&mut self, at: Where, (x, y): (usize, usize)) -> u32 {
        if self.stale {
            compute(at, &self.allowed, &self.offsets, &mut self.plane);
            (self.stale, self.opened) = (false, Vec::new());
        } else if !self.opened.is_empty() {
            self.repair(at);
        }
        self.plane[y * at.0.2 + x]
    }

    /// Lowers the plane from the cells written open since it was last right: the cells
    /// opened, in order of their values, merged with the cells they lower.
    fn repair(&mut self, ((rx, ry, rw, rh), (front, w), targets): Where) {
        let code = |i: usize| front[(ry + i / rw) * w + rx + i % rw] as usize;
        let is_open = |i: usize| targets[code(i)] || self.allowed[code(i)];
        let mut sources = std::mem::take(&mut self.opened);
        for &i in &sources {
            if targets[code(i)] {
                self.plane[i] = 0;
            }
        }
        sources.retain(|&i| self.plane[i] != u32::MAX && is_open(i));
        sources.sort_unstable_by_key(|&i| (self.plane[i], i));
        sources.dedup();
        let mut sources = sources.into_iter().peekable();
        let mut queue: VecDeque<usize> = VecDeque::new();
        loop {
            // The next cell in order of value: a source or a lowered cell.
            let from_queue = match (sources.peek(), queue.front()) {
                (None, None) => break,
                (Some(&s), Some(&q)) => self.plane[q] < self.plane[s],
                (None, Some(_)) => true,
                (Some(_), None) => false,
            };
            let i = match from_queue {
                true => queue.pop_front(),
                false => sources.next(),
            }
            .expect("peeked");
            let next = self.plane[i] + 1;
            let (lx, ly) = ((i % rw) as i64, (i / rw) as i64);
            for &(dx, dy) in &self.offsets {
                // The cell `c` with `c + (dx, dy) = (lx, ly)`.
                let (cx, cy) = (lx - dx, ly - dy);
                if (dx, dy) == (0, 0) || cx < 0 || cy < 0 || cx >= rw as i64 || cy >= rh as i64 {
                    continue;
                }
                let c = cy as usize * rw + cx as usize;
                if self.plane[c] <= next {
                    continue;
                }
                self.plane[c] = next;
                if is_open(c) {
                    queue.push_back(c);
                }
            }
        }
    }
}

/// [`walk_plane`] of the region's map.
fn compute(
    (rect, (front, w), targets): Where,
    allowed: &[bool],
    offsets: &[(i64, i64)],
    plane: &mut Vec<u32>,
) {
    let is_target = |i: usize| targets[front[i] as usize];
    let may_cross = |i: usize| allowed[front[i] as usize];
    let walk = Walk {
        offsets,
        target: &is_target,
        allowed: &may_cross,
    };
    walk_plane(rect, w, &walk, plane);
}
