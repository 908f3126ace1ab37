//! levelgen generator crate `marahel` (skeleton: see its issue).
