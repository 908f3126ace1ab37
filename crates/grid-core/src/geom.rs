//! Points, directions and rectangles.

use std::ops::{Add, Sub};

/// A signed cell position or offset (`x` right, `y` down).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
}

impl Point {
    /// A point.
    #[inline]
    pub const fn new(x: i64, y: i64) -> Self {
        Self { x, y }
    }

    /// Manhattan (L1) distance.
    #[inline]
    pub fn manhattan(self, o: Point) -> u64 {
        self.x.abs_diff(o.x) + self.y.abs_diff(o.y)
    }

    /// Chebyshev (L∞) distance.
    #[inline]
    pub fn chebyshev(self, o: Point) -> u64 {
        self.x.abs_diff(o.x).max(self.y.abs_diff(o.y))
    }

    /// Squared Euclidean distance.
    #[inline]
    pub fn dist2(self, o: Point) -> u64 {
        let dx = self.x.abs_diff(o.x);
        let dy = self.y.abs_diff(o.y);
        dx * dx + dy * dy
    }

    /// The neighbour one step in `dir`.
    #[inline]
    pub fn step(self, dir: Dir) -> Point {
        self + dir.offset()
    }
}

impl Add for Point {
    type Output = Point;
    #[inline]
    fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Point {
    type Output = Point;
    #[inline]
    fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }
}

impl From<(i64, i64)> for Point {
    fn from((x, y): (i64, i64)) -> Self {
        Point::new(x, y)
    }
}

/// One of the eight compass directions (`y` grows downwards, so `N` is `(0, -1)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Up.
    N,
    /// Up-right.
    NE,
    /// Right.
    E,
    /// Down-right.
    SE,
    /// Down.
    S,
    /// Down-left.
    SW,
    /// Left.
    W,
    /// Up-left.
    NW,
}

impl Dir {
    /// The four orthogonal directions, clockwise from north.
    pub const CARDINAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    /// All eight directions, clockwise from north.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// The unit offset of this direction.
    #[inline]
    pub const fn offset(self) -> Point {
        let (x, y) = match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        };
        Point::new(x, y)
    }

    /// The direction of a unit offset, if it is one.
    pub fn from_offset(p: Point) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.offset() == p)
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Dir {
        self.rotate_cw(4)
    }

    /// Rotated clockwise by `eighths` eighth-turns.
    #[inline]
    pub const fn rotate_cw(self, eighths: u8) -> Dir {
        Dir::ALL[(self as usize + eighths as usize) % 8]
    }

    /// Whether this is one of N, E, S, W.
    #[inline]
    pub const fn is_cardinal(self) -> bool {
        (self as u8).is_multiple_of(2)
    }
}

/// An axis-aligned rectangle of cells: columns `x..x+w`, rows `y..y+h`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left column.
    pub x: i64,
    /// Top row.
    pub y: i64,
    /// Width in cells.
    pub w: i64,
    /// Height in cells.
    pub h: i64,
}

/// The axis along which [`Rect::split`] cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// A vertical cut: left and right parts.
    Vertical,
    /// A horizontal cut: top and bottom parts.
    Horizontal,
}

impl Rect {
    /// A rectangle; negative sizes are clamped to zero.
    pub const fn new(x: i64, y: i64, w: i64, h: i64) -> Self {
        Self {
            x,
            y,
            w: if w < 0 { 0 } else { w },
            h: if h < 0 { 0 } else { h },
        }
    }

    /// Number of cells.
    pub fn area(&self) -> u64 {
        (self.w.max(0) as u64) * (self.h.max(0) as u64)
    }

    /// Whether it has no cells.
    pub fn is_empty(&self) -> bool {
        self.w <= 0 || self.h <= 0
    }

    /// One past the right column.
    pub fn right(&self) -> i64 {
        self.x + self.w
    }

    /// One past the bottom row.
    pub fn bottom(&self) -> i64 {
        self.y + self.h
    }

    /// Whether the cell `p` is inside.
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x && p.y >= self.y && p.x < self.right() && p.y < self.bottom()
    }

    /// The cells both rectangles cover, or `None`.
    pub fn intersection(&self, o: &Rect) -> Option<Rect> {
        let x0 = self.x.max(o.x);
        let y0 = self.y.max(o.y);
        let x1 = self.right().min(o.right());
        let y1 = self.bottom().min(o.bottom());
        (x1 > x0 && y1 > y0).then(|| Rect::new(x0, y0, x1 - x0, y1 - y0))
    }

    /// Whether the two share at least one cell.
    pub fn intersects(&self, o: &Rect) -> bool {
        self.intersection(o).is_some()
    }

    /// Cuts at `at` cells from the left (vertical) or top (horizontal) edge. `None` unless both
    /// parts are non-empty.
    pub fn split(&self, axis: Axis, at: i64) -> Option<(Rect, Rect)> {
        match axis {
            Axis::Vertical if at > 0 && at < self.w => Some((
                Rect::new(self.x, self.y, at, self.h),
                Rect::new(self.x + at, self.y, self.w - at, self.h),
            )),
            Axis::Horizontal if at > 0 && at < self.h => Some((
                Rect::new(self.x, self.y, self.w, at),
                Rect::new(self.x, self.y + at, self.w, self.h - at),
            )),
            _ => None,
        }
    }

    /// The rectangle shrunk by `by` cells on every side (possibly empty).
    pub fn shrink(&self, by: i64) -> Rect {
        Rect::new(self.x + by, self.y + by, self.w - 2 * by, self.h - 2 * by)
    }

    /// Every cell, row-major.
    pub fn cells(&self) -> impl Iterator<Item = Point> + '_ {
        let r = *self;
        (r.y..r.bottom()).flat_map(move |y| (r.x..r.right()).map(move |x| Point::new(x, y)))
    }

    /// Whether `p` is on the rectangle's inner border (inside, and touching an edge).
    pub fn on_border(&self, p: Point) -> bool {
        self.contains(p)
            && (p.x == self.x
                || p.y == self.y
                || p.x == self.right() - 1
                || p.y == self.bottom() - 1)
    }

    /// The cells of the inner border, clockwise from the top-left, each once.
    pub fn border(&self) -> Vec<Point> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        let (x0, y0, x1, y1) = (self.x, self.y, self.right() - 1, self.bottom() - 1);
        for x in x0..=x1 {
            out.push(Point::new(x, y0));
        }
        for y in y0 + 1..=y1 {
            out.push(Point::new(x1, y));
        }
        if y1 > y0 {
            for x in (x0..x1).rev() {
                out.push(Point::new(x, y1));
            }
        }
        if x1 > x0 {
            for y in (y0 + 1..y1).rev() {
                out.push(Point::new(x0, y));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_round_trip() {
        for d in Dir::ALL {
            assert_eq!(Dir::from_offset(d.offset()), Some(d));
            assert_eq!(d.opposite().opposite(), d);
            assert_eq!(d.offset() + d.opposite().offset(), Point::new(0, 0));
        }
        assert_eq!(Dir::N.rotate_cw(2), Dir::E);
        assert!(Dir::W.is_cardinal() && !Dir::SW.is_cardinal());
    }

    #[test]
    fn rect_intersection_split_border() {
        let a = Rect::new(0, 0, 5, 4);
        let b = Rect::new(3, 2, 5, 5);
        assert_eq!(a.intersection(&b), Some(Rect::new(3, 2, 2, 2)));
        assert_eq!(a.intersection(&Rect::new(5, 0, 1, 1)), None);
        let (l, r) = a.split(Axis::Vertical, 2).unwrap();
        assert_eq!((l, r), (Rect::new(0, 0, 2, 4), Rect::new(2, 0, 3, 4)));
        assert_eq!(l.area() + r.area(), a.area());
        assert!(a.split(Axis::Horizontal, 4).is_none());
        let border = a.border();
        assert_eq!(border.len(), 2 * 5 + 2 * 4 - 4);
        assert!(border.iter().all(|p| a.on_border(*p)));
        let mut uniq = border.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), border.len());
        assert_eq!(Rect::new(0, 0, 1, 1).border(), vec![Point::new(0, 0)]);
        assert_eq!(Rect::new(0, 0, 3, 1).border().len(), 3);
        assert_eq!(a.shrink(1), Rect::new(1, 1, 3, 2));
    }
}
