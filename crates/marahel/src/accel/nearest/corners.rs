//! The least value of each of four linear forms over the targets of a rectangle of blocks:
//! a two-dimensional segment tree (a segment tree over block rows whose nodes are segment
//! trees over block columns), bottom-up, with `(2·rows) x (2·columns)` nodes of four `i32`s.
//! A leaf changes in O(log rows · log columns) node updates; the least value of one form over
//! a rectangle of blocks is read from O(log rows · log columns) nodes.

/// Four forms: `x + y`, `x - y`, `-x + y`, `-x - y` of a target at `(x, y)`.
pub type Forms = [i32; 4];

/// The forms of no target.
pub const NONE: Forms = [i32::MAX; 4];

/// The least forms over rectangles of a grid of `cols x rows` leaves.
#[derive(Clone, Debug, Default)]
pub struct Corners {
    cols: usize,
    rows: usize,
    /// Node `(i, j)` (`1 <= i < 2·rows`, `1 <= j < 2·cols`) at `i · 2·cols + j`.
    nodes: Vec<Forms>,
}

fn least(a: Forms, b: Forms) -> Forms {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ]
}

impl Corners {
    /// The tree of `cols x rows` leaves, leaf `(c, r)` holding `leaf(c, r)`.
    pub fn new(cols: usize, rows: usize, leaf: impl Fn(usize, usize) -> Forms) -> Corners {
        let mut t = Corners {
            cols,
            rows,
            nodes: vec![NONE; 4 * cols * rows],
        };
        let stride = 2 * cols;
        for r in 0..rows {
            let row = (rows + r) * stride;
            for c in 0..cols {
                t.nodes[row + cols + c] = leaf(c, r);
            }
            for j in (1..cols).rev() {
                t.nodes[row + j] = least(t.nodes[row + 2 * j], t.nodes[row + 2 * j + 1]);
            }
        }
        for i in (1..rows).rev() {
            for j in 1..stride {
                t.nodes[i * stride + j] = least(
                    t.nodes[2 * i * stride + j],
                    t.nodes[(2 * i + 1) * stride + j],
                );
            }
        }
        t
    }

    /// Sets leaf `(c, r)`.
    pub fn set(&mut self, c: usize, r: usize, forms: Forms) {
        let stride = 2 * self.cols;
        let mut i = self.rows + r;
        let row = i * stride;
        let mut j = self.cols + c;
        self.nodes[row + j] = forms;
        while j > 1 {
            j /= 2;
            self.nodes[row + j] = least(self.nodes[row + 2 * j], self.nodes[row + 2 * j + 1]);
        }
        while i > 1 {
            i /= 2;
            let mut j = self.cols + c;
            while j >= 1 {
                self.nodes[i * stride + j] = least(
                    self.nodes[2 * i * stride + j],
                    self.nodes[(2 * i + 1) * stride + j],
                );
                j /= 2;
            }
        }
    }

    /// The least form `k` over the leaves `cols.0..cols.1` x `rows.0..rows.1`
    /// (`i32::MAX`: no target).
    pub fn least(&self, k: usize, cols: (usize, usize), rows: (usize, usize)) -> i32 {
        let mut best = i32::MAX;
        let (mut lo, mut hi) = (rows.0 + self.rows, rows.1 + self.rows);
        while lo < hi {
            if lo & 1 == 1 {
                best = best.min(self.row_least(lo, k, cols));
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                best = best.min(self.row_least(hi, k, cols));
            }
            (lo, hi) = (lo / 2, hi / 2);
        }
        best
    }

    /// The least form `k` over columns `cols` of row node `i`.
    fn row_least(&self, i: usize, k: usize, cols: (usize, usize)) -> i32 {
        let row = &self.nodes[i * 2 * self.cols..][..2 * self.cols];
        let mut best = i32::MAX;
        let (mut lo, mut hi) = (cols.0 + self.cols, cols.1 + self.cols);
        while lo < hi {
            if lo & 1 == 1 {
                best = best.min(row[lo][k]);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                best = best.min(row[hi][k]);
            }
            (lo, hi) = (lo / 2, hi / 2);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_give_the_least_of_their_leaves() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for (cols, rows) in [(1, 1), (1, 7), (5, 1), (3, 6), (13, 9), (16, 16)] {
            let mut plain = vec![NONE; cols * rows];
            let mut t = Corners::new(cols, rows, |_, _| NONE);
            for _ in 0..300 {
                let (c, r) = (rand(cols), rand(rows));
                let f = if rand(3) == 0 {
                    NONE
                } else {
                    [0; 4].map(|_| rand(1000) as i32 - 500)
                };
                t.set(c, r, f);
                plain[r * cols + c] = f;
                let (c0, r0) = (rand(cols + 1), rand(rows + 1));
                let (c1, r1) = (c0 + rand(cols + 1 - c0), r0 + rand(rows + 1 - r0));
                let k = rand(4);
                let want = (r0..r1)
                    .flat_map(|r| (c0..c1).map(move |c| (c, r)))
                    .map(|(c, r)| plain[r * cols + c][k])
                    .min()
                    .unwrap_or(i32::MAX);
                assert_eq!(t.least(k, (c0, c1), (r0, r1)), want);
            }
            // Built at once equals built leaf by leaf.
            let built = Corners::new(cols, rows, |c, r| plain[r * cols + c]);
            assert_eq!(built.nodes, t.nodes);
        }
    }
}
