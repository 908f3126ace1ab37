//! Step 2: Voronoi partition of the grid from the zone centres, weighted by zone size
//! (a power diagram: a cell goes to the zone minimising `d² − w`, `w` = radius²).
//! `voronator` gives the Delaunay neighbours of the centres, which the layout score and the
//! preview use to predict which zones can share a border.

use voronator::VoronoiDiagram;
use voronator::delaunator::Point as VPoint;

/// For each centre, the centres whose (unweighted) Voronoi cells touch it, via `voronator`.
/// With fewer than 3 centres (or collinear ones) every pair counts as neighbours.
pub fn delaunay_neighbours(centres: &[(f64, f64)], side: f64) -> Vec<Vec<usize>> {
    let n = centres.len();
    let all = || {
        (0..n)
            .map(|i| (0..n).filter(|&j| j != i).collect())
            .collect()
    };
    if n < 3 {
        return all();
    }
    match VoronoiDiagram::<VPoint>::from_tuple(&(-1.0, -1.0), &(side + 1.0, side + 1.0), centres) {
        Some(v) if v.neighbors.len() == n => {
            let mut nb: Vec<Vec<usize>> = v
                .neighbors
                .iter()
                .map(|l| l.iter().copied().filter(|&j| j < n).collect())
                .collect();
            for l in &mut nb {
                l.sort_unstable();
                l.dedup();
            }
            nb
        }
        _ => all(),
    }
}

/// A zone's metric `[a, b, c]`: the squared distance of `(dx, dy)` is
/// `a dx² + 2 b dx dy + c dy²` (determinant 1; [`ROUND`] is the plain Euclidean distance).
pub type Metric = [f64; 3];

/// The Euclidean metric.
pub const ROUND: Metric = [1.0, 0.0, 1.0];

/// Assigns each cell of a `side x side` grid to the zone of least power distance
/// `|p − c_i|²_M − w_i` in the zone's metric `M` (`metrics`, one per zone), where `p` is the
/// cell centre moved by `offsets` (if given).
pub fn assign(
    side: usize,
    centres: &[(f64, f64)],
    weights: &[f64],
    metrics: &[Metric],
    offsets: Option<&[(f32, f32)]>,
    out: &mut Vec<u8>,
) {
    out.clear();
    out.reserve(side * side);
    // Per zone: centre, weight and the metric's a, 2b, c in one row.
    let sites: Vec<[f64; 6]> = centres
        .iter()
        .zip(weights)
        .zip(metrics)
        .map(|((&(cx, cy), &w), m)| [cx, cy, w, m[0], 2.0 * m[1], m[2]])
        .collect();
    for y in 0..side {
        for x in 0..side {
            let (mut px, mut py) = (x as f64 + 0.5, y as f64 + 0.5);
            if let Some(o) = offsets {
                let (dx, dy) = o[y * side + x];
                px += dx as f64;
                py += dy as f64;
            }
            let mut best = 0u8;
            let mut bd = f64::MAX;
            for (i, s) in sites.iter().enumerate() {
                let (dx, dy) = (px - s[0], py - s[1]);
                let d = dx * (s[3] * dx + s[4] * dy) + s[5] * dy * dy - s[2];
                if d < bd {
                    bd = d;
                    best = i as u8;
                }
            }
            out.push(best);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heavier_zone_gets_more_cells() {
        let c = [(16.0, 16.0), (48.0, 16.0)];
        let mut out = Vec::new();
        assign(64, &c, &[0.0, 0.0], &[ROUND; 2], None, &mut out);
        let a = out.iter().filter(|&&z| z == 0).count();
        assert_eq!(a, 64 * 32);
        assign(64, &c, &[400.0, 0.0], &[ROUND; 2], None, &mut out);
        let b = out.iter().filter(|&&z| z == 0).count();
        assert!(b > a + 64 * 5, "{b}");
    }

    #[test]
    fn voronator_neighbours() {
        let c = [(10.0, 10.0), (50.0, 10.0), (90.0, 10.0), (50.0, 60.0)];
        let nb = delaunay_neighbours(&c, 100.0);
        assert!(nb[0].contains(&1) && nb[1].contains(&2));
        assert!(nb[3].contains(&0) && nb[3].contains(&1) && nb[3].contains(&2));
    }
}
