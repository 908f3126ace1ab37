//! The code plane and count pairs of a paired pass borrowed by a pass that writes its
//! region's cells itself (see [`CodedPairs`]).

use super::{LivePlanes, Plane, add_deltas};

impl LivePlanes {
    /// [`LivePlanes::coded_pairs`] to be written as well, for a pass that writes the
    /// cells of its region itself (see [`CodedPairs`]).
    #[inline]
    pub fn coded_pairs_mut(&mut self) -> Option<CodedPairs<'_>> {
        self.coded.then(|| {
            let plane = &self.planes[0];
            CodedPairs {
                codes: &mut self.store.codes[..self.len],
                pairs: &mut self.store.pairs[..self.len],
                lowest: plane.lowest,
                box3: plane.box3,
                plane,
            }
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
    /// `plane.lowest` and `plane.box3`, copied so that they stay in registers across the
    /// writes.
    lowest: isize,
    box3: Option<usize>,
}

impl CodedPairs<'_> {
    /// The cell at padded index `i` now holds `new`, which changes its pair weight by `d`
    /// (zero when it held `new` already).
    #[inline(always)]
    pub fn write(&mut self, i: usize, new: u8, d: u16) {
        self.codes[i] = new;
        let first = (i as isize + self.lowest) as usize;
        if let Some(p) = self.box3 {
            // Three rows of three cells: one bounds check for the nine.
            let cells = &mut self.pairs[first..first + 2 * p + 3];
            for r in [0, p, 2 * p] {
                let row: &mut [u16; 3] = (&mut cells[r..r + 3]).try_into().expect("three cells");
                row.iter_mut().for_each(|c| *c = c.wrapping_add(d));
            }
            return;
        }
        add_deltas(&mut self.pairs[first..], self.plane, d, u16::wrapping_add);
    }
}
