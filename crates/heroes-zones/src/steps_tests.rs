//! Each pipeline step alone, on small hand-made partitions.

use crate::map::{Cell, ObjectKind, Realised, Stats, ZoneInfo};
use crate::template::{Config, Surface, Template, ZoneKind};
use crate::work::{SIDES, Work};
use crate::{buildings, check, connect, obstacles, passages, roads, treasures};
use grid_core::{Connectivity, Seed, flood_fill};

/// A `side x side` map split by `zone_of`, with borders marked as in the pipeline.
fn work(side: usize, zone_of: Vec<u8>, conns: usize) -> Work {
    let n = *zone_of.iter().max().unwrap() as usize + 1;
    let mut zone_cells = vec![Vec::new(); n];
    for (i, &z) in zone_of.iter().enumerate() {
        zone_cells[z as usize].push(i as u32);
    }
    let zones = (0..n)
        .map(|z| {
            let k = zone_cells[z].len() as f64;
            let (sx, sy) = zone_cells[z].iter().fold((0.0, 0.0), |(a, b), &c| {
                (
                    a + (c as usize % side) as f64,
                    b + (c as usize / side) as f64,
                )
            });
            ZoneInfo {
                index: z as i32,
                surface: Surface::Dirt,
                kind: ZoneKind::Treasure,
                centre: (sx / k, sy / k),
                radius: 10.0,
                target_area: k as u32,
                area: k as u32,
            }
        })
        .collect();
    let mut w = Work {
        side,
        cells: vec![0; side * side],
        feature: vec![0; side * side],
        zone_of,
        zones,
        zone_cells,
        objects: Vec::new(),
        realised: vec![None; conns],
        nodes: vec![Vec::new(); n],
        stats: Stats::default(),
    };
    for i in 0..side * side {
        let z = w.zone_of[i];
        if SIDES
            .iter()
            .filter_map(|&(dx, dy)| w.offset(i, dx, dy))
            .any(|nb| w.zone_of[nb] != z)
        {
            w.set(i, Cell::Edge);
        }
    }
    w
}

/// Left half zone 0, right half zone 1 (plus an optional third zone in the bottom rows).
fn halves(side: usize, third: bool) -> Vec<u8> {
    (0..side * side)
        .map(|i| {
            let (x, y) = (i % side, i / side);
            if third && y >= side * 3 / 4 {
                2
            } else if x < side / 2 {
                0
            } else {
                1
            }
        })
        .collect()
}

fn template(json_conns: &str, n: usize) -> Template {
    let zones: Vec<String> = (0..n).map(|i| format!(r#"{{"surface":"DIRT","size":10,"index":{i},"castles":[{{"player":{}}}],"mines":[{{"resource":"ORE"}},{{"resource":"GOLD"}}]}}"#, i.min(1))).collect();
    Template::from_json(&format!(
        r#"{{"name":"t","zones":[{}],"connections":[{json_conns}]}}"#,
        zones.join(",")
    ))
    .unwrap()
}

fn one_component(w: &Work, zone: usize) -> bool {
    let cells: Vec<usize> = w.zone_cells[zone]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| w.cell(c).walkable())
        .collect();
    let f = flood_fill(w.side, w.side, cells[0], Connectivity::Four, |i| {
        w.zone_of[i] as usize == zone && w.cell(i).walkable()
    });
    f.len() == cells.len()
}

#[test]
fn buildings_keep_reachable_entrances() {
    let mut w = work(64, halves(64, false), 0);
    let t = template("", 2);
    buildings::place(&mut w, &t.zones, &Config::default(), &mut Seed(1).rng());
    let castles = w
        .objects
        .iter()
        .filter(|o| matches!(o.kind, ObjectKind::Castle { .. }))
        .count();
    let mines = w
        .objects
        .iter()
        .filter(|o| matches!(o.kind, ObjectKind::Mine { .. }))
        .count();
    assert_eq!((castles, mines), (2, 4));
    for o in &w.objects {
        let a = w.anchor(o);
        assert_eq!(w.cell(a), Cell::Entrance);
        assert!(
            SIDES
                .iter()
                .filter_map(|&(dx, dy)| w.offset(a, dx, dy))
                .any(|n| w.cell(n) == Cell::Approach),
            "{o:?}"
        );
        assert_eq!(w.zone_of[a] as usize, o.zone as usize);
    }
    // The castle is a road vertex; mines are not (roads join towns and passages).
    assert_eq!(w.nodes[0].len(), 1);
}

#[test]
fn obstacles_fill_and_keep_borders_and_approaches() {
    let mut w = work(64, halves(64, false), 0);
    let t = template("", 2);
    buildings::place(&mut w, &t.zones, &Config::default(), &mut Seed(2).rng());
    let before = w.cells.clone();
    obstacles::place(&mut w, &mut Seed(2).rng());
    let free = w.cells.iter().filter(|&&c| c == Cell::Free as u8).count();
    let obst = w
        .cells
        .iter()
        .filter(|&&c| c == Cell::Obstacle as u8)
        .count();
    let share = obst as f64 / (free + obst) as f64;
    assert!((0.2..0.7).contains(&share), "{share}");
    for (a, b) in before.iter().zip(&w.cells) {
        if !matches!(Cell::from_id(*a), Cell::Free) {
            assert_eq!(a, b, "a non-free cell changed");
        }
    }
}

#[test]
fn passages_cross_shared_borders_and_portals_join_the_rest() {
    // Zones 0 and 1 touch; zone 2 touches both; 0-1 regular, 0-2 portal.
    let mut w = work(64, halves(64, true), 2);
    let t = template(
        r#"{"first":0,"second":1},{"first":0,"second":2,"type":"PORTAL"}"#,
        3,
    );
    passages::place(&mut w, &t, &[0, 1, 2], &[], false, &mut Seed(3).rng()).unwrap();
    match w.realised[0] {
        Some(Realised::Passage([p, q])) => {
            assert_eq!((w.zone_of[p], w.zone_of[q]), (0, 1));
            assert_eq!(w.dist2(p, q), 1);
            assert_eq!((w.cell(p), w.cell(q)), (Cell::Passage, Cell::Passage));
        }
        ref r => panic!("{r:?}"),
    }
    assert!(matches!(w.realised[1], Some(Realised::Portal { .. })));
    let ends: Vec<(u16, &str)> = w
        .objects
        .iter()
        .filter_map(|o| match o.kind {
            ObjectKind::Portal { id, .. } => Some((o.zone, id)),
            _ => None,
        })
        .collect();
    assert_eq!(ends, vec![(0, "teleport1"), (2, "teleport1")]);
    // Zones that do not touch get a portal even for a REGULAR connection.
    let zone_of: Vec<u8> = (0..64 * 64)
        .map(|i| [0u8, 2, 1][(i % 64) * 3 / 64])
        .collect();
    let mut w = work(64, zone_of, 1);
    let t = template(r#"{"first":0,"second":1}"#, 3);
    passages::place(&mut w, &t, &[0, 1, 2], &[], false, &mut Seed(3).rng()).unwrap();
    assert_eq!(
        w.realised[0],
        Some(Realised::Portal {
            reason: "zones do not share a border"
        })
    );
    assert_eq!(w.stats.forced_portals, 1);
}

#[test]
fn connect_leaves_one_open_part_per_zone() {
    let mut w = work(64, halves(64, false), 0);
    let t = template("", 2);
    buildings::place(&mut w, &t.zones, &Config::default(), &mut Seed(4).rng());
    obstacles::place(&mut w, &mut Seed(4).rng());
    // A wall of obstacles across the left zone cuts it in two: connect must carve through.
    for x in 0..32 {
        if w.cell(40 * 64 + x) == Cell::Free {
            w.set(40 * 64 + x, Cell::Obstacle);
        }
    }
    connect::run(&mut w);
    assert!(one_component(&w, 0) && one_component(&w, 1));
    assert!(w.stats.carved_cells > 0);
}

#[test]
fn roads_join_all_vertices_of_a_zone() {
    let mut w = work(64, halves(64, false), 1);
    let t = template(r#"{"first":0,"second":1}"#, 2);
    buildings::place(&mut w, &t.zones, &Config::default(), &mut Seed(5).rng());
    passages::place(&mut w, &t, &[0, 1], &[], false, &mut Seed(5).rng()).unwrap();
    obstacles::place(&mut w, &mut Seed(5).rng());
    connect::run(&mut w);
    // Every passage is a road vertex, whatever the castles.
    roads::run(&mut w);
    for z in 0..2 {
        let nodes = w.nodes[z].clone();
        let road = |i: usize| matches!(w.cell(i), Cell::Road | Cell::Passage);
        // Roads step diagonally.
        let f = flood_fill(64, 64, nodes[0], Connectivity::Eight, |i| {
            w.zone_of[i] as usize == z && road(i)
        });
        for n in nodes {
            assert!(f.contains(&n), "zone {z}: vertex {n} off the road network");
        }
    }
}

#[test]
fn treasures_and_guards_follow_the_rules_and_check_repairs() {
    let mut w = work(64, halves(64, false), 1);
    let t = template(
        r#"{"first":0,"second":1,"guardLevel":{"min":4,"max":4}}"#,
        2,
    );
    let config = Config::default();
    let mg = buildings::place(&mut w, &t.zones, &config, &mut Seed(6).rng());
    passages::place(&mut w, &t, &[0, 1], &[], false, &mut Seed(6).rng()).unwrap();
    obstacles::place(&mut w, &mut Seed(6).rng());
    treasures::place(&mut w, &t, &[0, 1], &mg, &config, &mut Seed(6).rng());
    let Some(Realised::Passage([p, _])) = w.realised[0] else {
        panic!()
    };
    assert_eq!(w.cell(p), Cell::Guard);
    assert!(
        w.objects
            .iter()
            .any(|o| matches!(o.kind, ObjectKind::Guard { level: 4, .. }) && w.anchor(o) == p)
    );
    let treasures = w
        .objects
        .iter()
        .filter(|o| matches!(o.kind, ObjectKind::Treasure { .. }))
        .count();
    assert!(treasures >= 8, "{treasures}");
    // Wall in the first treasure's pile (the treasure and guard cells joined to it): the check
    // must repair the way in.
    let first = w
        .objects
        .iter()
        .find(|o| matches!(o.kind, ObjectKind::Treasure { .. }))
        .map(|o| w.anchor(o))
        .unwrap();
    let pile = flood_fill(64, 64, first, Connectivity::Four, |i| {
        matches!(w.cell(i), Cell::Treasure | Cell::Guard)
    });
    for &c in &pile {
        for &(dx, dy) in Connectivity::Eight.offsets() {
            if let Some(n) = w.offset(c, dx as i64, dy as i64)
                && matches!(w.cell(n), Cell::Free | Cell::Approach | Cell::Road)
            {
                w.set(n, Cell::Obstacle);
            }
        }
    }
    let seen = check::reached(&w);
    assert!(!check::unreachable(&w, &seen).is_empty());
    check::run(&mut w).unwrap();
    assert!(w.stats.repaired > 0);
    let seen = check::reached(&w);
    assert!(check::unreachable(&w, &seen).is_empty());
}

#[test]
fn check_follows_portals_and_fails_on_a_walled_castle() {
    let zone_of: Vec<u8> = (0..64 * 64)
        .map(|i| [0u8, 2, 1][(i % 64) * 3 / 64])
        .collect();
    let mut w = work(64, zone_of, 1);
    let t = template(r#"{"first":0,"second":1,"type":"PORTAL"}"#, 3);
    buildings::place(
        &mut w,
        &t.zones[..2],
        &Config::default(),
        &mut Seed(7).rng(),
    );
    passages::place(&mut w, &t, &[0, 1, 2], &[], false, &mut Seed(7).rng()).unwrap();
    // Zone 1's castle is reachable only through the portal.
    let seen = check::reached(&w);
    let c1 = w
        .objects
        .iter()
        .find(|o| o.zone == 1 && matches!(o.kind, ObjectKind::Castle { .. }))
        .unwrap();
    assert!(w.walkable_sides(w.anchor(c1)).any(|n| seen[n]));
    // Wall in zone 1 completely (all but its objects): its castle can no longer be reached.
    for &c in &w.zone_cells[1].clone() {
        if matches!(w.cell(c as usize), Cell::Free | Cell::Approach) {
            w.set(c as usize, Cell::Edge);
        }
    }
    let e = check::run(&mut w).unwrap_err().to_string();
    assert!(
        e.contains("unreachable after repair") && e.contains("Castle"),
        "{e}"
    );
}

/// A corner where two zones' open cells touch diagonally is a gap (a hero steps across it);
/// the seal step closes it by making the plain-ground cell border, and the check fails on a
/// gap that is left.
#[test]
fn seal_closes_a_corner_gap_and_the_check_reports_one() {
    let mut w = work(16, halves(16, false), 0);
    // Open a corner: (7, 5) of zone 0 and (8, 6) of zone 1 touch only diagonally.
    let (a, b) = (5 * 16 + 7, 6 * 16 + 8);
    w.set(a, Cell::Approach);
    w.set(b, Cell::Free);
    assert_eq!(crate::seal::gaps(&w), vec![(a, b)]);
    // The same gap fails the whole-map check.
    let mut failing = work(16, halves(16, false), 0);
    failing.set(a, Cell::Free);
    failing.set(b, Cell::Free);
    let e = check::run(&mut failing).unwrap_err().to_string();
    assert!(
        e.contains("zone border open between (7, 5) and (8, 6)"),
        "{e}"
    );
    // Sealing closes the plain-ground cell and keeps the approach.
    assert_eq!(crate::seal::run(&mut w), 0);
    assert!(crate::seal::gaps(&w).is_empty());
    assert_eq!(w.cell(b), Cell::Edge);
    assert_eq!(w.cell(a), Cell::Approach);
}

/// Cells touching a passage cell are within reach of its guard: not gaps.
#[test]
fn passage_neighbours_are_not_gaps() {
    let mut w = work(16, halves(16, false), 1);
    let (p, q) = (8 * 16 + 7, 8 * 16 + 8);
    w.set(p, Cell::Passage);
    w.set(q, Cell::Passage);
    w.realised[0] = Some(Realised::Passage([p, q]));
    // A zone-1 cell diagonal to p.
    w.set(7 * 16 + 8, Cell::Free);
    assert!(crate::seal::gaps(&w).is_empty());
    // Without the passage the same cells are gaps.
    w.realised[0] = None;
    assert_eq!(crate::seal::gaps(&w).len(), 2);
}

#[test]
fn a_pocket_is_walled_but_for_its_guard_and_cuts_nothing_off() {
    use crate::pockets::{Filler, dig};
    let mut w = work(32, vec![0; 32 * 32], 0);
    let mut spots: Vec<usize> = (0..32 * 32).filter(|&i| w.cell(i) == Cell::Free).collect();
    let mut filler = Filler::new(32 * 32);
    let p = dig(&mut w, 0, 3, &mut spots, &mut filler, &mut Seed(3).rng()).unwrap();
    assert_eq!(p.cells.len(), 3);
    // Every 8-neighbour of the pile is a wall, a pile cell or the guard.
    for &c in &p.cells {
        for &(dx, dy) in Connectivity::Eight.offsets() {
            let n = w.offset(c, dx as i64, dy as i64).unwrap();
            assert!(
                p.cells.contains(&n) || n == p.guard || w.cell(n).blocked(),
                "{n} open"
            );
        }
    }
    // The guard joins the pile to the rest of the map.
    assert!(w.walkable_sides(p.guard).any(|n| !p.cells.contains(&n)));
    // A 1-cell-wide corridor between two approaches: a pocket in it would cut it, so none
    // is dug there.
    let mut w = work(16, vec![0; 16 * 16], 0);
    for i in 0..16 * 16 {
        if w.cell(i) == Cell::Free && i / 16 != 8 {
            w.set(i, Cell::Obstacle);
        }
    }
    w.set(8 * 16 + 1, Cell::Approach);
    w.set(8 * 16 + 14, Cell::Approach);
    let before = w.cells.clone();
    let mut spots: Vec<usize> = (0..16 * 16).filter(|&i| w.cell(i) == Cell::Free).collect();
    let mut filler = Filler::new(16 * 16);
    assert!(dig(&mut w, 0, 1, &mut spots, &mut filler, &mut Seed(1).rng()).is_none());
    assert_eq!(w.cells, before);
}

#[test]
fn piles_mix_items_worth_their_value_with_few_artifacts() {
    use crate::map::TreasureKind;
    let mut rng = Seed(5).rng();
    let (mut items, mut artifacts) = (0, 0);
    for v in (0..40_000).step_by(500) {
        let pile = treasures::compose(v, &mut rng);
        assert_eq!(pile.iter().map(|i| i.1).sum::<u32>(), v, "{v}");
        assert!(!pile.is_empty() && pile.len() <= treasures::PILE_ITEMS);
        let a = pile
            .iter()
            .filter(|i| matches!(i.0, TreasureKind::Artifact(_)))
            .count();
        assert!(a <= 1 && (a == 0 || pile.len() >= treasures::ARTIFACT_PILE));
        items += pile.len();
        artifacts += a;
    }
    assert!(artifacts * 4 <= items, "{artifacts} of {items}");
    // A big pile's artifact is of a higher class than a small one's.
    let big = treasures::compose(30_000, &mut rng);
    let TreasureKind::Artifact(id) = big[0].0 else {
        panic!("{big:?}")
    };
    assert!(crate::hmm::ids::ARTIFACT_CLASSES[3].contains(&id), "{id}");
}
