//! Step 7: passages across shared borders for ROAD/REGULAR connections; portal pairs for
//! PORTAL connections, for connections the layout could not draw without crossing others
//! ([`crate::layout::portal_cuts`]) and for zones that do not touch. Portal ids: `teleport1..3` (two-way),
//! then pairs built from two one-way colours (enter here, exit there, and back).

use crate::buildings::place_object;
use crate::error::HeroesError;
use crate::hmm::ids::{ONE_WAY_PORTALS, TWO_WAY_PORTALS};
use crate::map::{Cell, ObjectKind, Realised};
use crate::template::{ConnectionType, Template};
use crate::validate::MAX_PORTAL_PAIRS;
use crate::work::{SIDES, Work};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Border cell pairs `(in a, in b)` of zones `a` and `b`, scored (lower is better): pairs away
/// from third zones, near the middle of the shared border.
fn border_pairs(w: &Work, a: usize, b: usize, reach: i64) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for &c in &w.zone_cells[a] {
        let c = c as usize;
        for &(dx, dy) in &SIDES {
            if let Some(n) = w.offset(c, dx, dy)
                && w.zone_of[n] as usize == b
                && w.cell(c) == Cell::Edge
                && w.cell(n) == Cell::Edge
            {
                // Both inward cells must exist in their zones and no third zone may be near.
                let ia = w.offset(c, -dx, -dy);
                let ib = w.offset(n, dx, dy);
                let ok_in = |i: Option<usize>, z: usize| {
                    i.is_some_and(|i| {
                        w.zone_of[i] as usize == z
                            && !matches!(w.cell(i), Cell::Building | Cell::Entrance)
                    })
                };
                if !ok_in(ia, a) || !ok_in(ib, b) {
                    continue;
                }
                let mut third = false;
                for p in [c, n] {
                    for ddy in -reach..=reach {
                        for ddx in -reach..=reach {
                            if let Some(q) = w.offset(p, ddx, ddy) {
                                let z = w.zone_of[q] as usize;
                                third |= z != a && z != b;
                            }
                        }
                    }
                }
                if !third {
                    out.push((c, n));
                }
            }
        }
    }
    out
}

/// How far along the border a `wide` connection opens from its passage, in cells.
pub const WIDE_REACH: i64 = 3;
/// Most border cells of one zone a `wide` connection opens (a square of side
/// `2 * WIDE_REACH + 1` holds them).
pub const WIDE_CELLS: i64 = 2 * WIDE_REACH + 1;

/// Why a connection crossing others in the layout became a portal pair.
pub const NOT_PLANAR: &str = "the zone graph is not planar: the connection crosses others";

/// A connection to realise as a portal pair: (connection, zone a, zone b, why).
type PortalNeed = (usize, usize, usize, &'static str);

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// More portal pairs are needed than the format has ids for: keeps the PORTAL connections
/// and the forced ones that join otherwise separate parts of the zone graph, fills the
/// remaining ids in connection order, and leaves the rest out (recorded in the map's stats;
/// every zone stays reachable).
fn leave_out_redundant(w: &mut Work, portals: &mut Vec<PortalNeed>) {
    let n = w.zones.len();
    let mut parent: Vec<usize> = (0..n).collect();
    for r in &w.realised {
        if let Some(Realised::Passage([p, q])) = r {
            let (a, b) = (w.zone_of[*p] as usize, w.zone_of[*q] as usize);
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra] = rb;
        }
    }
    let mut keep = vec![false; portals.len()];
    // PORTAL connections first (validation keeps them within the budget), then bridges.
    for pass in 0..2 {
        for (k, &(_, a, b, reason)) in portals.iter().enumerate() {
            let required = reason == "PORTAL connection";
            if keep[k] || (pass == 0) != required {
                continue;
            }
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if required || ra != rb {
                keep[k] = true;
                parent[ra] = rb;
            }
        }
    }
    let mut spare = MAX_PORTAL_PAIRS.saturating_sub(keep.iter().filter(|&&k| k).count());
    for k in keep.iter_mut().filter(|k| !**k) {
        if spare > 0 {
            *k = true;
            spare -= 1;
        }
    }
    let mut k = 0;
    portals.retain(|&(j, a, b, _)| {
        k += 1;
        if keep[k - 1] {
            return true;
        }
        w.realised[j] = Some(Realised::LeftOut {
            reason: "zones do not share a border and every portal id is in use",
        });
        w.stats.left_out.push(format!(
            "connections[{j}] (zones {} and {}): zones do not share a border and every portal id is in use",
            w.zones[a].index, w.zones[b].index
        ));
        false
    });
}

pub(crate) fn place(
    w: &mut Work,
    template: &Template,
    pos: &[usize],
    crossing: &[bool],
    road_to_portals: bool,
    rng: &mut LevelRng,
) -> Result<(), HeroesError> {
    let mut portals: Vec<PortalNeed> = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    for (j, c) in template.connections.iter().enumerate() {
        let (a, b) = (pos[c.first as usize], pos[c.second as usize]);
        if c.kind == ConnectionType::Portal {
            portals.push((j, a, b, "PORTAL connection"));
            continue;
        }
        if crossing.get(j).copied().unwrap_or(false) {
            portals.push((j, a, b, NOT_PLANAR));
            w.stats.planar_portals += 1;
            continue;
        }
        // Away from third zones if possible (out of their 5x5, else 3x3 neighbourhood); else
        // anywhere on the shared border: the seal step closes any corner a third zone's
        // ground then touches ([`crate::seal`]), so a short contact still makes a passage.
        // Passages keep 5 cells apart where they can (a hub's many short borders may only
        // allow 3).
        let mut pairs = Vec::new();
        'search: for apart in [25, 8] {
            for reach in [2, 1, 0] {
                pairs = border_pairs(w, a, b, reach);
                pairs.retain(|&(p, _)| used.iter().all(|&u| w.dist2(p, u) > apart));
                if !pairs.is_empty() {
                    break 'search;
                }
            }
        }
        if pairs.is_empty() {
            portals.push((j, a, b, "zones do not share a border"));
            w.stats.forced_portals += 1;
            continue;
        }
        // Near the middle of the shared border, with a little randomness.
        let (mx, my) = pairs.iter().fold((0.0, 0.0), |(sx, sy), &(p, _)| {
            (sx + (p % w.side) as f64, sy + (p / w.side) as f64)
        });
        let (mx, my) = (mx / pairs.len() as f64, my / pairs.len() as f64);
        let mut best = (f64::MAX, pairs[0]);
        for &(p, q) in &pairs {
            let d = ((p % w.side) as f64 - mx).powi(2)
                + ((p / w.side) as f64 - my).powi(2)
                + rng.random_range(0.0..4.0);
            if d < best.0 {
                best = (d, (p, q));
            }
        }
        let (p, q) = best.1;
        let (dx, dy) = (
            (q % w.side) as i64 - (p % w.side) as i64,
            (q / w.side) as i64 - (p / w.side) as i64,
        );
        w.set(p, Cell::Passage);
        w.set(q, Cell::Passage);
        if c.wide {
            // An open border: the neighbouring pairs across it open too.
            for &(p2, q2) in &pairs {
                if w.dist2(p2, p) <= WIDE_REACH * WIDE_REACH {
                    w.set(p2, Cell::Passage);
                    w.set(q2, Cell::Passage);
                }
            }
        }
        for (cell, s, z) in [(p, -1i64, a), (q, 1, b)] {
            // Open the way inward: up to two cells, kept free as approaches.
            let mut cur = cell;
            for _ in 0..2 {
                match w.offset(cur, dx * s, dy * s) {
                    Some(n)
                        if w.zone_of[n] as usize == z
                            && matches!(w.cell(n), Cell::Free | Cell::Edge | Cell::Obstacle) =>
                    {
                        w.set(n, Cell::Approach);
                        cur = n;
                    }
                    _ => break,
                }
            }
        }
        used.push(p);
        w.nodes[a].push(p);
        w.nodes[b].push(q);
        w.realised[j] = Some(Realised::Passage([p, q]));
    }
    if portals.len() > MAX_PORTAL_PAIRS {
        leave_out_redundant(w, &mut portals);
    }
    if portals.len() > MAX_PORTAL_PAIRS {
        let list: Vec<String> = portals
            .iter()
            .map(|(j, _, _, r)| format!("connections[{j}] ({r})"))
            .collect();
        return Err(HeroesError::Generation(format!(
            "{} portal pairs needed but the .hmm format has ids for {MAX_PORTAL_PAIRS}: {}",
            portals.len(),
            crate::error::join_some(&list, ", ")
        )));
    }
    for (k, &(j, a, b, reason)) in portals.iter().enumerate() {
        let (ida, idb, back) = if k < 3 {
            (TWO_WAY_PORTALS[k], TWO_WAY_PORTALS[k], None)
        } else {
            let (e1, x1) = ONE_WAY_PORTALS[(k - 3) * 2];
            let (e2, x2) = ONE_WAY_PORTALS[(k - 3) * 2 + 1];
            (e1, x1, Some((e2, x2)))
        };
        let ends: Vec<(usize, &'static str)> = match back {
            None => vec![(a, ida), (b, idb)],
            Some((e2, x2)) => vec![(a, ida), (b, idb), (b, e2), (a, x2)],
        };
        for (z, id) in ends {
            let kind = ObjectKind::Portal { id, connection: j };
            match place_object(w, z, &[(0, 0)], (0, 1), kind, false, rng) {
                Some(ap) => {
                    if road_to_portals {
                        w.nodes[z].push(ap);
                    }
                }
                None => {
                    return Err(HeroesError::Generation(format!(
                        "connections[{j}]: no room for portal {id} in zone {}",
                        w.zones[z].index
                    )));
                }
            }
        }
        w.realised[j] = Some(Realised::Portal { reason });
    }
    Ok(())
}
