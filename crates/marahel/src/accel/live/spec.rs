//! What a live plane counts.

use std::sync::Arc;

/// What one plane counts: a neighbourhood and the weight of each cell code.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaneSpec {
    /// Index into the program's neighbourhoods.
    pub nbh: usize,
    /// Weight of each code.
    pub weights: Box<[u32; 256]>,
    /// Weight of each code, as a byte (used when every count fits a byte).
    pub(super) weights8: Box<[u8; 256]>,
    /// The neighbourhood's offsets `(dx, dy)`.
    pub(super) offsets: Vec<(i64, i64)>,
    /// The farthest `|dx|` and `|dy|` of the offsets.
    pub(super) reach: (usize, usize),
    /// The last offset `(dx, dy)` in row-major order (largest `dy`, then largest `dx`; `(0,
    /// 0)` when there are none).
    pub(super) last: (i64, i64),
    /// The offsets are the 3x3 box (the `all` neighbourhood): nine distinct offsets within
    /// one cell of the centre.
    pub(super) is_box: bool,
    /// An upper bound of every weight (an OR of them all).
    pub(super) bound: u32,
    /// The code and weight of the only code with a weight, if there is one.
    pub(super) single: Option<(u8, u32)>,
    /// With the next spec of the same neighbourhood (see [`PlaneSpec::pair`]): the pair of
    /// byte weights of each code, this spec's in the low byte.
    pub(super) pair_w: Option<Arc<[u16; 256]>>,
    /// A code on which no rule of the kernel fires, for the margins of the padded code plane
    /// paired passes keep; with it, row scans run through that plane (see
    /// [`super::LivePlanes::coded_pairs`]); `None`: they do not.
    pub(super) scan_code: Option<u8>,
}

impl PlaneSpec {
    /// The plane of neighbourhood `nbh` (offsets `offsets`) with these weights.
    pub fn new(nbh: usize, offsets: &[(i32, i32)], weights: &[u32; 256]) -> PlaneSpec {
        let mut hot = weights.iter().enumerate().filter(|(_, w)| **w != 0);
        let single = match (hot.next(), hot.next()) {
            (Some((code, &w)), None) => Some((code as u8, w)),
            _ => None,
        };
        let offsets: Vec<(i64, i64)> = offsets.iter().map(|&(x, y)| (x as i64, y as i64)).collect();
        let reach = offsets.iter().fold((0, 0), |(mx, my), &(dx, dy)| {
            (
                mx.max(dx.unsigned_abs() as usize),
                my.max(dy.unsigned_abs() as usize),
            )
        });
        let mut seen = 0u16;
        for &(dx, dy) in &offsets {
            if dx.abs() <= 1 && dy.abs() <= 1 {
                seen |= 1 << ((dy + 1) * 3 + dx + 1);
            }
        }
        PlaneSpec {
            nbh,
            weights: Box::new(*weights),
            weights8: Box::new(weights.map(|w| w as u8)),
            is_box: offsets.len() == 9 && seen == 0x1ff,
            last: offsets
                .iter()
                .map(|&(dx, dy)| (dy, dx))
                .max()
                .map_or((0, 0), |(dy, dx)| (dx, dy)),
            offsets,
            reach,
            bound: weights.iter().fold(0, |a, &b| a | b),
            single,
            pair_w: None,
            scan_code: None,
        }
    }

    /// The pair of byte weights of each code, when this spec shares one plane of pairs with
    /// the next (see [`PlaneSpec::pair`]).
    pub fn pair_weights(&self) -> Option<&[u16; 256]> {
        self.pair_w.as_deref()
    }

    /// Has paired passes keep the region's codes in the padded layout, margins holding
    /// `code`, a code on which no rule fires (see [`super::LivePlanes::coded_pairs`]).
    pub fn set_scan_code(&mut self, code: u8) {
        self.scan_code = Some(code);
    }

    /// Prepares this spec to share one plane of pairs ([`super::Pairs`]) with `next`, the next spec
    /// of the pass, when both count the same neighbourhood.
    pub fn pair(&mut self, next: &PlaneSpec) {
        self.pair_w = (self.offsets == next.offsets).then(|| {
            let mut w = [0u16; 256];
            for (p, (&a, &b)) in w
                .iter_mut()
                .zip(self.weights8.iter().zip(&next.weights8[..]))
            {
                *p = a as u16 | (b as u16) << 8;
            }
            Arc::new(w)
        });
    }
}
