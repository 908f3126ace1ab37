//! The floor rules of [`crate::blocks`] (rule 2 of its docs): the cells of floor zones, in
//! reference mode zone by zone, in seamless mode node by node.

use super::{Blocks, Values};
use crate::state::ZoneState;
use grid_core::connectivity::{Connectivity, components};
use grid_core::neighborhood::{RING, ring_runs};
use std::sync::OnceLock;

/// The nonempty floor masks of a 3x3 zone (bit `3 * row + col`) that are one 4-connected
/// piece.
pub fn connected_masks() -> &'static [u16] {
    static MASKS: OnceLock<Vec<u16>> = OnceLock::new();
    MASKS.get_or_init(|| {
        (1u16..512)
            .filter(|&m| components(3, 3, Connectivity::Four, |i| m >> i & 1 == 1).count() == 1)
            .collect()
    })
}

/// For every set of cells (a 9-bit mask), the [`connected_masks`] that hold it, in the same
/// order.
fn masks_holding() -> &'static [Vec<u16>] {
    static HOLDING: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    HOLDING.get_or_init(|| {
        (0u16..512)
            .map(|g| {
                let masks = connected_masks().iter();
                masks.copied().filter(|m| m & g == g).collect()
            })
            .collect()
    })
}

/// The zone's own cell `(col, row)` at position `k` along one of its sides.
type SideCell = fn(i64) -> (i64, i64);

/// The four sides of a zone: the neighbour's offset, and the zone's own cell at position `k`
/// along that side; the neighbour's facing cell is at `2 - col` or `2 - row`.
const SIDES: [((i64, i64), SideCell); 4] = [
    ((1, 0), |k| (2, k)),
    ((-1, 0), |k| (0, k)),
    ((0, 1), |k| (k, 2)),
    ((0, -1), |k| (k, 0)),
];

/// Reference mode: the states of the zones of `rect` (`x, y, w, h`), whose ring of two zones
/// must lie inside `values` and `blocks`.
pub fn reference_states(
    values: &Values,
    blocks: &Blocks,
    rect: (i64, i64, usize, usize),
) -> Vec<ZoneState> {
    let (x, y, w, h) = rect;
    (0..w * h)
        .map(|k| {
            let (zx, zy) = (x + (k % w) as i64, y + (k / w) as i64);
            if blocks.is_block(zx, zy) {
                ZoneState::FULL
            } else {
                reference_floor_zone(values, blocks, zx, zy)
            }
        })
        .collect()
}

/// The cells of floor zone `(zx, zy)` in reference mode (module docs, rule 2).
fn reference_floor_zone(values: &Values, blocks: &Blocks, zx: i64, zy: i64) -> ZoneState {
    let cell = |x: i64, y: i64, c: i64, r: i64| values.at(3 * x + c, 3 * y + r);
    let mut gates = 0u16;
    for ((dx, dy), own) in SIDES {
        let (nx, ny) = (zx + dx, zy + dy);
        if blocks.is_block(nx, ny) {
            continue;
        }
        let facing = |k| {
            let (c, r) = own(k);
            let (fc, fr) = if dx != 0 { (2 - c, r) } else { (c, 2 - r) };
            cell(zx, zy, c, r) + cell(nx, ny, fc, fr)
        };
        let k = (0..3).fold(0, |best, k| if facing(k) < facing(best) { k } else { best });
        let (c, r) = own(k);
        gates |= 1 << (3 * r + c);
    }
    let mut excess = [0.0; 9];
    for (i, e) in excess.iter_mut().enumerate() {
        *e = cell(zx, zy, (i % 3) as i64, (i / 3) as i64) - values.threshold;
    }
    let cost = |m: u16| -> f64 { (0..9).filter(|i| m >> i & 1 == 1).map(|i| excess[i]).sum() };
    let mut best = (f64::INFINITY, 0x1ff);
    for &m in &masks_holding()[usize::from(gates)] {
        let c = cost(m);
        if c < best.0 {
            best = (c, m);
        }
    }
    ZoneState::from_bits(!best.1 & 0x1ff)
}

/// Seamless mode: the states of the zones of `rect` (`x, y, w, h`), whose ring of three zones
/// must lie inside `values` and `blocks`.
pub fn seamless_states(
    values: &Values,
    blocks: &Blocks,
    rect: (i64, i64, usize, usize),
) -> Vec<ZoneState> {
    let (x, y, w, h) = rect;
    let nodes = Nodes { values, blocks };
    // The rules on the window's nodes and one node around them; then a wall node whose four
    // neighbours are floor (a one-node pillar) becomes floor.
    let (gw, gh) = (2 * w + 3, 2 * h + 3);
    let (a0, b0) = (2 * x - 1, 2 * y - 1);
    let floor: Vec<bool> = (0..gw * gh)
        .map(|i| nodes.floor(a0 + (i % gw) as i64, b0 + (i / gw) as i64))
        .collect();
    let nw = 2 * w + 1;
    let wall: Vec<bool> = (0..nw * (2 * h + 1))
        .map(|i| {
            let (u, v) = (i % nw + 1, i / nw + 1);
            let at = |u: usize, v: usize| floor[v * gw + u];
            let pillar = at(u - 1, v) && at(u + 1, v) && at(u, v - 1) && at(u, v + 1);
            !(at(u, v) || pillar)
        })
        .collect();
    (0..w * h)
        .map(|k| crate::seamless::zone_from_nodes(|a, b| wall[b * nw + a], k % w, k / w))
        .collect()
}

/// The node rules of seamless mode (module docs, rule 2).
struct Nodes<'a> {
    values: &'a Values,
    blocks: &'a Blocks,
}

impl Nodes<'_> {
    /// Whether zone `(zx, zy)` is a floor zone.
    fn open(&self, zx: i64, zy: i64) -> bool {
        !self.blocks.is_block(zx, zy)
    }

    fn noise_floor(&self, a: i64, b: i64) -> bool {
        !self.values.wall(a, b)
    }

    /// Global node `(a, b)`: floor or not.
    fn floor(&self, a: i64, b: i64) -> bool {
        match (a.rem_euclid(2), b.rem_euclid(2)) {
            (0, 0) => self.corner(a, b),
            (1, 1) => self.centre(a, b),
            _ => self.side(a, b),
        }
    }

    /// A corner node: the noise's floor, where all four zones around it are floor zones.
    fn corner(&self, a: i64, b: i64) -> bool {
        let (zx, zy) = (a.div_euclid(2), b.div_euclid(2));
        self.noise_floor(a, b)
            && self.open(zx - 1, zy - 1)
            && self.open(zx, zy - 1)
            && self.open(zx - 1, zy)
            && self.open(zx, zy)
    }

    /// Whether floor corner `(a, b)` needs its vertical (north and south) or horizontal
    /// arms made floor.
    fn corner_needs(&self, a: i64, b: i64, vertical_arms: bool) -> bool {
        if !self.corner(a, b) {
            return false;
        }
        let arm = |da: i64, db: i64| self.noise_floor(a + da, b + db);
        if (arm(0, -1) && arm(0, 1)) || (arm(-1, 0) && arm(1, 0)) {
            return false;
        }
        let v = |da: i64, db: i64| self.values.at(a + da, b + db);
        let vertical = v(0, -1) + v(0, 1) <= v(-1, 0) + v(1, 0);
        vertical == vertical_arms
    }

    /// A side node: floor between two floor zones when the noise says so, a floor corner at
    /// an end needs it, or both ends are wall.
    fn side(&self, a: i64, b: i64) -> bool {
        // Along the side: (da, db) to its ends; the two zones sharing it.
        let vertical_side = a.rem_euclid(2) == 0;
        let (da, db) = if vertical_side { (0, 1) } else { (1, 0) };
        let (zx, zy) = (a.div_euclid(2), b.div_euclid(2));
        let other = if vertical_side {
            (zx - 1, zy)
        } else {
            (zx, zy - 1)
        };
        if !(self.open(zx, zy) && self.open(other.0, other.1)) {
            return false;
        }
        let (e0, e1) = ((a - da, b - db), (a + da, b + db));
        self.noise_floor(a, b)
            || self.corner_needs(e0.0, e0.1, vertical_side)
            || self.corner_needs(e1.0, e1.1, vertical_side)
            || (!self.corner(e0.0, e0.1) && !self.corner(e1.0, e1.1))
    }

    /// A centre node: the noise's floor in a floor zone, or floor wherever the zone's border
    /// floor is not one arc of its ring.
    fn centre(&self, a: i64, b: i64) -> bool {
        let (zx, zy) = (a.div_euclid(2), b.div_euclid(2));
        if !self.open(zx, zy) {
            return false;
        }
        if self.noise_floor(a, b) {
            return true;
        }
        let ring = RING.map(|(da, db)| self.floor(a + da, b + db));
        ring_runs(ring) > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connected_masks_are_the_polyominoes_of_the_square() {
        let masks = connected_masks();
        // 9 singles, 12 dominoes, the full square; all distinct and each one piece.
        assert!(masks.contains(&0x1ff) && masks.contains(&1) && masks.contains(&0b11));
        assert!(!masks.contains(&0b101), "two corners of a row do not touch");
        assert!(
            !masks.contains(&(1 | 1 << 4)),
            "diagonal cells do not touch"
        );
        assert_eq!(masks.iter().filter(|m| m.count_ones() == 1).count(), 9);
        assert_eq!(masks.iter().filter(|m| m.count_ones() == 2).count(), 12);
    }
}
