//! Step 11: decorations. Every wall cell (obstacle or zone border) is covered by exactly one
//! obstacle avatar of the catalogue, so the game blocks what the generator blocked, and
//! nothing else:
//!
//! - **multi-cell pieces first** ([`crate::hmm::ids::pieces`]: 3x3 mountains, 4-cell steps,
//!   2x2 mountains, rocks and mires, 3-cell corners, pairs), packed greedily in row-major
//!   order: the first uncovered wall cell gets the largest piece that fits with that cell as
//!   its own first cell, so no cell is skipped and pieces never overlap. A piece covers wall
//!   cells only (it may span the two sides of a zone border), so it never blocks a passage,
//!   an approach, a road or a guard;
//! - **lakes** ([`crate::hmm::ids::lakes`]) for 2x2 squares of filled pockets (obstacles of
//!   no feature);
//! - **single-cell avatars as filler** where no piece fits (plants on forests, rocks
//!   elsewhere, as the surface offers them).
//!
//! Then an obstacle cell left for a single-cell avatar on the rim of open ground (a side
//! neighbour walkable), whose eight neighbours all lie in its zone and hold no object,
//! building, entrance or guard, becomes open ground ([`LONERS_FREED`]): it closes no border (every step through
//! it stays inside the zone), opens no hole, and freeing ground cannot make anything
//! unreachable. What stays single-cell is what no piece fits: one-cell-wide borders, cells
//! between pieces.

use crate::hmm::ids::{self, Footprint};
use crate::map::{Cell, Feature};
use crate::work::Work;
use grid_core::rng::mix64;

/// Whether single-cell wall cells inside a zone are freed (see the module docs).
pub const LONERS_FREED: bool = true;

/// One obstacle avatar: its id, anchor (its `.hmm` position, the footprint's `(0, 0)`) and
/// the zone of the anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoration {
    /// Avatar id in `hmm.xml <Avatars>`.
    pub id: &'static str,
    /// Anchor x.
    pub x: u16,
    /// Anchor y.
    pub y: u16,
    /// Zone of the anchor cell.
    pub zone: u16,
}

impl Decoration {
    /// Blocked cells relative to the anchor (from [`ids::footprint`]).
    pub fn footprint(&self) -> Footprint {
        ids::footprint(self.id).unwrap_or(&[(0, 0)])
    }

    /// Whether it covers more than one cell.
    pub fn multi_cell(&self) -> bool {
        self.footprint().len() > 1
    }
}

fn wall(c: u8) -> bool {
    matches!(Cell::from_id(c), Cell::Obstacle | Cell::Edge)
}

/// The first cell of a footprint in row-major order.
fn first(fp: Footprint) -> (i8, i8) {
    fp.iter()
        .copied()
        .min_by_key(|&(dx, dy)| (dy, dx))
        .unwrap_or((0, 0))
}

/// Covers every wall cell of `w` with avatars (see the module docs); frees lone wall cells
/// inside zones first.
pub(crate) fn run(w: &mut Work) -> Vec<Decoration> {
    let out = pack(w);
    if !LONERS_FREED {
        return out;
    }
    let side = w.side;
    let mut occupied = vec![false; side * side];
    for o in &w.objects {
        occupied[w.anchor(o)] = true;
    }
    let mut freed = 0;
    for d in out.iter().filter(|d| !d.multi_cell()) {
        let i = d.y as usize * side + d.x as usize;
        if lone(w, i, &occupied) {
            w.cells[i] = Cell::Free as u8;
            w.feature[i] = Feature::None as u8;
            freed += 1;
        }
    }
    w.stats.freed_walls = freed;
    if freed == 0 {
        return out;
    }
    // Freeing can cut specks off a feature: clear them as the obstacle step does, then
    // cover the walls left.
    crate::obstacles::despeckle(w);
    pack(w)
}

/// A single obstacle cell on the rim of open ground (a side neighbour is walkable, so it
/// opens no hole) whose eight neighbours lie in its zone (none outside the map), none an
/// object's cell, a building, an entrance or a guard.
fn lone(w: &Work, i: usize, occupied: &[bool]) -> bool {
    w.cell(i) == Cell::Obstacle
        && w.walkable_sides(i).next().is_some()
        && crate::seal::steps().all(|(dx, dy)| {
            w.offset(i, dx, dy).is_some_and(|n| {
                w.zone_of[n] == w.zone_of[i]
                    && !occupied[n]
                    && !matches!(w.cell(n), Cell::Building | Cell::Entrance | Cell::Guard)
            })
        })
}

fn pack(w: &Work) -> Vec<Decoration> {
    let side = w.side;
    let mut covered = vec![false; side * side];
    let mut out = Vec::new();
    for i in 0..side * side {
        if covered[i] || !wall(w.cells[i]) {
            continue;
        }
        let (x, y) = (i % side, i / side);
        let surface = w.zones[w.zone_of[i] as usize].surface;
        let hash = mix64(((x as u64) << 32) | y as u64);
        let fits = |fp: Footprint| -> Option<usize> {
            let (fx, fy) = first(fp);
            let anchor = w.offset(i, -(fx as i64), -(fy as i64))?;
            fp.iter()
                .all(|&(dx, dy)| {
                    w.offset(anchor, dx as i64, dy as i64)
                        .is_some_and(|c| wall(w.cells[c]) && !covered[c])
                })
                .then_some(anchor)
        };
        let feature = |c: usize| {
            if w.cell(c) == Cell::Obstacle {
                Feature::from_id(w.feature[c])
            } else {
                Feature::Ridge
            }
        };
        let mut placed: Option<(&'static str, Footprint, usize)> = None;
        let lakes = ids::lakes(surface);
        if !lakes.is_empty()
            && let Some(a) = fits(ids::SQUARE2)
            && ids::SQUARE2.iter().all(|&(dx, dy)| {
                w.offset(a, dx as i64, dy as i64)
                    .is_some_and(|c| w.cell(c) == Cell::Obstacle && feature(c) == Feature::None)
            })
        {
            placed = Some((lakes[hash as usize % lakes.len()], ids::SQUARE2, a));
        }
        let pieces = ids::pieces(surface);
        let mut k = 0;
        while placed.is_none() && k < pieces.len() {
            let size = pieces[k].1.len();
            // Every piece of this size and shape group that fits, one picked by the cell.
            let group: Vec<(&'static str, Footprint, usize)> = pieces[k..]
                .iter()
                .take_while(|p| p.1.len() == size)
                .filter_map(|&(id, fp)| fits(fp).map(|a| (id, fp, a)))
                .collect();
            k += pieces[k..].iter().take_while(|p| p.1.len() == size).count();
            if !group.is_empty() {
                placed = Some(group[(hash >> 8) as usize % group.len()]);
            }
        }
        let (id, fp, anchor) = match placed {
            Some(p) => p,
            None => {
                let list = ids::singles(surface);
                let plants: Vec<&'static str> = list
                    .iter()
                    .copied()
                    .filter(|id| ids::is_plant(id) == (feature(i) == Feature::Forest))
                    .collect();
                let list = if plants.is_empty() { list } else { &plants[..] };
                if list.is_empty() {
                    continue;
                }
                (list[hash as usize % list.len()], &[(0i8, 0i8)][..], i)
            }
        };
        for &(dx, dy) in fp {
            if let Some(c) = w.offset(anchor, dx as i64, dy as i64) {
                covered[c] = true;
            }
        }
        out.push(Decoration {
            id,
            x: (anchor % side) as u16,
            y: (anchor / side) as u16,
            zone: w.zone_of[anchor] as u16,
        });
    }
    out
}
