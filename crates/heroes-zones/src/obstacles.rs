//! Step 6: the obstacle mask. Free cells become obstacles at random, then a double-buffered
//! cellular automaton (B5678/S45678-style majority rule over the 8 neighbours, borders and the
//! map edge counting as walls) smooths them into clumps. Zone borders stay walls; entrances,
//! approaches and passages are never covered.

use crate::map::Cell;
use crate::template::ZoneKind;
use crate::work::Work;
use grid_core::LevelRng;
use grid_core::rand::Rng;

/// Automaton iterations.
pub const STEPS: usize = 2;

/// Initial obstacle chance of a zone kind.
pub fn fill_chance(kind: ZoneKind) -> f64 {
    match kind {
        ZoneKind::Junction => 0.36,
        _ => 0.45,
    }
}

pub(crate) fn place(w: &mut Work, rng: &mut LevelRng) {
    let n = w.side * w.side;
    let chance: Vec<u32> = w
        .zones
        .iter()
        .map(|z| (fill_chance(z.kind) * u32::MAX as f64) as u32)
        .collect();
    for i in 0..n {
        if w.cells[i] == Cell::Free as u8 && rng.next_u32() < chance[w.zone_of[i] as usize] {
            w.cells[i] = Cell::Obstacle as u8;
        }
    }
    let side = w.side as i64;
    let mut next = w.cells.clone();
    for _ in 0..STEPS {
        for y in 0..side {
            for x in 0..side {
                let i = (y * side + x) as usize;
                let c = Cell::from_id(w.cells[i]);
                if !matches!(c, Cell::Free | Cell::Obstacle) {
                    next[i] = w.cells[i];
                    continue;
                }
                let mut walls = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        let (nx, ny) = (x + dx, y + dy);
                        if nx < 0 || ny < 0 || nx >= side || ny >= side {
                            walls += 1;
                            continue;
                        }
                        if matches!(
                            Cell::from_id(w.cells[(ny * side + nx) as usize]),
                            Cell::Obstacle | Cell::Edge
                        ) {
                            walls += 1;
                        }
                    }
                }
                next[i] = if walls >= 5 {
                    Cell::Obstacle as u8
                } else if walls <= 3 {
                    Cell::Free as u8
                } else {
                    w.cells[i]
                };
            }
        }
        std::mem::swap(&mut w.cells, &mut next);
    }
}
