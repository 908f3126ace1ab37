//! The least value of each of four linear forms over the targets of a corner of a grid of
//! blocks (the blocks right of and below a column and a row, or left, or above): a
//! two-dimensional segment tree (a segment tree over block rows whose nodes are segment trees
//! over block columns), each side padded to a power of two, with `(2·rows) x (2·columns)`
//! nodes per form. A leaf changes in O(log rows · log columns) node updates. A corner is a
//! prefix or a suffix on each axis, which the walk from the root to one leaf splits into at
//! most one node per level (the siblings it passes by), so a read is the least over at most
//! `log rows · log columns` nodes, found without tests. Each form has its own plane of
//! `i16`s (region sides are at most [`crate::compile::MAX_SIDE`], so every form of a cell
//! fits), so a read touches only the nodes of the form it reads.

/// Four forms: `x + y`, `x - y`, `-x + y`, `-x - y` of a target at `(x, y)`.
pub type Forms = [i16; 4];

/// The forms of no target.
pub const NONE: Forms = [i16::MAX; 4];

// `x + y` of the farthest cell stays below `NONE`.
const _: () = assert!(2 * (crate::compile::MAX_SIDE - 1) < i16::MAX as usize);

/// Part of an axis: the leaves from one on (`From(i)`: `i..`), or those before one
/// (`Before(i)`: `..i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Leaves `i..`.
    From(usize),
    /// Leaves `..i`.
    Before(usize),
}

/// The least forms over corners of a grid of `cols x rows` leaves.
#[derive(Clone, Debug, Default)]
pub struct Corners {
    /// Leaves across and down, padded to powers of two.
    cols: usize,
    rows: usize,
    /// Per form, node `(i, j)` (`1 <= i < 2·rows`, `1 <= j < 2·cols`) at `i · 2·cols + j`.
    planes: [Vec<i16>; 4],
}

/// The nodes of an axis of `n` leaves (a power of two) that make up `part`, into `out`;
/// returns how many.
fn nodes(n: usize, part: Part, out: &mut [usize; 16]) -> usize {
    let (at, from) = match part {
        Part::From(i) => (i, true),
        Part::Before(i) => (i, false),
    };
    if at >= n {
        // All leaves before `n`, or none from it.
        out[0] = 1;
        return usize::from(!from);
    }
    let (mut node, mut len) = (1, 0);
    for level in (0..n.trailing_zeros()).rev() {
        let bit = (at >> level) & 1;
        // Passing left leaves the right child inside `From`; passing right leaves the left
        // child inside `Before`.
        if (bit == 0) == from {
            out[len] = 2 * node + 1 - bit;
            len += 1;
        }
        node = 2 * node + bit;
    }
    if from {
        out[len] = node;
        len += 1;
    }
    len
}

impl Corners {
    /// The tree of `cols x rows` leaves, leaf `(c, r)` holding `leaf(c, r)`.
    pub fn new(cols: usize, rows: usize, leaf: impl Fn(usize, usize) -> Forms) -> Corners {
        let (cols_p, rows_p) = (cols.next_power_of_two(), rows.next_power_of_two());
        let nodes = 4 * cols_p * rows_p;
        let mut planes = [(); 4].map(|_| vec![i16::MAX; nodes]);
        let stride = 2 * cols_p;
        for r in 0..rows {
            let row = (rows_p + r) * stride;
            for c in 0..cols {
                let f = leaf(c, r);
                for (plane, v) in planes.iter_mut().zip(f) {
                    plane[row + cols_p + c] = v;
                }
            }
        }
        for t in &mut planes {
            for r in 0..rows {
                let row = (rows_p + r) * stride;
                for j in (1..cols_p).rev() {
                    t[row + j] = t[row + 2 * j].min(t[row + 2 * j + 1]);
                }
            }
            for i in (1..rows_p).rev() {
                for j in 1..stride {
                    t[i * stride + j] = t[2 * i * stride + j].min(t[(2 * i + 1) * stride + j]);
                }
            }
        }
        Corners {
            cols: cols_p,
            rows: rows_p,
            planes,
        }
    }

    /// Sets leaf `(c, r)`.
    pub fn set(&mut self, c: usize, r: usize, forms: Forms) {
        let (stride, rows, cols) = (2 * self.cols, self.rows, self.cols);
        for (t, v) in self.planes.iter_mut().zip(forms) {
            let mut i = rows + r;
            let row = i * stride;
            let mut j = cols + c;
            t[row + j] = v;
            while j > 1 {
                j /= 2;
                t[row + j] = t[row + 2 * j].min(t[row + 2 * j + 1]);
            }
            while i > 1 {
                i /= 2;
                let mut j = cols + c;
                while j >= 1 {
                    t[i * stride + j] = t[2 * i * stride + j].min(t[(2 * i + 1) * stride + j]);
                    j /= 2;
                }
            }
        }
    }

    /// The least form `k` over the leaves in columns `cols` and rows `rows` (`i16::MAX`: no
    /// target).
    pub fn least(&self, k: usize, cols: Part, rows: Part) -> i16 {
        let (mut js, mut is) = ([0; 16], [0; 16]);
        let (nj, ni) = (
            nodes(self.cols, cols, &mut js),
            nodes(self.rows, rows, &mut is),
        );
        let (t, stride) = (&self.planes[k], 2 * self.cols);
        let mut best = i16::MAX;
        for &i in &is[..ni] {
            let row = &t[i * stride..][..stride];
            for &j in &js[..nj] {
                best = best.min(row[j]);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_give_the_least_of_their_leaves() {
        let mut rng = grid_core::Seed(0x9e37_79b9_7f4a_7c15).rng();
        let mut rand = move |n: usize| grid_core::below(&mut rng, n);
        for (cols, rows) in [(1, 1), (1, 7), (5, 1), (3, 6), (13, 9), (16, 16), (17, 33)] {
            let mut plain = vec![NONE; cols * rows];
            let mut t = Corners::new(cols, rows, |_, _| NONE);
            for _ in 0..300 {
                let (c, r) = (rand(cols), rand(rows));
                let f = if rand(3) == 0 {
                    NONE
                } else {
                    [0; 4].map(|_| rand(1000) as i16 - 500)
                };
                t.set(c, r, f);
                plain[r * cols + c] = f;
                let (cp, rp) = (rand(2), rand(2));
                let (ca, ra) = (rand(cols + 1), rand(rows + 1));
                let (cpart, cr) = if cp == 0 {
                    (Part::From(ca), ca..cols)
                } else {
                    (Part::Before(ca), 0..ca)
                };
                let (rpart, rr) = if rp == 0 {
                    (Part::From(ra), ra..rows)
                } else {
                    (Part::Before(ra), 0..ra)
                };
                let k = rand(4);
                let want = rr
                    .flat_map(|r| cr.clone().map(move |c| (c, r)))
                    .map(|(c, r)| plain[r * cols + c][k])
                    .min()
                    .unwrap_or(i16::MAX);
                assert_eq!(t.least(k, cpart, rpart), want, "{cpart:?} {rpart:?}");
            }
            // Built at once equals built leaf by leaf.
            let built = Corners::new(cols, rows, |c, r| plain[r * cols + c]);
            assert_eq!(built.planes, t.planes);
        }
    }
}
