//! The Marahel adapter: the input is a Marahel JSON script; map `seed` is
//! `Script::generate(seed)`.
//!
//! Empty tiles default to the open-space names `empty` and `floor` plus the things that stand
//! on open space: `player`, `enemy`, `treasure`, `exit`, `gold`, `coin`, `key` (those the
//! script defines). That contains the set of `shared/specs/marahel.md` §14.1 (`empty`, or
//! `empty|player|enemy|treasure|exit` for the roguelike), so the paper scripts are measured as
//! in the reference figures, and it fits the project's own `examples/marahel` scripts, which
//! call open space `floor`.
//!
//! Extras: `unknown_tiles` (cells no explorer wrote) and `warnings` (steps the engine had to
//! skip, such as a region the map was too small for).

use super::{AnalyzeError, Probe, Row, SampleError, Subject, label_of, read_input};
use marahel::{MarahelMap, Script};
use std::path::Path;

/// A parsed Marahel script.
#[derive(Debug)]
pub struct MarahelSubject {
    label: String,
    script: Script,
}

impl MarahelSubject {
    /// Reads and parses the script at `path`.
    pub fn open(path: &Path) -> Result<Self, AnalyzeError> {
        let text = read_input(path)?;
        let script = Script::parse(&text).map_err(|e| AnalyzeError::input(path, e))?;
        Ok(Self {
            label: label_of(path),
            script,
        })
    }

    /// A subject from an already parsed script.
    pub fn new(label: impl Into<String>, script: Script) -> Self {
        Self {
            label: label.into(),
            script,
        }
    }
}

/// Number of `unknown` cells of a map.
fn unknown_tiles(map: &MarahelMap) -> usize {
    map.count("unknown")
}

impl Subject for MarahelSubject {
    fn label(&self) -> &str {
        &self.label
    }

    fn default_empty(&self) -> &'static [&'static str] {
        &[
            "empty", "floor", "player", "enemy", "treasure", "exit", "gold", "coin", "key",
        ]
    }

    fn extra_names(&self) -> &'static [&'static str] {
        &["unknown_tiles", "warnings"]
    }

    fn sample(&self, seed: u64, probe: &mut Probe) -> Result<Row, SampleError> {
        let (map, secs) = probe.generate(|| self.script.generate(seed))?;
        let metrics = probe.measure(&map)?;
        let extras = [unknown_tiles(&map) as f64, map.warnings.len() as f64];
        Ok(probe.row(seed, metrics, &extras, secs))
    }
}
