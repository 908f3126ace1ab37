//! Stages 1 to 3 of `turtle_connect`: the areas, the short corridors between neighbouring
//! areas, and a spanning tree of them.
//!
//! 1. Areas are the connected components of the region's cells holding `entities`, joined by
//!    the `directions` offsets made symmetric, numbered by their first cell in scan order
//!    (they are [`grid_core::components`] for the 4- and 8-neighbourhoods). A union-find
//!    labelling over any offsets: in scan order, each area cell joins the provisional areas
//!    of its earlier neighbours or opens one; each area is then numbered by its root.
//! 2. Each cell's owner is its nearest area (in steps of the offsets) and, of equal
//!    distances, the lowest-numbered one. One breadth-first search from every area at once,
//!    a layer of cells per step: a cell of layer `d` takes the owner of a cell of layer
//!    `d - 1` it is a step from, and, reached again in its layer by a lower owner, takes
//!    that one. This gives the lowest-numbered nearest area `A` of every cell `c` at
//!    distance `d > 0`: the cell `p` before `c` on a shortest path from `A` is `d - 1` from
//!    `A` and from no area nearer (else `c` would be nearer than `d`), and every area at
//!    `d - 1` from `p` is at most `d` from `c`, so it is not below `A`: by induction `p` is
//!    owned by `A`, and `c` is offered `A` in its layer and no lower area (an offer comes
//!    from a cell `d - 1` from its owner, which is then at most `d` from `c`).
//!    Two neighbouring cells owned by two areas are a candidate corridor between them, as
//!    long as the steps from one area to the other through the pair.
//! 3. Of each pair of neighbouring areas only the shortest candidate counts (of equal ones the
//!    first pair of cells in scan order). Kruskal keeps the shortest that join two groups of
//!    areas not joined yet (equal lengths in a random order of the areas): a minimum
//!    spanning tree of the areas by corridor length. A corridor goes from the area cell
//!    nearest to one cell of the pair to the area cell nearest to the other. With
//!    probability 1/2 one more candidate adds a loop: from a random one in that order, the
//!    first whose pair of areas the tree does not join (the v0.3.0 tour ended with one loop
//!    back half of the time). Areas the search cannot reach (offsets that skip cells) are
//!    chained by corridors between their first cells, for the walker to approach as far as
//!    it can.
//!
//! Everything is linear in the region's area except the sort of the candidates; the
//! corridors' total length has a budget of [`BUDGET`] steps per region cell. The buffers are
//! kept per thread from one plan to the next.
//!
//! The stages run through [`Stages`]: the core's are [`Plain`]; a faster layer may give its
//! own, which must leave the same plane of owners and steps, the same borders and the same
//! candidates.

use crate::divider::shuffle;
use grid::{Grid, OPEN, root};
use grid_core::rand::RngExt;
use grid_core::{LevelRng, Rect};

/// A corridor to dig, from a cell of one area to a cell of another (map coordinates).
pub type Corridor = ((i64, i64), (i64, i64));

/// Steps of corridor allowed per region cell (the corridors of a spanning tree of neighbouring
/// areas stay far below it; past it the remaining corridors are dropped with a warning).
pub const BUDGET: u64 = 4;

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

/// A candidate corridor: its length, the two areas' places in the random order (smaller
/// first), and the pair of cells (padded indices, the earlier first).
pub type Candidate = (u32, u32, u32, u32, u32);

/// Stages 1 to 3 on a [`Grid`]: the plain ones ([`Plain`]), or a faster layer's (behind
/// [`crate::hook`]), which must leave the same plane, pairs and candidates.
pub trait Stages {
    /// Stage 1: numbers the areas; returns the first cell of each.
    fn areas(&mut self, grid: &mut Grid, g: &View, entities: &[bool]) -> Vec<usize>;
    /// Stage 2: every cell's owner and steps, and the scratch's `pairs` of neighbouring
    /// cells of two owners.
    fn nearest(&mut self, grid: &mut Grid);
    /// Stage 3: the best candidate of each pair of areas (the areas by their `place` in the
    /// random order) into the scratch's `cands`, sorted.
    fn candidates(&mut self, grid: &mut Grid, place: &[u32]);
}

/// The core's stages.
pub struct Plain;

impl Stages for Plain {
    fn areas(&mut self, grid: &mut Grid, g: &View, entities: &[bool]) -> Vec<usize> {
        grid.areas(g, entities)
    }

    fn nearest(&mut self, grid: &mut Grid) {
        grid.nearest();
    }

    fn candidates(&mut self, grid: &mut Grid, place: &[u32]) {
        let mut cands = std::mem::take(&mut grid.scratch.cands);
        cands.clear();
        for &(i, j) in &grid.scratch.pairs {
            cands.push(candidate(grid, place, i, j));
        }
        // The least (length, cells) of each pair of areas, then all by length.
        cands.sort_unstable_by_key(|c| (c.1, c.2, c.0, c.3, c.4));
        cands.dedup_by_key(|c| (c.1, c.2));
        cands.sort_unstable();
        grid.scratch.cands = cands;
    }
}

/// The candidate of the neighbouring cells `i` and `j` of two owners, the areas by their
/// `place`.
#[inline(always)]
pub fn candidate(grid: &Grid, place: &[u32], i: u32, j: u32) -> Candidate {
    let (a, b) = (grid.owner(i as usize), grid.owner(j as usize));
    debug_assert!(a != b && a < OPEN && b < OPEN);
    let (pa, pb) = (place[a as usize], place[b as usize]);
    let len = grid.dist(i as usize) + grid.dist(j as usize) + 1;
    (len, pa.min(pb), pa.max(pb), i, j)
}

/// Stages 1 to 3 on the region of `g`: the corridors joining the areas of the cells whose
/// code is in `entities`, along the symmetric offsets `adj`; stages 1 to 3 by `stages`
/// ([`Plain`]: the core's).
pub fn plan(
    stages: &mut impl Stages,
    adj: &[(i64, i64)],
    entities: &[bool],
    g: View,
    rng: &mut LevelRng,
) -> Plan {
    let (rw, rh) = (g.r.w as usize, g.r.h as usize);
    let mut grid = Grid::new(adj, &g);
    let firsts = stages.areas(&mut grid, &g, entities);
    let k = firsts.len();
    let mut plan = Plan {
        areas: k,
        ..Plan::default()
    };
    if k < 2 {
        return plan;
    }
    stages.nearest(&mut grid);
    // A random order of the areas breaks ties between corridors of the same length.
    let mut place: Vec<u32> = (0..k as u32).collect();
    shuffle(&mut place, rng);
    stages.candidates(&mut grid, &place);
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

pub mod grid;
#[cfg(test)]
mod tests;
