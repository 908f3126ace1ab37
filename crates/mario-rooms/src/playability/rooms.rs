//! Room trials: each middle room alone between two strips of ground, so a room library can
//! be checked room by room before any level is assembled.

use super::{PlayReport, check};
use crate::level::MarioLevel;
use crate::library::Library;
use crate::macros::Macro;
use crate::room::Room;
use grid_core::Seed;

/// A room that failed its trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomFailure {
    /// The room's name.
    pub room: String,
    /// Its file.
    pub file: String,
    /// The macro seed of the failing trial.
    pub seed: u64,
    /// What the checker found.
    pub report: PlayReport,
}

/// The trial level of a middle room (one with an entrance and an exit): the room with its
/// macros run for `seed`, two rows of air above, six columns of ground before its entrance
/// (with `M`) and after its last exit (with `F`), and its ground continued below. `None`
/// for start and finish rooms.
pub fn trial_level(room: &Room, macros: &[Macro], seed: u64) -> Option<MarioLevel> {
    let (Some((_, ey)), Some(&(_, fy))) = (room.entrance, room.exits.last()) else {
        return None;
    };
    let body = room.instantiate(macros, &mut Seed(seed).rng());
    let (w, h, top) = (body.width + 12, body.height + 4, 2);
    let mut cells = vec![b'-'; w * h];
    for y in 0..body.height {
        let at = (top + y) * w + 6;
        cells[at..at + body.width].copy_from_slice(body.row(y));
    }
    let last = body.row(body.height - 1);
    for y in top + body.height..h {
        for (x, &c) in last.iter().enumerate() {
            cells[y * w + 6 + x] = if c == b'X' || c == b'#' { c } else { b'-' };
        }
    }
    for y in top + ey + 1..h {
        cells[y * w..y * w + 6].fill(b'X');
    }
    for y in top + fy + 1..h {
        cells[y * w + w - 6..(y + 1) * w].fill(b'X');
    }
    cells[(top + ey) * w + 1] = b'M';
    cells[(top + fy) * w + w - 2] = b'F';
    MarioLevel::from_cells(w, h, cells).ok()
}

/// Runs the trial of every middle room of `lib` for macro seeds `0..draws`; returns the
/// failures (first failing seed per room), in library order.
pub fn unplayable_rooms(lib: &Library, draws: u64) -> Vec<RoomFailure> {
    let mut out = Vec::new();
    for room in &lib.rooms {
        for seed in 0..draws {
            let Some(level) = trial_level(room, &lib.macros, seed) else {
                break;
            };
            let report = check(&level);
            if !report.playable {
                out.push(RoomFailure {
                    room: room.name.clone(),
                    file: room.file.clone(),
                    seed,
                    report,
                });
                break;
            }
        }
    }
    out
}
