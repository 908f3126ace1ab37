//! levelgen generator crate `zone-tiles` (skeleton: see its issue).
