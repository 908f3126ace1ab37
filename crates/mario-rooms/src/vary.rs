//! Variation: what makes the same room differ from level to level, run after the stretch
//! and before the pits, coins and dressing are shaped ([`crate::shape`]). Levels are pure
//! functions of their seed, so a batch cannot avoid reusing a room; instead each level
//! varies what the room holds, in ways a player sees and nothing a jump depends on:
//!
//! - **Blocks** ([`reskin_blocks`]): each brick or question block of a block group (a row
//!   of at most [`GROUP`] blocks with nothing solid on it: no ceiling or wall) becomes,
//!   with probability [`BLOCK_SHARE`], another rewarding block: a coin block, a coin brick
//!   or a power-up block. Of a longer row (a bridge), about two blocks change. A block
//!   never becomes a brick: bricks break under big Mario, reward blocks stay solid, so no
//!   ledge a route stands on can go. The coin rate is capped after this stage
//!   ([`crate::shape::thin_coins`]).
//! - **Coin rows** ([`trim_coins`]): a row of two or more coins loses, with probability
//!   [`COIN_TRIM`], a coin at one of its ends (coins are air to the player's body).
//! - **Places** ([`shift_things`]): Mario's start, the exit flag and every enemy move up
//!   to [`SHIFT`] columns to a column that is the same as theirs without them (the same
//!   ground at the same height, the same air above), so a goomba stays on its ledge and the
//!   start on its floor.
//!
//! Tested by the feature-chunk reuse of `tests/shape.rs`.

use crate::level::MarioLevel;
use crate::tiles::{TileClass, class_of};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Longest row of blocks [`reskin_blocks`] changes at [`BLOCK_SHARE`]: longer ones are
/// bridges, of which it changes about two blocks.
pub const GROUP: usize = 8;
/// Share of the bricks and question blocks [`reskin_blocks`] changes.
pub const BLOCK_SHARE: f64 = 0.35;
/// Share of the coin rows [`trim_coins`] shortens.
pub const COIN_TRIM: f64 = 0.5;

/// Most columns [`shift_things`] moves a thing.
pub const SHIFT: usize = 3;

/// What a changed block becomes: coin blocks most often, power-ups least (`?`: power-up
/// block, `Q`: coin block, `C`: coin brick).
const REWARDS: [u8; 5] = [b'Q', b'Q', b'C', b'C', b'?'];

/// Changes [`BLOCK_SHARE`] of the bricks and question blocks of each block group (about two
/// of a bridge's) to another reward block (module docs). Returns how many changed.
pub fn reskin_blocks(level: &mut MarioLevel, rng: &mut LevelRng) -> usize {
    let block = |c: u8| matches!(c, b'S' | b'Q' | b'?' | b'C');
    let mut changed = 0;
    for y in 1..level.height() {
        let mut x = 0;
        while x < level.width() {
            if !block(level.get(x, y)) {
                x += 1;
                continue;
            }
            let end = (x..level.width())
                .find(|&c| !block(level.get(c, y)))
                .unwrap_or(level.width());
            // Nothing solid on it: no ceiling or wall.
            if (x..end).all(|c| matches!(level.get(c, y - 1), b'-' | b'o')) {
                let share = if end - x <= GROUP {
                    BLOCK_SHARE
                } else {
                    2.0 / (end - x) as f64
                };
                for c in x..end {
                    let to = REWARDS[rng.random_range(0..REWARDS.len())];
                    if rng.random_bool(share) && to != level.get(c, y) {
                        level.set(c, y, to);
                        changed += 1;
                    }
                }
            }
            x = end;
        }
    }
    changed
}

/// Shortens [`COIN_TRIM`] of the rows of two or more coins by one coin at a random end.
/// Returns how many coins went.
pub fn trim_coins(level: &mut MarioLevel, rng: &mut LevelRng) -> usize {
    let mut taken = 0;
    for y in 0..level.height() {
        let mut x = 0;
        while x < level.width() {
            if level.get(x, y) != b'o' {
                x += 1;
                continue;
            }
            let end = (x..level.width())
                .find(|&c| level.get(c, y) != b'o')
                .unwrap_or(level.width());
            if end - x >= 2 && rng.random_bool(COIN_TRIM) {
                let at = if rng.random_bool(0.5) { x } else { end - 1 };
                level.set(at, y, b'-');
                taken += 1;
            }
            x = end;
        }
    }
    taken
}

/// Whether column `x` equals column `from` with the cell `(from, y)` read as air.
fn same_without(level: &MarioLevel, from: usize, y: usize, x: usize) -> bool {
    (0..level.height()).all(|r| {
        let want = if r == y { b'-' } else { level.get(from, r) };
        level.get(x, r) == want
    })
}

/// Moves Mario's start, the exit flag and each enemy (row by row, left to right), with
/// probability 3/4, to a random column at most [`SHIFT`] away that is the same as theirs
/// without them, if any (module docs). Returns how many moved.
pub fn shift_things(level: &mut MarioLevel, rng: &mut LevelRng) -> usize {
    let (w, h) = (level.width(), level.height());
    let things: Vec<(usize, usize)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let c = level.get(x, y);
            matches!(c, b'M' | b'F') || class_of(c) == TileClass::Enemy
        })
        .collect();
    let mut moved = 0;
    for (x, y) in things {
        let c = level.get(x, y);
        let lo = x.saturating_sub(SHIFT);
        let hi = (x + SHIFT).min(w - 1);
        let to: Vec<usize> = (lo..=hi)
            .filter(|&t| t != x && same_without(level, x, y, t))
            .collect();
        if to.is_empty() || !rng.random_bool(0.75) {
            continue;
        }
        let t = to[rng.random_range(0..to.len())];
        level.set(x, y, b'-');
        level.set(t, y, c);
        moved += 1;
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    fn level(rows: &[&str]) -> MarioLevel {
        MarioLevel::parse("t", &rows.join("\n")).unwrap()
    }

    #[test]
    fn blocks_change_to_rewards_and_never_to_bricks() {
        let row = "S?QC-".repeat(40);
        let l = level(&[&"-".repeat(200), &row, &"X".repeat(200)]);
        let mut v = l.clone();
        let n = reskin_blocks(&mut v, &mut Seed(2).rng());
        assert!(n > 20 && n < 80, "{n} of 160");
        for x in 0..200 {
            let (a, b) = (l.get(x, 1), v.get(x, 1));
            assert!(a == b || (b != b'S' && REWARDS.contains(&b)), "{a} -> {b}");
        }
        assert_eq!(l.row(2), v.row(2), "ground untouched");
        // A ceiling (row 0) and a block under a block stay; a bridge changes about two
        // blocks (a change may draw the block it was: 4 of 5 draws change a brick).
        let mut c = level(&["SSS---", "S-----", "------", "XXXXXX"]);
        let mut n = 0;
        for s in 0..50 {
            assert_eq!(reskin_blocks(&mut c, &mut Seed(s).rng()), 0);
            let mut b = level(&[&"-".repeat(20), &"S".repeat(20), &"X".repeat(20)]);
            n += reskin_blocks(&mut b, &mut Seed(s).rng());
        }
        assert!((60..=110).contains(&n), "{n} in 50 bridges");
    }

    #[test]
    fn things_move_only_to_columns_like_their_own() {
        let l = level(&[
            "-------------------",
            "--M------g---k--F--",
            "XXXXX-XXXXXXX#XXXXX",
        ]);
        let mut moved = 0;
        for s in 0..20 {
            let mut v = l.clone();
            moved += shift_things(&mut v, &mut Seed(s).rng());
            for c in [b'M', b'g', b'k', b'F'] {
                let n = v.cells().iter().filter(|&&x| x == c).count();
                assert_eq!(n, 1, "{}", v.to_text());
            }
            assert_eq!(v.row(2), l.row(2));
            // The goomba's ground ends at column 4 and 6..13: it stays on 6..=12 (the block
            // at 13 is not ground), and the koopa on the block goes nowhere.
            let gx = v.row(1).iter().position(|&c| c == b'g').unwrap();
            assert!((6..=12).contains(&gx), "{}", v.to_text());
            assert_eq!(v.get(13, 1), b'k');
            let mx = v.row(1).iter().position(|&c| c == b'M').unwrap();
            assert!(mx <= 4, "{}", v.to_text());
        }
        assert!(moved > 20, "{moved}");
    }

    #[test]
    fn coin_rows_lose_an_end_coin_and_single_coins_stay() {
        let l = level(&[&"ooooo-o--".repeat(40), &"X".repeat(360)]);
        let mut v = l.clone();
        let n = trim_coins(&mut v, &mut Seed(4).rng());
        assert!(n > 5 && n < 40, "{n} of 40 rows");
        for r in 0..40 {
            let run = &v.row(0)[r * 9..r * 9 + 9];
            assert_eq!(&run[6..8], b"o-", "a single coin stays");
            let coins = run[..5].iter().filter(|&&c| c == b'o').count();
            assert!(
                coins >= 4 && run[1..4] == *b"ooo",
                "{}",
                String::from_utf8_lossy(run)
            );
        }
    }
}
