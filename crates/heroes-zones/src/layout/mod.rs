//! Step 1: zone layout. Zone circles (area proportional to `size`) are placed by a
//! force-directed simulation (springs on connections, repulsion between overlapping unconnected
//! circles, walls at the map border) from several starts, followed by an overlap-removal pass;
//! the layout with the fewest stretched connections, overlaps and crossings wins (graphs of more
//! than 12 zones get up to [`EXTRA_RESTARTS`] more starts while the best still has crossings,
//! [`EXTRA_RESTARTS_TANGLED`] if it has more than [`EXTRA_IF_CROSSINGS`]). Connections that still cross, as a graph that is not
//! planar must, are then chosen to become portal pairs by [`portal_cuts`], so that the
//! connections realised across shared borders never cross.
//! Works for any connection graph, whatever the index order.

use grid_core::LevelRng;
use grid_core::rand::RngExt;

mod cuts;
mod repair;

pub use cuts::{crossings, portal_cuts, segments_cross};
use repair::{remove_overlaps, unstretch, untangle};

/// Restarts tried on top of the usual ones for graphs of more than 12 zones while the best
/// layout has crossing connections, at most [`EXTRA_IF_CROSSINGS`] of them (nearly untangled:
/// a planar graph that more starts usually untangle).
pub const EXTRA_RESTARTS: usize = 30;

/// Restarts tried on top of the usual ones while the best layout has more than
/// [`EXTRA_IF_CROSSINGS`] crossing pairs: most likely a graph that is not planar, which no
/// start untangles; its crossing connections become portal pairs ([`portal_cuts`]), and the
/// extra starts only try to make them fewer.
pub const EXTRA_RESTARTS_TANGLED: usize = 10;

/// Most crossing pairs of the best layout for which [`EXTRA_RESTARTS`] rather than
/// [`EXTRA_RESTARTS_TANGLED`] further starts are tried.
pub const EXTRA_IF_CROSSINGS: usize = 2;

/// Share of the map the circles cover.
const FILL: f64 = 0.72;

/// A zone layout: circle centres and radii in cell units.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Centres.
    pub centres: Vec<(f64, f64)>,
    /// Radii.
    pub radii: Vec<f64>,
    /// Badness: stretched connections + overlaps + crossings (lower is better).
    pub score: f64,
}

fn score(c: &[(f64, f64)], r: &[f64], edges: &[(usize, usize)], linked: &Pairs) -> f64 {
    let n = c.len();
    let mut s = 0.0;
    for &(a, b) in edges {
        let d = dist(c[a], c[b]);
        let want = r[a] + r[b];
        s += ((d - want) / want).max(0.0) * 2.0;
    }
    for a in 0..n {
        for b in a + 1..n {
            if !linked.linked[a * n + b] {
                let d = dist(c[a], c[b]);
                let min = (r[a] + r[b]) * linked.room[a * n + b];
                s += ((min - d) / min).max(0.0);
            }
        }
    }
    // Connected zones whose Voronoi cells cannot touch (voronator's Delaunay neighbours).
    let side = c.iter().fold(1.0f64, |m, p| m.max(p.0).max(p.1)) + 1.0;
    let nb = crate::voronoi::delaunay_neighbours(c, side);
    let apart = edges.iter().filter(|&&(a, b)| !nb[a].contains(&b)).count();
    s + 3.0 * crossings(c, edges) as f64 + apart as f64
}

/// Degree from which a zone counts as a hub whose neighbours must crowd around it.
pub const HUB_DEGREE: usize = 5;

/// Neighbours with at most two connections from which a zone is laid out as a hub.
pub const HUB_LEAVES: usize = 4;

/// Whether zone `h` is a hub: at least [`HUB_LEAVES`] neighbours with at most two
/// connections each (leaves and chain links that must crowd around it, such as the four
/// players around Jebus Cross's centre).
pub fn is_hub(h: usize, adj: &[Vec<usize>]) -> bool {
    adj[h].iter().filter(|&&a| adj[a].len() <= 2).count() >= HUB_LEAVES
}

/// How close two zones may come: whether they are connected, and for unconnected pairs the
/// share of `r_a + r_b` they must keep apart. Neighbours of a hub may come closer, so that
/// all of them fit around it (their zones become wedges, not circles).
/// Only neighbours with at most two connections are squeezed.
#[derive(Debug)]
pub struct Pairs {
    /// `linked[a * n + b]`: a connection joins them.
    pub linked: Vec<bool>,
    /// `room[a * n + b]`: the share of `r_a + r_b` unconnected zones keep apart (at most 1).
    pub room: Vec<f64>,
}

impl Pairs {
    fn new(r: &[f64], adj: &[Vec<usize>]) -> Self {
        let n = r.len();
        let mut linked = vec![false; n * n];
        let mut room = vec![1.0f64; n * n];
        for (a, nbs) in adj.iter().enumerate() {
            for &b in nbs {
                linked[a * n + b] = true;
            }
        }
        for (h, nbs) in adj.iter().enumerate() {
            if !is_hub(h, adj) {
                continue;
            }
            // Only neighbours with few connections of their own (leaves, chain links) are
            // squeezed around the hub; better-connected ones keep their room.
            for &a in nbs.iter().filter(|&&a| adj[a].len() <= 2) {
                for &b in nbs.iter().filter(|&&b| adj[b].len() <= 2) {
                    if a == b {
                        continue;
                    }
                    // Spacing of the hub's neighbours on the ring around it.
                    let ring = r[h] + (r[a] + r[b]) / 2.0;
                    let spacing = 0.75 * std::f64::consts::TAU * ring / nbs.len() as f64;
                    let share = (spacing / (r[a] + r[b])).min(1.0);
                    room[a * n + b] = room[a * n + b].min(share);
                }
            }
        }
        Self { linked, room }
    }
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Lays out zones of relative `sizes` joined by `edges` (positions in `sizes`) on a `side`
/// cells square map.
pub fn layout(sizes: &[f64], edges: &[(usize, usize)], side: f64, rng: &mut LevelRng) -> Layout {
    let n = sizes.len();
    let total: f64 = sizes.iter().sum::<f64>().max(1e-9);
    let radii: Vec<f64> = sizes
        .iter()
        .map(|s| (s / total * FILL * side * side / std::f64::consts::PI).sqrt())
        .collect();
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a].push(b);
        adj[b].push(a);
    }
    let linked = Pairs::new(&radii, &adj);
    if n == 1 {
        return Layout {
            centres: vec![(side / 2.0, side / 2.0)],
            radii,
            score: 0.0,
        };
    }
    let restarts = if n <= 12 { 8 } else { 10 };
    let iterations = 220;
    let mut best: Option<Layout> = None;
    let mut tangled = usize::MAX;
    // The usual restarts, then (large graphs whose best layout is nearly untangled) more of
    // them until one untangles or the budget runs out.
    for k in 0..restarts + EXTRA_RESTARTS {
        let extra = if tangled <= EXTRA_IF_CROSSINGS {
            EXTRA_RESTARTS
        } else {
            EXTRA_RESTARTS_TANGLED
        };
        if k >= restarts && (tangled == 0 || k >= restarts + extra || n <= 12) {
            break;
        }
        let mut c = initial(&radii, &adj, side, rng);
        simulate(&mut c, &radii, edges, &linked, side, iterations);
        untangle(&mut c, &radii, edges, &linked, side);
        unstretch(&mut c, &radii, edges, &linked, side);
        remove_overlaps(&mut c, &radii, &linked, side);
        let s = score(&c, &radii, edges, &linked);
        if best.as_ref().is_none_or(|b| s < b.score) {
            tangled = crossings(&c, edges);
            best = Some(Layout {
                centres: c,
                radii: radii.clone(),
                score: s,
            });
        }
    }
    best.unwrap_or(Layout {
        centres: vec![(side / 2.0, side / 2.0); n],
        radii,
        score: f64::MAX,
    })
}

/// Breadth-first placement from the best-connected zone, each zone next to its parent.
fn initial(radii: &[f64], adj: &[Vec<usize>], side: f64, rng: &mut LevelRng) -> Vec<(f64, f64)> {
    let n = radii.len();
    let hub = (0..n)
        .max_by_key(|&i| (adj[i].len(), usize::MAX - i))
        .unwrap_or(0);
    let mut pos = vec![None; n];
    let mut order = vec![hub];
    pos[hub] = Some((
        side / 2.0 + rng.random_range(-1.0..1.0),
        side / 2.0 + rng.random_range(-1.0..1.0),
    ));
    let mut head = 0;
    loop {
        while head < order.len() {
            let p = order[head];
            head += 1;
            let (px, py) = pos[p].unwrap_or((side / 2.0, side / 2.0));
            // A hub's neighbours start evenly around it; others at random angles.
            let even = is_hub(p, adj);
            let turn: f64 = if even {
                rng.random_range(0.0..std::f64::consts::TAU)
            } else {
                0.0
            };
            for (k, &q) in adj[p].iter().enumerate() {
                if pos[q].is_none() {
                    let ang: f64 = if even {
                        turn + std::f64::consts::TAU * k as f64 / adj[p].len() as f64
                    } else {
                        rng.random_range(0.0..std::f64::consts::TAU)
                    };
                    let d = radii[p] + radii[q];
                    pos[q] = Some((px + d * ang.cos(), py + d * ang.sin()));
                    order.push(q);
                }
            }
        }
        // Disconnected graphs (validation rejects them, but stay total): seed the next part.
        match (0..n).find(|&i| pos[i].is_none()) {
            Some(i) => {
                pos[i] = Some((rng.random_range(0.0..side), rng.random_range(0.0..side)));
                order.push(i);
            }
            None => break,
        }
    }
    pos.into_iter()
        .map(|p| p.unwrap_or((side / 2.0, side / 2.0)))
        .collect()
}

fn clamp_in(c: &mut (f64, f64), r: f64, side: f64) {
    let m = (r * 0.6).min(side / 2.0 - 1.0).max(1.0);
    c.0 = c.0.clamp(m, side - m);
    c.1 = c.1.clamp(m, side - m);
}

fn simulate(
    c: &mut [(f64, f64)],
    r: &[f64],
    edges: &[(usize, usize)],
    linked: &Pairs,
    side: f64,
    iters: usize,
) {
    let n = c.len();
    let mut force = vec![(0.0f64, 0.0f64); n];
    for it in 0..iters {
        let temp = 1.0 - it as f64 / iters as f64;
        force.iter_mut().for_each(|f| *f = (0.0, 0.0));
        for &(a, b) in edges {
            let (dx, dy) = (c[b].0 - c[a].0, c[b].1 - c[a].1);
            let d = (dx * dx + dy * dy).sqrt().max(1e-6);
            let k = 0.3 * (d - (r[a] + r[b]) * 0.95) / d;
            force[a].0 += dx * k;
            force[a].1 += dy * k;
            force[b].0 -= dx * k;
            force[b].1 -= dy * k;
        }
        for a in 0..n {
            for b in a + 1..n {
                let (dx, dy) = (c[b].0 - c[a].0, c[b].1 - c[a].1);
                let d = (dx * dx + dy * dy).sqrt().max(1e-6);
                let min = (r[a] + r[b])
                    * if linked.linked[a * n + b] {
                        0.8
                    } else {
                        1.05 * linked.room[a * n + b]
                    };
                if d < min {
                    let (ux, uy) = if d < 1e-3 {
                        (((a * 7 + b) % 5) as f64 - 2.0, 1.0)
                    } else {
                        (dx / d, dy / d)
                    };
                    let k = 0.5 * (min - d);
                    force[a].0 -= ux * k;
                    force[a].1 -= uy * k;
                    force[b].0 += ux * k;
                    force[b].1 += uy * k;
                }
            }
        }
        let cap = side * 0.08 * temp + 0.05;
        for i in 0..n {
            let (fx, fy) = force[i];
            let m = (fx * fx + fy * fy).sqrt();
            let s = if m > cap { cap / m } else { 1.0 } * (0.3 + 0.7 * temp);
            c[i].0 += fx * s;
            c[i].1 += fy * s;
            clamp_in(&mut c[i], r[i], side);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    #[test]
    fn connected_touch_and_unconnected_do_not_overlap() {
        // A ring of 6 plus a chord, given in scrambled index order.
        let edges = [(3, 0), (0, 5), (5, 1), (1, 4), (4, 2), (2, 3), (0, 1)];
        let sizes = [1.0; 6];
        let l = layout(&sizes, &edges, 128.0, &mut Seed(1).rng());
        for &(a, b) in &edges {
            let d = dist(l.centres[a], l.centres[b]);
            assert!(d <= (l.radii[a] + l.radii[b]) * 1.3, "{a}-{b} too far: {d}");
        }
        for a in 0..6 {
            for b in a + 1..6 {
                if !edges.contains(&(a, b)) && !edges.contains(&(b, a)) {
                    let d = dist(l.centres[a], l.centres[b]);
                    assert!(d >= (l.radii[a] + l.radii[b]) * 0.9, "{a}-{b} overlap: {d}");
                }
            }
        }
        assert_eq!(crossings(&l.centres, &edges), 0);
    }

    #[test]
    fn grid_graph_of_25_is_laid_out_without_crossings() {
        let mut edges = Vec::new();
        for y in 0..5 {
            for x in 0..5 {
                let i = y * 5 + x;
                if x < 4 {
                    edges.push((i, i + 1));
                }
                if y < 4 {
                    edges.push((i, i + 5));
                }
            }
        }
        let l = layout(&[1.0; 25], &edges, 256.0, &mut Seed(2).rng());
        assert!(
            crossings(&l.centres, &edges) <= 1,
            "{}",
            crossings(&l.centres, &edges)
        );
    }

    #[test]
    fn crossing_test() {
        assert!(segments_cross(
            (0.0, 0.0),
            (2.0, 2.0),
            (0.0, 2.0),
            (2.0, 0.0)
        ));
        assert!(!segments_cross(
            (0.0, 0.0),
            (1.0, 0.0),
            (0.0, 1.0),
            (1.0, 1.0)
        ));
    }

    #[test]
    fn portal_cuts_remove_every_crossing() {
        // A square with both diagonals: one diagonal is cut (equal length: the first).
        let square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)];
        let edges = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)];
        assert_eq!(portal_cuts(&square, &edges), vec![4]);
        assert!(portal_cuts(&square, &edges[..5]).is_empty());
        // A wheel of 6 around a centre plus three long chords crossing spokes and each other:
        // greedy cuts leave no crossing among the rest.
        let mut c = vec![(5.0, 5.0)];
        for i in 0..6 {
            let t = i as f64 * std::f64::consts::TAU / 6.0;
            c.push((5.0 + 4.0 * t.cos(), 5.0 + 4.0 * t.sin()));
        }
        let mut e: Vec<(usize, usize)> = (1..7).map(|i| (0, i)).collect();
        e.extend((1..7).map(|i| (i, i % 6 + 1)));
        e.extend([(1, 4), (2, 5), (3, 6)]);
        let cuts = portal_cuts(&c, &e);
        assert!(!cuts.is_empty());
        let kept: Vec<(usize, usize)> = (0..e.len())
            .filter(|k| !cuts.contains(k))
            .map(|k| e[k])
            .collect();
        assert_eq!(crossings(&c, &kept), 0);
    }

    #[test]
    fn portal_cuts_spare_a_zones_only_link() {
        // Zone 4 hangs on the long connection 4-5 only; it crosses 0-2 (zones 0 and 2 have
        // other links): 0-2 is cut although 4-5 is longer.
        let c = [
            (0.0, 2.0),
            (2.0, 0.0),
            (4.0, 2.0),
            (2.0, 4.0),
            (2.0, -3.0),
            (2.0, 9.0),
        ];
        let edges = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (4, 5), (5, 3)];
        assert_eq!(portal_cuts(&c, &edges), vec![4]);
    }
}
