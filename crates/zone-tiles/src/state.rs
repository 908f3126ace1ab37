//! Zone states: 9 on/off cells, 512 states, and their symmetry classes under D4.
//!
//! **Bit order.** Cell `(col, row)` of a zone, with row 0 at the top and col 0 on the left, is
//! bit `row * 3 + col` of the state index. The index is row-major like image rows and Tiled
//! layers:
//!
//! ```text
//!  bit 0 | bit 1 | bit 2        1 |   2 |   4
//!  bit 3 | bit 4 | bit 5   =    8 |  16 |  32
//!  bit 6 | bit 7 | bit 8       64 | 128 | 256
//! ```
//!
//! **Symmetry.** The 8 rotations and mirrors of the square (the dihedral group D4) split the
//! 512 states into [`CLASS_COUNT`] = 102 classes. [`SymmetryTable`] maps every state to its
//! class's canonical state (the smallest index in the class) plus the [`Transform`] that turns
//! the canonical tile into the state's tile. Transforms use Tiled's flip flags with Tiled's
//! order (anti-diagonal/transpose first, then horizontal, then vertical), so a TMX exporter can
//! place the class tile with exactly those flags.

use crate::error::{Result, ZoneError};
use std::sync::OnceLock;

/// Number of zone states (`2^9`).
pub const STATE_COUNT: usize = 512;
/// Number of symmetry classes under rotation and mirror (D4), computed and tested.
pub const CLASS_COUNT: usize = 102;

/// The 9-bit state of one zone (see the module docs for the bit order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ZoneState(u16);

impl ZoneState {
    /// Every cell off.
    pub const EMPTY: ZoneState = ZoneState(0);
    /// Every cell on.
    pub const FULL: ZoneState = ZoneState(511);

    /// A state from its index; an error for 512 and above.
    pub fn new(index: u32) -> Result<Self> {
        if index < STATE_COUNT as u32 {
            Ok(ZoneState(index as u16))
        } else {
            Err(ZoneError::State(index))
        }
    }

    /// A state from an index known to be in range (masked to 9 bits).
    #[inline]
    pub const fn from_bits(bits: u16) -> Self {
        ZoneState(bits & 511)
    }

    /// A state from its cells in row-major order.
    pub fn from_cells(cells: [bool; 9]) -> Self {
        let mut bits = 0u16;
        for (i, on) in cells.into_iter().enumerate() {
            bits |= u16::from(on) << i;
        }
        ZoneState(bits)
    }

    /// The state index, `0..512`.
    #[inline]
    pub const fn index(self) -> u16 {
        self.0
    }

    /// Whether cell `(col, row)` is on (`col, row < 3`).
    #[inline]
    pub const fn cell(self, col: usize, row: usize) -> bool {
        (self.0 >> (row * 3 + col)) & 1 == 1
    }

    /// Number of cells on.
    pub const fn on_count(self) -> u32 {
        self.0.count_ones()
    }
}

/// One of the 8 symmetries of the square, as Tiled's three flip flags.
///
/// Rendering applies the anti-diagonal flip (a transpose: swap x and y) first, then the
/// horizontal flip, then the vertical flip, as Tiled does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Mirror left-right (Tiled bit 31, `0x8000_0000`).
    pub flip_h: bool,
    /// Mirror top-bottom (Tiled bit 30, `0x4000_0000`).
    pub flip_v: bool,
    /// Transpose, swapping x and y (Tiled bit 29, `0x2000_0000`).
    pub flip_d: bool,
}

/// Tiled's flip bits, from grid-core's TMX writer.
pub use grid_core::export::{
    FLIP_D as TILED_FLIP_D, FLIP_H as TILED_FLIP_H, FLIP_V as TILED_FLIP_V,
};

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        flip_h: false,
        flip_v: false,
        flip_d: false,
    };

    /// All 8 transforms, identity first (the order in which the table prefers them).
    pub const ALL: [Transform; 8] = {
        let mut all = [Transform::IDENTITY; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Transform {
                flip_d: i & 4 != 0,
                flip_h: i & 1 != 0,
                flip_v: i & 2 != 0,
            };
            i += 1;
        }
        all
    };

    /// The source position in the untransformed `n x n` tile of output position `(x, y)`.
    #[inline]
    pub fn source(self, x: usize, y: usize, n: usize) -> (usize, usize) {
        let y1 = if self.flip_v { n - 1 - y } else { y };
        let x1 = if self.flip_h { n - 1 - x } else { x };
        if self.flip_d { (y1, x1) } else { (x1, y1) }
    }

    /// The state shown when the tile of `state` is drawn with this transform.
    pub fn apply(self, state: ZoneState) -> ZoneState {
        let mut bits = 0u16;
        for row in 0..3 {
            for col in 0..3 {
                let (sc, sr) = self.source(col, row, 3);
                bits |= u16::from(state.cell(sc, sr)) << (row * 3 + col);
            }
        }
        ZoneState(bits)
    }

    /// Tiled's flag bits for this transform, to OR into a gid.
    pub fn tiled_bits(self) -> u32 {
        (if self.flip_h { TILED_FLIP_H } else { 0 })
            | (if self.flip_v { TILED_FLIP_V } else { 0 })
            | (if self.flip_d { TILED_FLIP_D } else { 0 })
    }
}

/// Where a state's tile comes from in the reduced (102-tile) atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClassRef {
    /// Index of the class, `0..102`, in ascending order of canonical state.
    pub class: u8,
    /// How to draw the class tile so that it shows the state.
    pub transform: Transform,
}

/// The D4 symmetry classes of the 512 states.
#[derive(Clone, Debug)]
pub struct SymmetryTable {
    canonical: Vec<ZoneState>,
    of_state: Vec<ClassRef>,
}

impl SymmetryTable {
    /// Computes the table: canonical state = smallest index of its orbit, classes numbered in
    /// ascending canonical order, and for each state the first transform in
    /// [`Transform::ALL`] that maps the canonical state onto it.
    pub fn compute() -> Self {
        let mut canonical = Vec::new();
        let mut class_of_canon = vec![u8::MAX; STATE_COUNT];
        let mut of_state = Vec::with_capacity(STATE_COUNT);
        for s in 0..STATE_COUNT as u16 {
            let state = ZoneState(s);
            let canon = Transform::ALL
                .iter()
                .map(|t| t.apply(state))
                .min()
                .unwrap_or(state);
            if class_of_canon[canon.0 as usize] == u8::MAX {
                class_of_canon[canon.0 as usize] = canonical.len() as u8;
                canonical.push(canon);
            }
            let transform = Transform::ALL
                .into_iter()
                .find(|t| t.apply(canon) == state)
                .unwrap_or_default();
            of_state.push(ClassRef {
                class: class_of_canon[canon.0 as usize],
                transform,
            });
        }
        Self {
            canonical,
            of_state,
        }
    }

    /// The table, computed once per process.
    pub fn get() -> &'static SymmetryTable {
        static TABLE: OnceLock<SymmetryTable> = OnceLock::new();
        TABLE.get_or_init(SymmetryTable::compute)
    }

    /// Number of classes (102).
    pub fn class_count(&self) -> usize {
        self.canonical.len()
    }

    /// The canonical state of every class, in class order.
    pub fn canonical_states(&self) -> &[ZoneState] {
        &self.canonical
    }

    /// Class tile and transform of `state`.
    #[inline]
    pub fn lookup(&self, state: ZoneState) -> ClassRef {
        self.of_state[state.0 as usize]
    }

    /// The state shown by class tile `class` drawn with `transform`.
    pub fn reconstruct(&self, r: ClassRef) -> ZoneState {
        r.transform.apply(self.canonical[r.class as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_order_is_row_major() {
        let s = ZoneState::new(0b000_000_100).unwrap(); // bit 2: top right
        assert!(s.cell(2, 0));
        assert!(!s.cell(0, 2));
        assert_eq!(
            ZoneState::new(292).unwrap(),
            ZoneState::from_bits(4 | 32 | 256)
        );
        assert!(ZoneState::new(512).is_err());
    }

    #[test]
    fn symmetry_has_102_classes_and_reconstructs_every_state() {
        let t = SymmetryTable::compute();
        assert_eq!(t.class_count(), CLASS_COUNT);
        for s in 0..512 {
            let state = ZoneState::new(s).unwrap();
            let r = t.lookup(state);
            assert_eq!(t.reconstruct(r), state, "state {s}");
        }
        // Rotation only would give 140 classes: check the group really has 8 distinct elements.
        let mut distinct: Vec<ZoneState> = Transform::ALL
            .iter()
            .map(|t| t.apply(ZoneState(0b000_000_011)))
            .collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 8);
    }

    #[test]
    fn transforms_follow_tiled_semantics() {
        // Top-left cell only; flip_h moves it to the top right, flip_v to the bottom left,
        // flip_d (transpose) keeps it, and d+h (Tiled's 90 degree clockwise) to the top right.
        let tl = ZoneState(1);
        let h = Transform {
            flip_h: true,
            ..Transform::IDENTITY
        };
        let v = Transform {
            flip_v: true,
            ..Transform::IDENTITY
        };
        let d = Transform {
            flip_d: true,
            ..Transform::IDENTITY
        };
        assert_eq!(h.apply(tl), ZoneState(4));
        assert_eq!(v.apply(tl), ZoneState(64));
        assert_eq!(d.apply(ZoneState(2)), ZoneState(8));
        let cw = Transform {
            flip_d: true,
            flip_h: true,
            flip_v: false,
        };
        // Clockwise: the top-middle cell goes to the middle right.
        assert_eq!(cw.apply(ZoneState(2)), ZoneState(32));
        assert_eq!(cw.tiled_bits(), TILED_FLIP_H | TILED_FLIP_D);
    }
}
