//! The metrics a spec can name, and the [`Metric`] trait for a user's own.
//!
//! | name | value on one map |
//! |---|---|
//! | every metric of grid-core's registry ([`grid_core::metrics::registry`]): `empty_fraction`, `regions`, `block_entropy`, `longest_path`, `largest_region` | read with the spec's passable tiles as the empty ones and its `measure` settings |
//! | `count:NAME` or `count:A\|B` | cells holding those entities |
//! | `distance:A:B` or `distance:A:B:C...` | BFS steps A → B (→ C ...) through passable cells, summed over the legs; -1 when a leg is unreachable or an entity is absent (from the nearest A to the nearest B, then from the nearest B to the nearest C) |
//! | `distinct` | fraction of the candidate's maps that differ from every other (the same for each of its maps) |
//! | `diversity` | mean Hamming distance between two of the candidate's maps, as a fraction of the cells (maps of different sizes count as wholly different; the same for each of its maps) |
//! | `nearest` | mean over the candidate's maps of the Hamming distance to the nearest other map ([`crate::diversity`]) |
//! | `isolated:T` | share of the candidate's maps whose nearest other map is at least `T` (a Hamming fraction) away |
//! | `nearest_layout` | mean over the candidate's maps of the layout distance (passable fraction per block) to the nearest other map |
//! | the generator's extras | `playable`, `enemies_per_100`, ... for Heroes, Mario and zones ([`crate::generator`]) |
//! | any other name | a [`Metric`] registered with [`crate::Search::with_metrics`] |
//!
//! All are computed with `grid_core` ([`grid_core::metrics`], [`grid_core::metrics::paths`]).

use crate::diversity::SetMetric;
use crate::error::SearchError;
use crate::external::External;
use grid_core::metrics::paths::{path_distance, tile_counts};
use grid_core::metrics::registry::{self, MetricDef, Settings};
use grid_core::metrics::{BlockGrid, EmptySet, MetricsScratch};
use grid_core::text::excerpt;
use grid_core::{Connectivity, TileId, TileMap};
use std::sync::Arc;

/// A user's own measure of a map. Register it with [`crate::Search::with_metrics`] and name
/// it in constraints, objectives or MAP-Elites axes like a built-in metric.
///
/// ```
/// use levelgen_search::Metric;
/// use grid_core::TileMap;
/// /// The fraction of border cells that are the first entity (a wall, say).
/// #[derive(Debug)]
/// struct WalledBorder;
/// impl Metric for WalledBorder {
///     fn name(&self) -> &str { "walled_border" }
///     fn measure(&self, map: &dyn TileMap) -> f64 {
///         let (w, h) = (map.width(), map.height());
///         let border: Vec<(usize, usize)> = (0..w).flat_map(|x| [(x, 0), (x, h - 1)])
///             .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)])).collect();
///         border.iter().filter(|&&(x, y)| map.tile(x, y) == 0).count() as f64
///             / border.len() as f64
///     }
/// }
/// ```
pub trait Metric: Send + Sync + std::fmt::Debug {
    /// The name specs use.
    fn name(&self) -> &str;
    /// The value on one map (finite; it is averaged over a candidate's maps).
    fn measure(&self, map: &dyn TileMap) -> f64;
}

/// One metric a spec names.
#[derive(Clone, Debug)]
pub enum MetricKind {
    /// A metric of grid-core's registry.
    Map(&'static MetricDef),
    /// Cells holding any of these entities.
    Count(Vec<String>),
    /// Summed path distance along these stops.
    Distance(Vec<String>),
    /// Fraction of distinct maps of the candidate.
    Distinct,
    /// Mean pairwise Hamming distance of the candidate's maps.
    Diversity,
    /// Another measure of the candidate's whole set of maps ([`crate::diversity`]).
    Set(SetMetric),
    /// A registered metric.
    Custom(Arc<dyn Metric>),
    /// The generator's own measure at this index of [`crate::generator::Kind::extras`].
    Extra(usize),
    /// A registry metric or a distance read with its own passable entities.
    Passable(Box<MetricKind>, Vec<String>),
    /// An external command or a caller's function ([`crate::external`]).
    External(Arc<External>),
}

/// The names this crate adds to the registry's.
const OWN: &str =
    "distinct, diversity, nearest, isolated:T, nearest_layout, count:NAME, distance:A:B[:C...]";

impl MetricKind {
    /// Reads a metric name; entity names must be among `entities`, custom names among
    /// `custom`. `path` names the place in the spec for errors.
    pub fn parse(
        name: &str,
        entities: &[String],
        extras: &[&str],
        custom: &[Arc<dyn Metric>],
        path: &str,
    ) -> Result<Self, SearchError> {
        let unknown = || SearchError::UnknownMetric {
            path: path.to_string(),
            name: excerpt(name),
            known: custom
                .iter()
                .map(|m| m.name().to_string())
                .chain(extras.iter().map(|e| e.to_string()))
                .chain([registry::names(), OWN.to_string()])
                .collect::<Vec<_>>()
                .join(", "),
        };
        let known_entity = |e: &str| -> Result<String, SearchError> {
            if entities.iter().any(|n| n == e) {
                Ok(e.to_string())
            } else {
                Err(SearchError::value(
                    path,
                    format!(
                        "{}: {} is not an entity of the script (known: {})",
                        excerpt(name),
                        excerpt(e),
                        entities.join(", ")
                    ),
                ))
            }
        };
        if let Some(m) = custom.iter().find(|m| m.name() == name) {
            return Ok(Self::Custom(m.clone()));
        }
        if let Some(i) = extras.iter().position(|e| *e == name) {
            return Ok(Self::Extra(i));
        }
        if let Some(def) = registry::find(name) {
            return Ok(Self::Map(def));
        }
        Ok(match name {
            "distinct" => Self::Distinct,
            "diversity" => Self::Diversity,
            "nearest" => Self::Set(SetMetric::Nearest),
            "nearest_layout" => Self::Set(SetMetric::NearestLayout),
            _ => match name.split_once(':') {
                Some(("isolated", t)) => match t.parse::<f64>() {
                    Ok(t) if (0.0..=1.0).contains(&t) => Self::Set(SetMetric::Isolated(t)),
                    _ => {
                        return Err(SearchError::value(
                            path,
                            format!(
                                "{}: the threshold must be a fraction of the cells, 0 to 1",
                                excerpt(name)
                            ),
                        ));
                    }
                },
                Some(("count", list)) => Self::Count(
                    list.split('|')
                        .map(known_entity)
                        .collect::<Result<_, _>>()?,
                ),
                Some(("distance", stops)) => {
                    let stops: Vec<String> = stops
                        .split(':')
                        .map(known_entity)
                        .collect::<Result<_, _>>()?;
                    if stops.len() < 2 {
                        return Err(unknown());
                    }
                    Self::Distance(stops)
                }
                _ => return Err(unknown()),
            },
        })
    }
}

/// The metrics of a search, resolved against one script's legend.
#[derive(Debug)]
pub struct Resolved {
    /// Each metric, with its own passable tiles when it has them.
    kinds: Vec<(Resolve, Option<EmptySet>)>,
    passable: EmptySet,
    settings: Settings,
    needs_basic: bool,
    needs_counts: bool,
}

#[derive(Debug)]
enum Resolve {
    Map(&'static MetricDef),
    Count(Vec<TileId>),
    Distance(Vec<Vec<TileId>>),
    Distinct,
    Set(SetMetric),
    Custom(Arc<dyn Metric>),
    Extra(usize),
    External(Arc<External>),
}

fn resolve(kind: &MetricKind, legend: &grid_core::Legend) -> (Resolve, Option<EmptySet>) {
    let ids = |names: &[String]| -> Vec<TileId> {
        names.iter().filter_map(|n| legend.id_of(n)).collect()
    };
    let r = match kind {
        MetricKind::Map(def) => Resolve::Map(def),
        MetricKind::Count(names) => Resolve::Count(ids(names)),
        MetricKind::Distance(stops) => {
            Resolve::Distance(stops.iter().map(|s| ids(std::slice::from_ref(s))).collect())
        }
        MetricKind::Distinct => Resolve::Distinct,
        MetricKind::Diversity => Resolve::Set(SetMetric::Diversity),
        MetricKind::Set(m) => Resolve::Set(*m),
        MetricKind::Custom(m) => Resolve::Custom(m.clone()),
        MetricKind::Extra(i) => Resolve::Extra(*i),
        MetricKind::External(c) => Resolve::External(c.clone()),
        MetricKind::Passable(inner, names) => {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let own = EmptySet::from_names_present(legend, &names);
            return (resolve(inner, legend).0, Some(own));
        }
    };
    (r, None)
}

/// How maps are measured: the passable entities, the connectivity and the entropy blocks.
#[derive(Clone, Debug)]
pub struct MeasureSetup {
    /// Passable entity names.
    pub passable: Vec<String>,
    /// 4- or 8-connected.
    pub conn: Connectivity,
    /// Entropy blocks.
    pub blocks: BlockGrid,
    /// Passable cells up to which the longest path is exact.
    pub exact_path_cells: usize,
}

impl MeasureSetup {
    /// The registry's settings these give.
    pub fn settings(&self) -> Settings {
        Settings {
            conn: self.conn,
            blocks: self.blocks,
            exact_path_cells: self.exact_path_cells,
        }
    }
}

impl Resolved {
    /// Resolves `kinds` against `legend` (names the legend lacks match nothing).
    pub fn new(kinds: &[MetricKind], setup: &MeasureSetup, legend: &grid_core::Legend) -> Self {
        let names: Vec<&str> = setup.passable.iter().map(String::as_str).collect();
        let kinds: Vec<(Resolve, Option<EmptySet>)> =
            kinds.iter().map(|k| resolve(k, legend)).collect();
        let settings = setup.settings();
        // One pass gives the registry's summary metrics (4-connected; 8-connected settings
        // measure each on its own).
        let needs_basic = settings.conn == Connectivity::Four
            && kinds.iter().any(|(k, own)| {
                own.is_none() && matches!(k, Resolve::Map(def) if def.from_summary.is_some())
            });
        let needs_counts = kinds.iter().any(|(k, _)| matches!(k, Resolve::Count(_)));
        Self {
            kinds,
            passable: EmptySet::from_names_present(legend, &names),
            settings,
            needs_basic,
            needs_counts,
        }
    }

    /// The values of every metric on `map`, in order (`distinct` is left at 0 and filled in
    /// by the caller, which sees all of a candidate's maps).
    pub fn measure(
        &self,
        map: &dyn TileMap,
        scratch: &mut MetricsScratch,
        out: &mut Vec<f64>,
    ) -> Result<(), String> {
        self.measure_with(map, &[], scratch, out)
    }

    /// [`Resolved::measure`] with the generator's extras of this map
    /// ([`crate::generator::Generated::extras`]). Fails only when an external command
    /// does.
    pub fn measure_with(
        &self,
        map: &dyn TileMap,
        extras: &[f64],
        scratch: &mut MetricsScratch,
        out: &mut Vec<f64>,
    ) -> Result<(), String> {
        out.clear();
        let basic = self
            .needs_basic
            .then(|| scratch.measure(map, &self.passable, self.settings.blocks));
        let counts = self.needs_counts.then(|| tile_counts(map));
        for (kind, own) in &self.kinds {
            let passable = own.as_ref().unwrap_or(&self.passable);
            let value = match kind {
                Resolve::Map(def) => {
                    let summary = basic.as_ref().filter(|_| own.is_none());
                    def.value(map, passable, &self.settings, summary)
                }
                Resolve::Count(ids) => counts.as_ref().map_or(0.0, |c| {
                    ids.iter()
                        .map(|&i| c.get(i as usize).copied().unwrap_or(0))
                        .sum::<usize>() as f64
                }),
                Resolve::Distance(stops) => self.distance(map, stops, passable),
                Resolve::Distinct | Resolve::Set(_) => 0.0,
                Resolve::Custom(m) => m.measure(map),
                Resolve::Extra(i) => extras.get(*i).copied().unwrap_or(0.0),
                Resolve::External(c) => c.measure(map)?,
            };
            out.push(value);
        }
        Ok(())
    }

    fn distance(&self, map: &dyn TileMap, stops: &[Vec<TileId>], passable: &EmptySet) -> f64 {
        let mut total = 0.0;
        for leg in stops.windows(2) {
            match path_distance(map, &leg[0], &leg[1], passable, self.settings.conn) {
                Some(d) => total += d as f64,
                None => return -1.0,
            }
        }
        total
    }

    /// The positions of the `distinct` metric, to fill in.
    pub fn distinct_slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots(|k| matches!(k, Resolve::Distinct))
    }

    /// The positions of the set-level metrics (`diversity`, `nearest`, ...), to fill in
    /// once the candidate's maps are made.
    pub fn set_slots(&self) -> impl Iterator<Item = (usize, SetMetric)> + '_ {
        self.kinds
            .iter()
            .enumerate()
            .filter_map(|(i, (k, _))| match k {
                Resolve::Set(m) => Some((i, *m)),
                _ => None,
            })
    }

    /// A map's layout for `nearest_layout` (cells row by row, `width` wide).
    pub fn layout(&self, cells: &[TileId], width: usize) -> Vec<f64> {
        crate::diversity::layout(cells, width, &self.passable, self.settings.blocks)
    }

    fn slots(&self, pick: fn(&Resolve) -> bool) -> impl Iterator<Item = usize> + '_ {
        self.kinds
            .iter()
            .enumerate()
            .filter(move |(_, (k, _))| pick(k))
            .map(|(i, _)| i)
    }
}

pub use crate::diversity::mean_hamming;

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::{Legend, TileGrid, TileKind, TileMap};

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// The set-up of a test: `passable` tiles, `conn`, `side` x `side` blocks.
    fn setup(passable: &[&str], conn: Connectivity, side: usize) -> MeasureSetup {
        MeasureSetup {
            passable: names(passable),
            conn,
            blocks: BlockGrid::square(side),
            exact_path_cells: 1024,
        }
    }

    /// The values of `kinds` on `map` under `setup`.
    fn measured(kinds: &[MetricKind], setup: &MeasureSetup, map: &TileGrid) -> Vec<f64> {
        let r = Resolved::new(kinds, setup, map.legend());
        let mut out = Vec::new();
        r.measure(map, &mut MetricsScratch::new(), &mut out)
            .unwrap();
        out
    }

    #[test]
    fn names_parse_and_errors_list_the_known() {
        let ents = names(&["empty", "solid", "player", "key"]);
        let p = |n: &str| MetricKind::parse(n, &ents, &[], &[], "constraints[0].metric");
        assert!(matches!(p("regions"), Ok(MetricKind::Map(d)) if d.name == "regions"));
        assert!(matches!(p("count:player|key"), Ok(MetricKind::Count(v)) if v.len() == 2));
        assert!(matches!(p("distance:player:key"), Ok(MetricKind::Distance(v)) if v.len() == 2));
        assert_eq!(
            p("count:door").unwrap_err().to_string(),
            "constraints[0].metric: \"count:door\": \"door\" is not an entity of the script (known: empty, solid, player, key)"
        );
        assert!(p("longest").unwrap_err().to_string().starts_with(
            "constraints[0].metric: unknown metric \"longest\" (known: empty_fraction, regions"
        ));
        assert!(p("distance:player").is_err());
    }

    #[test]
    fn measures_a_map_by_hand() {
        let legend = Legend::new(vec![
            TileKind::new("empty", '.', [255; 3]),
            TileKind::new("solid", '#', [0; 3]),
            TileKind::new("player", '@', [0, 0, 255]),
            TileKind::new("key", 'k', [255, 200, 0]),
        ]);
        let map = TileGrid::from_text("@..#\n##.#\nk..#\n", legend.clone()).unwrap();
        let ents = names(&["empty", "solid", "player", "key"]);
        let kinds: Vec<MetricKind> = [
            "empty_fraction",
            "regions",
            "longest_path",
            "count:player|key",
            "distance:player:key",
            "distance:key:player:key",
            "distinct",
        ]
        .iter()
        .map(|n| MetricKind::parse(n, &ents, &[], &[], "x").unwrap())
        .collect();
        let setup = setup(&["empty", "player", "key"], Connectivity::Four, 1);
        let r = Resolved::new(&kinds, &setup, &legend);
        let out = measured(&kinds, &setup, &map);
        // 7 passable cells of 12 in one snake: @ . . / . / k . . (6 steps from @ to k).
        assert_eq!(out, vec![7.0 / 12.0, 1.0, 6.0, 2.0, 6.0, 12.0, 0.0]);
        assert_eq!(r.distinct_slots().collect::<Vec<_>>(), vec![6]);
    }

    /// Every metric of grid-core's registry is a spec name, measured by the registry with
    /// the spec's settings (here 8-connected, where the regions differ from the paper's).
    #[test]
    fn registry_metrics_are_the_registrys() {
        let legend = Legend::new(vec![
            TileKind::new("empty", '.', [255; 3]),
            TileKind::new("solid", '#', [0; 3]),
        ]);
        let map = TileGrid::from_text("..#.\n#.#.\n.#..\n", legend.clone()).unwrap();
        let ents = names(&["empty", "solid"]);
        let kinds: Vec<MetricKind> = registry::METRICS
            .iter()
            .map(|d| MetricKind::parse(d.name, &ents, &[], &[], "x").unwrap())
            .collect();
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let setup = setup(&["empty"], conn, 2);
            let out = measured(&kinds, &setup, &map);
            let empty = EmptySet::from_ids(&[0]);
            let want: Vec<f64> = registry::METRICS
                .iter()
                .map(|d| d.value(&map, &empty, &setup.settings(), None))
                .collect();
            assert_eq!(out, want, "{conn:?}");
        }
        // (0,2) and (2,2) touch (1,1) diagonally: 3 regions 4-connected, 1 8-connected.
        let regions = |conn| {
            let s = Settings {
                conn,
                ..Settings::PAPER
            };
            registry::find("regions")
                .unwrap()
                .value(&map, &EmptySet::from_ids(&[0]), &s, None)
        };
        assert_eq!(
            (regions(Connectivity::Four), regions(Connectivity::Eight)),
            (3.0, 1.0)
        );
    }

    /// "Reach the key without passing the door": a distance whose own passable tiles leave
    /// the door out.
    #[test]
    fn a_metric_reads_its_own_passable_tiles() {
        let legend = Legend::new(vec![
            TileKind::new("empty", '.', [255; 3]),
            TileKind::new("solid", '#', [0; 3]),
            TileKind::new("player", '@', [0, 0, 255]),
            TileKind::new("key", 'k', [255, 200, 0]),
            TileKind::new("door", 'D', [120, 60, 0]),
        ]);
        // The only way from @ to k goes through D; the top row's floor is a dead end.
        let map = TileGrid::from_text("@.D.k\n#####\n", legend.clone()).unwrap();
        let ents = names(&["empty", "solid", "player", "key", "door"]);
        let distance = MetricKind::parse("distance:player:key", &ents, &[], &[], "x").unwrap();
        let region = MetricKind::parse("largest_region", &ents, &[], &[], "x").unwrap();
        let no_door = names(&["empty", "player", "key"]);
        let kinds = vec![
            distance.clone(),
            MetricKind::Passable(Box::new(distance), no_door.clone()),
            region.clone(),
            MetricKind::Passable(Box::new(region), no_door),
        ];
        let setup = setup(&["empty", "player", "key", "door"], Connectivity::Four, 1);
        let out = measured(&kinds, &setup, &map);
        // Through the door 4 steps, one region; without it unreachable, 2 of 4 cells.
        assert_eq!(out, vec![4.0, -1.0, 1.0, 0.5]);
    }

    #[test]
    fn hamming_by_hand() {
        // Pairs: (a, b) differ in 1 of 4, (a, c) in 4 of 4, (b, c) in 3 of 4.
        let maps = vec![vec![0, 0, 0, 0], vec![0, 0, 0, 1], vec![1, 1, 1, 1]];
        assert!((mean_hamming(&maps) - (0.25 + 1.0 + 0.75) / 3.0).abs() < 1e-12);
        assert_eq!(mean_hamming(&maps[..1]), 0.0);
        assert_eq!(mean_hamming(&[vec![0], vec![0, 0]]), 1.0);
    }
}
