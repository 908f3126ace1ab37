//! # heroes-zones
//!
//! Template-driven zone maps for Pocket Heroes (a Heroes of Might and Magic-like game), after
//! the HoMM3 random map generator's design and the reference MapGen-KorGE, exported as the
//! editor's `.hmm` (version 0x19).
//!
//! ```no_run
//! use heroes_zones::{Config, Template, generate};
//! let template = Template::from_json(&std::fs::read_to_string("examples/heroes/duel.json").unwrap()).unwrap();
//! let map = generate(&template, &Config::default(), 128, 7).unwrap();
//! std::fs::write("map.hmm", heroes_zones::hmm::export(&map).to_bytes()).unwrap();
//! ```
//!
//! The pipeline, one module per step (each testable alone):
//!
//! | step | module |
//! |---|---|
//! | parse | [`template`] (strict serde of the reference's JSON plus added fields), or [`vcmi`] (VCMI random-map templates: [`vcmi::parse`], then [`mod@vcmi::convert`] onto [`Template`], with warnings for what `.hmm` cannot hold) |
//! | validate | [`validate`] (errors name the zone or connection) |
//! | 1 layout | [`layout`] (force-directed circles, overlap removal; connections still crossing, as in a zone graph that is not planar, become portal pairs: [`layout::portal_cuts`], counted in [`Stats::planar_portals`]) |
//! | 2 Voronoi | [`voronoi`] (power diagram, `voronator` neighbours) |
//! | 3 borders | [`borders`] (noise-jagged, calmer around hubs, areas rebalanced to 15%, no zone thinner than 3 cells), [`relax`] (sites to their centroids, metrics stretched against long zones, contacts kept), [`contacts`] (corridors where connected zones barely touch); steps 1-3 retried with less relaxing or another layout while a zone is longer than [`measure::MAX_ASPECT`], then [`regrow`] (a zone still longer becomes the disc of its area, the neighbours it would cut off reaching it) and [`reshape`] (border cells moved one at a time until no zone is longer) |
//! | 4 castles, mines | [`buildings`] |
//! | 5 visitables | [`visitables`] |
//! | 6 obstacles | [`obstacles`] (terrain features: ridges along borders, mountain ranges and forests with open valleys between them, up to the zone's density) |
//! | 7 passages, portals | [`passages`] (portal pairs for PORTAL connections, crossing connections and zones that do not touch) |
//! | 7b seal | [`seal`] (closes every gap a hero could cross diagonally; the check fails on any left) |
//! | 8 connect | [`connect`] (A* joins isolated parts) |
//! | 9 roads | [`roads`] (petgraph MST over every castle and passage of a zone, octile A* preferring roads, staircase corners dropped) |
//! | 10 treasures, guards | [`treasures`] (mixed piles from value bands or richness), [`pockets`] (guarded piles walled in, the guard at the entrance); guard stacks from values in [`strength`] |
//! | check | [`check`] (global reachability through portals; repair or fail) |
//! | 11 decorations | [`decorate`] (every wall cell covered by one obstacle avatar: multi-cell mountains, rocks, mires and lakes first, single-cell pieces as filler), after [`thicken`] walls free ground where a wall one cell thin then takes a 2x2 piece |
//! | export | [`hmm`] (writer, reader, validator), [`preview`] (PNG), [`document`] (JSON with zones, objects and connections; TMX object layer) |
//!
//! ## Limits
//!
//! Checked by [`validate::validate`] (and the parsers) before anything is laid out or
//! allocated; a template past a limit gets an error naming it.
//!
//! | limit | value |
//! |---|---|
//! | map side | 32, 64, 128 or 256 (the `.hmm` format's sizes) |
//! | template or config text | [`template::MAX_INPUT_BYTES`] (4 MiB) |
//! | zones | [`validate::MAX_ZONES`] (64) |
//! | connections | [`validate::MAX_CONNECTIONS`] (192) |
//! | portal pairs | [`validate::MAX_PORTAL_PAIRS`] (6), counting PORTAL connections and, before layout, every connection past the `3n - 6` that `n` zones can realise as shared borders ([`validate::portal_shortfall`]) |
//! | cells per zone | [`validate::MIN_ZONE_CELLS`] (100) at the chosen map side |
//! | castles, mines per zone | [`validate::MAX_OBJECTS_PER_ZONE`] (32 each) |
//! | treasure bands per zone | [`validate::MAX_BANDS`] (16) |
//! | template name | [`validate::MAX_NAME_CHARS`] (200 characters) |
//!
//! Errors quote input only through [`grid_core::text::excerpt`], and a list of problems names
//! at most [`error::MAX_LISTED`] of them.
//!
//! The map is a pure function of (template, config, size, seed): every step draws from its own
//! [`grid_core::Seed::stream`].
//!
//! ## Speed
//!
//! Measured on a 2 vCPU Intel Xeon shared with other jobs (figures vary by about 1.5x with the
//! load), one thread, with
//! `cargo bench -p heroes-zones --bench generate -- --warm-up-time 1 --measurement-time 3`
//! (see `benches/generate.rs`); full table in the crate README:
//!
//! | benchmark | median |
//! |---|---|
//! | reference `zones9.json`, 256x256 | 41.8 ms |
//! | reference `zones25.json`, 256x256 | 112.3 ms |
//! | 9 zones at 64 / 128 / 256 | 6.9 / 16.1 / 42.9 ms |

#![forbid(unsafe_code)]

pub mod borders;
pub mod buildings;
pub mod check;
pub mod connect;
pub mod contacts;
pub mod decorate;
pub mod document;
pub mod error;
pub mod hmm;
pub mod layout;
pub mod map;
pub mod measure;
pub mod obstacles;
pub mod passages;
pub mod pockets;
pub mod preview;
pub mod regrow;
pub mod relax;
pub mod reshape;
pub mod roads;
pub mod seal;
pub mod strength;
pub mod template;
pub mod thicken;
pub mod treasures;
pub mod validate;
pub mod vcmi;
pub mod visitables;
pub mod voronoi;
mod work;
mod zoning;

#[cfg(test)]
mod steps_tests;

pub use error::HeroesError;
pub use map::{
    Cell, Feature, HeroesMap, MapObject, ObjectKind, Realised, Stats, TreasureKind, ZoneInfo,
};
pub use template::{Config, ConnectionType, RandomRange, Surface, Template, ZoneKind};

use grid_core::Seed;
use grid_core::rand::RngExt;
use map::Cell as C;
use work::{SIDES, Work};

/// Attempts with derived seeds before a generation failure is reported.
pub const ATTEMPTS: u64 = 3;

/// Generates a `size x size` map (32, 64, 128 or 256) from `template` and `config`.
///
/// Validates first ([`validate::validate`]); then runs the pipeline. If the global check
/// fails, or a connection had to be left out (its zones do not touch and every portal id is
/// taken: see [`Stats::left_out`]), retries with derived seeds ([`ATTEMPTS`] in all) and
/// returns the first complete map, else the one with the fewest connections left out, else
/// the report.
pub fn generate(
    template: &Template,
    config: &Config,
    size: u32,
    seed: u64,
) -> Result<HeroesMap, HeroesError> {
    validate::validate(template, config, size)?;
    let mut last = None;
    let mut best: Option<HeroesMap> = None;
    for attempt in 0..ATTEMPTS {
        let s = if attempt == 0 {
            Seed(seed)
        } else {
            Seed(seed).child(attempt)
        };
        match run(template, config, size as usize, s) {
            Ok(m) if m.stats.left_out.is_empty() => return Ok(m),
            // Connections left out: another layout may realise them all.
            Ok(m) => {
                if best
                    .as_ref()
                    .is_none_or(|b| m.stats.left_out.len() < b.stats.left_out.len())
                {
                    best = Some(m);
                }
            }
            Err(e @ HeroesError::Generation(_)) => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    best.ok_or_else(|| last.unwrap_or_else(|| HeroesError::Generation("no attempt ran".into())))
}

/// The pipeline on a validated template.
fn run(
    template: &Template,
    config: &Config,
    side: usize,
    seed: Seed,
) -> Result<HeroesMap, HeroesError> {
    let n = template.zones.len();
    let positions = validate::zone_positions(template);
    let pos: Vec<usize> = positions.iter().map(|p| p.unwrap_or(0)).collect();
    // PORTAL connections need no shared border, so they do not pull zones together.
    let bordered: Vec<usize> = (0..template.connections.len())
        .filter(|&j| template.connections[j].kind != ConnectionType::Portal)
        .collect();
    let edges: Vec<(usize, usize)> = bordered
        .iter()
        .map(|&j| &template.connections[j])
        .map(|c| (pos[c.first as usize], pos[c.second as usize]))
        .collect();
    let mut rng = seed.stream("surfaces").rng();
    let surfaces: Vec<Surface> = template
        .zones
        .iter()
        .map(|z| {
            if z.surface == Surface::Random {
                Surface::DECORATABLE[rng.random_range(0..Surface::DECORATABLE.len())]
            } else {
                z.surface
            }
        })
        .collect();
    // 1-3. layout, Voronoi, borders
    let sizes: Vec<f64> = template
        .zones
        .iter()
        .map(|z| z.size.max(1) as f64)
        .collect();
    let zoning::Zoning {
        lay, cuts, part, ..
    } = zoning::run(side, &sizes, &edges, seed);
    let mut crossing = vec![false; template.connections.len()];
    for &k in &cuts {
        crossing[bordered[k]] = true;
    }
    let total: f64 = sizes.iter().sum();
    let mut zone_cells = vec![Vec::new(); n];
    for (i, &z) in part.zone_of.iter().enumerate() {
        zone_cells[z as usize].push(i as u32);
    }
    if let Some(z) = (0..n).find(|&z| zone_cells[z].is_empty()) {
        return Err(HeroesError::Generation(format!(
            "zones[{z}]: the zone got no cells"
        )));
    }
    let zones: Vec<ZoneInfo> = (0..n)
        .map(|z| {
            // Centre = centroid of the zone's cells (layout centres can fall outside them).
            let (sx, sy) = zone_cells[z].iter().fold((0.0, 0.0), |(a, b), &c| {
                (
                    a + (c as usize % side) as f64,
                    b + (c as usize / side) as f64,
                )
            });
            let k = zone_cells[z].len() as f64;
            ZoneInfo {
                index: template.zones[z].index,
                surface: surfaces[z],
                kind: template.zones[z].kind,
                centre: (sx / k, sy / k),
                radius: lay.radii[z],
                target_area: (sizes[z] / total * (side * side) as f64).round() as u32,
                area: part.areas[z],
            }
        })
        .collect();
    let mut cells = vec![C::Free as u8; side * side];
    for (i, cell) in cells.iter_mut().enumerate() {
        let (x, y) = (i % side, i / side);
        let z = part.zone_of[i];
        let border = SIDES.iter().any(|&(dx, dy)| {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            nx >= 0
                && ny >= 0
                && (nx as usize) < side
                && (ny as usize) < side
                && part.zone_of[ny as usize * side + nx as usize] != z
        });
        if border {
            *cell = C::Edge as u8;
        }
    }
    let mut w = Work {
        side,
        feature: vec![0; cells.len()],
        cells,
        zone_of: part.zone_of,
        zones,
        zone_cells,
        objects: Vec::new(),
        realised: vec![None; template.connections.len()],
        nodes: vec![Vec::new(); n],
        stats: Stats {
            max_area_error: part.max_error,
            ..Stats::default()
        },
    };
    // 4-5. buildings and visitables, 7. passages and portals (before obstacles, so their
    // approaches are kept free), 6. obstacles, 8. connect, 9. roads, 10. treasures, check.
    let mine_guards = buildings::place(
        &mut w,
        &template.zones,
        config,
        &mut seed.stream("buildings").rng(),
    );
    passages::place(
        &mut w,
        template,
        &pos,
        &crossing,
        config.connect_teleport_with_road.value,
        &mut seed.stream("passages").rng(),
    )?;
    seal::run(&mut w);
    visitables::place(
        &mut w,
        &template.zones,
        &mut seed.stream("visitables").rng(),
    );
    obstacles::place(&mut w, &mut seed.stream("obstacles").rng());
    connect::run(&mut w);
    obstacles::despeckle(&mut w);
    if config.add_roads {
        roads::run(&mut w);
    }
    let road_layer: Vec<bool> = w
        .cells
        .iter()
        .map(|&c| matches!(C::from_id(c), C::Road | C::Passage))
        .collect();
    treasures::place(
        &mut w,
        template,
        &pos,
        &mine_guards,
        config,
        &mut seed.stream("treasures").rng(),
    );
    check::run(&mut w)?;
    let decorations = decorate::run(&mut w);
    let realised = w
        .realised
        .into_iter()
        .map(|r| {
            r.unwrap_or(Realised::Portal {
                reason: "not realised",
            })
        })
        .collect();
    Ok(HeroesMap {
        name: template.name.clone(),
        size: side,
        cells: grid_core::Grid::from_vec(side, side, w.cells)
            .unwrap_or_else(|| grid_core::Grid::new(side, side, 0)),
        zone_of: grid_core::Grid::from_vec(side, side, w.zone_of)
            .unwrap_or_else(|| grid_core::Grid::new(side, side, 0)),
        features: grid_core::Grid::from_vec(side, side, w.feature)
            .unwrap_or_else(|| grid_core::Grid::new(side, side, 0)),
        zones: w.zones,
        objects: w.objects,
        decorations,
        connections: realised,
        stats: w.stats,
        spawn_hero: config.spawn_hero_at_castle.value,
        road_layer,
        legend: map::legend(),
    })
}
