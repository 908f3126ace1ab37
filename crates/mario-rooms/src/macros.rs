//! Macros: random variations of a part of a room.
//!
//! A macro file is `name width height` on its first line, then options: a
//! probability line (`0.2`) followed by `height` rows of `width` chars. The documented inline
//! form `{ab=30;cd=20;}` is parsed by [`crate::room`] into the same
//! [`Macro`]. Probabilities are kept as integer weights out of [`WEIGHT_TOTAL`]; what the
//! options leave over is the chance of an all-air (`-`) result.

use crate::chunk::{Lines, check_row};
use crate::error::{Hazards, MarioError};
use grid_core::LevelRng;
use grid_core::rand::RngExt;
use grid_core::text::excerpt;

/// Weights are parts of this total (100 % = 10 000, so two decimals of a percent).
pub const WEIGHT_TOTAL: u32 = 10_000;

/// One option of a macro.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MacroOption {
    /// Probability in parts of [`WEIGHT_TOTAL`].
    pub weight: u32,
    /// `width * height` chars, row-major; `.` cells leave the room's char in place.
    pub cells: Vec<u8>,
}

/// A macro: options of one size with their probabilities.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Macro {
    /// Name (from the file's first line, not the file name), or `inline` for `{...}`.
    pub name: String,
    /// Width of every option.
    pub width: usize,
    /// Height of every option.
    pub height: usize,
    /// The options in file order.
    pub options: Vec<MacroOption>,
}

impl Macro {
    /// Picks an option: `None` means the implicit all-air remainder.
    ///
    /// One draw in `0..WEIGHT_TOTAL`; options are walked in order with integer sums, so a sum
    /// of exactly 100 % always picks an option (the reference's float sum could miss, d.6).
    pub fn choose(&self, rng: &mut LevelRng) -> Option<&MacroOption> {
        let r = rng.random_range(0..WEIGHT_TOTAL);
        let mut total = 0;
        for o in &self.options {
            total += o.weight;
            if r < total {
                return Some(o);
            }
        }
        None
    }

    /// The sum of the weights.
    pub fn total_weight(&self) -> u32 {
        self.options.iter().map(|o| o.weight).sum()
    }
}

/// Parses a probability `0..=1` into a weight.
fn prob_weight(text: &str) -> Option<u32> {
    let p: f64 = text.trim().parse().ok()?;
    (p.is_finite() && (0.0..=1.0).contains(&p)).then(|| (p * WEIGHT_TOTAL as f64).round() as u32)
}

/// Parses a macro file. In lenient mode, options of the wrong size are dropped (as the
/// reference does) and a probability sum over 1 is kept (options past 100 % are
/// unreachable), each with a diagnostic; in strict mode both are errors.
pub(crate) fn parse_macro(
    file: &str,
    text: &str,
    hazards: &mut Hazards,
) -> Result<Macro, MarioError> {
    let mut lines = Lines::new(file, text);
    let rows = lines.rest_non_empty();
    let Some(&(hline, header)) = rows.first() else {
        return Err(lines.err(1, 1, "empty macro file: expected `name width height`"));
    };
    let tokens: Vec<&str> = header.split_whitespace().collect();
    if tokens.len() != 3 {
        return Err(lines.err(
            hline,
            1,
            format!(
                "expected `name width height`, found {} fields",
                tokens.len()
            ),
        ));
    }
    let dim = |i: usize| -> Result<usize, MarioError> {
        let col = header.find(tokens[i]).unwrap_or(0) + 1;
        match tokens[i].parse::<usize>() {
            Ok(v) if (1..=256).contains(&v) => Ok(v),
            _ => Err(lines.err(
                hline,
                col,
                format!("expected a size 1..=256, found {}", excerpt(tokens[i])),
            )),
        }
    };
    let (width, height) = (dim(1)?, dim(2)?);
    let mut m = Macro {
        name: tokens[0].to_string(),
        width,
        height,
        options: Vec::new(),
    };
    let mut i = 1;
    let mut total = 0u32;
    while i < rows.len() {
        let (pline, ptext) = rows[i];
        let weight = prob_weight(ptext).ok_or_else(|| {
            lines.err(
                pline,
                1,
                format!(
                    "expected a probability between 0 and 1, found {}",
                    excerpt(ptext)
                ),
            )
        })?;
        total += weight;
        if total > WEIGHT_TOTAL {
            hazards.report(
                file,
                pline,
                1,
                format!(
                    "probabilities sum to {:.2} (over 1): this option and later ones are unreachable",
                    total as f64 / WEIGHT_TOTAL as f64
                ),
            )?;
        }
        if i + height >= rows.len() {
            return Err(lines.err(
                lines.end_line(),
                1,
                format!(
                    "unexpected end of file: option at line {pline} needs {height} rows of {width} chars"
                ),
            ));
        }
        let mut cells = Vec::with_capacity(width * height);
        let mut good = true;
        for &(rl, row) in &rows[i + 1..i + 1 + height] {
            check_row(file, rl, row)?;
            if row.len() != width {
                hazards.report(
                    file,
                    rl,
                    row.len().min(width) + 1,
                    format!(
                        "option row has {} chars, expected {width}: option dropped",
                        row.len()
                    ),
                )?;
                good = false;
            }
            cells.extend_from_slice(row.as_bytes());
        }
        if good {
            m.options.push(MacroOption { weight, cells });
        }
        i += 1 + height;
    }
    if m.options.is_empty() {
        hazards.report(file, hline, 1, "macro has no options: it always yields air")?;
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Strictness;
    use grid_core::Seed;

    #[test]
    fn parses_options_and_chooses_by_weight() {
        let mut h = Hazards::new(Strictness::Strict);
        let m = parse_macro("p.txt", "pipe 2 2\n0.5\n<>\n[]\n0.25\n--\n-g", &mut h).unwrap();
        assert_eq!((m.width, m.height, m.options.len()), (2, 2, 2));
        assert_eq!(m.total_weight(), 7500);
        let mut rng = Seed(1).rng();
        let mut counts = [0; 3];
        for _ in 0..4000 {
            match m.choose(&mut rng) {
                Some(o) if o.cells == b"<>[]" => counts[0] += 1,
                Some(_) => counts[1] += 1,
                None => counts[2] += 1,
            }
        }
        assert!(counts[0] > 1800 && counts[0] < 2200, "{counts:?}");
        assert!(counts[2] > 850 && counts[2] < 1150, "{counts:?}");
    }

    #[test]
    fn over_one_is_an_error_in_strict_mode() {
        let text = "x 1 1\n0.6\na\n0.6\nb";
        let e = parse_macro("x.txt", text, &mut Hazards::new(Strictness::Strict)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.txt:4:1: probabilities sum to 1.20"),
            "{e}"
        );
        let mut h = Hazards::new(Strictness::Lenient);
        let m = parse_macro("x.txt", text, &mut h).unwrap();
        assert_eq!(m.options.len(), 2);
        assert_eq!(h.diagnostics.len(), 1);
    }

    #[test]
    fn malformed_headers_and_truncation() {
        let mut h = Hazards::new(Strictness::Strict);
        let e = parse_macro("m", "x 2\n0.5\nab", &mut h).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("m:1:1: expected `name width height`")
        );
        let e = parse_macro("m", "x 2 0\n", &mut h).unwrap_err();
        assert!(e.to_string().starts_with("m:1:5: expected a size"), "{e}");
        let e = parse_macro("m", "x 1 2\n0.5\na", &mut h).unwrap_err();
        assert!(e.to_string().contains("unexpected end of file"), "{e}");
        let e = parse_macro("m", "x 1 1\nhalf\na", &mut h).unwrap_err();
        assert!(
            e.to_string().starts_with("m:2:1: expected a probability"),
            "{e}"
        );
    }
}
