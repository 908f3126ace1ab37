//! Stages 1 to 3 of `turtle_connect`: the areas, the short corridors between neighbouring
//! areas, and a spanning tree of them.
//!
//! 1. Areas are the connected components of the region's cells holding `entities`, joined by
//!    the `directions` offsets made symmetric, numbered by their first cell in scan order
//!    (they are [`grid_core::components`] for the 4- and 8-neighbourhoods; here a flood fill
//!    over any offsets on the plane the search of stage 2 then fills, without a division or
//!    a bounds test per step, and it notes the cells where that search starts).
//! 2. One breadth-first search from every area cell next to a cell of no area, at once,
//!    over the whole region and the same offsets, gives each cell its nearest area (its
//!    owner) and the steps to it. Two neighbouring cells owned by two areas are a candidate
//!    corridor between them, as long as the steps from one area to the other through the
//!    pair.
//! 3. Kruskal keeps the shortest candidates that join two groups of areas not joined yet
//!    (equal lengths in a random order of the areas): a minimum spanning tree of the areas by
//!    corridor length. A corridor goes from the area cell nearest to one cell of the pair to
//!    the area cell nearest to the other. With probability 1/2 one candidate outside the tree
//!    adds a loop (the v0.3.0 tour ended with one loop back half of the time). Areas the
//!    search cannot reach (offsets that skip cells) are chained by corridors between their
//!    first cells, for the walker to approach as far as it can.
//!
//! Everything is linear in the region's area except the sort of the candidates (at most one
//! per pair of neighbouring cells); the corridors' total length has a budget of
//! [`BUDGET`] steps per region cell.

use crate::divider::shuffle;
use grid_core::rand::RngExt;
use grid_core::{LevelRng, Rect};
use std::collections::BTreeSet;

/// A corridor to dig, from a cell of one area to a cell of another (map coordinates).
pub type Corridor = ((i64, i64), (i64, i64));

/// Steps of corridor allowed per region cell (the corridors of a spanning tree of neighbouring
/// areas stay far below it; past it the remaining corridors are dropped with a warning).
pub const BUDGET: u64 = 4;

/// The cells of no area, or not reached by the search.
const NONE: u32 = u32::MAX;

/// The region of the map to connect.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The map's cells.
    pub cells: &'a [u8],
    /// The map's width.
    pub w: usize,
    /// The region.
    pub r: Rect,
}

/// What stage 3 chose.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    /// The corridors, in the order they are dug.
    pub corridors: Vec<Corridor>,
    /// How many areas there are.
    pub areas: usize,
    /// Corridors dropped past the [`BUDGET`].
    pub dropped: usize,
    /// The spanning tree's length: the steps of its candidates, summed.
    pub length: u64,
}

/// Sentinels of the owner plane (area numbers are below them).
const OPEN: u32 = u32::MAX - 2;
const PAD: u32 = u32::MAX - 1;

/// The region as a plane with a border of [`PAD`] cells as wide as the longest step, so that
/// a step is one addition to a cell's index (no bounds tests): the owner of every cell (its
/// area, [`OPEN`] for an area cell not numbered yet, [`NONE`]) and the steps to it.
struct Grid {
    /// Padded width, and the padding per side.
    pw: usize,
    px: usize,
    py: usize,
    rw: usize,
    rh: usize,
    /// The offsets as index steps (steps longer than the region, which can never land in it,
    /// are dropped).
    steps: Vec<isize>,
    owner: Vec<u32>,
    dist: Vec<u32>,
}

impl Grid {
    /// The plane of the region of `g` where the cells whose code is in `entities` belong to
    /// areas, for the symmetric offsets `adj`.
    fn new(adj: &[(i64, i64)], g: &View, entities: &[bool]) -> Grid {
        let (rw, rh) = (g.r.w as usize, g.r.h as usize);
        let adj: Vec<(i64, i64)> = adj
            .iter()
            .copied()
            .filter(|&(dx, dy)| dx.unsigned_abs() < rw as u64 && dy.unsigned_abs() < rh as u64)
            .collect();
        let px = adj.iter().map(|a| a.0.unsigned_abs()).max().unwrap_or(0) as usize;
        let py = adj.iter().map(|a| a.1.unsigned_abs()).max().unwrap_or(0) as usize;
        let pw = rw + 2 * px;
        let mut owner = vec![PAD; pw * (rh + 2 * py)];
        let code: Vec<u32> = entities
            .iter()
            .map(|&e| if e { OPEN } else { NONE })
            .collect();
        let first = g.r.y as usize * g.w + g.r.x as usize;
        for ly in 0..rh {
            let row = &mut owner[(ly + py) * pw + px..][..rw];
            let cells = &g.cells[first + ly * g.w..][..rw];
            for (o, &c) in row.iter_mut().zip(cells) {
                *o = code[c as usize];
            }
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
            dist: vec![0; owner.len()],
            owner,
        }
    }

    /// The padded indices of each row of the region, in scan order.
    fn rows(&self) -> impl Iterator<Item = std::ops::Range<usize>> + use<> {
        let (pw, px, py, rw) = (self.pw, self.px, self.py, self.rw);
        (0..self.rh).map(move |ly| (ly + py) * pw + px..(ly + py) * pw + px + rw)
    }

    /// The region-local `(x, y)` of padded index `i`.
    fn local(&self, i: usize) -> (usize, usize) {
        (i % self.pw - self.px, i / self.pw - self.py)
    }

    /// Stage 1: numbers the areas (flood fills with an explicit stack, in the scan order of
    /// their first cells); returns the first cell of each and the area cells next to a cell
    /// of no area (where the search of stage 2 starts).
    fn areas(&mut self) -> (Vec<usize>, Vec<u32>) {
        let (mut firsts, mut edge, mut stack) = (Vec::new(), Vec::new(), Vec::new());
        for row in self.rows() {
            for start in row {
                if self.owner[start] != OPEN {
                    continue;
                }
                let k = firsts.len() as u32;
                firsts.push(start);
                self.fill(start, k, &mut stack, &mut edge);
            }
        }
        (firsts, edge)
    }

    /// Numbers the area of `start` as `k` (a flood fill with the explicit `stack`), noting its
    /// cells next to a cell of no area in `edge`.
    fn fill(&mut self, start: usize, k: u32, stack: &mut Vec<usize>, edge: &mut Vec<u32>) {
        self.owner[start] = k;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let mut next_to_none = false;
            for &d in &self.steps {
                let j = i.wrapping_add_signed(d);
                match self.owner[j] {
                    OPEN => {
                        self.owner[j] = k;
                        stack.push(j);
                    }
                    NONE => next_to_none = true,
                    _ => {}
                }
            }
            if next_to_none {
                edge.push(i as u32);
            }
        }
    }

    /// Stage 2: one breadth-first search from the area cells `layer` gives every cell it
    /// reaches its nearest area and the steps to it.
    fn nearest(&mut self, mut layer: Vec<u32>) {
        let mut next = Vec::new();
        // Each cell joins one layer: at most one layer per cell.
        for d in 1..=self.owner.len() as u32 {
            if layer.is_empty() {
                break;
            }
            next.clear();
            for &i in &layer {
                let a = self.owner[i as usize];
                for &s in &self.steps {
                    let j = (i as usize).wrapping_add_signed(s);
                    if self.owner[j] == NONE {
                        self.owner[j] = a;
                        self.dist[j] = d;
                        next.push(j as u32);
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next);
        }
    }

    /// The area cell nearest to `i` (following the steps down within its owner's cells).
    fn source(&self, mut i: usize) -> usize {
        // Bounded: every step is one closer to the area.
        for _ in 0..self.dist[i] {
            let Some(j) = self.steps.iter().find_map(|&s| {
                let j = i.wrapping_add_signed(s);
                (self.owner[j] == self.owner[i] && self.dist[j] + 1 == self.dist[i]).then_some(j)
            }) else {
                break;
            };
            i = j;
        }
        i
    }
}

/// Union-find root with path halving (iterative).
fn root(up: &mut [u32], mut a: u32) -> u32 {
    while up[a as usize] != a {
        up[a as usize] = up[up[a as usize] as usize];
        a = up[a as usize];
    }
    a
}

/// A candidate corridor: its length, the two areas' places in the random order (smaller
/// first), and the pair of cells (region-local).
type Candidate = (u32, u32, u32, u32, u32);

/// Stages 1 to 3 on the region of `g`: the corridors joining the areas of the cells whose
/// code is in `entities`, along the symmetric offsets `adj`.
pub fn plan(adj: &[(i64, i64)], entities: &[bool], g: View, rng: &mut LevelRng) -> Plan {
    let (rw, rh) = (g.r.w as usize, g.r.h as usize);
    let mut grid = Grid::new(adj, &g, entities);
    let (firsts, edge) = grid.areas();
    let k = firsts.len();
    let mut plan = Plan {
        areas: k,
        ..Plan::default()
    };
    if k < 2 {
        return plan;
    }
    grid.nearest(edge);
    // A random order of the areas breaks ties between corridors of the same length.
    let mut place: Vec<u32> = (0..k as u32).collect();
    shuffle(&mut place, rng);
    let mut cands = candidates(&grid, k, &place);
    cands.sort_unstable();
    let (tree, mut up) = kruskal(&cands, &grid.owner, k);
    let owner = &grid.owner;
    let global = |i: usize| {
        let (x, y) = grid.local(i);
        (g.r.x + x as i64, g.r.y + y as i64)
    };
    let corridor = |i: u32, j: u32| {
        let (s, t) = (grid.source(i as usize), grid.source(j as usize));
        (global(s), global(t))
    };
    plan.length = tree.iter().map(|t| u64::from(t.0)).sum();
    let mut corridors: Vec<Corridor> = tree.iter().map(|&(_, i, j)| corridor(i, j)).collect();
    if rng.random::<f64>() < 0.5
        && let Some((i, j)) = loop_candidate(&cands, &tree, owner, rng)
    {
        corridors.push(corridor(i, j));
    }
    // Groups the search did not join: a chain from the first area of each to the next.
    let mut last: Option<u32> = None;
    for a in 0..k as u32 {
        let ra = root(&mut up, a);
        if let Some(p) = last {
            let rp = root(&mut up, p);
            if rp != ra {
                corridors.push((global(firsts[p as usize]), global(firsts[a as usize])));
                up[rp as usize] = ra;
            }
        }
        last = Some(a);
    }
    // The budget: corridors are walked in at most their Manhattan length.
    let budget = BUDGET * (rw * rh) as u64 + (rw + rh) as u64;
    let mut spent = 0;
    let kept = corridors
        .iter()
        .take_while(|&&(a, b)| {
            spent += super::manhattan(a, b);
            spent <= budget
        })
        .count();
    plan.dropped = corridors.len() - kept;
    corridors.truncate(kept);
    plan.corridors = corridors;
    plan
}

/// Kruskal over the sorted `cands`: the tree's candidates `(length, cell, cell)` and the
/// union-find of the `k` areas.
fn kruskal(cands: &[Candidate], owner: &[u32], k: usize) -> (Vec<(u32, u32, u32)>, Vec<u32>) {
    let mut up: Vec<u32> = (0..k as u32).collect();
    let mut tree = Vec::with_capacity(k - 1);
    for &(len, _, _, i, j) in cands {
        let (ra, rb) = (
            root(&mut up, owner[i as usize]),
            root(&mut up, owner[j as usize]),
        );
        if ra != rb {
            up[ra as usize] = rb;
            tree.push((len, i, j));
            if tree.len() == k - 1 {
                break;
            }
        }
    }
    (tree, up)
}

/// Every pair of neighbouring cells (seen from the lower index) owned by two of the `k`
/// areas, but those with a pair of areas and a length of a candidate already listed (that one
/// comes first in the sorted order, which is all Kruskal needs of a pair: a small cache of
/// the last candidate per pair drops most of them).
fn candidates(grid: &Grid, k: usize, place: &[u32]) -> Vec<Candidate> {
    let forward: Vec<isize> = grid.steps.iter().copied().filter(|&s| s > 0).collect();
    let (owner, dist) = (&grid.owner, &grid.dist);
    let mut out = Vec::new();
    let mut recent = [(u64::MAX, 0u32); 64];
    for row in grid.rows() {
        for i in row {
            let a = owner[i];
            for &s in &forward {
                let j = i.wrapping_add_signed(s);
                let b = owner[j];
                // One branch, rarely taken (`&` on the three tests, not `&&`).
                if !((a != b) & ((a as usize) < k) & ((b as usize) < k)) {
                    continue;
                }
                let (pa, pb) = (place[a as usize], place[b as usize]);
                let (lo, hi) = (pa.min(pb), pa.max(pb));
                let len = dist[i] + dist[j] + 1;
                let pair = u64::from(lo) << 32 | u64::from(hi);
                let slot = &mut recent[(lo ^ hi.wrapping_mul(0x9e37_79b9)) as usize % 64];
                if slot.0 == pair && slot.1 <= len {
                    continue;
                }
                *slot = (pair, len);
                out.push((len, lo, hi, i as u32, j as u32));
            }
        }
    }
    out
}

/// The shortest candidate of a random pair of areas (the pair of a random candidate, or of
/// the next in order) that the tree does not join directly, if any.
fn loop_candidate(
    cands: &[Candidate],
    tree: &[(u32, u32, u32)],
    owner: &[u32],
    rng: &mut LevelRng,
) -> Option<(u32, u32)> {
    if cands.is_empty() {
        return None;
    }
    // The pair of areas of two cells, smaller first.
    let areas = |i: u32, j: u32| {
        let (a, b) = (owner[i as usize], owner[j as usize]);
        (a.min(b), a.max(b))
    };
    let joined: BTreeSet<(u32, u32)> = tree.iter().map(|&(_, i, j)| areas(i, j)).collect();
    let start = rng.random_range(0..cands.len());
    let picked = (0..cands.len())
        .map(|n| &cands[(start + n) % cands.len()])
        .find(|c| !joined.contains(&areas(c.3, c.4)))?;
    // The candidates are sorted by length first: the pair's first is its shortest.
    let best = cands.iter().find(|c| (c.1, c.2) == (picked.1, picked.2))?;
    Some((best.3, best.4))
}

#[cfg(test)]
mod tests;
