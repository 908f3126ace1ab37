//! Shaping: what keeps an assembled level on SMB's scale whatever rooms it drew, run
//! before the dressing ([`narrow_pits`], [`thin_coins`]) and after the check
//! ([`fill_featureless`]).
//!
//! - **Pits** no wider than [`pit_cap`] of the difficulty at the pit: 4 columns at
//!   difficulty 1 (SMB 1-1's widest is 3, its five first levels' 5), rising to the widest
//!   gap the checker passes at 5. A wider pit gets a two-column stepping stone, level with
//!   the lower of its edges, in the middle (again until every part fits).
//! - **Coins** (coin tiles and coin blocks, [`crate::Features::coins`]) at most
//!   [`COIN_RATE`] per 100 columns in every [`crate::difficulty::WINDOW`]: whole rows of
//!   coins go, at random, then coin blocks become bricks.
//! - **Featureless runs** (only air and flat ground within Mario's reach,
//!   [`crate::measure::featureless`]) at most [`FEATURELESS`] columns: a longer run gets
//!   block groups 4 tiles over it, as SMB puts its blocks.

use crate::difficulty;
use crate::level::MarioLevel;
use crate::measure::{self, REACH};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Most coins per 100 columns of any dressing window: under twice SMB's mean of 9.5 (coin
/// tiles and coin blocks of the framework's first five original levels, `tests/shape.rs`).
pub const COIN_RATE: f32 = 16.0;
/// Longest featureless run kept (SMB's first five levels have none over 16).
pub const FEATURELESS: usize = 16;

/// The widest pit allowed at difficulty `d`: 4 at 1, the widest the checker passes
/// ([`difficulty::widest_gap`]) at 5, linear in between.
pub fn pit_cap(d: f32) -> usize {
    let widest = difficulty::widest_gap().max(4) as f32;
    let s = (d.clamp(difficulty::MIN, difficulty::MAX) - 1.0) / 4.0;
    (4.0 + (widest - 4.0) * s).floor() as usize
}

/// The difficulty of a ramp `(a, b)` at column `x` of a level `w` wide.
pub fn at(ramp: (f32, f32), x: usize, w: usize) -> f32 {
    ramp.0 + (ramp.1 - ramp.0) * x as f32 / w.max(1) as f32
}

/// Whether no tile of column `x` can be stood on ([`measure::standing`]).
fn open(level: &MarioLevel, x: usize) -> bool {
    (0..level.height()).all(|y| !measure::standing(level, x, y))
}

/// The lowest standing row of column `x`, if any.
fn lowest_standing(level: &MarioLevel, x: usize) -> Option<usize> {
    (0..level.height())
        .rev()
        .find(|&y| measure::standing(level, x, y))
}

/// Gives every pit wider than [`pit_cap`] the fewest two-column stepping stones that leave
/// no part wider, spaced evenly. Returns how many it set.
pub fn narrow_pits(level: &mut MarioLevel, ramp: (f32, f32)) -> usize {
    let w = level.width();
    let mut stones = 0;
    let mut x = 0;
    while x < w {
        if !open(level, x) {
            x += 1;
            continue;
        }
        let end = (x..w).find(|&c| !open(level, c)).unwrap_or(w);
        let (pit, cap) = (end - x, pit_cap(at(ramp, (x + end) / 2, w)));
        // A pit at a level's edge has no edge to jump from; leave it.
        let rows = (x > 0 && end < w)
            .then(|| (lowest_standing(level, x - 1), lowest_standing(level, end)));
        if let (true, Some((Some(a), Some(b)))) = (pit > cap, rows) {
            let k = (pit - cap).div_ceil(cap + 2);
            let (part, extra) = ((pit - 2 * k) / (k + 1), (pit - 2 * k) % (k + 1));
            let mut sx = x;
            for i in 0..k {
                sx += part + usize::from(i < extra);
                for c in sx..sx + 2 {
                    for y in a.max(b)..level.height() {
                        level.set(c, y, b'X');
                    }
                }
                sx += 2;
            }
            stones += k;
        }
        x = end;
    }
    stones
}

/// The coins of columns `x0..x1`: coin tiles and coin blocks.
fn coins_in(level: &MarioLevel, x0: usize, x1: usize) -> usize {
    (0..level.height())
        .flat_map(|y| &level.row(y)[x0..x1])
        .filter(|c| matches!(c, b'o' | b'Q' | b'!' | b'C' | b'2'))
        .count()
}

/// Thins the coins of every window to [`COIN_RATE`] per 100 columns. Returns how many went.
pub fn thin_coins(level: &mut MarioLevel, rng: &mut LevelRng) -> usize {
    let (w, h) = (level.width(), level.height());
    let mut taken = 0;
    for x0 in (0..w).step_by(difficulty::WINDOW) {
        let x1 = (x0 + difficulty::WINDOW).min(w);
        let budget = (COIN_RATE * (x1 - x0) as f32 / 100.0).floor() as usize;
        // Runs of coin tiles in a row: (y, first, end).
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        for y in 0..h {
            let mut x = x0;
            while x < x1 {
                if level.get(x, y) == b'o' {
                    let e = (x..x1).find(|&c| level.get(c, y) != b'o').unwrap_or(x1);
                    runs.push((y, x, e));
                    x = e;
                } else {
                    x += 1;
                }
            }
        }
        let mut have = coins_in(level, x0, x1);
        while have > budget && !runs.is_empty() {
            let (y, a, b) = runs.swap_remove(rng.random_range(0..runs.len()));
            for x in a..b {
                level.set(x, y, b'-');
            }
            have -= b - a;
            taken += b - a;
        }
        for (x, y) in (0..h).flat_map(|y| (x0..x1).map(move |x| (x, y))) {
            if have <= budget {
                break;
            }
            let c = level.get(x, y);
            if matches!(c, b'Q' | b'!' | b'C' | b'2') {
                level.set(x, y, if c == b'2' { b'-' } else { b'S' });
                have -= 1;
                taken += 1;
            }
        }
    }
    taken
}

/// Block groups [`fill_featureless`] sets over a long flat run (no coin blocks: they would
/// count against [`COIN_RATE`]).
const GROUPS: [&[u8]; 5] = [b"?", b"S?S", b"SSS", b"S@S", b"?S?"];

/// Sets block groups [`REACH`] tiles over every featureless run longer than [`FEATURELESS`]
/// (the first 5 to 13 columns in, then again in what is left), so no flat, empty stretch is
/// longer. Returns how many it set.
pub fn fill_featureless(level: &mut MarioLevel, rng: &mut LevelRng) -> usize {
    let w = level.width();
    let mut set = 0;
    let mut x = 0;
    while x < w {
        if !measure::featureless(level, x) {
            x += 1;
            continue;
        }
        let end = (x..w)
            .find(|&c| !measure::featureless(level, c))
            .unwrap_or(w);
        if end - x > FEATURELESS {
            let group = GROUPS[rng.random_range(0..GROUPS.len())];
            // At most FEATURELESS - 2 columns in: what is left of the group is short.
            let gx = x + rng.random_range(FEATURELESS / 3..FEATURELESS - 2);
            let top = (0..level.height())
                .rev()
                .take_while(|&y| level.get(gx, y) == b'X')
                .last()
                .unwrap_or(0);
            if top > REACH {
                for (i, &c) in group.iter().enumerate() {
                    level.set(gx + i, top - REACH, c);
                }
                set += 1;
                // The rest of the run is looked at again from the group on.
                x = gx + group.len();
                continue;
            }
        }
        x = end;
    }
    set
}

/// Share of the places [`stretch`] may widen that it widens.
pub const STRETCH: f64 = 0.3;

/// Whether column `x` may be copied by [`stretch`]: only air, ground, solid blocks, bricks
/// and platforms (no enemy, coin, question block, marker, pipe or cannon), and not a pit
/// (its bottom cell is not air: blocks or a platform over a pit do not make it ground).
fn copyable(level: &MarioLevel, x: usize) -> bool {
    level.get(x, level.height() - 1) != b'-'
        && (0..level.height()).all(|y| {
            matches!(
                level.get(x, y),
                b'-' | b'X' | b'#' | b'S' | b'%' | b'|' | b'D'
            )
        })
}

/// Varies the spacing of the rooms: where a column equals the next and holds only ground,
/// blocks, platforms and air (`copyable`), it is copied once with probability
/// [`STRETCH`], so a flat run, a ledge, a ceiling or a bridge grows by a column. Nothing a
/// jump depends on changes width: pits, coins, enemies and pipes are never copied. The
/// same room thus differs from level to level (feature-chunk reuse, `tests/shape.rs`). It
/// stops short of the level size limits ([`crate::limits`]).
pub fn stretch(level: &MarioLevel, rng: &mut LevelRng) -> MarioLevel {
    let (w, h) = (level.width(), level.height());
    let column = |x: usize| (0..h).map(move |y| level.get(x, y));
    // Never past the level size limits: a level at the limit is not stretched.
    let most = crate::limits::MAX_LEVEL_WIDTH.min(crate::limits::MAX_CELLS / h.max(1));
    let mut keep: Vec<usize> = Vec::with_capacity(w + w / 4);
    for x in 0..w {
        keep.push(x);
        if x + 1 < w
            && keep.len() + (w - x) <= most
            && copyable(level, x)
            && column(x).eq(column(x + 1))
            && rng.random_bool(STRETCH)
        {
            keep.push(x);
        }
    }
    let mut cells = Vec::with_capacity(keep.len() * h);
    for y in 0..h {
        cells.extend(keep.iter().map(|&x| level.get(x, y)));
    }
    MarioLevel::from_cells(keep.len(), h, cells).expect("the same rows, longer")
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    fn level(rows: &[&str]) -> MarioLevel {
        MarioLevel::parse("t", &rows.join("\n")).unwrap()
    }

    #[test]
    fn a_wide_pit_gets_a_stone_level_with_its_lower_edge() {
        let mut l = level(&[
            "--------------------",
            "--------------------",
            "XXX-----------------",
            "XXX------------XXXXX",
            "XXX------------XXXXX",
        ]);
        assert_eq!(measure::widest_pit(&l), 12);
        assert_eq!(narrow_pits(&mut l, (1.0, 1.0)), 2, "{}", l.to_text());
        assert_eq!(measure::widest_pit(&l), 3, "{}", l.to_text());
        // Parts of 3, 3 and 2; the stones are level with the right edge (the lower one).
        assert_eq!(&l.row(3)[3..15], b"---XX---XX--", "{}", l.to_text());
        assert_eq!(l.row(2)[8], b'-');
    }

    #[test]
    fn coins_are_thinned_by_rows_to_the_rate() {
        let row = "o".repeat(40) + &"-".repeat(10);
        let mut l = level(&[&row, &row, &"X".repeat(50)]);
        let taken = thin_coins(&mut l, &mut Seed(1).rng());
        assert_eq!(taken, 80, "both rows go: one alone is over the budget of 8");
        let row2 = "o".repeat(5) + &"-".repeat(45);
        let mut l = level(&[&row2, &"QQQQQQQQQQ".repeat(5), &"X".repeat(50)]);
        thin_coins(&mut l, &mut Seed(1).rng());
        assert!(coins_in(&l, 0, 50) <= 8, "{}", l.to_text());
        assert!(l.row(1).contains(&b'S'));
    }

    #[test]
    fn stretch_never_widens_a_pit_even_under_blocks() {
        let l = level(&[
            "-----------------SSS--------",
            "----------------------------",
            "M--------------------------F",
            "XXXXXXX-----XXXXX---XXXXXXXX",
        ]);
        for s in 0..20 {
            let v = stretch(&l, &mut Seed(s).rng());
            let pits: Vec<usize> = v.row(3).split(|&c| c == b'X').map(<[u8]>::len).collect();
            let pits: Vec<usize> = pits.into_iter().filter(|&n| n > 0).collect();
            assert_eq!(pits, [5, 3], "{}", v.to_text());
        }
    }

    #[test]
    fn stretch_copies_only_plain_columns_beside_their_equal() {
        let l = level(&[
            "--------o---------",
            "---SSSS-----------",
            "M------g------F---",
            "XXXXXX--XXXXXXXXXX",
        ]);
        let s = stretch(&l, &mut Seed(5).rng());
        assert!(s.width() > l.width(), "{}", s.to_text());
        // Pits, coins and enemies keep their widths; the rows keep their order.
        assert_eq!(measure::widest_pit(&s), measure::widest_pit(&l));
        for c in [b'o', b'g', b'M', b'F'] {
            let n = |l: &MarioLevel| l.cells().iter().filter(|&&x| x == c).count();
            assert_eq!(n(&s), 1);
        }
        let dedup = |l: &MarioLevel| {
            let mut cols: Vec<Vec<u8>> = (0..l.width())
                .map(|x| (0..l.height()).map(|y| l.get(x, y)).collect())
                .collect();
            cols.dedup();
            cols
        };
        assert_eq!(dedup(&s), dedup(&l), "only copies of neighbours were added");
    }

    #[test]
    fn a_long_flat_run_gets_blocks() {
        let air = "-".repeat(60);
        let mut l = level(&[&air, &air, &air, &air, &air, &air, &"X".repeat(60)]);
        assert_eq!(measure::longest_featureless(&l), 60);
        let n = fill_featureless(&mut l, &mut Seed(3).rng());
        assert!(n >= 2);
        assert!(
            measure::longest_featureless(&l) <= FEATURELESS,
            "{}",
            l.to_text()
        );
        assert!(
            l.row(2).iter().any(|&c| c != b'-'),
            "blocks 4 over the floor"
        );
    }
}
