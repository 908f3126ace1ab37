//! Stages 1 to 3 of `turtle_connect`: the areas, the short corridors between neighbouring
//! areas, and a spanning tree of them.
//!
//! 1. Areas are the connected components of the region's cells holding `entities`, joined by
//!    the `directions` offsets made symmetric, numbered by their first cell in scan order
//!    (they are [`grid_core::components`] for the 4- and 8-neighbourhoods; here a union-find
//!    labelling over any offsets, on the plane stage 2 then fills, without a division or a
//!    bounds test per step: one pass gives each area cell a provisional area, and the first
//!    pass of stage 2 maps it to its area's number as it goes).
//! 2. Each cell's nearest area (its owner; of equal distances, the lowest number) and the
//!    steps to it: for the 4 unit steps and the 8 steps of the 3x3 square, a two-pass raster
//!    distance transform (city-block, chessboard) of keys that hold the steps above the
//!    owner, so that one `min` compares both; for other offsets, one breadth-first search
//!    from every area cell next to a cell of no area, at once (ties: the first to arrive).
//!    Two neighbouring cells owned by two areas are a candidate corridor between them, as
//!    long as the steps from one area to the other through the pair.
//! 3. Of each pair of neighbouring areas only the shortest candidate counts (of equal ones the
//!    first in scan order). Kruskal keeps the shortest that join two groups of areas not
//!    joined yet (equal lengths in a random order of the areas): a minimum spanning tree of
//!    the areas by corridor length. A corridor goes from the area cell nearest to one cell of
//!    the pair to the area cell nearest to the other. With probability 1/2 one more candidate
//!    adds a loop: from a random one in that order, the first whose pair of areas the tree
//!    does not join (the v0.3.0 tour ended with one loop back half of the time). Areas the search cannot reach (offsets
//!    that skip cells) are chained by corridors between their first cells, for the walker to
//!    approach as far as it can.
//!
//! Everything is linear in the region's area except the sort of the candidates (one per pair
//! of neighbouring areas); the corridors' total length has a budget of [`BUDGET`] steps per
//! region cell. The buffers are kept per thread from one plan to the next.

use crate::divider::shuffle;
use best::Best;
use grid_core::rand::RngExt;
use grid_core::{LevelRng, Rect};
use raster::{Row, backward, forward, label_row};
use std::cell::Cell;

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

/// Sentinels of the owner half of a key (area numbers are below them).
const OPEN: u32 = u32::MAX - 2;
const PAD: u32 = u32::MAX - 1;

/// A cell's key: the steps to its owner in the high half, the owner in the low half, so that
/// the smaller key is the nearer area (equal steps: the smaller area number).
type Key = u64;
/// One step more in a key.
const STEP: Key = 1 << 32;
/// The steps half of the keys of sentinels: above every real distance (a region's side is
/// below 2^15), with room for more steps than the passes add to a sentinel (at most the region's
/// width and height, below 2^15 each, per pass), so that no sum overflows.
const FAR: Key = 1 << 63;

/// The key of an area cell, or of a sentinel `owner` (which compares above every area cell's).
fn key_of(owner: u32, dist: u32) -> Key {
    if owner >= OPEN || owner == NONE {
        FAR | Key::from(owner)
    } else {
        Key::from(dist) << 32 | Key::from(owner)
    }
}

/// The buffers of a plan, kept per thread for the next (no allocation per map).
#[derive(Default)]
struct Scratch {
    /// The padded plane of keys.
    keys: Vec<Key>,
    /// Stage 1's union-find of provisional areas, and the first cell of each.
    up: Vec<u32>,
    starts: Vec<usize>,
    /// Stage 2's neighbouring cells of two owners.
    pairs: Vec<(u32, u32)>,
    /// Stage 3's best candidate per pair of areas, and them sorted.
    best: Best,
    cands: Vec<Candidate>,
}

thread_local! {
    /// The buffers of the last plan on this thread.
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// The region as a plane with a border of [`PAD`] cells as wide as the longest step, so that
/// a step is one addition to a cell's index (no bounds tests): the key of every cell (its
/// owner: its area, [`OPEN`] for an area cell not numbered yet, [`NONE`]; and the steps to
/// it).
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
    /// The offsets are the 4 unit steps (`Some(false)`) or the 8 steps of the 3x3 square
    /// (`Some(true)`): the search of stage 2 is a raster distance transform.
    raster: Option<bool>,
    keys: Vec<Key>,
    /// The other buffers, handed back with the keys when the grid is dropped.
    scratch: Box<Scratch>,
}

impl Drop for Grid {
    fn drop(&mut self) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.keys = std::mem::take(&mut self.keys);
        SCRATCH.set(Some(scratch));
    }
}

impl Grid {
    /// The plane of the region of `g` where the cells whose code is in `entities` belong to
    /// areas, for the symmetric offsets `adj` (the region's cells are written by
    /// [`Grid::areas`]).
    fn new(adj: &[(i64, i64)], g: &View) -> Grid {
        let (rw, rh) = (g.r.w as usize, g.r.h as usize);
        let adj: Vec<(i64, i64)> = adj
            .iter()
            .copied()
            .filter(|&(dx, dy)| dx.unsigned_abs() < rw as u64 && dy.unsigned_abs() < rh as u64)
            .collect();
        let px = adj.iter().map(|a| a.0.unsigned_abs()).max().unwrap_or(0) as usize;
        let py = adj.iter().map(|a| a.1.unsigned_abs()).max().unwrap_or(0) as usize;
        let pw = rw + 2 * px;
        let mut scratch = SCRATCH.take().unwrap_or_default();
        let mut keys = std::mem::take(&mut scratch.keys);
        let pad = key_of(PAD, 0);
        keys.resize(pw * (rh + 2 * py), pad);
        // The border (stage 1 writes the region's rows).
        keys[..py * pw + px].fill(pad);
        keys[(py + rh) * pw - px..].fill(pad);
        for ly in 1..rh {
            keys[(ly + py) * pw - px..][..2 * px].fill(pad);
        }
        let steps = adj
            .iter()
            .map(|&(dx, dy)| dy as isize * pw as isize + dx as isize)
            .collect();
        let unit = |o: &(i64, i64)| o.0.abs() <= 1 && o.1.abs() <= 1;
        let raster = match adj.len() {
            4 if adj.iter().all(|o| unit(o) && (o.0 == 0 || o.1 == 0)) => Some(false),
            8 if adj.iter().all(unit) => Some(true),
            _ => None,
        };
        Grid {
            pw,
            px,
            py,
            rw,
            rh,
            steps,
            raster,
            keys,
            scratch,
        }
    }

    /// The owner of padded cell `i`.
    fn owner(&self, i: usize) -> u32 {
        self.keys[i] as u32
    }

    /// The steps from padded cell `i` to its owner.
    fn dist(&self, i: usize) -> u32 {
        (self.keys[i] >> 32) as u32
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

    /// Stage 1: numbers the areas in the scan order of their first cells (a union-find
    /// labelling: each area cell joins its earlier neighbours' provisional areas); returns
    /// the first cell of each and what stage 2 starts from.
    fn areas(&mut self, g: &View, entities: &[bool]) -> Areas {
        let mut up = std::mem::take(&mut self.scratch.up);
        let mut starts = std::mem::take(&mut self.scratch.starts);
        up.clear();
        starts.clear();
        self.label(g, entities, &mut up, &mut starts);
        // Roots in order are the areas in the order of their first cells.
        let mut firsts = Vec::new();
        let mut number = vec![0u32; up.len()];
        for p in 0..up.len() {
            let r = root(&mut up, p as u32) as usize;
            if r == p {
                number[p] = firsts.len() as u32;
                firsts.push(starts[p]);
            } else {
                number[p] = number[r];
            }
        }
        (self.scratch.up, self.scratch.starts) = (up, starts);
        let start = match self.raster {
            // The forward pass maps each provisional area to its area's key as it goes.
            Some(_) => Start::Table(number.iter().map(|&n| key_of(n, 0)).collect()),
            None => Start::Layer(self.number(&number)),
        };
        Areas { firsts, start }
    }

    /// Stage 1's pass: each area cell of the region gets a provisional area (its earlier
    /// neighbours' joined in `up`, or a new one whose first cell goes in `starts`), each
    /// other cell the key of none.
    fn label(&mut self, g: &View, entities: &[bool], up: &mut Vec<u32>, starts: &mut Vec<usize>) {
        let back: Vec<isize> = self.steps.iter().copied().filter(|&s| s < 0).collect();
        let open = key_of(OPEN, 0);
        let mut area = [false; 256];
        for (a, &e) in area.iter_mut().zip(entities) {
            *a = e;
        }
        let first = g.r.y as usize * g.w + g.r.x as usize;
        let (pw, rw) = (self.pw, self.rw);
        let rows: Vec<_> = self.rows().collect();
        let keys = &mut self.keys[..];
        for (ly, row) in rows.into_iter().enumerate() {
            let cells = &g.cells[first + ly * g.w..][..rw];
            if let Some(diagonal) = self.raster {
                let (above, cur) = keys.split_at_mut(row.start);
                let near = &above[row.start - pw - 1..][..rw + 2];
                let (cur, at) = (&mut cur[..rw], row.start);
                let mut labels = raster::Labels {
                    up,
                    starts,
                    area: &area,
                };
                if diagonal {
                    label_row::<true>(cur, cells, near, at, &mut labels);
                } else {
                    label_row::<false>(cur, cells, near, at, &mut labels);
                }
                continue;
            }
            for (o, &c) in keys[row.clone()].iter_mut().zip(cells) {
                *o = key_of(if area[c as usize] { OPEN } else { NONE }, 0);
            }
            for i in row {
                if keys[i] != open {
                    continue;
                }
                let mut lab = NONE;
                for &s in &back {
                    lab = join(lab, keys[i.wrapping_add_signed(s)] as u32, up);
                }
                if lab == NONE {
                    lab = up.len() as u32;
                    up.push(lab);
                    starts.push(i);
                }
                keys[i] = Key::from(lab);
            }
        }
    }

    /// Gives each area cell its area's `number` (for the breadth-first search); returns the
    /// area cells next to a cell of no area, where the search starts.
    fn number(&mut self, number: &[u32]) -> Vec<u32> {
        let mut edge = Vec::new();
        let none = key_of(NONE, 0);
        let rows: Vec<_> = self.rows().collect();
        let keys = &mut self.keys[..];
        for i in rows.into_iter().flatten() {
            let o = keys[i] as u32;
            if o >= OPEN {
                continue;
            }
            keys[i] = Key::from(number[o as usize]);
            if self
                .steps
                .iter()
                .any(|&s| keys[i.wrapping_add_signed(s)] == none)
            {
                edge.push(i as u32);
            }
        }
        edge
    }

    /// Stage 2: every cell's nearest area and the steps to it: a raster distance transform
    /// for the 4 and 8 unit steps, else one breadth-first search. Notes in the scratch's
    /// `pairs` the neighbouring cells `(i, j)` (`j` after `i` in scan order) of two owners.
    fn nearest(&mut self, start: Start) {
        let mut pairs = std::mem::take(&mut self.scratch.pairs);
        pairs.clear();
        match (self.raster, start) {
            (Some(diagonal), Start::Table(table)) => self.transform(diagonal, &table, &mut pairs),
            (_, Start::Layer(layer)) => {
                self.search(layer);
                self.borders(&mut pairs);
            }
            (None, Start::Table(_)) => unreachable!("a table is made for the raster only"),
        }
        self.scratch.pairs = pairs;
    }

    /// The two-pass raster distance transform of the keys (city-block for the 4 unit steps,
    /// chessboard with `diagonal`): forward, each cell takes the least of its key (mapped
    /// from its provisional area by `table`) and its earlier neighbours' plus a [`STEP`];
    /// then backward with its later neighbours. Exact: from every area cell a shortest path
    /// to any cell goes first along the steps of one pass, then of the other, and a key only
    /// ever falls to a real one. A cell's key is final once the backward pass has been
    /// there, so that pass also notes the borders in `pairs`.
    fn transform(&mut self, diagonal: bool, table: &[Key], pairs: &mut Vec<(u32, u32)>) {
        let (pw, rw) = (self.pw, self.rw);
        let starts: Vec<usize> = self.rows().map(|r| r.start).collect();
        let keys = &mut self.keys[..];
        for &s in &starts {
            let (above, cur) = keys.split_at_mut(s);
            let near = &above[s - pw - 1..][..rw + 2];
            if diagonal {
                forward::<true>(&mut cur[..rw], near, above[s - 1], table);
            } else {
                forward::<false>(&mut cur[..rw], near, above[s - 1], table);
            }
        }
        for &s in starts.iter().rev() {
            let (cur, below) = keys.split_at_mut(s + rw);
            let near = &below[pw - rw - 1..][..rw + 2];
            let row = Row { at: s, pw };
            if diagonal {
                backward::<true>(&mut cur[s..], near, below[0], row, pairs);
            } else {
                backward::<false>(&mut cur[s..], near, below[0], row, pairs);
            }
        }
    }

    /// The neighbouring cells of two owners, seen from the earlier (any offsets).
    fn borders(&self, pairs: &mut Vec<(u32, u32)>) {
        let forward: Vec<isize> = self.steps.iter().copied().filter(|&s| s > 0).collect();
        let keys = &self.keys;
        for row in self.rows() {
            for &s in &forward {
                let near = &keys[row.start + s as usize..row.end + s as usize];
                for (n, (&ki, &kj)) in keys[row.clone()].iter().zip(near).enumerate() {
                    let (a, b) = (ki as u32, kj as u32);
                    if (a != b) & (a < OPEN) & (b < OPEN) {
                        let i = row.start + n;
                        pairs.push((i as u32, (i + s as usize) as u32));
                    }
                }
            }
        }
    }

    /// Stage 3's candidates: the best of each pair of areas among the `pairs` of cells, the
    /// areas by their `place` in a random order; shortest first, into the scratch's `cands`.
    fn candidates(&mut self, k: usize, place: &[u32]) {
        let Scratch {
            pairs, best, cands, ..
        } = &mut *self.scratch;
        // Neighbouring areas of a plane: about three pairs per area.
        best.clear(3 * k);
        for &(i, j) in pairs.iter() {
            let (a, b) = (self.keys[i as usize] as u32, self.keys[j as usize] as u32);
            debug_assert!(a != b && (a as usize) < k && (b as usize) < k);
            let (pa, pb) = (place[a as usize], place[b as usize]);
            let len =
                (self.keys[i as usize] >> 32) as u32 + (self.keys[j as usize] >> 32) as u32 + 1;
            best.offer((len, pa.min(pb), pa.max(pb), i, j));
        }
        best.sorted(cands);
    }

    /// The breadth-first search from the area cells `layer` (any offsets).
    fn search(&mut self, mut layer: Vec<u32>) {
        let mut next = Vec::new();
        // Each cell joins one layer: at most one layer per cell.
        for d in 1..=self.keys.len() as u32 {
            if layer.is_empty() {
                break;
            }
            next.clear();
            for &i in &layer {
                let a = self.owner(i as usize);
                for &s in &self.steps {
                    let j = (i as usize).wrapping_add_signed(s);
                    if self.owner(j) == NONE {
                        self.keys[j] = key_of(a, d);
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

/// The provisional area of a cell that was in `lab` ([`NONE`] for none yet) and has a
/// neighbour of owner `b`: `lab` if `b` is no area or the same, else the union (union-find
/// `up`; the lower root stays the root, so that roots are the areas' first cells' areas).
#[inline(always)]
fn join(lab: u32, b: u32, up: &mut [u32]) -> u32 {
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
fn root(up: &mut [u32], mut a: u32) -> u32 {
    while up[a as usize] != a {
        up[a as usize] = up[up[a as usize] as usize];
        a = up[a as usize];
    }
    a
}

/// A candidate corridor: its length, the two areas' places in the random order (smaller
/// first), and the pair of cells (padded indices, the earlier first).
type Candidate = (u32, u32, u32, u32, u32);

/// What stage 1 found: the first cell of each area, and where stage 2 starts.
struct Areas {
    firsts: Vec<usize>,
    start: Start,
}

/// Where stage 2 starts.
enum Start {
    /// The raster transform: the key of each provisional area.
    Table(Vec<Key>),
    /// The breadth-first search: the area cells next to a cell of no area.
    Layer(Vec<u32>),
}

/// Stages 1 to 3 on the region of `g`: the corridors joining the areas of the cells whose
/// code is in `entities`, along the symmetric offsets `adj`.
pub fn plan(adj: &[(i64, i64)], entities: &[bool], g: View, rng: &mut LevelRng) -> Plan {
    let (rw, rh) = (g.r.w as usize, g.r.h as usize);
    let mut grid = Grid::new(adj, &g);
    let Areas { firsts, start } = grid.areas(&g, entities);
    let k = firsts.len();
    let mut plan = Plan {
        areas: k,
        ..Plan::default()
    };
    if k < 2 {
        return plan;
    }
    grid.nearest(start);
    // A random order of the areas breaks ties between corridors of the same length.
    let mut place: Vec<u32> = (0..k as u32).collect();
    shuffle(&mut place, rng);
    grid.candidates(k, &place);
    let cands = &grid.scratch.cands;
    let (tree, mut up) = kruskal(cands, &grid, k);
    let global = |i: usize| {
        let (x, y) = grid.local(i);
        (g.r.x + x as i64, g.r.y + y as i64)
    };
    let corridor = |c: &Candidate| {
        let (s, t) = (grid.source(c.3 as usize), grid.source(c.4 as usize));
        (global(s), global(t))
    };
    plan.length = tree.iter().map(|&t| u64::from(cands[t].0)).sum();
    let mut corridors: Vec<Corridor> = tree.iter().map(|&t| corridor(&cands[t])).collect();
    if rng.random::<f64>() < 0.5
        && let Some(c) = loop_candidate(cands, &tree, rng)
    {
        corridors.push(corridor(c));
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

/// Kruskal over the sorted `cands`: the indices of the tree's candidates and the union-find
/// of the `k` areas.
fn kruskal(cands: &[Candidate], grid: &Grid, k: usize) -> (Vec<usize>, Vec<u32>) {
    let mut up: Vec<u32> = (0..k as u32).collect();
    let mut tree = Vec::with_capacity(k - 1);
    for (n, &(_, _, _, i, j)) in cands.iter().enumerate() {
        let (ra, rb) = (
            root(&mut up, grid.owner(i as usize)),
            root(&mut up, grid.owner(j as usize)),
        );
        if ra != rb {
            up[ra as usize] = rb;
            tree.push(n);
            if tree.len() == k - 1 {
                break;
            }
        }
    }
    (tree, up)
}

/// From a random candidate of `cands` on (cyclically), the first whose pair of areas the
/// tree (`tree`, indices into `cands`, one candidate per pair) does not join, if any.
fn loop_candidate<'a>(
    cands: &'a [Candidate],
    tree: &[usize],
    rng: &mut LevelRng,
) -> Option<&'a Candidate> {
    if cands.len() <= tree.len() {
        return None;
    }
    let mut in_tree = vec![false; cands.len()];
    for &t in tree {
        in_tree[t] = true;
    }
    let start = rng.random_range(0..cands.len());
    (0..cands.len())
        .map(|n| (start + n) % cands.len())
        .find(|&n| !in_tree[n])
        .map(|n| &cands[n])
}

mod best;
mod raster;
#[cfg(test)]
mod tests;
