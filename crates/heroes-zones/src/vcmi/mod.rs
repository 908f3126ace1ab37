//! VCMI random-map templates (the open-source Heroes III engine's format, in which the
//! community's templates such as Jebus Cross are written), read and converted onto this
//! crate's [`crate::Template`]. One stage per module: [`parse`] (the file as written: comments,
//! trailing commas, several templates per file) and [`mod@convert`] (the model, with warnings for
//! what a `.hmm` map cannot hold).
//!
//! ```
//! use heroes_zones::vcmi;
//! let text = r#"{ "Duel": { "minSize": "m", "maxSize": "xl", "players": "2",
//!   "zones": { "1": { "type": "playerStart", "owner": 1, "size": 10 },
//!              "2": { "type": "playerStart", "owner": 2, "size": 10 } },
//!   "connections": [ { "a": "1", "b": "2", "guard": 6000 } ] } }"#;
//! let loaded = vcmi::load(text, None, &vcmi::Options::default()).unwrap();
//! assert_eq!(loaded.template.zones.len(), 2);
//! assert_eq!(loaded.side, 128);
//! ```

pub mod convert;
mod names;
pub mod parse;
pub mod size;

pub use convert::{Converted, Options, convert};
pub use parse::{VcmiTemplate, is_vcmi, parse_file};

use crate::error::HeroesError;
use grid_core::text::excerpt;
use std::collections::BTreeMap;

/// Reads a VCMI template file and converts the template called `name` (which may be left
/// out when the file holds exactly one).
pub fn load(text: &str, name: Option<&str>, opts: &Options) -> Result<Converted, HeroesError> {
    let all = parse_file(text)?;
    let chosen = match name {
        Some(n) => all.iter().find(|t| t.id == n).ok_or_else(|| {
            HeroesError::invalid(
                "--template",
                format!(
                    "no template {} in the file; it has {}",
                    excerpt(n),
                    names(&all)
                ),
            )
        })?,
        None => match all.as_slice() {
            [one] => one,
            [] => {
                return Err(HeroesError::invalid(
                    "VCMI template",
                    "the file holds no template",
                ));
            }
            _ => {
                return Err(HeroesError::invalid(
                    "--template",
                    format!(
                        "the file holds {} templates, choose one: {}",
                        all.len(),
                        names(&all)
                    ),
                ));
            }
        },
    };
    convert(chosen, opts)
}

/// The template names of a file, quoted and listed (at most 20).
fn names(all: &[VcmiTemplate]) -> String {
    let quoted: Vec<String> = all.iter().map(|t| excerpt(&t.id)).collect();
    crate::error::join_some(&quoted, ", ")
}

/// Warnings grouped by message: one line per message, naming the first field and how many
/// more have it.
#[derive(Default)]
pub(crate) struct Warnings(BTreeMap<String, Vec<String>>);

impl Warnings {
    pub(crate) fn add(&mut self, at: impl Into<String>, message: &str) {
        self.0
            .entry(message.to_string())
            .or_default()
            .push(at.into());
    }

    pub(crate) fn lines(self) -> Vec<String> {
        self.0
            .into_iter()
            .map(|(message, at)| match at.len() {
                1 => format!("{}: {message}", at[0]),
                n => format!("{} (and {} more): {message}", at[0], n - 1),
            })
            .collect()
    }
}
