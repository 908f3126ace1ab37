//! The raster passes of stages 1 and 2 for the 4 unit steps and the 8 steps of the 3x3
//! square, one row at a time: each cell reads its neighbours in the row and in the row
//! before it (above in a forward pass, below in a backward one), through iterators (no
//! bounds tests per cell).

use crate::explorer::connect::tree::grid::{Key, NONE, OPEN, STEP, join, key_of};
use std::hint::select_unpredictable;

/// The lesser of two keys, without a branch (which is less is data: a branch on it would
/// be mispredicted at random).
#[inline(always)]
fn least(a: Key, b: Key) -> Key {
    select_unpredictable(b < a, b, a)
}

/// The forward pass on one row `cur` of provisional areas. An area cell takes its area's
/// key (its provisional area's `number`, no step: nothing is nearer). Any other cell takes
/// the least, plus a [`STEP`], of its left neighbour's (the first cell's is `left`) and its
/// neighbours' above (in `near`, the row above with one more cell on each side: the one
/// straight above, and with `DIAGONAL` the two diagonal ones).
pub fn forward<const DIAGONAL: bool>(cur: &mut [Key], near: &[Key], mut left: Key, number: &[u32]) {
    let n = cur.len();
    let above = near[..n].iter().zip(&near[1..=n]).zip(&near[2..n + 2]);
    for (c, ((&a, &b), &d)) in cur.iter_mut().zip(above) {
        let lab = *c as u32 as usize;
        let k = if let Some(&own) = number.get(lab) {
            Key::from(own)
        } else {
            let mut k = least(left, b);
            if DIAGONAL {
                k = least(least(k, a), d);
            }
            // (Far from every area the key stays far: a sentinel's, some steps more.)
            k + STEP
        };
        *c = k;
        left = k;
    }
}

/// Where a row of a raster pass is: its first cell's padded index, and the padded width.
#[derive(Clone, Copy)]
pub struct Row {
    pub at: usize,
    pub pw: usize,
}

/// The backward pass on one row `cur`, from its end, as [`forward`] with the right neighbour
/// (`right` for the last cell) and the row below (`near`); notes in `pairs` each cell and a
/// later neighbour (final keys by then) of another area.
pub fn backward<const DIAGONAL: bool>(
    cur: &mut [Key],
    near: &[Key],
    mut right: Key,
    row: Row,
    pairs: &mut Vec<(u32, u32)>,
) {
    let n = cur.len();
    let near = &near[..n + 2];
    for x in (0..n).rev() {
        let (a, b, d) = (near[x], near[x + 1], near[x + 2]);
        // (An area cell's key, at no step, stays.)
        let mut later = least(right, b);
        if DIAGONAL {
            later = least(least(later, a), d);
        }
        let k = least(cur[x], later + STEP);
        let mut differ = (k ^ right) | (k ^ b);
        if DIAGONAL {
            differ |= (k ^ a) | (k ^ d);
        }
        if differ as u32 != 0 {
            let i = row.at + x;
            let near = [(right, i + 1), (b, i + row.pw)];
            let diagonal = [(a, i + row.pw - 1), (d, i + row.pw + 1)];
            let cells = near
                .iter()
                .chain(if DIAGONAL { &diagonal[..] } else { &[] });
            for &(o, j) in cells {
                if (o as u32) < OPEN && o as u32 != k as u32 {
                    pairs.push((i as u32, j as u32));
                }
            }
        }
        cur[x] = k;
        right = k;
    }
}

/// Stage 1's state: the provisional areas (union-find), the first cell of each, and which
/// codes are area cells.
pub struct Labels<'a> {
    /// Union-find parents of the provisional areas.
    pub up: &'a mut Vec<u32>,
    /// The first cell of each provisional area.
    pub starts: &'a mut Vec<usize>,
    /// Whether a code is an area cell.
    pub area: &'a [bool; 256],
}

/// Stage 1's first pass on one row `cur` of the map's `cells` (first cell at padded index
/// `at`) for the 4 unit steps, or the 8 with `DIAGONAL`: a cell of no area gets the key of
/// none; an area cell joins the provisional areas of its left neighbour and its neighbours
/// above (in `near`, the row above with one more cell on each side), or opens one.
#[inline(always)]
pub fn label_row<const DIAGONAL: bool>(
    cur: &mut [Key],
    cells: &[u8],
    near: &[Key],
    at: usize,
    labels: &mut Labels,
) {
    let (n, none) = (cur.len(), key_of(NONE, 0));
    let above = near[..n].iter().zip(&near[1..=n]).zip(&near[2..n + 2]);
    let mut left = NONE;
    for (x, ((c, &code), ((&a, &b), &d))) in cur.iter_mut().zip(cells).zip(above).enumerate() {
        if !labels.area[code as usize] {
            *c = none;
            left = NONE;
            continue;
        }
        let mut lab = join(left, b as u32, labels.up);
        if DIAGONAL {
            lab = join(lab, a as u32, labels.up);
            lab = join(lab, d as u32, labels.up);
        }
        if lab == NONE {
            lab = labels.up.len() as u32;
            labels.up.push(lab);
            labels.starts.push(at + x);
        }
        *c = Key::from(lab);
        left = lab;
    }
}
