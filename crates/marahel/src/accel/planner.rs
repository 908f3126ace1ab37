//! The planner: one [`Plan`] per region pass, made once from the explorer's compiled form,
//! the state of the pass and the [`Accel`] switches, consumed whole by [`pass`] and recorded
//! as decided in the trace ([`PassReport`]), with the reason when the pass falls back to the
//! general path.

use super::{
    Accel, PassReport, Strategy, batch, connect_tree, connect_walk, kind_name, live, steps,
};
use crate::engine::Ctx;
use crate::explorer::connect::{self, Corridor, symmetric, tree};
use crate::explorer::{Limits, narrow};
use crate::program::{ConnectStyle, Explorer, ExplorerKind};

/// How one region pass runs, decided once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The strategy.
    pub strategy: Strategy,
    /// The pass's neighbourhood estimators read count planes ([`Accel::count_planes`]).
    pub count_planes: bool,
    /// The pass's `dist` estimators are kept up to date with its writes
    /// ([`super::live_dist`], decided for the explorer).
    pub distance_log: bool,
    /// Connect plans its corridors with raster passes ([`connect_tree`]): `Some(diagonal)`.
    pub connect_raster: Option<bool>,
    /// Connect's walker steers by its step table ([`connect_walk`]).
    pub connect_walk: bool,
    /// Why the pass runs the general path when a faster one exists for its explorer type.
    pub fallback: Option<&'static str>,
}

/// Runs one region pass of `ex` (the region is `ctx.region`, its limits `lim`): plans it,
/// runs it the plan's way (row batches, whole regions, walker step loops, line visits, byte
/// scans, connect's raster plan and table walk) or else hands it to `core`, and ends the
/// pass's live planes.
pub fn pass(
    ex: &Explorer,
    ctx: &mut Ctx,
    lim: Limits,
    warnings: &mut Vec<String>,
    core: impl FnOnce(&mut Ctx, &mut Vec<String>),
) {
    let plan = plan(ex, ctx, lim);
    ctx.layer.count_planes = plan.count_planes;
    match (plan.strategy, &ex.kind) {
        (Strategy::Rows, _) => batch::rows(ex, ctx),
        (Strategy::Whole, _) => batch::whole::pass(ex, ctx),
        (Strategy::WalkerSteps, ExplorerKind::Drunk { dirprob }) => {
            steps::pass(ex, *dirprob, ctx, lim)
        }
        (Strategy::Lines | Strategy::ByteScan, _) => scan(ex, ctx, lim, plan.strategy),
        (_, ExplorerKind::Connect { entities, .. })
            if plan.connect_raster.is_some() || plan.connect_walk =>
        {
            connect(ex, entities, ctx, lim, warnings, &plan)
        }
        _ => core(ctx, warnings),
    }
    ctx.layer.caches.live.end();
    ctx.layer.count_planes = false;
}

/// A `narrow_horz`/`narrow_vert` pass by compiled rules a line at a time, or sixteen cells
/// at a time over byte counts: the core's start cell and order ([`narrow::scan`]).
fn scan(ex: &Explorer, ctx: &mut Ctx, lim: Limits, strategy: Strategy) {
    let start = narrow::start(ctx);
    if lim.changes == 0 {
        return;
    }
    let k = ctx.layer.kernel.expect("planned with compiled rules");
    if strategy == Strategy::ByteScan {
        return k.scan_rows(ctx, start, lim.tiles, lim.changes);
    }
    let vertical = matches!(ex.kind, ExplorerKind::Vertical);
    let mut changed = 0;
    narrow::scan(vertical, ctx, start, lim.tiles, |ctx, at, run, _| {
        k.visit_line(ctx, at, vertical, run, &mut changed, lim.changes)
    });
}

/// A `turtle_connect` pass with the raster plan and the steering table when planned.
fn connect(
    ex: &Explorer,
    entities: &[bool],
    ctx: &mut Ctx,
    lim: Limits,
    warnings: &mut Vec<String>,
    plan: &Plan,
) {
    let dig = |ctx: &mut Ctx, corridors: &[Corridor]| match plan.connect_walk {
        true => connect_walk::dig(ex, corridors, plan.strategy, ctx, lim),
        false => connect::walk(ex, corridors, ctx, lim),
    };
    match plan.connect_raster {
        Some(diagonal) => {
            let raster = &mut connect_tree::raster(diagonal);
            connect::pass_with(ex, entities, ctx, warnings, raster, dig)
        }
        None => connect::pass_with(ex, entities, ctx, warnings, &mut tree::Plain, dig),
    }
}

/// Whether the live planes of a pass over one of `regions` may be kept for the explorer's
/// next repeat: no other region of the list overlaps it (then only that region's own passes
/// write its cells), and no border inset moves it.
pub fn keeps_planes(ex: &Explorer, regions: &[grid_core::Rect]) -> bool {
    let disjoint = regions
        .iter()
        .enumerate()
        .all(|(i, a)| regions[..i].iter().all(|b| a == b || !a.intersects(b)));
    disjoint && ex.border.is_none()
}

/// Plans one region pass of `ex` (the region is `ctx.region`, its limits `lim`): begins the
/// live planes when they pay off and are allowed, and returns the plan, recorded in the trace
/// when one is asked.
pub fn plan(ex: &Explorer, ctx: &mut Ctx, lim: Limits) -> Plan {
    let plan = choose(ex, ctx, lim);
    let live = &ctx.layer.caches.live;
    let live_planes = live.is_active().then(|| live.layout_name());
    if let Some(trace) = ctx.layer.trace.as_deref_mut() {
        trace.push(PassReport {
            explorer: ctx.layer.explorer,
            kind: kind_name(&ex.kind),
            strategy: plan.strategy,
            live_planes,
            count_planes: plan.count_planes,
            distance_log: plan.distance_log,
            connect_raster: plan.connect_raster.is_some(),
            connect_walk: plan.connect_walk,
            fallback: plan.fallback,
        });
    }
    plan
}

fn choose(ex: &Explorer, ctx: &mut Ctx, lim: Limits) -> Plan {
    let a = ctx.layer.accel;
    let mut plan = Plan {
        strategy: Strategy::Interpret,
        count_planes: ctx.buffer && !ctx.wrap && a.count_planes && ctx.layer.reads_nbh(),
        distance_log: ctx.layer.caches.live_dist.on,
        connect_raster: None,
        connect_walk: false,
        fallback: None,
    };
    if ex.order_free {
        // An order-free full scan (compile-time property of the explorer).
        (plan.strategy, plan.fallback) = match (a.row_batching, a.whole_region) {
            (false, _) => (Strategy::RowOrder, Some("row_batching off")),
            (true, true) if batch::whole_fits(ex, ctx) => (Strategy::Whole, None),
            (true, _) => (Strategy::Rows, None),
        };
        return plan;
    }
    if let ExplorerKind::Connect {
        style: ConnectStyle::Tour,
        ..
    } = ex.kind
    {
        let adj = symmetric(&ctx.nbhs[ex.directions].offsets);
        plan.connect_raster = connect_tree::diagonal(&a, &adj);
        plan.connect_walk = a.connect_walk;
    }
    let Some(k) = ctx.layer.kernel else {
        plan.fallback = Some(match (a.compiled_rules, ex.wrap) {
            (false, _) => "compiled_rules off",
            (true, true) => "wrapping region (interpreted)",
            (true, false) => "rules not compiled (too many)",
        });
        return plan;
    };
    if a.live_planes && visits_most(ex, ctx, lim) && !k.planes.is_empty() {
        let (r, tracking) = (ctx.region, !ex.buffer);
        let forms = live::CountForms {
            bytes: a.byte_counts,
            pairs: a.paired_counts,
            codes: a.code_plane,
        };
        let (out, out_code) = (ctx.out as usize, ctx.out_code as usize);
        let out_w = |w: &[u32; 256]| w[out_code] + if out != out_code { w[out] } else { 0 };
        let (canvas, nbhs, keep) = (&*ctx.canvas, ctx.nbhs, ctx.layer.keep_planes);
        let live = &mut ctx.layer.caches.live;
        live.begin(&k.planes, canvas, nbhs, r, out_w, tracking, keep, forms);
    }
    (plan.strategy, plan.fallback) = strategy(ex, ctx, &a, k);
    plan
}

/// The strategy of a pass by compiled rules `k`, and why it is the general one when a faster
/// one exists for the explorer's type.
fn strategy(
    ex: &Explorer,
    ctx: &Ctx,
    a: &Accel,
    k: &super::compiled::Kernel,
) -> (Strategy, Option<&'static str>) {
    let live = ctx.layer.caches.live.is_active();
    // Line visits read the live planes of the rules that count (they never count afresh).
    let counted = k.planes.is_empty() || live;
    let fallback = |why| (Strategy::Compiled, Some(why));
    match ex.kind {
        ExplorerKind::Horizontal if a.byte_scan && !k.progress && live && k.scans_rows(ctx) => {
            (Strategy::ByteScan, None)
        }
        ExplorerKind::Horizontal | ExplorerKind::Vertical => match () {
            _ if !a.line_visits => fallback("line_visits off"),
            _ if k.progress => fallback("rules read percent or cpercent"),
            _ if !counted => fallback("counts not live"),
            _ => (Strategy::Lines, None),
        },
        ExplorerKind::Drunk { dirprob } => match () {
            _ if !a.walker_steps => fallback("walker_steps off"),
            _ if !steps::fits(ex, dirprob, ctx) => fallback("walker outside the step loops"),
            _ => (Strategy::WalkerSteps, None),
        },
        ExplorerKind::Connect {
            style: ConnectStyle::Tour,
            ..
        } => match () {
            _ if !a.connect_walk => fallback("connect_walk off"),
            _ if !connect_walk::walk_fits(ex, ctx) => fallback("rules outside the table walk"),
            _ => (Strategy::ConnectWalk, None),
        },
        _ => (Strategy::Compiled, None),
    }
}

/// Whether a pass visits a good share of its region, so live planes pay off: scans, wide
/// explorers, random cells without a small firing limit. Walkers and connect count afresh
/// at the few cells they stand on.
fn visits_most(ex: &Explorer, ctx: &Ctx, lim: Limits) -> bool {
    match ex.kind {
        ExplorerKind::Horizontal | ExplorerKind::Vertical => true,
        ExplorerKind::RandomNarrow | ExplorerKind::WideHeur { .. } | ExplorerKind::WideRand => {
            lim.tiles
                .min(lim.changes.saturating_mul(8))
                .saturating_mul(4)
                >= ctx.region.area()
        }
        _ => false,
    }
}
