//! The `zones` adapter (waiting for its crate's public API).

use super::{AnalyzeError, Subject};
use std::path::Path;

/// Opens `input` for analysis.
pub fn open(input: &Path) -> Result<Box<dyn Subject>, AnalyzeError> {
    let _ = input;
    Err(AnalyzeError::Unsupported(
        "zones".into(),
        "its crate does not expose a generate function yet".into(),
    ))
}
