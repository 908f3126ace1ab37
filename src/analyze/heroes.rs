//! The Heroes-zones adapter: the input is a template JSON (or a VCMI template file holding
//! one template, at the side it suggests); map `seed` is
//! `heroes_zones::generate(template, config, size, seed)` with `config` from `--config` (a
//! config JSON; default: the crate's built-in config) and `size` from `--size` (32, 64, 128 or
//! 256; default: the config's `mapSize` when `--config` is given, else [`DEFAULT_SIZE`]).
//!
//! Empty tiles default to the walkable cells: `free`, `approach`, `road`, `passage`, `guard`
//! and `treasure` (guards and treasures are walked onto), so regions counts the walkable areas
//! (zones joined by passages count as one; portal-only zones as separate regions).
//!
//! Extras:
//!
//! | column | meaning |
//! |---|---|
//! | `max_zone_area_error` | largest `|area - target| / target` over the zones (the crate's own measure) |
//! | `mean_zone_area_error` | the same, averaged over the zones |
//! | `objects` | placed objects (castles, mines, visitables, portals, treasures, guards) |
//! | `reachable_objects` | fraction of objects a hero reaches from the first castle, walking 4-connected and through portals, computed here independently of the crate's own check |
//! | `forced_portals` | connections that became portals because their zones do not touch |
//! | `removed_objects` | objects the crate's check had to remove |

use super::{AnalyzeError, OpenOptions, Probe, Row, SampleError, Subject, label_of, read_input};
use grid_core::Grid;
use heroes_zones::{Config, HeroesMap, ObjectKind, Template};
use std::path::Path;

/// Map side when `--size` is not given.
pub const DEFAULT_SIZE: u32 = 128;

/// A parsed template and the map size.
#[derive(Debug)]
pub struct HeroesSubject {
    label: String,
    template: Template,
    config: Config,
    size: u32,
}

/// Opens a template for analysis.
pub fn open(path: &Path, options: &OpenOptions) -> Result<Box<dyn Subject>, AnalyzeError> {
    let text = read_input(path)?;
    let (template, vcmi_side) = if heroes_zones::vcmi::is_vcmi(&text) {
        let opts = heroes_zones::vcmi::Options {
            players: None,
            side: options.size,
        };
        let c = heroes_zones::vcmi::load(&text, None, &opts)
            .map_err(|e| AnalyzeError::input(path, e))?;
        (c.template, Some(c.side))
    } else {
        let t = Template::from_json(&text).map_err(|e| AnalyzeError::input(path, e))?;
        (t, None)
    };
    let config = match &options.config {
        Some(p) => Config::from_json(&read_input(p)?).map_err(|e| AnalyzeError::input(p, e))?,
        None => Config::default(),
    };
    let (size, from) = match (options.size, &options.config) {
        (Some(size), _) => (size, (path, "--size")),
        (None, Some(p)) => (config.map_size, (p.as_path(), "config.mapSize")),
        (None, None) => (vcmi_side.unwrap_or(DEFAULT_SIZE), (path, "--size")),
    };
    if ![32, 64, 128, 256].contains(&size) {
        return Err(AnalyzeError::input(
            from.0,
            format!("{} {size}: a Heroes map side is 32, 64, 128 or 256", from.1),
        ));
    }
    Ok(Box::new(HeroesSubject {
        label: label_of(path),
        template,
        config,
        size,
    }))
}

/// `(max, mean)` of `|area - target| / target` over the zones.
pub fn area_errors(map: &HeroesMap) -> (f64, f64) {
    let errs: Vec<f64> = map
        .zones
        .iter()
        .filter(|z| z.target_area > 0)
        .map(|z| (z.area as f64 - z.target_area as f64).abs() / z.target_area as f64)
        .collect();
    if errs.is_empty() {
        return (0.0, 0.0);
    }
    let max = errs.iter().copied().fold(0.0, f64::max);
    (max, errs.iter().sum::<f64>() / errs.len() as f64)
}

const SIDES: [(i64, i64); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

fn neighbours(side: usize, i: usize) -> impl Iterator<Item = usize> {
    let (x, y) = ((i % side) as i64, (i / side) as i64);
    SIDES.iter().filter_map(move |&(dx, dy)| {
        let (nx, ny) = (x + dx, y + dy);
        (nx >= 0 && ny >= 0 && (nx as usize) < side && (ny as usize) < side)
            .then(|| ny as usize * side + nx as usize)
    })
}

/// Cells a hero reaches from the walkable side of the first castle (else the first walkable
/// cell), walking 4-connected over walkable cells; a reached portal end opens the walkable
/// sides of the other ends of its connection.
pub fn reached(map: &HeroesMap) -> Grid<bool> {
    let side = map.size;
    let n = side * side;
    let mut seen = vec![false; n];
    let walk = |i: usize| map.cell(i).walkable();
    let anchor = |x: u16, y: u16| y as usize * side + x as usize;
    let start = map
        .objects
        .iter()
        .find(|o| matches!(o.kind, ObjectKind::Castle { .. }))
        .and_then(|o| neighbours(side, anchor(o.x, o.y)).find(|&nb| walk(nb)))
        .or_else(|| (0..n).find(|&i| walk(i)));
    let portals: Vec<(usize, usize)> = map
        .objects
        .iter()
        .filter_map(|o| match o.kind {
            ObjectKind::Portal { connection, .. } => Some((connection, anchor(o.x, o.y))),
            _ => None,
        })
        .collect();
    let mut opened = vec![false; portals.len()];
    let mut queue: Vec<usize> = start.into_iter().collect();
    for &s in &queue {
        seen[s] = true;
    }
    // Each round floods, then opens newly touched portals; at most one round per portal.
    for _ in 0..=portals.len() {
        while let Some(i) = queue.pop() {
            for nb in neighbours(side, i) {
                if !seen[nb] && walk(nb) {
                    seen[nb] = true;
                    queue.push(nb);
                }
            }
        }
        for k in 0..portals.len() {
            let at = portals[k].1;
            if opened[k] || !(seen[at] || neighbours(side, at).any(|nb| seen[nb])) {
                continue;
            }
            opened[k] = true;
            for &(conn, at) in &portals {
                if conn == portals[k].0 {
                    for nb in neighbours(side, at) {
                        if !seen[nb] && walk(nb) {
                            seen[nb] = true;
                            queue.push(nb);
                        }
                    }
                }
            }
        }
        if queue.is_empty() {
            break;
        }
    }
    Grid::from_vec(side, side, seen).unwrap_or_else(|| Grid::new(0, 0, false))
}

/// Fraction of objects whose anchor is reached or touches a reached cell (1 with no objects).
pub fn reachable_objects(map: &HeroesMap) -> f64 {
    if map.objects.is_empty() {
        return 1.0;
    }
    let seen = reached(map);
    let side = map.size;
    let ok = map
        .objects
        .iter()
        .filter(|o| {
            let at = o.y as usize * side + o.x as usize;
            at < side * side
                && (seen.as_slice()[at] || neighbours(side, at).any(|nb| seen.as_slice()[nb]))
        })
        .count();
    ok as f64 / map.objects.len() as f64
}

impl Subject for HeroesSubject {
    fn label(&self) -> &str {
        &self.label
    }

    fn default_empty(&self) -> &'static [&'static str] {
        &["free", "approach", "road", "passage", "guard", "treasure"]
    }

    fn extra_names(&self) -> &'static [&'static str] {
        &[
            "max_zone_area_error",
            "mean_zone_area_error",
            "objects",
            "reachable_objects",
            "forced_portals",
            "removed_objects",
        ]
    }

    fn sample(&self, seed: u64, probe: &mut Probe) -> Result<Row, SampleError> {
        let (map, secs) = probe
            .generate(|| heroes_zones::generate(&self.template, &self.config, self.size, seed))?;
        let metrics = probe.measure(&map)?;
        let (max_err, mean_err) = area_errors(&map);
        let extras = [
            max_err,
            mean_err,
            map.objects.len() as f64,
            reachable_objects(&map),
            map.stats.forced_portals as f64,
            map.stats.removed.len() as f64,
        ];
        Ok(probe.row(seed, metrics, &extras, secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{EmptyNames, Probe};
    use grid_core::metrics::BlockGrid;
    use heroes_zones::Cell;

    fn template() -> Option<Template> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/heroes/duel.json");
        let text = std::fs::read_to_string(path).ok()?;
        Template::from_json(&text).ok()
    }

    #[test]
    fn default_empty_set_is_the_walkable_cells() {
        let names = heroes_zones::map::legend();
        let subject_empty = ["free", "approach", "road", "passage", "guard", "treasure"];
        for (id, kind) in names.kinds().iter().enumerate() {
            let c = Cell::from_id(id as u8);
            assert_eq!(
                subject_empty.contains(&kind.name.as_str()),
                c.walkable(),
                "{}",
                kind.name
            );
        }
    }

    #[test]
    fn duel_maps_reach_every_object_and_fit_the_area_tolerance() {
        let Some(template) = template() else {
            eprintln!("skipping: examples/heroes/duel.json not found");
            return;
        };
        let subject = HeroesSubject {
            label: "duel".into(),
            template,
            config: Config::default(),
            size: 64,
        };
        let mut probe = Probe::new(EmptyNames::defaults(&subject), BlockGrid::PAPER);
        for seed in 0..3 {
            let row = match subject.sample(seed, &mut probe) {
                Ok(r) => r,
                Err(e) => panic!("seed {seed}: {e:?}"),
            };
            assert_eq!((row.metrics.width, row.metrics.height), (64, 64));
            assert!(row.extras[2] > 0.0, "no objects");
            // The crate's global check guarantees reachability; our independent walk agrees.
            assert_eq!(row.extras[3], 1.0, "seed {seed}");
            assert!(row.extras[0] >= row.extras[1]);
            assert!(row.metrics.empty_fraction > 0.0 && row.metrics.regions >= 1);
        }
    }
}
