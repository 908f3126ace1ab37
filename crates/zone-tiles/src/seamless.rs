//! Seamless mode and the border-mismatch metric.
//!
//! In the reference approach every zone averages its own 3x3 cells, so the cells on either
//! side of a zone border come from different noise windows and disagree about as often as any
//! two neighbouring cells: in about half of all neighbouring zone pairs some row or column
//! switches on/off exactly at the zone border, where neither tile can draw the transition.
//!
//! Seamless mode decides on the **dual grid**: cell values live on a lattice of *nodes*
//! spaced half a zone apart, and zone `(zx, zy)` takes nodes `(2zx + col, 2zy + row)`. Its
//! edge cells are the nodes on the zone's border, shared with the neighbour, and its corner
//! cells are shared by four zones. Neighbouring zones therefore agree on every shared edge by
//! construction (mismatch rate 0), and all 512 states remain possible. A node's value is the
//! mean noise over a cell-sized window centred on it.

use crate::matcher::window_average;
use crate::noise::Noise;
use crate::state::ZoneState;
use grid_core::Grid;

/// The value of node `(a, b)` (global node coordinates, two per zone plus one).
#[inline(always)]
pub fn node_value(noise: &Noise, a: i64, b: i64, zone: u32, stride: u32) -> f64 {
    let half = f64::from(zone) * 0.5;
    let c = zone / 3;
    let r = f64::from(c) * 0.5;
    window_average(noise, a as f64 * half - r, b as f64 * half - r, c, stride)
}

/// The state of zone `(zx, zy)` from the 3x3 on/off nodes at `(2zx.., 2zy..)` given by `on`.
#[inline]
pub fn zone_from_nodes(on: impl Fn(usize, usize) -> bool, zx: usize, zy: usize) -> ZoneState {
    let mut bits = 0u16;
    for row in 0..3 {
        for col in 0..3 {
            bits |= u16::from(on(2 * zx + col, 2 * zy + row)) << (row * 3 + col);
        }
    }
    ZoneState::from_bits(bits)
}

/// Border agreement of a grid of zone states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mismatch {
    /// Neighbouring zone pairs (horizontal plus vertical).
    pub pairs: u64,
    /// Pairs where at least one of the 3 cell pairs across the shared edge differs.
    pub mismatched: u64,
    /// Cell pairs across zone borders (3 per zone pair).
    pub cell_pairs: u64,
    /// Cell pairs across zone borders that differ.
    pub cell_mismatched: u64,
}

impl Mismatch {
    /// Fraction of neighbouring zone pairs that disagree somewhere on their edge.
    pub fn rate(&self) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.mismatched as f64 / self.pairs as f64
        }
    }

    /// Fraction of border cell pairs that differ.
    pub fn cell_rate(&self) -> f64 {
        if self.cell_pairs == 0 {
            0.0
        } else {
            self.cell_mismatched as f64 / self.cell_pairs as f64
        }
    }
}

/// Counts border mismatches: for horizontal neighbours A|B, A's right column against B's left
/// column; for vertical neighbours, A's bottom row against B's top row.
///
/// In seamless mode the two sides are the *same* shared nodes, so "agree" means equal.
pub fn border_mismatch(states: &Grid<ZoneState>) -> Mismatch {
    let mut m = Mismatch::default();
    let (w, h) = (states.width(), states.height());
    for y in 0..h {
        for x in 0..w {
            let a = *states.at(x, y);
            if x + 1 < w {
                let b = *states.at(x + 1, y);
                let diff = (0..3).filter(|&r| a.cell(2, r) != b.cell(0, r)).count() as u64;
                m.pairs += 1;
                m.cell_pairs += 3;
                m.cell_mismatched += diff;
                m.mismatched += u64::from(diff > 0);
            }
            if y + 1 < h {
                let b = *states.at(x, y + 1);
                let diff = (0..3).filter(|&c| a.cell(c, 2) != b.cell(c, 0)).count() as u64;
                m.pairs += 1;
                m.cell_pairs += 3;
                m.cell_mismatched += diff;
                m.mismatched += u64::from(diff > 0);
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mismatch_counts_edges() {
        // Left zone: right column on; right zone: left column off -> 1 mismatched pair.
        let a = ZoneState::from_bits(4 | 32 | 256);
        let g = Grid::from_vec(2, 1, vec![a, ZoneState::EMPTY]).unwrap();
        let m = border_mismatch(&g);
        assert_eq!((m.pairs, m.mismatched, m.cell_mismatched), (1, 1, 3));
        let g = Grid::from_vec(2, 1, vec![a, ZoneState::from_bits(1 | 8 | 64)]).unwrap();
        assert_eq!(border_mismatch(&g).mismatched, 0);
    }

    #[test]
    fn nodes_are_shared() {
        let on = |x: usize, y: usize| (x * 7 + y * 3) % 5 < 2;
        let left = zone_from_nodes(on, 0, 0);
        let right = zone_from_nodes(on, 1, 0);
        for r in 0..3 {
            assert_eq!(left.cell(2, r), right.cell(0, r));
        }
    }
}
