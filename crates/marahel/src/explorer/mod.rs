//! Explorers: how each explorer family walks its regions and applies its rules.
//!
//! [`run`] is the loop every explorer shares (repeats, regions, the back buffer); it offers
//! each region pass to the layer behind the hook once ([`crate::hook::Observer::pass`]),
//! which runs it its own way or hands it back to the family's own pass: [`narrow`],
//! [`turtle`], [`agents`], [`flood`], [`connect`], [`connect2017`], [`wide`], or
//! [`row_order`] for an order-free full scan.

pub mod agents;
pub mod connect;
pub mod connect2017;
pub mod flood;
pub mod narrow;
pub mod row_order;
pub mod turtle;
pub mod wide;

use crate::cost::{PlaneCharge, READS_PER_VISIT};
use crate::distance::quadratic::{self, LiveCharge};
use crate::engine::{Ctx, draw};
use crate::error::MarahelError;
use crate::estimator::Estimator;
use crate::hook::{Layer, Observer};
use crate::program::{ConnectStyle, Explorer, ExplorerKind, RegionRef};
use crate::rule::Rule;
use grid_core::Rect;

/// Applies the first rule of `ex` whose conditions hold at `(x, y)`; returns whether one
/// fired. The layer behind the hook may run the rules its own way
/// ([`crate::hook::Observer::visit`]); else they are interpreted.
#[inline(always)]
pub fn visit(ex: &Explorer, ctx: &mut Ctx, x: usize, y: usize) -> bool {
    match Layer::visit(ex, ctx, x, y) {
        Some(fired) => fired,
        None => ex.rules.iter().any(|r: &Rule| r.fire(ctx, x, y)),
    }
}

/// Whether anything of `ex` reads `percent`/`cpercent` (when nothing does, the explorers
/// skip setting them).
#[inline]
pub fn reads_progress(ex: &Explorer) -> bool {
    ex.progress
}

/// Sets the `percent` and `cpercent` estimators before a visit: the share of the pass's
/// visits and of its allowed changes used so far (when anything of `ex` reads them).
#[inline]
pub fn set_progress(
    ex: &Explorer,
    ctx: &mut Ctx,
    visited: u64,
    tiles: u64,
    changed: u64,
    changes: u64,
) {
    if !reads_progress(ex) {
        return;
    }
    ctx.percent = visited as f64 / tiles as f64;
    ctx.cpercent = changed as f64 / changes as f64;
}

/// Visits each explorer may make per map cell, over all its repeats and regions: its work
/// budget is this many times the map's area, and at least [`MIN_VISITS`]. A pass that would
/// go past the budget is cut short (walkers and `narrow_rand` get fewer `tiles`; scans, wide
/// and connect passes, which cost about one visit per region cell, are skipped) and the map
/// gets a warning naming the limit. A script within the budget is not affected.
pub const VISITS_PER_CELL: u64 = 64;

/// The smallest work budget of an explorer on one map, in visits (see [`VISITS_PER_CELL`]):
/// small maps may be walked many times over, still within milliseconds.
pub const MIN_VISITS: u64 = 1 << 20;

/// The work budget of one explorer on a map of `area` cells, in visits.
pub fn visit_budget(area: u64) -> u64 {
    area.saturating_mul(VISITS_PER_CELL).max(MIN_VISITS)
}

/// What a region pass may still spend of its explorer's budget.
struct Budget {
    left: u64,
    total: u64,
    /// Whether a pass was cut short or skipped.
    cut: bool,
}

impl Budget {
    /// Limits `lim` to what is left; `None` (and the budget spent) when the pass cannot run.
    /// Walkers and random cells visit `tiles` cells at most; other passes cost the region's
    /// area. Each visit is charged its weight ([`crate::cost::VisitCost::weight`]): one visit
    /// per [`crate::cost::READS_PER_VISIT`] cells it reads.
    fn take(&mut self, ex: &Explorer, r: Rect, lim: Limits) -> Option<Limits> {
        let weight = ex.cost.weight(r);
        let cost = visits(&ex.kind, r.area(), lim).saturating_mul(weight);
        if cost <= self.left {
            self.left -= cost;
            return Some(lim);
        }
        self.cut = true;
        let tiles = std::mem::take(&mut self.left) / weight;
        (by_tiles(&ex.kind) && tiles > 0).then_some(Limits { tiles, ..lim })
    }

    /// Takes the reads a pass spent computing planes again off the budget; the error when
    /// they went past it ([`PlaneCharge`]).
    fn spend_planes(&mut self, ex: &Explorer, c: PlaneCharge, r: Rect) -> Result<(), MarahelError> {
        self.left = self.left.saturating_sub(c.spent.div_ceil(READS_PER_VISIT));
        if !c.over {
            return Ok(());
        }
        let reader = ex.rules.iter().position(|rule| {
            let mut sides = rule.conditions.iter().flat_map(|c| [&c.left, &c.right]);
            sides.any(|e| {
                matches!(e, Estimator::Distance { to_out: false, .. })
                    || matches!(e, Estimator::PathDistance { walk: None, .. })
            })
        });
        Err(MarahelError::Limit {
            path: match reader {
                Some(j) => format!("{}.rules[{j}]", ex.path),
                None => ex.path.clone(),
            },
            message: format!(
                "its distance estimator computes its plane over the {}x{} region ({} cells) \
                 again after every change of a pass that writes the map it reads, past the \
                 explorer's work budget of {} visits ({READS_PER_VISIT} cell reads each); use \
                 `replace: buffer` or smaller regions",
                r.w,
                r.h,
                r.area(),
                self.total
            ),
        })
    }

    /// The warning of an explorer that ran out of budget.
    fn warning(&self, ex: &Explorer, r: Rect) -> String {
        let reads = ex.cost.reads(r);
        let costly = match reads > crate::cost::READS_PER_VISIT {
            true => format!(
                " (a visit reads up to {reads} cells and counts as {} visits)",
                ex.cost.weight(r)
            ),
            false => String::new(),
        };
        format!(
            "{}: stopped at its work budget of {} visits ({VISITS_PER_CELL} per map cell, at \
             least {MIN_VISITS}){costly}; lower `tiles` or `repeats`",
            ex.path, self.total
        )
    }
}

/// Whether passes of `kind` visit `tiles` cells at most (walkers and random cells).
fn by_tiles(kind: &ExplorerKind) -> bool {
    matches!(
        kind,
        ExplorerKind::RandomNarrow
            | ExplorerKind::Drunk { .. }
            | ExplorerKind::Greedy { .. }
            | ExplorerKind::Agents(_)
    )
}

/// The visits a region pass of `area` cells is counted for: `tiles` for walkers and random
/// cells, the region's area for other passes.
fn visits(kind: &ExplorerKind, area: u64, lim: Limits) -> u64 {
    match by_tiles(kind) {
        true => lim.tiles,
        false => area.max(1),
    }
}

/// The most visits of its work budget `ex` asks for on a `w` x `h` map of at most `regions`
/// divider regions, before any cut: its largest `repeats` times its passes, each pass its
/// visits times their weight. A divider's regions do not overlap, so `all` of them cost one
/// map's area, or `regions` times `tiles` for walkers given `tiles`. More than
/// [`visit_budget`] means maps of that size are cut with a warning.
pub fn planned_work(ex: &Explorer, w: usize, h: usize, regions: usize) -> u64 {
    let map = Rect::new(0, 0, w as i64, h as i64);
    let area = map.area();
    let tiles = match &ex.kind {
        ExplorerKind::Agents(spec) => Some(spec.most_turns()),
        _ => ex.tiles.map(|t| t.max),
    };
    let pass = |n: u64| match (by_tiles(&ex.kind), tiles) {
        (true, Some(t)) => t.saturating_mul(n),
        _ => area.max(1),
    };
    let per_repeat = ex.regions.iter().fold(0u64, |sum, r| {
        sum.saturating_add(match r {
            RegionRef::All => pass(regions.max(1) as u64),
            RegionRef::Map | RegionRef::Index(_) => pass(1),
        })
    });
    let work = per_repeat.saturating_mul(ex.cost.weight(map));
    ex.repeats.max.saturating_mul(work)
}

/// Limits of one region pass.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Visits allowed.
    pub tiles: u64,
    /// Rule firings allowed.
    pub changes: u64,
}

/// Whether the explorer reads entity counts (so the engine keeps per-region counts).
pub fn uses_counts(ex: &Explorer) -> bool {
    reads_estimator(ex, |e| matches!(e, Estimator::Count { .. }))
}

/// Whether an estimator `est` accepts stands in the explorer's rules or heuristics.
pub fn reads_estimator(ex: &Explorer, est: impl Fn(&Estimator) -> bool) -> bool {
    let in_rules = ex
        .rules
        .iter()
        .flat_map(|r| &r.conditions)
        .any(|c| est(&c.left) || est(&c.right));
    let in_heur = match &ex.kind {
        ExplorerKind::Greedy { heuristics } | ExplorerKind::WideHeur { heuristics } => {
            heuristics.iter().any(&est)
        }
        _ => false,
    };
    in_rules || in_heur
}

/// Runs one explorer over its regions, `repeats` times. `quadratic_left` is what the map may
/// still spend on the walk estimators whose cost is quadratic in the region's area
/// ([`crate::distance::quadratic`]); the error when a pass would go past it.
pub fn run(
    ex: &Explorer,
    regions: &[Rect],
    ctx: &mut Ctx,
    warnings: &mut Vec<String>,
    quadratic_left: &mut u64,
) -> Result<(), MarahelError> {
    let map = Rect::new(0, 0, ctx.canvas.w as i64, ctx.canvas.h as i64);
    // The usual lists (`map`, `all`) borrow; others are built.
    let list: std::borrow::Cow<[Rect]> = match ex.regions[..] {
        [RegionRef::Map] => std::slice::from_ref(&map).into(),
        [RegionRef::All] if regions.is_empty() => std::slice::from_ref(&map).into(),
        [RegionRef::All] => regions.into(),
        _ => region_list(ex, regions, map, warnings).into(),
    };
    ctx.layer.regions(ex, &list);
    let quadratic = quadratic::find(ex);
    let repeats = draw(ex.repeats, ctx.rng);
    let total = visit_budget(map.area());
    let mut budget = Budget {
        left: total,
        total,
        cut: false,
    };
    let mut last = map;
    'repeats: for rep in 0..repeats {
        ctx.rpercent = rep as f64 / repeats as f64;
        for &r0 in list.iter() {
            let r = match ex.border {
                None => r0,
                Some(b) => {
                    let k = draw(b, ctx.rng) as i64;
                    Rect::new(r0.x + k, r0.y + k, r0.w - 2 * k, r0.h - 2 * k)
                }
            };
            if r.is_empty() {
                continue;
            }
            ctx.enter(r);
            if ex.buffer {
                let w = ctx.canvas.w;
                let canvas = &mut *ctx.canvas;
                copy_rect(&canvas.front, &mut canvas.back, w, r);
            }
            let area = r.area();
            let asked = Limits {
                tiles: match &ex.kind {
                    ExplorerKind::Agents(spec) => spec.most_turns(),
                    _ => ex.tiles.map_or(area, |t| draw(t, ctx.rng)),
                },
                changes: ex.changes.map_or(area, |c| draw(c, ctx.rng)),
            };
            last = r;
            let Some(limits) = budget.take(ex, r, asked) else {
                break 'repeats;
            };
            if let Some(q) = &quadratic {
                if q.per_change() {
                    // The first plane now, one more per changed cell as the pass runs.
                    q.charge(quadratic_left, 1, r)?;
                    ctx.live_charge = Some(LiveCharge::start(ctx.version, area, *quadratic_left));
                } else {
                    q.charge(quadratic_left, visits(&ex.kind, area, limits), r)?;
                }
            }
            ctx.planes = PlaneCharge::new(budget.left.saturating_mul(READS_PER_VISIT));
            Layer::pass(ex, ctx, limits, warnings, |ctx, warnings| {
                pass(ex, ctx, limits, warnings)
            });
            budget.spend_planes(ex, ctx.planes, r)?;
            if let (Some(q), Some(charge)) = (&quadratic, ctx.live_charge.take()) {
                q.settle(charge, ctx.version, quadratic_left, r)?;
            }
            if ex.buffer {
                let w = ctx.canvas.w;
                let canvas = &mut *ctx.canvas;
                copy_rect(&canvas.back, &mut canvas.front, w, r);
                ctx.version += 1;
            }
        }
    }
    if budget.cut {
        warnings.push(budget.warning(ex, last));
    }
    Ok(())
}

/// One region pass of `ex` in the core, by its explorer family (an order-free full scan
/// row by row).
pub fn pass(ex: &Explorer, ctx: &mut Ctx, lim: Limits, warnings: &mut Vec<String>) {
    match &ex.kind {
        _ if ex.order_free => row_order::pass(ex, ctx),
        ExplorerKind::Horizontal | ExplorerKind::Vertical | ExplorerKind::RandomNarrow => {
            narrow::pass(ex, ctx, lim)
        }
        ExplorerKind::Drunk { dirprob } => turtle::drunk(ex, *dirprob, ctx, lim),
        ExplorerKind::Agents(spec) => agents::run(ex, spec, ctx, lim),
        ExplorerKind::Flood { start, explore } => flood::pass(ex, *start, *explore, ctx, lim),
        ExplorerKind::Greedy { heuristics } => turtle::greedy(ex, heuristics, ctx, lim),
        ExplorerKind::Connect {
            entities,
            style: ConnectStyle::Tour,
        } => connect::pass(ex, entities, ctx, lim, warnings),
        ExplorerKind::Connect {
            entities,
            style: ConnectStyle::ReferenceTour,
        } => connect::tour::pass(ex, entities, ctx, lim, warnings),
        ExplorerKind::Connect { entities, style } => {
            connect2017::pass(ex, *style, entities, ctx, lim, warnings)
        }
        ExplorerKind::WideHeur { heuristics } => wide::heur(ex, heuristics, ctx, lim),
        ExplorerKind::WideRand => wide::random(ex, ctx, lim),
    }
}

/// The regions `ex` runs over, in order (a missing index is skipped with a warning).
fn region_list(
    ex: &Explorer,
    regions: &[Rect],
    map: Rect,
    warnings: &mut Vec<String>,
) -> Vec<Rect> {
    let mut list = Vec::new();
    for r in &ex.regions {
        match *r {
            RegionRef::Map => list.push(map),
            RegionRef::All if regions.is_empty() => list.push(map),
            RegionRef::All => list.extend_from_slice(regions),
            RegionRef::Index(i) => match regions.get(i) {
                Some(&reg) => list.push(reg),
                None => warnings.push(format!(
                    "{}: region {i} does not exist on this map (the divider made {}); skipped",
                    ex.path,
                    regions.len()
                )),
            },
        }
    }
    list
}

/// Copies the rows of `r` from `src` to `dst` (both `w` wide).
fn copy_rect(src: &[u8], dst: &mut [u8], w: usize, r: Rect) {
    for y in r.y..r.bottom() {
        let a = y as usize * w + r.x as usize;
        let b = a + r.w as usize;
        dst[a..b].copy_from_slice(&src[a..b]);
    }
}
