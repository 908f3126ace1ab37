//! Wide explorers: every cell of the region once, in an order. `wide_heur` orders by the
//! heuristics (ascending, ties random), `wide_rand` randomly. O(A log A): the order is sorted
//! once; when a heuristic reads the map, a popped cell is re-evaluated and re-queued if its key
//! grew (at most 3 times), instead of re-sorting everything after every step.

use super::{Limits, set_progress, visit};
use crate::divider::shuffle;
use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::program::Explorer;
use grid_core::rand::RngExt;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Most heuristics a `wide_heur` explorer may have: its sort key is a fixed array of this
/// many values (a `turtle_heur` explorer takes any number).
pub const MAX_HEURISTICS: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: [f64; MAX_HEURISTICS],
    tie: u32,
    cell: u32,
    requeued: u8,
}

impl Entry {
    fn cmp_min(&self, o: &Self) -> Ordering {
        super::turtle::cmp_keys(&self.key, &o.key).then(self.tie.cmp(&o.tie))
    }
}
impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp_min(o) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    // Reversed: BinaryHeap is a max-heap and we want the smallest key first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.cmp_min(self)
    }
}

fn key(heuristics: &[Estimator], ctx: &mut Ctx, x: usize, y: usize) -> [f64; MAX_HEURISTICS] {
    let mut k = [0.0; MAX_HEURISTICS];
    for (slot, h) in k.iter_mut().zip(heuristics) {
        *slot = h.eval(ctx, x, y);
    }
    k
}

/// `wide_heur`.
pub fn heur(ex: &Explorer, heuristics: &[Estimator], ctx: &mut Ctx, lim: Limits) {
    let r = ctx.region;
    let rw = r.w as usize;
    let area = r.area();
    let dynamic = heuristics.iter().any(Estimator::is_dynamic);
    let mut entries: Vec<Entry> = Vec::with_capacity(area as usize);
    for cell in 0..area as u32 {
        let (x, y) = (
            r.x as usize + cell as usize % rw,
            r.y as usize + cell as usize / rw,
        );
        let key = key(heuristics, ctx, x, y);
        entries.push(Entry {
            key,
            tie: ctx.rng.random(),
            cell,
            requeued: 0,
        });
    }
    let tiles = lim.tiles.min(area);
    let mut visited = 0;
    let mut changed = 0;
    let mut step = |e: &Entry, ctx: &mut Ctx, visited: &mut u64| -> bool {
        let (x, y) = (
            r.x as usize + e.cell as usize % rw,
            r.y as usize + e.cell as usize / rw,
        );
        set_progress(ex, ctx, *visited, tiles, changed, lim.changes);
        if visit(ex, ctx, x, y) {
            changed += 1;
        }
        *visited += 1;
        *visited < tiles && changed < lim.changes
    };
    if !dynamic {
        entries.sort_unstable_by(|a, b| a.cmp_min(b));
        for e in &entries {
            if !step(e, ctx, &mut visited) {
                break;
            }
        }
        return;
    }
    let mut heap = BinaryHeap::from(entries);
    while let Some(mut e) = heap.pop() {
        if e.requeued < 3 {
            let (x, y) = (
                r.x as usize + e.cell as usize % rw,
                r.y as usize + e.cell as usize / rw,
            );
            let now = key(heuristics, ctx, x, y);
            if super::turtle::cmp_keys(&now, &e.key) == Ordering::Greater {
                e.key = now;
                e.requeued += 1;
                heap.push(e);
                continue;
            }
        }
        if !step(&e, ctx, &mut visited) {
            break;
        }
    }
}

/// `wide_rand`.
pub fn random(ex: &Explorer, ctx: &mut Ctx, lim: Limits) {
    let r = ctx.region;
    let rw = r.w as usize;
    let area = r.area();
    let mut order: Vec<u32> = (0..area as u32).collect();
    shuffle(&mut order, ctx.rng);
    let tiles = lim.tiles.min(area);
    let mut changed = 0;
    for (visited, &cell) in order.iter().take(tiles as usize).enumerate() {
        if changed >= lim.changes {
            break;
        }
        set_progress(ex, ctx, visited as u64, tiles, changed, lim.changes);
        let (x, y) = (
            r.x as usize + cell as usize % rw,
            r.y as usize + cell as usize / rw,
        );
        if visit(ex, ctx, x, y) {
            changed += 1;
        }
    }
}
