//! [`MarioLevel`]: the Mario AI Framework level text format, read and written.

use crate::chunk::Lines;
use crate::error::MarioError;
use crate::tiles;
use grid_core::{Legend, TileId, TileMap};

/// A rectangular Mario level: one ASCII char per tile, row 0 at the top.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MarioLevel {
    width: usize,
    height: usize,
    cells: Vec<u8>,
}

impl MarioLevel {
    /// A level from its rows (callers keep `cells.len() == width * height`).
    pub fn from_cells(width: usize, height: usize, cells: Vec<u8>) -> Result<Self, MarioError> {
        crate::limits::check_level_size(width, height)?;
        if cells.len() != width * height || width == 0 || height == 0 {
            return Err(MarioError::Config(format!(
                "level of {width}x{height} needs {} cells, got {}",
                width * height,
                cells.len()
            )));
        }
        Ok(Self {
            width,
            height,
            cells,
        })
    }

    /// Parses level text the way the framework's `MarioLevel` does: the width is line 0's
    /// length, shorter lines are padded with air, a longer line is an error (the framework
    /// crashes), non-ASCII chars are unknown (air). A trailing empty line is ignored.
    pub fn parse(file: &str, text: &str) -> Result<Self, MarioError> {
        let mut lines = Lines::new(file, text);
        let mut rows = Vec::new();
        while let Some((n, l)) = lines.next_line() {
            rows.push((n, l));
        }
        while rows.last().is_some_and(|r| r.1.is_empty()) {
            rows.pop();
        }
        let Some(&(_, first)) = rows.first() else {
            return Err(MarioError::parse(
                file,
                1,
                1,
                "empty level: expected rows of tiles",
            ));
        };
        let width = first.chars().count();
        if width == 0 {
            return Err(MarioError::parse(file, 1, 1, "the first row is empty"));
        }
        crate::limits::check_level_size(width, rows.len())?;
        let mut cells = Vec::with_capacity(width * rows.len());
        for &(n, l) in &rows {
            let len = l.chars().count();
            if len > width {
                return Err(MarioError::parse(
                    file,
                    n,
                    width + 1,
                    format!("row of {len} chars is longer than the first row ({width})"),
                ));
            }
            cells.extend(l.chars().map(|c| if c.is_ascii() { c as u8 } else { b'-' }));
            cells.extend(std::iter::repeat_n(b'-', width - len));
        }
        Self::from_cells(width, rows.len(), cells)
    }

    /// The level text: rows joined by `'\n'`, no trailing newline (like the framework's files).
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            if y > 0 {
                s.push('\n');
            }
            s.extend(self.row(y).iter().map(|&c| c as char));
        }
        s
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The char at `(x, y)`; callers keep it in bounds.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.width + x]
    }

    /// Row `y`.
    pub fn row(&self, y: usize) -> &[u8] {
        &self.cells[y * self.width..(y + 1) * self.width]
    }

    /// Sets the char at `(x, y)`; callers keep it in bounds.
    #[inline]
    pub(crate) fn set(&mut self, x: usize, y: usize, c: u8) {
        self.cells[y * self.width + x] = c;
    }

    /// All chars, row-major, for the dressing stage to edit in place.
    pub(crate) fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// All chars, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    fn last_of(&self, c: u8) -> Option<(usize, usize)> {
        self.cells
            .iter()
            .rposition(|&v| v == c)
            .map(|i| (i % self.width, i / self.width))
    }

    /// Mario's start: the last `M` in row-major order (the framework's rule).
    pub fn start(&self) -> Option<(usize, usize)> {
        self.last_of(b'M')
    }

    /// The exit: the last `F` in row-major order.
    pub fn exit(&self) -> Option<(usize, usize)> {
        self.last_of(b'F')
    }

    /// The framework's `findFirstFloor(x)`: scanning up from the bottom, the first non-solid
    /// cell above a solid one.
    pub fn first_floor(&self, x: usize) -> Option<usize> {
        let solid = |c: u8| tiles::class_of(c) == tiles::TileClass::Solid;
        let mut below_solid = false;
        for y in (0..self.height).rev() {
            let c = self.get(x, y);
            if solid(c) {
                below_solid = true;
            } else if below_solid {
                return Some(y);
            }
        }
        None
    }

    /// Where the framework spawns Mario: the last `M`, else column 0 on its first floor.
    pub fn spawn(&self) -> Option<(usize, usize)> {
        self.start().or_else(|| self.first_floor(0).map(|y| (0, y)))
    }

    /// The framework's exit tile: the last `F`, else the last column on its first floor.
    pub fn exit_tile(&self) -> Option<(usize, usize)> {
        self.exit().or_else(|| {
            let x = self.width - 1;
            self.first_floor(x).map(|y| (x, y))
        })
    }

    /// How many cells hold `c`.
    pub fn count(&self, c: u8) -> usize {
        self.cells.iter().filter(|&&v| v == c).count()
    }
}

impl TileMap for MarioLevel {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.height
    }
    #[inline]
    fn tile(&self, x: usize, y: usize) -> TileId {
        tiles::id_of(self.get(x, y))
    }
    fn legend(&self) -> &Legend {
        tiles::legend()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_trip_and_markers() {
        let l = MarioLevel::parse("l", "--F\nM--\nXXX").unwrap();
        assert_eq!((l.width(), l.height()), (3, 3));
        assert_eq!(l.start(), Some((0, 1)));
        assert_eq!(l.exit(), Some((2, 0)));
        assert_eq!(l.to_text(), "--F\nM--\nXXX");
        assert_eq!(l.tile_name(0, 2), "ground");
        let short = MarioLevel::parse("l", "M-F\nX\n").unwrap();
        assert_eq!(short.to_text(), "M-F\nX--");
        let e = MarioLevel::parse("l.txt", "M-\nXXX").unwrap_err();
        assert_eq!(
            e.to_string(),
            "l.txt:2:3: row of 3 chars is longer than the first row (2)"
        );
    }
}
