//! Room ("block") files in both formats, detected from the first line.
//!
//! * **Documented format** (line 1 a positive number): difficulty, then a tags line (may be
//!   empty), then rows with inline macros `{ab=30;cd=20;}`: the `{` cell is where the chosen
//!   option is written, options have equal length, probabilities are integer percents summing
//!   to at most 100 and the remainder is a run of `-`.
//! * **Reference format** (anything else on line 1): a tags line, `X = macroName` bindings
//!   until `---`, then the body; each binding's placeholder is the bounding box of its char.
//!
//! In both, `m` is the entrance and `f` an exit; both become `-`. Start rooms carry a literal
//! `M` and no `m`; finish rooms carry `m` and a literal `F`.

use crate::chunk::{Chunk, Lines, UNSET, rows_to_chunk};
use crate::error::{Hazards, MarioError};
use crate::macros::{Macro, MacroOption, WEIGHT_TOTAL};
use crate::tiles;
use grid_core::LevelRng;
use grid_core::text::excerpt;

/// Which of the two room formats a file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoomFormat {
    /// Difficulty line, tags line, body with inline `{...}` macros (the README's format).
    Documented,
    /// Tags line, `X = macroName` bindings, `---`, body (the reference's current format).
    Reference,
}

/// Where a macro slot's options come from.
#[derive(Clone, Debug, PartialEq)]
pub enum MacroSource {
    /// A named macro from the library (reference format); `index` is set by the library.
    Named {
        /// The macro's name.
        name: String,
        /// The binding's line in the room file.
        line: usize,
        /// Index into the library's macros once resolved.
        index: Option<usize>,
    },
    /// An inline `{...}` macro.
    Inline(Macro),
}

/// A place in a room that a macro fills.
#[derive(Clone, Debug, PartialEq)]
pub struct MacroSlot {
    /// The placeholder char (reference format), `None` for inline macros.
    pub placeholder: Option<u8>,
    /// The area `(x, y, w, h)` the option is written into; `None` if the placeholder is absent.
    pub area: Option<(usize, usize, usize, usize)>,
    /// The macro.
    pub source: MacroSource,
}

/// A parsed room template.
#[derive(Clone, Debug, PartialEq)]
pub struct Room {
    /// Name (the file stem).
    pub name: String,
    /// The file it came from (for messages).
    pub file: String,
    /// Its format.
    pub format: RoomFormat,
    /// The difficulty number (documented format only).
    pub difficulty: Option<f32>,
    /// Tags, trimmed, empty ones dropped.
    pub tags: Vec<String>,
    /// The body with `m`/`f` replaced by `-` (placeholders still present).
    pub body: Chunk,
    /// The entrance `m` (none for start rooms).
    pub entrance: Option<(usize, usize)>,
    /// The exits `f`, in reading order.
    pub exits: Vec<(usize, usize)>,
    /// Macro slots in the order they run.
    pub slots: Vec<MacroSlot>,
    /// Choice weight, 1..=1000 (`weight=N` on the tags line; default 1): how much more
    /// often than a weight-1 room it is drawn among the rooms that fit a cell.
    pub weight: u32,
    /// Must-include (`must=yes` on the tags line): every level places it where it first
    /// fits (a level in which it fits nowhere is an error).
    pub must: bool,
}

impl Room {
    /// Width.
    pub fn width(&self) -> usize {
        self.body.width
    }

    /// Height.
    pub fn height(&self) -> usize {
        self.body.height
    }

    /// Whether the room has tag `t`.
    pub fn has_tag(&self, t: &str) -> bool {
        self.tags.iter().any(|x| x == t)
    }

    /// The difficulty used for targeting: the file's number, else 3 for `hard`, 1 for
    /// `easy`/`safe`, 2 otherwise.
    pub fn difficulty_or_default(&self) -> f32 {
        self.difficulty.unwrap_or(if self.has_tag("hard") {
            3.0
        } else if self.has_tag("easy") || self.has_tag("safe") {
            1.0
        } else {
            2.0
        })
    }

    /// Runs the macros: a copy of the body with every slot filled. One draw per slot, even
    /// when the placeholder is absent. Options are clipped to the placeholder's area.
    pub fn instantiate(&self, macros: &[Macro], rng: &mut LevelRng) -> Chunk {
        let mut c = self.body.clone();
        for slot in &self.slots {
            let m = match &slot.source {
                MacroSource::Inline(m) => m,
                MacroSource::Named { index: Some(i), .. } if *i < macros.len() => &macros[*i],
                MacroSource::Named { .. } => continue,
            };
            let chosen: Option<&MacroOption> = m.choose(rng);
            let Some((x, y, w, h)) = slot.area else {
                continue;
            };
            if let Some(p) = slot.placeholder {
                for yy in y..y + h {
                    for xx in x..x + w {
                        if c.get(xx, yy) == p {
                            c.set(xx, yy, b'-');
                        }
                    }
                }
            }
            if let Some(o) = chosen {
                for oy in 0..h.min(m.height) {
                    for ox in 0..w.min(m.width) {
                        let v = o.cells[oy * m.width + ox];
                        if v != UNSET {
                            c.set(x + ox, y + oy, v);
                        }
                    }
                }
            }
        }
        c
    }
}

/// The tags of a tags line, and its `key=value` attributes apart (`weight=3`, `must=yes`).
pub(crate) fn split_attributes(s: &str) -> (Vec<String>, Vec<(String, String)>) {
    let (mut tags, mut attributes) = (Vec::new(), Vec::new());
    for t in split_tags(s) {
        match t.split_once('=') {
            Some((k, v)) => attributes.push((k.trim().to_string(), v.trim().to_string())),
            None => tags.push(t),
        }
    }
    (tags, attributes)
}

/// The most a `weight` may be.
pub const MAX_WEIGHT: u32 = 1000;

/// Reads `weight` (1..=[`MAX_WEIGHT`]) and `must` (`yes`/`no`) attributes of a room or
/// section; anything else is an error naming it.
pub(crate) fn parse_attributes(
    file: &str,
    line: usize,
    attributes: &[(String, String)],
) -> Result<(u32, bool), MarioError> {
    let (mut weight, mut must) = (1, false);
    for (k, v) in attributes {
        match k.as_str() {
            "weight" => match v.parse::<u32>() {
                Ok(w) if (1..=MAX_WEIGHT).contains(&w) => weight = w,
                _ => {
                    return Err(MarioError::parse(
                        file,
                        line,
                        1,
                        format!("expected a weight 1..={MAX_WEIGHT}, found {}", excerpt(v)),
                    ));
                }
            },
            "must" => match v.as_str() {
                "yes" => must = true,
                "no" => must = false,
                _ => {
                    return Err(MarioError::parse(
                        file,
                        line,
                        1,
                        format!("expected `must=yes` or `must=no`, found {}", excerpt(v)),
                    ));
                }
            },
            _ => {
                return Err(MarioError::parse(
                    file,
                    line,
                    1,
                    format!(
                        "unknown attribute {}: expected `weight=N` or `must=yes`",
                        excerpt(k)
                    ),
                ));
            }
        }
    }
    Ok((weight, must))
}

fn split_tags(s: &str) -> Vec<String> {
    s.split(',')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Parses a room file of either format.
pub(crate) fn parse_room(
    name: &str,
    file: &str,
    text: &str,
    hazards: &mut Hazards,
) -> Result<Room, MarioError> {
    let mut lines = Lines::new(file, text);
    let Some((_, first)) = lines.next_line() else {
        return Err(lines.err(1, 1, "empty room file"));
    };
    let first_num = first.trim().parse::<f64>().ok();
    let (format, difficulty, tags_line) = if let Some(d) = first_num {
        if !(d.is_finite() && d > 0.0) {
            return Err(lines.err(
                1,
                1,
                format!(
                    "expected a positive difficulty number, found {}",
                    excerpt(first.trim())
                ),
            ));
        }
        let Some((_, tags)) = lines.next_line() else {
            return Err(lines.err(2, 1, "unexpected end of file: expected the tags line"));
        };
        (RoomFormat::Documented, Some(d as f32), tags)
    } else {
        (RoomFormat::Reference, None, first)
    };
    let (tags, attributes) = split_attributes(tags_line);
    let tags_line_no = if format == RoomFormat::Documented {
        2
    } else {
        1
    };
    let (weight, must) = parse_attributes(file, tags_line_no, &attributes)?;
    let mut bindings: Vec<(u8, String, usize, usize)> = Vec::new();
    let (mut body, mut slots, row_lines) = match format {
        RoomFormat::Reference => {
            loop {
                let Some((n, l)) = lines.next_line() else {
                    return Err(lines.err(
                        lines.end_line(),
                        1,
                        "unexpected end of file: expected `---` after the macro bindings",
                    ));
                };
                if l.trim() == "---" {
                    break;
                }
                if l.trim().is_empty() {
                    continue;
                }
                let Some(eq) = l.find('=') else {
                    return Err(lines.err(
                        n,
                        1,
                        format!(
                            "expected a binding `X = macroName` or `---`, found {}",
                            excerpt(l)
                        ),
                    ));
                };
                let key = l[..eq].trim();
                let key_col = l.find(|c: char| !c.is_whitespace()).unwrap_or(0) + 1;
                if key.len() != 1 || !key.as_bytes()[0].is_ascii_graphic() {
                    return Err(lines.err(
                        n,
                        key_col,
                        format!(
                            "expected one placeholder char before `=`, found {}",
                            excerpt(key)
                        ),
                    ));
                }
                let macro_name = l[eq + 1..].trim();
                if macro_name.is_empty() {
                    return Err(lines.err(n, eq + 2, "expected a macro name after `=`"));
                }
                let ch = key.as_bytes()[0];
                if matches!(ch, b'm' | b'f' | b'M' | b'F') {
                    hazards.report(
                        file,
                        n,
                        key_col,
                        format!(
                            "placeholder `{key}` collides with the entrance/exit marker `{key}`"
                        ),
                    )?;
                } else if tiles::is_level_char(ch) {
                    hazards.report(
                        file,
                        n,
                        key_col,
                        format!(
                            "placeholder `{key}` collides with the tile char `{key}` ({})",
                            tiles::info_of(ch).name
                        ),
                    )?;
                }
                if bindings.iter().any(|b| b.0 == ch) {
                    return Err(lines.err(n, key_col, format!("placeholder `{key}` bound twice")));
                }
                bindings.push((ch, macro_name.to_string(), n, key_col));
            }
            let rows = lines.rest_non_empty();
            if rows.is_empty() {
                return Err(lines.err(lines.end_line(), 1, "expected the room's rows after `---`"));
            }
            let row_lines: Vec<usize> = rows.iter().map(|r| r.0).collect();
            (rows_to_chunk(file, &rows)?, Vec::new(), row_lines)
        }
        RoomFormat::Documented => parse_documented_body(&mut lines)?,
    };
    // Markers.
    let (mut entrance, mut exits) = (None, Vec::new());
    let mut multiple_m = false;
    for (y, &line) in row_lines.iter().enumerate().take(body.height) {
        for x in 0..body.width {
            match body.get(x, y) {
                b'm' => {
                    if let Some((px, py)) = entrance
                        && !multiple_m
                    {
                        multiple_m = true;
                        let _ = (px, py);
                        hazards.report(
                            file,
                            line,
                            x + 1,
                            "several entrances `m`: the last one in reading order is used",
                        )?;
                    }
                    entrance = Some((x, y));
                    body.set(x, y, b'-');
                }
                b'f' => {
                    exits.push((x, y));
                    body.set(x, y, b'-');
                }
                _ => {}
            }
        }
    }
    // Placeholders.
    for (ch, macro_name, line, col) in bindings {
        let area = body.bbox(ch);
        if area.is_none() {
            hazards.report(
                file,
                line,
                col,
                format!(
                    "placeholder `{}` of macro {} does not occur in the body",
                    ch as char,
                    excerpt(&macro_name)
                ),
            )?;
        }
        slots.push(MacroSlot {
            placeholder: Some(ch),
            area,
            source: MacroSource::Named {
                name: macro_name,
                line,
                index: None,
            },
        });
    }
    let has_m = body.contains(b'M');
    let has_f = body.contains(b'F');
    if let Some((x, y)) = entrance
        && x != 0
    {
        hazards.report(
            file,
            row_lines[y],
            x + 1,
            "the entrance `m` must be in the first column (the room can never fit a cell)",
        )?;
    }
    for &(x, y) in &exits {
        if x + 1 != body.width {
            hazards.report(
                file,
                row_lines[y],
                x + 1,
                "an exit `f` must be in the last column",
            )?;
        }
    }
    if entrance.is_none() && !has_m {
        hazards.report(
            file,
            1,
            1,
            "room has neither an entrance `m` nor a start `M`",
        )?;
    }
    if exits.is_empty() && !has_f {
        hazards.report(file, 1, 1, "room has neither an exit `f` nor a finish `F`")?;
    }
    Ok(Room {
        name: name.to_string(),
        file: file.to_string(),
        format,
        difficulty,
        tags,
        body,
        entrance,
        exits,
        slots: std::mem::take(&mut slots),
        weight,
        must,
    })
}

/// The documented body: rows with inline `{opt=prob;...}` macros.
#[allow(clippy::type_complexity)]
fn parse_documented_body(
    lines: &mut Lines<'_>,
) -> Result<(Chunk, Vec<MacroSlot>, Vec<usize>), MarioError> {
    let file = lines.file.to_string();
    let raw = lines.rest_non_empty();
    let mut rows: Vec<(usize, String)> = Vec::with_capacity(raw.len());
    let mut slots = Vec::new();
    for (y, &(n, l)) in raw.iter().enumerate() {
        let mut row = String::with_capacity(l.len());
        let mut rest = l;
        let mut col = 1;
        while let Some(open) = rest.find('{') {
            row.push_str(&rest[..open]);
            col += rest[..open].chars().count();
            let Some(close) = rest[open..].find('}') else {
                return Err(MarioError::parse(
                    &file,
                    n,
                    col,
                    "unclosed `{`: expected `}`",
                ));
            };
            let inner = &rest[open + 1..open + close];
            let m = parse_inline(&file, n, col, inner)?;
            slots.push(MacroSlot {
                placeholder: None,
                area: Some((row.len(), y, m.width, 1)),
                source: MacroSource::Inline(m.clone()),
            });
            row.extend(std::iter::repeat_n('-', m.width));
            col += close + 1;
            rest = &rest[open + close + 1..];
        }
        if let Some(p) = rest.find('}') {
            return Err(MarioError::parse(
                &file,
                n,
                col + p,
                "unexpected `}` without `{`",
            ));
        }
        row.push_str(rest);
        rows.push((n, row));
    }
    if rows.is_empty() {
        return Err(MarioError::parse(
            &file,
            lines.end_line(),
            1,
            "expected the room's rows after the tags line",
        ));
    }
    let refs: Vec<(usize, &str)> = rows.iter().map(|(n, r)| (*n, r.as_str())).collect();
    let row_lines = rows.iter().map(|r| r.0).collect();
    Ok((rows_to_chunk(&file, &refs)?, slots, row_lines))
}

/// Parses the inside of `{...}` at `line:col` (col of the `{`).
fn parse_inline(file: &str, line: usize, col: usize, inner: &str) -> Result<Macro, MarioError> {
    let mut options = Vec::new();
    let mut total = 0u32;
    let mut width = None;
    let mut offset = col + 1;
    for token in inner.split(';') {
        let tcol = offset;
        offset += token.chars().count() + 1;
        if token.is_empty() {
            break;
        }
        let Some(eq) = token.rfind('=') else {
            return Err(MarioError::parse(
                file,
                line,
                tcol,
                format!(
                    "expected `tiles=percent` in inline macro, found {}",
                    excerpt(token)
                ),
            ));
        };
        let (opt, prob) = (&token[..eq], &token[eq + 1..]);
        if opt.is_empty() || !opt.bytes().all(|b| b.is_ascii_graphic() && b != b'=') {
            return Err(MarioError::parse(
                file,
                line,
                tcol,
                format!("expected tile chars before `=`, found {}", excerpt(opt)),
            ));
        }
        let p: u32 = match prob.trim().parse() {
            Ok(p) if p <= 100 => p,
            _ => {
                return Err(MarioError::parse(
                    file,
                    line,
                    tcol + eq + 1,
                    format!("expected a percent 0..=100, found {}", excerpt(prob)),
                ));
            }
        };
        total += p;
        if total > 100 {
            return Err(MarioError::parse(
                file,
                line,
                tcol + eq + 1,
                format!("inline macro probabilities sum to {total}, over 100"),
            ));
        }
        match width {
            None => width = Some(opt.len()),
            Some(w) if w != opt.len() => {
                return Err(MarioError::parse(
                    file,
                    line,
                    tcol,
                    format!(
                        "inline macro options must have equal length: {} has {}, expected {w}",
                        excerpt(opt),
                        opt.len()
                    ),
                ));
            }
            _ => {}
        }
        options.push(MacroOption {
            weight: p * (WEIGHT_TOTAL / 100),
            cells: opt.as_bytes().to_vec(),
        });
    }
    let Some(width) = width else {
        return Err(MarioError::parse(
            file,
            line,
            col,
            "empty inline macro: expected `{tiles=percent;...}`",
        ));
    };
    Ok(Macro {
        name: "inline".to_string(),
        width,
        height: 1,
        options,
    })
}
