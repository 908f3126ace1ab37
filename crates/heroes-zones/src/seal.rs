//! Step 7b: sealed borders. A hero steps diagonally, so two open cells of different zones
//! that touch, even only at a corner, are a way across the border. The borders drawn in
//! step 3 (every cell with a side neighbour in another zone) have no such gap; the passages
//! open border cells for their approaches, and near a third zone an approach can touch that
//! zone's ground at a corner. This step closes every gap (the open cell that is plain ground
//! becomes border), and the final check ([`crate::check`]) fails the attempt on any gap left.
//!
//! The two cells of a passage, and any cell touching one of them, are not gaps: the passage's
//! guard stands on it, so a hero stepping there meets the guard (its zone of control is the
//! 3x3 square around it).

use crate::map::{Cell, Realised};
use crate::work::Work;

/// The 8 neighbour offsets, row-major (grid-core's, so every walk in the crate steps alike).
pub(crate) fn steps() -> impl Iterator<Item = (i64, i64)> {
    grid_core::Connectivity::Eight
        .offsets()
        .iter()
        .map(|&(dx, dy)| (dx as i64, dy as i64))
}

/// Rounds of closing at most (each closes every gap found; closing only removes open cells).
pub const ROUNDS: usize = 4;

/// Gaps `(i, j)` with `i < j`: cells of different zones, neither a wall, that touch at a side
/// or a corner, except where one of them is a cell of a passage joining those two zones (its
/// two cells, or a passage cell of a `wide` connection's opening).
pub(crate) fn gaps_in(
    side: usize,
    cells: &[u8],
    zone_of: &[u8],
    passages: &[[usize; 2]],
) -> Vec<(usize, usize)> {
    let open = |i: usize| !Cell::from_id(cells[i]).blocked();
    let excused = |i: usize, j: usize| {
        passages.iter().any(|pq| {
            let (zp, zq) = (zone_of[pq[0]], zone_of[pq[1]]);
            let (zi, zj) = (zone_of[i], zone_of[j]);
            ((zp, zq) == (zi, zj) || (zp, zq) == (zj, zi))
                && (pq.contains(&i)
                    || pq.contains(&j)
                    || Cell::from_id(cells[i]) == Cell::Passage
                    || Cell::from_id(cells[j]) == Cell::Passage)
        })
    };
    let mut out = Vec::new();
    for i in 0..side * side {
        if !open(i) {
            continue;
        }
        let (x, y) = ((i % side) as i64, (i / side) as i64);
        for (dx, dy) in steps().skip(4) {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx as usize >= side || ny as usize >= side {
                continue;
            }
            let j = ny as usize * side + nx as usize;
            if zone_of[j] != zone_of[i] && open(j) && !excused(i, j) {
                out.push((i.min(j), i.max(j)));
            }
        }
    }
    out.sort_unstable();
    out
}

/// The realised passages' cells.
pub(crate) fn passages(realised: &[Option<Realised>]) -> Vec<[usize; 2]> {
    realised
        .iter()
        .filter_map(|r| match r {
            Some(Realised::Passage(pq)) => Some(*pq),
            _ => None,
        })
        .collect()
}

/// The gaps of the map under construction.
pub(crate) fn gaps(w: &Work) -> Vec<(usize, usize)> {
    gaps_in(w.side, &w.cells, &w.zone_of, &passages(&w.realised))
}

/// Whether closing `i` keeps every passage and object reachable: plain ground, or an
/// approach with no passage or entrance beside it (the far cell of a passage's approach).
fn closable(w: &Work, i: usize) -> bool {
    match w.cell(i) {
        Cell::Free => true,
        Cell::Approach => !crate::work::SIDES.iter().any(|&(dx, dy)| {
            w.offset(i, dx, dy)
                .is_some_and(|n| matches!(w.cell(n), Cell::Passage | Cell::Entrance))
        }),
        _ => false,
    }
}

/// Closes the gaps: of each pair, the plain-ground cell (else a closable approach) becomes
/// border. Returns the gaps it could not close.
pub(crate) fn run(w: &mut Work) -> usize {
    let mut left = 0;
    for _ in 0..ROUNDS {
        let found = gaps(w);
        if found.is_empty() {
            return 0;
        }
        left = 0;
        let mut closed = 0;
        for (i, j) in found {
            if w.cell(i).blocked() || w.cell(j).blocked() {
                continue;
            }
            let pick = [i, j]
                .into_iter()
                .find(|&c| w.cell(c) == Cell::Free)
                .or_else(|| [i, j].into_iter().find(|&c| closable(w, c)));
            match pick {
                Some(c) => {
                    w.set(c, Cell::Edge);
                    closed += 1;
                }
                None => left += 1,
            }
        }
        if closed == 0 {
            break;
        }
    }
    left
}
