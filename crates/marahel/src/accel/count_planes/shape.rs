//! Counts that depend only on the region's shape (every code a region cell can hold weighs
//! the same, e.g. `left(out)`, `all(out)`): a cell's count depends only on which offsets land
//! inside the region, so on its distance to the edges up to the neighbourhood's reach. The
//! interior (where the whole neighbourhood lies inside) has one value; only the frame is
//! counted, column class by column class.

use super::PaddedLayout;

/// The frame of a shape-only count: interior columns `a..b` and middle rows (the rows
/// whose neighbourhoods lie inside vertically), from the neighbourhood's reach.
fn frame(lay: PaddedLayout, offsets: &[(i64, i64)]) -> (usize, usize, std::ops::Range<usize>) {
    let (rw, rh) = (lay.rw, lay.rh);
    let reach = |f: fn(&(i64, i64)) -> i64, size: usize| {
        (offsets.iter().map(f).max().unwrap_or(0).max(0) as usize).min(size)
    };
    let (rx0, rx1) = (reach(|o| -o.0, rw), reach(|o| o.0, rw));
    let (ry0, ry1) = (reach(|o| -o.1, rh), reach(|o| o.1, rh));
    (
        rx0,
        rw.saturating_sub(rx1).max(rx0),
        ry0..rh.saturating_sub(ry1).max(ry0),
    )
}

/// The shape-only count at `(lx, ly)`: `w_in` per offset inside the region, `out_w` outside.
fn shape_count(
    lay: PaddedLayout,
    offsets: &[(i64, i64)],
    w_in: u32,
    out_w: u32,
    lx: usize,
    ly: usize,
) -> u32 {
    let (rw, rh) = (lay.rw as i64, lay.rh as i64);
    offsets.iter().fold(0u32, |s, &(dx, dy)| {
        let (x, y) = (lx as i64 + dx, ly as i64 + dy);
        let inside = x >= 0 && y >= 0 && x < rw && y < rh;
        s.wrapping_add(if inside { w_in } else { out_w })
    })
}

/// The cells of a region inside a rectangle, or outside it (region coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RectCells {
    /// Columns `x0..x1` of the rectangle.
    pub x: (usize, usize),
    /// Rows `y0..y1` of the rectangle.
    pub y: (usize, usize),
    /// The cells inside the rectangle, or (false) the cells outside it.
    pub inside: bool,
}

impl RectCells {
    /// Whether it holds no cell of a `rw x rh` region.
    pub fn is_empty(&self, rw: usize, rh: usize) -> bool {
        let none = self.x.0 >= self.x.1 || self.y.0 >= self.y.1;
        let all = self.x == (0, rw) && self.y == (0, rh);
        if self.inside { none } else { all }
    }
}

/// The cells where a shape-only count passes, when they are simple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Every region cell.
    All,
    /// Only the interior (every frame cell fails, e.g. `left(out) == 0`), or only the frame
    /// (e.g. `plus(out) > 0`).
    RectCells(RectCells),
    /// Another set: narrow cell by cell with [`test_shape`].
    Mixed,
}

/// Classifies a shape-only count test (see [`test_shape`]): every cell passes, or only the
/// interior, or only the frame, or something else. Visits the frame's column classes only.
pub fn shape_of(
    lay: PaddedLayout,
    offsets: &[(i64, i64)],
    w_in: u32,
    out_w: u32,
    keep: impl Fn(u32) -> bool,
) -> Shape {
    let (rw, rh) = (lay.rw, lay.rh);
    let (a, b, middle) = frame(lay, offsets);
    if a + (rw - b) > 64 {
        return Shape::Mixed;
    }
    let pass = |lx: usize, ly: usize| keep(shape_count(lay, offsets, w_in, out_w, lx, ly));
    let (mut passes, mut fails) = (false, false);
    // Frame rows (their interior columns share one count), then the edge columns of the
    // middle rows (the same on every middle row).
    let rows = (0..middle.start).chain(middle.end..rh);
    let edge_rows = rows
        .map(|ly| (ly, true))
        .chain((!middle.is_empty()).then_some((middle.start, false)));
    for (ly, frame_row) in edge_rows {
        for lx in (0..a).chain(b..rw) {
            let p = pass(lx, ly);
            (passes, fails) = (passes | p, fails | !p);
        }
        if frame_row && a < b {
            let p = pass(a, ly);
            (passes, fails) = (passes | p, fails | !p);
        }
        if passes && fails {
            return Shape::Mixed;
        }
    }
    let interior = !middle.is_empty() && a < b;
    let keep_interior = interior && pass(a, middle.start);
    let area = |inside: bool| {
        Shape::RectCells(RectCells {
            x: (a, b),
            y: (middle.start, middle.end),
            inside,
        })
    };
    match (passes, fails) {
        (_, false) if !interior || keep_interior => Shape::All,
        (false, _) if keep_interior => area(true),
        (false, _) => Shape::RectCells(RectCells {
            x: (0, 0),
            y: (0, 0),
            inside: true,
        }),
        // Every frame cell passes, the interior fails.
        (true, false) => area(false),
        _ => Shape::Mixed,
    }
}

/// Narrows `cand` to the cells whose shape-only count (every cell inside the region weighs
/// `w_in`, every cell outside `out_w`) satisfies `keep`. The count depends only on whether
/// each offset lands inside, so on the cell's distance to the edges up to the
/// neighbourhood's reach: the interior has one value, the rows in reach of the top or bottom
/// edge are counted column class by column class, and the columns in reach of the left or
/// right edge have the same counts on every other row.
pub fn test_shape(
    lay: PaddedLayout,
    offsets: &[(i64, i64)],
    w_in: u32,
    out_w: u32,
    keep: impl Fn(u32) -> bool,
    cand: &mut [u8],
) {
    let (rw, rh) = (lay.rw, lay.rh);
    let (a, b, middle) = frame(lay, offsets);
    let count = |lx: usize, ly: usize| shape_count(lay, offsets, w_in, out_w, lx, ly);
    // The edge columns of the middle rows, as bits (when they fit).
    let bits = |cols: std::ops::Range<usize>| {
        (cols.len() <= 64).then(|| {
            cols.enumerate().fold(0u64, |m, (i, lx)| {
                m | (keep(count(lx, middle.start)) as u64) << i
            })
        })
    };
    let edges = if middle.is_empty() {
        None
    } else {
        bits(0..a).zip(bits(b..rw))
    };
    let keep_interior = middle.is_empty() || keep(count(a.min(rw - 1), middle.start));
    for ly in 0..rh {
        let row = &mut cand[ly * lay.pitch..ly * lay.pitch + rw];
        match edges {
            Some((left, right)) if middle.contains(&ly) => {
                if left == low_bits(a) && right == low_bits(rw - b) && keep_interior {
                    continue;
                }
                for (lx, m) in row[..a].iter_mut().enumerate() {
                    *m &= (left >> lx) as u8 & 1;
                }
                for (i, m) in row[b..].iter_mut().enumerate() {
                    *m &= (right >> i) as u8 & 1;
                }
                if !keep_interior {
                    row[a..b].fill(0);
                }
            }
            _ if middle.contains(&ly) || a >= b => {
                for (lx, m) in row.iter_mut().enumerate() {
                    *m &= keep(count(lx, ly)) as u8;
                }
            }
            _ => {
                // A frame row: its interior columns share one count.
                for lx in (0..a).chain(b..rw) {
                    row[lx] &= keep(count(lx, ly)) as u8;
                }
                if !keep(count(a, ly)) {
                    row[a..b].fill(0);
                }
            }
        }
    }
}

/// A `u64` with its `n` lowest bits set.
fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}
