//! Step 3a: relaxation of the zone sites during the area rebalancing of
//! [`crate::borders::partition`]: each site moves toward its zone's centroid (a
//! capacity-constrained Lloyd step) and each long zone's metric stretches along its long axis
//! (an anisotropic power diagram: the zone gives ground at its ends and takes it at its
//! sides), so zones grow round, not long, without costing a connection its shared border.

use crate::voronoi::{Metric, ROUND, assign};

/// Rounds of the area rebalancing that also relax the sites.
pub const RELAX_ROUNDS: usize = 6;

/// Share of the way to its zone's centroid a site moves in one round.
pub const PULL: f64 = 0.5;

/// Share of the way to its zone's measured shape a metric moves in one round, when the
/// relaxing stretches metrics ([`Relaxing::stretch`]).
pub const STRETCH: f64 = 0.5;

/// How the sites relax during the area rebalancing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relaxing {
    /// Rounds of the rebalancing that relax the sites.
    pub rounds: usize,
    /// Whether the zones' metrics stretch too (else they stay round).
    pub stretch: bool,
}

/// Most a metric stretches (ratio of its eigenvalues).
pub const MAX_STRETCH: f64 = 16.0;

/// Side-by-side cell pairs a connection's zones keep while relaxing (where they had as many).
pub const MIN_CONTACT: u32 = 3;

/// Re-checks after a relaxing move whose undoing of lost contacts made others move back.
const CHECKS: usize = 3;

/// The zones' sites of a power diagram.
#[derive(Clone, Debug)]
pub struct Sites {
    /// Site of each zone.
    pub centres: Vec<(f64, f64)>,
    /// Power weight of each zone.
    pub weights: Vec<f64>,
    /// Distance metric of each zone.
    pub metrics: Vec<Metric>,
}

impl Sites {
    /// [`assign`] of a `side x side` grid with these sites and `offsets`.
    pub fn assign(&self, side: usize, offsets: &[(f32, f32)], out: &mut Vec<u8>) {
        assign(
            side,
            &self.centres,
            &self.weights,
            &self.metrics,
            Some(offsets),
            out,
        );
    }
}

/// Moves each site of `zone_of` (a `side x side` grid) [`PULL`] of the way to its zone's
/// centroid and, if `stretch`, its metric toward its shape ([`STRETCH`]); then, on a fresh
/// assignment with `offsets`, every connection in `edges` whose zones had [`MIN_CONTACT`]
/// side-by-side cells before and have fewer after gets both its sites back as they were (a
/// few checks, as undoing one move can lose another contact).
pub fn relax_keeping(
    side: usize,
    zone_of: &[u8],
    sites: &mut Sites,
    offsets: &[(f32, f32)],
    edges: &[(usize, usize)],
    stretch: bool,
) {
    let n = sites.centres.len();
    let before = contact_lengths(side, n, zone_of);
    let prev = sites.clone();
    relax(side, zone_of, sites, if stretch { STRETCH } else { 0.0 });
    let mut buf = Vec::new();
    for _ in 0..CHECKS {
        sites.assign(side, offsets, &mut buf);
        let after = contact_lengths(side, n, &buf);
        let mut undone = false;
        for &(a, b) in edges {
            let k = a * n + b;
            if after[k] < before[k].min(MIN_CONTACT) {
                for z in [a, b] {
                    undone |=
                        sites.centres[z] != prev.centres[z] || sites.metrics[z] != prev.metrics[z];
                    sites.centres[z] = prev.centres[z];
                    sites.metrics[z] = prev.metrics[z];
                }
            }
        }
        if !undone {
            break;
        }
    }
}

/// Moves each site of `zone_of` (a `side x side` grid) [`PULL`] of the way to its zone's
/// centroid, and its metric `stretch` of the way toward the zone's normalised covariance
/// (a zone long along x measures x distances longer, so it gives cells at its ends).
fn relax(side: usize, zone_of: &[u8], sites: &mut Sites, stretch: f64) {
    // Sums of x, y, x², y², xy and the count per zone.
    let mut sums = vec![[0.0f64; 6]; sites.centres.len()];
    for (i, &z) in zone_of.iter().enumerate() {
        let (x, y) = ((i % side) as f64 + 0.5, (i / side) as f64 + 0.5);
        let s = &mut sums[z as usize];
        s[0] += x;
        s[1] += y;
        s[2] += x * x;
        s[3] += y * y;
        s[4] += x * y;
        s[5] += 1.0;
    }
    for (z, s) in sums.iter().enumerate() {
        if s[5] < 2.0 {
            continue;
        }
        let (mx, my) = (s[0] / s[5], s[1] / s[5]);
        let c = &mut sites.centres[z];
        *c = (c.0 + (mx - c.0) * PULL, c.1 + (my - c.1) * PULL);
        if stretch == 0.0 {
            continue;
        }
        let sxx = s[2] / s[5] - mx * mx + 1.0 / 12.0;
        let syy = s[3] / s[5] - my * my + 1.0 / 12.0;
        let sxy = s[4] / s[5] - mx * my;
        let det = sxx * syy - sxy * sxy;
        if det <= 0.0 {
            continue;
        }
        let r = det.sqrt();
        let shape = [sxx / r, sxy / r, syy / r];
        let m = &sites.metrics[z];
        let next: Metric = std::array::from_fn(|k| m[k] + stretch * (shape[k] - ROUND[k]));
        if let Some(next) = normalised(next) {
            sites.metrics[z] = next;
        }
    }
}

/// `m` scaled to determinant 1, or `None` when it is not positive definite or stretches more
/// than [`MAX_STRETCH`].
fn normalised(m: Metric) -> Option<Metric> {
    let det = m[0] * m[2] - m[1] * m[1];
    if m[0] <= 0.0 || det <= 0.0 {
        return None;
    }
    let r = det.sqrt();
    let m = [m[0] / r, m[1] / r, m[2] / r];
    // Eigenvalues l and 1/l with l + 1/l = trace.
    let t = m[0] + m[2];
    let l = (t + (t * t - 4.0).max(0.0).sqrt()) / 2.0;
    (l * l <= MAX_STRETCH).then_some(m)
}

/// Side-by-side cell pairs of zones `a` and `b` in `zone_of` (a `side x side` grid of `n`
/// zones), at `a * n + b` and `b * n + a`.
pub(crate) fn contact_lengths(side: usize, n: usize, zone_of: &[u8]) -> Vec<u32> {
    let mut len = vec![0u32; n * n];
    for y in 0..side {
        for x in 0..side {
            let z = zone_of[y * side + x] as usize;
            for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                if nx < side && ny < side {
                    let m = zone_of[ny * side + nx] as usize;
                    if m != z {
                        len[z * n + m] += 1;
                        len[m * n + z] += 1;
                    }
                }
            }
        }
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aspect(side: usize, zone_of: &[u8], z: u8) -> f64 {
        let cells: Vec<(f64, f64)> = (0..side * side)
            .filter(|&i| zone_of[i] == z)
            .map(|i| ((i % side) as f64, (i / side) as f64))
            .collect();
        let k = cells.len() as f64;
        let (mx, my) = cells
            .iter()
            .fold((0.0, 0.0), |a, c| (a.0 + c.0 / k, a.1 + c.1 / k));
        let sxx = cells.iter().map(|c| (c.0 - mx).powi(2)).sum::<f64>() / k;
        let syy = cells.iter().map(|c| (c.1 - my).powi(2)).sum::<f64>() / k;
        let sxy = cells.iter().map(|c| (c.0 - mx) * (c.1 - my)).sum::<f64>() / k;
        let (mean, d) = (
            (sxx + syy) / 2.0,
            (((sxx - syy) / 2.0).powi(2) + sxy * sxy).sqrt(),
        );
        ((mean + d) / (mean - d)).sqrt()
    }

    /// A zone squeezed into a strip along the map's edge grows round; a connection's zones
    /// keep their contact all the while.
    #[test]
    fn relaxing_rounds_a_strip_and_keeps_contacts() {
        let side = 48;
        let offsets = vec![(0.0f32, 0.0f32); side * side];
        // Zone 0 a strip along the top edge, zones 1 and 2 below it side by side.
        let mut sites = Sites {
            centres: vec![(24.0, 2.0), (12.0, 30.0), (36.0, 30.0)],
            weights: vec![0.0, 0.0, 0.0],
            metrics: vec![ROUND; 3],
        };
        let mut zone_of = Vec::new();
        sites.assign(side, &offsets, &mut zone_of);
        let first = aspect(side, &zone_of, 0);
        let touch = contact_lengths(side, 3, &zone_of);
        for _ in 0..10 {
            relax_keeping(
                side,
                &zone_of,
                &mut sites,
                &offsets,
                &[(1, 2), (0, 1)],
                true,
            );
            sites.assign(side, &offsets, &mut zone_of);
            let now = contact_lengths(side, 3, &zone_of);
            // Pairs (1, 2) and (0, 1) at a * 3 + b.
            assert!(now[5] >= touch[5].min(MIN_CONTACT));
            assert!(now[1] >= touch[1].min(MIN_CONTACT));
        }
        let last = aspect(side, &zone_of, 0);
        assert!(last < first && last < 3.0, "{first:.2} -> {last:.2}");
    }
}
