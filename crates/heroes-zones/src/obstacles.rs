//! Step 6: terrain features. Obstacles are grown as whole features, not scattered per cell:
//!
//! - **ridges** of mountains along the zone borders, as wide as a smooth noise says (1 to
//!   [`max_ridge`] cells), opening where a passage crosses the border;
//! - **mountain ranges and forests** inside each zone, grown from seeds spread far apart
//!   (best of [`CANDIDATES`]): a range along a bent spine, a forest as a ragged round wood,
//!   until the zone's obstacle share reaches [`density`];
//! - **valleys**: a feature never grows within [`gap`] cells of another feature, a ridge or
//!   an object, so open ground runs between them.
//!
//! Zone borders stay walls; entrances, approaches, passages and buildings are never covered:
//! ridges stay more than [`CLEARANCE`] cells from them, features more than [`gap`]. What each
//! obstacle cell belongs to is kept ([`crate::map::Feature`], [`crate::HeroesMap::feature`])
//! for the preview and the `.hmm` decorations.

use crate::map::{Cell, Feature};
use crate::template::ZoneKind;
use crate::work::Work;
use grid_core::rand::RngExt;
use grid_core::{Connectivity, LevelRng, distance_map};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Obstacle share of a zone's cells the features grow to.
pub fn density(kind: ZoneKind) -> f64 {
    match kind {
        ZoneKind::Junction => 0.24,
        _ => 0.32,
    }
}

/// Widest ridge along a border at map side `side`: 1 cell at 64, 2 at 128, 4 at 256.
pub fn max_ridge(side: usize) -> u32 {
    (side / 64).clamp(1, 4) as u32
}

/// Open ground kept between two features (and a feature and a ridge) at map side `side`:
/// 1 cell at 64, 2 at 128, 3 at 256.
pub fn gap(side: usize) -> u32 {
    (side / 64).clamp(1, 3) as u32
}

/// Cells of open ground a ridge keeps around passages, approaches, entrances and buildings.
pub const CLEARANCE: u32 = 2;

/// Seed candidates tried per feature (the one farthest from everything wins).
pub const CANDIDATES: usize = 12;

/// Obstacle clumps (8-connected) of at most this many cells that touch no zone border become
/// free ground after the connect step (it can cut a feature into bits).
pub const SPECK: u32 = 6;

/// Clears specks: clumps of obstacle cells of at most [`SPECK`] cells that touch no zone
/// border. Only frees ground, so nothing becomes unreachable.
pub(crate) fn despeckle(w: &mut Work) {
    let side = w.side;
    let solid = |c: u8| matches!(Cell::from_id(c), Cell::Obstacle | Cell::Edge);
    let parts = grid_core::components_by_key(side, side, Connectivity::Eight, |i| {
        solid(w.cells[i]).then_some(())
    });
    let mut has_edge = vec![false; parts.sizes.len()];
    for (i, &l) in parts.labels.as_slice().iter().enumerate() {
        if l != grid_core::Components::NONE && w.cells[i] == Cell::Edge as u8 {
            has_edge[l as usize] = true;
        }
    }
    for (i, &l) in parts.labels.as_slice().iter().enumerate() {
        if l != grid_core::Components::NONE
            && !has_edge[l as usize]
            && parts.sizes[l as usize] <= SPECK
        {
            w.cells[i] = Cell::Free as u8;
            w.feature[i] = Feature::None as u8;
        }
    }
}

/// Smooth value noise in `[0, 1)`: random values on a lattice every `step` cells, blended
/// with smoothstep weights.
fn value_noise(side: usize, step: usize, rng: &mut LevelRng) -> Vec<f32> {
    let ln = side / step + 2;
    let lat: Vec<f32> = (0..ln * ln).map(|_| rng.random_range(0.0..1.0)).collect();
    let smooth = |t: f32| t * t * (3.0 - 2.0 * t);
    let mut out = Vec::with_capacity(side * side);
    for y in 0..side {
        let (ly, ty) = (y / step, smooth((y % step) as f32 / step as f32));
        for x in 0..side {
            let (lx, tx) = (x / step, smooth((x % step) as f32 / step as f32));
            let at = |a: usize, b: usize| lat[b * ln + a];
            let top = at(lx, ly) + (at(lx + 1, ly) - at(lx, ly)) * tx;
            let bot = at(lx, ly + 1) + (at(lx + 1, ly + 1) - at(lx, ly + 1)) * tx;
            out.push(top + (bot - top) * ty);
        }
    }
    out
}

/// Places ridges, then mountains and forests in every zone.
pub(crate) fn place(w: &mut Work, rng: &mut LevelRng) {
    let side = w.side;
    let noise = value_noise(side, (side / 32).max(4), rng);
    let fine = value_noise(side, 3, rng);
    let cell = |w: &Work, i: usize| Cell::from_id(w.cells[i]);
    // Cells that must stay open, and how far every cell is from them.
    let open: Vec<usize> = (0..side * side)
        .filter(|&i| {
            matches!(
                cell(w, i),
                Cell::Passage | Cell::Approach | Cell::Entrance | Cell::Building
            )
        })
        .collect();
    let clear = distance_map(side, side, &open, Connectivity::Eight, |_| true);
    let clear = clear.as_slice();
    ridges(w, &noise, clear);
    // Growth is barred near anything not free (borders, ridges, objects).
    let solid: Vec<usize> = (0..side * side)
        .filter(|&i| cell(w, i) != Cell::Free)
        .collect();
    let near = distance_map(side, side, &solid, Connectivity::Eight, |_| true);
    let room: Vec<u32> = near.as_slice().to_vec();
    let mut grower = Grower {
        room,
        stamp: vec![0; side * side],
        feature: 0,
    };
    for zone in 0..w.zones.len() {
        grow_zone(w, zone, &fine, &mut grower, rng);
    }
}

/// Ridges: free cells within a noise-driven width of their zone's border become mountains,
/// except near what must stay open.
fn ridges(w: &mut Work, noise: &[f32], clear: &[u32]) {
    let side = w.side;
    let edges: Vec<usize> = (0..side * side)
        .filter(|&i| w.cells[i] == Cell::Edge as u8)
        .collect();
    let cells = &w.cells;
    let from_edge = distance_map(side, side, &edges, Connectivity::Eight, |i| {
        cells[i] == Cell::Free as u8
    });
    let top = max_ridge(side);
    for (i, &d) in from_edge.as_slice().iter().enumerate() {
        if d == 0 || d == grid_core::connectivity::UNREACHABLE || w.cells[i] != Cell::Free as u8 {
            continue;
        }
        // Noise in [0, 1) spread over widths 1..=top.
        let width = 1 + ((noise[i] * 1.4 - 0.2).clamp(0.0, 0.999) * top as f32) as u32;
        if d <= width && clear[i] > CLEARANCE + 1 {
            w.cells[i] = Cell::Obstacle as u8;
            w.feature[i] = Feature::Ridge as u8;
        }
    }
}

/// The state of feature growth across zones.
struct Grower {
    /// How far each cell is (8-connected) from anything a feature must keep its distance from
    /// (exact up to [`gap`] + 2).
    room: Vec<u32>,
    /// Which feature last queued each cell (1-based).
    stamp: Vec<u32>,
    /// Features grown so far.
    feature: u32,
}

/// Grows mountains and forests in `zone` until its obstacle share reaches [`density`].
fn grow_zone(w: &mut Work, zone: usize, noise: &[f32], grower: &mut Grower, rng: &mut LevelRng) {
    let g = gap(w.side);
    let cells: Vec<usize> = w.zone_cells[zone].iter().map(|&c| c as usize).collect();
    let area = cells.len();
    let target = (density(w.zones[zone].kind) * area as f64) as usize;
    let mut placed = cells
        .iter()
        .filter(|&&i| w.cells[i] == Cell::Obstacle as u8)
        .count();
    // Features of about a twentieth of the zone: a handful per zone.
    let mean = (area / 20).max(8);
    for _ in 0..64 {
        if placed + mean / 3 > target {
            break;
        }
        let Some(seed) = pick_seed(&cells, &grower.room, g, rng) else {
            break;
        };
        let want = rng
            .random_range(mean / 2..=mean * 3 / 2)
            .min(target - placed);
        let kind = if rng.random_bool(0.5) {
            Feature::Mountain
        } else {
            Feature::Forest
        };
        let grown = grow(w, zone, seed, want, kind, noise, grower, rng);
        placed += grown.len();
        bar_around(w, &grown, g, &mut grower.room);
    }
}

/// The candidate farthest from everything, among [`CANDIDATES`] random zone cells with room.
fn pick_seed(cells: &[usize], room: &[u32], g: u32, rng: &mut LevelRng) -> Option<usize> {
    (0..CANDIDATES)
        .map(|_| cells[rng.random_range(0..cells.len())])
        .filter(|&i| room[i] > g + 1)
        .max_by_key(|&i| room[i])
}

/// Grows one feature of about `want` cells from `seed`: cells in order of a noise-roughened
/// distance (to a bent spine for a mountain range, to the seed for a forest), only where
/// `room` allows.
#[allow(clippy::too_many_arguments)]
fn grow(
    w: &mut Work,
    zone: usize,
    seed: usize,
    want: usize,
    kind: Feature,
    noise: &[f32],
    grower: &mut Grower,
    rng: &mut LevelRng,
) -> Vec<usize> {
    let side = w.side;
    let g = gap(side);
    grower.feature += 1;
    let id = grower.feature;
    let (sx, sy) = ((seed % side) as f64, (seed / side) as f64);
    // Mountains: distance to a bent spine through the seed (a range); forests: distance to
    // the seed (a round wood); both roughened by the noise.
    let (spine, rough) = match kind {
        Feature::Mountain => {
            let reach = (want as f64).sqrt() * 0.9;
            let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
            let bend: f64 = rng.random_range(-0.7..0.7);
            let end = |a: f64| (sx + a.cos() * reach, sy + a.sin() * reach);
            (
                [
                    end(angle),
                    (sx, sy),
                    end(angle + std::f64::consts::PI + bend),
                ],
                0.9,
            )
        }
        _ => ([(sx, sy); 3], 1.4),
    };
    let key = |i: usize| {
        let p = ((i % side) as f64, (i / side) as f64);
        let d =
            segment_distance(p, spine[0], spine[1]).min(segment_distance(p, spine[1], spine[2]));
        // Cost in 1/16 cells.
        ((d + 1.0) * (1.0 + rough * (noise[i] as f64 - 0.5)) * 16.0) as u32
    };
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u32, seed)));
    grower.stamp[seed] = id;
    let mut grown = Vec::with_capacity(want);
    while let Some(Reverse((_, i))) = heap.pop() {
        if grown.len() >= want {
            break;
        }
        w.cells[i] = Cell::Obstacle as u8;
        w.feature[i] = kind as u8;
        grown.push(i);
        Connectivity::Four.for_each_neighbor(side, side, i, |nb| {
            if grower.stamp[nb] != id
                && w.zone_of[nb] as usize == zone
                && w.cells[nb] == Cell::Free as u8
                && grower.room[nb] > g
            {
                grower.stamp[nb] = id;
                heap.push(Reverse((key(nb), nb)));
            }
        });
    }
    grown
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (vx, vy) = (b.0 - a.0, b.1 - a.1);
    let len2 = vx * vx + vy * vy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * vx + (p.1 - a.1) * vy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p.0 - a.0 - t * vx).powi(2) + (p.1 - a.1 - t * vy).powi(2)).sqrt()
}

/// Updates `room` (distance to the nearest feature) within `g + 2` cells (8-connected) of a
/// grown feature, far enough for every later threshold. The nearest feature cell of any cell
/// outside is on the feature's outline, so only outline cells spread their distance.
fn bar_around(w: &Work, grown: &[usize], g: u32, room: &mut [u32]) {
    let side = w.side;
    let r = g as i64 + 2;
    for &i in grown {
        room[i] = 0;
    }
    let inside = |j: usize| room[j] == 0 && w.cells[j] == Cell::Obstacle as u8;
    let outline: Vec<usize> = grown
        .iter()
        .copied()
        .filter(|&i| {
            let mut all = true;
            Connectivity::Eight.for_each_neighbor(side, side, i, |nb| all &= inside(nb));
            !all
        })
        .collect();
    for i in outline {
        let (x, y) = ((i % side) as i64, (i / side) as i64);
        for dy in -r..=r {
            for dx in -r..=r {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= side as i64 || ny >= side as i64 {
                    continue;
                }
                let j = ny as usize * side + nx as usize;
                let d = dx.unsigned_abs().max(dy.unsigned_abs()) as u32;
                room[j] = room[j].min(d);
            }
        }
    }
}
