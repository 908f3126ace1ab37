//! The plane stages 1 and 2 work on, and their plain form: the union-find labelling of the
//! areas and the breadth-first search from every area at once.

use super::View;
use std::cell::Cell;

/// The cells of no area, or not reached by the search (the owner half of a key).
pub const NONE: u32 = u32::MAX;
/// The owner half of the key of a padding cell.
pub const PAD: u32 = u32::MAX - 1;
/// The owner half of the key of an area cell not numbered yet (area numbers are below it).
pub const OPEN: u32 = u32::MAX - 2;

/// A cell's key: the steps to its owner in the high half, the owner in the low half, so that
/// the smaller key is the nearer area (equal steps: the smaller area number).
pub type Key = u64;
/// One step more in a key.
pub const STEP: Key = 1 << 32;
/// The steps half of the keys of sentinels: above every real distance (a region's side is
/// below 2^15), with room for more steps than a raster pass adds to a sentinel (at most the
/// region's width and height, below 2^15 each, per pass), so that no sum overflows.
pub const FAR: Key = 1 << 63;

/// The key of an area cell `dist` steps away from area `owner`, or of a sentinel `owner`
/// ([`NONE`], [`PAD`], [`OPEN`]: above every real key).
pub fn key_of(owner: u32, dist: u32) -> Key {
    if owner >= OPEN {
        FAR | Key::from(owner)
    } else {
        Key::from(dist) << 32 | Key::from(owner)
    }
}

/// The buffers of a plan, kept per thread for the next (no allocation per map).
#[derive(Default)]
pub struct Scratch {
    /// The padded plane of keys.
    keys: Vec<Key>,
    /// Stage 1's union-find of provisional areas, and the first cell of each.
    pub up: Vec<u32>,
    pub starts: Vec<usize>,
    /// Stage 2's neighbouring cells `(i, j)` of two owners (`j` after `i` in scan order).
    pub pairs: Vec<(u32, u32)>,
    /// Stage 3's candidates, shortest first.
    pub cands: Vec<super::Candidate>,
}

thread_local! {
    /// The buffers of the last plan on this thread.
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// The region as a plane of keys with a border of [`PAD`] cells as wide as the longest step
/// (at least one), so that a step is one addition to a cell's index (no bounds tests): each
/// cell's owner (its area, [`NONE`], or [`OPEN`] while stage 1 runs) and the steps to it.
pub struct Grid {
    /// Padded width, and the padding per side.
    pub pw: usize,
    pub px: usize,
    pub py: usize,
    /// The region's width and height.
    pub rw: usize,
    pub rh: usize,
    /// The offsets as index steps (steps longer than the region, which can never land in it,
    /// are dropped).
    pub steps: Vec<isize>,
    /// The plane.
    pub keys: Vec<Key>,
    /// The other buffers, handed back with the keys when the grid is dropped.
    pub scratch: Box<Scratch>,
}

impl Drop for Grid {
    fn drop(&mut self) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.keys = std::mem::take(&mut self.keys);
        SCRATCH.set(Some(scratch));
    }
}

impl Grid {
    /// The plane of the region of `g` for the symmetric offsets `adj`: its border written,
    /// its cells left for stage 1.
    pub fn new(adj: &[(i64, i64)], g: &View) -> Grid {
        let (rw, rh) = (g.r.w as usize, g.r.h as usize);
        let adj: Vec<(i64, i64)> = adj
            .iter()
            .copied()
            .filter(|&(dx, dy)| dx.unsigned_abs() < rw as u64 && dy.unsigned_abs() < rh as u64)
            .collect();
        // The padding: the longest step along each axis, at least one.
        let pad = |side: fn(&(i64, i64)) -> i64| {
            adj.iter()
                .map(|a| side(a).unsigned_abs())
                .max()
                .unwrap_or(0)
                .max(1) as usize
        };
        let (px, py) = (pad(|a| a.0), pad(|a| a.1));
        let pw = rw + 2 * px;
        let mut scratch = SCRATCH.take().unwrap_or_default();
        let mut keys = std::mem::take(&mut scratch.keys);
        let pad = key_of(PAD, 0);
        keys.resize(pw * (rh + 2 * py), pad);
        keys[..py * pw + px].fill(pad);
        keys[(py + rh) * pw - px..].fill(pad);
        for ly in 1..rh {
            keys[(ly + py) * pw - px..][..2 * px].fill(pad);
        }
        let steps = adj
            .iter()
            .map(|&(dx, dy)| dy as isize * pw as isize + dx as isize)
            .collect();
        Grid {
            pw,
            px,
            py,
            rw,
            rh,
            steps,
            keys,
            scratch,
        }
    }

    /// The owner of padded cell `i`.
    pub fn owner(&self, i: usize) -> u32 {
        self.keys[i] as u32
    }

    /// The steps from padded cell `i` to its owner.
    pub fn dist(&self, i: usize) -> u32 {
        (self.keys[i] >> 32) as u32
    }

    /// The padded indices of each row of the region, in scan order.
    pub fn rows(&self) -> impl Iterator<Item = std::ops::Range<usize>> + use<> {
        let (pw, px, py, rw) = (self.pw, self.px, self.py, self.rw);
        (0..self.rh).map(move |ly| (ly + py) * pw + px..(ly + py) * pw + px + rw)
    }

    /// The region-local `(x, y)` of padded index `i`.
    pub fn local(&self, i: usize) -> (usize, usize) {
        (i % self.pw - self.px, i / self.pw - self.py)
    }

    /// Stage 1: each cell of the region whose code is in `entities` gets its area's number,
    /// the areas numbered in the scan order of their first cells; returns the first cell of
    /// each area.
    pub fn areas(&mut self, g: &View, entities: &[bool]) -> Vec<usize> {
        let mut up = std::mem::take(&mut self.scratch.up);
        let mut starts = std::mem::take(&mut self.scratch.starts);
        up.clear();
        starts.clear();
        self.label(g, entities, &mut up, &mut starts);
        let (firsts, number) = numbering(&mut up, &starts);
        (self.scratch.up, self.scratch.starts) = (up, starts);
        for i in self.rows().flatten() {
            let lab = self.owner(i);
            if lab < OPEN {
                self.keys[i] = Key::from(number[lab as usize]);
            }
        }
        firsts
    }

    /// Stage 1's pass, in scan order: a cell of no area gets the key of none; an area cell
    /// joins the provisional areas of its earlier neighbours (union-find `up`), or opens one
    /// whose first cell goes in `starts`, and holds it.
    fn label(&mut self, g: &View, entities: &[bool], up: &mut Vec<u32>, starts: &mut Vec<usize>) {
        let back: Vec<isize> = self.steps.iter().copied().filter(|&s| s < 0).collect();
        let first = g.r.y as usize * g.w + g.r.x as usize;
        let rows: Vec<_> = self.rows().collect();
        for (ly, row) in rows.into_iter().enumerate() {
            let cells = &g.cells[first + ly * g.w..][..self.rw];
            for (i, &c) in row.zip(cells) {
                if !entities.get(c as usize).copied().unwrap_or(false) {
                    self.keys[i] = key_of(NONE, 0);
                    continue;
                }
                let mut lab = NONE;
                for &s in &back {
                    lab = join(lab, self.owner(i.wrapping_add_signed(s)), up);
                }
                if lab == NONE {
                    lab = up.len() as u32;
                    up.push(lab);
                    starts.push(i);
                }
                self.keys[i] = Key::from(lab);
            }
        }
    }

    /// Stage 2: every cell's owner, the nearest area (of equal distances the lowest
    /// number), and the steps to it, by one breadth-first search from every area at once;
    /// then the neighbouring cells of two owners into the scratch's `pairs`.
    pub fn nearest(&mut self) {
        self.search();
        let mut pairs = std::mem::take(&mut self.scratch.pairs);
        pairs.clear();
        self.borders(&mut pairs);
        self.scratch.pairs = pairs;
    }

    /// The breadth-first search, a layer per step: the cells `d` steps from the nearest area
    /// are reached from those `d - 1` steps away, each owned by the lowest area that reaches
    /// it in its layer. It starts from the area cells next to a cell of no area (the others
    /// reach none first).
    fn search(&mut self) {
        let none = key_of(NONE, 0);
        let mut layer: Vec<usize> = self
            .rows()
            .flatten()
            .filter(|&i| {
                self.owner(i) < OPEN
                    && self
                        .steps
                        .iter()
                        .any(|&s| self.keys[i.wrapping_add_signed(s)] == none)
            })
            .collect();
        let mut next = Vec::new();
        // Each cell joins one layer: at most one layer per cell.
        for d in 1..=self.keys.len() as u32 {
            if layer.is_empty() {
                break;
            }
            next.clear();
            for &i in &layer {
                let k = key_of(self.owner(i), d);
                for &s in &self.steps {
                    let j = i.wrapping_add_signed(s);
                    let kj = self.keys[j];
                    if kj == none {
                        self.keys[j] = k;
                        next.push(j);
                    } else if kj >> 32 == Key::from(d) && k < kj {
                        // Reached in this layer before, by a higher area.
                        self.keys[j] = k;
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next);
        }
    }

    /// The neighbouring cells of two owners, seen from the earlier, in scan order.
    pub fn borders(&self, pairs: &mut Vec<(u32, u32)>) {
        let forward: Vec<isize> = self.steps.iter().copied().filter(|&s| s > 0).collect();
        for i in self.rows().flatten() {
            for &s in &forward {
                let j = i + s as usize;
                let (a, b) = (self.owner(i), self.owner(j));
                if a != b && a < OPEN && b < OPEN {
                    pairs.push((i as u32, j as u32));
                }
            }
        }
    }

    /// The area cell nearest to `i` (following the steps, in their order, down within its
    /// owner's cells).
    pub fn source(&self, mut i: usize) -> usize {
        // Bounded: every step is one closer to the area.
        for _ in 0..self.dist(i) {
            let Some(j) = self.steps.iter().find_map(|&s| {
                let j = i.wrapping_add_signed(s);
                (self.keys[j] + STEP == self.keys[i]).then_some(j)
            }) else {
                break;
            };
            i = j;
        }
        i
    }
}

/// The areas of stage 1's provisional areas (union-find `up`, first cells `starts`): the
/// first cell of each area, and each provisional area's number (the roots in order are the
/// areas in the order of their first cells).
pub fn numbering(up: &mut [u32], starts: &[usize]) -> (Vec<usize>, Vec<u32>) {
    let mut firsts = Vec::new();
    let mut number = vec![0u32; up.len()];
    for p in 0..up.len() {
        let r = root(up, p as u32) as usize;
        if r == p {
            number[p] = firsts.len() as u32;
            firsts.push(starts[p]);
        } else {
            number[p] = number[r];
        }
    }
    (firsts, number)
}

/// The provisional area of a cell that was in `lab` ([`NONE`] for none yet) and has a
/// neighbour of owner `b`: `lab` if `b` is no area or the same, else the union (union-find
/// `up`; the lower root stays the root, so that roots are the areas' first cells' areas).
#[inline(always)]
pub fn join(lab: u32, b: u32, up: &mut [u32]) -> u32 {
    if b >= OPEN || b == lab {
        return lab;
    }
    if lab == NONE {
        return b;
    }
    let (ra, rb) = (root(up, lab), root(up, b));
    let (lo, hi) = (ra.min(rb), ra.max(rb));
    up[hi as usize] = lo;
    lo
}

/// Union-find root with path halving (iterative).
pub fn root(up: &mut [u32], mut a: u32) -> u32 {
    while up[a as usize] != a {
        up[a as usize] = up[up[a as usize] as usize];
        a = up[a as usize];
    }
    a
}
