//! What rules cost: every estimator and executer declares the cells one reading of it
//! touches ([`Cost`]), and an explorer's visit costs the sum ([`VisitCost`]). The work budget
//! ([`crate::explorer::visit_budget`]) charges a visit by it, so a rule reading a
//! neighbourhood of 40,000 cells is charged as the 40,000 reads it makes, not as one visit.
//!
//! A new estimator declares its cost in [`Estimator::cost`] (a `match` with no catch-all, so
//! it cannot be forgotten): an estimator that reads a row of the region is
//! [`Cost::Width`], one that reads the whole region [`Cost::Area`].

use crate::estimator::Estimator;
use crate::executer::Executer;
use crate::program::{Explorer, ExplorerKind};
use grid_core::Rect;

/// Most cells one neighbourhood may hold: 65,536 (a full 255x255 square has 65,025). A
/// reading of it touches every cell, so a rule over a larger neighbourhood would make every
/// visit cost as much as a scan of a 256x256 map.
pub const MAX_NBH_CELLS: usize = 1 << 16;

/// The cell reads one visit may make and still count as one visit of the work budget: a
/// visit reading more is charged one visit per [`READS_PER_VISIT`] reads (rounded up). The
/// shipped examples and the fixture scripts read fewer (`tests/cost.rs`).
pub const READS_PER_VISIT: u64 = 64;

/// What one reading of an estimator, or one run of an executer, costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// A fixed number of cells or table entries (`random`, a constant, the progress
    /// estimators: 1; a neighbourhood count: its cells; a region count: the entities).
    Cells(u64),
    /// One row of the region.
    Width,
    /// The whole region.
    Area,
    /// A walk over the region from the visited cell, bounded by its own limit
    /// ([`crate::distance::quadratic`]); one read here.
    Walk,
}

/// The cells one visit of an explorer reads at most, as `cells + width · region width +
/// area · region area`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VisitCost {
    /// Fixed reads.
    pub cells: u64,
    /// Reads per cell of the region's width.
    pub width: u64,
    /// Reads per cell of the region's area.
    pub area: u64,
}

impl VisitCost {
    /// Adds `n` readings of `c`.
    fn add(&mut self, c: Cost, n: u64) {
        let slot = match c {
            Cost::Cells(k) => {
                self.cells = self.cells.saturating_add(k.saturating_mul(n));
                return;
            }
            Cost::Walk => {
                self.cells = self.cells.saturating_add(n);
                return;
            }
            Cost::Width => &mut self.width,
            Cost::Area => &mut self.area,
        };
        *slot = slot.saturating_add(n);
    }

    /// The reads of one visit in region `r`.
    pub fn reads(&self, r: Rect) -> u64 {
        let (w, a) = (r.w.max(0) as u64, r.area());
        self.cells
            .saturating_add(self.width.saturating_mul(w))
            .saturating_add(self.area.saturating_mul(a))
    }

    /// The visits of the work budget one visit in region `r` is charged: one per
    /// [`READS_PER_VISIT`] reads, at least one.
    pub fn weight(&self, r: Rect) -> u64 {
        self.reads(r).div_ceil(READS_PER_VISIT).max(1)
    }
}

impl Estimator {
    /// The cost of one reading; `nbh_len` holds the cells of each neighbourhood.
    pub fn cost(&self, nbh_len: &[usize]) -> Cost {
        match self {
            Estimator::Number(_)
            | Estimator::Random
            | Estimator::Noise { .. }
            | Estimator::Percent
            | Estimator::CPercent
            | Estimator::RPercent => Cost::Cells(1),
            Estimator::Neighborhood { nbh, .. } => Cost::Cells(nbh_len[*nbh] as u64),
            // One entry of a plane computed once per map version for the region.
            Estimator::Distance { .. } => Cost::Cells(1),
            Estimator::PathDistance { walk: None, .. } => Cost::Cells(1),
            Estimator::PathDistance { walk: Some(_), .. } => Cost::Walk,
            Estimator::Count { weights } => Cost::Cells(weights.len() as u64),
        }
    }
}

impl Executer {
    /// The cost of one run: the cells of its neighbourhood.
    pub fn cost(&self, nbh_len: &[usize]) -> Cost {
        Cost::Cells(nbh_len[self.nbh] as u64)
    }
}

/// The most one visit of `ex` reads: every condition of every rule, the executers of the
/// costliest rule, and what the explorer reads to move (its heuristics at every direction,
/// the cells a flood or connect looks at around the visited cell).
pub fn visit_cost(ex: &Explorer, nbh_len: &[usize]) -> VisitCost {
    let mut c = VisitCost {
        cells: 1,
        ..VisitCost::default()
    };
    for rule in &ex.rules {
        for cond in &rule.conditions {
            c.add(cond.left.cost(nbh_len), 1);
            c.add(cond.right.cost(nbh_len), 1);
        }
    }
    let execs = ex.rules.iter().map(|r| {
        let mut e = VisitCost::default();
        r.executers.iter().for_each(|x| e.add(x.cost(nbh_len), 1));
        e
    });
    // Executers write cells only: their cost is fixed.
    c.cells = c
        .cells
        .saturating_add(execs.map(|e| e.cells).max().unwrap_or(0));
    let dirs = nbh_len[ex.directions] as u64;
    match &ex.kind {
        ExplorerKind::Greedy { heuristics } => {
            heuristics.iter().for_each(|h| c.add(h.cost(nbh_len), dirs));
            c.add(Cost::Cells(dirs), 1);
        }
        ExplorerKind::WideHeur { heuristics } => {
            // Read once to sort, once more at the visit when they change.
            heuristics.iter().for_each(|h| c.add(h.cost(nbh_len), 2));
        }
        ExplorerKind::Flood { explore, .. } => c.add(Cost::Cells(nbh_len[*explore] as u64), 1),
        ExplorerKind::Drunk { .. } | ExplorerKind::Agents(_) | ExplorerKind::Connect { .. } => {
            c.add(Cost::Cells(dirs), 1)
        }
        ExplorerKind::Horizontal
        | ExplorerKind::Vertical
        | ExplorerKind::RandomNarrow
        | ExplorerKind::WideRand => {}
    }
    c
}

/// The cell reads of one `dist` plane per region cell ([`crate::distance::transform`]): the
/// cell's code, then two sweeps reading the cell and two neighbours each.
pub const DIST_PLANE_READS: u64 = 7;

/// The cell reads of the Manhattan `maxDist`/`avgDist` statistics per region cell
/// ([`crate::distance::paths::Spread`]): the cell's code.
pub const SPREAD_READS: u64 = 1;

/// What a pass may still read computing region planes again: the core's `dist` plane and
/// Manhattan `maxDist`/`avgDist` statistics are computed again over the whole region at the
/// first reading after every change of the map, which reads every cell of the region each
/// time ([`DIST_PLANE_READS`], [`SPREAD_READS`] per cell; a pass that writes what it reads
/// pays it per changed cell). Each computation is charged here as it happens, out of what
/// the explorer's work budget has left; the first that would go past it marks the pass, whose
/// readings then return no target (`-1`) without computing, and the pass ends with
/// [`crate::MarahelError::Limit`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlaneCharge {
    /// Reads left.
    pub left: u64,
    /// Reads spent by the pass.
    pub spent: u64,
    /// Whether a computation went past `left`.
    pub over: bool,
}

impl PlaneCharge {
    /// A pass that may read `left` cells computing planes.
    pub fn new(left: u64) -> Self {
        PlaneCharge {
            left,
            ..Self::default()
        }
    }

    /// Charges a computation of `reads` cell reads; false, from then on always, once past
    /// the limit.
    #[inline]
    pub fn take(&mut self, reads: u64) -> bool {
        if !self.over && reads <= self.left {
            self.left -= reads;
            self.spent += reads;
        } else {
            self.over = true;
        }
        !self.over
    }
}
