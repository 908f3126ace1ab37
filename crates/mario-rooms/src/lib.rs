//! levelgen generator crate `mario-rooms` (skeleton: see its issue).
