//! Teaching: where a level's difficulty is below [`TEACHING`] (all of a difficulty-1
//! level, the start of a ramp such as the default 1:3), the rooms' own challenges are made
//! single lessons of the SMB 1-1 kind before the dressing adds its own, run before the
//! dressing so a repair never undoes it:
//!
//! - **Pits**: a gap in the ground (columns whose bottom cell is not solid: platforms or
//!   blocks over a gap do not make it narrower) is at most [`TEACH_PIT`] columns wide, its
//!   other columns filled level with its lower edge. It is filled whole when it comes
//!   within [`PIT_SPACING`] columns of the previous gap, when its edges differ in height,
//!   or when a solid tile stands or hangs within [`CLEAR_ABOVE`] + 1 rows over it or
//!   [`PIT_ROOM`] columns either side (a jump there bumps Mario's head or lands short).
//! - **Pipes** are at most [`TEACH_PIPE`] tiles tall (a taller one is cut down from the top),
//!   with no piranha plant.
//! - **Cannons** (`*`, `B`, `b`) become solid blocks `#` of the same shape.
//! - **Thin pillars and walls** (at most 2 columns) rising over 2 tiles above both
//!   neighbours are cut to 2 tiles over the higher neighbour.
//! - **Enemies** are goombas, walking alone on open ground: one in the air (a flying one),
//!   on a step or ledge,
//!   or with a gap of the ground or a step or pipe within [`ENEMY_ROOM`] columns, or blocks
//!   up to [`CLEAR_ABOVE`] rows over it within 2 columns, is taken out (a
//!   step or pipe drops Mario onto it, blocks bump his head down onto it).
//!
//! Why: the Mario AI Framework's agent panel (`docs/mario.md`) wins a flat level with any one
//! of these lessons alone, and loses difficulty-1 levels to pits in a row, pits under
//! platforms, pipes over 2 tiles, cannons, enemies under blocks and enemies by pits.

use crate::level::MarioLevel;
use crate::shape;
use crate::tiles::{self, TileClass};

/// Difficulty below which a column is taught ([`teaching`]).
pub const TEACHING: f32 = 2.0;
/// Widest gap in the ground of a taught column (SMB 1-1's widest is 3).
pub const TEACH_PIT: usize = 3;
/// Fewest solid columns between two gaps of the ground where taught.
pub const PIT_SPACING: usize = 8;
/// Tallest pipe where taught.
pub const TEACH_PIPE: usize = 2;
/// Rows over a taught enemy (and 2 columns either side) that hold no solid tile.
pub const CLEAR_ABOVE: usize = 3;
/// Columns either side of a taught enemy that hold no gap of the ground and no solid tile
/// in its row or the one over it.
pub const ENEMY_ROOM: usize = 8;
/// Columns either side of a taught pit that hold no solid tile in the [`CLEAR_ABOVE`] + 1
/// rows over its edges (a step, pipe or block to bump into or land short on).
pub const PIT_ROOM: usize = 6;

/// Whether difficulty `d` is taught (below [`TEACHING`]).
pub fn teaching(d: f32) -> bool {
    d < TEACHING
}

/// Whether column `x` has no solid tile at the bottom (a gap in the ground).
pub fn ground_gap(level: &MarioLevel, x: usize) -> bool {
    tiles::class_of(level.get(x, level.height() - 1)) != TileClass::Solid
}

/// The top row of the solid run at the bottom of column `x` (None over a gap).
fn ground_top(level: &MarioLevel, x: usize) -> Option<usize> {
    let h = level.height();
    let solid = |y: usize| tiles::class_of(level.get(x, y)) == TileClass::Solid;
    solid(h - 1).then(|| {
        (0..h)
            .rev()
            .take_while(|&y| solid(y))
            .last()
            .unwrap_or(h - 1)
    })
}

/// Teaches the columns of `level` whose difficulty on `ramp` is below [`TEACHING`]
/// (see the module docs). Returns how many things it changed.
pub fn teach(level: &mut MarioLevel, ramp: (f32, f32)) -> usize {
    let w = level.width();
    let taught: Vec<bool> = (0..w).map(|x| teaching(shape::at(ramp, x, w))).collect();
    if !taught.iter().any(|&t| t) {
        return 0;
    }
    pits(level, &taught)
        + pipes(level, &taught)
        + cannons(level, &taught)
        + pillars(level, &taught)
        + enemies(level, &taught)
}

/// Fills the columns `x0..x1` of the ground level with row `top` (air and coins only).
fn fill(level: &mut MarioLevel, x0: usize, x1: usize, top: usize) {
    for x in x0..x1 {
        for y in top..level.height() {
            if matches!(level.get(x, y), b'-' | b'o') {
                level.set(x, y, b'X');
            }
        }
    }
}

fn pits(level: &mut MarioLevel, taught: &[bool]) -> usize {
    let w = level.width();
    let mut changed = 0;
    let mut last_end: Option<usize> = None;
    let mut x = 1;
    while x < w {
        if !ground_gap(level, x) {
            x += 1;
            continue;
        }
        let end = (x..w).find(|&c| !ground_gap(level, c)).unwrap_or(w);
        let edges = (
            ground_top(level, x - 1),
            (end < w).then(|| ground_top(level, end)),
        );
        let (Some(a), Some(Some(b))) = edges else {
            last_end = Some(end);
            x = end;
            continue;
        };
        if !taught[(x + end) / 2] {
            last_end = Some(end);
            x = end;
            continue;
        }
        let top = a.max(b);
        let sky = |level: &MarioLevel| {
            (x.saturating_sub(PIT_ROOM)..(end + PIT_ROOM).min(w)).all(|c| {
                (top.saturating_sub(CLEAR_ABOVE + 1)..top)
                    .all(|r| tiles::class_of(level.get(c, r)) != TileClass::Solid)
            })
        };
        let close = last_end.is_some_and(|e| x < e + PIT_SPACING);
        if close || a != b || !sky(level) {
            fill(level, x, end, top);
            changed += 1;
        } else {
            if end - x > TEACH_PIT {
                let keep = x + (end - x - TEACH_PIT) / 2;
                fill(level, x, keep, top);
                fill(level, keep + TEACH_PIT, end, top);
                changed += 1;
            }
            last_end = Some(end);
        }
        x = end;
    }
    changed
}

fn pipes(level: &mut MarioLevel, taught: &[bool]) -> usize {
    let (w, h) = (level.width(), level.height());
    let mut changed = 0;
    for x in (0..w.saturating_sub(1)).filter(|&x| taught[x]) {
        for y in 0..h {
            let (l, r) = (level.get(x, y), level.get(x + 1, y));
            let top = matches!((l, r), (b'<', b'>') | (b'T', b'T'))
                && (y == 0 || !matches!(level.get(x, y - 1), b'T'));
            if !top || (l == b'T' && x > 0 && level.get(x - 1, y) == b'T') {
                continue;
            }
            let tall = (y..h)
                .take_while(|&r| matches!(level.get(x, r), b'<' | b'[' | b'T'))
                .count();
            if l == b'T' || tall > TEACH_PIPE {
                let new_top = y + tall.saturating_sub(TEACH_PIPE);
                for r in y..new_top {
                    level.set(x, r, b'-');
                    level.set(x + 1, r, b'-');
                }
                for r in new_top..y + tall {
                    let (a, b) = if r == new_top {
                        (b'<', b'>')
                    } else {
                        (b'[', b']')
                    };
                    level.set(x, r, a);
                    level.set(x + 1, r, b);
                }
                changed += 1;
            }
        }
    }
    changed
}

/// Height of the solid run at the bottom of column `x` (0 over a gap).
fn ground_height(level: &MarioLevel, x: usize) -> usize {
    ground_top(level, x).map_or(0, |t| level.height() - t)
}

fn pillars(level: &mut MarioLevel, taught: &[bool]) -> usize {
    let (w, h) = (level.width(), level.height());
    let mut changed = 0;
    for a in (1..w.saturating_sub(1)).filter(|&a| taught[a]) {
        let base = ground_height(level, a - 1);
        if ground_height(level, a) < base + 3 || base == 0 {
            continue;
        }
        let Some(b) = (a..(a + 3).min(w)).find(|&c| ground_height(level, c) < base + 3) else {
            continue;
        };
        let cap = base.max(ground_height(level, b)) + 2;
        if ground_height(level, b) == 0 || (a..b).all(|c| ground_height(level, c) <= cap) {
            continue;
        }
        let cut: Vec<(usize, std::ops::Range<usize>)> = (a..b)
            .map(|c| {
                let g = ground_height(level, c);
                (c, (h - g)..(h - cap.min(g)))
            })
            .collect();
        let wall = |(c, rows): &(usize, std::ops::Range<usize>)| {
            rows.clone()
                .all(|y| matches!(level.get(*c, y), b'#' | b'X'))
        };
        if !cut.iter().all(wall) {
            continue;
        }
        for (c, rows) in cut {
            for y in rows {
                level.set(c, y, b'-');
            }
        }
        changed += 1;
    }
    changed
}

fn cannons(level: &mut MarioLevel, taught: &[bool]) -> usize {
    let mut changed = 0;
    for x in (0..level.width()).filter(|&x| taught[x]) {
        for y in 0..level.height() {
            if matches!(level.get(x, y), b'*' | b'B' | b'b') {
                level.set(x, y, b'#');
                changed += 1;
            }
        }
    }
    changed
}

/// Whether an enemy at `(x, y)` would not be alone where taught: not on ground 7 columns
/// wide (on a step or ledge), or within [`ENEMY_ROOM`]
/// columns, a gap of the ground (`gap(column)`) or a solid tile in its row or the one over
/// it (a step or pipe to jump from onto it); within 2 columns, a solid tile up to
/// [`CLEAR_ABOVE`] rows over it (blocks that bump Mario's head down onto it).
pub(crate) fn crowded(
    w: usize,
    x: usize,
    y: usize,
    solid: impl Fn(usize, usize) -> bool,
    gap: impl Fn(usize) -> bool,
) -> bool {
    let near = x.saturating_sub(ENEMY_ROOM)..(x + ENEMY_ROOM + 1).min(w);
    let close = x.saturating_sub(2)..(x + 3).min(w);
    let flat = (x.saturating_sub(3)..(x + 4).min(w)).all(|cx| solid(cx, y + 1));
    !flat
        || near.clone().any(gap)
        || near
            .into_iter()
            .any(|cx| solid(cx, y) || solid(cx, y.saturating_sub(1)))
        || close
            .into_iter()
            .any(|cx| (y.saturating_sub(CLEAR_ABOVE)..y).any(|cy| solid(cx, cy)))
}

/// Applies the enemy rule of [`teach`] alone (after the dressing added its own).
pub fn teach_enemies(level: &mut MarioLevel, ramp: (f32, f32)) -> usize {
    let w = level.width();
    let taught: Vec<bool> = (0..w).map(|x| teaching(shape::at(ramp, x, w))).collect();
    enemies(level, &taught)
}

fn enemies(level: &mut MarioLevel, taught: &[bool]) -> usize {
    let (w, h) = (level.width(), level.height());
    let gap: Vec<bool> = (0..w).map(|x| ground_gap(level, x)).collect();
    let mut changed = 0;
    for x in (0..w).filter(|&x| taught[x]) {
        for y in 0..h {
            let c = level.get(x, y);
            if tiles::class_of(c) != TileClass::Enemy {
                continue;
            }
            let solid =
                |cx: usize, cy: usize| tiles::class_of(level.get(cx, cy)) == TileClass::Solid;
            let on_ground = y + 1 < h && solid(x, y + 1);
            if !on_ground || crowded(w, x, y, solid, |cx| gap[cx]) {
                level.set(x, y, b'-');
                changed += 1;
            } else if c != b'g' {
                level.set(x, y, b'g');
                changed += 1;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rows: &[&str]) -> MarioLevel {
        MarioLevel::parse("t", &rows.join("\n")).unwrap()
    }

    fn rows(l: &MarioLevel) -> Vec<String> {
        l.to_text().lines().map(str::to_string).collect()
    }

    #[test]
    fn a_wide_pit_keeps_its_middle_three_columns_and_a_close_one_is_filled() {
        let air = "-".repeat(22);
        let mut l = level(&[
            "-----###--------------",
            &air,
            &air,
            &air,
            &air,
            "M--------------------F",
            "XX---------XXX--XXXXXX",
        ]);
        assert_eq!(teach(&mut l, (1.0, 1.0)), 2);
        assert_eq!(rows(&l)[6], "XXXXX---XXXXXXXXXXXXXX");
        // Blocks 4 rows over the ground fill the pit under them whole.
        let mut l = level(&[
            "---SS---",
            &"-".repeat(8),
            "--------",
            "M------F",
            "XXX--XXX",
        ]);
        assert_eq!(teach(&mut l, (1.0, 1.0)), 1);
        assert_eq!(rows(&l)[4], "XXXXXXXX");
        // At difficulty 2 nothing is taught.
        let mut l = level(&["M-----F", "XX--XXX"]);
        assert_eq!(teach(&mut l, (2.0, 2.0)), 0);
    }

    #[test]
    fn pipes_are_cut_to_two_tiles_and_lose_their_plant() {
        let mut l = level(&[
            "-<>-----TT-",
            "-[]-----TT-",
            "-[]-----TT-",
            "-[]--<>-TT-",
            "M[]--[]-TTF",
            "XXXXXXXXXXX",
        ]);
        assert_eq!(teach(&mut l, (1.0, 1.0)), 2);
        let r = rows(&l);
        assert_eq!(r[2], "-----------");
        assert_eq!(r[3], "-<>--<>-<>-");
        assert_eq!(r[4], "M[]--[]-[]F");
    }

    #[test]
    fn enemies_become_lone_goombas_in_the_open() {
        let mut l = level(&[
            "---------SSS----------------------",
            "------------R---------------------",
            "M-k----------g----K-------------gF",
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX--XX",
        ]);
        teach(&mut l, (1.0, 1.0));
        // The koopa and the winged koopa become goombas; the flying one, the goomba under
        // the blocks and the one by the pit go.
        assert_eq!(rows(&l)[2], "M-g---------------g--------------F");
        // One on a step goes too: Mario jumps onto the step and meets it.
        let mut l = level(&["M------g------F", "------###------", "XXXXXXXXXXXXXXX"]);
        teach(&mut l, (1.0, 1.0));
        assert_eq!(rows(&l)[0], "M-------------F");
    }

    #[test]
    fn thin_pillars_are_cut_to_two_tiles_over_their_neighbours() {
        let mut l = level(&[
            "-----#------",
            "-----#---##-",
            "-----#---##-",
            "M----#---##F",
            "XXXXXXXXXXXX",
        ]);
        assert_eq!(teach(&mut l, (1.0, 1.0)), 2);
        let r = rows(&l);
        assert_eq!(r[0..2], ["------------", "------------"]);
        assert_eq!(r[2], "-----#---##-");
    }

    #[test]
    fn cannons_become_blocks() {
        let mut l = level(&["--B--", "M-b-F", "XXXXX"]);
        assert_eq!(teach(&mut l, (1.0, 1.0)), 2);
        assert_eq!(rows(&l)[..2], ["--#--", "M-#-F"]);
    }
}
