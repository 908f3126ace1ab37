//! The code plane and count pairs of a paired pass borrowed by a pass that writes its
//! region's cells itself (see [`CodedPairs`]).

use super::{LivePlanes, Plane, add_deltas};

impl LivePlanes {
    /// [`LivePlanes::coded_pairs`] to be written as well, for a pass that writes the
    /// cells of its region itself (see [`CodedPairs`]).
    #[inline]
    pub fn coded_pairs_mut(&mut self) -> Option<CodedPairs<'_>> {
        self.coded.then(|| CodedPairs {
            codes: &mut self.store.codes[..self.len],
            pairs: &mut self.store.pairs[..self.len],
            plane: &self.planes[0],
        })
    }
}

/// The code plane and count pairs of a paired pass (see [`LivePlanes::coded_pairs`]),
/// borrowed for a pass that writes its region's cells itself: it writes the map, and
/// [`CodedPairs::write`] keeps the codes and counts exact, as [`LivePlanes::update`] does.
#[derive(Debug)]
pub struct CodedPairs<'a> {
    /// The region's codes in the padded layout.
    pub codes: &'a mut [u8],
    /// The count pairs in the padded layout.
    pub pairs: &'a mut [u16],
    /// How a write changes the pairs.
    plane: &'a Plane,
}

impl CodedPairs<'_> {
    /// The cell at padded index `i` now holds `new`, which changes its pair weight by `d`
    /// (zero when it held `new` already).
    #[inline(always)]
    pub fn write(&mut self, i: usize, new: u8, d: u16) {
        self.codes[i] = new;
        let first = (i as isize + self.plane.lowest) as usize;
        add_deltas(&mut self.pairs[first..], self.plane, d, u16::wrapping_add);
    }
}
