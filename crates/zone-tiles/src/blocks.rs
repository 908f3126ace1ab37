//! Every window connected: wall blocks on a macro grid, floor joined zone by zone
//! ([`Connected::Windows`](crate::Connected::Windows)).
//!
//! **The goal.** Every window of zones at any origin, at least [`MAX_BLOCK`]` + 1` (7) zones
//! on each side (a 40x30 window, a 16x16 chunk), is one 4-connected floor area on its own, and any
//! window is still generated alone and agrees with its neighbours. (Floor is off, wall is
//! on; a window holds its zones' cells, in seamless mode the nodes of its closed rectangle
//! `[2x, 2(x+w)] x [2y, 2(y+h)]`, far border included.)
//!
//! **Why the walls must be blocks.** Take the window whose bottom-right zone is `A`: the
//! floor of `A` must join the rest through `A`'s west or north side, and likewise for the
//! other three corners; so a wall mass that spans more than one zone line in both directions
//! must have the footprint of a rectangle of zones (a disk, an L or a staircase encloses the
//! corner of some window), and the zones of that footprint must be all wall (a floor cell of
//! a footprint zone at a window's corner joins nothing inside the window).
//!
//! **The construction.**
//!
//! 1. *Blocks.* The plane of zones is cut into rectangular macro cells ([`MacroGrid`]):
//!    columns of [`MACRO_ZONES`] ± [`MACRO_JITTER`] zones (boundaries at hashed shifts from
//!    a regular grid), each column cut into cells of the same range of heights with shifts
//!    of its own. Each macro cell holds at most one *block*, a rectangle of zones inside all
//!    but its last column and row: the rectangle that best covers the noise's wall there
//!    (the largest positive sum over its zones of `walls - bias`, where `walls` counts the
//!    zone's cells that a sketch of the noise (2x2 samples per cell, or the usual sampling
//!    when that is coarser) makes wall and `bias` is set by [`BLOCK_FOLLOW`] and
//!    [`BLOCK_MARGIN_REFERENCE`] or [`BLOCK_MARGIN_SEAMLESS`]; none when no sum is
//!    positive). Every cell of a block zone is wall.
//!    Two macro cells are apart along x or along y, and a block keeps at least one free
//!    column (row) before its cell's far side, so two blocks never touch, not even at a
//!    corner, and a block is at most [`MAX_BLOCK`] zones on a side.
//! 2. *Floor zones* (all others) keep the noise's cells under two rules: the zone's floor is
//!    one 4-connected piece inside the zone, and it touches the floor of every floor
//!    neighbour across their shared side.
//!    * Reference mode: each side between two floor zones has a *gate*, the position along
//!      the side where the two facing cells have the smallest summed noise (both zones
//!      compute it alike); both gate cells are floor. Among all 4-connected floor sets of the
//!      zone's 3x3 cells that hold its gates, the zone takes the one with the least sum of
//!      `value - threshold` over its cells: the set closest to the noise (digging a wall cell
//!      costs its excess, dropping a floor cell its margin).
//!    * Seamless mode: border nodes are shared, so the rules are per node. A *corner* node
//!      (shared by four zones) is floor when the noise says so and all four zones are floor
//!      zones; a floor corner needs, in each of its four zones, a floor neighbour node: its
//!      north and south arms, or its west and east arms (the pair with the smaller noise, if
//!      the noise gives neither). A *side* node (shared by two zones) is floor when both
//!      zones are floor zones and the noise says so, or a floor corner needs it as an arm, or
//!      both corners at the ends of its side are wall (the gate). A *centre* node is floor
//!      when its zone is a floor zone and the noise says so, or when the zone's floor border
//!      nodes do not form one arc of the ring around it. Last, a wall node whose four
//!      neighbours are floor becomes floor: such one-node pillars sit on the half-zone node
//!      lattice, and many of them show it as a regular dot pattern. (Adding a node next to
//!      floor on all sides keeps every zone's floor one piece: in each zone holding the
//!      node, one of its neighbours is floor.)
//!
//!    The rules read the noise value plus [`EDGE_PULL`] at cells (nodes) next to a block, so
//!    the floor zones around a block keep more wall there and its outline turns ragged; the
//!    rules hold for any values.
//!
//! **Proof.** Let `W` be a window of more than [`MAX_BLOCK`] zones on each side. (a) *The
//! floor zones of `W` are 4-connected.* A block is at most [`MAX_BLOCK`] zones on a side,
//! so its part in `W` never touches two opposite sides of `W`. The ring of zones around a
//! block holds no block zone (two blocks do not touch), so the ring's part in `W` is a
//! 4-connected path or cycle of floor zones (a block cut by one side of `W` leaves a U, by
//! two adjacent sides an L). Any 4-path in `W` between two floor zones can therefore be
//! rerouted around each block it crosses: from the last floor zone before it enters the
//! block to the first after it leaves the block for good, along the ring. (b) *Zones to
//! cells.* Every floor cell of `W` belongs to a floor zone of `W` (block zones are all wall,
//! a shared node of a block zone is wall). A floor zone's floor is one 4-connected piece
//! inside the zone, hence inside `W`, and the floors of two neighbouring floor zones touch
//! (reference: the gate cells are 4-adjacent; seamless: they share a floor node of their
//! side). So all floor of `W` is one area. In seamless mode the node rules give exactly the
//! two zone rules: a floor corner's chosen arms are side nodes adjacent to it in each of its
//! four zones, side nodes are adjacent to both zones' centres, so a floor centre joins the
//! whole zone and a wall centre leaves one arc; a side between floor zones always has a floor
//! node (the side node itself, or a floor corner); and a floor zone has a floor side node,
//! since it has at least two floor neighbours (two block neighbours of one zone are
//! opposite, or they would touch at a corner) and each such side holds floor.
//!
//! **Locality.** A zone's cells depend on the blocks of the zones within three zones of it
//! and on the noise within two zones of it; a window is computed from the noise of the zones
//! within three zones of it and the sketch of the macro cells meeting those (at most
//! [`MAX_BLOCK`]` + 4` zones beyond it on each side), so a chunk generated alone equals the
//! same zones cut from a larger window (tested).
//!
//! **The trade-off.** The caves lose their larger shapes: walls are blocks of at most
//! [`MAX_BLOCK`] zones a side with ragged edges, and short wall spurs (in reference mode also
//! single cells) inside the floor. Floor zones hold at most 4 of their 9 cells as wall, so
//! the blocks carry the rest of the fill.

use crate::lattice::lattice_hash;

mod floor;
pub use floor::{connected_masks, reference_states, seamless_states};

/// Mean side of a macro cell, in zones.
pub const MACRO_ZONES: i64 = 5;
/// Largest shift of a macro cell's boundary from the regular grid, in zones: cells are
/// `MACRO_ZONES - MACRO_JITTER ..= MACRO_ZONES + MACRO_JITTER` zones on a side.
pub const MACRO_JITTER: i64 = 2;
/// The largest side of a block, in zones (one less than the largest macro cell).
pub const MAX_BLOCK: i64 = MACRO_ZONES + MACRO_JITTER - 1;
/// The smallest window side, in zones, that is one floor area at any origin (no block
/// spans it): `MAX_BLOCK + 1`. The number `levelgen zones --help` states.
pub const MIN_WINDOW: u32 = MAX_BLOCK as u32 + 1;
/// A zone counts towards a block with `walls - bias`, where
/// `bias = 9 * (0.45 + BLOCK_FOLLOW * (share - 0.45)) + margin` (`walls`: its cells the noise
/// makes wall, 0..=9; `share`: the noise's share of wall cells, 0.45 by default): at the
/// default fill, zones with 5 or more wall cells pull a block over them. This is the margin
/// in reference mode.
pub const BLOCK_MARGIN_REFERENCE: f64 = 0.7;
/// The margin in seamless mode, lower: there the floor zones keep less wall (pillars are
/// cleared), so the blocks carry more.
pub const BLOCK_MARGIN_SEAMLESS: f64 = 0.5;
/// How far the block bias follows the noise's share of wall. Floor zones hold at most 4 of
/// their 9 cells as wall, so at a high fill the blocks must carry more of the wall: a bias
/// that followed the share fully kept the wall share within 0.33..0.44 for fills 0.3..0.6,
/// a fixed bias swung it from 0.26 to 0.75; half way keeps it within 10 points of the fill
/// (measured in `tests/windows.rs`).
pub const BLOCK_FOLLOW: f64 = 0.5;

/// Added to the noise value of a cell (node) next to a block, so that the floor zones
/// around a block keep more of the noise's wall there and the block's outline turns ragged.
pub const EDGE_PULL: f64 = 0.2;

/// The macro cells: columns of jittered widths, each cut into cells of jittered heights
/// with its own offsets, so that cells of neighbouring columns do not line up (a brick
/// pattern without a period).
#[derive(Clone, Copy, Debug)]
pub struct MacroGrid {
    seed: u64,
}

impl MacroGrid {
    /// The macro grid of the world with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed: grid_core::rng::mix64(seed ^ 0x626c_6f63_6b73),
        }
    }

    /// Boundary `i` along a line: `i * MACRO_ZONES` plus a hashed shift in `0..=MACRO_JITTER`.
    fn boundary(&self, i: i64, line: i64, key: u64) -> i64 {
        let shift = lattice_hash(self.seed ^ key, i, line) % (MACRO_JITTER as u64 + 1);
        i * MACRO_ZONES + shift as i64
    }

    /// The index of the interval `[boundary(i), boundary(i + 1))` holding `z`.
    fn interval(&self, z: i64, line: i64, key: u64) -> i64 {
        let mut i = z.div_euclid(MACRO_ZONES);
        while self.boundary(i, line, key) > z {
            i -= 1;
        }
        i
    }

    /// The column holding zone column `zx`, and its zone columns `[x0, x1)`.
    fn column(&self, zx: i64) -> (i64, i64, i64) {
        let i = self.interval(zx, 0, 1);
        (i, self.boundary(i, 0, 1), self.boundary(i + 1, 0, 1))
    }

    /// The zone rows `[y0, y1)` of the cell of column `i` holding zone row `zy`.
    fn rows(&self, i: i64, zy: i64) -> (i64, i64) {
        let j = self.interval(zy, i, 2);
        (self.boundary(j, i, 2), self.boundary(j + 1, i, 2))
    }

    /// The macro cells (`x0, y0, x1, y1`, exclusive ends) that meet the zones `[x0, x1) x
    /// [y0, y1)`.
    pub fn cells_meeting(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> Vec<[i64; 4]> {
        let mut out = Vec::new();
        let mut x = x0;
        while x < x1 {
            let (i, cx0, cx1) = self.column(x);
            let mut y = y0;
            while y < y1 {
                let (cy0, cy1) = self.rows(i, y);
                out.push([cx0, cy0, cx1, cy1]);
                y = cy1;
            }
            x = cx1;
        }
        out
    }
}

/// Noise values of a rectangle of zones: 3x3 cells per zone (reference mode), or the
/// `(2w + 1) x (2h + 1)` nodes of its closed rectangle (seamless mode).
#[derive(Clone, Debug)]
pub struct Values {
    /// First zone column.
    pub x0: i64,
    /// First zone row.
    pub y0: i64,
    /// Zones across.
    pub zones_wide: usize,
    /// Zones down.
    pub zones_high: usize,
    /// Seamless mode: values on shared nodes.
    pub shared: bool,
    /// The values, row-major over the lattice.
    pub values: Vec<f64>,
    /// A value above this is wall.
    pub threshold: f64,
    /// The share of the noise's cells (nodes) above the threshold, over the whole world
    /// (the fill, or measured on the calibration window).
    pub wall_share: f64,
}

impl Values {
    /// Lattice points per zone.
    fn period(&self) -> i64 {
        if self.shared { 2 } else { 3 }
    }

    /// Lattice width.
    fn width(&self) -> usize {
        if self.shared {
            2 * self.zones_wide + 1
        } else {
            3 * self.zones_wide
        }
    }

    /// The value at global lattice point `(u, v)`.
    fn at(&self, u: i64, v: i64) -> f64 {
        let p = self.period();
        let (i, j) = ((u - self.x0 * p) as usize, (v - self.y0 * p) as usize);
        self.values[j * self.width() + i]
    }

    fn wall(&self, u: i64, v: i64) -> bool {
        self.at(u, v) > self.threshold
    }

    /// The cells of zone `(zx, zy)` that the noise makes wall.
    fn zone_walls(&self, zx: i64, zy: i64) -> f64 {
        let p = self.period();
        let mut n = 0.0;
        for r in 0..3 {
            for c in 0..3 {
                n += f64::from(u8::from(self.wall(p * zx + c, p * zy + r)));
            }
        }
        n
    }
}

/// Which zones of a rectangle are block zones.
#[derive(Clone, Debug)]
pub struct Blocks {
    x0: i64,
    y0: i64,
    width: usize,
    block: Vec<bool>,
}

impl Blocks {
    /// Whether zone `(zx, zy)` (inside the rectangle) is a block zone.
    pub fn is_block(&self, zx: i64, zy: i64) -> bool {
        self.block[(zy - self.y0) as usize * self.width + (zx - self.x0) as usize]
    }

    /// Whether zone `(zx, zy)` lies inside the rectangle.
    fn covers(&self, zx: i64, zy: i64) -> bool {
        let height = (self.block.len() / self.width) as i64;
        (self.x0..self.x0 + self.width as i64).contains(&zx)
            && (self.y0..self.y0 + height).contains(&zy)
    }

    /// Whether lattice point `(u, v)` (cell, or node when `shared`) is wall of a block.
    /// `None` where a zone holding the point lies outside the rectangle.
    fn in_block(&self, u: i64, v: i64, shared: bool) -> Option<bool> {
        // The zones holding the point: one per axis, or two on a zone line (seamless).
        let zones = |a: i64| match (shared, a.rem_euclid(2)) {
            (false, _) => (a.div_euclid(3), a.div_euclid(3)),
            (true, 0) => (a.div_euclid(2) - 1, a.div_euclid(2)),
            (true, _) => (a.div_euclid(2), a.div_euclid(2)),
        };
        let ((x0, x1), (y0, y1)) = (zones(u), zones(v));
        let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)];
        if !corners.iter().all(|&(x, y)| self.covers(x, y)) {
            return None;
        }
        Some(corners.iter().any(|&(x, y)| self.is_block(x, y)))
    }
}

/// Adds [`EDGE_PULL`] to the value of every lattice point of `values` next to a block: the
/// values the floor rules read. (Points whose neighbours' zones `blocks` does not cover keep
/// their value; the rules never read them.)
pub fn pull_to_blocks(values: &mut Values, blocks: &Blocks) {
    let (p, w) = (values.period(), values.width());
    let (u0, v0) = (values.x0 * p, values.y0 * p);
    for k in 0..values.values.len() {
        let (u, v) = (u0 + (k % w) as i64, v0 + (k / w) as i64);
        let mut near = Some(false);
        for (du, dv) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            near = match (near, blocks.in_block(u + du, v + dv, values.shared)) {
                (Some(n), Some(b)) => Some(n || b),
                _ => None,
            };
        }
        if near == Some(true) {
            values.values[k] += EDGE_PULL;
        }
    }
}

/// The zones `[x0, x1) x [y0, y1)` whose values decide the blocks of the zones `rect`
/// (`x, y, w, h`): the macro cells meeting it.
pub fn values_needed(grid: &MacroGrid, rect: (i64, i64, usize, usize)) -> [i64; 4] {
    let (x, y, w, h) = rect;
    let cells = grid.cells_meeting(x, y, x + w as i64, y + h as i64);
    let mut r = [i64::MAX, i64::MAX, i64::MIN, i64::MIN];
    for c in cells {
        r = [
            r[0].min(c[0]),
            r[1].min(c[1]),
            r[2].max(c[2]),
            r[3].max(c[3]),
        ];
    }
    r
}

/// The block zones among the zones `rect` (`x, y, w, h`): the block of every macro cell
/// meeting it, placed on `values` (which must cover [`values_needed`]).
pub fn place_blocks(grid: &MacroGrid, values: &Values, rect: (i64, i64, usize, usize)) -> Blocks {
    let (x, y, w, h) = rect;
    let mut block = vec![false; w * h];
    let margin = if values.shared {
        BLOCK_MARGIN_SEAMLESS
    } else {
        BLOCK_MARGIN_REFERENCE
    };
    let bias = 9.0 * (0.45 + BLOCK_FOLLOW * (values.wall_share - 0.45)) + margin;
    for [cx0, cy0, cx1, cy1] in grid.cells_meeting(x, y, x + w as i64, y + h as i64) {
        let (iw, ih) = ((cx1 - cx0 - 1) as usize, (cy1 - cy0 - 1) as usize);
        let score = |i: usize, j: usize| values.zone_walls(cx0 + i as i64, cy0 + j as i64) - bias;
        if let Some((bx0, by0, bx1, by1)) = best_rectangle(iw, ih, score) {
            for by in by0..=by1 {
                for bx in bx0..=bx1 {
                    let (zx, zy) = (cx0 + bx as i64 - x, cy0 + by as i64 - y);
                    if (0..w as i64).contains(&zx) && (0..h as i64).contains(&zy) {
                        block[zy as usize * w + zx as usize] = true;
                    }
                }
            }
        }
    }
    Blocks {
        x0: x,
        y0: y,
        width: w,
        block,
    }
}

/// The rectangle `(x0, y0, x1, y1)` (inclusive) of a `w x h` grid with the largest positive
/// sum of `score`, the first in row-major order of its corners on ties.
fn best_rectangle(
    w: usize,
    h: usize,
    score: impl Fn(usize, usize) -> f64,
) -> Option<(usize, usize, usize, usize)> {
    // Prefix sums: sum[y][x] over [0, x) x [0, y).
    let s = w + 1;
    let mut sum = vec![0.0; s * (h + 1)];
    for y in 0..h {
        for x in 0..w {
            sum[(y + 1) * s + x + 1] =
                score(x, y) + sum[y * s + x + 1] + sum[(y + 1) * s + x] - sum[y * s + x];
        }
    }
    let at = |x: usize, y: usize| sum[y * s + x];
    let mut best = (0.0, None);
    for y0 in 0..h {
        for x0 in 0..w {
            for y1 in y0..h {
                for x1 in x0..w {
                    let v = at(x1 + 1, y1 + 1) - at(x0, y1 + 1) - at(x1 + 1, y0) + at(x0, y0);
                    if v > best.0 {
                        best = (v, Some((x0, y0, x1, y1)));
                    }
                }
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_rectangle_covers_the_positive_scores() {
        let score = |x: usize, y: usize| {
            if (1..3).contains(&x) && y == 2 {
                5.0
            } else {
                -1.0
            }
        };
        assert_eq!(best_rectangle(3, 3, score), Some((1, 2, 2, 2)));
        assert_eq!(best_rectangle(3, 3, |_, _| -1.0), None);
        assert_eq!(best_rectangle(4, 2, |_, _| 1.0), Some((0, 0, 3, 1)));
    }
}
