//! The validated internal form of a script: names resolved to indices, neighbourhoods to
//! offsets, estimators to enum variants. The engine interprets this; it never looks up strings.

use crate::estimator::Estimator;
use crate::rule::Rule;
use grid_core::Rgb;

/// An inclusive integer range, drawn once per map (a plain number is `n..=n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// Smallest value.
    pub min: u64,
    /// Largest value (inclusive).
    pub max: u64,
}

/// One entity.
#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    /// Its name.
    pub name: String,
    /// Colour given by a 2017 script.
    pub color: Option<Rgb>,
    /// 2017 bounds on its count in the final map.
    pub count: Option<Range>,
}

/// A neighbourhood: its name and offsets `(dx, dy)` in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nbh {
    /// Its name.
    pub name: String,
    /// Offsets.
    pub offsets: Vec<(i32, i32)>,
}

impl Nbh {
    /// The neighbourhood `n` under `name`.
    pub fn new(name: &str, n: &grid_core::Neighborhood) -> Nbh {
        Nbh {
            name: name.to_string(),
            offsets: n
                .offsets()
                .iter()
                .map(|p| (p.x as i32, p.y as i32))
                .collect(),
        }
    }
}

/// A region divider.
#[derive(Clone, Debug, PartialEq)]
pub struct Divider {
    /// Which algorithm.
    pub kind: DividerKind,
    /// How many regions to keep.
    pub number: usize,
    /// `min` (equal: divisions; bsp/sampling: room size), `(w, h)`.
    pub min: (usize, usize),
    /// `max`, inclusive.
    pub max: (usize, usize),
}

/// Divider algorithms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DividerKind {
    /// A grid of equal cells.
    Equal,
    /// Binary space partition.
    Bsp,
    /// 2017 digger: a walker that turns and drops rooms centred on itself, each with a chance
    /// that grows by its probability every step it does not happen.
    Digger {
        /// Growth of the chance to turn, per step.
        prob_dir: f64,
        /// Growth of the chance to drop a room, per step.
        prob_spawn: f64,
        /// Whether rooms may overlap.
        allow_intersection: bool,
    },
    /// Random non-overlapping rectangles, with this many placement trials per region.
    Sampling {
        /// Placement trials per region (`None`: the reference's automatic count).
        trials: Option<usize>,
    },
}

/// Which regions an explorer runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionRef {
    /// The whole map.
    Map,
    /// Every divider region (the map when there is no divider).
    All,
    /// Divider region `i`.
    Index(usize),
}

/// How an explorer moves.
#[derive(Clone, Debug, PartialEq)]
pub enum ExplorerKind {
    /// Row-major scan from a random cell, wrapping.
    Horizontal,
    /// Column-major scan from a random cell, wrapping.
    Vertical,
    /// Uniformly random cells.
    RandomNarrow,
    /// A drunk walker.
    Drunk {
        /// Chance per step to pick a new direction.
        dirprob: f64,
    },
    /// A 2017 automaton with `start`/`exploration` ([`crate::explorer::flood`]).
    Flood {
        /// Where the walk starts, as fractions of the region's width and height.
        start: (f64, f64),
        /// The neighbourhood it steps along (index).
        explore: usize,
    },
    /// 2017 agents ([`crate::explorer::agents`]).
    Agents(crate::explorer::agents::AgentSpec),
    /// A greedy walker moving to the neighbour with the smallest heuristics.
    Greedy {
        /// Lexicographic heuristics (minimised).
        heuristics: Vec<Estimator>,
    },
    /// Connects the areas of `entities` with corridors along `directions`.
    Connect {
        /// Which codes form areas.
        entities: Vec<bool>,
        /// How the areas are joined (v0.3.0 tour or a 2017 connector type).
        style: ConnectStyle,
    },
    /// Every cell once, in ascending order of the heuristics.
    WideHeur {
        /// Lexicographic heuristics (minimised).
        heuristics: Vec<Estimator>,
    },
    /// Every cell once, in random order.
    WideRand,
}

/// How a connect explorer chooses which areas to join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectStyle {
    /// v0.3.0 `turtle_connect`: a minimum spanning tree of short corridors between
    /// neighbouring areas ([`crate::explorer::connect`]).
    Tour,
    /// v0.3.0 `turtle_connect` as the reference ran it, under [`Compat::Reference`]: a random
    /// tour between points near the areas' centres ([`crate::explorer::connect::tour`]).
    ReferenceTour,
    /// 2017 `short`: a minimum spanning tree of the shortest corridors between areas.
    Short,
    /// 2017 `random`: a random spanning tree; random cells of two areas are joined.
    Random,
    /// 2017 `hub`: every area joined by its shortest corridor to one hub area.
    Hub,
    /// 2017 `full`: a random spanning tree, then a corridor between every other pair.
    Full,
}

/// Which behaviour a script asks for where this crate improves on the reference in a way
/// that changes a map's statistics (and is not a defect fix).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compat {
    /// This crate's behaviour: connect digs a spanning tree of short corridors.
    #[default]
    Default,
    /// The reference's (v0.3.0): connect walks a random tour between area centres, so the
    /// reference's and the paper's expressive range can be reproduced.
    Reference,
}

impl Compat {
    /// The compatibility named `text` (`default` or `reference`).
    pub fn parse(text: &str) -> Option<Compat> {
        match text.trim() {
            "default" => Some(Compat::Default),
            "reference" => Some(Compat::Reference),
            _ => None,
        }
    }
}

/// A compiled explorer.
#[derive(Clone, Debug, PartialEq)]
pub struct Explorer {
    /// JSON path (`explorers[2]`), for warnings.
    pub path: String,
    /// Movement.
    pub kind: ExplorerKind,
    /// Regions, in order (duplicates kept).
    pub regions: Vec<RegionRef>,
    /// 2017 border inset range, applied per region.
    pub border: Option<Range>,
    /// 2017 `borderType: wrap`: neighbourhood reads and writes and walker moves wrap around
    /// the region's edges (the explorer runs through the interpreter).
    pub wrap: bool,
    /// Writes go to a back buffer copied in after each region pass.
    pub buffer: bool,
    /// Code read outside the region.
    pub out: u8,
    /// Passes.
    pub repeats: Range,
    /// Visits per region pass (default: the region's area).
    pub tiles: Option<Range>,
    /// Rule firings per region pass (default: the region's area).
    pub changes: Option<Range>,
    /// Movement neighbourhood (index).
    pub directions: usize,
    /// The rules; the first whose conditions hold fires.
    pub rules: Vec<Rule>,
    /// An order-free full scan ([`crate::explorer::row_order`]): visited row by row, a
    /// condition at a time, with no start cell drawn.
    pub order_free: bool,
    /// The most one visit reads ([`crate::cost`]), which the work budget charges.
    pub cost: crate::cost::VisitCost,
    /// Whether the rules or heuristics read `percent` or `cpercent` (else the passes skip
    /// setting them).
    pub progress: bool,
}

/// A whole validated script.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Smallest map `(w, h)`.
    pub min: (usize, usize),
    /// Largest map `(w, h)`, inclusive.
    pub max: (usize, usize),
    /// The divider.
    pub divider: Option<Divider>,
    /// Entities; code `i` is entity `i`, then `unknown`, then `out`.
    pub entities: Vec<Entity>,
    /// Every neighbourhood (user ones and predefined).
    pub nbhs: Vec<Nbh>,
    /// Explorers in order.
    pub explorers: Vec<Explorer>,
    /// Number of `dist` estimator cache slots.
    pub dist_slots: usize,
    /// The legend every map of this program shares.
    pub legend: std::sync::Arc<grid_core::Legend>,
    /// What the script says that has no effect (a parameter the explorer ignores).
    pub warnings: Vec<crate::error::Warning>,
    /// The reference's behaviour or this crate's, where they differ in statistics.
    pub compat: Compat,
}

impl Program {
    /// Sets the compatibility: `turtle_connect` explorers run the spanning tree or the
    /// reference's tour.
    pub fn set_compat(&mut self, compat: Compat) {
        self.compat = compat;
        for ex in &mut self.explorers {
            if let ExplorerKind::Connect { style, .. } = &mut ex.kind
                && matches!(style, ConnectStyle::Tour | ConnectStyle::ReferenceTour)
            {
                *style = match compat {
                    Compat::Default => ConnectStyle::Tour,
                    Compat::Reference => ConnectStyle::ReferenceTour,
                };
            }
        }
    }
}

impl Program {
    /// Code of the unknown value.
    pub fn unknown(&self) -> u8 {
        self.entities.len() as u8
    }
    /// Code of `out`.
    pub fn out(&self) -> u8 {
        self.entities.len() as u8 + 1
    }
}
