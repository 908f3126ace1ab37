//! Difficulty: what a difficulty from 1 (easiest) to 5 (hardest) asks of a level, and the
//! dressing stage that gives an assembled level those features before it is checked.
//!
//! A difficulty `d` (fractions allowed; a level ramps from `A` to `B` left to right) sets a
//! [`Profile`]: linear in `d`, so every feature rises with it. The rooms are chosen towards
//! the room difficulty [`room_target`]`(d)`; then, in windows of [`WINDOW`] columns, the
//! dressing
//!
//! 1. cuts **gaps** into plain flat ground (ground below, four rows of air or coins above),
//!    as wide as the profile says and at most [`widest_gap`] (the widest pit the
//!    playability checker proves passable from a [`RUNWAY`]-column run-up, which cuts of
//!    six or more keep in front of them; narrower ones keep a shorter run-up);
//! 2. raises **plateaus** (height changes) and sets **pipes**, some with piranha plants;
//! 3. sets the **enemies** per 100 columns: adds enemies standing on ground, blocks or
//!    plateaus (never in the air, never on a gap's run-up), or removes room enemies when a
//!    window has more than asked; the kinds move from goombas towards shells, flying
//!    enemies and spikies as `d` rises.
//!
//! Piranha plants within [`PIRANHA_CLEARANCE`] columns of a pit or [`ENEMY_CLEARANCE`] of
//! an enemy are taken out again (the pipe stays); no enemy is added within
//! [`LANDING_CLEARANCE`] columns after a pit [`LANDING_PIT`] or more wide, within
//! [`CANNON_CLEARANCE`] of a bullet-bill cannon, nor in the [`START_ZONE`] after Mario's
//! start (which loses the rooms' own enemies too). The assembled level is then checked for
//! playability; where the dressing
//! made it impassable, the checker first takes out the enemies and plants it added near
//! the spot, then restores the undressed columns around it
//! (`playability::check_repairing`); the enemies a repair took out are put back elsewhere
//! in their window, away from the repaired columns, if the level still passes.

use std::sync::OnceLock;

/// The easiest difficulty.
pub const MIN: f32 = 1.0;
/// The hardest difficulty.
pub const MAX: f32 = 5.0;
/// Columns per dressing window: each window's counts follow the difficulty at its centre.
pub const WINDOW: usize = 50;
/// Flat columns kept in front of a cut gap (the run-up the widest gap needs).
pub const RUNWAY: usize = 8;

/// Columns either side of an added enemy that must hold no pit and no piranha plant.
pub const ENEMY_CLEARANCE: usize = 2;
/// Columns left of an added enemy that must hold no pit [`LANDING_PIT`] columns wide or
/// wider: it walks left, towards Mario, from when he comes near the pit (its swept zone,
/// [`crate::playability::SWEEP`], is what it covers while he walks; a long jump gives it
/// longer), and must not meet him on the landing.
pub const LANDING_CLEARANCE: usize = 8;
/// A cut gap at least this wide keeps 4 plain columns after it: nothing low overhead on the
/// landing of a long jump to bump into.
pub const WIDE_PIT: usize = 5;
/// No enemy is added within [`LANDING_CLEARANCE`] columns after a pit at least this
/// wide (a jump Mario cannot make from a standstill step).
pub const LANDING_PIT: usize = 4;
/// Columns either side of a piranha pipe that must hold no pit.
pub const PIRANHA_CLEARANCE: usize = 6;
/// Columns after Mario's start that hold no enemy (the rooms' own are taken out too): a
/// walker or spiky there meets Mario before he has room to jump it.
pub const START_ZONE: usize = 12;
/// Columns either side of a bullet-bill cannon (`*`, `B`, `b`) where no enemy is added:
/// a walker beside a cannon pins Mario in the bullets' path.
pub const CANNON_CLEARANCE: usize = 4;

/// Features asked of a level at one difficulty (rates per 100 columns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Enemies (sprites: goombas, koopas, spikies, winged ones) per 100 columns.
    pub enemies: f32,
    /// Gaps cut into flat ground per 100 columns (on top of the rooms' own pits).
    pub gaps: f32,
    /// Narrowest and widest cut gap, in columns.
    pub gap_width: (usize, usize),
    /// Plateaus (raised ground) per 100 columns.
    pub plateaus: f32,
    /// Highest plateau, in tiles.
    pub plateau_height: usize,
    /// Pipes set on flat ground per 100 columns.
    pub pipes: f32,
    /// Share of pipes (set or from rooms) given a piranha plant.
    pub piranha: f32,
    /// Weights of the enemy kinds `g k r G K y R`, in that order.
    pub kinds: [f32; 7],
    /// Set pieces ([`crate::setpiece`]) per 100 columns.
    pub pieces: f32,
    /// The highest set piece rating (1 = one challenge alone, 2 = two combined, ...).
    pub piece_rating: usize,
    /// Whether the difficulty is taught ([`crate::teach::teaching`]): added enemies then
    /// walk alone, as [`crate::teach`] leaves the rooms' own.
    pub teaching: bool,
}

/// The enemy chars [`Profile::kinds`] weighs, in order.
pub const KINDS: [u8; 7] = *b"gkrGKyR";

impl Profile {
    /// The profile at difficulty `d` (clamped to [`MIN`]..=[`MAX`]).
    pub fn at(d: f32) -> Self {
        let d = d.clamp(MIN, MAX);
        let s = d - 1.0; // 0 ..= 4
        let widest = widest_gap();
        let lerp = |a: f32, b: f32| a + (b - a) * s / 4.0;
        let square = |a: f32, b: f32| a + (b - a) * (s / 4.0) * (s / 4.0);
        Self {
            enemies: 1.5 + 2.6 * s,
            gaps: 0.8 * s,
            // Widths grow with the square of the difficulty: narrow until the top, where
            // they reach the widest the checker passes.
            gap_width: (
                square(1.0, 3.0).round() as usize,
                square(2.0, widest as f32).round() as usize,
            ),
            plateaus: 0.5 + 0.5 * s,
            plateau_height: lerp(1.0, 3.0).round() as usize,
            pipes: 0.25 * s,
            piranha: (s - 1.0).max(0.0) / 3.0,
            kinds: [
                1.0,
                0.25 * s,
                0.2 * (s - 1.0).max(0.0),
                0.2 * (s - 0.5).max(0.0),
                0.2 * (s - 2.0).max(0.0),
                0.2 * (s - 2.0).max(0.0),
                0.15 * (s - 3.0).max(0.0),
            ],
            // Difficulty 1 teaches: few pieces, each one challenge alone (rating 1).
            pieces: 2.5 + 1.6 * s,
            piece_rating: (1.0 + s).round() as usize,
            teaching: crate::teach::teaching(d),
        }
    }
}

/// The room difficulty rooms are chosen towards at difficulty `d`: 1 at `d = 1`, 4 at 5
/// (the embedded rooms are rated 1 to 4).
pub fn room_target(d: f32) -> f32 {
    1.0 + 0.75 * (d.clamp(MIN, MAX) - 1.0)
}

/// Checks a difficulty ramp `(a, b)`: both finite and in [`MIN`]..=[`MAX`].
pub fn validate((a, b): (f32, f32)) -> Result<(), String> {
    for v in [a, b] {
        if !(MIN..=MAX).contains(&v) {
            return Err(format!(
                "difficulty {v} is not between {MIN} (easiest) and {MAX} (hardest)"
            ));
        }
    }
    Ok(())
}

/// The widest gap the playability checker proves passable on flat ground after a
/// [`RUNWAY`]-column run-up (computed once with the checker itself).
pub fn widest_gap() -> usize {
    static WIDEST: OnceLock<usize> = OnceLock::new();
    *WIDEST.get_or_init(|| {
        (1..16)
            .take_while(|&w| {
                let ground = "X".repeat(RUNWAY) + &"-".repeat(w) + &"X".repeat(RUNWAY);
                let top = "M".to_string() + &"-".repeat(ground.len() - 2) + "F";
                let air = "-".repeat(ground.len());
                let text = format!("{air}\n{air}\n{air}\n{air}\n{air}\n{top}\n{ground}");
                crate::level::MarioLevel::parse("gap", &text)
                    .map(|l| crate::playability::check(&l).playable)
                    .unwrap_or(false)
            })
            .last()
            .unwrap_or(1)
    })
}

pub(crate) use crate::dress::Dress;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_rises_with_difficulty() {
        let ps: Vec<Profile> = [1.0, 2.0, 3.0, 4.0, 5.0].map(Profile::at).to_vec();
        for p in ps.windows(2) {
            assert!(p[1].enemies > p[0].enemies && p[1].gaps > p[0].gaps);
            assert!(p[1].gap_width.1 >= p[0].gap_width.1 && p[1].plateaus > p[0].plateaus);
            assert!(p[1].pipes > p[0].pipes && p[1].piranha >= p[0].piranha);
            let share = |p: &Profile| 1.0 - p.kinds[0] / p.kinds.iter().sum::<f32>();
            assert!(share(&p[1]) > share(&p[0]));
        }
        assert!(ps[4].enemies >= 8.0);
        assert_eq!(ps[4].gap_width.1, widest_gap());
        assert_eq!(Profile::at(9.0), ps[4], "clamped");
    }

    #[test]
    fn widest_gap_is_what_the_checker_passes() {
        let w = widest_gap();
        assert!((6..=12).contains(&w), "{w}");
    }

    #[test]
    fn validate_names_the_range() {
        assert!(validate((1.0, 5.0)).is_ok() && validate((2.5, 2.5)).is_ok());
        let e = validate((0.0, 3.0)).unwrap_err();
        assert!(e.contains("between 1 (easiest) and 5 (hardest)"), "{e}");
        assert!(validate((1.0, f32::NAN)).is_err());
    }
}
