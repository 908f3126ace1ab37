//! Step 3c, first part: a zone still longer than [`measure::MAX_ASPECT`] after zoning is
//! regrown round. It becomes the disc of its target area around one of [`CENTRES`] points spread
//! along its principal axis; each part of its old cells left outside the disc goes to the
//! neighbours (by connection) it would otherwise cut off from the zone, so a neighbour at the
//! far end of a long zone reaches the disc as a tongue, else to the zones around the part,
//! each cell to the nearest by steps inside the part.
//!
//! The regrowth is then thickened and given the corridors its connections need, as a fresh
//! partition is, and kept only where every zone stays 4-connected, every connection keeps its
//! contact (or [`contacts::MIN_CONTACT`] side-by-side pairs), the areas it changes stay within
//! the tolerance (or get nearer their targets), no more cells lie in parts of a zone thinner
//! than 3 cells than before, and the longest of the zones it changes gets shorter without
//! another passing 3:1; of the points that pass, the one leaving the longest changed zone
//! shortest wins. The single-cell trades of [`crate::reshape`] follow.

use crate::measure::{self, Moments};
use crate::{borders, contacts, relax};
use grid_core::{Connectivity, flood_fill};

/// Points along a long zone's principal axis tried as the centre of its disc.
pub const CENTRES: usize = 7;

/// Long zones tried at most (longest first): a template of many long zones costs at most
/// `ZONES * CENTRES` regrowths, each a few passes over the map.
pub const ZONES: usize = 8;

/// Marks a cell given up by the regrown zone and not yet handed on.
const FREE: u8 = u8::MAX;

/// What a regrowth must keep: the connections, the areas and their tolerance.
struct Rules<'a> {
    side: usize,
    n: usize,
    edges: &'a [(usize, usize)],
    targets: &'a [f64],
    tolerance: f64,
}

/// The map as it was before a regrowth, measured once for every point tried.
struct Before<'a> {
    zone_of: &'a [u8],
    moments: Vec<Moments>,
    contact: Vec<u32>,
    thin: usize,
}

/// Cells of `zone_of` in parts of a zone thinner than 3 cells ([`borders::covered`]).
fn thin_cells(side: usize, zone_of: &[u8]) -> usize {
    borders::covered(side, zone_of)
        .iter()
        .filter(|&&c| !c)
        .count()
}

impl Rules<'_> {
    fn before<'a>(&self, zone_of: &'a [u8]) -> Before<'a> {
        Before {
            zone_of,
            moments: measure::zone_moments(self.side, zone_of, self.n),
            contact: relax::contact_lengths(self.side, self.n, zone_of),
            thin: thin_cells(self.side, zone_of),
        }
    }

    /// The 4-neighbours of cell `i`.
    fn sides(&self, i: usize) -> impl Iterator<Item = usize> + use<> {
        measure::neighbours(self.side, i)
    }

    /// Zone `z` regrown as the disc of its area around `p`, or `None` where the disc does
    /// not fit on the map or a part it gives up touches no other zone.
    fn regrow(&self, zone_of: &[u8], z: u8, p: (f64, f64)) -> Option<Vec<u8>> {
        let side = self.side;
        let area = self.targets[z as usize].round().max(1.0) as usize;
        let reach = ((area as f64 / std::f64::consts::PI).sqrt() * 2.0).ceil() as i64 + 2;
        let (px, py) = (p.0.round() as i64, p.1.round() as i64);
        let mut near: Vec<(f64, usize)> = Vec::new();
        for y in (py - reach).max(0)..=(py + reach).min(side as i64 - 1) {
            for x in (px - reach).max(0)..=(px + reach).min(side as i64 - 1) {
                let d = (x as f64 - p.0).powi(2) + (y as f64 - p.1).powi(2);
                near.push((d, y as usize * side + x as usize));
            }
        }
        if near.len() < area {
            return None;
        }
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut next: Vec<u8> = zone_of
            .iter()
            .map(|&c| if c == z { FREE } else { c })
            .collect();
        for &(_, i) in &near[..area] {
            next[i] = z;
        }
        // Zones that touch the disc, and the neighbours by connection that must.
        let mut touching = vec![false; self.n];
        for i in (0..next.len()).filter(|&i| next[i] == z) {
            for j in self.sides(i).filter(|&j| next[j] != FREE && next[j] != z) {
                touching[next[j] as usize] = true;
            }
        }
        let linked: Vec<bool> = (0..self.n)
            .map(|m| {
                self.edges
                    .iter()
                    .any(|&e| e == (z as usize, m) || e == (m, z as usize))
            })
            .collect();
        for start in 0..next.len() {
            if next[start] == FREE {
                let part = self.component(&next, start);
                self.hand_on(&mut next, &part, z, |m| linked[m] && !touching[m])?;
            }
        }
        Some(next)
    }

    /// The 4-connected cells marked [`FREE`] joined to `start`, in breadth-first order.
    fn component(&self, next: &[u8], start: usize) -> Vec<usize> {
        flood_fill(self.side, self.side, start, Connectivity::Four, |j| {
            next[j] == FREE
        })
    }

    /// Hands the cells of `part` to the zones around it: those `cut_off` from the regrown
    /// zone `z` if any touch the part, else all; each cell to the nearest by steps in the part.
    fn hand_on(
        &self,
        next: &mut [u8],
        part: &[usize],
        z: u8,
        cut_off: impl Fn(usize) -> bool,
    ) -> Option<()> {
        let around = |next: &[u8], i: usize| {
            self.sides(i)
                .map(|j| next[j])
                .filter(|&m| m != FREE && m != z)
                .collect::<Vec<u8>>()
        };
        let some_cut = part
            .iter()
            .any(|&i| around(next, i).iter().any(|&m| cut_off(m as usize)));
        // The cells of the part beside a chosen zone, all picked before any is handed on, so
        // the walk below reaches every other cell from its nearest such cell.
        let seeds: Vec<(usize, u8)> = part
            .iter()
            .filter_map(|&i| {
                let chosen = around(next, i)
                    .into_iter()
                    .filter(|&m| !some_cut || cut_off(m as usize));
                chosen.min().map(|m| (i, m))
            })
            .collect();
        let mut queue: Vec<usize> = Vec::with_capacity(part.len());
        for (i, m) in seeds {
            next[i] = m;
            queue.push(i);
        }
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head];
            head += 1;
            for j in self.sides(i) {
                if next[j] == FREE {
                    next[j] = next[i];
                    queue.push(j);
                }
            }
        }
        (queue.len() == part.len()).then_some(())
    }

    /// Whether every zone of `zones` is 4-connected in `zone_of`.
    fn connected(&self, zone_of: &[u8], zones: &[usize]) -> bool {
        zones.iter().all(|&z| {
            let inside = |j: usize| zone_of[j] as usize == z;
            let start = zone_of.iter().position(|&c| c as usize == z);
            start.is_some_and(|start| {
                let reached = flood_fill(self.side, self.side, start, Connectivity::Four, inside);
                reached.len() == zone_of.iter().filter(|&&c| c as usize == z).count()
            })
        })
    }

    /// The longest of the zones changed from the map `old` to `next` as regrown, if every
    /// rule holds.
    fn judge(&self, old: &Before, next: &[u8]) -> Option<f64> {
        let mut changed: Vec<usize> = (0..next.len())
            .filter(|&i| old.zone_of[i] != next[i])
            .flat_map(|i| [old.zone_of[i] as usize, next[i] as usize])
            .collect();
        changed.sort_unstable();
        changed.dedup();
        let (before, after) = (&old.moments, measure::zone_moments(self.side, next, self.n));
        let area_ok = |z: usize| {
            let t = self.targets[z].max(1.0);
            let (was, now) = (before[z].cells(), after[z].cells());
            (now - t).abs() / t <= self.tolerance || (now - t).abs() <= (was - t).abs()
        };
        if !changed.iter().all(|&z| area_ok(z)) || !self.connected(next, &changed) {
            return None;
        }
        let contact = relax::contact_lengths(self.side, self.n, next);
        let kept = |&(a, b): &(usize, usize)| {
            let k = a * self.n + b;
            contact[k] >= old.contact[k].min(contacts::MIN_CONTACT as u32)
        };
        if !self.edges.iter().all(kept) || thin_cells(self.side, next) > old.thin {
            return None;
        }
        let aspect = |m: &[Moments], z: usize| m[z].shape().2;
        let longest = |m: &[Moments]| changed.iter().map(|&z| aspect(m, z)).fold(1.0, f64::max);
        let (was, now) = (longest(before), longest(&after));
        let calm = changed
            .iter()
            .all(|&z| aspect(&after, z) <= aspect(before, z).max(measure::MAX_ASPECT));
        (calm && now < was).then_some(now)
    }
}

/// Regrows, longest first, up to [`ZONES`] zones of `zone_of` (a `side x side` grid of the
/// zones of `targets`, areas in cells) longer than [`measure::MAX_ASPECT`] as the module says;
/// `edges` are the connections realised across borders, `tolerance` the area error allowed.
/// Returns the zones regrown.
pub fn run(
    side: usize,
    zone_of: &mut [u8],
    edges: &[(usize, usize)],
    targets: &[f64],
    tolerance: f64,
) -> usize {
    let rules = Rules {
        side,
        n: targets.len(),
        edges,
        targets,
        tolerance,
    };
    let moments = measure::zone_moments(side, zone_of, rules.n);
    let mut long: Vec<(f64, usize)> = (0..rules.n)
        .map(|z| (moments[z].shape().2, z))
        .filter(|&(a, _)| a > measure::MAX_ASPECT)
        .collect();
    long.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut regrown = 0;
    for (_, z) in long.into_iter().take(ZONES) {
        let before = rules.before(zone_of);
        let ((cx, cy), (ux, uy), aspect) = before.moments[z].shape();
        if aspect <= measure::MAX_ASPECT {
            continue;
        }
        let along: Vec<f64> = (0..zone_of.len())
            .filter(|&i| zone_of[i] as usize == z)
            .map(|i| ((i % side) as f64 - cx) * ux + ((i / side) as f64 - cy) * uy)
            .collect();
        let lo = along.iter().copied().fold(f64::MAX, f64::min);
        let hi = along.iter().copied().fold(f64::MIN, f64::max);
        let mut best: Option<(f64, Vec<u8>)> = None;
        for k in 1..=CENTRES {
            let t = lo + (hi - lo) * k as f64 / (CENTRES + 1) as f64;
            let Some(mut next) = rules.regrow(zone_of, z as u8, (cx + t * ux, cy + t * uy)) else {
                continue;
            };
            crate::zoning::settle(side, rules.n, &mut next, edges, targets, tolerance);
            if let Some(score) = rules.judge(&before, &next)
                && best.as_ref().is_none_or(|b| score < b.0)
            {
                best = Some((score, next));
            }
        }
        if let Some((_, next)) = best {
            zone_of.copy_from_slice(&next);
            regrown += 1;
        }
    }
    regrown
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 40x40 map: zone 3 on top in the middle, 4 below it, zone 0 on the left, 1 on the
    /// right and between them a 4-cell wide strip of zone 2 (20 cells long) that touches all
    /// four; only the strip is longer than 3:1.
    fn strip() -> (usize, Vec<u8>, Vec<(usize, usize)>) {
        let side = 40;
        let zone_of = (0..side * side)
            .map(|i| match (i % side, i / side) {
                (x, y) if (10..30).contains(&x) && y < 10 => 3,
                (x, y) if (10..30).contains(&x) && y >= 30 => 4,
                (x, _) if x < 18 => 0,
                (x, _) if x < 22 && (10..30).contains(&(i / side)) => 2,
                _ => 1,
            })
            .collect();
        let edges = vec![
            (2, 0),
            (2, 1),
            (2, 3),
            (2, 4),
            (0, 3),
            (1, 3),
            (0, 4),
            (1, 4),
        ];
        (side, zone_of, edges)
    }

    fn areas(zone_of: &[u8]) -> Vec<f64> {
        let mut a = vec![0.0; 5];
        zone_of.iter().for_each(|&z| a[z as usize] += 1.0);
        a
    }

    #[test]
    fn a_strip_between_four_zones_is_regrown_round_and_keeps_every_contact() {
        let (side, mut zone_of, edges) = strip();
        let (targets, was) = (areas(&zone_of), relax::contact_lengths(side, 5, &zone_of));
        let before = measure::zone_aspects(side, &zone_of, 5);
        assert!(before[2] > 4.0, "{before:?}");
        let long = before.iter().filter(|&&a| a > measure::MAX_ASPECT).count();
        assert_eq!(long, 1, "{before:?}");
        assert_eq!(run(side, &mut zone_of, &edges, &targets, 0.15), 1);
        let after = measure::zone_aspects(side, &zone_of, 5);
        assert!(after.iter().all(|&a| a <= measure::MAX_ASPECT), "{after:?}");
        let contact = relax::contact_lengths(side, 5, &zone_of);
        for &(a, b) in &edges {
            let floor = was[a * 5 + b].min(contacts::MIN_CONTACT as u32);
            assert!(
                contact[a * 5 + b] >= floor,
                "{a}-{b}: {}",
                contact[a * 5 + b]
            );
        }
        let rules = Rules {
            side,
            n: 5,
            edges: &edges,
            targets: &targets,
            tolerance: 0.15,
        };
        assert!(rules.connected(&zone_of, &[0, 1, 2, 3, 4]));
        let now = areas(&zone_of);
        for z in 0..5 {
            assert!(
                (now[z] - targets[z]).abs() / targets[z] <= 0.15,
                "zone {z}: {now:?}"
            );
        }
        assert!(borders::covered(side, &zone_of).iter().all(|&c| c));
    }

    #[test]
    fn round_zones_are_left_alone() {
        let (side, mut zone_of, edges) = strip();
        // Zone 2 as a 10x10 block in the middle: nothing is longer than 3:1.
        for (i, z) in zone_of.iter_mut().enumerate() {
            let (x, y) = (i % side, i / side);
            if *z == 2 {
                *z = if x < 20 { 0 } else { 1 };
            }
            if (15..25).contains(&x) && (15..25).contains(&y) {
                *z = 2;
            }
        }
        let (edges, targets) = (&edges[..2], areas(&zone_of));
        let kept = zone_of.clone();
        assert_eq!(run(side, &mut zone_of, edges, &targets, 0.15), 0);
        assert_eq!(zone_of, kept);
    }
}
