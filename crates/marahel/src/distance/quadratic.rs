//! The limit of the walk estimators whose cost grows with the square of the region's area.
//!
//! `maxDist(nbh, list[, allowed])` and `avgDist(nbh, list[, allowed])` need the walk from the
//! visited cell to every target, so each reading searches the region
//! ([`super::paths::walk_from`]); `minDist(nbh, list[, allowed])` reads a plane of the whole
//! region ([`super::paths::walk_plane`]) that a pass writing the map it reads (`replace:
//! same`) computes again after each write. Either costs up to the region's area per visit: a
//! pass over a 300x300 region takes 86-102 s. No near-linear way to keep them exactly is
//! known (a largest or mean walk is over all shortest walks; a write that blocks a walk can
//! lengthen the walks of the whole region), so the work is bounded instead.
//!
//! A faster layer behind [`crate::hook`] may keep a live `minDist`'s plane through the writes
//! that only shorten walks, which is far cheaper on most maps, but not bounded: one write can lower the walks of most of the region (filling a serpentine
//! corridor in the direction it is walked lowers everything beyond each written cell), so
//! such a pass is charged like the core's: each repair searches at most the region once.
//!
//! A map may spend [`QUADRATIC_STEPS`] steps (cells searched) on these forms:
//! - a pass reading a walking `maxDist`/`avgDist` is charged its visits times the region's
//!   area when it starts; a pass that would go past the limit is not run;
//! - a live pass reading a walking `minDist` is charged the region's area for its first plane
//!   and again for every cell the pass changes ([`LiveCharge`]), since the core computes the
//!   plane again after each change: a pass that rarely writes costs little whatever the
//!   region. The first reading past the limit marks the pass; its readings are then not
//!   computed, and the pass ends with the error.
//!
//! Either way generation stops with [`MarahelError::Limit`] naming the estimator, its rule,
//! the region and the limit. The charge depends only on the explorer, its region, its visits
//! and the cells it changes, which every strategy of a faster layer sees alike (explorers reading
//! a walk are interpreted, and every changed cell bumps the map's version once), so a map is
//! refused under every strategy or none.
//!
//! Why an error and not the work budget's warning and cut ([`crate::explorer::VISITS_PER_CELL`]):
//! that budget stops scripts that ask for more visits than the map has cells many times over
//! (`tiles: 10^12`), and the map it leaves has had every pass up to then. Here one ordinary
//! pass over a large region is too much: the only points every strategy shares are pass
//! boundaries (they visit a pass's cells in different orders), so a cut would skip the whole
//! pass and hand back a map without the rule's effect, which a warning in non-strict mode
//! would let pass unnoticed.

use crate::error::MarahelError;
use crate::estimator::Estimator;
use crate::program::Explorer;
use crate::rule::Rule;
use grid_core::Rect;

/// The steps (visits times region cells) of the walk estimators of this module one map may
/// take: one pass over a 100x100 region, each of its 10,000 cells reading once. That pass
/// takes about 1.2-1.4 s (`per_size SCRIPT 100 100 1` with `maxDist(plus, solid, empty)` in
/// a buffered pass over a 30% solid map; release build, 2 vCPU Xeon, shared load).
pub const QUADRATIC_STEPS: u64 = 100_000_000;

/// A walk estimator whose cost grows with the square of the region's area, found in an
/// explorer's rules.
#[derive(Clone, Debug)]
pub struct Quadratic {
    /// The rule's JSON path.
    path: String,
    /// The estimator as written.
    text: String,
    /// Whether it is a `minDist` (quadratic only because the pass writes what it reads).
    min: bool,
}

/// The first walk estimator of `ex`'s rules whose cost is quadratic in the region's area:
/// a walking `maxDist`/`avgDist` in any pass, a walking `minDist` when the pass writes the
/// map it reads.
pub fn find(ex: &Explorer) -> Option<Quadratic> {
    let mut rules = ex.rules.iter().enumerate();
    rules.find_map(|(j, rule): (usize, &Rule)| {
        let mut estimators = rule.conditions.iter().flat_map(|c| [&c.left, &c.right]);
        estimators.find_map(|e| match e {
            Estimator::PathDistance {
                stat,
                walk: Some(_),
                text,
                ..
            } => {
                let min = *stat == super::paths::Stat::Min;
                (!min || !ex.buffer).then(|| Quadratic {
                    path: format!("{}.rules[{j}]", ex.path),
                    text: text.clone(),
                    min,
                })
            }
            _ => None,
        })
    })
}

/// The charge of a live pass reading a walking `minDist`, counted while it runs.
#[derive(Clone, Copy, Debug)]
pub struct LiveCharge {
    /// The map's version when the pass started (every changed cell bumps it).
    since: u64,
    /// The region's area: the steps of one plane.
    area: u64,
    /// The steps the map may still spend after the pass's first plane.
    left: u64,
    /// The cells changed at the first reading past the limit.
    over: Option<u64>,
}

impl LiveCharge {
    /// The charge of a pass starting at map version `since` over `area` cells, with `left`
    /// steps left after its first plane.
    pub fn start(since: u64, area: u64, left: u64) -> LiveCharge {
        LiveCharge {
            since,
            area,
            left,
            over: None,
        }
    }

    /// Whether a reading at map version `now` is past the limit (one plane per cell changed
    /// since the pass started); from the first such reading on, always.
    pub fn past(&mut self, now: u64) -> bool {
        if self.over.is_none() {
            let changed = now - self.since;
            if changed.saturating_mul(self.area) > self.left {
                self.over = Some(changed);
            }
        }
        self.over.is_some()
    }

    /// The steps the pass took after its first plane, ending at map version `now`.
    pub fn steps(&self, now: u64) -> u64 {
        (now - self.since).saturating_mul(self.area)
    }
}

impl Quadratic {
    /// Whether this is a walking `minDist` in a live pass, charged per changed cell
    /// ([`LiveCharge`]) rather than per visit.
    pub fn per_change(&self) -> bool {
        self.min
    }

    /// The error when `charge` went past the limit, else what the pass took off `left`.
    pub fn settle(
        &self,
        charge: LiveCharge,
        now: u64,
        left: &mut u64,
        r: Rect,
    ) -> Result<(), MarahelError> {
        let Some(changed) = charge.over else {
            *left = left.saturating_sub(charge.steps(now));
            return Ok(());
        };
        Err(MarahelError::Limit {
            path: self.path.clone(),
            message: format!(
                "{} computes its walks again after each cell that a pass writing the map it \
                 reads changes: {changed} changed cells over a {}x{} region ({} cells) would \
                 take {} steps, past the limit of {QUADRATIC_STEPS} steps per map (about one \
                 pass over a 100x100 region); use `replace: buffer`, smaller regions, or the \
                 Manhattan form",
                grid_core::text::excerpt(&self.text),
                r.w,
                r.h,
                r.area(),
                (changed + 1).saturating_mul(r.area()),
            ),
        })
    }

    /// Charges a pass of `visits` visits over region `r` to the map's `left` steps; the error
    /// when it would go past [`QUADRATIC_STEPS`].
    pub fn charge(&self, left: &mut u64, visits: u64, r: Rect) -> Result<(), MarahelError> {
        let steps = visits.saturating_mul(r.area());
        if steps <= *left {
            *left -= steps;
            return Ok(());
        }
        let why = match self.min {
            false => "searches the region from every cell that reads it",
            true => {
                "computes its walks again after every write of a pass that writes the map \
                     it reads"
            }
        };
        let fix = match self.min {
            false => "use smaller regions, or the Manhattan form without a neighbourhood",
            true => "use `replace: buffer`, smaller regions, or the Manhattan form",
        };
        let taken = match QUADRATIC_STEPS - *left {
            0 => String::new(),
            t => format!(", {t} of them taken by earlier passes"),
        };
        Err(MarahelError::Limit {
            path: self.path.clone(),
            message: format!(
                "{} {why}: {visits} visits over a {}x{} region ({} cells) would take {steps} \
                 steps, past the limit of {QUADRATIC_STEPS} steps per map{taken} (about one \
                 pass over a 100x100 region); {fix}",
                grid_core::text::excerpt(&self.text),
                r.w,
                r.h,
                r.area(),
            ),
        })
    }
}
