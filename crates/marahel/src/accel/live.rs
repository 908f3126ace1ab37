//! Live count planes: the weighted neighbourhood count (`all(solid)`, `plus(empty|water)`, ...)
//! of every cell of the current region, kept exact while a pass rewrites the map.
//!
//! A plane is computed once when a region pass starts ([`LivePlanes::begin`]); from then on
//! every write of a cell adds the change of its weight to the counts of the cells whose
//! neighbourhood contains it ([`LivePlanes::update`]: one addition per offset), so reading a
//! count is one load instead of one load per offset. In a buffered pass the front buffer is
//! frozen and the planes are never updated.
//!
//! All planes of a pass share one padded layout: the region plus a margin as wide as the
//! farthest offset, so updates near the region's edge need no bounds tests (cells in the margin
//! are updated but never read). The counts are stored in one of three [`CountLayout`]s:
//!
//! * [`Words`]: wrapping `u32` counts, exactly as counting afresh does; the weights laid into
//!   a padded plane, then one shifted whole-plane slice added per offset.
//! * [`Bytes`], when every count of every plane fits a byte (every weight, and the outside
//!   weight, times the offsets at most 255): wrapping byte arithmetic gives the same counts.
//!   The region's codes are laid into the padded layout once (`bytes`), each plane's
//!   weights mapped from them in one pass and summed (a 3x3 box as row sums of three, then
//!   column sums of three row sums).
//! * [`Pairs`], when the byte planes are two of the same neighbourhood (the usual cellular
//!   automaton's `all(solid)` and `all(empty)`): one `u16` per cell holding the first count
//!   plus 256 times the second, wrapping. The pair of weights is linear in the counts, so a
//!   write adds one delta (the pair weight of the new code minus the old one's) per offset
//!   for both planes, and the two bytes of a region cell are its two counts exactly, since
//!   each fits a byte. At the start of a pass the pair weights are laid out and summed as
//!   `u16` straight away (`pairs`), the same sums as the two byte planes' interleaved. The
//!   usual automaton's two one-code counts over a 3x3 box (`all(solid)`, `all(empty)`) in
//!   regions up to 30 wide are summed in one sweep over the region's rows instead, each row
//!   in registers (`narrow`).
//!
//! A pass over disjoint regions may keep each region's counts for its next repeat (see
//! [`LivePlanes::begin`]).

use crate::engine::{Canvas, FlatNbh};
use grid_core::Rect;
use std::sync::Arc;

mod blocks;
mod bytes;
mod coded;
mod layout;
mod pairs;
mod register_rows;
mod spec;
mod sums;

pub use coded::CodedPairs;
pub use layout::{ByteLayout, Bytes, CountLayout, Pairs, Words};
pub use spec::PlaneSpec;

/// Which count layouts a pass may use (all when the options allow them): byte counts
/// ([`Bytes`]) when every count fits a byte, else `u32` ([`Words`]); two byte planes of one
/// neighbourhood as [`Pairs`]; pairs with a padded code plane ([`CodedPairs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountForms {
    /// Byte counts may be used.
    pub bytes: bool,
    /// Pairs may be used.
    pub pairs: bool,
    /// A padded code plane may be kept with pairs.
    pub codes: bool,
}

/// How one live plane changes on a write.
#[derive(Debug)]
struct Plane {
    /// Weight of each code (word planes; empty until a pass has word planes).
    weights: Vec<u32>,
    /// Weight of each code (byte planes: every weight fits a byte then).
    weights8: [u8; 256],
    /// The cells whose count a write changes: padded index deltas `-(dy * pitch + dx)`,
    /// shifted by `-lowest` so that they are all `>= 0`.
    deltas: Vec<usize>,
    /// The smallest delta.
    lowest: isize,
    /// The deltas are a full 3x3 box of the padded layout (the `all` neighbourhood): three
    /// rows of three cells, `box3` apart.
    box3: Option<usize>,
}

impl Default for Plane {
    fn default() -> Self {
        Plane {
            weights: Vec::new(),
            weights8: [0; 256],
            deltas: Vec::new(),
            lowest: 0,
            box3: None,
        }
    }
}

/// Cells after each byte plane (and after the paired plane), so that a scan may read 16 counts
/// from any cell of the region.
pub const SLACK: usize = 16;

/// The counts of a pass, in one of three layouts.
#[derive(Debug, Default)]
struct Store {
    /// The padded counts of every plane as words, one after the other.
    data: Vec<u32>,
    /// The padded counts of every plane as bytes, one after the other.
    bytes: Vec<u8>,
    /// Two byte planes of the same neighbourhood in one (see [`Pairs`]): cell `i` holds the
    /// first plane's count plus 256 times the second's, wrapping.
    pairs: Vec<u16>,
    /// With the pairs: the region's codes in the padded layout, margins holding the spec's
    /// scan code (or 0), updated on every write like the counts; [`SLACK`] cells after.
    codes: Vec<u8>,
}

/// The live planes of the current region pass (buffers reused across passes).
#[derive(Debug, Default)]
pub struct LivePlanes {
    /// Planes; the first `active` are in use.
    planes: Vec<Plane>,
    /// The counts.
    store: Store,
    /// Whether the planes of this pass are bytes (`store.bytes`, or `store.pairs`), else
    /// words (`store.data`).
    small: bool,
    /// Whether the planes of this pass are a pair of byte planes in `store.pairs`.
    paired: bool,
    /// Whether row scans may run through `store.codes` (paired passes whose spec has a scan
    /// code: its margins then hold a code no rule fires on).
    coded: bool,
    /// Cells per plane in `store.data` or `store.bytes` (the padded layout, plus [`SLACK`]
    /// for bytes); `store.pairs` has one plane of pairs of this length.
    len: usize,
    /// The pair of weights of each code, when the planes are paired: low byte the first
    /// plane's weight, high byte the second's (the spec's table, shared).
    pair_w: Option<Arc<[u16; 256]>>,
    /// Number of planes in use (0: none, writes update nothing).
    active: usize,
    /// Whether writes update the planes (false in buffered passes).
    tracking: bool,
    /// The region.
    region: Rect,
    /// Row pitch of the padded layout.
    pitch: usize,
    /// Padded index of the region's top-left cell.
    origin: usize,
    /// Whether the current pass keeps its planes (see [`LivePlanes::begin`]).
    keep: bool,
    /// Kept planes by region.
    kept: Vec<(Rect, Store)>,
    /// Where in `kept` this pass found its region's planes (see [`LivePlanes::end`]).
    slot: Option<usize>,
    /// Stores released by [`LivePlanes::release_kept`], reused for the next regions' planes
    /// (no allocation once a thread has seen enough regions).
    spare: Vec<Store>,
    /// The region's codes in the padded layout (scratch).
    codes: Vec<u8>,
    /// Weight plane of the region in the padded layout, when counts fit a byte (scratch).
    pad8: Vec<u8>,
    /// Byte sums (scratch).
    acc8: Vec<u8>,
    /// Sums when counts may not fit a byte (scratch).
    acc32: Vec<u32>,
    /// Weight plane when counts may not fit a byte (scratch).
    pad32: Vec<u32>,
    /// Pair weight plane of the region in the padded layout (scratch).
    pad16: Vec<u16>,
    /// Pair sums (scratch).
    acc16: Vec<u16>,
}

/// Lays the weights of region `r`'s cells into `pad` (margins `mx`, `my`, pitch `pitch`), every
/// cell outside the region weighing `out`.
fn fill_weights<T: Copy>(
    pad: &mut Vec<T>,
    canvas: &Canvas,
    r: Rect,
    (mx, my, pitch): (usize, usize, usize),
    out: T,
    weight: impl Fn(u8) -> T,
) {
    let (rw, rh) = (r.w as usize, r.h as usize);
    pad.clear();
    pad.resize(pitch * (my + rh + my), out);
    for ly in 0..rh {
        let src = (r.y as usize + ly) * canvas.w + r.x as usize;
        let dst = (my + ly) * pitch + mx;
        for (p, &c) in pad[dst..dst + rw]
            .iter_mut()
            .zip(&canvas.front[src..src + rw])
        {
            *p = weight(c);
        }
    }
}

impl LivePlanes {
    /// Whether any plane is in use.
    #[inline]
    pub fn is_active(&self) -> bool {
        self.active != 0
    }

    /// How the active planes store their counts: `words`, `bytes`, `pairs`, `coded-pairs`
    /// (pairs with a padded code plane), or `none` when no plane is active.
    pub fn layout_name(&self) -> &'static str {
        match (self.active, self.small, self.paired, self.coded) {
            (0, ..) => "none",
            (_, false, ..) => "words",
            (_, true, false, _) => "bytes",
            (_, true, true, false) => "pairs",
            (_, true, true, true) => "coded-pairs",
        }
    }

    /// Whether writes must update the planes.
    #[inline]
    pub fn tracking(&self) -> bool {
        self.tracking
    }

    /// Padded index of cell `(x, y)` (global coordinates, inside the region).
    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        self.origin + (y - self.region.y as usize) * self.pitch + (x - self.region.x as usize)
    }

    /// The region's codes and count pairs in the padded layout, when the pass keeps both
    /// (paired planes whose spec has a scan code): index `i` of both is padded index `i`.
    /// Both have [`SLACK`] cells after the last region cell; margin codes are the scan code.
    #[inline]
    pub fn coded_pairs(&self) -> Option<(&[u8], &[u16])> {
        self.coded
            .then(|| (&self.store.codes[..self.len], &self.store.pairs[..self.len]))
    }

    /// Row pitch of the padded layout.
    #[inline]
    pub fn pitch(&self) -> usize {
        self.pitch
    }

    /// Cells per plane (see [`CountLayout`]).
    #[inline]
    pub fn plane_len(&self) -> usize {
        self.len
    }

    /// Count of plane `k` at padded index `i`.
    #[inline]
    pub fn get(&self, k: usize, i: usize) -> u32 {
        if self.paired {
            (self.store.pairs[i] >> (8 * k)) as u8 as u32
        } else if self.small {
            self.store.bytes[k * self.len + i] as u32
        } else {
            self.store.data[k * self.len + i]
        }
    }

    /// Computes `specs` over region `r` of the front buffer; `out_w` gives, per spec, the
    /// weight of a cell outside the region. `tracking`: whether writes will update them.
    /// `keep`: the planes are kept when the pass ends, and a later pass of the same explorer
    /// over the same region takes them up again instead of counting afresh; the caller
    /// guarantees that nothing else writes that region in between (the explorer's other
    /// regions are disjoint from it), so the kept planes are still exact.
    ///
    /// When every count of every plane fits a byte (every weight, and the outside weight,
    /// times the offsets at most 255), the planes are bytes: wrapping byte arithmetic then
    /// gives the same counts as wrapping words.
    #[allow(clippy::too_many_arguments)]
    pub fn begin(
        &mut self,
        specs: &[PlaneSpec],
        canvas: &Canvas,
        nbhs: &[FlatNbh],
        r: Rect,
        out_w: impl Fn(&[u32; 256]) -> u32,
        tracking: bool,
        keep: bool,
        forms: CountForms,
    ) {
        let (rw, rh) = (r.w as usize, r.h as usize);
        // One symmetric margin for all planes, as wide as the farthest offset: the counts are
        // summed over a weight plane of this layout, and writes update cells up to that far
        // outside the region.
        let (mut mx, mut my) = (0usize, 0usize);
        let mut small = true;
        for s in specs {
            debug_assert!(nbhs[s.nbh].offsets == s.offsets, "the spec's neighbourhood");
            mx = mx.max(s.reach.0);
            my = my.max(s.reach.1);
            let max_w = (s.bound | out_w(&s.weights)) as u64;
            small &= forms.bytes && max_w * s.offsets.len() as u64 <= u8::MAX as u64;
        }
        self.region = r;
        let p = mx + rw + mx;
        self.pitch = p;
        self.origin = my * p + mx;
        self.tracking = tracking;
        self.small = small;
        let paired = forms.pairs && small && specs.len() == 2 && specs[0].pair_w.is_some();
        self.paired = paired;
        let scan_code = (specs.first().and_then(|s| s.scan_code)).filter(|_| paired && forms.codes);
        self.coded = scan_code.is_some();
        // The same table pass after pass: no reference counting (atomics) unless it changes.
        let same =
            matches!((&self.pair_w, &specs[0].pair_w), (Some(a), Some(b)) if Arc::ptr_eq(a, b));
        if paired && !same {
            self.pair_w.clone_from(&specs[0].pair_w);
        }
        let padded = p * (my + rh + my);
        let len = if small { padded + SLACK } else { padded };
        self.len = len;
        if self.planes.len() < specs.len() {
            self.planes.resize_with(specs.len(), Plane::default);
        }
        let keep = keep && tracking;
        self.keep = keep;
        let kept = keep
            .then(|| self.kept.iter().position(|(kr, _)| *kr == r))
            .flatten();
        self.slot = kept;
        match kept {
            Some(i) => std::mem::swap(&mut self.store, &mut self.kept[i].1),
            // Sized when the pairs are summed.
            None if paired => {}
            None if small => {
                // Every byte the sums do not write (margins, padding columns) is never read.
                self.store.bytes.resize(len * specs.len(), 0);
            }
            None => {
                self.store.data.clear();
                // One allocation (a kept buffer left with the previous region).
                self.store.data.reserve(len * specs.len());
            }
        }
        for (s, plane) in specs.iter().zip(&mut self.planes) {
            if paired {
                // Writes update the pairs with the pair weights.
            } else if small {
                plane.weights8.copy_from_slice(&s.weights8[..]);
            } else {
                plane.weights.clear();
                plane.weights.extend_from_slice(&s.weights[..]);
            }
            plane.box3 = s.is_box.then_some(p);
            // A write at padded index i changes the counts at i - read delta.
            let reads = s
                .offsets
                .iter()
                .map(|&(dx, dy)| dy as isize * p as isize + dx as isize);
            // The largest read delta is the farthest offset's, as the pitch is more than
            // twice the farthest `|dx|`.
            plane.lowest = -(s.last.1 as isize * p as isize + s.last.0 as isize);
            debug_assert_eq!(plane.lowest, reads.clone().map(|d| -d).min().unwrap_or(0));
            if !s.is_box {
                let lowest = plane.lowest;
                plane.deltas.clear();
                plane.deltas.extend(reads.map(|d| (-d - lowest) as usize));
            }
        }
        self.active = specs.len();
        if kept.is_some() {
            return;
        }
        // The region's cells in padded coordinates: `span` cells from `origin`, pitch `pitch`
        // (the padding columns between rows are summed too and never read).
        let span = (rh - 1) * p + rw;
        let o = self.origin;
        let geometry = (mx, my, p);
        if paired {
            let outs = [0, 1].map(|k| out_w(&specs[k].weights));
            self.begin_pairs(specs, canvas, r, geometry, outs, scan_code);
            return;
        }
        // A code that weighs what the outside weighs in every plane stands for the outside:
        // then the region's codes are laid out once for all planes.
        let marker = match small {
            true => (0..=255u8).rev().find(|&c| {
                specs
                    .iter()
                    .all(|s| s.weights[c as usize] == out_w(&s.weights))
            }),
            false => None,
        };
        if let Some(m) = marker {
            bytes::lay_codes(&mut self.codes, canvas, r, geometry, m);
        }
        for (k, (s, plane)) in specs.iter().zip(&self.planes).enumerate() {
            let out = out_w(&s.weights);
            let reads = s
                .offsets
                .iter()
                .map(|&(dx, dy)| dy as isize * p as isize + dx as isize);
            if small {
                // The weights (with one weighted code, the usual `all(solid)`, a compare
                // replaces the table look-up and vectorises), then byte sums straight into
                // the plane.
                match (marker, s.single) {
                    (Some(_), Some((code, w))) => {
                        let w = w as u8;
                        bytes::map(&mut self.pad8, &self.codes, 0..padded, |c| {
                            ((c == code) as u8).wrapping_neg() & w
                        })
                    }
                    (Some(_), None) => {
                        let w8 = &plane.weights8;
                        bytes::map(&mut self.pad8, &self.codes, 0..padded, |c| w8[c as usize])
                    }
                    (None, _) => {
                        let w8 = &plane.weights8;
                        fill_weights(&mut self.pad8, canvas, r, geometry, out as u8, |c| {
                            w8[c as usize]
                        })
                    }
                }
                let dst = &mut self.store.bytes[k * len + o..k * len + o + span];
                match s.is_box {
                    true => sums::box_sums(dst, &mut self.acc8, &self.pad8, o, p),
                    false => sums::offset_sums(dst, &self.pad8, o, reads),
                }
                continue;
            }
            // The plane is appended whole: margin, the region's sums, margin (only the
            // region's cells are ever read; margins only take updates).
            let tail = len - o - span;
            self.store.data.extend(std::iter::repeat_n(0, o));
            fill_weights(&mut self.pad32, canvas, r, geometry, out, |c| {
                s.weights[c as usize]
            });
            self.acc32.clear();
            self.acc32.resize(span, 0);
            for d in reads {
                let from = (o as isize + d) as usize;
                for (a, &v) in self.acc32.iter_mut().zip(&self.pad32[from..from + span]) {
                    *a = a.wrapping_add(v);
                }
            }
            self.store.data.extend_from_slice(&self.acc32);
            self.store.data.extend(std::iter::repeat_n(0, tail));
        }
    }

    /// Ends the pass: writes no longer update anything.
    pub fn end(&mut self) {
        if self.keep && self.active != 0 {
            let r = self.region;
            // `kept` has not changed since `begin` looked the region up.
            match self.slot.take() {
                Some(i) => std::mem::swap(&mut self.store, &mut self.kept[i].1),
                None => {
                    let next = self.spare.pop().unwrap_or_default();
                    self.kept
                        .push((r, std::mem::replace(&mut self.store, next)));
                }
            }
        }
        self.active = 0;
        self.coded = false;
        self.tracking = false;
        self.keep = false;
    }

    /// Forgets the kept planes (see [`LivePlanes::begin`]), keeping their buffers for later
    /// passes. Must be called before planes kept by one explorer (or map) could be taken up
    /// by another, i.e. whenever these live planes move on to another explorer or map.
    pub fn release_kept(&mut self) {
        self.spare
            .extend(self.kept.drain(..).map(|(_, store)| store));
    }

    /// Cell `(x, y)` of the region changed from `old` to `new`.
    #[inline(always)]
    pub fn update(&mut self, x: usize, y: usize, old: u8, new: u8) {
        let i = self.index(x, y) as isize;
        if self.paired {
            // Paired passes always lay the code plane out.
            self.store.codes[i as usize] = new;
            // One delta for both planes (the planes share their deltas).
            let pw = self
                .pair_w
                .as_deref()
                .expect("paired planes have pair weights");
            let d = pw[new as usize].wrapping_sub(pw[old as usize]);
            if d != 0 {
                let plane = &self.planes[0];
                let first = (i + plane.lowest) as usize;
                add_deltas(&mut self.store.pairs[first..], plane, d, u16::wrapping_add);
            }
            return;
        }
        if self.small {
            for (k, plane) in self.planes[..self.active].iter().enumerate() {
                let dw = plane.weights8[new as usize].wrapping_sub(plane.weights8[old as usize]);
                if dw == 0 {
                    continue;
                }
                let first = k * self.len + (i + plane.lowest) as usize;
                add_deltas(&mut self.store.bytes[first..], plane, dw, u8::wrapping_add);
            }
            return;
        }
        for (k, plane) in self.planes[..self.active].iter().enumerate() {
            let dw = plane.weights[new as usize].wrapping_sub(plane.weights[old as usize]);
            if dw == 0 {
                continue;
            }
            let first = k * self.len + (i + plane.lowest) as usize;
            add_deltas(&mut self.store.data[first..], plane, dw, u32::wrapping_add);
        }
    }
}

/// Adds `dw` to the cells `plane.deltas` of `data`.
#[inline(always)]
fn add_deltas<T: Copy>(data: &mut [T], plane: &Plane, dw: T, add: impl Fn(T, T) -> T) {
    if let Some(p) = plane.box3 {
        // Three rows of three cells: one bounds check per row.
        for r in 0..3 {
            let row: &mut [T; 3] = (&mut data[r * p..r * p + 3])
                .try_into()
                .expect("three cells");
            row.iter_mut().for_each(|c| *c = add(*c, dw));
        }
        return;
    }
    match plane.deltas.len() {
        // The usual plus shape, unrolled.
        5 => {
            let d: [usize; 5] = plane.deltas[..5].try_into().expect("five deltas");
            d.iter().for_each(|&d| data[d] = add(data[d], dw));
        }
        _ => plane
            .deltas
            .iter()
            .for_each(|&d| data[d] = add(data[d], dw)),
    }
}
