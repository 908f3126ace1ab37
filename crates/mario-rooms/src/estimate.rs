//! A level's difficulty estimated from what it demands, on the scale of the difficulty
//! setting (1 to 5), so a level can be compared with what was asked.
//!
//! The demand, per 100 columns ([`demand`]):
//!
//! - **jumps**: every pit (a run of columns with nothing to stand on,
//!   [`crate::measure::standing`]) counts its width over 3, so a 6-wide pit counts 2;
//! - **hazards on the route**: enemies 1 each (winged ones and spikies 1.5: they cannot be
//!   stomped simply), piranha plants and bullet-bill cannons 1 each;
//! - **enemies per jump**: an enemy or plant within 3 columns of a pit adds 1 more;
//! - **recovery room**: the share of columns with no pit, enemy, plant or cannon within 3
//!   columns; each 10 % of columns *without* that room adds 1.
//!
//! [`estimate`] maps the demand linearly onto 1..5 ([`CALIBRATION`]): the mean demand of
//! the embedded overground theme's levels at difficulty 1 maps to 1, at difficulty 5 to 5
//! (40 seeds each, `cargo run --release -p mario-rooms --example shape`). It is calibrated
//! on the generator's own settings, not on players: a measure to compare levels and
//! settings with, not a promise about an agent's win rate.

use crate::level::MarioLevel;
use crate::measure;
use crate::tiles::{TileClass, class_of};

/// Demand at difficulty 1 and at 5 (see the module docs).
pub const CALIBRATION: (f32, f32) = (1.99, 22.81);

/// Columns around a pit or hazard that count as near it.
const NEAR: usize = 3;

/// The demand of `level` per 100 columns (module docs).
pub fn demand(level: &MarioLevel) -> f32 {
    let (w, h) = (level.width(), level.height());
    let open: Vec<bool> = (0..w)
        .map(|x| (0..h).all(|y| !measure::standing(level, x, y)))
        .collect();
    let mut hazard = vec![0f32; w];
    for (x, hz) in hazard.iter_mut().enumerate() {
        for y in 0..h {
            let c = level.get(x, y);
            *hz += match c {
                b'G' | b'K' | b'R' | b'Y' | b'y' => 1.5,
                _ if class_of(c) == TileClass::Enemy => 1.0,
                // A plant or a cannon counts once, at its top cell.
                b'T' | b'B' if y == 0 || level.get(x, y - 1) != c => {
                    if c == b'T' && x > 0 && level.get(x - 1, y) == b'T' {
                        0.0
                    } else {
                        1.0
                    }
                }
                _ => 0.0,
            };
        }
    }
    let near = |x: usize, v: &dyn Fn(usize) -> bool| {
        (x.saturating_sub(NEAR)..(x + NEAR + 1).min(w)).any(v)
    };
    let mut score = 0.0;
    let mut run = 0;
    for &o in open.iter().chain([&false]) {
        if o {
            run += 1;
        } else if run > 0 {
            score += run as f32 / 3.0;
            run = 0;
        }
    }
    let mut calm = 0;
    for x in 0..w {
        score += hazard[x];
        if hazard[x] > 0.0 && near(x, &|c| open[c]) {
            score += 1.0;
        }
        calm += usize::from(!near(x, &|c| open[c] || hazard[c] > 0.0));
    }
    let per_100 = score * 100.0 / w.max(1) as f32;
    let cramped = 1.0 - calm as f32 / w.max(1) as f32;
    per_100 + cramped * 10.0
}

/// The estimated difficulty of `level`: [`demand`] mapped by [`CALIBRATION`], clamped to
/// 0..=6 (an easy level can be under 1, a hard one over 5).
pub fn estimate(level: &MarioLevel) -> f32 {
    let (a, b) = CALIBRATION;
    (1.0 + 4.0 * (demand(level) - a) / (b - a)).clamp(0.0, 6.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rows: &[&str]) -> MarioLevel {
        MarioLevel::parse("t", &rows.join("\n")).unwrap()
    }

    #[test]
    fn pits_and_enemies_raise_the_demand() {
        let flat = level(&["M-------------------F", "XXXXXXXXXXXXXXXXXXXXX"]);
        assert_eq!(demand(&flat), 0.0);
        let pit = level(&["M-------------------F", "XXXXXXXX---XXXXXXXXXX"]);
        let guarded = level(&["M-----------g-------F", "XXXXXXXX---XXXXXXXXXX"]);
        let (p, g) = (demand(&pit), demand(&guarded));
        assert!(p > 0.0 && g > p, "{p} {g}");
        // One 3-wide pit in 21 columns: 1 per 21 columns, and 9 of 21 columns near it.
        let want = 100.0 / 21.0 + 10.0 * 9.0 / 21.0;
        assert!((p - want).abs() < 1e-4, "{p} {want}");
    }
}
