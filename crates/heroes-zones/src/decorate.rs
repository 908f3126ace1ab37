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
//! Then a wall cell (obstacle or border) left for a single-cell avatar on the rim of open
//! ground (a side neighbour walkable), whose neighbours are each in its zone or a wall (or off
//! the map) and hold no object, building, entrance or guard, becomes open ground
//! ([`LONERS_FREED`]): no open cell of another zone touches it, so it opens no gap in a
//! border (every step through it stays inside the zone), it opens no hole and no pocket, and
//! freeing ground cannot make anything
//! unreachable. Last, free ground beside the walls still left to single-cell avatars is walled
//! where that lets a 2x2 piece fit and cuts no way off ([`crate::thicken`]), and the walls are
//! packed again. What stays single-cell is what no piece fits even so.

use crate::hmm::ids::{self, Footprint};
use crate::map::{Cell, Feature};
use crate::work::Work;
use grid_core::rng::mix64;

/// Whether single-cell wall cells inside a zone are freed (see the module docs).
pub const LONERS_FREED: bool = true;

/// Rounds of walling free ground beside thin walls ([`crate::thicken`]) and packing again.
pub const THICKEN_ROUNDS: usize = 1;

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

/// Covers every wall cell of `w` with avatars (see the module docs): packs, frees lone wall
/// cells, walls free ground beside thin walls, packs again.
pub(crate) fn run(w: &mut Work) -> Vec<Decoration> {
    let mut out = pack(w);
    if LONERS_FREED {
        out = free_loners(w, out);
    }
    // Walls still left to single-cell avatars get free ground beside them walled where a
    // 2x2 piece then fits, and the walls are packed again.
    for _ in 0..THICKEN_ROUNDS {
        let walled = crate::thicken::run(w, &out);
        if walled == 0 {
            break;
        }
        w.stats.thickened_walls += walled;
        out = pack(w);
        // The new walls can leave other wall cells lone.
        if LONERS_FREED {
            out = free_loners(w, out);
        }
    }
    out
}

/// Frees the [`lone`] cells of the single-cell avatars of `out` and packs again; keeps the
/// map as it was (and returns `out`) if nothing is freed or a border would open anywhere.
fn free_loners(w: &mut Work, out: Vec<Decoration>) -> Vec<Decoration> {
    let side = w.side;
    let mut occupied = vec![false; side * side];
    for o in &w.objects {
        occupied[w.anchor(o)] = true;
    }
    let (cells, feature) = (w.cells.clone(), w.feature.clone());
    let mut freed = 0;
    for d in out.iter().filter(|d| !d.multi_cell()) {
        let i = d.y as usize * side + d.x as usize;
        if lone(w, i, &occupied) {
            w.cells[i] = Cell::Free as u8;
            w.feature[i] = Feature::None as u8;
            freed += 1;
        }
    }
    if freed == 0 {
        return out;
    }
    // Freeing can cut specks off a feature: clear them as the obstacle step does. A speck
    // cleared beside a freed border cell could open a border: then nothing is freed.
    crate::obstacles::despeckle(w);
    if !crate::seal::gaps(w).is_empty() {
        (w.cells, w.feature) = (cells, feature);
        return out;
    }
    w.stats.freed_walls += freed;
    pack(w)
}

/// A single wall cell on the rim of open ground (a side neighbour is walkable, so it opens no
/// hole) whose neighbours on the map are each in its zone or a wall (so no open cell of
/// another zone touches it: freeing it opens no gap in a border), none an object's cell, a
/// building, an entrance or a guard (so no pocket's ring is opened).
fn lone(w: &Work, i: usize, occupied: &[bool]) -> bool {
    matches!(w.cell(i), Cell::Obstacle | Cell::Edge)
        && w.walkable_sides(i).next().is_some()
        && crate::seal::steps().all(|(dx, dy)| {
            w.offset(i, dx, dy).is_none_or(|n| {
                (w.zone_of[n] == w.zone_of[i] || w.cell(n).blocked())
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
        // The largest piece that strands no wall cell beside it (leaves it no uncovered wall
        // side neighbour, so only a single-cell avatar could cover it); else the largest.
        let mut fallback = None;
        while placed.is_none() && k < pieces.len() {
            let size = pieces[k].1.len();
            // Every piece of this size and shape group that fits, one picked by the cell.
            let group: Vec<(&'static str, Footprint, usize)> = pieces[k..]
                .iter()
                .take_while(|p| p.1.len() == size)
                .filter_map(|&(id, fp)| fits(fp).map(|a| (id, fp, a)))
                .collect();
            k += pieces[k..].iter().take_while(|p| p.1.len() == size).count();
            if group.is_empty() {
                continue;
            }
            let clean: Vec<_> = group
                .iter()
                .copied()
                .filter(|&(_, fp, a)| strands(w, &covered, fp, a) == 0)
                .collect();
            if !clean.is_empty() {
                placed = Some(clean[(hash >> 8) as usize % clean.len()]);
            } else if fallback.is_none() {
                fallback = Some(group[(hash >> 8) as usize % group.len()]);
            }
        }
        placed = placed.or(fallback);
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

/// Uncovered wall cells beside the piece `fp` at `anchor` that it would leave with no
/// uncovered wall side neighbour (every piece is side-connected, so only a single-cell
/// avatar could cover them).
fn strands(w: &Work, covered: &[bool], fp: Footprint, anchor: usize) -> usize {
    let cells: Vec<usize> = fp
        .iter()
        .filter_map(|&(dx, dy)| w.offset(anchor, dx as i64, dy as i64))
        .collect();
    let open = |c: usize| wall(w.cells[c]) && !covered[c] && !cells.contains(&c);
    let mut out = 0;
    let mut seen: Vec<usize> = Vec::new();
    for &c in &cells {
        for n in crate::work::SIDES
            .iter()
            .filter_map(|&(dx, dy)| w.offset(c, dx, dy))
        {
            if open(n) && !seen.contains(&n) {
                seen.push(n);
                let alone = !crate::work::SIDES
                    .iter()
                    .filter_map(|&(dx, dy)| w.offset(n, dx, dy))
                    .any(open);
                out += usize::from(alone);
            }
        }
    }
    out
}
