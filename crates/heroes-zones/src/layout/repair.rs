//! Step 1a: repairs of a simulated layout: untangling crossings, unstretching connections,
//! removing overlaps.

use super::*;

/// Swaps the positions of zones at the ends of crossing connections while that lowers the
/// score, then lets the springs settle again (bounded passes).
pub(super) fn untangle(
    c: &mut [(f64, f64)],
    r: &[f64],
    edges: &[(usize, usize)],
    linked: &Pairs,
    side: f64,
) {
    let mut best = score(c, r, edges, linked);
    for _ in 0..60 {
        let mut crossing = Vec::new();
        for (k, &(a, b)) in edges.iter().enumerate() {
            for &(p, q) in &edges[k + 1..] {
                if a != p && a != q && b != p && b != q && segments_cross(c[a], c[b], c[p], c[q]) {
                    crossing.push([a, b, p, q]);
                }
            }
        }
        let before = c.to_vec();
        let mut improved = false;
        'pairs: for &[a, b, p, q] in crossing.iter().take(8) {
            // Moves: swap two endpoints, or mirror one endpoint through the mean of its
            // neighbours (flips a leaf or a fan to the other side).
            for (x, y) in [
                (a, p),
                (a, q),
                (b, p),
                (b, q),
                (a, a),
                (b, b),
                (p, p),
                (q, q),
            ] {
                if x == y {
                    let nbs: Vec<usize> = edges
                        .iter()
                        .filter_map(|&(u, v)| {
                            if u == x {
                                Some(v)
                            } else if v == x {
                                Some(u)
                            } else {
                                None
                            }
                        })
                        .collect();
                    let k = nbs.len().max(1) as f64;
                    let (mx, my) = nbs
                        .iter()
                        .fold((0.0, 0.0), |(sx, sy), &o| (sx + c[o].0, sy + c[o].1));
                    c[x] = (2.0 * mx / k - c[x].0, 2.0 * my / k - c[x].1);
                    clamp_in(&mut c[x], r[x], side);
                } else {
                    c.swap(x, y);
                }
                if keep_if_better(c, &before, r, edges, linked, side, &mut best) {
                    improved = true;
                    break 'pairs;
                }
            }
        }
        if !improved {
            return;
        }
    }
}

/// After a trial move, lets the springs settle and keeps the result if it scores below `best`
/// (which it then updates); otherwise restores `before`. Returns whether the move was kept.
fn keep_if_better(
    c: &mut [(f64, f64)],
    before: &[(f64, f64)],
    r: &[f64],
    edges: &[(usize, usize)],
    linked: &Pairs,
    side: f64,
    best: &mut f64,
) -> bool {
    simulate(c, r, edges, linked, side, 30);
    let s = score(c, r, edges, linked);
    if s + 1e-9 < *best {
        *best = s;
        true
    } else {
        c.copy_from_slice(before);
        false
    }
}

/// For the most stretched connection, tries swapping either end with every other zone (then
/// lets the springs settle) while that lowers the score: fixes hubs drawn inside a ring, whose
/// leaves cannot reach out (bounded passes).
pub(super) fn unstretch(
    c: &mut [(f64, f64)],
    r: &[f64],
    edges: &[(usize, usize)],
    linked: &Pairs,
    side: f64,
) {
    let n = c.len();
    let mut best = score(c, r, edges, linked);
    for _ in 0..12 {
        let worst = edges
            .iter()
            .map(|&(a, b)| (dist(c[a], c[b]) / (r[a] + r[b]), a, b))
            .fold((0.0, 0, 0), |m, e| if e.0 > m.0 { e } else { m });
        if worst.0 < 1.15 {
            return;
        }
        let before = c.to_vec();
        let mut improved = false;
        'moves: for x in [worst.1, worst.2] {
            for y in 0..n {
                if y == x {
                    continue;
                }
                c.swap(x, y);
                if keep_if_better(c, &before, r, edges, linked, side, &mut best) {
                    improved = true;
                    break 'moves;
                }
            }
        }
        if !improved {
            return;
        }
    }
}

/// Pushes apart unconnected circles that still overlap (Gauss-Seidel, bounded passes).
pub(super) fn remove_overlaps(c: &mut [(f64, f64)], r: &[f64], linked: &Pairs, side: f64) {
    let n = c.len();
    for _ in 0..60 {
        let mut moved = false;
        for a in 0..n {
            for b in a + 1..n {
                let min = (r[a] + r[b])
                    * if linked.linked[a * n + b] {
                        0.7
                    } else {
                        linked.room[a * n + b]
                    };
                let (dx, dy) = (c[b].0 - c[a].0, c[b].1 - c[a].1);
                let d = (dx * dx + dy * dy).sqrt();
                if d + 1e-6 < min {
                    let (ux, uy) = if d < 1e-6 {
                        (1.0, 0.0)
                    } else {
                        (dx / d, dy / d)
                    };
                    let h = (min - d) / 2.0;
                    c[a].0 -= ux * h;
                    c[a].1 -= uy * h;
                    c[b].0 += ux * h;
                    c[b].1 += uy * h;
                    clamp_in(&mut c[a], r[a], side);
                    clamp_in(&mut c[b], r[b], side);
                    moved = true;
                }
            }
        }
        if !moved {
            break;
        }
    }
}
