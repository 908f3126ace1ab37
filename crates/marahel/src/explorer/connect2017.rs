//! The 2017 `connector` types: which areas a corridor joins.
//!
//! The 2017 engine (`ConnectorGenerator.ts`, commits ec366a3..70c0356) had four ways to join
//! the areas of its `entities`; v0.3.0 replaced them by one random tour ([`super::connect`]).
//! Each keeps its 2017 meaning here, with the 2017 defects fixed (the crate docs list them):
//!
//! * `short`: a minimum spanning tree of the shortest corridors between areas. One
//!   multi-source breadth-first search from every area at once labels each cell with its
//!   nearest area; every pair of neighbouring cells owned by two areas is a candidate corridor
//!   (its length is the two search distances plus one), and Kruskal keeps the shortest
//!   candidates that join two still separate groups. (2017 grew a tree from area 0 towards the
//!   area with the nearest centroid, by A* between the nearest cells.)
//! * `random`: a random spanning tree: the areas in random order, each joined to a random
//!   earlier one, from a random cell to a random cell (as 2017: random pairs, random cells).
//! * `hub`: the hub is the area whose centroid has the least total Manhattan distance to the
//!   others' (what 2017's `centerGroup` meant to compute); every other area is joined to it
//!   by its shortest corridor, from one breadth-first search out of the hub.
//! * `full`: the `random` spanning tree, then a corridor between every other pair of areas
//!   (a complete graph; 2017 drew each pair with a rising probability and could leave areas
//!   unconnected). The extra corridors stop after [`FULL_BUDGET`] steps per region cell.
//!
//! Corridors are dug like the v0.3.0 connect explorer digs: the rules run at every corridor
//! cell (the idiom is `self(solid) -> self(empty)`), `changes` bounds the firings, `percent`
//! is the share of corridors done. Shortest corridors (`short`, `hub`) follow the
//! breadth-first search over the `directions` offsets made symmetric (the shortest paths
//! 2017 found with A*). Point-to-point corridors (`random`, `full`) search with A*
//! ([`grid_core::astar`]) as 2017 did: a cell the rules do not change and that is not of the
//! `entities` blocks the corridor, which is planned again around it from the cell before (at
//! most [`MAX_REPLANS`] times); directions other than the 4- or 8-neighbourhood use the
//! connect walker (step to the neighbour closest to the target). Every loop is bounded.

use super::connect::tree::grid::root;
use super::connect::{best_step, symmetric};
use super::{Limits, visit};
use crate::divider::shuffle;
use crate::engine::Ctx;
use crate::program::{ConnectStyle, Explorer};
use grid_core::rand::RngExt;
use grid_core::{Connectivity, Rect, astar};
use std::collections::BTreeMap;

/// Steps of `full`'s extra corridors allowed per region cell.
pub const FULL_BUDGET: usize = 8;

const NONE: u32 = u32::MAX;

/// The region's areas and the offsets that make them.
struct Areas {
    rw: usize,
    rh: usize,
    /// Region-local offsets (symmetric, no zero).
    adj: Vec<(i64, i64)>,
    /// Area of each region cell, or [`NONE`].
    label: Vec<u32>,
    /// Each area's cells (region-local indices), in breadth-first order.
    cells: Vec<Vec<u32>>,
}

impl Areas {
    fn find(ex: &Explorer, entities: &[bool], ctx: &Ctx) -> Areas {
        let r = ctx.region;
        let (rw, rh) = (r.w as usize, r.h as usize);
        let adj = symmetric(&ctx.nbhs[ex.directions].offsets);
        let mut label = vec![NONE; rw * rh];
        let w = ctx.canvas.w;
        let open = |i: usize| {
            let (x, y) = (r.x as usize + i % rw, r.y as usize + i / rw);
            entities[ctx.canvas.front[y * w + x] as usize]
        };
        let mut cells = Vec::new();
        for start in 0..rw * rh {
            if label[start] != NONE || !open(start) {
                continue;
            }
            let id = cells.len() as u32;
            label[start] = id;
            let mut members = vec![start as u32];
            let mut head = 0;
            while head < members.len() {
                let i = members[head] as usize;
                head += 1;
                for &(dx, dy) in &adj {
                    if let Some(j) = step(rw, rh, i, dx, dy)
                        && label[j] == NONE
                        && open(j)
                    {
                        label[j] = id;
                        members.push(j as u32);
                    }
                }
            }
            cells.push(members);
        }
        Areas {
            rw,
            rh,
            adj,
            label,
            cells,
        }
    }

    /// A multi-source breadth-first search over the whole region from `sources`; returns the
    /// parent of every reached cell (a source is its own parent) and the visiting order.
    fn search(&self, sources: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let mut parent = vec![NONE; self.rw * self.rh];
        let mut order = Vec::with_capacity(self.rw * self.rh);
        for &s in sources {
            if parent[s as usize] == NONE {
                parent[s as usize] = s;
                order.push(s);
            }
        }
        let mut head = 0;
        while head < order.len() {
            let i = order[head] as usize;
            head += 1;
            for &(dx, dy) in &self.adj {
                if let Some(j) = step(self.rw, self.rh, i, dx, dy)
                    && parent[j] == NONE
                {
                    parent[j] = i as u32;
                    order.push(j as u32);
                }
            }
        }
        (parent, order)
    }
}

/// Region-local index of `i` moved by `(dx, dy)`, if inside.
#[inline]
fn step(rw: usize, rh: usize, i: usize, dx: i64, dy: i64) -> Option<usize> {
    let (x, y) = ((i % rw) as i64 + dx, (i / rw) as i64 + dy);
    (x >= 0 && y >= 0 && (x as usize) < rw && (y as usize) < rh)
        .then(|| y as usize * rw + x as usize)
}

/// `i` back to its search source (inclusive), following `parent`.
fn trace(parent: &[u32], mut i: u32, out: &mut Vec<u32>) {
    // Bounded: every parent link is one search step closer to a source.
    for _ in 0..parent.len() {
        out.push(i);
        let p = parent[i as usize];
        if p == i || p == NONE {
            return;
        }
        i = p;
    }
}

/// One region pass of a 2017 connector.
pub fn pass(
    ex: &Explorer,
    style: ConnectStyle,
    entities: &[bool],
    ctx: &mut Ctx,
    lim: Limits,
    warnings: &mut Vec<String>,
) {
    let areas = Areas::find(ex, entities, ctx);
    let k = areas.cells.len();
    if k < 2 {
        return;
    }
    // Corridors are dug as soon as they are found (the areas are fixed beforehand).
    let mut digger = Digger {
        changed: 0,
        limit: lim.changes,
        cut: false,
    };
    let mut unreached = 0;
    match style {
        ConnectStyle::Short => {
            let sources: Vec<u32> = areas.cells.iter().flatten().copied().collect();
            let (parent, order) = areas.search(&sources);
            // Owner and distance of every cell, in search order (parents come first).
            let mut owner = vec![NONE; parent.len()];
            let mut dist = vec![0u32; parent.len()];
            for &i in &order {
                let p = parent[i as usize];
                if p == i {
                    owner[i as usize] = areas.label[i as usize];
                } else {
                    owner[i as usize] = owner[p as usize];
                    dist[i as usize] = dist[p as usize] + 1;
                }
            }
            // The shortest candidate per pair of areas (ordered map: deterministic).
            let mut best: BTreeMap<(u32, u32), (u32, u32, u32)> = BTreeMap::new();
            for &i in &order {
                for &(dx, dy) in &areas.adj {
                    let Some(j) = step(areas.rw, areas.rh, i as usize, dx, dy) else {
                        continue;
                    };
                    let (a, b) = (owner[i as usize], owner[j]);
                    if a >= b || b == NONE {
                        continue;
                    }
                    let len = dist[i as usize] + dist[j] + 1;
                    let cand = (len, i, j as u32);
                    best.entry((a, b))
                        .and_modify(|c| *c = (*c).min(cand))
                        .or_insert(cand);
                }
            }
            let mut edges: Vec<(u32, u32, u32, u32, u32)> = best
                .into_iter()
                .map(|((a, b), (len, i, j))| (len, a, b, i, j))
                .collect();
            edges.sort_unstable();
            let mut up: Vec<u32> = (0..k as u32).collect();
            let mut joined = 1;
            let mut path = Vec::new();
            for (_, a, b, i, j) in edges {
                let (ra, rb) = (root(&mut up, a), root(&mut up, b));
                if ra == rb {
                    continue;
                }
                up[ra as usize] = rb;
                let progress = joined as f64 / k as f64;
                joined += 1;
                path.clear();
                trace(&parent, i, &mut path);
                path.reverse();
                trace(&parent, j, &mut path);
                digger.dig(ex, ctx, &areas, &path, progress);
            }
            unreached = k - joined;
        }
        ConnectStyle::Hub => {
            let cx = |a: &Vec<u32>| {
                let n = a.len() as f64;
                let sx: f64 = a.iter().map(|&i| (i as usize % areas.rw) as f64).sum();
                let sy: f64 = a.iter().map(|&i| (i as usize / areas.rw) as f64).sum();
                (sx / n, sy / n)
            };
            let centroids: Vec<(f64, f64)> = areas.cells.iter().map(cx).collect();
            let total = |a: usize| -> f64 {
                let c = centroids[a];
                centroids
                    .iter()
                    .map(|d| (d.0 - c.0).abs() + (d.1 - c.1).abs())
                    .sum()
            };
            let hub = (0..k)
                .min_by(|&a, &b| {
                    total(a)
                        .total_cmp(&total(b))
                        .then(areas.cells[b].len().cmp(&areas.cells[a].len()))
                        .then(a.cmp(&b))
                })
                .unwrap_or(0);
            let (parent, order) = areas.search(&areas.cells[hub]);
            let mut done = vec![false; k];
            done[hub] = true;
            let mut path = Vec::new();
            let mut n = 0;
            for &i in &order {
                let a = areas.label[i as usize];
                if a != NONE && !done[a as usize] {
                    done[a as usize] = true;
                    path.clear();
                    trace(&parent, i, &mut path);
                    digger.dig(ex, ctx, &areas, &path, n as f64 / (k - 1) as f64);
                    n += 1;
                }
            }
            unreached = done.iter().filter(|d| !**d).count();
        }
        ConnectStyle::Random
        | ConnectStyle::Full
        | ConnectStyle::Tour
        | ConnectStyle::ReferenceTour => {
            // A* over the 4- or 8-neighbourhood when the directions are one of them.
            let orth = [(0, -1), (-1, 0), (1, 0), (0, 1)];
            let conn = match areas.adj.len() {
                4 if areas.adj.iter().all(|o| orth.contains(o)) => Some(Connectivity::Four),
                8 if areas.adj.iter().all(|o| o.0.abs() <= 1 && o.1.abs() <= 1) => {
                    Some(Connectivity::Eight)
                }
                _ => None,
            };
            let mut order: Vec<usize> = (0..k).collect();
            shuffle(&mut order, ctx.rng);
            let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(k);
            for n in 1..k {
                let m = ctx.rng.random_range(0..n);
                pairs.push((order[n], order[m]));
            }
            // `full`: then every other pair, in order, lazily (never k² memory), until the
            // step budget is spent; each corridor costs at least two steps, so this is O(area).
            let total = if style == ConnectStyle::Full {
                k * (k - 1) / 2
            } else {
                k - 1
            };
            let tree: std::collections::BTreeSet<(usize, usize)> =
                pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
            let extra = (0..k)
                .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
                .filter(|p| style == ConnectStyle::Full && !tree.contains(p));
            let budget = FULL_BUDGET * areas.rw * areas.rh;
            let mut spent = 0;
            for (n, (a, b)) in pairs.iter().copied().chain(extra).enumerate() {
                if n >= k - 1 && spent > budget {
                    warnings.push(format!(
                        "{}: connector `full` stopped after {n} of {total} corridors ({FULL_BUDGET} steps per region cell)",
                        ex.path
                    ));
                    break;
                }
                let (ca, cb) = (&areas.cells[a], &areas.cells[b]);
                let from = ca[ctx.rng.random_range(0..ca.len())];
                let to = cb[ctx.rng.random_range(0..cb.len())];
                let progress = n as f64 / total as f64;
                let (reached, steps) = match conn {
                    Some(conn) => {
                        let ends = (from, to, conn);
                        digger.dig_around(ex, ctx, &areas, entities, ends, progress)
                    }
                    None => {
                        let path = walk(ex, ctx, &areas, from, to);
                        digger.dig(ex, ctx, &areas, &path, progress);
                        (path.last() == Some(&to), path.len())
                    }
                };
                unreached += !reached as usize;
                spent += steps;
            }
        }
    }
    if digger.cut {
        warnings.push(format!(
            "{}: connector stopped at its firing limit (`changes`: {}) with corridors left \
             to dig; raise `changes`",
            ex.path, digger.limit
        ));
    } else if unreached > 0 {
        warnings.push(format!(
            "{}: connector could not reach {unreached} area(s) with its directions",
            ex.path
        ));
    }
}

/// The connect walker from `from` towards `to` ([`best_step`] in the region, region-local
/// cells); it stops when no neighbour is closer.
fn walk(ex: &Explorer, ctx: &Ctx, areas: &Areas, from: u32, to: u32) -> Vec<u32> {
    let rw = areas.rw;
    let region = Rect::new(0, 0, rw as i64, areas.rh as i64);
    let local = |i: u32| ((i as usize % rw) as i64, (i as usize / rw) as i64);
    let (mut at, t) = (local(from), local(to));
    let mut path = vec![from];
    // Bounded: every step lowers the Manhattan distance.
    while at != t {
        let Some(next) = best_step(&ctx.nbhs[ex.directions].offsets, region, at, t) else {
            break;
        };
        at = next;
        path.push((at.1 as usize * rw + at.0 as usize) as u32);
    }
    path
}

/// Most times one corridor is planned again around cells the rules would not dig.
pub const MAX_REPLANS: usize = 64;

/// Runs the rules on corridor cells until `changes` firings in the region pass.
struct Digger {
    changed: u64,
    limit: u64,
    /// Whether a corridor was left unfinished because the firings were spent.
    cut: bool,
}

impl Digger {
    /// A corridor from `from` to `to` (region-local) along a shortest path (A*), dug cell by
    /// cell; a cell the rules do not change and that is not of the `entities` blocks the
    /// path, which is planned again from the cell before it (at most [`MAX_REPLANS`] times).
    /// Returns whether it reached `to` and the cells it visited.
    fn dig_around(
        &mut self,
        ex: &Explorer,
        ctx: &mut Ctx,
        areas: &Areas,
        entities: &[bool],
        (from, to, conn): (u32, u32, Connectivity),
        percent: f64,
    ) -> (bool, usize) {
        let (rw, rh) = (areas.rw, areas.rh);
        let r = ctx.region;
        let mut blocked = std::collections::BTreeSet::new();
        let (mut at, mut steps) = (from as usize, 0);
        ctx.percent = percent;
        for _ in 0..=MAX_REPLANS {
            let free = |_: usize, j: usize| (!blocked.contains(&j)).then_some(1);
            let Some(path) = astar(rw, rh, at, to as usize, conn, 1, free) else {
                return (false, steps);
            };
            let mut stuck = None;
            for (k, &i) in path.cells.iter().enumerate().skip(1) {
                if self.changed >= self.limit {
                    self.cut = true;
                    return (false, steps);
                }
                ctx.cpercent = self.changed as f64 / self.limit as f64;
                let (x, y) = (r.x as usize + i % rw, r.y as usize + i / rw);
                steps += 1;
                if visit(ex, ctx, x, y) {
                    self.changed += 1;
                } else if !entities[ctx.canvas.front[y * ctx.canvas.w + x] as usize] {
                    stuck = Some((path.cells[k - 1], i));
                    break;
                }
            }
            match stuck {
                None => return (true, steps),
                Some((before, i)) => {
                    blocked.insert(i);
                    at = before;
                }
            }
        }
        (false, steps)
    }

    /// Runs the rules on every cell of `path` (region-local), in order; `percent` is the
    /// share of corridors done.
    fn dig(&mut self, ex: &Explorer, ctx: &mut Ctx, areas: &Areas, path: &[u32], percent: f64) {
        let r = ctx.region;
        ctx.percent = percent;
        for &i in path {
            if self.changed >= self.limit {
                self.cut = true;
                return;
            }
            ctx.cpercent = self.changed as f64 / self.limit as f64;
            let (x, y) = (
                r.x as usize + i as usize % areas.rw,
                r.y as usize + i as usize / areas.rw,
            );
            if visit(ex, ctx, x, y) {
                self.changed += 1;
            }
        }
    }
}
