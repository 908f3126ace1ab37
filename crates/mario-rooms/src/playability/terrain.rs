//! What each cell means to the search: solid, support, and the hazards enemies make.
//!
//! Enemies are modelled from the Mario AI Framework's sprites (`Enemy.java`,
//! `FlowerEnemy.java`, `MarioWorld.java`):
//! * A **walker** (`g E k r y`) is spawned when its tile comes into view, about 9 columns
//!   right of Mario, facing him, and walks 1.75 px per tick; it turns at walls, a red koopa
//!   also at cliffs, and the others walk off edges and fall. The cells it can reach in the
//!   time Mario needs to meet it at walking pace (4.85 px per tick: they meet within
//!   [`SWEEP`] columns of its spawn) form its **swept zone**: walked along its surface,
//!   falling off edges, turning back where it is stopped. Mario never walks into a zone; he
//!   lands in it, its spawn cell included, only from a fall (the walker is stomped, or
//!   elsewhere in its zone); in the air he passes through the zone (the walker is in one
//!   cell of it at a time) but enters the spawn cell only falling (a stomp). A spiky's
//!   cells are never entered. Koopas are two tiles tall: the row above a koopa's feet is
//!   in its zone too.
//! * A **piranha plant** (`T` pipe) stays down at least 41 ticks, rises 1 px a tick into
//!   the row above the pipe top, stays up 41 ticks and goes down again; it never rises
//!   while Mario is within 24 px of it. The row above a `T` pipe top is a timed hazard:
//!   Mario waits on a standing tile for the plant to be down (it then stays down 41 ticks
//!   and needs 8 more to reach him),
//!   so an arc may pass or land there only within [`SAFE_TICKS`] of the start of its
//!   run-up; walking onto the pipe top and standing there are safe (the plant stays down
//!   while he is on it).
//! * **Winged** enemies (`G K R`) hop and fly about their spawn; only their spawn cell is
//!   modelled: never walked into or landed on, free in the air. A winged spiky `Y` is a
//!   walker's spawn cell that never moves.

use crate::level::MarioLevel;
use crate::tiles::{self, TileClass};
use std::sync::OnceLock;

/// Columns a walker's swept zone reaches from its spawn tile.
pub const SWEEP: usize = 3;
/// Ticks after the start of an arc's run-up in which it may pass or land on a piranha
/// plant's cell.
pub const SAFE_TICKS: usize = 40;

/// Blocks movement from every side.
pub(super) const BLOCKED: u8 = 1;
/// Can be stood on.
pub(super) const SUPPORT: u8 = 2;
/// A walker's spawn cell.
pub(super) const WALKER: u8 = 4;
/// A spiky's cell or zone: never stomped, never entered in the air.
pub(super) const NOSTOMP: u8 = 8;
/// A winged enemy's spawn cell.
pub(super) const WINGED: u8 = 16;
/// A piranha plant's cell above its pipe (a timed hazard).
pub(super) const PIRANHA: u8 = 32;
/// A walker's swept zone: never walked into; landed on only by a fall (a stomp).
pub(super) const SWEPT: u8 = 64;
/// Any enemy but a piranha plant: never stood on nor walked into.
pub(super) const HAZARD: u8 = WALKER | NOSTOMP | WINGED | SWEPT;

pub(super) struct Terrain {
    pub(super) w: i32,
    pub(super) h: i32,
    /// Per cell: the flags above.
    pub(super) flags: Vec<u8>,
}

impl Terrain {
    pub(super) fn new(level: &MarioLevel) -> Self {
        static TABLE: OnceLock<[u8; 256]> = OnceLock::new();
        let table = TABLE.get_or_init(|| {
            let mut t = [0u8; 256];
            for (c, f) in t.iter_mut().enumerate() {
                let c = c as u8;
                *f = match tiles::class_of(c) {
                    TileClass::Solid => BLOCKED | SUPPORT,
                    TileClass::Platform => SUPPORT,
                    TileClass::Hidden => BLOCKED,
                    TileClass::Enemy if matches!(c, b'y' | b'Y') => WALKER | NOSTOMP,
                    TileClass::Enemy if matches!(c, b'G' | b'K' | b'R') => WINGED,
                    TileClass::Enemy => WALKER,
                    TileClass::Empty => 0,
                };
            }
            t
        });
        let cells = level.cells();
        let mut t = Self {
            w: level.width() as i32,
            h: level.height() as i32,
            flags: cells.iter().map(|&c| table[c as usize]).collect(),
        };
        let w = level.width();
        for (i, &c) in cells.iter().enumerate() {
            let (x, y) = ((i % w) as i32, (i / w) as i32);
            match c {
                b'g' | b'E' | b'k' | b'r' | b'y' => {
                    let spiky = table[c as usize] & NOSTOMP;
                    let tall = i32::from(matches!(c, b'k' | b'r'));
                    t.mark(x, y - tall, SWEPT | spiky);
                    t.sweep(x, y, SWEPT | spiky, tall, c == b'r');
                }
                b'T' if y > 0 && cells[i - w] != b'T' => t.mark(x, y - 1, PIRANHA),
                _ => {}
            }
        }
        t
    }

    /// Adds hazard `mark` to a free cell (one that neither blocks nor supports).
    fn mark(&mut self, x: i32, y: i32, mark: u8) {
        if x >= 0 && x < self.w && y >= 0 && y < self.h {
            let f = &mut self.flags[(y * self.w + x) as usize];
            if *f & (BLOCKED | SUPPORT) == 0 {
                *f |= mark;
            }
        }
    }

    /// Marks the swept zone of the walker at `(x, y)`: [`SWEEP`] steps to the left, then
    /// what is left of them to the right if it was stopped (it turns back). A `tall`
    /// (koopa) also fills the row above its feet.
    fn sweep(&mut self, x: i32, y: i32, mark: u8, tall: i32, avoids_cliffs: bool) {
        let mut left = SWEEP;
        for dir in [-1, 1] {
            let (mut cx, mut cy) = (x, y);
            while left > 0 {
                let Some((nx, ny)) = self.walker_step(cx, cy, dir, avoids_cliffs) else {
                    break;
                };
                left -= 1;
                for fy in cy - tall..=ny {
                    self.mark(nx, fy, mark);
                }
                (cx, cy) = (nx, ny);
            }
        }
    }

    /// Where a walker at `(x, y)` is after one column in direction `dir`: `None` at a wall,
    /// at the level's edge, at a cliff it avoids, or when it falls out of the level.
    fn walker_step(&self, x: i32, y: i32, dir: i32, avoids_cliffs: bool) -> Option<(i32, i32)> {
        let nx = x + dir;
        if nx < 0 || nx >= self.w || self.at(nx, y) & BLOCKED != 0 {
            return None;
        }
        let mut ny = y;
        while self.at(nx, ny + 1) & SUPPORT == 0 {
            if avoids_cliffs || ny + 1 >= self.h {
                return None;
            }
            ny += 1;
        }
        Some((nx, ny))
    }

    /// Whether Mario can stand at cell index `i` (row below exists): body cell free and a
    /// safe support below.
    #[inline]
    pub(super) fn standable_index(&self, i: usize) -> bool {
        let below = i + self.w as usize;
        below < self.flags.len()
            && self.flags[i] & (BLOCKED | HAZARD) == 0
            && self.flags[below] & SUPPORT != 0
    }

    /// Flags of `(x, y)`; columns clamp like the engine, rows outside are air.
    #[inline]
    pub(super) fn at(&self, x: i32, y: i32) -> u8 {
        if y < 0 || y >= self.h {
            return 0;
        }
        let x = x.clamp(0, self.w - 1);
        self.flags[(y * self.w + x) as usize]
    }

    /// Free for Mario's body on the ground: nothing blocks and no hazard.
    #[inline]
    pub(super) fn free(&self, x: i32, y: i32) -> bool {
        self.at(x, y) & (BLOCKED | HAZARD) == 0
    }

    /// Free for a body in the air: a walker's spawn cell only when `falling` (a stomp),
    /// its swept zone always (it is in one cell of it at a time), a spiky's cells never, a
    /// piranha's only when not `late` in the arc; winged enemies move off their spawn cell,
    /// so only landing on it is avoided.
    #[inline]
    pub(super) fn free_in_air(&self, x: i32, y: i32, falling: bool, late: bool) -> bool {
        let f = self.at(x, y);
        f & (BLOCKED | NOSTOMP) == 0 && (f & WALKER == 0 || falling) && (f & PIRANHA == 0 || !late)
    }

    /// Whether an arc may end standing at `(x, y)` (`late` in the arc, see [`SAFE_TICKS`]):
    /// a standable tile (a piranha's only early), or a stompable walker's cell or swept
    /// zone on support (the walker is stomped, or elsewhere in its zone).
    #[inline]
    pub(super) fn landable(&self, x: i32, y: i32, late: bool) -> bool {
        let f = self.at(x, y);
        if self.standable(x, y) {
            return !(late && f & PIRANHA != 0);
        }
        x >= 0
            && x < self.w
            && y >= 0
            && y + 1 < self.h
            && f & (BLOCKED | NOSTOMP | WINGED) == 0
            && f & (WALKER | SWEPT) != 0
            && self.at(x, y + 1) & SUPPORT != 0
    }

    #[inline]
    pub(super) fn standable(&self, x: i32, y: i32) -> bool {
        x >= 0
            && x < self.w
            && y >= 0
            && y + 1 < self.h
            && self.free(x, y)
            && self.at(x, y + 1) & SUPPORT != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrain(rows: &[&str]) -> Terrain {
        Terrain::new(&MarioLevel::parse("t", &rows.join("\n")).unwrap())
    }

    fn marked(t: &Terrain, y: i32, mark: u8) -> String {
        (0..t.w)
            .map(|x| if t.at(x, y) & mark != 0 { '*' } else { '.' })
            .collect()
    }

    #[test]
    fn walkers_sweep_their_surface_and_turn_at_walls() {
        let t = terrain(&["----------", "-------g--", "XXXXXXXXXX"]);
        assert_eq!(marked(&t, 1, HAZARD), "....****..");
        assert_eq!(marked(&t, 1, WALKER), ".......*..");
        assert!(t.landable(5, 1, true) && t.landable(7, 1, false) && !t.standable(5, 1));
        assert!(!t.landable(5, 0, false), "no support");
        // A wall two columns to the left: it turns back and sweeps right.
        let t = terrain(&["----------", "---X--g---", "XXXXXXXXXX"]);
        assert_eq!(marked(&t, 1, SWEPT), "....****..");
        // A goomba walks off an edge and falls; a red koopa turns at the cliff.
        let t = terrain(&["------g---", "----XXXX--", "XXXXXXXXXX"]);
        assert_eq!(marked(&t, 0, HAZARD), "...****...");
        assert_eq!(marked(&t, 1, HAZARD), "...*......");
        let t = terrain(&["------r---", "----XXXX--", "XXXXXXXXXX"]);
        assert_eq!(marked(&t, 0, HAZARD), "....****..");
        assert_eq!(marked(&t, 1, HAZARD), "..........");
    }

    #[test]
    fn koopas_are_two_tall_spikies_are_never_stomped_plants_sit_above_pipes() {
        let t = terrain(&["----------", "-----k--y-", "XXXXXXXXXX"]);
        assert_eq!(marked(&t, 0, HAZARD), "..****....");
        assert_eq!(marked(&t, 1, WALKER), ".....*..*.");
        assert_eq!(marked(&t, 1, NOSTOMP), ".....****.");
        assert!(
            !t.free_in_air(6, 1, true, false) && !t.landable(6, 1, false),
            "spiky"
        );
        assert!(t.free_in_air(3, 0, false, false), "zone");
        let t = terrain(&["----------", "-----k----", "XXXXXXXXXX"]);
        assert!(t.free_in_air(5, 1, true, false) && !t.free_in_air(5, 1, false, false));
        assert!(t.free_in_air(5, 0, false, false) && t.landable(5, 1, false));
        let t = terrain(&["----------", "----TT----", "----TT----", "XXXXXXXXXX"]);
        assert_eq!(marked(&t, 0, PIRANHA), "....**....");
        assert!(t.standable(4, 0) && t.free_in_air(4, 0, false, false));
        assert!(t.landable(4, 0, false) && !t.landable(4, 0, true));
        assert!(!t.free_in_air(5, 0, true, true), "late in the arc");
        let winged = terrain(&["----------", "----G-----", "XXXXXXXXXX"]);
        assert_eq!(marked(&winged, 1, HAZARD), "....*.....");
    }
}
