//! Step 3c: a last local repair of zones longer than [`measure::MAX_ASPECT`]
//! ([`measure::zone_aspects`]): one border cell at a time, a long zone hands cells at the ends
//! of its principal axis to the zone beside them, or takes cells along its flanks from its
//! neighbours. A move is kept only where the zone losing the cell stays 4-connected (the cell's
//! own zone neighbours stay joined around it), both areas stay within the tolerance, every
//! connection keeps its contact (or [`contacts::MIN_CONTACT`] side-by-side pairs), no cell
//! near it is left in a part of its zone thinner than 3 cells that was not before, and the
//! longer of the two zones gets shorter without the other passing 3:1.

use crate::measure::Moments;
use crate::{contacts, measure};
use grid_core::neighborhood::RING;

/// Rounds at most (one scan of the map each, up to [`MOVES_PER_ROUND`] moves).
pub const ROUNDS: usize = 96;

/// Moves at most per round.
pub const MOVES_PER_ROUND: usize = 24;

/// The state the repair works on.
struct Grid<'a> {
    side: usize,
    n: usize,
    zone_of: &'a mut [u8],
    moments: Vec<Moments>,
    contact: Vec<u32>,
    /// Least contact each pair of zones may keep (`a * n + b`), `0` for pairs without edge.
    floor: Vec<u32>,
    targets: &'a [f64],
    tolerance: f64,
}

impl Grid<'_> {
    fn aspect(&self, z: usize) -> f64 {
        self.moments[z].shape().2
    }

    /// The 4-neighbours of cell `i`.
    fn sides(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (x, y, s) = (i % self.side, i / self.side, self.side);
        [
            (x > 0).then(|| i - 1),
            (x + 1 < s).then(|| i + 1),
            (y > 0).then(|| i - s),
            (y + 1 < s).then(|| i + s),
        ]
        .into_iter()
        .flatten()
    }

    /// Whether zone `z` stays 4-connected without cell `i`: its cells among `i`'s 8
    /// neighbours form one run around the ring (side cells joined through corners).
    fn simple(&self, i: usize, z: u8) -> bool {
        let (x, y, s) = (
            (i % self.side) as i64,
            (i / self.side) as i64,
            self.side as i64,
        );
        let inz: Vec<bool> = RING
            .iter()
            .map(|&(dx, dy)| {
                let (nx, ny) = (x + dx, y + dy);
                (0..s).contains(&nx)
                    && (0..s).contains(&ny)
                    && self.zone_of[(ny * s + nx) as usize] == z
            })
            .collect();
        // Side cells (odd positions) in z, grouped by 4-paths through the ring.
        let sides: Vec<usize> = (1..8).step_by(2).filter(|&k| inz[k]).collect();
        if sides.is_empty() {
            return false;
        }
        let mut groups = 0;
        let mut seen = [false; 8];
        for &k in &sides {
            if seen[k] {
                continue;
            }
            groups += 1;
            // Walk both ways around the ring while cells stay in z.
            for dir in [1usize, 7] {
                let mut j = k;
                loop {
                    seen[j] = true;
                    let next = (j + dir) % 8;
                    if !inz[next] || next == k {
                        break;
                    }
                    j = next;
                }
            }
        }
        groups == 1
    }

    fn area_ok(&self, z: usize, delta: f64) -> bool {
        let t = self.targets[z].max(1.0);
        let (now, next) = (self.moments[z].cells(), self.moments[z].cells() + delta);
        (next - t).abs() / t <= self.tolerance || (next - t).abs() < (now - t).abs()
    }

    /// Contact changes if cell `i` moves from zone `from` to `to`: `(pair, delta)`.
    fn contact_deltas(&self, i: usize, from: usize, to: usize) -> Vec<(usize, i64)> {
        let n = self.n;
        let mut out: Vec<(usize, i64)> = Vec::new();
        let mut bump = |a: usize, b: usize, d: i64| {
            if a != b {
                for k in [a * n + b, b * n + a] {
                    match out.iter_mut().find(|(p, _)| *p == k) {
                        Some(e) => e.1 += d,
                        None => out.push((k, d)),
                    }
                }
            }
        };
        for j in self.sides(i) {
            let m = self.zone_of[j] as usize;
            bump(from, m, -1);
            bump(to, m, 1);
        }
        out
    }

    /// Moves cell `i` to zone `to` if every rule holds; returns whether it did.
    fn try_move(&mut self, i: usize, to: usize) -> bool {
        let from = self.zone_of[i] as usize;
        if !self.simple(i, from as u8) || !self.area_ok(from, -1.0) || !self.area_ok(to, 1.0) {
            return false;
        }
        let deltas = self.contact_deltas(i, from, to);
        if deltas
            .iter()
            .any(|&(p, d)| d < 0 && (self.contact[p] as i64 + d) < self.floor[p] as i64)
        {
            return false;
        }
        let before = self.aspect(from).max(self.aspect(to));
        let (x, y) = ((i % self.side) as f64, (i / self.side) as f64);
        let (mut mf, mut mt) = (self.moments[from], self.moments[to]);
        mf.add(x, y, -1.0);
        mt.add(x, y, 1.0);
        let (af, at) = (mf.shape().2, mt.shape().2);
        let limit = self.aspect(to).max(measure::MAX_ASPECT);
        if af.max(at) >= before - 1e-9 || at > limit {
            return false;
        }
        let thin = self.thin_near(i);
        self.zone_of[i] = to as u8;
        if self.thin_near(i) > thin {
            self.zone_of[i] = from as u8;
            return false;
        }
        self.moments[from] = mf;
        self.moments[to] = mt;
        for (p, d) in deltas {
            self.contact[p] = (self.contact[p] as i64 + d) as u32;
        }
        true
    }

    /// Cells within 2 of cell `i` that lie in no 3x3 square of their own zone (thin parts,
    /// as `borders::covered`): the only cells whose cover moving `i` can change.
    fn thin_near(&self, i: usize) -> usize {
        let s = self.side as i64;
        let (x, y) = ((i % self.side) as i64, (i / self.side) as i64);
        let at = |x: i64, y: i64| self.zone_of[(y * s + x) as usize];
        let square = |x0: i64, y0: i64, z: u8| {
            x0 >= 0
                && y0 >= 0
                && x0 + 2 < s
                && y0 + 2 < s
                && (0..3).all(|dy| (0..3).all(|dx| at(x0 + dx, y0 + dy) == z))
        };
        let mut thin = 0;
        for cy in (y - 2).max(0)..=(y + 2).min(s - 1) {
            for cx in (x - 2).max(0)..=(x + 2).min(s - 1) {
                let z = at(cx, cy);
                let covered = (0..3).any(|dy| (0..3).any(|dx| square(cx - dx, cy - dy, z)));
                thin += usize::from(!covered);
            }
        }
        thin
    }

    /// One round on zone `z`: border cells sorted by how far out along (ends, handed away)
    /// or how near the middle of (flanks, taken) its principal axis they lie; returns moves.
    fn round(&mut self, z: usize) -> usize {
        let ((cx, cy), (ux, uy), _) = self.moments[z].shape();
        let mut cands: Vec<(f64, usize, usize)> = Vec::new();
        for i in 0..self.zone_of.len() {
            let zi = self.zone_of[i] as usize;
            let (x, y) = ((i % self.side) as f64 - cx, (i / self.side) as f64 - cy);
            let along = (x * ux + y * uy).abs();
            if zi == z {
                // Handed to the first other zone beside it.
                if let Some(w) = self
                    .sides(i)
                    .map(|j| self.zone_of[j] as usize)
                    .find(|&m| m != z)
                {
                    cands.push((-along, i, w));
                }
            } else if self.sides(i).any(|j| self.zone_of[j] as usize == z) {
                cands.push((along, i, z));
            }
        }
        cands.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut moves = 0;
        for (_, i, to) in cands {
            if moves == MOVES_PER_ROUND || self.aspect(z) <= measure::MAX_ASPECT {
                break;
            }
            // A cell may have changed zone earlier in this round.
            let from = self.zone_of[i] as usize;
            if from == to || (from != z && to != z) {
                continue;
            }
            if self.try_move(i, to) {
                moves += 1;
            }
        }
        moves
    }
}

/// Shortens zones of `zone_of` (a `side x side` grid of the zones of `targets`, areas in cells)
/// longer than [`measure::MAX_ASPECT`] as the module says; `edges` are the connections realised
/// across borders, `tolerance` the area error allowed. Returns the cells moved.
pub fn run(
    side: usize,
    zone_of: &mut [u8],
    edges: &[(usize, usize)],
    targets: &[f64],
    tolerance: f64,
) -> usize {
    let n = targets.len();
    let moments = measure::zone_moments(side, zone_of, n);
    let contact = crate::relax::contact_lengths(side, n, zone_of);
    let mut floor = vec![0u32; n * n];
    for &(a, b) in edges {
        let f = contact[a * n + b].min(contacts::MIN_CONTACT as u32);
        for k in [a * n + b, b * n + a] {
            floor[k] = f;
        }
    }
    let mut g = Grid {
        side,
        n,
        zone_of,
        moments,
        contact,
        floor,
        targets,
        tolerance,
    };
    let mut moved = 0;
    let mut stuck = vec![false; n];
    for _ in 0..ROUNDS {
        let Some(z) = (0..n)
            .filter(|&z| !stuck[z] && g.aspect(z) > measure::MAX_ASPECT)
            .max_by(|&a, &b| g.aspect(a).total_cmp(&g.aspect(b)).then(b.cmp(&a)))
        else {
            break;
        };
        let m = g.round(z);
        stuck[z] = m == 0;
        moved += m;
    }
    moved
}
