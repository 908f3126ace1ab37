//! Road measures: whether each zone's roads link all its castles and passages, and how
//! smooth they run.

use crate::map::{Cell, HeroesMap, ObjectKind, Realised};
use grid_core::Connectivity;

/// Road vertices of `map` off their zone's road network: for each zone with at least two
/// vertices (its castles and its passage cells) on one piece of ground (8-connected walkable
/// cells of the zone: a road cannot join what a hero cannot walk between inside the zone),
/// those not in the largest set of them joined by road (8-connected cells of the zone that
/// carry a road: [`HeroesMap::road_cells`]). A castle counts as on a road when a road cell is
/// beside its entrance (8-neighbours). Each entry names the zone and the vertex.
pub fn unlinked(map: &HeroesMap) -> Vec<String> {
    let side = map.size;
    let zone_of = map.zone_of.as_slice();
    let on_road = map.road_cells();
    let road = |i: usize| on_road[i];
    let parts = grid_core::components_by_key(side, side, Connectivity::Eight, |i| {
        road(i).then_some(zone_of[i])
    });
    let label = parts.labels.as_slice();
    let ground = grid_core::components_by_key(side, side, Connectivity::Eight, |i| {
        map.cell(i).walkable().then_some(zone_of[i])
    });
    let ground = ground.labels.as_slice();
    // ((zone, ground), what, road parts it touches)
    let mut vertices: Vec<((usize, u32), String, Vec<u32>)> = Vec::new();
    let passages = map.connections.iter().filter_map(|r| match r {
        Realised::Passage(cells) => Some(cells),
        _ => None,
    });
    for &i in passages.flatten() {
        let z = zone_of[i] as usize;
        vertices.push((
            (z, ground[i]),
            format!("passage ({}, {})", i % side, i / side),
            vec![label[i]],
        ));
    }
    for o in &map.objects {
        if !matches!(o.kind, ObjectKind::Castle { .. }) {
            continue;
        }
        let at = o.y as usize * side + o.x as usize;
        let (mut touch, mut on) = (Vec::new(), grid_core::Components::NONE);
        Connectivity::Eight.for_each_neighbor(side, side, at, |n| {
            if zone_of[n] as usize == o.zone as usize && map.cell(n).walkable() {
                on = on.min(ground[n]);
                if road(n) {
                    touch.push(label[n]);
                }
            }
        });
        let what = format!("castle ({}, {})", o.x, o.y);
        vertices.push(((o.zone as usize, on), what, touch));
    }
    let mut keys: Vec<(usize, u32)> = vertices.iter().map(|v| v.0).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut out = Vec::new();
    for key in keys {
        let here: Vec<_> = vertices.iter().filter(|v| v.0 == key).collect();
        if here.len() < 2 {
            continue;
        }
        // The road part most vertices touch is the zone's network.
        let mut counts: Vec<(u32, usize)> = Vec::new();
        for v in &here {
            let mut seen: Vec<u32> = v.2.clone();
            seen.sort_unstable();
            seen.dedup();
            for l in seen {
                match counts.iter_mut().find(|c| c.0 == l) {
                    Some(c) => c.1 += 1,
                    None => counts.push((l, 1)),
                }
            }
        }
        let main = counts
            .iter()
            .max_by_key(|c| (c.1, u32::MAX - c.0))
            .map(|c| c.0);
        for v in here {
            if main.is_none_or(|m| !v.2.contains(&m)) {
                out.push(format!("zone {}: {}", key.0, v.1));
            }
        }
    }
    out
}

/// Road smoothness of `map`: (sharp turns, road cells). A sharp turn is a road cell whose
/// only two road (or passage) neighbours lie at 90 degrees or less from each other as seen
/// from it ([`crate::roads::sharp_turn`]): a staircase step or a zigzag, where the road would
/// run straighter through the diagonal step a hero can take. Straight roads and roads bending
/// by 45 degrees have none.
pub fn sharp_turns(map: &HeroesMap) -> (usize, usize) {
    let side = map.size;
    let on_road = map.road_cells();
    let road = |i: usize| on_road[i];
    let cells: Vec<usize> = (0..side * side)
        .filter(|&i| map.cell(i) == Cell::Road)
        .collect();
    let turns = cells
        .iter()
        .filter(|&&i| crate::roads::sharp_turn(side, i, road))
        .count();
    (turns, cells.len())
}
