//! levelgen generator crate `heroes-zones` (skeleton: see its issue).
