//! Monster strength: how a guard value becomes a creature stack, after VCMI's random map
//! generator. A value `v` at strength index `i` (0 weakest .. 4 strongest; a connection guard
//! uses 2, a zone's treasure guard 1 for `WEAK`, 2 for `NORMAL`, 3 for `STRONG`) gives the
//! guard strength `max(0, (v - a[i]) m1[i]) + max(0, (v - b[i]) m2[i])`; below
//! [`MIN_GUARD_STRENGTH`] there is no guard. The stack is the highest creature level whose
//! typical unit is worth at most an eighth of the strength, with as many units as make up
//! the strength (±25%, at most [`MAX_STACK`]).

use crate::template::MonsterStrength;
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Weaker strengths are not guarded at all.
pub const MIN_GUARD_STRENGTH: u32 = 2000;
/// Largest creature count of one guard.
pub const MAX_STACK: u32 = 10_000;
/// Strength index of connection guards (the map's normal strength).
pub const CONNECTION: usize = 2;

const A: [f64; 5] = [2500.0, 1500.0, 1000.0, 500.0, 0.0];
const B: [f64; 5] = [7500.0, 7500.0, 7500.0, 5000.0, 5000.0];
const M1: [f64; 5] = [0.5, 0.75, 1.0, 1.5, 1.5];
const M2: [f64; 5] = [0.5, 0.75, 1.0, 1.0, 1.5];
/// Smallest treasure pile value that gets a guard, per strength index.
const MIN_GUARDED_VALUE: [u32; 5] = [6500, 4167, 3000, 1833, 1333];
/// Typical worth of one creature of each level 0..6 (HoMM3-like AI values).
pub const UNIT_VALUE: [u32; 7] = [80, 200, 400, 750, 1250, 2100, 4500];

/// The strength index of a zone's treasure and mine guards (`None` for unguarded zones).
pub fn zone_index(m: MonsterStrength) -> Option<usize> {
    match m {
        MonsterStrength::None => None,
        MonsterStrength::Weak => Some(1),
        MonsterStrength::Normal => Some(2),
        MonsterStrength::Strong => Some(3),
    }
}

/// The guard strength of value `v` at strength index `i` (clamped to 0..=4).
pub fn strength(v: u32, i: usize) -> u32 {
    let i = i.min(4);
    let v = v as f64;
    let s = ((v - A[i]) * M1[i]).max(0.0) + ((v - B[i]) * M2[i]).max(0.0);
    s.min(u32::MAX as f64) as u32
}

/// Whether a treasure pile of `value` is guarded at strength index `i`.
pub fn pile_guarded(value: u32, i: usize) -> bool {
    value > MIN_GUARDED_VALUE[i.min(4)]
}

/// The creature level and count of a guard of strength `s`, or `None` below
/// [`MIN_GUARD_STRENGTH`].
pub fn stack(s: u32, rng: &mut LevelRng) -> Option<(u8, u32)> {
    if s < MIN_GUARD_STRENGTH {
        return None;
    }
    let level = (0..UNIT_VALUE.len())
        .rev()
        .find(|&l| UNIT_VALUE[l] * 8 <= s)
        .unwrap_or(0);
    let base = s as f64 / UNIT_VALUE[level] as f64;
    let count = (base * rng.random_range(0.75..=1.25)).round();
    Some((level as u8, (count as u32).clamp(1, MAX_STACK)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    #[test]
    fn vcmi_formula_values() {
        // 45000 at normal: (45000 - 1000) + (45000 - 7500) = 81500.
        assert_eq!(strength(45000, CONNECTION), 81_500);
        // Weak zones guard less: (v - 1500) * .75 + (v - 7500) * .75.
        assert_eq!(strength(10_000, 1), 8_250);
        assert_eq!(strength(1000, 2), 0);
        assert!(strength(10_000, 3) > strength(10_000, 2));
    }

    #[test]
    fn stacks_grow_with_strength() {
        let mut rng = Seed(1).rng();
        assert_eq!(stack(1999, &mut rng), None);
        let (l1, _) = stack(2500, &mut rng).unwrap();
        let (l2, c2) = stack(81_500, &mut rng).unwrap();
        assert!(l2 > l1, "{l1} {l2}");
        assert_eq!(l2, 6);
        assert!((13..=23).contains(&c2), "{c2}");
        assert_eq!(stack(u32::MAX, &mut rng).unwrap().1, MAX_STACK);
        assert!(pile_guarded(4000, 3) && !pile_guarded(4000, 1));
    }
}
