//! Set pieces: small challenge patterns the dressing sets on flat ground, each with its own
//! rating, chosen by difficulty and by a teaching curve.
//!
//! A rating says what a piece asks: **1**, one challenge alone (a goomba, a block group, a
//! pipe, a 2-column pit, a step); **2**, two combined (a goomba pair, a koopa walking to a
//! pipe, a goomba under blocks, steps over a pit); **3**, a hazard with timing or a longer
//! jump (a piranha pipe, three goombas, a staircase over a pit, a cannon, a jump guarded by
//! a goomba); **4** and **5**, several at once (koopa pairs, piranha pairs, winged enemies
//! over pits, twin cannons, spikies, a high staircase over a wide pit).
//!
//! **Teaching curve.** In every level the first piece is rated 1 and the ratings allowed
//! rise piece by piece (`1 + placed * top / 4`) up to the difficulty's highest rating `top`
//! ([`crate::difficulty::Profile::piece_rating`]: 1 at difficulty 1, where every piece is a
//! single challenge; 5 at 5, reached by the fifth piece); the pieces are drawn from the
//! top two ratings allowed: challenges come alone first, then combined. Pieces with
//! enemies keep out of the start zone and of gap run-ups, and their enemies stay when the
//! dressing thins a window's enemies. Where the difficulty is taught ([`crate::teach`]),
//! pieces keep away from gaps in the ground and generated block groups
//! (`place_blocks`) fill the flat ground between them.

use crate::difficulty::Dress;
use crate::tiles::{self, TileClass};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// One set piece: rows top to bottom; the last row is the ground row (`X` keeps the ground,
/// `-` cuts a pit to the bottom); in the rows above, `-` leaves the cell as it is.
#[derive(Clone, Copy, Debug)]
pub struct SetPiece {
    /// Name (listed by `levelgen mario --explain`).
    pub name: &'static str,
    /// Rating, 1..=5.
    pub rating: usize,
    /// The pattern.
    pub rows: &'static [&'static str],
}

const fn piece(name: &'static str, rating: usize, rows: &'static [&'static str]) -> SetPiece {
    SetPiece { name, rating, rows }
}

/// The catalogue.
pub const PIECES: &[SetPiece] = &[
    piece("goomba", 1, &["g", "X"]),
    piece("blocks", 1, &["S?S", "---", "---", "---", "XXX"]),
    piece("pipe", 1, &["<>", "[]", "XX"]),
    piece("small pit", 1, &["--"]),
    piece("step", 1, &["##", "XX"]),
    piece("goomba pair", 2, &["g-g", "XXX"]),
    piece("koopa and pipe", 2, &["----<>", "k---[]", "XXXXXX"]),
    piece(
        "goomba under blocks",
        2,
        &["SQS?S", "-----", "-----", "--g--", "XXXXX"],
    ),
    piece("steps over a pit", 2, &["#--#", "#--#", "X--X"]),
    piece("piranha pipe", 3, &["TT", "TT", "XX"]),
    piece("goomba trio", 3, &["g-g-g", "XXXXX"]),
    piece(
        "staircase over a pit",
        3,
        &["--#--#--", "-##--##-", "###--###", "XXX--XXX"],
    ),
    piece("cannon", 3, &["B", "b", "X"]),
    piece("guarded jump", 3, &["------g-", "XX---XXX"]),
    piece("koopa pair", 4, &["k--k", "XXXX"]),
    piece("piranha pair", 4, &["TT----TT", "TT----TT", "XXXXXXXX"]),
    piece("winged goomba over a pit", 4, &["--G--", "-----", "X---X"]),
    piece("twin cannons", 4, &["B----B", "b----b", "XXXXXX"]),
    piece("spiky pair", 5, &["y---y", "XXXXX"]),
    piece(
        "winged koopa and pit",
        5,
        &["---K---", "-------", "XX---XX"],
    ),
    piece(
        "high staircase over a pit",
        5,
        &[
            "---#---#---",
            "--##---##--",
            "-###---###-",
            "####---####",
            "XXXX---XXXX",
        ],
    ),
];

/// Random spots tried per piece.
const TRIES: usize = 30;

fn has_enemy(p: &SetPiece) -> bool {
    p.rows
        .iter()
        .any(|r| r.bytes().any(|c| tiles::class_of(c) == TileClass::Enemy))
}

/// Places one set piece in `x0..x1` (rated at most `top` and by the teaching curve), on flat
/// ground with a column of margin either side. Whether it found room.
/// Where `teaching` ([`crate::teach`]), a piece keeps [`crate::teach::PIT_ROOM`] columns
/// from any gap of the ground; one with a pit keeps [`crate::teach::PIT_SPACING`] and has
/// plain flat ground [`crate::teach::PIT_ROOM`] columns either side.
pub(crate) fn place(
    d: &mut Dress,
    x0: usize,
    x1: usize,
    (top, teaching): (usize, bool),
    rng: &mut LevelRng,
) -> bool {
    let hi = (1 + d.pieces.len() * top / 4).min(top).max(1);
    let last = d.pieces.last().map(|p| p.1);
    let pool: Vec<&SetPiece> = PIECES
        .iter()
        .filter(|p| p.rating <= hi && p.rating + 1 >= hi && Some(p.name) != last)
        .collect();
    if pool.is_empty() || x1 <= x0 + 1 {
        return false;
    }
    let p = pool[rng.random_range(0..pool.len())];
    let w = p.rows[0].len();
    let enemy = has_enemy(p);
    let pit = p.rows.last().is_some_and(|r| r.contains('-'));
    let spacing = match (teaching, pit) {
        (false, _) => 0,
        (true, false) => crate::teach::PIT_ROOM,
        (true, true) => crate::teach::PIT_SPACING,
    };
    for _ in 0..TRIES {
        let x = rng.random_range(x0.max(1)..x1);
        let Some(y) = d.plain(x) else { continue };
        if x + w + 1 > d.w || !d.flat(x - 1, x + w + 1, y) {
            continue;
        }
        if enemy && (x - 1..x + w + 1).any(|c| d.runway[c]) {
            continue;
        }
        let gap = |c: usize| tiles::class_of(d.at(c, d.h - 1)) != TileClass::Solid;
        if spacing > 0 && (x.saturating_sub(spacing)..(x + w + spacing).min(d.w)).any(gap) {
            continue;
        }
        // A taught pit has plain flat ground PIT_ROOM columns either side: nothing to bump.
        let room = crate::teach::PIT_ROOM;
        if teaching && pit && (x < room || !d.flat(x - room, x + w + room, y)) {
            continue;
        }
        stamp(d, p, x, y);
        for c in x - 1..x + w + 1 {
            d.busy[c] = true;
            d.piece_cols[c] = true;
        }
        d.pieces.push((x, p.name));
        return true;
    }
    false
}

/// The blocks a generated block group ([`place_blocks`]) is drawn from: bricks most often,
/// power-up blocks and a mushroom brick, no coins (the coin rate is capped before the
/// dressing, [`crate::shape::thin_coins`]).
const BLOCKS: [u8; 6] = *b"SSSS?U";

/// Places a generated block group in `x0..x1` where taught: 1 to 5 blocks drawn from
/// [`BLOCKS`], 4 rows over plain flat ground with a column of margin either side (the
/// `blocks` piece, varied so that taught levels do not repeat one another). Whether it
/// found room.
pub(crate) fn place_blocks(d: &mut Dress, x0: usize, x1: usize, rng: &mut LevelRng) -> bool {
    if x1 <= x0 + 1 {
        return false;
    }
    let w = rng.random_range(1..=5usize);
    let row: Vec<u8> = (0..w)
        .map(|_| BLOCKS[rng.random_range(0..BLOCKS.len())])
        .collect();
    for _ in 0..TRIES {
        let x = rng.random_range(x0.max(1)..x1);
        let Some(y) = d.plain(x) else { continue };
        if x + w + 1 > d.w || !d.flat(x - 1, x + w + 1, y) {
            continue;
        }
        for (j, &c) in row.iter().enumerate() {
            d.set(x + j, y - 4, c);
        }
        for c in x - 1..x + w + 1 {
            d.busy[c] = true;
        }
        d.pieces.push((x, "blocks"));
        return true;
    }
    false
}

/// Writes `p` with its ground row on row `y` from column `x`.
fn stamp(d: &mut Dress, p: &SetPiece, x: usize, y: usize) {
    let n = p.rows.len();
    for (i, row) in p.rows.iter().enumerate() {
        let ry = y + i + 1 - n;
        for (j, c) in row.bytes().enumerate() {
            let cx = x + j;
            if i + 1 == n {
                if c == b'-' {
                    for r in y..d.h {
                        d.set(cx, r, b'-');
                    }
                }
            } else if c != b'-' {
                d.set(cx, ry, c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_is_well_formed() {
        for p in PIECES {
            assert!((1..=5).contains(&p.rating), "{}", p.name);
            let w = p.rows[0].len();
            assert!(p.rows.iter().all(|r| r.len() == w), "{}", p.name);
            // At most 4 rows over the ground: the dressing's headroom.
            assert!(p.rows.len() <= 5, "{}", p.name);
            for r in p.rows {
                assert!(r.bytes().all(tiles::is_level_char), "{}", p.name);
            }
        }
        for r in 1..=5 {
            assert!(PIECES.iter().filter(|p| p.rating == r).count() >= 3, "{r}");
        }
    }

    #[test]
    fn the_ratings_rise_piece_by_piece_from_1() {
        let rows = ["-".repeat(300), "-".repeat(300), "-".repeat(300)];
        let mut cells: Vec<u8> = Vec::new();
        for _ in 0..5 {
            cells.extend(rows[0].bytes());
        }
        cells.extend("X".repeat(300).bytes());
        let (w, h) = (300, 6);
        let mut d = Dress::new(w, h, &mut cells, (0, w - 1), vec![true; w * h]);
        let mut rng = grid_core::Seed(4).rng();
        let mut placed = 0;
        while placed < 6 {
            placed += usize::from(place(&mut d, 0, w, (5, false), &mut rng));
        }
        let rating = |name: &str| PIECES.iter().find(|p| p.name == name).unwrap().rating;
        let r: Vec<usize> = d.pieces.iter().map(|p| rating(p.1)).collect();
        assert!(r[0] == 1 && r[1] <= 2 && r[2] <= 3 && r[3] <= 4, "{r:?}");
        assert!(r[1] >= 1 && r[2] >= 2 && r[3] >= 3 && r[5] >= 4, "{r:?}");
    }
}
