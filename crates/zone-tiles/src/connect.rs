//! Connectivity: every floor cell of the world in one 4-connected area, decided locally.
//!
//! **Floor and wall.** A cell that is *on* is wall, a cell that is *off* is floor. The rules
//! work on the world's cell lattice in global coordinates: 3 cells per zone in reference
//! mode, 2 nodes per zone (shared borders) in seamless mode.
//!
//! **Regions.** The lattice is cut into square *regions* of [`REGION_ZONES`] x
//! [`REGION_ZONES`] zones (12x12 cells, or 8x8 nodes, so a 16x16-zone chunk is 4x4 regions;
//! a node on a region border belongs to the region to its right or below). Each region has a
//! *hub*, the cell at its centre.
//!
//! **The spanning structure** joins the regions: the region lattice is cut into blocks of
//! [`BLOCK`] x [`BLOCK`] regions; inside each block a random spanning tree joins all its
//! regions (Kruskal over the block's 112 inner edges, weighted by a hash of
//! `(seed, block, edge)`); each block is joined to its east and south neighbours through one
//! edge at a hashed row or column of the shared border. Whether two regions are joined is a
//! pure function of `(seed, edge)` that looks at the one or two blocks it touches.
//!
//! **The cell rules**, per region:
//!
//! 1. for each joined neighbour, a one-cell corridor runs from the hub straight to a *door*
//!    on the shared side (at a hashed position, the same for both regions), then along the
//!    side to it: the two regions' corridor ends touch through the door;
//! 2. floor is the noise's floor plus the corridors;
//! 3. floor not joined to the hub *inside the region* becomes wall.
//!
//! So every floor cell is joined to its region's hub, and the corridors join the hubs along
//! the spanning structure: all floor is one 4-connected area. A region's cells depend only on
//! its own noise and its own edges, so a chunk generated alone agrees with its neighbours,
//! and the noise's caves keep their shape: corridors are added only one cell wide, and only
//! the pockets that the region cannot reach are filled.
//!
//! **What a window sees.** A window of the world cuts the spanning structure: two parts of
//! it may be joined only through zones outside the window. Every floor cell of a window is
//! joined to every other within the window grown by `BLOCK * REGION_ZONES` zones on each
//! side, and in reference mode a window aligned to the blocks is one area on its own (both
//! tested).

use crate::lattice::lattice_hash;
use grid_core::connectivity::Connectivity;
use grid_core::rng::mix64;

/// Side of a block of the spanning structure, in regions.
pub const BLOCK: i64 = 8;
/// Side of a region, in zones.
pub const REGION_ZONES: i64 = 4;
const B: usize = BLOCK as usize;

/// The edges of the spanning structure (which regions are joined) over a range of blocks.
#[derive(Clone, Debug)]
pub struct Passages {
    seed: u64,
    /// First block column and row held.
    bx0: i64,
    by0: i64,
    /// Blocks across and down.
    bw: usize,
    bh: usize,
    /// Per block, per region `(x, y)` of the block at `y * B + x`: bit 0 = open to the east,
    /// bit 1 = open to the south (inside the block).
    trees: Vec<[u8; B * B]>,
}

impl Passages {
    /// The edges touching the regions `rx0..=rx1` x `ry0..=ry1` (region coordinates) and
    /// their east and south neighbours.
    pub fn covering(seed: u64, rx0: i64, ry0: i64, rx1: i64, ry1: i64) -> Self {
        let seed = mix64(seed ^ 0x636f_6e6e_6563_7421); // "connect!"
        let (bx0, by0) = (rx0.div_euclid(BLOCK), ry0.div_euclid(BLOCK));
        let (bx1, by1) = ((rx1 + 1).div_euclid(BLOCK), (ry1 + 1).div_euclid(BLOCK));
        let (bw, bh) = ((bx1 - bx0 + 1) as usize, (by1 - by0 + 1) as usize);
        let mut trees = Vec::with_capacity(bw * bh);
        for by in 0..bh as i64 {
            for bx in 0..bw as i64 {
                trees.push(block_tree(seed, bx0 + bx, by0 + by));
            }
        }
        Self {
            seed,
            bx0,
            by0,
            bw,
            bh,
            trees,
        }
    }

    fn tree(&self, bx: i64, by: i64) -> &[u8; B * B] {
        let (i, j) = ((bx - self.bx0) as usize, (by - self.by0) as usize);
        debug_assert!(i < self.bw && j < self.bh);
        &self.trees[j * self.bw + i]
    }

    /// Whether region `(rx, ry)` is joined to `(rx + 1, ry)`.
    pub fn east(&self, rx: i64, ry: i64) -> bool {
        let (bx, by) = (rx.div_euclid(BLOCK), ry.div_euclid(BLOCK));
        let (x, y) = (rx.rem_euclid(BLOCK), ry.rem_euclid(BLOCK));
        if x < BLOCK - 1 {
            self.tree(bx, by)[(y * BLOCK + x) as usize] & 1 != 0
        } else {
            y == border_slot(self.seed, bx, by, 0)
        }
    }

    /// Whether region `(rx, ry)` is joined to `(rx, ry + 1)`.
    pub fn south(&self, rx: i64, ry: i64) -> bool {
        let (bx, by) = (rx.div_euclid(BLOCK), ry.div_euclid(BLOCK));
        let (x, y) = (rx.rem_euclid(BLOCK), ry.rem_euclid(BLOCK));
        if y < BLOCK - 1 {
            self.tree(bx, by)[(y * BLOCK + x) as usize] & 2 != 0
        } else {
            x == border_slot(self.seed, bx, by, 1)
        }
    }
}

/// The row (`axis` 0, east border) or column (`axis` 1, south border) where block `(bx, by)`
/// opens to its neighbour.
fn border_slot(seed: u64, bx: i64, by: i64, axis: u64) -> i64 {
    (lattice_hash(seed ^ (axis + 1), bx, by) % BLOCK as u64) as i64
}

/// The random spanning tree of block `(bx, by)` (Kruskal over hashed edge weights).
fn block_tree(seed: u64, bx: i64, by: i64) -> [u8; B * B] {
    let key = lattice_hash(seed, bx, by);
    // Edge e < B*(B-1): east edge of region (e % (B-1), e / (B-1)); otherwise the south edge of
    // region (f % B, f / B) with f = e - B*(B-1).
    let inner = B * (B - 1);
    let mut edges: [(u64, u8); 2 * B * (B - 1)] = [(0, 0); 2 * B * (B - 1)];
    for (e, slot) in edges.iter_mut().enumerate() {
        *slot = (
            mix64(key ^ (e as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            e as u8,
        );
    }
    edges.sort_unstable();
    let mut parent: [u8; B * B] = std::array::from_fn(|i| i as u8);
    fn root(parent: &mut [u8; B * B], mut i: u8) -> u8 {
        while parent[i as usize] != i {
            let p = parent[i as usize];
            parent[i as usize] = parent[p as usize];
            i = p;
        }
        i
    }
    let mut tree = [0u8; B * B];
    for &(_, e) in &edges {
        let e = e as usize;
        let (a, b, bit) = if e < inner {
            let (x, y) = (e % (B - 1), e / (B - 1));
            (y * B + x, y * B + x + 1, 1)
        } else {
            let f = e - inner;
            (f, f + B, 2)
        };
        let (ra, rb) = (root(&mut parent, a as u8), root(&mut parent, b as u8));
        if ra != rb {
            parent[ra as usize] = rb;
            tree[a] |= bit;
        }
    }
    tree
}

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

/// Marks the straight segments `a -> b -> c` (each along one axis) in an `r x r` corridor map.
fn l_path(corridor: &mut [bool], r: i64, a: (i64, i64), b: (i64, i64), c: (i64, i64)) {
    for (from, to) in [(a, b), (b, c)] {
        let (mut x, mut y) = from;
        loop {
            corridor[(y * r + x) as usize] = true;
            if (x, y) == to {
                break;
            }
            x += (to.0 - x).signum();
            y += (to.1 - y).signum();
        }
    }
}

/// Applies the cell rules of the module docs to every region of `lattice`, whose
/// rectangle must be made of whole regions of `r` cells (`r = period * REGION_ZONES`,
/// `period` = cells per zone).
pub fn connect_regions(lattice: &mut Lattice, r: i64, seed: u64) {
    let height = (lattice.wall.len() / lattice.width.max(1)) as i64;
    let (rx0, ry0) = (lattice.u0.div_euclid(r), lattice.v0.div_euclid(r));
    let (rw, rh) = (lattice.width as i64 / r, height / r);
    let edges = Passages::covering(seed, rx0 - 1, ry0 - 1, rx0 + rw, ry0 + rh);
    let door_seed = mix64(seed ^ 0x646f_6f72);
    let ru = r as usize;
    let mut corridor = vec![false; ru * ru];
    for ry in ry0..ry0 + rh {
        for rx in rx0..rx0 + rw {
            let (u0, v0) = (rx * r, ry * r);
            corridor.fill(false);
            let (h, last) = (r / 2, r - 1);
            if edges.east(rx, ry) {
                let d = door(door_seed, rx, ry, 0, r);
                l_path(&mut corridor, r, (h, h), (h, d), (last, d));
            }
            if edges.east(rx - 1, ry) {
                let d = door(door_seed, rx - 1, ry, 0, r);
                l_path(&mut corridor, r, (h, h), (h, d), (0, d));
            }
            if edges.south(rx, ry) {
                let d = door(door_seed, rx, ry, 1, r);
                l_path(&mut corridor, r, (h, h), (d, h), (d, last));
            }
            if edges.south(rx, ry - 1) {
                let d = door(door_seed, rx, ry - 1, 1, r);
                l_path(&mut corridor, r, (h, h), (d, h), (d, 0));
            }
            let floor = |lattice: &Lattice, corridor: &[bool], i: usize| {
                let (x, y) = ((i % ru) as i64, (i / ru) as i64);
                corridor[i] || !lattice.wall[lattice.at(u0 + x, v0 + y)]
            };
            let start = (h * r + h) as usize;
            let reached =
                grid_core::connectivity::flood_fill(ru, ru, start, Connectivity::Four, |i| {
                    floor(lattice, &corridor, i)
                });
            let mut keep = vec![false; ru * ru];
            for i in reached {
                keep[i] = true;
            }
            for (i, &k) in keep.iter().enumerate() {
                let (x, y) = ((i % ru) as i64, (i / ru) as i64);
                let at = lattice.at(u0 + x, v0 + y);
                lattice.wall[at] = !k;
            }
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::connectivity::components;

    #[test]
    fn block_trees_span_their_block() {
        for (bx, by) in [(0, 0), (-3, 7), (1 << 28, -(1 << 28))] {
            let tree = block_tree(42, bx, by);
            let edges: u32 = tree.iter().map(|t| t.count_ones()).sum();
            assert_eq!(edges as usize, B * B - 1);
            // Flood from region 0 over the tree's edges reaches all regions.
            let mut seen = [false; B * B];
            let mut stack = vec![0usize];
            seen[0] = true;
            while let Some(z) = stack.pop() {
                let mut next = Vec::new();
                if tree[z] & 1 != 0 {
                    next.push(z + 1);
                }
                if tree[z] & 2 != 0 {
                    next.push(z + B);
                }
                if z % B > 0 && tree[z - 1] & 1 != 0 {
                    next.push(z - 1);
                }
                if z >= B && tree[z - B] & 2 != 0 {
                    next.push(z - B);
                }
                for n in next {
                    if !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn passages_do_not_depend_on_the_range_asked_for() {
        let small = Passages::covering(3, -2, -2, 3, 3);
        let large = Passages::covering(3, -40, -40, 40, 40);
        for zy in -2..=3 {
            for zx in -2..=3 {
                assert_eq!(small.east(zx, zy), large.east(zx, zy));
                assert_eq!(small.south(zx, zy), large.south(zx, zy));
            }
        }
    }

    #[test]
    fn every_kept_floor_cell_reaches_the_hub_of_its_region() {
        // Random walls (55%) on 3x2 regions of 9 cells: afterwards each region's floor is one
        // area inside the region, holding the hub, and the whole window is one area.
        let (w, h) = (27usize, 18usize);
        let wall: Vec<bool> = (0..w * h)
            .map(|i| mix64(i as u64 ^ 77) % 100 < 55)
            .collect();
        let before = wall.iter().filter(|&&x| !x).count();
        let mut lattice = Lattice {
            u0: -9,
            v0: 18,
            width: w,
            wall,
        };
        connect_regions(&mut lattice, 9, 5);
        for ry in 0..2 {
            for rx in 0..3 {
                let cell = |i: usize| (ry * 9 + i / 9) * w + rx * 9 + i % 9;
                assert!(!lattice.wall[cell(4 * 9 + 4)], "hub");
                let comps = components(9, 9, Connectivity::Four, |i| !lattice.wall[cell(i)]);
                assert_eq!(comps.count(), 1, "region {rx},{ry}");
            }
        }
        let after = lattice.wall.iter().filter(|&&x| !x).count();
        assert!(after > 0 && after != before);
    }
}
