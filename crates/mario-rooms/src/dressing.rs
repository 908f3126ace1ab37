//! The dressing stage run over an assembled level: the [`difficulty`] features window by
//! window, the playability check with its repairs, and the enemies a repair took out put
//! back elsewhere.

use crate::difficulty;
use crate::level::MarioLevel;
use crate::playability::{self, PlayReport};
use crate::shape;
use crate::tiles;
use crate::vary;
use grid_core::Seed;

/// Shapes `level` ([`shape`]: stretched, taught where easy ([`crate::teach`]), pits
/// narrowed, coins thinned), dresses it for the
/// difficulty `ramp` and, with `check`, checks it: where the
/// dressing made it impassable, the checker repairs it from the undressed level
/// ([`playability::check_repairing`]), and the enemies a repair took out are then put back
/// elsewhere in their window ([`restock`]).
pub(crate) fn dress_and_check(
    level: &mut MarioLevel,
    ramp: (f32, f32),
    seed: Seed,
    check: bool,
) -> (Option<PlayReport>, Vec<(usize, &'static str)>) {
    *level = shape::stretch(level, &mut seed.stream("stretch").rng());
    let mut vary = seed.stream("vary").rng();
    vary::reskin_blocks(level, &mut vary);
    vary::trim_coins(level, &mut vary);
    vary::shift_things(level, &mut vary);
    clear_start(level);
    crate::teach::teach(level, ramp);
    shape::narrow_pits(level, ramp);
    shape::thin_coins(level, &mut seed.stream("coins").rng());
    let undressed = level.clone();
    let pieces = dress(level, ramp, seed.stream("dress"));
    crate::teach::teach_enemies(level, ramp);
    let fill =
        |level: &mut MarioLevel| shape::fill_featureless(level, &mut seed.stream("fill").rng());
    if !check {
        fill(level);
        return (None, pieces);
    }
    let dressed = level.clone();
    let mut r = playability::check_repairing(level, &undressed);
    if r.playable && *level != dressed {
        // The restocked level gets its block groups before its check, so one check proves
        // both (a long level is almost always repaired somewhere: this saves it a check).
        if let Some(restocked) = restock(level, &dressed, ramp, seed.stream("restock"), fill) {
            return (Some(restocked), pieces);
        }
    }
    if r.playable && fill(level) > 0 {
        r = playability::check(level);
    }
    (Some(r), pieces)
}

/// Takes every enemy out of the [`difficulty::START_ZONE`] columns after Mario's start
/// (before the undressed level is kept, so a repair does not put them back).
fn clear_start(level: &mut MarioLevel) {
    let Some((sx, _)) = level.start() else { return };
    let (w, h) = (level.width(), level.height());
    let zone = sx..(sx + difficulty::START_ZONE + 1).min(w);
    let cells = level.cells_mut();
    for (y, x) in (0..h).flat_map(|y| zone.clone().map(move |x| (y, x))) {
        if tiles::class_of(cells[y * w + x]) == tiles::TileClass::Enemy {
            cells[y * w + x] = b'-';
        }
    }
}

/// Dresses `level` window by window with the [`difficulty::Profile`] of the difficulty at
/// the window's centre (`ramp` from the left end to the right end).
/// Returns the set pieces it placed, with their first columns.
fn dress(level: &mut MarioLevel, ramp: (f32, f32), seed: Seed) -> Vec<(usize, &'static str)> {
    let mut rng = seed.rng();
    dress_windows(level, ramp, &[], |d, x0, x1, p| {
        d.window(x0, x1, p, &mut rng)
    })
}

/// Runs `stage` on each dressing window of `level` with its profile; enemies go on standing
/// tiles the checker reaches, never in the columns `keep_clear` marks nor in the
/// [`difficulty::START_ZONE`].
fn dress_windows(
    level: &mut MarioLevel,
    (a, b): (f32, f32),
    keep_clear: &[bool],
    mut stage: impl FnMut(&mut difficulty::Dress, usize, usize, &difficulty::Profile),
) -> Vec<(usize, &'static str)> {
    let (w, h) = (level.width(), level.height());
    let sx = level.start().map_or(0, |s| s.0);
    let fx = level.exit().map_or(w, |f| f.0);
    let span = (sx + 4, fx.saturating_sub(4));
    let mut reached = vec![false; w * h];
    for (x, y) in playability::explore(level).1 {
        reached[y * w + x] = true;
    }
    let mut d = difficulty::Dress::new(w, h, level.cells_mut(), span, reached);
    for (x, _) in keep_clear.iter().enumerate().filter(|c| *c.1) {
        d.keep_clear(x);
    }
    for x in sx..=sx + difficulty::START_ZONE {
        d.keep_clear(x);
    }
    for x0 in (0..w).step_by(difficulty::WINDOW) {
        let x1 = (x0 + difficulty::WINDOW).min(w);
        let at = a + (b - a) * ((x0 + x1) as f32 / 2.0 / w as f32);
        stage(&mut d, x0, x1, &difficulty::Profile::at(at));
    }
    d.calm_piranhas();
    std::mem::take(&mut d.pieces)
}

/// After a repair took enemies out of `level`, puts as many back in each dressing window as
/// the `dressed` level had there, away from the repaired columns (what differs from
/// `dressed`, with [`difficulty::ENEMY_CLEARANCE`] around it), then runs `finish` on the
/// result; keeps it only if it passes the check. Returns the new report when it did.
pub(crate) fn restock(
    level: &mut MarioLevel,
    dressed: &MarioLevel,
    ramp: (f32, f32),
    seed: Seed,
    finish: impl FnOnce(&mut MarioLevel) -> usize,
) -> Option<PlayReport> {
    let (w, h) = (level.width(), level.height());
    let mut repaired = vec![false; w];
    for (i, (a, b)) in level.cells().iter().zip(dressed.cells()).enumerate() {
        if a != b {
            let x = i % w;
            let lo = x.saturating_sub(difficulty::ENEMY_CLEARANCE);
            let hi = (x + difficulty::ENEMY_CLEARANCE + 1).min(w);
            repaired[lo..hi].fill(true);
        }
    }
    if !repaired.contains(&true) {
        return None;
    }
    let enemies_in = |l: &MarioLevel, x0: usize, x1: usize| {
        (0..h)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| tiles::class_of(l.get(x, y)) == tiles::TileClass::Enemy)
            .count()
    };
    let mut restocked = level.clone();
    let mut rng = seed.rng();
    dress_windows(&mut restocked, ramp, &repaired, |d, x0, x1, p| {
        d.top_up(x0, x1, enemies_in(dressed, x0, x1), p, &mut rng)
    });
    finish(&mut restocked);
    let report = playability::check(&restocked);
    report.playable.then(|| {
        *level = restocked;
        report
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(w: usize, enemies: &[usize]) -> MarioLevel {
        let mut top = vec![b'-'; w];
        top[1] = b'M';
        top[w - 2] = b'F';
        for &x in enemies {
            top[x] = b'g';
        }
        let mut cells = vec![b'-'; w * 5];
        cells.extend_from_slice(&top);
        cells.extend(std::iter::repeat_n(b'X', w));
        MarioLevel::from_cells(w, 7, cells).unwrap()
    }

    #[test]
    fn restock_puts_back_what_a_repair_took_out_away_from_it() {
        let enemy = |c: u8| tiles::class_of(c) == tiles::TileClass::Enemy;
        let count = |l: &MarioLevel| l.cells().iter().filter(|&&c| enemy(c)).count();
        let dressed = flat(200, &[20, 30, 40, 120, 130]);
        let mut repaired = flat(200, &[20, 120, 130]);
        let r = restock(&mut repaired, &dressed, (3.0, 3.0), Seed(1), |_| 0).expect("restocked");
        assert!(r.playable);
        assert_eq!(count(&repaired), 5, "{}", repaired.to_text());
        for x in (28..33).chain(38..43) {
            assert!(
                !enemy(repaired.get(x, 5)),
                "column {x} is within 2 of a repair"
            );
        }
        // Nothing repaired: nothing to do.
        let mut same = dressed.clone();
        assert!(restock(&mut same, &dressed, (3.0, 3.0), Seed(1), |_| 0).is_none());
        assert_eq!(same, dressed);
    }

    #[test]
    fn the_start_zone_holds_no_enemy() {
        let enemy = |c: u8| tiles::class_of(c) == tiles::TileClass::Enemy;
        // The rooms' own enemies by the start (columns 5 and 13) go; the one at 14 stays.
        let mut level = flat(200, &[5, 13, 14]);
        clear_start(&mut level);
        let left: Vec<usize> = (0..200).filter(|&x| enemy(level.get(x, 5))).collect();
        assert_eq!(left, [14]);
        // Dressed (and stretched), the zone after the start still holds none.
        let mut level = flat(200, &[5, 13, 14]);
        let r = dress_and_check(&mut level, (5.0, 5.0), Seed(2), true)
            .0
            .expect("checked");
        assert!(r.playable);
        let sx = level.start().expect("start").0;
        let zone = sx..=sx + difficulty::START_ZONE;
        assert!(
            zone.clone()
                .all(|x| (0..7).all(|y| !enemy(level.get(x, y))))
        );
        assert!(
            (15..level.width()).any(|x| enemy(level.get(x, 5))),
            "{}",
            level.to_text()
        );
    }
}
