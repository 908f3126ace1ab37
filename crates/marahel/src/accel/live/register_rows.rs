//! Paired 3x3 box planes of narrow regions at the start of a pass, in one sweep over the rows
//! (see [`box_pairs`]).
//!
//! The usual cellular automaton counts `all(solid)` and `all(empty)` (one weighted code each)
//! over regions a dozen or two cells wide. [`super::pairs`] lays the pair weights into a
//! padded plane, then sums rows and columns of it, paying a row's loop overhead three times;
//! here each region row is one vector of `W` lanes (the row, its right margin and the next
//! row's left margin, `W >= w + 2`): its codes are loaded once, stored into the code plane,
//! weighed, and summed with their left and right neighbours in registers (margins weighing
//! the outside), and each count row is the sum of three such row sums (the rows above and
//! below the region's weighing three outside cells each). Only the lanes of region cells are
//! the counts [`super::pairs`] gives; the others land in margins, whose counts are never
//! read.

use super::pairs::Geometry;
use crate::engine::Canvas;
use grid_core::Rect;
use std::array::from_fn;

/// The widest region [`box_pairs`] takes with `W` lanes: the row and two margin cells.
pub const fn fits(w: usize, lanes: usize) -> bool {
    w + 2 <= lanes
}

/// The codes and weights of one pass: codes `a` and `b` weigh `wa` in the low byte and `wb`
/// in the high byte of a pair; a cell outside the region weighs `out`; margin cells of the
/// code plane hold `margin`.
#[derive(Clone, Copy, Debug)]
pub struct Weighing {
    pub a: u8,
    pub wa: u8,
    pub b: u8,
    pub wb: u8,
    pub out: u16,
    pub margin: u8,
}

/// Lanes of a block.
const L: usize = 16;

/// A block of byte lanes.
type Block = [u8; L];

/// The paired 3x3 box counts of region `r` (geometry `g`, margins of one cell) into `pairs`
/// and its codes into `codes` (margins holding `k.margin`), `N` blocks of sixteen lanes a
/// row: the region is at most `16 N - 2` wide ([`fits`]). Both buffers must hold the padded
/// layout and [`super::SLACK`] cells, and the last row's `16 N` lanes.
///
/// The two counts of a pair are summed apart, as bytes (sixteen to a vector), and
/// interleaved when stored: each fits a byte, so the low byte of the pair never carries
/// into the high one, and the high byte wraps as a byte does.
#[inline(always)]
pub fn box_pairs<const N: usize>(
    pairs: &mut [u16],
    codes: &mut [u8],
    canvas: &Canvas,
    r: Rect,
    g: Geometry,
    k: Weighing,
) {
    let (mx, my, p) = g;
    let (rw, rh) = (r.w as usize, r.h as usize);
    debug_assert!(mx == 1 && my == 1 && fits(rw, N * L));
    let o = p + 1;
    let total = p * (rh + 2);
    codes[..o].fill(k.margin);
    let mut edges = [Edges::new(rw, 0, k); N];
    for (b, e) in edges.iter_mut().enumerate().skip(1) {
        *e = Edges::new(rw, b * L, k);
    }
    let (x0, y0, cw) = (r.x as usize, r.y as usize, canvas.w);
    let front = &canvas.front[..];
    let mut edge = [0u8; 4 * L];
    // The rows above and below the region: three outside cells each.
    let three = |w: u8| [w.wrapping_mul(3); L];
    let outside = [(three(k.out as u8), three((k.out >> 8) as u8)); N];
    let mut above = outside;
    let first = y0 * cw + x0;
    let mut here = row_sums::<N>(front, first, &edges, &k, &mut codes[o..], &mut edge);
    for y in 0..rh {
        let below = match y + 1 < rh {
            true => {
                let (src, at) = (first + (y + 1) * cw, o + (y + 1) * p);
                row_sums::<N>(front, src, &edges, &k, &mut codes[at..], &mut edge)
            }
            false => outside,
        };
        let at = o + y * p;
        for (b, dst) in pairs[at..at + N * L].chunks_exact_mut(L).enumerate() {
            let (a, h, w) = (&above[b], &here[b], &below[b]);
            let (mut lo, mut hi) = ([0u8; L], [0u8; L]);
            for i in 0..L {
                lo[i] = a.0[i].wrapping_add(h.0[i]).wrapping_add(w.0[i]);
                hi[i] = a.1[i].wrapping_add(h.1[i]).wrapping_add(w.1[i]);
            }
            let mut pair = [0u16; L];
            for (i, d) in pair.iter_mut().enumerate() {
                *d = lo[i] as u16 | (hi[i] as u16) << 8;
            }
            dst.copy_from_slice(&pair);
        }
        above = here;
        here = below;
    }
    // The bottom margin, and the slack after it.
    codes[(rh + 1) * p..total + super::SLACK].fill(k.margin);
}

/// WrappingSum masks of one block of a region row (lanes `from..from + 16`): which lanes hold
/// region cells, and the lane whose right neighbour is outside the region.
#[derive(Clone, Copy)]
struct Edges {
    /// 0xff on region cells, else 0.
    keep: Block,
    /// The margin code off region cells, else 0.
    fill: Block,
    /// 0 on the last region cell, else 0xff.
    inner: Block,
    /// The outside weights (low, high byte of the pair) on the last region cell, else 0.
    out_last: (Block, Block),
}

/// `STEP[16 - n..][..16]`: the first `n` lanes set (`n <= 16`).
const STEP: [u8; 2 * L] = {
    let mut s = [0; 2 * L];
    let mut i = 0;
    while i < L {
        s[i] = 0xff;
        i += 1;
    }
    s
};

/// `SPIKE[32 - n..][..16]`: lane `n - 1` set, if `1 <= n <= 16`.
const SPIKE: [u8; 3 * L] = {
    let mut s = [0; 3 * L];
    s[2 * L - 1] = 0xff;
    s
};

impl Edges {
    #[inline(always)]
    fn new(rw: usize, from: usize, k: Weighing) -> Edges {
        // Region cells in this block: lanes `0..n`.
        let n = rw.saturating_sub(from).min(L + 1);
        let keep: Block = STEP[L - n.min(L)..][..L].try_into().expect("a block");
        let last: Block = SPIKE[2 * L - n..][..L].try_into().expect("a block");
        Edges {
            keep,
            fill: keep.map(|m| !m & k.margin),
            inner: last.map(|m| !m),
            out_last: (
                last.map(|m| m & k.out as u8),
                last.map(|m| m & (k.out >> 8) as u8),
            ),
        }
    }
}

/// The weights of a block of codes: the low and the high byte of their pairs.
#[inline(always)]
pub fn weigh(c: &Block, k: &Weighing) -> (Block, Block) {
    (
        c.map(|c| ((c == k.a) as u8).wrapping_neg() & k.wa),
        c.map(|c| ((c == k.b) as u8).wrapping_neg() & k.wb),
    )
}

/// Each lane's left neighbour: `x` moved up one lane, `carry` into lane 0.
#[inline(always)]
fn from_left(x: &Block, carry: u8) -> Block {
    from_fn(|i| if i == 0 { carry } else { x[i - 1] })
}

/// Each lane's right neighbour: `x` moved down one lane, `carry` into lane 15.
#[inline(always)]
fn from_right(x: &Block, carry: u8) -> Block {
    from_fn(|i| if i == L - 1 { carry } else { x[i + 1] })
}

/// One region row (from map index `src`): its codes into `to` (margin codes off the row),
/// and the sums of three weights along it, low and high bytes apart (a region cell's left
/// and right neighbours outside the region weighing the outside; lanes off the row are
/// junk). `edge`: scratch for the map's last cells.
#[inline(always)]
fn row_sums<const N: usize>(
    front: &[u8],
    src: usize,
    edges: &[Edges; N],
    k: &Weighing,
    to: &mut [u8],
    edge: &mut [u8; 4 * L],
) -> [(Block, Block); N] {
    let s: &[u8] = match front.get(src..src + N * L) {
        Some(s) => s,
        None => {
            // The map's last cells (the cells off the map take any code).
            let c = &front[src..];
            edge[..c.len()].copy_from_slice(c);
            &edge[..N * L]
        }
    };
    let mut w = [([0u8; L], [0u8; L]); N];
    for (b, (w, e)) in w.iter_mut().zip(edges).enumerate() {
        let at = b * L;
        let c: Block = s[at..at + L].try_into().expect("a block");
        let mut t = [0u8; L];
        for (i, t) in t.iter_mut().enumerate() {
            *t = (c[i] & e.keep[i]) | e.fill[i];
        }
        to[at..at + L].copy_from_slice(&t);
        *w = weigh(&c, k);
    }
    let mut sums = [([0u8; L], [0u8; L]); N];
    for (b, (h, e)) in sums.iter_mut().zip(edges).enumerate() {
        // The left neighbour of the row's first cell is outside; the right one of its last
        // cell is set by `e`.
        let (lo, hi) = match b {
            0 => (k.out as u8, (k.out >> 8) as u8),
            _ => (w[b - 1].0[L - 1], w[b - 1].1[L - 1]),
        };
        let left = (from_left(&w[b].0, lo), from_left(&w[b].1, hi));
        let (lo, hi) = match w.get(b + 1) {
            Some(n) => (n.0[0], n.1[0]),
            None => (0, 0),
        };
        let right = (from_right(&w[b].0, lo), from_right(&w[b].1, hi));
        let c = &w[b];
        for i in 0..L {
            let right_lo = (right.0[i] & e.inner[i]) | e.out_last.0[i];
            let right_hi = (right.1[i] & e.inner[i]) | e.out_last.1[i];
            h.0[i] = left.0[i].wrapping_add(c.0[i]).wrapping_add(right_lo);
            h.1[i] = left.1[i].wrapping_add(c.1[i]).wrapping_add(right_hi);
        }
    }
    sums
}
