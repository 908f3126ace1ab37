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
//! | `planar_portals` | connections that became portals because they crossed others in the layout (the zone graph is not planar) |
//! | `removed_objects` | objects the crate's check had to remove |
//! | `terrain_features` | clumps of obstacle cells (8-connected) of 30 or more cells standing free of the borders: mountain ranges and forests (`heroes_zones::measure::terrain`, which also has clump counts, sizes and the forest share) |
//! | `border_obstacle_share` | share of the obstacle cells in clumps touching a border: the ridges |

use super::{AnalyzeError, OpenOptions, Probe, Row, SampleError, Subject, label_of, read_input};
use heroes_zones::{Config, Template};
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

pub use heroes_zones::measure::{area_errors, reachable_objects, reached, terrain};

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
            "planar_portals",
            "removed_objects",
            "terrain_features",
            "border_obstacle_share",
        ]
    }

    fn sample(&self, seed: u64, probe: &mut Probe) -> Result<Row, SampleError> {
        let (map, secs) = probe
            .generate(|| heroes_zones::generate(&self.template, &self.config, self.size, seed))?;
        let metrics = probe.measure(&map)?;
        let (max_err, mean_err) = area_errors(&map);
        let t = terrain(&map);
        let extras = [
            max_err,
            mean_err,
            map.objects.len() as f64,
            reachable_objects(&map),
            map.stats.forced_portals as f64,
            map.stats.planar_portals as f64,
            map.stats.removed.len() as f64,
            t.features as f64,
            t.border_share,
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
