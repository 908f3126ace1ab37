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

/// Obstacle clumps of at most this many cells (or a [`SPECK_SHARE`]th of their zone's area,
/// if larger), not touching a border, become free ground.
pub const SPECK: u32 = 20;
/// See [`SPECK`].
pub const SPECK_SHARE: u32 = 150;

/// Clears specks: clumps (8-connected) of obstacle cells of at most [`SPECK`] cells (more in
/// large zones) that touch no zone border. Only frees ground, so nothing becomes
/// unreachable; what stays are the larger masses and the ridges along the borders.
pub(crate) fn despeckle(w: &mut Work) {
    let side = w.side;
    let solid = |c: u8| matches!(Cell::from_id(c), Cell::Obstacle | Cell::Edge);
    let parts = grid_core::components_by_key(side, side, grid_core::Connectivity::Eight, |i| {
        solid(w.cells[i]).then_some(())
    });
    let mut has_edge = vec![false; parts.sizes.len()];
    for (i, &l) in parts.labels.as_slice().iter().enumerate() {
        if l != grid_core::Components::NONE && w.cells[i] == Cell::Edge as u8 {
            has_edge[l as usize] = true;
        }
    }
    for (i, &l) in parts.labels.as_slice().iter().enumerate() {
        let limit = SPECK.max(w.zones[w.zone_of[i] as usize].area / SPECK_SHARE);
        if l != grid_core::Components::NONE
            && !has_edge[l as usize]
            && parts.sizes[l as usize] <= limit
        {
            w.cells[i] = Cell::Free as u8;
        }
    }
}

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
