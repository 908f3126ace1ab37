//! Neighbourhoods: lists of relative offsets, and the Marahel matrix notation.
//!
//! A matrix is rows of digits separated by `,`: `0` not used, `1` used, `2` the centre (not
//! used), `3` the centre and used. `"010,131,010"` is the plus shape with its centre. Offsets
//! are `(column - centre column, row - centre row)`, listed in row-major order (that order is
//! part of the meaning: Marahel executers write in it). Whitespace is ignored. Rows may have
//! different lengths (they are left-aligned). A matrix without a centre digit is centred on its
//! top-left cell, as in the reference.

use crate::geom::Point;
use thiserror::Error;

/// Why a neighbourhood matrix could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NeighborhoodError {
    /// The matrix has no cells at all.
    #[error("empty neighbourhood matrix (expected rows of digits 0-3 separated by ',')")]
    Empty,
    /// A character other than `0`-`3`, `,` or whitespace.
    #[error(
        "unexpected {found:?} at character {position} of {matrix:?} (expected a digit 0-3 or ',')"
    )]
    BadChar {
        /// The whole matrix text.
        matrix: String,
        /// 1-based character position.
        position: usize,
        /// The offending character.
        found: char,
    },
    /// More than one centre digit (`2` or `3`).
    #[error("more than one centre (2 or 3) in {matrix:?}: at characters {first} and {second}")]
    TwoCentres {
        /// The whole matrix text.
        matrix: String,
        /// 1-based position of the first centre.
        first: usize,
        /// 1-based position of the second centre.
        second: usize,
    },
}

/// A set of relative offsets, in a fixed order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Neighborhood {
    offsets: Vec<Point>,
}

/// The names of the predefined neighbourhoods, in the order [`Neighborhood::predefined`] knows them.
pub const PREDEFINED: [&str; 9] = [
    "self", "all", "plus", "left", "right", "up", "down", "horz", "vert",
];

impl Neighborhood {
    /// A neighbourhood from explicit offsets (their order is kept).
    pub fn from_offsets(offsets: Vec<Point>) -> Self {
        Self { offsets }
    }

    /// Parses the Marahel matrix notation (see the module docs).
    ///
    /// ```
    /// use grid_core::{Neighborhood, Point};
    /// let plus = Neighborhood::parse("010,131,010").unwrap();
    /// assert_eq!(plus.offsets()[0], Point::new(0, -1));
    /// assert_eq!(plus.len(), 5);
    /// assert!(Neighborhood::parse("010,1x1").is_err());
    /// ```
    pub fn parse(matrix: &str) -> Result<Self, NeighborhoodError> {
        let mut cells = Vec::new(); // (col, row, digit)
        let (mut row, mut col) = (0i64, 0i64);
        let mut centre: Option<(i64, i64, usize)> = None;
        for (i, c) in matrix.chars().enumerate() {
            match c {
                ',' => {
                    row += 1;
                    col = 0;
                }
                '0'..='3' => {
                    let d = c as u8 - b'0';
                    if d & 2 != 0 {
                        if let Some((_, _, first)) = centre {
                            return Err(NeighborhoodError::TwoCentres {
                                matrix: matrix.to_string(),
                                first,
                                second: i + 1,
                            });
                        }
                        centre = Some((col, row, i + 1));
                    }
                    cells.push((col, row, d));
                    col += 1;
                }
                c if c.is_whitespace() => {}
                found => {
                    return Err(NeighborhoodError::BadChar {
                        matrix: matrix.to_string(),
                        position: i + 1,
                        found,
                    });
                }
            }
        }
        if cells.is_empty() {
            return Err(NeighborhoodError::Empty);
        }
        let (cx, cy) = centre.map_or((0, 0), |(x, y, _)| (x, y));
        let offsets = cells
            .into_iter()
            .filter(|&(_, _, d)| d & 1 != 0)
            .map(|(x, y, _)| Point::new(x - cx, y - cy))
            .collect();
        Ok(Self { offsets })
    }

    /// A predefined neighbourhood by name: `self`, `all`, `plus`, `left`, `right`, `up`, `down`,
    /// `horz`, `vert` (as in Marahel v0.3.0: `all` and `plus` include the centre).
    pub fn predefined(name: &str) -> Option<Self> {
        let matrix = match name {
            "self" => "3",
            "all" => "111,131,111",
            "plus" => "010,131,010",
            "left" => "000,120,000",
            "right" => "000,021,000",
            "up" => "010,020,000",
            "down" => "000,020,010",
            "horz" => "000,121,000",
            "vert" => "010,020,010",
            _ => return None,
        };
        Some(Self::parse(matrix).expect("predefined matrices are valid"))
    }

    /// The 4-neighbourhood without the centre (N, W, E, S in row-major order).
    pub fn von_neumann() -> Self {
        Self::parse("010,121,010").expect("valid")
    }

    /// The 8-neighbourhood without the centre.
    pub fn moore() -> Self {
        Self::parse("111,121,111").expect("valid")
    }

    /// The offsets, in order.
    pub fn offsets(&self) -> &[Point] {
        &self.offsets
    }

    /// Number of offsets.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether there are no offsets.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The cells around `p`, in order (may lie outside any grid).
    pub fn around(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        self.offsets.iter().map(move |&o| p + o)
    }
}

/// The eight neighbours of a cell in order round it, clockwise from the top-left: each
/// shares a side or a corner with the next, so a walk along the list goes round the cell.
pub const RING: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
];

/// How many separate runs of `true` a [`RING`] of flags holds, going round the cell: 1 for
/// one unbroken arc, 2 or more when the cell separates arcs, and 0 when every flag is the
/// same (all `true` or all `false`).
pub fn ring_runs(ring: [bool; 8]) -> usize {
    (0..8).filter(|&k| ring[k] && !ring[(k + 7) % 8]).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_goes_round_and_counts_runs() {
        for k in 0..8 {
            let (a, b) = (RING[k], RING[(k + 1) % 8]);
            assert_eq!((a.0 - b.0).abs() + (a.1 - b.1).abs(), 1, "{a:?} to {b:?}");
        }
        assert_eq!(ring_runs([false; 8]), 0);
        assert_eq!(ring_runs([true; 8]), 0);
        let mut one = [false; 8];
        one[7] = true;
        one[0] = true;
        assert_eq!(ring_runs(one), 1, "an arc across the wrap is one run");
        let opposite = [true, false, false, false, true, false, false, false];
        assert_eq!(ring_runs(opposite), 2);
    }

    fn pts(v: &[(i64, i64)]) -> Vec<Point> {
        v.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    #[test]
    fn parses_predefined_shapes() {
        let plus = Neighborhood::predefined("plus").unwrap();
        assert_eq!(
            plus.offsets(),
            pts(&[(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1)])
        );
        assert_eq!(Neighborhood::predefined("all").unwrap().len(), 9);
        assert_eq!(
            Neighborhood::predefined("self").unwrap().offsets(),
            pts(&[(0, 0)])
        );
        assert_eq!(
            Neighborhood::predefined("left").unwrap().offsets(),
            pts(&[(-1, 0)])
        );
        assert_eq!(
            Neighborhood::predefined("right").unwrap().offsets(),
            pts(&[(1, 0)])
        );
        assert_eq!(
            Neighborhood::predefined("up").unwrap().offsets(),
            pts(&[(0, -1)])
        );
        assert_eq!(
            Neighborhood::predefined("down").unwrap().offsets(),
            pts(&[(0, 1)])
        );
        assert_eq!(
            Neighborhood::predefined("horz").unwrap().offsets(),
            pts(&[(-1, 0), (1, 0)])
        );
        assert_eq!(
            Neighborhood::predefined("vert").unwrap().offsets(),
            pts(&[(0, -1), (0, 1)])
        );
        assert!(Neighborhood::predefined("plsu").is_none());
        for name in PREDEFINED {
            assert!(Neighborhood::predefined(name).is_some(), "{name}");
        }
    }

    #[test]
    fn parses_uneven_rows_whitespace_and_no_centre() {
        // Centre at row 1 col 2; rows of different lengths.
        let n = Neighborhood::parse("1,0021, 1").unwrap();
        assert_eq!(n.offsets(), pts(&[(-2, -1), (1, 0), (-2, 1)]));
        // No centre: offsets from the top-left cell.
        let n = Neighborhood::parse("01\n,10").unwrap();
        assert_eq!(n.offsets(), pts(&[(1, 0), (0, 1)]));
        // Two-row 5x5 ring with centre 2 excludes the centre.
        let ring = Neighborhood::parse("11111,10001,10201,10001,11111").unwrap();
        assert_eq!(ring.len(), 16);
        assert!(!ring.offsets().contains(&Point::new(0, 0)));
    }

    #[test]
    fn rejects_malformed_matrices() {
        assert_eq!(Neighborhood::parse(""), Err(NeighborhoodError::Empty));
        assert_eq!(Neighborhood::parse(" , ,"), Err(NeighborhoodError::Empty));
        match Neighborhood::parse("010,141,010") {
            Err(NeighborhoodError::BadChar {
                position, found, ..
            }) => {
                assert_eq!((position, found), (6, '4'));
            }
            other => panic!("{other:?}"),
        }
        match Neighborhood::parse("3,2") {
            Err(NeighborhoodError::TwoCentres { first, second, .. }) => {
                assert_eq!((first, second), (1, 3))
            }
            other => panic!("{other:?}"),
        }
        let msg = Neighborhood::parse("01a").unwrap_err().to_string();
        assert!(msg.contains("'a'") && msg.contains("character 3"), "{msg}");
    }
}
