//! Section files: cell declarations `c: tag, !tag`, `---`, then the layout.
//!
//! Each declared char's cell is the bounding box of its cells. Inside a cell, `m`/`M` is the
//! cell's entrance and `f`/`F` its exits; outside every cell, `M` is the section's entrance
//! and `F` its exits; everything else is literal terrain. Our extension: a declaration
//! `roles: intro, hard` (a key longer than one char) names what the section is used for;
//! without it the roles follow the reference (`twist` if the file name contains `twist`,
//! otherwise `intro, hard` for sections of fewer than 4 cells and `hard` for the rest).

use crate::chunk::{Chunk, Lines, UNSET, rows_to_chunk};
use crate::error::{Hazards, MarioError};
use crate::tiles;
use grid_core::text::excerpt;

/// A room's place in a section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The declared char.
    pub ch: u8,
    /// Tags asked of the room (`!tag` excludes).
    pub tags: Vec<String>,
    /// Bounding box `(x, y, w, h)` in the section.
    pub rect: (usize, usize, usize, usize),
    /// Entrance, cell-relative.
    pub entrance: (usize, usize),
    /// Exits, cell-relative, in x-major order.
    pub exits: Vec<(usize, usize)>,
    /// The declaration's line.
    pub line: usize,
}

/// A parsed section template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Name (the file stem).
    pub name: String,
    /// The file it came from.
    pub file: String,
    /// What the section is used for (`intro`, `hard`, `twist`, ...).
    pub roles: Vec<String>,
    /// The layout with room cells and markers as `.` (unset) and literal terrain kept.
    pub terrain: Chunk,
    /// The section's entrance `M` (first in x-major order).
    pub entrance: (usize, usize),
    /// The section's exits `F` in x-major order; the level follows the first.
    pub exits: Vec<(usize, usize)>,
    /// The cells in declaration order.
    pub cells: Vec<Cell>,
    /// Choice weight, 1..=1000 (`weight: N` in the header; default 1).
    pub weight: u32,
    /// Must-include (`must: yes` in the header): every level places it at the first step
    /// of one of its roles.
    pub must: bool,
}

impl Section {
    /// Width.
    pub fn width(&self) -> usize {
        self.terrain.width
    }

    /// Height.
    pub fn height(&self) -> usize {
        self.terrain.height
    }

    /// Whether the section has role `r`.
    pub fn has_role(&self, r: &str) -> bool {
        self.roles.iter().any(|x| x == r)
    }
}

fn split_tags(s: &str) -> Vec<String> {
    s.split(',')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Cells in x-major order (column by column, top to bottom), like the reference's scan.
fn x_major(
    c: &Chunk,
    x0: usize,
    y0: usize,
    w: usize,
    h: usize,
) -> impl Iterator<Item = (usize, usize)> {
    (x0..x0 + w)
        .flat_map(move |x| (y0..y0 + h).map(move |y| (x, y)))
        .filter(move |&(x, y)| x < c.width && y < c.height)
}

/// Parses a section file.
pub(crate) fn parse_section(
    name: &str,
    file: &str,
    text: &str,
    hazards: &mut Hazards,
) -> Result<Section, MarioError> {
    let mut lines = Lines::new(file, text);
    let mut decls: Vec<(u8, Vec<String>, usize)> = Vec::new();
    let mut roles: Option<Vec<String>> = None;
    let (mut weight, mut must) = (1, false);
    loop {
        let Some((n, l)) = lines.next_line() else {
            return Err(lines.err(
                lines.end_line(),
                1,
                "unexpected end of file: expected `---` after the cell declarations",
            ));
        };
        let t = l.trim();
        if t == "---" {
            break;
        }
        if t.is_empty() {
            continue;
        }
        let col = l.find(|c: char| !c.is_whitespace()).unwrap_or(0) + 1;
        let Some(colon) = l.find(':') else {
            return Err(lines.err(
                n,
                col,
                format!(
                    "expected a declaration `c: tag, !tag` or `---`, found {}",
                    excerpt(l)
                ),
            ));
        };
        let key = l[..colon].trim();
        let tags = split_tags(&l[colon + 1..]);
        if key == "roles" {
            roles = Some(tags);
            continue;
        }
        if key == "weight" || key == "must" {
            let value = l[colon + 1..].trim().to_string();
            let (w, m) = crate::room::parse_attributes(file, n, &[(key.to_string(), value)])?;
            if key == "weight" {
                weight = w;
            } else {
                must = m;
            }
            continue;
        }
        if key.len() != 1 || !key.as_bytes()[0].is_ascii_graphic() {
            return Err(lines.err(
                n,
                col,
                format!(
                    "expected one cell char (or `roles`, `weight`, `must`) before `:`, found {}",
                    excerpt(key)
                ),
            ));
        }
        let ch = key.as_bytes()[0];
        if matches!(ch, b'm' | b'f' | b'M' | b'F' | b'-' | UNSET) {
            return Err(lines.err(
                n,
                col,
                format!("cell char `{key}` is reserved (markers, air and `.`)"),
            ));
        }
        if decls.iter().any(|d| d.0 == ch) {
            return Err(lines.err(n, col, format!("cell `{key}` declared twice")));
        }
        decls.push((ch, tags, n));
    }
    let rows = lines.rest_non_empty();
    if rows.is_empty() {
        return Err(lines.err(lines.end_line(), 1, "expected the layout rows after `---`"));
    }
    let mut layout = rows_to_chunk(file, &rows)?;
    let line_of = |y: usize| rows.get(y).map_or(1, |r| r.0);
    // Undeclared chars must be tile chars.
    for y in 0..layout.height {
        for x in 0..layout.width {
            let c = layout.get(x, y);
            if !matches!(c, b'm' | b'f' | b'M' | b'F')
                && !decls.iter().any(|d| d.0 == c)
                && !tiles::is_level_char(c)
            {
                hazards.report(
                    file,
                    line_of(y),
                    x + 1,
                    format!(
                        "`{}` is neither a declared cell nor a tile char: kept as literal terrain",
                        c as char
                    ),
                )?;
            }
        }
    }
    let all = |c: &Chunk| x_major(c, 0, 0, c.width, c.height).collect::<Vec<_>>();
    let entrance = all(&layout)
        .into_iter()
        .find(|&(x, y)| layout.get(x, y) == b'M')
        .ok_or_else(|| lines.err(rows[0].0, 1, "the layout has no section entrance `M`"))?;
    let exits: Vec<(usize, usize)> = all(&layout)
        .into_iter()
        .filter(|&(x, y)| layout.get(x, y) == b'F')
        .collect();
    if exits.is_empty() {
        return Err(lines.err(rows[0].0, 1, "the layout has no section exit `F`"));
    }
    if entrance.0 != 0 {
        return Err(lines.err(
            line_of(entrance.1),
            entrance.0 + 1,
            "the section entrance `M` must be in the first column",
        ));
    }
    if let Some(&(x, y)) = exits.iter().find(|e| e.0 + 1 != layout.width) {
        return Err(lines.err(
            line_of(y),
            x + 1,
            "a section exit `F` must be in the last column",
        ));
    }
    let mut cells = Vec::with_capacity(decls.len());
    for (ch, tags, line) in decls {
        let Some((x, y, w, h)) = layout.bbox(ch) else {
            return Err(lines.err(
                line,
                1,
                format!("cell `{}` is declared but not in the layout", ch as char),
            ));
        };
        for (xx, yy) in x_major(&layout, x, y, w, h).collect::<Vec<_>>() {
            if layout.get(xx, yy) == ch {
                layout.set(xx, yy, UNSET);
            }
        }
        let (mut ent, mut ex) = (None, Vec::new());
        for (xx, yy) in x_major(&layout, x, y, w, h).collect::<Vec<_>>() {
            match layout.get(xx, yy) {
                b'm' | b'M' => ent = Some((xx - x, yy - y)),
                b'f' | b'F' => ex.push((xx - x, yy - y)),
                _ => continue,
            }
            layout.set(xx, yy, UNSET);
        }
        let Some(ent) = ent else {
            return Err(lines.err(
                line,
                1,
                format!("cell `{}` has no entrance `m` inside its box", ch as char),
            ));
        };
        if ex.is_empty() {
            return Err(lines.err(
                line,
                1,
                format!("cell `{}` has no exit `f` inside its box", ch as char),
            ));
        }
        cells.push(Cell {
            ch,
            tags,
            rect: (x, y, w, h),
            entrance: ent,
            exits: ex,
            line,
        });
    }
    for &(x, y) in std::iter::once(&entrance).chain(&exits) {
        layout.set(x, y, UNSET);
    }
    // Stray markers outside every cell are air.
    for c in layout.cells.iter_mut() {
        if matches!(*c, b'm' | b'f') {
            *c = UNSET;
        }
    }
    let roles = roles.unwrap_or_else(|| {
        if name.contains("twist") {
            vec!["twist".to_string()]
        } else if cells.len() < 4 {
            vec!["intro".to_string(), "hard".to_string()]
        } else {
            vec!["hard".to_string()]
        }
    });
    Ok(Section {
        name: name.to_string(),
        file: file.to_string(),
        roles,
        terrain: layout,
        entrance,
        exits,
        cells,
        weight,
        must,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Strictness;

    #[test]
    fn cells_anchors_and_terrain() {
        let text = "a: safe\nb: hard, !twist\n---\naaaa-bbb\naaaa-bbb\nMaaf#mbF\nXXXXXXXX\n";
        let s = parse_section("s", "s.txt", text, &mut Hazards::new(Strictness::Strict)).unwrap();
        assert_eq!(s.entrance, (0, 2));
        assert_eq!(s.exits, vec![(7, 2)]);
        assert_eq!(s.cells[0].rect, (0, 0, 4, 3));
        assert_eq!(
            (s.cells[0].entrance, s.cells[0].exits.clone()),
            ((0, 2), vec![(3, 2)])
        );
        assert_eq!(s.cells[1].tags, vec!["hard", "!twist"]);
        assert_eq!(s.cells[1].entrance, (0, 2));
        assert_eq!(s.terrain.get(4, 2), b'#');
        assert_eq!(s.terrain.get(0, 0), UNSET);
        assert_eq!(s.roles, vec!["intro", "hard"]);
    }

    #[test]
    fn errors_name_line_and_column() {
        let mut h = Hazards::new(Strictness::Strict);
        let e = parse_section("s", "s.txt", "a: x\naaa\n", &mut h).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("s.txt:2:1: expected a declaration `c: tag, !tag` or `---`"),
            "{e}"
        );
        let e = parse_section("s", "s.txt", "a: x\n", &mut h).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("s.txt:2:1: unexpected end of file: expected `---`"),
            "{e}"
        );
        let e = parse_section("s", "s.txt", "a: x\n---\nMaf\nMa\n", &mut h).unwrap_err();
        assert!(e.to_string().starts_with("s.txt:4:3: ragged row"), "{e}");
        let e = parse_section("s", "s.txt", "a: x\n---\nmaF\n", &mut h).unwrap_err();
        assert!(e.to_string().contains("no section entrance `M`"), "{e}");
        let e = parse_section("s", "s.txt", "a: x\nb: y\n---\naaa\nMaF\n", &mut h).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("s.txt:2:1: cell `b` is declared but not"),
            "{e}"
        );
    }
}
