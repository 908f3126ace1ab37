//! Terrain measures computed from generated maps: road share of the walkable cells, 2x2
//! road blocks, clumps of obstacle and border cells, and the features they form.

use heroes_zones::map::{Cell, HeroesMap};
use heroes_zones::measure::{self, terrain};
use heroes_zones::obstacles::density;
use heroes_zones::{Config, Template, generate};
use std::path::PathBuf;

fn korge(name: &str) -> Option<Template> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fixtures/korge/templates")
        .join(format!("{name}.json"));
    match std::fs::read_to_string(&p) {
        Ok(text) => Some(Template::from_json(&text).unwrap()),
        Err(_) => {
            eprintln!("skipping: {} not found", p.display());
            None
        }
    }
}

fn cell(map: &HeroesMap, x: usize, y: usize) -> Cell {
    Cell::from_id(*map.cells.get(x, y).unwrap())
}

/// (road cells / walkable cells, 2x2 blocks of road).
fn roads(map: &HeroesMap) -> (f64, usize) {
    let n = map.size;
    let (mut road, mut walk, mut blocks) = (0, 0, 0);
    for y in 0..n {
        for x in 0..n {
            let c = cell(map, x, y);
            road += usize::from(c == Cell::Road);
            walk += usize::from(c.walkable());
            if x + 1 < n && y + 1 < n {
                let r = |dx, dy| cell(map, x + dx, y + dy) == Cell::Road;
                blocks += usize::from(r(0, 0) && r(1, 0) && r(0, 1) && r(1, 1));
            }
        }
    }
    (road as f64 / walk.max(1) as f64, blocks)
}

/// (clumps of obstacle and border cells, 8-connected; share of clumps of 3 cells or fewer).
fn clumps(map: &HeroesMap) -> (usize, f64) {
    let n = map.size;
    let solid = |i: usize| matches!(cell(map, i % n, i / n), Cell::Obstacle | Cell::Edge);
    let mut seen = vec![false; n * n];
    let (mut count, mut small) = (0, 0);
    for s in 0..n * n {
        if seen[s] || !solid(s) {
            continue;
        }
        let (mut stack, mut size) = (vec![s], 0);
        seen[s] = true;
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = ((i % n) as i64, (i / n) as i64);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (a, b) = (x + dx, y + dy);
                    if a >= 0 && b >= 0 && a < n as i64 && b < n as i64 {
                        let j = b as usize * n + a as usize;
                        if !seen[j] && solid(j) {
                            seen[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
        }
        count += 1;
        small += usize::from(size <= 3);
    }
    (count, small as f64 / count.max(1) as f64)
}

#[test]
fn roads_are_thin_and_take_at_most_a_tenth_of_the_ground() {
    for name in ["zones25", "zones9"] {
        let Some(t) = korge(name) else { return };
        for seed in 1..=8 {
            let map = generate(&t, &Config::default(), 128, seed).unwrap();
            let (share, blocks) = roads(&map);
            let (count, small) = clumps(&map);
            let (turns, cells) = measure::sharp_turns(&map);
            eprintln!(
                "{name} 128 seed {seed}: roads {:.1}% of walkable, {blocks} 2x2 blocks, {turns} sharp turns of {cells} road cells; {count} clumps, {:.0}% of 3 cells or fewer",
                share * 100.0,
                small * 100.0
            );
            assert_eq!(blocks, 0, "{name} seed {seed}");
            assert!(share <= 0.10, "{name} seed {seed}: {:.1}%", share * 100.0);
            // Every castle and passage of a zone on one road network, drawn smooth: at most 2%
            // of road cells turn by 90 degrees or more (measured 0.3-1.0%; 9-12% with
            // roads at Chebyshev cost).
            assert_eq!(
                measure::unlinked(&map),
                Vec::<String>::new(),
                "{name} seed {seed}"
            );
            assert!(
                turns * 50 <= cells,
                "{name} seed {seed}: {turns} sharp turns of {cells} road cells"
            );
        }
    }
}

/// Zones whose walkable cells (4-connected, within the zone) form more than one part.
fn split_zones(map: &HeroesMap) -> Vec<usize> {
    let n = map.size;
    let walk = |i: usize| map.cell(i).walkable();
    let zone = |i: usize| *map.zone_of.get(i % n, i / n).unwrap() as usize;
    let mut parts = vec![0usize; map.zones.len()];
    let mut seen = vec![false; n * n];
    for s in 0..n * n {
        if seen[s] || !walk(s) {
            continue;
        }
        parts[zone(s)] += 1;
        let z = zone(s);
        let mut stack = vec![s];
        seen[s] = true;
        while let Some(i) = stack.pop() {
            let (x, y) = (i % n, i / n);
            let mut push = |j: usize| {
                if !seen[j] && walk(j) && zone(j) == z {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                push(i - 1);
            }
            if x + 1 < n {
                push(i + 1);
            }
            if y > 0 {
                push(i - n);
            }
            if y + 1 < n {
                push(i + n);
            }
        }
    }
    (0..parts.len()).filter(|&z| parts[z] > 1).collect()
}

/// Obstacle clumps (obstacle and border cells, 8-connected) at 256x256 over seeds 1-8: at
/// most 150 clumps, at most 5% of them of 3 cells or fewer, obstacle cover within 5 points
/// below and 2 above the zones' density; and the obstacles form features: at least two
/// free-standing mountains or forests of 30+ cells per zone, a fifth or more of the obstacle
/// cells in ridges along the borders, some forest; every zone's walkable ground is one piece.
#[test]
fn obstacle_clumps_and_features_at_256() {
    for name in ["zones25", "zones9"] {
        let Some(t) = korge(name) else { return };
        for seed in 1..=8 {
            let map = generate(&t, &Config::default(), 256, seed).unwrap();
            let (count, small) = clumps(&map);
            let n = map.size;
            let cover = (0..n * n)
                .filter(|&i| cell(&map, i % n, i / n) == Cell::Obstacle)
                .count() as f64
                / (n * n) as f64;
            let want = map
                .zones
                .iter()
                .map(|z| density(z.kind) * z.area as f64)
                .sum::<f64>()
                / (n * n) as f64;
            let f = terrain(&map);
            eprintln!(
                "{name} 256 seed {seed}: {count} clumps, {:.1}% of 3 cells or fewer, obstacles {:.1}% of the map (density {:.1}%); {} features of mean {:.0} cells, {:.0}% of obstacles on borders, {:.0}% forest",
                small * 100.0,
                cover * 100.0,
                want * 100.0,
                f.features,
                f.mean_feature_cells,
                f.border_share * 100.0,
                f.forest_share * 100.0
            );
            assert!(count <= 150, "{name} seed {seed}: {count} clumps");
            assert!(
                small <= 0.05,
                "{name} seed {seed}: {:.1}% small clumps",
                small * 100.0
            );
            assert!(
                (want - 0.05..=want + 0.02).contains(&cover),
                "{name} seed {seed}: obstacles {:.1}%, density {:.1}%",
                cover * 100.0,
                want * 100.0
            );
            // The crate's measure counts the same clumps.
            assert_eq!(f.clumps, count, "{name} seed {seed}");
            assert!((f.cover - cover).abs() < 1e-9);
            assert!(
                f.features >= 2 * map.zones.len(),
                "{name} seed {seed}: {} features",
                f.features
            );
            assert!(f.mean_feature_cells >= 50.0, "{name} seed {seed}: {f:?}");
            assert!(f.border_share >= 0.2, "{name} seed {seed}: {f:?}");
            assert!(f.forest_share >= 0.1, "{name} seed {seed}: {f:?}");
            let split = split_zones(&map);
            assert!(
                split.is_empty(),
                "{name} seed {seed}: zones {split:?} split"
            );
        }
    }
}

/// Treasure budgets follow area x richness (a zone four times larger gets about four times
/// the treasures), and treasures lie in piles on neighbouring cells.
#[test]
fn treasure_scales_with_area_and_lies_in_piles() {
    let t = Template::from_json(
        r#"{"name":"t","zones":[
            {"surface":"GRASS","size":10,"index":0,"richness":30,"castles":[{"player":0}],"kind":"PLAYER_START"},
            {"surface":"GRASS","size":40,"index":1,"richness":30}],
            "connections":[{"first":0,"second":1}]}"#,
    )
    .unwrap();
    for seed in 1..=3 {
        let map = generate(&t, &Config::default(), 128, seed).unwrap();
        let n = map.size;
        let mut per_zone = [0usize; 2];
        let (mut total, mut grouped) = (0, 0);
        for o in &map.objects {
            if !matches!(o.kind, heroes_zones::ObjectKind::Treasure { .. }) {
                continue;
            }
            per_zone[o.zone as usize] += 1;
            total += 1;
            let (x, y) = (o.x as usize, o.y as usize);
            let near = [(0i64, -1i64), (-1, 0), (1, 0), (0, 1)]
                .iter()
                .any(|&(dx, dy)| {
                    let (a, b) = (x as i64 + dx, y as i64 + dy);
                    a >= 0
                        && b >= 0
                        && (a as usize) < n
                        && (b as usize) < n
                        && cell(&map, a as usize, b as usize) == Cell::Treasure
                });
            grouped += usize::from(near);
        }
        let ratio = per_zone[1] as f64 / per_zone[0].max(1) as f64;
        assert!((2.5..=6.0).contains(&ratio), "seed {seed}: {per_zone:?}");
        assert!(
            grouped * 2 >= total,
            "seed {seed}: {grouped} of {total} in piles"
        );
    }
}
