//! The nearest target of any cell of a region while targets appear and disappear: the
//! structure behind `dist(list)` in a pass that writes the map it reads.
//!
//! The question is the Manhattan distance from a cell `q = (qx, qy)` of a `w x h` region to
//! the nearest target cell of the region (`u32::MAX`: none), asked at any cell in any order
//! (row scans, random cells, walkers, wide heuristics), between writes that add or remove
//! targets anywhere in the region (the visited cell or a neighbourhood around it).
//!
//! The region is cut into blocks of 8x8 cells. Every target `t` then lies in one of three
//! places relative to the block `(bx, by)` of `q`:
//!
//! 1. in `q`'s block column (the up to 8 map columns `8·bx..8·bx + 8`): for each such column
//!    `x`, the nearest target of the column above and below `qy` is found in a bitset of the
//!    targets in column-major order (`Bits::prev`, `Bits::next`), and the best of the
//!    column is `|x - qx|` plus that vertical distance;
//! 2. in `q`'s block row, the same with a bitset in row-major order;
//! 3. in a block strictly right of and below `q`'s block (or right and above, left and below,
//!    left and above). There `t` is on one known side of `q` in both axes, so the distance is
//!    linear: `(tx + ty) - (qx + qy)` below right, `(tx - ty) - qx + qy` above right,
//!    `(-tx + ty) + qx - qy` below left, `(-tx - ty) + qx + qy` above left. The least of each
//!    form over a corner rectangle of blocks is read from a two-dimensional segment tree over
//!    the blocks (`Corners`), whose leaves hold each block's least forms (from its 64-bit
//!    mask of targets).
//!
//! The answer is the least of those (exact: every target is counted in one of the three
//! places with its exact distance). First, when the 3x3 blocks around `q` hold few targets,
//! the distance to each is measured: if the nearest is no farther than any cell beyond those
//! blocks (at least 9 away), it is the answer. Columns, rows and corners that cannot beat
//! the best found so far (their nearest possible cell is as far) are skipped.
//!
//! Costs, for a region of `A` cells, `b = A / 64` blocks: building O(A); adding or removing a
//! target O(log₆₄ A) for the bitsets, 64 steps for the block's forms and O(log² b) for the
//! tree; a read at most 32 bitset searches (O(log₆₄ A) each; rows and columns without
//! targets are passed by on their counts) and 4 tree reads (O(log² b) each). A pass of `A`
//! reads and `O(A)` writes is thus O(A · log² A) at worst, with no dependence on where the
//! targets are. Memory: two bitsets (`A / 4` bytes with their summaries), a count of targets
//! per row and per column, one mask per block (`A / 8` bytes) and the tree (four planes of
//! `i16`s, `4 · b` nodes each, up to four times that with its sides padded to powers of two:
//! `A / 2` to `2 · A` bytes): 14 MiB for a 4000x4000 region.

pub mod bits;
mod corners;

use bits::Bits;
use corners::{Corners, Forms, NONE, Part};

/// Side of a block.
const B: usize = 8;

/// The targets of a `w x h` region, with the nearest one of any cell.
#[derive(Clone, Debug)]
pub struct Nearest {
    w: usize,
    h: usize,
    /// Targets, index `y · w + x`.
    rows: Bits,
    /// Targets, index `x · h + y`.
    cols: Bits,
    /// Targets per row and per column (sides fit 16 bits), so empty lines are passed by.
    row_n: Vec<u16>,
    col_n: Vec<u16>,
    /// Blocks across and down.
    bw: usize,
    bh: usize,
    /// Per block (row-major), its targets: bit `dy · 8 + dx`.
    masks: Vec<u64>,
    /// Per block, the least forms of its targets.
    corners: Corners,
}

impl Nearest {
    /// The targets of a `w x h` region: cell `(x, y)` is one when `is_target(x, y)`.
    pub fn new(w: usize, h: usize, is_target: impl Fn(usize, usize) -> bool) -> Nearest {
        let (bw, bh) = (w.div_ceil(B), h.div_ceil(B));
        let (mut rows, mut cols) = (Bits::new(w * h), Bits::new(w * h));
        let mut masks = vec![0u64; bw * bh];
        let (mut row_n, mut col_n) = (vec![0u16; h], vec![0u16; w]);
        for y in 0..h {
            for x in 0..w {
                if is_target(x, y) {
                    rows.set(y * w + x, true);
                    cols.set(x * h + y, true);
                    row_n[y] += 1;
                    col_n[x] += 1;
                    masks[(y / B) * bw + x / B] |= 1 << ((y % B) * B + x % B);
                }
            }
        }
        let corners = Corners::new(bw, bh, |bx, by| forms(masks[by * bw + bx], bx, by));
        Nearest {
            w,
            h,
            rows,
            cols,
            row_n,
            col_n,
            bw,
            bh,
            masks,
            corners,
        }
    }

    /// Makes `(x, y)` a target (`on`) or not.
    pub fn set(&mut self, x: usize, y: usize, on: bool) {
        if self.rows.contains(y * self.w + x) == on {
            return;
        }
        self.rows.set(y * self.w + x, on);
        self.cols.set(x * self.h + y, on);
        let step = |n: &mut u16| *n = if on { *n + 1 } else { *n - 1 };
        step(&mut self.row_n[y]);
        step(&mut self.col_n[x]);
        let (bx, by) = (x / B, y / B);
        let mask = &mut self.masks[by * self.bw + bx];
        *mask ^= 1 << ((y % B) * B + x % B);
        let f = forms(*mask, bx, by);
        self.corners.set(bx, by, f);
    }

    /// The Manhattan distance from `(qx, qy)` to the nearest target, `u32::MAX` when there
    /// is none.
    pub fn distance(&self, qx: usize, qy: usize) -> u32 {
        if self.rows.contains(qy * self.w + qx) {
            return 0;
        }
        // 0. The few targets of the 3x3 blocks around `q`, when there are few: any target
        // beyond them is at least `beyond` away.
        let (best, beyond) = self.around(qx, qy);
        if best <= beyond {
            return best as u32;
        }
        self.corners(qx, qy, self.cross(qx, qy, best)) as u32
    }
}

impl Nearest {
    /// [`Nearest::distance`] from `best` on, with the targets of `q`'s block column and block
    /// row.
    fn cross(&self, qx: usize, qy: usize, mut best: i64) -> i64 {
        let (w, h, bx, by) = (self.w, self.h, qx / B, qy / B);
        // 1, 2. The block column and the block row, outwards from `q`: the columns `qx - k`
        // and `qx + k` (their nearest targets above and below), the rows `qy - k` and
        // `qy + k` (left and right), until `k` alone is as far as the best.
        let (cols, rows) = ((bx * B, (bx * B + B).min(w)), (by * B, (by * B + B).min(h)));
        for k in 0..B {
            if k as i64 >= best {
                break;
            }
            // Each line's targets nearer than `best` are at most `reach` along it.
            let reach = best - k as i64;
            if qx >= cols.0 + k && self.col_n[qx - k] > 0 {
                best = best.min(k as i64 + line(&self.cols, (qx - k) * h, h, qy, reach));
            }
            if k > 0 && qx + k < cols.1 && self.col_n[qx + k] > 0 {
                best = best.min(k as i64 + line(&self.cols, (qx + k) * h, h, qy, reach));
            }
            let reach = best - k as i64;
            if qy >= rows.0 + k && self.row_n[qy - k] > 0 {
                best = best.min(k as i64 + line(&self.rows, (qy - k) * w, w, qx, reach));
            }
            if k > 0 && qy + k < rows.1 && self.row_n[qy + k] > 0 {
                best = best.min(k as i64 + line(&self.rows, (qy + k) * w, w, qx, reach));
            }
        }
        best
    }

    /// [`Nearest::distance`] from `best` on, with the targets of the four corners of blocks
    /// around `q`'s block.
    fn corners(&self, qx: usize, qy: usize, mut best: i64) -> i64 {
        let (bx, by) = (qx / B, qy / B);
        // 3. The four corners of blocks, each a linear form of the target.
        let (qx, qy) = (qx as i64, qy as i64);
        let (right, below) = ((bx + 1) as i64 * B as i64, (by + 1) as i64 * B as i64);
        let (left, above) = (bx as i64 * B as i64 - 1, by as i64 * B as i64 - 1);
        let has = (bx + 1 < self.bw, by + 1 < self.bh, bx > 0, by > 0);
        let corners = [
            // (exists, nearest possible distance, form, columns, rows, form to distance)
            (
                has.0 && has.1,
                right - qx + below - qy,
                0,
                Part::From(bx + 1),
                Part::From(by + 1),
                -qx - qy,
            ),
            (
                has.0 && has.3,
                right - qx + qy - above,
                1,
                Part::From(bx + 1),
                Part::Before(by),
                -qx + qy,
            ),
            (
                has.2 && has.1,
                qx - left + below - qy,
                2,
                Part::Before(bx),
                Part::From(by + 1),
                qx - qy,
            ),
            (
                has.2 && has.3,
                qx - left + qy - above,
                3,
                Part::Before(bx),
                Part::Before(by),
                qx + qy,
            ),
        ];
        for (exists, nearest, k, cols, rows, shift) in corners {
            if exists && nearest < best {
                let f = self.corners.least(k, cols, rows);
                if f != i16::MAX {
                    best = best.min(f as i64 + shift);
                }
            }
        }
        best
    }

    /// The distance from `(qx, qy)` to the nearest target in the 3x3 blocks around it when
    /// they hold at most [`AROUND`] targets (else, or with none, `u32::MAX`), and the least
    /// distance to a cell beyond those blocks.
    fn around(&self, qx: usize, qy: usize) -> (i64, i64) {
        let (bx, by) = (qx / B, qy / B);
        let (x0, x1) = (bx.saturating_sub(1), (bx + 2).min(self.bw));
        let (y0, y1) = (by.saturating_sub(1), (by + 2).min(self.bh));
        let (ix, iy) = (qx % B, qy % B);
        let beyond = (B + ix.min(B - 1 - ix).min(iy).min(B - 1 - iy) + 1) as i64;
        let mut count = 0;
        for cy in y0..y1 {
            let row = &self.masks[cy * self.bw..][x0..x1];
            count += row.iter().map(|m| m.count_ones()).sum::<u32>();
        }
        let mut best = u32::MAX as i64;
        if count > AROUND {
            return (best, beyond);
        }
        for cy in y0..y1 {
            for cx in x0..x1 {
                let mut mask = self.masks[cy * self.bw + cx];
                while mask != 0 {
                    let bit = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let (x, y) = (cx * B + bit % B, cy * B + bit / B);
                    best = best.min((x.abs_diff(qx) + y.abs_diff(qy)) as i64);
                }
            }
        }
        (best, beyond)
    }
}

/// Most targets in the 3x3 blocks around a cell for [`Nearest::distance`] to measure the
/// distance to each (more: the block row and column are searched line by line).
const AROUND: u32 = 24;

/// The distance along a line of `bits` (`len` indices from `lo`) from index `lo + at` to the
/// nearest member, when nearer than `reach` (else `reach`).
#[inline]
fn line(bits: &Bits, lo: usize, len: usize, at: usize, reach: i64) -> i64 {
    let (i, reach_u) = (lo + at, reach.min(len as i64) as usize);
    let mut d = reach;
    if let Some(j) = bits.next(i, lo + len.min(at + reach_u)) {
        d = (j - i) as i64;
    }
    // Only a nearer target before `i` matters now.
    let back = (d as usize).min(at + 1);
    if let Some(j) = bits.prev(i, i + 1 - back) {
        d = d.min((i - j) as i64);
    }
    d
}

/// The least forms of the targets of block `(bx, by)` whose mask is `mask`.
fn forms(mut mask: u64, bx: usize, by: usize) -> Forms {
    let mut f = NONE;
    while mask != 0 {
        let bit = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let (x, y) = ((bx * B + bit % B) as i16, (by * B + bit / B) as i16);
        f = [
            f[0].min(x + y),
            f[1].min(x - y),
            f[2].min(y - x),
            f[3].min(-x - y),
        ];
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the nearest target of `(qx, qy)`.
    fn brute(cells: &[bool], w: usize, (qx, qy): (usize, usize)) -> u32 {
        (0..cells.len())
            .filter(|&i| cells[i])
            .map(|i| ((i % w).abs_diff(qx) + (i / w).abs_diff(qy)) as u32)
            .min()
            .unwrap_or(u32::MAX)
    }

    #[test]
    fn a_target_just_beyond_the_blocks_around_beats_one_inside() {
        // For every cell of block (2, 2): one target just beyond its 3x3 blocks, at the
        // least distance a cell there can be, and one inside them a step farther.
        let (w, h) = (40, 40);
        let window = |x: usize, y: usize| (8..32).contains(&x) && (8..32).contains(&y);
        for q in (0..64).map(|i| (16 + i % 8, 16 + i / 8)) {
            let d = |(x, y): (usize, usize)| x.abs_diff(q.0) + y.abs_diff(q.1);
            let cells = (0..w * h).map(|i| (i % w, i / w));
            let near_out = cells
                .clone()
                .filter(|&(x, y)| !window(x, y))
                .min_by_key(|&c| d(c));
            let near_out = near_out.unwrap();
            let inside = cells
                .clone()
                .find(|&(x, y)| window(x, y) && d((x, y)) == d(near_out) + 1);
            let targets = [near_out, inside.unwrap()];
            let n = Nearest::new(w, h, |x, y| targets.contains(&(x, y)));
            assert_eq!(n.distance(q.0, q.1) as usize, d(near_out), "{q:?}");
        }
    }

    #[test]
    fn distances_match_brute_force_as_targets_come_and_go() {
        let mut rng = grid_core::Seed(0x853c_49e6_748f_ea9b).rng();
        let mut rand = move |n: usize| grid_core::below(&mut rng, n);
        for (w, h) in [
            (1, 1),
            (1, 13),
            (17, 1),
            (7, 9),
            (8, 8),
            (23, 17),
            (41, 9),
            (64, 33),
        ] {
            for density in [2, 20, 50, 100, 200] {
                let mut cells: Vec<bool> = (0..w * h).map(|_| rand(density) == 0).collect();
                let mut n = Nearest::new(w, h, |x, y| cells[y * w + x]);
                for step in 0..600 {
                    // Toggle a cell, or clear the last few targets, then ask anywhere.
                    let i = rand(w * h);
                    let on = if step % 200 > 150 {
                        false
                    } else {
                        rand(2) == 0
                    };
                    cells[i] = on;
                    n.set(i % w, i / w, on);
                    let q = (rand(w), rand(h));
                    assert_eq!(
                        n.distance(q.0, q.1),
                        brute(&cells, w, q),
                        "{w}x{h} at {q:?}"
                    );
                }
                let fresh = Nearest::new(w, h, |x, y| cells[y * w + x]);
                for q in (0..w * h).map(|i| (i % w, i / w)) {
                    assert_eq!(fresh.distance(q.0, q.1), brute(&cells, w, q));
                    assert_eq!(n.distance(q.0, q.1), brute(&cells, w, q));
                }
            }
        }
    }
}
