//! [`Grid<T>`]: a dense, row-major 2D buffer.

use crate::geom::Point;

/// A dense, row-major grid of `width * height` cells.
///
/// Cell `(x, y)` lives at index `y * width + x`. Maps in levelgen are `Grid`s of small
/// integer tile ids ([`crate::TileId`]), so a whole map is one flat allocation.
///
/// ```
/// use grid_core::Grid;
/// let mut g = Grid::new(3, 2, 0u8);
/// g.set(2, 1, 7);
/// assert_eq!(g.get(2, 1), Some(&7));
/// assert_eq!(g.get(3, 1), None);
/// assert_eq!(g.as_slice(), &[0, 0, 0, 0, 0, 7]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid<T> {
    width: usize,
    height: usize,
    cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A `width x height` grid with every cell set to `fill`.
    pub fn new(width: usize, height: usize, fill: T) -> Self {
        Self {
            width,
            height,
            cells: vec![fill; width * height],
        }
    }

    /// Sets every cell to `value`.
    pub fn fill(&mut self, value: T) {
        self.cells.fill(value);
    }
}

impl<T> Grid<T> {
    /// A grid from a row-major buffer; `None` if `cells.len() != width * height`.
    pub fn from_vec(width: usize, height: usize, cells: Vec<T>) -> Option<Self> {
        (width.checked_mul(height) == Some(cells.len())).then_some(Self {
            width,
            height,
            cells,
        })
    }

    /// A grid whose cell `(x, y)` is `f(x, y)`.
    pub fn from_fn(width: usize, height: usize, mut f: impl FnMut(usize, usize) -> T) -> Self {
        let mut cells = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                cells.push(f(x, y));
            }
        }
        Self {
            width,
            height,
            cells,
        }
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells (`width * height`).
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the grid has no cells.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Whether `(x, y)` is inside the grid (signed, so callers can test offsets).
    #[inline]
    pub fn in_bounds(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as u64) < self.width as u64 && (y as u64) < self.height as u64
    }

    /// Flat index of `(x, y)`, or `None` outside the grid.
    #[inline]
    pub fn index(&self, x: usize, y: usize) -> Option<usize> {
        (x < self.width && y < self.height).then(|| y * self.width + x)
    }

    /// `(x, y)` of a flat index. The index must be `< len()`.
    #[inline]
    pub fn coords(&self, index: usize) -> (usize, usize) {
        (index % self.width, index / self.width)
    }

    /// Checked read.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> Option<&T> {
        self.index(x, y).map(|i| &self.cells[i])
    }

    /// Checked read at a signed point.
    #[inline]
    pub fn get_point(&self, p: Point) -> Option<&T> {
        if self.in_bounds(p.x, p.y) {
            Some(&self.cells[p.y as usize * self.width + p.x as usize])
        } else {
            None
        }
    }

    /// Checked mutable access.
    #[inline]
    pub fn get_mut(&mut self, x: usize, y: usize) -> Option<&mut T> {
        self.index(x, y).map(|i| &mut self.cells[i])
    }

    /// Checked write; returns `false` (and writes nothing) outside the grid.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, value: T) -> bool {
        match self.index(x, y) {
            Some(i) => {
                self.cells[i] = value;
                true
            }
            None => false,
        }
    }

    /// Unchecked-by-contract read: panics (via slice indexing) outside the grid.
    /// Use in hot loops whose bounds are already known.
    #[inline]
    pub fn at(&self, x: usize, y: usize) -> &T {
        debug_assert!(x < self.width && y < self.height);
        &self.cells[y * self.width + x]
    }

    /// Unchecked-by-contract mutable access (see [`Grid::at`]).
    #[inline]
    pub fn at_mut(&mut self, x: usize, y: usize) -> &mut T {
        debug_assert!(x < self.width && y < self.height);
        &mut self.cells[y * self.width + x]
    }

    /// The row-major cells.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.cells
    }

    /// The row-major cells, mutable.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// Consumes the grid, returning its row-major buffer.
    pub fn into_vec(self) -> Vec<T> {
        self.cells
    }

    /// Row `y` as a slice.
    pub fn row(&self, y: usize) -> &[T] {
        &self.cells[y * self.width..(y + 1) * self.width]
    }

    /// Iterates over rows.
    pub fn rows(&self) -> impl Iterator<Item = &[T]> {
        // `chunks_exact(0)` panics, so special-case zero-width grids.
        let w = self.width.max(1);
        self.cells
            .chunks_exact(w)
            .take(if self.width == 0 { 0 } else { self.height })
    }

    /// Iterates over `((x, y), &cell)` in row-major order.
    pub fn iter(&self) -> impl Iterator<Item = ((usize, usize), &T)> {
        let w = self.width.max(1);
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, c)| ((i % w, i / w), c))
    }

    /// A new grid of the same size with `f` applied to each cell.
    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid {
            width: self.width,
            height: self.height,
            cells: self.cells.iter().map(&mut f).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_major_layout_and_bounds() {
        let g = Grid::from_fn(4, 3, |x, y| (x + 10 * y) as u32);
        assert_eq!(g.index(3, 2), Some(11));
        assert_eq!(g.coords(11), (3, 2));
        assert_eq!(*g.at(1, 2), 21);
        assert_eq!(g.row(1), &[10, 11, 12, 13]);
        assert_eq!(g.get(4, 0), None);
        assert_eq!(g.get(0, 3), None);
        assert!(!g.in_bounds(-1, 0));
        assert_eq!(g.get_point(Point::new(2, 1)), Some(&12));
        assert_eq!(g.rows().count(), 3);
        let coords: Vec<_> = g.iter().map(|(c, _)| c).take(5).collect();
        assert_eq!(coords, vec![(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]);
    }

    #[test]
    fn from_vec_checks_length() {
        assert!(Grid::from_vec(2, 2, vec![0; 3]).is_none());
        assert!(Grid::from_vec(2, 2, vec![0; 4]).is_some());
        let empty: Grid<u8> = Grid::new(0, 5, 0);
        assert_eq!(empty.rows().count(), 0);
        assert!(empty.is_empty());
    }
}
