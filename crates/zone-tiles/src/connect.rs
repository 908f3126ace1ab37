//! Connectivity: every floor cell of the world in one 4-connected area, decided locally.
//!
//! **Floor and wall.** A cell that is *on* is wall, a cell that is *off* is floor. The rules
//! work on the world's cell lattice in global coordinates: 3 cells per zone in reference
//! mode, 2 nodes per zone (shared borders) in seamless mode.
//!
//! **Regions.** The lattice is cut into square *regions* of [`REGION_ZONES`] x
//! [`REGION_ZONES`] zones (12x12 cells, or 8x8 nodes, so a 16x16-zone chunk is 4x4 regions;
//! a node on a region border belongs to the region to its right or below). Each region has a
//! *hub*, the cell at its centre, and a *door* on each of its four sides, at a hashed
//! position that is the same for the two regions sharing the side: every region is joined
//! to all four neighbours (a grid of regions, with loops, rather than a tree, so that any
//! rectangle of regions is joined through its own regions).
//!
//! **The cell rules**, per region:
//!
//! 1. from each door in turn that the hub's floor does not reach yet, the cheapest path to
//!    the hub is dug: a step onto floor costs 1 and a step onto wall [`WALL_STEP`] (A* with a
//!    fixed tie-break), so passages follow the caves and cut through wall only where the
//!    caves do not already join;
//! 2. floor is the noise's floor plus the dug cells;
//! 3. floor not joined to the hub *inside the region* becomes wall.
//!
//! So every floor cell is joined to its region's hub, each hub to its four doors, and the
//! two regions' cells at a shared door touch. A region's cells depend only on its own noise
//! and its own doors, so a chunk generated alone agrees with its neighbours, and the caves
//! keep their shape: only passages are added and only unreachable pockets filled.
//!
//! **Seamless mode** needs one more rule, because a zone-aligned window there also holds the
//! nodes of its far border, which are the first column (row) of the next regions. Steps 1
//! and 3 do not use a region's first column and row (the region's corner node is wall), and
//! then:
//!
//! 4. a floor run of a region's first column (row) stays floor only if it touches a kept
//!    floor node of the region to its left (above) *and* one of its own region; the doors
//!    always do.
//!
//! **What a window sees.** Any window made of whole regions (its origin and size multiples
//! of [`REGION_ZONES`] zones, such as every chunk) is one floor area on its own, in both
//! modes. A window cut elsewhere may hold pockets of floor near its edges that join the rest
//! only through zones outside it: every floor cell of any window is joined to every other
//! within the window grown by [`REGION_ZONES`] zones on each side (all tested).

use crate::lattice::lattice_hash;
use grid_core::connectivity::Connectivity;
use grid_core::rng::mix64;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Which floor connectivity a world guarantees (`ZoneConfig::connected`).
///
/// Serialised as `false` ([`Connected::Off`]), `true` ([`Connected::Regions`]) or
/// `"windows"` ([`Connected::Windows`]); `"off"` and `"regions"` are read too, so settings
/// written as a bool keep their meaning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Connected {
    /// The noise's caves as they are.
    #[default]
    Off,
    /// All floor of the world is one area; every window made of whole regions (every chunk)
    /// is one area on its own; the caves keep their shape (this module).
    Regions,
    /// Every window of at least [`crate::blocks::MACRO_ZONES`] zones on a side, at any
    /// origin, is one area on its own; walls become blocks of zones ([`crate::blocks`]).
    Windows,
}

impl Connected {
    /// Parses `off`, `regions` or `windows`.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "off" | "false" => Some(Connected::Off),
            "regions" | "true" => Some(Connected::Regions),
            "windows" => Some(Connected::Windows),
            _ => None,
        }
    }
}

impl Serialize for Connected {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Connected::Off => s.serialize_bool(false),
            Connected::Regions => s.serialize_bool(true),
            Connected::Windows => s.serialize_str("windows"),
        }
    }
}

impl<'de> Deserialize<'de> for Connected {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Flag(bool),
            Name(String),
        }
        match Repr::deserialize(d)? {
            Repr::Flag(false) => Ok(Connected::Off),
            Repr::Flag(true) => Ok(Connected::Regions),
            Repr::Name(name) => Connected::parse(&name).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "connected {}: expected false, true, \"off\", \"regions\" or \"windows\"",
                    grid_core::text::excerpt(&name)
                ))
            }),
        }
    }
}

/// Side of a region, in zones.
pub const REGION_ZONES: i64 = 4;
/// The cost of a step onto a wall cell when digging from a door to the hub (a step onto
/// floor costs 1): a passage makes a detour of up to this many cells through the caves
/// rather than dig one more wall cell.
pub const WALL_STEP: u32 = 6;

/// A rectangle of the world's cell lattice (global coordinates), wall flags row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    /// Global lattice column of `wall[0]`.
    pub u0: i64,
    /// Global lattice row of `wall[0]`.
    pub v0: i64,
    /// Cells across.
    pub width: usize,
    /// Wall flags.
    pub wall: Vec<bool>,
}

impl Lattice {
    fn at(&self, u: i64, v: i64) -> usize {
        (v - self.v0) as usize * self.width + (u - self.u0) as usize
    }
}

/// A door's offset along a region side of `r` cells: hashed, never at the side's ends.
fn door(seed: u64, rx: i64, ry: i64, axis: u64, r: i64) -> i64 {
    1 + (lattice_hash(seed ^ (axis + 11), rx, ry) % (r - 2) as u64) as i64
}

/// Applies the cell rules of the module docs to every region of `lattice`, whose
/// rectangle must be made of whole regions of `r` cells (`r = period * REGION_ZONES`,
/// `period` = cells per zone). `shared` selects seamless mode's rule 4; the regions of the
/// lattice's first column and row then lack their neighbours and are left unfinished (a
/// caller computes one region more on those sides than it reads).
pub fn connect_regions(lattice: &mut Lattice, r: i64, seed: u64, shared: bool) {
    let height = (lattice.wall.len() / lattice.width.max(1)) as i64;
    let (rx0, ry0) = (lattice.u0.div_euclid(r), lattice.v0.div_euclid(r));
    let (rw, rh) = (lattice.width as i64 / r, height / r);
    let door_seed = mix64(seed ^ 0x646f_6f72);
    let ru = r as usize;
    let mut floor = vec![false; ru * ru];
    // The cells that rules 1 and 3 may use: all, or all but the first column and row.
    let inner = |i: usize| !shared || (!i.is_multiple_of(ru) && i >= ru);
    for ry in ry0..ry0 + rh {
        for rx in rx0..rx0 + rw {
            let (u0, v0) = (rx * r, ry * r);
            for (i, f) in floor.iter_mut().enumerate() {
                let (x, y) = ((i % ru) as i64, (i / ru) as i64);
                *f = !lattice.wall[lattice.at(u0 + x, v0 + y)];
            }
            let doors = region_doors(door_seed, rx, ry, r);
            dig_passages(&mut floor, r, doors, inner);
            let hub = ru / 2 * ru + ru / 2;
            let reached =
                grid_core::connectivity::flood_fill(ru, ru, hub, Connectivity::Four, |i| {
                    floor[i] && inner(i)
                });
            let mut keep: Vec<bool> = (0..ru * ru).map(|i| !inner(i) && floor[i]).collect();
            for i in reached.into_iter().chain(doors) {
                keep[i] = true;
            }
            keep[0] &= !shared;
            for (i, &k) in keep.iter().enumerate() {
                let (x, y) = ((i % ru) as i64, (i / ru) as i64);
                let at = lattice.at(u0 + x, v0 + y);
                lattice.wall[at] = !k;
            }
        }
    }
    if shared {
        for ry in ry0 + 1..ry0 + rh {
            for rx in rx0 + 1..rx0 + rw {
                shared_borders(lattice, rx * r, ry * r, r);
            }
        }
    }
}

/// Rule 4 on the region whose first cell is `(u0, v0)`: floor runs of its first column
/// (row) stay only where they touch kept floor on both sides.
fn shared_borders(lattice: &mut Lattice, u0: i64, v0: i64, r: i64) {
    // (first cell of the border, step along it, step across it)
    for ((u, v), along, across) in [
        ((u0, v0 + 1), (0, 1), (1, 0)),
        ((u0 + 1, v0), (1, 0), (0, 1)),
    ] {
        let mut k = 0;
        while k < r - 1 {
            let cell = |k: i64| (u + along.0 * k, v + along.1 * k);
            let floor = |lattice: &Lattice, (a, b): (i64, i64)| !lattice.wall[lattice.at(a, b)];
            if !floor(lattice, cell(k)) {
                k += 1;
                continue;
            }
            let start = k;
            let (mut before, mut after) = (false, false);
            while k < r - 1 && floor(lattice, cell(k)) {
                let (a, b) = cell(k);
                before |= floor(lattice, (a - across.0, b - across.1));
                after |= floor(lattice, (a + across.0, b + across.1));
                k += 1;
            }
            if !(before && after) {
                for j in start..k {
                    let (a, b) = cell(j);
                    let at = lattice.at(a, b);
                    lattice.wall[at] = true;
                }
            }
        }
    }
}

/// The four door cells of region `(rx, ry)` (flat indices in the region): east, west,
/// south, north. A door sits on the shared side at the same hashed offset for both regions.
fn region_doors(seed: u64, rx: i64, ry: i64, r: i64) -> [usize; 4] {
    let last = r - 1;
    let cell = |x: i64, y: i64| (y * r + x) as usize;
    [
        cell(last, door(seed, rx, ry, 0, r)),
        cell(0, door(seed, rx - 1, ry, 0, r)),
        cell(door(seed, rx, ry, 1, r), last),
        cell(door(seed, rx, ry - 1, 1, r), 0),
    ]
}

/// Digs, from each door in turn that the hub's floor does not reach yet, the cheapest path
/// to the hub (centre) of an `r x r` region through the cells `usable` allows (besides the
/// door itself): a step onto floor costs 1, onto wall [`WALL_STEP`]; the wall cells on the
/// path become floor, so later doors can follow earlier passages.
fn dig_passages(
    floor: &mut [bool],
    r: i64,
    doors: [usize; 4],
    usable: impl Fn(usize) -> bool + Copy,
) {
    let ru = r as usize;
    let hub = ru / 2 * ru + ru / 2;
    floor[hub] = true;
    for start in doors {
        let reached = grid_core::connectivity::flood_fill(ru, ru, hub, Connectivity::Four, |i| {
            floor[i] && (usable(i) || i == start)
        });
        if reached.contains(&start) {
            continue;
        }
        let path = grid_core::astar(ru, ru, start, hub, Connectivity::Four, 1, |_, to| {
            usable(to).then_some(if floor[to] { 1 } else { WALL_STEP })
        });
        // Doors sit off the region's corners, so the inner cells always offer a path.
        for i in path.map(|p| p.cells).unwrap_or_default() {
            floor[i] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::connectivity::components;

    #[test]
    fn every_kept_floor_cell_reaches_the_hub_of_its_region() {
        // Random walls (55%) on 3x2 regions of 9 cells: afterwards each region's floor is one
        // area inside the region, holding the hub, and the whole window is one area.
        let (w, h) = (27usize, 18usize);
        let wall: Vec<bool> = (0..w * h)
            .map(|i| mix64(i as u64 ^ 77) % 100 < 55)
            .collect();
        let mut lattice = Lattice {
            u0: -9,
            v0: 18,
            width: w,
            wall: wall.clone(),
        };
        connect_regions(&mut lattice, 9, 5, false);
        for ry in 0..2 {
            for rx in 0..3 {
                let cell = |i: usize| (ry * 9 + i / 9) * w + rx * 9 + i % 9;
                assert!(!lattice.wall[cell(4 * 9 + 4)], "hub");
                let comps = components(9, 9, Connectivity::Four, |i| !lattice.wall[cell(i)]);
                assert_eq!(comps.count(), 1, "region {rx},{ry}");
            }
        }
        let whole = components(w, h, Connectivity::Four, |i| !lattice.wall[i]);
        assert_eq!(
            whole.count(),
            1,
            "the regions are joined through their doors"
        );
        assert_ne!(lattice.wall, wall, "passages dug, pockets filled");
    }
}
