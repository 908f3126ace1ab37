//! Long levels are checked window by window, so the check's time is linear in the length;
//! the same walk repairs a dressed level where it fails ([`check_repairing`]).
//!
//! A level wider than [`WHOLE`] columns is searched in windows: each starts at a standing
//! tile the previous window reached, keeps [`BACK`] columns behind it and looks for a
//! standing tile [`STEP`] columns further on; the last window looks for the exit. Inside
//! a window the search is the whole-level search; a window's cut edges become solid walls,
//! so an arc that would leave the window is discarded. The path found is therefore a real
//! path through the level (conservative, as the whole search is), found in time linear in
//! the level's length; what it gives up is only paths that go back further than [`BACK`]
//! columns, or that pass a window's target column in a way no standing tile past it is
//! reached from.

use super::arcs::reach;
use super::{PlayReport, search};
use crate::level::MarioLevel;
use crate::tiles::{self, TileClass};

/// Levels at most this wide are searched whole.
pub const WHOLE: usize = 512;
/// Columns between a window's start tile and its target column.
pub const STEP: usize = 256;
/// Columns kept behind a window's start tile (how far back Mario may go).
pub const BACK: usize = 24;

/// Checks `level` (window by window when it is wider than [`WHOLE`]), recording the standing
/// tiles reached in level coordinates when `record` is given.
pub(super) fn check(level: &MarioLevel, record: Option<&mut Vec<(usize, usize)>>) -> PlayReport {
    if level.width() <= WHOLE {
        return search(level, level.spawn(), level.exit_tile(), true, record).0;
    }
    run(&mut level.clone(), None, record)
}

/// Checks `level`, and where a window fails, repairs it from `original` (the level before
/// the dressing stage) around the column Mario got stuck at and tries that window again:
/// first only the enemies and piranha plants the dressing added within 16 columns either
/// side are taken out (its gaps, plateaus and pipes stay), then all columns within 16
/// either side are restored, then 48, then the whole window; last, every enemy within 16
/// columns is taken out (the rooms' own: a walker trapped with Mario under a low ceiling).
/// The time stays linear: each window is searched at most six times.
pub fn check_repairing(level: &mut MarioLevel, original: &MarioLevel) -> PlayReport {
    run(level, Some(original), None)
}

/// What a repair changes in its columns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Repair {
    /// Takes out the enemies and piranha plants `original` has not.
    AddedEnemies,
    /// Copies the columns of `original`.
    Columns,
    /// Takes out every enemy sprite.
    AllEnemies,
}

/// Repairs in order: (columns either side of where Mario got stuck, what changes).
const REPAIRS: [(usize, Repair); 5] = [
    (16, Repair::AddedEnemies),
    (16, Repair::Columns),
    (48, Repair::Columns),
    (usize::MAX, Repair::Columns),
    (16, Repair::AllEnemies),
];

fn run(
    level: &mut MarioLevel,
    original: Option<&MarioLevel>,
    mut record: Option<&mut Vec<(usize, usize)>>,
) -> PlayReport {
    let (start, exit, w) = (level.spawn(), level.exit_tile(), level.width());
    let (Some(mut at), Some((fx, fy))) = (start, exit) else {
        return search(level, start, exit, true, record).0;
    };
    let mut total = PlayReport {
        playable: false,
        start,
        exit,
        furthest: at.0,
        visited: 0,
        jumps: 0,
        longest_jump: 0,
    };
    let margin = reach() as usize + 4;
    let mut first = true;
    // Every window but the last moves `at` right by at least STEP columns.
    for _ in 0..=w / STEP + 1 {
        let x0 = if first { 0 } else { at.0.saturating_sub(BACK) };
        first = false;
        let target = at.0 + STEP;
        let last = w <= WHOLE || target >= fx || target + margin >= w;
        let (x1, goal) = if last {
            (w, (fx, fy))
        } else {
            (target + margin, (target, 0))
        };
        let mut repairs = REPAIRS.iter();
        let (r, tile) = loop {
            let mut part = record.as_ref().map(|_| Vec::new());
            let found = if x0 == 0 && x1 == w {
                search(level, Some(at), Some(goal), last, part.as_mut())
            } else {
                let window = slice(level, x0, x1, x0 > 0, !last);
                let local = search(
                    &window,
                    Some((at.0 - x0, at.1)),
                    Some((goal.0 - x0, goal.1)),
                    last,
                    part.as_mut(),
                );
                (local.0, local.1.map(|(x, y)| (x + x0, y)))
            };
            if let (Some(all), Some(part)) = (record.as_deref_mut(), part) {
                all.extend(part.into_iter().map(|(x, y)| (x + x0, y)));
            }
            let (r, _) = &found;
            total.visited += r.visited;
            if r.playable {
                break found;
            }
            let Some(orig) = original else { break found };
            let stuck = x0 + r.furthest;
            let restored = repairs.by_ref().any(|&(radius, repair)| {
                let a = stuck.saturating_sub(radius).max(x0);
                let b = stuck.saturating_add(radius).min(x1);
                restore(level, orig, a, b, repair)
            });
            if !restored {
                break found;
            }
        };
        total.jumps += r.jumps;
        total.longest_jump = total.longest_jump.max(r.longest_jump);
        total.furthest = total.furthest.max(x0 + r.furthest);
        if !r.playable || last {
            total.playable = r.playable;
            return total;
        }
        let Some(tile) = tile else {
            return total;
        };
        at = tile;
    }
    total
}

/// Repairs columns `a..b` of `level` from `original` as `repair` says; whether anything
/// changed.
fn restore(
    level: &mut MarioLevel,
    original: &MarioLevel,
    a: usize,
    b: usize,
    repair: Repair,
) -> bool {
    let w = level.width();
    if original.width() != w || original.height() != level.height() || a >= b {
        return false;
    }
    let cells = level.cells_mut();
    let mut changed = false;
    let enemy = |c: u8| tiles::class_of(c) == TileClass::Enemy;
    for (row, orig) in cells.chunks_mut(w).zip(original.cells().chunks(w)) {
        for (c, &o) in row[a..b].iter_mut().zip(&orig[a..b]) {
            let new = match repair {
                Repair::AddedEnemies if *c == b'T' || enemy(*c) => o,
                Repair::Columns => o,
                Repair::AllEnemies if enemy(*c) => b'-',
                _ => *c,
            };
            changed |= new != *c;
            *c = new;
        }
    }
    changed
}

/// Columns `x0..x1` of `level` as a level of their own; a cut edge (`wall_left`,
/// `wall_right`) becomes a column of ground, which nothing passes.
fn slice(
    level: &MarioLevel,
    x0: usize,
    x1: usize,
    wall_left: bool,
    wall_right: bool,
) -> MarioLevel {
    let (w, h) = (x1 - x0, level.height());
    let mut cells = Vec::with_capacity(w * h);
    for y in 0..h {
        cells.extend_from_slice(&level.row(y)[x0..x1]);
        if wall_left {
            cells[y * w] = b'X';
        }
        if wall_right {
            cells[y * w + w - 1] = b'X';
        }
    }
    MarioLevel::from_cells(w, h, cells).expect("a slice of a valid level is valid")
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    fn long(gap_at: usize, gap: usize) -> MarioLevel {
        let w = 3000;
        let mut ground = vec![b'X'; w];
        for c in &mut ground[gap_at..gap_at + gap] {
            *c = b'-';
        }
        let mut top = vec![b'-'; w];
        top[2] = b'M';
        top[w - 2] = b'F';
        let air = vec![b'-'; w];
        let mut cells = Vec::new();
        for row in [&air, &air, &air, &air, &top] {
            cells.extend_from_slice(row);
        }
        cells.extend_from_slice(&ground);
        MarioLevel::from_cells(w, 6, cells).unwrap()
    }

    #[test]
    fn long_levels_pass_and_fail_like_short_ones() {
        // A 3-wide gap anywhere, including on a window's target column, is crossed.
        for at in [100, STEP - 1, STEP + 2, 2 * STEP - 10, 1500, 2990] {
            let r = check(&long(at, 3));
            assert!(r.playable, "gap at {at}: {}", r.summary());
            assert_eq!(r.jumps, 1, "gap at {at}");
        }
        // A 12-wide gap is not, and the report says where Mario stops.
        let r = check(&long(1200, 12));
        assert!(!r.playable);
        assert_eq!(r.furthest, 1199);
        // Repair restores the columns around it from the original.
        let mut cut = long(1200, 12);
        let r = check_repairing(&mut cut, &long(1200, 0));
        assert!(r.playable, "{}", r.summary());
        assert_eq!(cut, long(1200, 0));
        // A row of spikies the dressing added next to a gap it cut: the spikies are taken
        // out, the gap (within the first repair radius) stays.
        let mut spiked = long(1200, 3);
        let mut orig = long(1200, 0);
        let w = spiked.width();
        for x in 1190..1196 {
            spiked.cells_mut()[4 * w + x] = b'y';
            orig.cells_mut()[4 * w + x] = b'-';
        }
        assert!(!check(&spiked).playable);
        assert!(check_repairing(&mut spiked, &orig).playable);
        assert_eq!(spiked, long(1200, 3), "enemies out, the gap kept");
        // Spikies the undressed level has too (a room's) are taken out last.
        let mut spiked = long(1200, 0);
        let w = spiked.width();
        spiked.cells_mut()[4 * w + 1300..4 * w + 1306].fill(b'y');
        let room = spiked.clone();
        assert!(!check(&spiked).playable);
        assert!(check_repairing(&mut spiked, &room).playable);
        assert_eq!(spiked, long(1200, 0));
        // A short level is repaired as one window; nothing to restore fails as before.
        let short = |gap: usize| {
            let top = format!("M{}F", "-".repeat(38));
            let ground = format!(
                "{}{}{}",
                "X".repeat(15),
                "-".repeat(gap),
                "X".repeat(25 - gap)
            );
            MarioLevel::parse("s", &format!("{}\n{top}\n{ground}", "-".repeat(40))).unwrap()
        };
        let mut s = short(12);
        assert!(check_repairing(&mut s, &short(2)).playable);
        let mut s = short(12);
        assert!(!check_repairing(&mut s, &short(12)).playable);
        let (r, tiles) = crate::playability::explore(&long(700, 3));
        assert!(r.playable);
        assert!(
            tiles.iter().any(|&(x, _)| x > 2900),
            "tiles in level coordinates"
        );
    }
}
