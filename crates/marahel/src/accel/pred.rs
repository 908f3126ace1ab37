//! Integer forms of a comparison: `v op t` over the integers `v` of a range, as one range
//! of `v` (or its complement), for the strategies that test counts without floats.

use crate::rule::Op;

/// An integer form of `count op threshold` for a neighbourhood count (a `u32`): exact, since
/// a `u32` converts to `f64` without rounding.
#[derive(Clone, Copy, Debug)]
pub enum Pred {
    /// Holds for every count, or for none.
    Always(bool),
    /// Holds when `lo <= count <= hi`, or (with `negate`) when it does not.
    Range {
        /// Smallest count in the range.
        lo: u32,
        /// Largest count in the range.
        hi: u32,
        /// Holds outside the range instead.
        negate: bool,
    },
}

/// The integers `v` in `0..=max` for which `v op t` holds (`max` at most 2^53, so every such
/// `v` converts to `f64` exactly): `Ok((lo, hi, negate))` for `lo <= v <= hi` (or, with
/// `negate`, outside it), `Err(b)` when it holds for every `v` (`b`) or for none.
pub fn integer_range(op: Op, t: f64, max: f64) -> Result<(u64, u64, bool), bool> {
    if t.is_nan() {
        return Err(op == Op::Ne);
    }
    let range = |lo: f64, hi: f64| {
        let (lo, hi) = (lo.max(0.0), hi.min(max));
        if lo > hi {
            Err(false)
        } else {
            Ok((lo as u64, hi as u64, false))
        }
    };
    match op {
        Op::Gt => range(t.floor() + 1.0, max),
        Op::Ge => range(t.ceil(), max),
        Op::Lt => range(0.0, t.ceil() - 1.0),
        Op::Le => range(0.0, t.floor()),
        Op::Eq | Op::Ne => {
            let eq = if t.fract() == 0.0 {
                range(t, t)
            } else {
                Err(false)
            };
            match (op, eq) {
                (Op::Eq, p) => p,
                (_, Err(b)) => Err(!b),
                (_, Ok((lo, hi, _))) => Ok((lo, hi, true)),
            }
        }
    }
}

impl Pred {
    /// `count op t`.
    pub fn new(op: Op, t: f64) -> Pred {
        match integer_range(op, t, u32::MAX as f64) {
            Err(b) => Pred::Always(b),
            Ok((lo, hi, negate)) => Pred::Range {
                lo: lo as u32,
                hi: hi as u32,
                negate,
            },
        }
    }

    /// Whether `count op t` holds for `count`.
    #[inline]
    pub fn holds(self, count: u32) -> bool {
        match self {
            Pred::Always(b) => b,
            Pred::Range { lo, hi, negate } => (lo..=hi).contains(&count) != negate,
        }
    }
}
