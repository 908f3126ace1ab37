//! [`Chunk`], the rectangle of chars every parser produces, and line-numbered input.

use crate::error::MarioError;
use crate::limits::MAX_PIECE_SIDE;
use grid_core::text::excerpt;

/// The "unoccupied" char of rooms and sections: cells that do not overwrite what is below.
pub const UNSET: u8 = b'.';

/// A dense, row-major rectangle of ASCII chars.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chunk {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width * height` chars, row-major.
    pub cells: Vec<u8>,
}

/// A rectangle `(x, y, width, height)` in chunk coordinates.
pub type Boxed = (usize, usize, usize, usize);

impl Chunk {
    /// A chunk filled with `fill`.
    pub fn new(width: usize, height: usize, fill: u8) -> Self {
        Self {
            width,
            height,
            cells: vec![fill; width * height],
        }
    }

    /// The char at `(x, y)`; callers keep it in bounds.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.width + x]
    }

    /// Sets the char at `(x, y)`; callers keep it in bounds.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, c: u8) {
        self.cells[y * self.width + x] = c;
    }

    /// Row `y`.
    pub fn row(&self, y: usize) -> &[u8] {
        &self.cells[y * self.width..(y + 1) * self.width]
    }

    /// The bounding box of every cell holding `c`, or `None` if `c` is absent.
    pub fn bbox(&self, c: u8) -> Option<Boxed> {
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (i, &v) in self.cells.iter().enumerate() {
            if v == c {
                let (x, y) = (i % self.width, i / self.width);
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
        }
        (x0 != usize::MAX).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
    }

    /// Whether `c` occurs.
    pub fn contains(&self, c: u8) -> bool {
        self.cells.contains(&c)
    }

    /// The rows as text, each ended by `'\n'`.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            s.extend(self.row(y).iter().map(|&c| c as char));
            s.push('\n');
        }
        s
    }
}

/// A file's lines with 1-based numbers (`\r\n` and `\r` endings accepted).
#[derive(Debug)]
pub(crate) struct Lines<'a> {
    pub file: &'a str,
    lines: Vec<&'a str>,
    pos: usize,
}

impl<'a> Lines<'a> {
    pub fn new(file: &'a str, text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = Vec::new();
        let mut rest = text;
        loop {
            let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
            lines.push(&rest[..end]);
            if end == rest.len() {
                break;
            }
            rest = if rest[end..].starts_with("\r\n") {
                &rest[end + 2..]
            } else {
                &rest[end + 1..]
            };
        }
        Self {
            file,
            lines,
            pos: 0,
        }
    }

    /// The next line and its number.
    pub fn next_line(&mut self) -> Option<(usize, &'a str)> {
        let l = *self.lines.get(self.pos)?;
        self.pos += 1;
        Some((self.pos, l))
    }

    /// The line number after the last line (for "unexpected end of file").
    pub fn end_line(&self) -> usize {
        self.lines.len().max(1)
    }

    /// The remaining non-empty lines with their numbers.
    pub fn rest_non_empty(&mut self) -> Vec<(usize, &'a str)> {
        let mut v = Vec::new();
        while let Some((n, l)) = self.next_line() {
            if !l.is_empty() {
                v.push((n, l));
            }
        }
        v
    }

    pub fn err(&self, line: usize, col: usize, msg: impl Into<String>) -> MarioError {
        MarioError::parse(self.file, line, col, msg)
    }
}

/// Checks that a row holds only printable ASCII without spaces.
pub(crate) fn check_row(file: &str, line: usize, row: &str) -> Result<(), MarioError> {
    for (i, c) in row.chars().enumerate() {
        if !c.is_ascii_graphic() {
            return Err(MarioError::parse(
                file,
                line,
                i + 1,
                format!(
                    "unexpected {}: rows hold printable ASCII tile chars (use '-' for air)",
                    excerpt(c.encode_utf8(&mut [0; 4]))
                ),
            ));
        }
    }
    Ok(())
}

/// Parses rectangular rows into a chunk: every row must be as long as the first.
pub(crate) fn rows_to_chunk(file: &str, rows: &[(usize, &str)]) -> Result<Chunk, MarioError> {
    let Some(&(first_line, first)) = rows.first() else {
        return Err(MarioError::parse(
            file,
            1,
            1,
            "expected at least one row of tiles",
        ));
    };
    let width = first.len();
    if width > MAX_PIECE_SIDE || rows.len() > MAX_PIECE_SIDE {
        return Err(MarioError::parse(
            file,
            first_line,
            1,
            format!(
                "a body of {width} columns and {} rows is larger than the limit of {MAX_PIECE_SIDE} columns or rows (mario_rooms::limits::MAX_PIECE_SIDE)",
                rows.len()
            ),
        ));
    }
    check_row(file, first_line, first)?;
    let mut cells = Vec::with_capacity(width * rows.len());
    for &(line, row) in rows {
        check_row(file, line, row)?;
        if row.len() != width {
            return Err(MarioError::parse(
                file,
                line,
                row.len().min(width) + 1,
                format!(
                    "ragged row: {} chars, expected {width} like line {first_line}",
                    row.len()
                ),
            ));
        }
        cells.extend_from_slice(row.as_bytes());
    }
    Ok(Chunk {
        width,
        height: rows.len(),
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_handle_all_endings() {
        let mut l = Lines::new("f", "a\r\nb\rc\nd");
        let v: Vec<_> = std::iter::from_fn(|| l.next_line()).collect();
        assert_eq!(v, vec![(1, "a"), (2, "b"), (3, "c"), (4, "d")]);
    }

    #[test]
    fn ragged_rows_are_errors() {
        let e = rows_to_chunk("r.txt", &[(3, "---"), (4, "--")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.txt:4:3: ragged row: 2 chars, expected 3 like line 3"
        );
        let c = rows_to_chunk("r", &[(1, "ab"), (2, "cb")]).unwrap();
        assert_eq!(c.bbox(b'b'), Some((1, 0, 1, 2)));
        assert_eq!(c.bbox(b'z'), None);
    }
}
