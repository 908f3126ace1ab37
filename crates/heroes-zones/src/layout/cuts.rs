//! Step 1b: crossings of the laid-out connections, and the ones cut into portal pairs.

use super::dist;

/// Whether segments `a-b` and `c-d` cross properly.
pub fn segments_cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let o = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (d1, d2, d3, d4) = (o(c, d, a), o(c, d, b), o(a, b, c), o(a, b, d));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Number of crossing pairs among `edges` (pairs sharing a zone never count).
pub fn crossings(centres: &[(f64, f64)], edges: &[(usize, usize)]) -> usize {
    let mut n = 0;
    for (k, &(a, b)) in edges.iter().enumerate() {
        for &(c, d) in &edges[k + 1..] {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            if segments_cross(centres[a], centres[b], centres[c], centres[d]) {
                n += 1;
            }
        }
    }
    n
}

/// Connections (positions in `edges`) to realise as portal pairs so that the others, drawn as
/// straight lines between `centres`, cross nowhere. A zone graph that is not planar cannot be
/// laid out without crossings, and a crossing connection cannot become a shared border.
///
/// Greedy and deterministic: while crossings remain, takes the connection in the most
/// crossings, preferring connections that are not a zone's only remaining link, ties by the
/// longer centre distance, then the lower position. Empty when nothing crosses.
pub fn portal_cuts(centres: &[(f64, f64)], edges: &[(usize, usize)]) -> Vec<usize> {
    let m = edges.len();
    let mut crossing = vec![Vec::new(); m];
    for (k, &(a, b)) in edges.iter().enumerate() {
        for (l, &(c, d)) in edges.iter().enumerate().skip(k + 1) {
            let shared = a == c || a == d || b == c || b == d;
            if !shared && segments_cross(centres[a], centres[b], centres[c], centres[d]) {
                crossing[k].push(l);
                crossing[l].push(k);
            }
        }
    }
    let mut degree = vec![0usize; centres.len()];
    for &(a, b) in edges {
        degree[a] += 1;
        degree[b] += 1;
    }
    let mut count: Vec<usize> = crossing.iter().map(Vec::len).collect();
    let mut cut = Vec::new();
    // Each round cuts one connection that still crosses: at most `m` rounds.
    for _ in 0..m {
        let key = |k: usize| {
            let (a, b) = edges[k];
            let spare = degree[a] > 1 && degree[b] > 1;
            (
                spare,
                count[k],
                dist(centres[a], centres[b]),
                usize::MAX - k,
            )
        };
        let Some(k) = (0..m).filter(|&k| count[k] > 0).max_by(|&x, &y| {
            key(x)
                .partial_cmp(&key(y))
                .unwrap_or(std::cmp::Ordering::Equal)
        }) else {
            break;
        };
        for &l in &crossing[k] {
            count[l] = count[l].saturating_sub(1);
        }
        count[k] = 0;
        degree[edges[k].0] -= 1;
        degree[edges[k].1] -= 1;
        cut.push(k);
    }
    cut.sort_unstable();
    cut
}
