//! [`HeroesMap`]: the generated map (cells, zones, objects, connections, measurements).

use crate::template::{Fraction, Resource, Surface, ZoneKind};
use grid_core::{Grid, Legend, TileId, TileKind, TileMap};

/// What a cell holds. The discriminant is the map's [`TileId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// Walkable ground.
    Free = 0,
    /// An obstacle (decorated with trees, rocks, mountains on export).
    Obstacle = 1,
    /// A zone border wall (an obstacle the automaton never changes).
    Edge = 2,
    /// Part of a building's footprint (not walkable).
    Building = 3,
    /// A building's or visitable's anchor cell: visited, not walked through.
    Entrance = 4,
    /// Kept free in front of an entrance so it stays reachable.
    Approach = 5,
    /// A road.
    Road = 6,
    /// A passage cell through a zone border.
    Passage = 7,
    /// A guard stands here.
    Guard = 8,
    /// A treasure lies here.
    Treasure = 9,
}

impl Cell {
    /// All kinds in id order.
    pub const ALL: [Cell; 10] = [
        Cell::Free,
        Cell::Obstacle,
        Cell::Edge,
        Cell::Building,
        Cell::Entrance,
        Cell::Approach,
        Cell::Road,
        Cell::Passage,
        Cell::Guard,
        Cell::Treasure,
    ];

    /// The kind of tile id `id` (Free for unknown ids).
    pub fn from_id(id: u8) -> Cell {
        Cell::ALL.get(id as usize).copied().unwrap_or(Cell::Free)
    }

    /// A hero can walk over it (guards and treasures count: they are beaten or picked up).
    pub fn walkable(self) -> bool {
        matches!(
            self,
            Cell::Free | Cell::Approach | Cell::Road | Cell::Passage | Cell::Guard | Cell::Treasure
        )
    }

    /// It is a wall for movement (obstacle, border, building).
    pub fn blocked(self) -> bool {
        matches!(self, Cell::Obstacle | Cell::Edge | Cell::Building)
    }
}

/// What an obstacle cell is part of (decides its drawing and its `.hmm` decorations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Feature {
    /// Not an obstacle, or an obstacle outside any feature (a filled pocket).
    None = 0,
    /// A ridge along a zone border.
    Ridge = 1,
    /// A mountain range inside a zone.
    Mountain = 2,
    /// A forest inside a zone.
    Forest = 3,
}

impl Feature {
    /// All kinds in id order.
    pub const ALL: [Feature; 4] = [
        Feature::None,
        Feature::Ridge,
        Feature::Mountain,
        Feature::Forest,
    ];

    /// The feature of id `id` (None for unknown ids).
    pub fn from_id(id: u8) -> Feature {
        Feature::ALL
            .get(id as usize)
            .copied()
            .unwrap_or(Feature::None)
    }
}

/// The legend of [`Cell`] ids.
pub fn legend() -> Legend {
    Legend::new(vec![
        TileKind::new("free", '.', [200, 190, 150]),
        TileKind::new("obstacle", '#', [60, 80, 40]),
        TileKind::new("edge", 'X', [40, 30, 30]),
        TileKind::new("building", 'B', [150, 40, 40]),
        TileKind::new("entrance", 'E', [240, 200, 40]),
        TileKind::new("approach", ',', [210, 200, 160]),
        TileKind::new("road", '=', [130, 100, 60]),
        TileKind::new("passage", 'P', [40, 120, 240]),
        TileKind::new("guard", 'G', [160, 40, 200]),
        TileKind::new("treasure", '$', [255, 120, 100]),
    ])
}

/// A treasure kind (PH `MAP_ITEM_TYPE` subset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreasureKind {
    /// A resource pile of the given mineral (type 0).
    Resource(Resource),
    /// A campfire (type 2).
    Campfire,
    /// A chest (type 3).
    Chest,
    /// An artifact (type 4) with its `hmm.xml` id.
    Artifact(&'static str),
}

/// What an object is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A castle (`small_01` or `small_02`).
    Castle {
        /// Castle id in `hmm.xml <Castles>`.
        id: &'static str,
        /// Faction.
        fraction: Fraction,
        /// Owner −1..5.
        player: i8,
    },
    /// A mine (ownerable).
    Mine {
        /// Ownerable id.
        id: &'static str,
        /// Its resource.
        resource: Resource,
        /// Owner −1..5.
        player: i8,
    },
    /// A visitable (dwelling, shrine, well, ...).
    Visitable {
        /// Visitable id.
        id: &'static str,
    },
    /// One end of a portal pair (a visitable teleport).
    Portal {
        /// Visitable id (`teleport1`, `teleport_red_ent`, ...).
        id: &'static str,
        /// The connection it realises.
        connection: usize,
    },
    /// A treasure (map item).
    Treasure {
        /// What it is.
        kind: TreasureKind,
        /// Its value in gold units (its share of the pile's).
        value: u32,
        /// The value of the whole pile it lies in (a value band's draw, or the sum of a
        /// richness pile's items).
        pile: u32,
    },
    /// A guard (random creature of a level).
    Guard {
        /// Level 0..6.
        level: u8,
        /// Creature count (0 = random).
        count: u32,
    },
}

/// A placed object: its anchor cell (the `.hmm` position) and zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapObject {
    /// What it is.
    pub kind: ObjectKind,
    /// Anchor x.
    pub x: u16,
    /// Anchor y.
    pub y: u16,
    /// Zone position in the template's list.
    pub zone: u16,
}

/// How a template connection was realised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Realised {
    /// Two passage cells across the shared border (flat indices).
    Passage([usize; 2]),
    /// A portal pair; `reason` says why no passage.
    Portal {
        /// Why: "PORTAL connection", [`crate::passages::NOT_PLANAR`] or "zones do not share
        /// a border".
        reason: &'static str,
    },
    /// Not realised: the zones do not touch and every portal id of the `.hmm` format is
    /// taken; the zones are still reachable through other connections.
    LeftOut {
        /// Why.
        reason: &'static str,
    },
}

/// One zone as generated.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneInfo {
    /// The template's zone index.
    pub index: i32,
    /// Its surface (RANDOM resolved).
    pub surface: Surface,
    /// Its kind.
    pub kind: ZoneKind,
    /// Layout centre in cells.
    pub centre: (f64, f64),
    /// Layout circle radius in cells.
    pub radius: f64,
    /// Cells wanted (its share of the map by `size`).
    pub target_area: u32,
    /// Cells it got.
    pub area: u32,
}

/// Measurements of one generation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Largest |area − target| / target over the zones (the issue asks for ≤ 0.15).
    pub max_area_error: f64,
    /// Connections that became portals because the zones did not touch.
    pub forced_portals: usize,
    /// Connections that became portals because they crossed others in the best layout found
    /// (a zone graph that is not planar cannot be drawn without crossings; see
    /// [`crate::layout::portal_cuts`]).
    pub planar_portals: usize,
    /// Cells carved by the connect step.
    pub carved_cells: usize,
    /// Objects the global check had to repair (carve to) or remove.
    pub repaired: usize,
    /// Objects removed because they could not be reached or placed.
    pub removed: Vec<String>,
    /// Connections left out (their zones do not touch and every portal id is taken), each
    /// described; the zone graph stays connected without them.
    pub left_out: Vec<String>,
    /// Lone wall cells inside zones freed by the decoration step (no multi-cell avatar fit
    /// them; see [`crate::decorate`]).
    pub freed_walls: usize,
    /// Free cells walled by the decoration step so a multi-cell avatar fits where a wall was
    /// one cell thin (see [`crate::thicken`]).
    pub thickened_walls: usize,
}

/// A generated Heroes map: a [`TileMap`] of [`Cell`] ids plus zones and objects.
#[derive(Clone, Debug)]
pub struct HeroesMap {
    /// Template name.
    pub name: String,
    /// Side in cells (32, 64, 128 or 256).
    pub size: usize,
    /// Cell kinds (as [`TileId`]s of [`legend`]).
    pub cells: Grid<u8>,
    /// Zone (position in the template list) of every cell.
    pub zone_of: Grid<u8>,
    /// The [`Feature`] id of every cell (meaningful on obstacle cells).
    pub features: Grid<u8>,
    /// The zones.
    pub zones: Vec<ZoneInfo>,
    /// Placed objects.
    pub objects: Vec<MapObject>,
    /// Obstacle avatars covering every wall cell, as the `.hmm` writes them.
    pub decorations: Vec<crate::decorate::Decoration>,
    /// The template's connections as realised (same order).
    pub connections: Vec<Realised>,
    /// Measurements.
    pub stats: Stats,
    /// Players' main castle create-hero flag.
    pub spawn_hero: bool,
    /// Whether a road runs under each cell (row-major): the road and passage cells as the
    /// roads step drew them, including those a treasure or guard was later placed on (an
    /// object stands on the road, as in the game). Empty when unknown.
    pub road_layer: Vec<bool>,
    pub(crate) legend: Legend,
}

impl HeroesMap {
    /// The cell kind at flat index `i`.
    #[inline]
    pub fn cell(&self, i: usize) -> Cell {
        Cell::from_id(self.cells.as_slice()[i])
    }

    /// Which cells carry a road: road and passage cells, walkable cells of the
    /// [`HeroesMap::road_layer`] (a treasure or guard standing on a road), and the cells of
    /// realised passages.
    pub fn road_cells(&self) -> Vec<bool> {
        let mut road: Vec<bool> = (0..self.cells.as_slice().len())
            .map(|i| {
                let c = self.cell(i);
                matches!(c, Cell::Road | Cell::Passage)
                    || (c.walkable() && self.road_layer.get(i).copied().unwrap_or(false))
            })
            .collect();
        for r in &self.connections {
            if let Realised::Passage(cells) = r {
                for &c in cells {
                    road[c] = true;
                }
            }
        }
        road
    }

    /// The feature an obstacle at flat index `i` belongs to ([`Feature::None`] elsewhere).
    #[inline]
    pub fn feature(&self, i: usize) -> Feature {
        if self.cell(i) == Cell::Obstacle {
            Feature::from_id(self.features.as_slice()[i])
        } else {
            Feature::None
        }
    }

    /// Surface of cell `(x, y)` (its zone's).
    pub fn surface_at(&self, x: usize, y: usize) -> Surface {
        self.zones[*self.zone_of.at(x, y) as usize].surface
    }
}

impl TileMap for HeroesMap {
    fn width(&self) -> usize {
        self.size
    }
    fn height(&self) -> usize {
        self.size
    }
    fn tile(&self, x: usize, y: usize) -> TileId {
        *self.cells.at(x, y) as TileId
    }
    fn legend(&self) -> &Legend {
        &self.legend
    }
}
