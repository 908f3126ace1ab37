//! Step 10b: treasure pockets. A guarded pile lies in a pocket: its cells are walled all
//! round (the eight neighbours of every pile cell are walls) except one cell, the entrance,
//! where its guard stands, so the only way in goes through the guard. Where the ground
//! allows, the wall is two cells thick (free cells next to the ring, except beside the
//! guard), so the `.hmm` builds it of multi-cell objects. Pockets lean on the
//! terrain: of several candidate spots the one whose ring already has the most walls wins,
//! the pile is cut into an obstacle feature where one is beside it (a nook in a mountain or
//! a wood, so crowded zones still find room), and new walls go only on free ground of the
//! zone (never on a road, an approach, a passage or another object). A pocket is dug only if, with its walls up, every walkable cell around
//! it is still joined to its entrance within a few cells ([`MARGIN`]) by side steps, so it
//! cuts nothing off (not even for a walker without diagonal steps).

use crate::map::{Cell, Feature};
use crate::work::{SIDES, Work};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Most pockets dug per zone.
pub const MAX_POCKETS: usize = 64;
/// Cells around a pocket's ring the connectivity check may walk through.
pub const MARGIN: usize = 3;
/// Candidate spots weighed per batch.
pub const CANDIDATES: usize = 24;
/// Batches of candidates drawn per pocket (the next only if no spot of the last worked).
pub const BATCHES: usize = 3;
/// Candidates (best first) fully tried per batch.
pub const TRIES: usize = 8;

/// A dug pocket: the pile's cells and the guard's (entrance) cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pocket {
    pub cells: Vec<usize>,
    pub guard: usize,
}

/// Flood fills of one zone with a reusable mark buffer.
pub(crate) struct Filler {
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<usize>,
}

impl Filler {
    pub fn new(cells: usize) -> Self {
        Filler {
            mark: vec![0; cells],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// Whether every walkable cell of `zone` around the ring (8-neighbours of `ring` outside
    /// it and `pile`) is reached from `start`, 4-connected over walkable cells of the zone
    /// outside `pile`, within the pocket's bounding box grown by [`MARGIN`]: then nothing is
    /// cut off, as any way that crossed the ring goes round it.
    fn around(
        &mut self,
        w: &Work,
        zone: usize,
        start: usize,
        pile: &[usize],
        ring: &[usize],
    ) -> bool {
        let side = w.side;
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for &c in ring {
            let (x, y) = (c % side, c / side);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        let inside = |c: usize| {
            let (x, y) = (c % side, c / side);
            x + MARGIN >= x0 && x <= x1 + MARGIN && y + MARGIN >= y0 && y <= y1 + MARGIN
        };
        let open =
            |c: usize| w.zone_of[c] as usize == zone && w.cell(c).walkable() && !pile.contains(&c);
        self.stamp += 1;
        let s = self.stamp;
        self.stack.clear();
        self.stack.push(start);
        self.mark[start] = s;
        while let Some(c) = self.stack.pop() {
            for &(dx, dy) in &SIDES {
                if let Some(m) = w.offset(c, dx, dy)
                    && self.mark[m] != s
                    && inside(m)
                    && open(m)
                {
                    self.mark[m] = s;
                    self.stack.push(m);
                }
            }
        }
        ring.iter().all(|&r| {
            crate::seal::steps().all(|(dx, dy)| {
                w.offset(r, dx, dy)
                    .is_none_or(|m| ring.contains(&m) || !open(m) || self.mark[m] == s)
            })
        })
    }
}

/// Pile cells grown from `start` (side neighbours: obstacle cells of `zone` first, cut out of
/// the feature, then free cells) and their ring.
fn shape(w: &Work, zone: usize, start: usize, items: usize) -> Option<(Vec<usize>, Vec<usize>)> {
    let free = |c: usize| w.zone_of[c] as usize == zone && w.cell(c) == Cell::Free;
    let rock = |c: usize| w.zone_of[c] as usize == zone && w.cell(c) == Cell::Obstacle;
    let mut cells = vec![start];
    while cells.len() < items {
        // Into the rock first (a nook cut in a mountain or a wood), else over free ground.
        let beside = |ok: &dyn Fn(usize) -> bool| {
            cells.iter().find_map(|&c| {
                SIDES
                    .iter()
                    .filter_map(|&(dx, dy)| w.offset(c, dx, dy))
                    .find(|&n| ok(n) && !cells.contains(&n))
            })
        };
        let next = beside(&rock).or_else(|| beside(&free))?;
        cells.push(next);
    }
    let mut ring = Vec::new();
    for &c in &cells {
        for (dx, dy) in crate::seal::steps() {
            let n = w.offset(c, dx, dy)?;
            if !cells.contains(&n) && !ring.contains(&n) {
                // A ring cell is a wall already or free ground of the zone to wall.
                if !w.cell(n).blocked() && !free(n) {
                    return None;
                }
                ring.push(n);
            }
        }
    }
    Some((cells, ring))
}

/// Digs a pocket for a pile of `items` cells in `zone`, trying spots drawn from `spots`
/// (free cells; the ones used are removed). Returns `None` (the map unchanged) if no spot
/// works.
pub(crate) fn dig(
    w: &mut Work,
    zone: usize,
    items: usize,
    spots: &mut Vec<usize>,
    filler: &mut Filler,
    rng: &mut LevelRng,
) -> Option<Pocket> {
    (0..BATCHES).find_map(|_| dig_once(w, zone, items, spots, filler, rng))
}

/// One batch of [`CANDIDATES`] spots for [`dig`].
fn dig_once(
    w: &mut Work,
    zone: usize,
    items: usize,
    spots: &mut Vec<usize>,
    filler: &mut Filler,
    rng: &mut LevelRng,
) -> Option<Pocket> {
    let mut cands: Vec<(usize, usize)> = Vec::new();
    for _ in 0..CANDIDATES {
        if spots.is_empty() {
            break;
        }
        let c = spots[rng.random_range(0..spots.len())];
        if let Some((_, ring)) = shape(w, zone, c, items) {
            let walls = ring.iter().filter(|&&r| w.cell(r).blocked()).count();
            cands.push((walls, c));
        }
    }
    cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    cands.dedup();
    for &(_, start) in cands.iter().take(TRIES) {
        let Some((cells, ring)) = shape(w, zone, start, items) else {
            continue;
        };
        // The entrance: a free ring cell beside a pile cell with open ground outside.
        let outside = |w: &Work, r: usize| {
            w.walkable_sides(r)
                .any(|n| !cells.contains(&n) && !ring.contains(&n))
        };
        let Some(guard) = ring.iter().copied().find(|&r| {
            w.cell(r) == Cell::Free && cells.iter().any(|&c| w.dist2(c, r) == 1) && outside(w, r)
        }) else {
            continue;
        };
        // A second layer of wall outside the ring where the ground is free (not beside the
        // guard, whose way out stays open), so the wall takes multi-cell objects; else the
        // ring alone.
        let mut outer: Vec<usize> = Vec::new();
        for &r in &ring {
            for (dx, dy) in crate::seal::steps() {
                if let Some(m) = w.offset(r, dx, dy)
                    && w.zone_of[m] as usize == zone
                    && w.cell(m) == Cell::Free
                    && !ring.contains(&m)
                    && !cells.contains(&m)
                    && !outer.contains(&m)
                    && w.dist2(m, guard) > 2
                {
                    outer.push(m);
                }
            }
        }
        let thick: Vec<usize> = ring.iter().chain(&outer).copied().collect();
        for layers in [&thick, &ring] {
            let walls: Vec<usize> = layers
                .iter()
                .copied()
                .filter(|&r| r != guard && w.cell(r) == Cell::Free)
                .collect();
            for &r in &walls {
                w.set(r, Cell::Obstacle);
            }
            if filler.around(w, zone, guard, &cells, layers) {
                for &r in &walls {
                    w.feature[r] = Feature::Mountain as u8;
                }
                for &c in &cells {
                    w.feature[c] = Feature::None as u8;
                }
                spots.retain(|s| !cells.contains(s) && !layers.contains(s));
                return Some(Pocket { cells, guard });
            }
            for &r in &walls {
                w.set(r, Cell::Free);
            }
        }
    }
    None
}
