//! Connectivity: every floor cell of the world in one 4-connected area, decided locally.
//!
//! **Floor and wall.** A cell that is *on* is wall, a cell that is *off* is floor.
//!
//! **The spanning structure.** The zone lattice is cut into blocks of [`BLOCK`] x [`BLOCK`]
//! zones. Inside each block a random spanning tree joins all its zones (Kruskal's algorithm
//! over the block's 112 inner edges, weighted by a hash of `(seed, block, edge)`); each block
//! is joined to its east and south neighbours through one edge at a hashed row or column of
//! the shared border. The result joins every zone of the plane, and whether an edge is open is
//! a pure function of `(seed, edge)` that looks only at the one or two blocks it touches.
//!
//! **The cell rules** (with the structure's edges called *passages*):
//!
//! 1. the centre cell of every zone is floor;
//! 2. the middle cell of a zone side is floor where a passage crosses that side (in seamless
//!    mode that cell is the node both zones share; in reference mode both zones open their
//!    cell, and the two cells touch);
//! 3. a corner cell stays floor only if a middle cell next to it is floor; in seamless mode,
//!    where the corner node is shared by 4 zones, only if the 2 middle nodes on opposite
//!    sides of it (left and right, or above and below) are both floor, so that in any window
//!    that holds the corner at least one of them is inside the window too.
//!
//! Every floor middle cell touches its zone's centre, every floor corner touches a floor
//! middle cell, and the passages join all centres, so all floor is one 4-connected area. A
//! zone's cells depend on its own noise and the passages around it, so a chunk generated
//! alone agrees with its neighbours.
//!
//! **What a window sees.** A window of the world cuts the spanning structure: two parts of
//! it may be joined only through zones outside the window. Every floor cell of a window is
//! joined to every other within the window grown by [`BLOCK`] zones on each side, and a
//! window aligned to the block grid (origin and size multiples of [`BLOCK`]) is one area on
//! its own (both tested).

use crate::lattice::lattice_hash;
use crate::state::ZoneState;
use grid_core::rng::mix64;

/// Side of a block of the spanning structure, in zones.
pub const BLOCK: i64 = 8;
const B: usize = BLOCK as usize;

/// The passages of the spanning structure over a range of blocks.
#[derive(Clone, Debug)]
pub struct Passages {
    seed: u64,
    /// First block column and row held.
    bx0: i64,
    by0: i64,
    /// Blocks across and down.
    bw: usize,
    bh: usize,
    /// Per block, per zone `(x, y)` at `y * B + x`: bit 0 = open to the east, bit 1 = open to
    /// the south (inside the block).
    trees: Vec<[u8; B * B]>,
}

impl Passages {
    /// The passages touching the zones `zx0..=zx1` x `zy0..=zy1` (and their east and south
    /// neighbours).
    pub fn covering(seed: u64, zx0: i64, zy0: i64, zx1: i64, zy1: i64) -> Self {
        let seed = mix64(seed ^ 0x636f_6e6e_6563_7421); // "connect!"
        let (bx0, by0) = (zx0.div_euclid(BLOCK), zy0.div_euclid(BLOCK));
        let (bx1, by1) = ((zx1 + 1).div_euclid(BLOCK), (zy1 + 1).div_euclid(BLOCK));
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

    /// Whether a passage joins zone `(zx, zy)` to `(zx + 1, zy)`.
    pub fn east(&self, zx: i64, zy: i64) -> bool {
        let (bx, by) = (zx.div_euclid(BLOCK), zy.div_euclid(BLOCK));
        let (x, y) = (zx.rem_euclid(BLOCK), zy.rem_euclid(BLOCK));
        if x < BLOCK - 1 {
            self.tree(bx, by)[(y * BLOCK + x) as usize] & 1 != 0
        } else {
            y == border_slot(self.seed, bx, by, 0)
        }
    }

    /// Whether a passage joins zone `(zx, zy)` to `(zx, zy + 1)`.
    pub fn south(&self, zx: i64, zy: i64) -> bool {
        let (bx, by) = (zx.div_euclid(BLOCK), zy.div_euclid(BLOCK));
        let (x, y) = (zx.rem_euclid(BLOCK), zy.rem_euclid(BLOCK));
        if y < BLOCK - 1 {
            self.tree(bx, by)[(y * BLOCK + x) as usize] & 2 != 0
        } else {
            x == border_slot(self.seed, bx, by, 1)
        }
    }

    /// Applies the cell rules of the module docs to zone `(zx, zy)` in reference mode.
    pub fn connect_zone(&self, state: ZoneState, zx: i64, zy: i64) -> ZoneState {
        let mut bits = state.index() & !(1 << 4); // centre floor
        let open = [
            (1, self.south(zx, zy - 1)), // top middle
            (3, self.east(zx - 1, zy)),  // left middle
            (5, self.east(zx, zy)),      // right middle
            (7, self.south(zx, zy)),     // bottom middle
        ];
        for (bit, open) in open {
            if open {
                bits &= !(1 << bit);
            }
        }
        let floor = |bits: u16, bit: u16| bits & (1 << bit) == 0;
        for (corner, a, b) in [(0, 1, 3), (2, 1, 5), (6, 3, 7), (8, 5, 7)] {
            if floor(bits, corner) && !floor(bits, a) && !floor(bits, b) {
                bits |= 1 << corner;
            }
        }
        ZoneState::from_bits(bits)
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
    // Edge e < B*(B-1): east edge of zone (e % (B-1), e / (B-1)); otherwise the south edge of
    // zone (f % B, f / B) with f = e - B*(B-1).
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

/// Applies the cell rules to a node lattice in seamless mode: `wall[j * nw + i]` is node
/// `(a0 + i, b0 + j)` (global node coordinates; zone `(zx, zy)` has nodes
/// `2zx..=2zx+2` x `2zy..=2zy+2`). Corners on the outermost ring are left as they are, so the
/// lattice should reach one node beyond the nodes that are used.
pub fn connect_nodes(wall: &mut [bool], nw: usize, a0: i64, b0: i64, passages: &Passages) {
    let nh = wall.len() / nw.max(1);
    for j in 0..nh {
        let b = b0 + j as i64;
        for i in 0..nw {
            let a = a0 + i as i64;
            let floor = match (a.rem_euclid(2), b.rem_euclid(2)) {
                (1, 1) => true,
                (0, 1) => passages.east(a.div_euclid(2) - 1, b.div_euclid(2)),
                (1, 0) => passages.south(a.div_euclid(2), b.div_euclid(2) - 1),
                _ => false,
            };
            if floor {
                wall[j * nw + i] = false;
            }
        }
    }
    for j in 1..nh.saturating_sub(1) {
        for i in 1..nw.saturating_sub(1) {
            let (a, b) = (a0 + i as i64, b0 + j as i64);
            if a.rem_euclid(2) != 0 || b.rem_euclid(2) != 0 || wall[j * nw + i] {
                continue;
            }
            let k = j * nw + i;
            let across = !wall[k - 1] && !wall[k + 1];
            let along = !wall[k - nw] && !wall[k + nw];
            if !across && !along {
                wall[k] = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::connectivity::{Connectivity, components};

    #[test]
    fn block_trees_span_their_block() {
        for (bx, by) in [(0, 0), (-3, 7), (1 << 28, -(1 << 28))] {
            let tree = block_tree(42, bx, by);
            let edges: u32 = tree.iter().map(|t| t.count_ones()).sum();
            assert_eq!(edges as usize, B * B - 1);
            // Flood from zone 0 over the tree's edges reaches all zones.
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
    fn a_connected_zone_keeps_its_floor_joined_to_its_centre() {
        let p = Passages::covering(1, 0, 0, 1, 1);
        for s in 0..512u16 {
            let z = p.connect_zone(ZoneState::from_bits(s), 0, 0);
            let comps = components(3, 3, Connectivity::Four, |i| !z.cell(i % 3, i / 3));
            assert_eq!(comps.count(), 1, "state {s} -> {}", z.index());
        }
    }
}
