//! Step 3b: contacts. Every connection that needs a passage needs its two zones to share a
//! border long enough for one; area balancing can pinch such a border off (the narrow tip of
//! a wedge next to a hub with many neighbours). Where two connected zones share fewer than
//! [`MIN_CONTACT`] border cells, a corridor of half-width [`CORRIDOR`] cells (else
//! [`NARROW_CORRIDOR`], where the wider one would push an area out of tolerance) is drawn
//! between their nearest cells, each half given to the nearer zone, so they meet along it.

use crate::borders::make_contiguous;
use grid_core::Connectivity;

/// Border cells two connected zones should share at least.
pub const MIN_CONTACT: usize = 8;
/// Half-width of the corridor drawn between zones that do not touch enough, in cells.
pub const CORRIDOR: i64 = 3;
/// Half-width of the narrower corridor tried when the wider one would push an area out of
/// tolerance (small zones around a hub with many leaves).
pub const NARROW_CORRIDOR: i64 = 2;
/// Longest gap a corridor bridges, in cells (farther zones get a portal pair instead).
pub const MAX_GAP: i64 = 24;

/// `m[a * n + b]`: cells of zone `a` with a 4-neighbour in zone `b` (one pass over the map).
fn contact_matrix(side: usize, zone_of: &[u8], n: usize) -> Vec<usize> {
    let mut m = vec![0usize; n * n];
    let mut seen = [u8::MAX; 4];
    for (i, &a) in zone_of.iter().enumerate() {
        let mut k = 0;
        Connectivity::Four.for_each_neighbor(side, side, i, |nb| {
            let b = zone_of[nb];
            if b != a && !seen[..k].contains(&b) {
                seen[k] = b;
                k += 1;
                m[a as usize * n + b as usize] += 1;
            }
        });
    }
    m
}

/// Cells of zone `z` on its border (a 4-neighbour in another zone or off the map).
fn rim(side: usize, zone_of: &[u8], z: u8) -> Vec<usize> {
    (0..side * side)
        .filter(|&i| zone_of[i] == z)
        .filter(|&i| {
            let mut out = false;
            Connectivity::Four.for_each_neighbor(side, side, i, |n| out |= zone_of[n] != z);
            out
        })
        .collect()
}

/// Draws the corridor between the nearest rim cells of `a` and `b`; returns whether it did.
fn bridge(side: usize, zone_of: &mut [u8], a: u8, b: u8, half: i64) -> bool {
    let (ra, rb) = (rim(side, zone_of, a), rim(side, zone_of, b));
    let xy = |i: usize| ((i % side) as i64, (i / side) as i64);
    let d2 = |p: usize, q: usize| {
        let ((px, py), (qx, qy)) = (xy(p), xy(q));
        (px - qx).pow(2) + (py - qy).pow(2)
    };
    let Some((pa, pb)) = ra
        .iter()
        .flat_map(|&p| rb.iter().map(move |&q| (p, q)))
        .min_by_key(|&(p, q)| (d2(p, q), p, q))
    else {
        return false;
    };
    if d2(pa, pb) > MAX_GAP * MAX_GAP {
        return false;
    }
    let ((ax, ay), (bx, by)) = (xy(pa), xy(pb));
    let steps = (ax - bx).abs().max((ay - by).abs()).max(1);
    for k in 0..=steps {
        let (cx, cy) = (ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps);
        for dy in -half..=half {
            for dx in -half..=half {
                let (x, y) = (cx + dx, cy + dy);
                if x < 0 || y < 0 || x >= side as i64 || y >= side as i64 {
                    continue;
                }
                let i = y as usize * side + x as usize;
                // Each cell of the corridor goes to the zone whose end is nearer.
                let (da, db) = (
                    (x - ax).pow(2) + (y - ay).pow(2),
                    (x - bx).pow(2) + (y - by).pow(2),
                );
                zone_of[i] = if da <= db { a } else { b };
            }
        }
    }
    true
}

/// Largest relative area error of `zone_of` against `targets` (cells per zone).
pub fn area_error(zone_of: &[u8], targets: &[f64]) -> f64 {
    let mut areas = vec![0u32; targets.len()];
    for &z in zone_of {
        areas[z as usize] += 1;
    }
    areas
        .iter()
        .zip(targets)
        .map(|(&a, &t)| (a as f64 - t).abs() / t.max(1.0))
        .fold(0.0, f64::max)
}

/// Makes the zones of every edge (positions in the template) share at least
/// [`MIN_CONTACT`] border cells where a corridor of at most [`MAX_GAP`] cells can do it
/// without pushing any zone's area past `tolerance` of its target (`targets`, in cells);
/// returns how many corridors were drawn.
pub fn ensure(
    side: usize,
    zone_of: &mut [u8],
    edges: &[(usize, usize)],
    targets: &[f64],
    tolerance: f64,
) -> usize {
    let n = targets.len();
    let mut drawn = 0;
    let mut m = contact_matrix(side, zone_of, n);
    for &(a, b) in edges {
        if m[a * n + b] >= MIN_CONTACT {
            continue;
        }
        let (a, b) = (a as u8, b as u8);
        let before = zone_of.to_vec();
        for half in [CORRIDOR, NARROW_CORRIDOR] {
            if !bridge(side, zone_of, a, b, half) {
                break;
            }
            make_contiguous(side, n, zone_of);
            if area_error(zone_of, targets) > tolerance {
                zone_of.copy_from_slice(&before);
            } else {
                drawn += 1;
                m = contact_matrix(side, zone_of, n);
                break;
            }
        }
    }
    drawn
}
