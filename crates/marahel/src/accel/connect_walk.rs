//! The connect walk: stage 4 of `turtle_connect` ([`crate::explorer::connect`]) for rules
//! that only read and write the visited cell ([`Strategy::ConnectWalk`](super::Strategy)).
//!
//! When every rule has the shape `self(list) op n, ... -> self(v)` (conditions that compare
//! the visited cell's weight with a number, or two numbers; one executer writing one value
//! to the visited cell: no draw, nothing else read) what happens at a cell depends only on
//! its code, so the rules are one table from the code to the cell's value after the visit
//! and whether a rule fires and the cell changes, [`CellRules`]. In a pass that writes the
//! front buffer and keeps no counts nor live planes, [`walk`] then visits a cell with a byte
//! read, a table read and a store, without branches on the cell (firings and changes are
//! counted by arithmetic, one sum of table bits; a walk crosses walls and floors at random);
//! a straight run of steps that cannot reach the firing limit is a loop over its cells as a
//! slice with the run's stride (`straight`; else cell by cell, checking the limit). With
//! unit steps only (the usual `plus`), each corridor is two straight runs at most,
//! in closed form (`Unit`). Everything else goes through the compiled rules (`visit`);
//! `tests/connect_walk.rs` compares both with the interpreter.
//!
//! Whatever the rules, the walker is steered by [`Steer`]: the core's choice of step
//! ([`crate::explorer::connect`]) tabulated by the offset to the corridor's end, clamped just
//! beyond the longest step (past it only the offset's signs matter; the table is kept per
//! thread for the next pass with the same directions), and taken as a straight run for as
//! long as the clamped offset and the region allow.

use super::Strategy;
use crate::engine::{Ctx, FlatNbh};
use crate::estimator::Estimator;
use crate::explorer::Limits;
use crate::explorer::connect::{self, Corridor, best_step, manhattan};
use crate::program::Explorer;
use grid_core::Rect;
use std::cell::Cell;

/// The rules as a table: for each code, whether a rule fires and the value the cell then
/// holds (filled on first use: a walk meets few codes).
#[derive(Debug)]
pub struct CellRules<'a> {
    ex: &'a Explorer,
    nbhs: &'a [FlatNbh],
    /// The cell's value after the visit (the value the first rule that fires writes, or the
    /// code itself), plus [`CellRules::FIRES`] when a rule fires and
    /// [`CellRules::CHANGES`] when the value is not the code; [`CellRules::UNKNOWN`] until
    /// first needed.
    act: [u32; 256],
}

impl<'a> CellRules<'a> {
    /// A rule fires.
    const FIRES: u32 = 1 << 8;
    /// The cell's value is not its code.
    const CHANGES: u32 = 1 << 31;
    /// Not computed yet.
    const UNKNOWN: u32 = u32::MAX;

    /// A condition side's value for a cell of code `c`, `None` for other estimators.
    #[inline]
    fn side(nbhs: &[FlatNbh], e: &Estimator, c: usize) -> Option<f64> {
        match e {
            Estimator::Number(v) => Some(*v),
            Estimator::Neighborhood { nbh, weights, .. } if nbhs[*nbh].is_self => {
                Some(weights[c] as f64)
            }
            _ => None,
        }
    }

    /// `ex`'s rules as a table, or `None` when one has another shape.
    pub fn new(ex: &'a Explorer, nbhs: &'a [FlatNbh]) -> Option<CellRules<'a>> {
        for rule in &ex.rules {
            let [e] = &rule.executers[..] else {
                return None;
            };
            if !nbhs[e.nbh].is_self || e.choices.len() != 1 {
                return None;
            }
            for cond in &rule.conditions {
                CellRules::side(nbhs, &cond.left, 0)?;
                CellRules::side(nbhs, &cond.right, 0)?;
            }
        }
        Some(CellRules {
            ex,
            nbhs,
            act: [CellRules::UNKNOWN; 256],
        })
    }

    /// Visits a cell: stores its value after the visit (the cell is stored back either way:
    /// no branch on whether it changes) and returns its table entry.
    #[inline(always)]
    fn apply(&mut self, cell: &mut u8) -> u32 {
        let mut a = self.act[*cell as usize];
        if a == CellRules::UNKNOWN {
            a = self.fill(*cell);
        }
        *cell = a as u8;
        a
    }

    /// The table entry of code `c`: the first rule whose conditions hold, as `visit` finds
    /// it (the conditions read nothing but `c` and draw nothing).
    #[inline(never)]
    fn fill(&mut self, c: u8) -> u32 {
        let side = |e| CellRules::side(self.nbhs, e, c as usize).unwrap_or(f64::NAN);
        let a = self
            .ex
            .rules
            .iter()
            .find(|rule| {
                rule.conditions
                    .iter()
                    .all(|cond| cond.op.holds(side(&cond.left), side(&cond.right)))
            })
            .map_or(u32::from(c), |rule| {
                CellRules::FIRES | u32::from(rule.executers[0].choices[0])
            });
        let a = if a as u8 != c {
            a | CellRules::CHANGES
        } else {
            a
        };
        self.act[c as usize] = a;
        a
    }
}

/// The walker's steps when every direction is a unit step or none (connect's directions
/// hold the four unit steps): towards a target, the two steps along the axes where it is
/// not reached each get one closer and every other step further, so the choice is the
/// first of those two in the directions' order, and it stays the same until that axis is
/// reached (the steps stay in the region: they go towards a cell of it).
struct Unit {
    /// The index of the first of the directions that is the step right, left, down, up.
    first: [usize; 4],
}

impl Unit {
    fn new(dirs: &[(i64, i64)]) -> Option<Unit> {
        if dirs.iter().any(|d| d.0.abs() + d.1.abs() > 1) {
            return None;
        }
        let at = |d| dirs.iter().position(|&e| e == d);
        Some(Unit {
            first: [at((1, 0))?, at((-1, 0))?, at((0, 1))?, at((0, -1))?],
        })
    }

    /// The step from `p` towards `t` (not `p`) and how many times in a row the walker takes
    /// it, like [`Steer::step`] (which may split the same steps into shorter runs).
    #[inline(always)]
    fn leg(&self, p: (i64, i64), t: (i64, i64)) -> ((i64, i64), u64) {
        let (ox, oy) = (t.0 - p.0, t.1 - p.1);
        let fx = match ox {
            0 => usize::MAX,
            _ if ox > 0 => self.first[0],
            _ => self.first[1],
        };
        let fy = match oy {
            0 => usize::MAX,
            _ if oy > 0 => self.first[2],
            _ => self.first[3],
        };
        if fx < fy {
            ((ox.signum(), 0), ox.unsigned_abs())
        } else {
            ((0, oy.signum()), oy.unsigned_abs())
        }
    }
}

/// The visits of the `k` cells from `i + stride` on by `stride` (in the map `front`), when
/// the firing limit cannot be reached among them: the firings and the changed cells. The
/// visits are to distinct cells and fill the same table entries in any order, so the cells
/// go as a slice from the lowest; whether a rule fires and whether the cell changes are
/// data (the walk crosses walls and floors): no branches on them, the cell is stored back
/// either way.
#[inline(never)]
fn straight(rules: &mut CellRules, front: &mut [u8], i: i64, stride: i64, k: u64) -> (u64, u64) {
    let far = i + stride * k as i64;
    let (lo, hi) = (
        (i + stride).min(far) as usize,
        (i + stride).max(far) as usize,
    );
    // The firings and changes as one sum, `changes << 23 | firings` (a run is shorter than
    // 2^23 cells: map sides are at most `MAX_SIDE`).
    const _: () = assert!(crate::compile::MAX_SIDE < 1 << 23);
    debug_assert!(k < 1 << 23);
    let mut sum = 0u64;
    let cell = |c: &mut u8| sum += u64::from(rules.apply(c) >> 8);
    let cells = &mut front[lo..=hi];
    if stride.unsigned_abs() == 1 {
        cells.iter_mut().for_each(cell);
    } else {
        cells
            .iter_mut()
            .step_by(stride.unsigned_abs() as usize)
            .for_each(cell);
    }
    (sum & ((1 << 23) - 1), sum >> 23)
}

/// Stage 4 of a pass whose planner allows the connect walk: with the table of the rules
/// ([`walk`]) when the planner chose [`Strategy::ConnectWalk`], else the core's walk, each
/// steered by the step table ([`Steer`]).
pub fn dig(
    ex: &Explorer,
    corridors: &[Corridor],
    strategy: Strategy,
    ctx: &mut Ctx,
    lim: Limits,
) -> u64 {
    let (nbhs, r) = (ctx.nbhs, ctx.region);
    let dirs = &nbhs[ex.directions].offsets;
    // The step table of the last pass on this thread, if it has the same directions.
    let mut steer = match STEERS.take() {
        Some(steer) if steer.dirs == *dirs => steer,
        _ => Steer::new(dirs),
    };
    let rules = (strategy == Strategy::ConnectWalk)
        .then(|| CellRules::new(ex, nbhs))
        .flatten();
    let stuck = match rules {
        Some(mut rules) => walk(&mut rules, corridors, &mut steer, dirs, r, ctx, lim),
        None => connect::dig(ex, corridors, ctx, lim, |p, to| steer.step(dirs, r, p, to)),
    };
    STEERS.set(Some(steer));
    stuck
}

/// Whether the table walk ([`walk`]) can dig for `ex` in this pass: rules of the
/// cell alone, compiled, in a plain pass (the front buffer, no counts, no live planes, no
/// live `dist` tracking).
pub fn walk_fits(ex: &Explorer, ctx: &Ctx) -> bool {
    ctx.layer.kernel.is_some()
        && !ctx.buffer
        && !ctx.track_counts
        && !ctx.layer.caches.watching()
        && CellRules::new(ex, ctx.nbhs).is_some()
}

/// [`best_step`] tabulated by the offset to the target, ignoring the region.
///
/// Once `|t.0 - x|` exceeds every step's `|dx|`, each step's distance is the walker's minus
/// `sign(t.0 - x) * dx` on that axis: the choice depends only on the sign, so the offset is
/// clamped to `±(mx + 1)` (likewise for y) and the table is small. The choice of all
/// directions, when it stays in the region, is also the choice among the directions that
/// stay in the region (it is the first closest of a superset); otherwise `best_step` runs.
#[derive(Debug)]
pub struct Steer {
    /// The directions (the table depends on nothing else).
    dirs: Vec<(i64, i64)>,
    /// Clamp bounds `mx + 1`, `my + 1`.
    cx: i64,
    cy: i64,
    /// Direction index per clamped offset, [`Steer::STUCK`] when none gets closer,
    /// [`Steer::UNKNOWN`] until first needed; empty for direction sets with very long steps
    /// (then every step runs `best_step`).
    table: Vec<u8>,
}

impl Steer {
    const STUCK: u8 = u8::MAX;
    /// A table entry not computed yet (a walk meets few offsets).
    const UNKNOWN: u8 = u8::MAX - 1;

    /// The table entry for the clamped offset `(tx, ty)`.
    fn entry(dirs: &[(i64, i64)], tx: i64, ty: i64) -> u8 {
        let mut best = (Steer::STUCK, tx.abs() + ty.abs());
        for (i, &(dx, dy)) in dirs.iter().enumerate() {
            let d = (tx - dx).abs() + (ty - dy).abs();
            if d < best.1 {
                best = (i as u8, d);
            }
        }
        best.0
    }

    fn new(dirs: &[(i64, i64)]) -> Steer {
        let reach = |f: fn(&(i64, i64)) -> i64| {
            dirs.iter()
                .map(|d| f(d).unsigned_abs().min(64))
                .max()
                .unwrap_or(0) as i64
                + 1
        };
        let (cx, cy) = (reach(|d| d.0), reach(|d| d.1));
        let table = if dirs.len() < Steer::UNKNOWN as usize && cx <= 32 && cy <= 32 {
            vec![Steer::UNKNOWN; ((2 * cx + 1) * (2 * cy + 1)) as usize]
        } else {
            Vec::new()
        };
        Steer {
            dirs: dirs.to_vec(),
            cx,
            cy,
            table,
        }
    }

    /// `best_step` from `p` towards `t`, as the step `(dx, dy)` and how many times in a row
    /// the walker takes it (at least 1): while the clamped offset to `t` stays the same and
    /// the walker stays in the region, the choice cannot change (and `t` is not reached: the
    /// offset is not zero).
    #[inline(always)]
    pub fn step(
        &mut self,
        dirs: &[(i64, i64)],
        r: Rect,
        p: (i64, i64),
        t: (i64, i64),
    ) -> Option<((i64, i64), u64)> {
        let single = |q: Option<(i64, i64)>| q.map(|(nx, ny)| ((nx - p.0, ny - p.1), 1));
        if self.table.is_empty() {
            return single(best_step(dirs, r, p, t));
        }
        let (ox, oy) = (t.0 - p.0, t.1 - p.1);
        let (tx, ty) = (ox.clamp(-self.cx, self.cx), oy.clamp(-self.cy, self.cy));
        let slot = ((ty + self.cy) * (2 * self.cx + 1) + tx + self.cx) as usize;
        let mut i = self.table[slot];
        if i == Steer::UNKNOWN {
            i = Steer::entry(dirs, tx, ty);
            self.table[slot] = i;
        }
        if i == Steer::STUCK {
            return None;
        }
        let (dx, dy) = dirs[i as usize];
        let (nx, ny) = (p.0 + dx, p.1 + dy);
        if nx < r.x || ny < r.y || nx >= r.x + r.w || ny >= r.y + r.h {
            return single(best_step(dirs, r, p, t));
        }
        // Steps along one axis: offset `o` (clamped at `c`), step `d`, position `at` within
        // `lo..=hi`.
        // `a / b` for `a >= 0`, `b >= 1`, without a division for the usual unit step.
        let div = |a: i64, b: i64| if b == 1 { a } else { a / b };
        let run = |o: i64, c: i64, d: i64, at: i64, lo: i64, hi: i64| {
            let keep = match d {
                0 => i64::MAX,
                _ if o.abs() < c => 1,
                // Moving away from the target (or along) keeps the offset clamped.
                _ if (o > 0) != (d > 0) => i64::MAX,
                _ => div(o.abs() - c, d.abs()) + 1,
            };
            let room = match d {
                0 => i64::MAX,
                _ if d > 0 => div(hi - at, d),
                _ => div(at - lo, -d),
            };
            keep.min(room)
        };
        let k = run(ox, self.cx, dx, p.0, r.x, r.x + r.w - 1).min(run(
            oy,
            self.cy,
            dy,
            p.1,
            r.y,
            r.y + r.h - 1,
        ));
        Some(((dx, dy), k as u64))
    }
}

thread_local! {
    /// The step table of the last walk on this thread.
    static STEERS: Cell<Option<Steer>> = const { Cell::new(None) };
}

/// Stage 4 with [`CellRules`] in a plain pass (front buffer, no counts, no live planes):
/// the walk of `crate::explorer::connect::pass` along each of the `corridors` (map coordinates), with the same
/// visits in the same order. Returns how many corridors stopped short of their end (stuck).
pub fn walk(
    rules: &mut CellRules,
    corridors: &[Corridor],
    steer: &mut Steer,
    dirs: &[(i64, i64)],
    r: Rect,
    ctx: &mut Ctx,
    lim: Limits,
) -> u64 {
    let w = ctx.canvas.w as i64;
    let front = &mut ctx.canvas.front[..];
    let (mut changed, mut stores) = (0u64, 0u64);
    // Only a firing counts, so `changed` first reaches this at a firing (a limit of 0 is
    // reached at the first, as in the general walk).
    let limit = lim.changes.max(1);
    // Visits the cell at flat index `i`: whether the firing limit is reached. Whether a rule
    // fires and whether the cell changes are data (the walk crosses walls and floors): no
    // branches on them, the cell is stored back either way.
    macro_rules! visit {
        ($i:expr) => {{
            let a = rules.apply(&mut front[$i as usize]);
            stores += u64::from(a >> 31);
            changed += u64::from((a >> 8) & 1);
            changed >= limit
        }};
    }
    let unit = Unit::new(dirs);
    let mut stuck = 0;
    'walk: for &((mut x, mut y), to) in corridors {
        if visit!(y * w + x) {
            break 'walk;
        }
        // Every leg gets at least one step closer to the end.
        for _ in 0..manhattan((x, y), to) {
            if (x, y) == to {
                break;
            }
            let leg = match &unit {
                Some(unit) => Some(unit.leg((x, y), to)),
                None => steer.step(dirs, r, (x, y), to),
            };
            let Some((d, k)) = leg else {
                stuck += 1;
                break;
            };
            // A straight run of `k` steps, each cell visited.
            let stride = d.1 * w + d.0;
            let mut i = y * w + x;
            if changed + k < limit {
                // A visit adds at most one firing: the limit is not reached.
                let (c, s) = straight(rules, front, i, stride, k);
                changed += c;
                stores += s;
            } else {
                for _ in 0..k {
                    i += stride;
                    if visit!(i) {
                        break 'walk;
                    }
                }
            }
            let k = k as i64;
            (x, y) = (x + d.0 * k, y + d.1 * k);
        }
    }
    // One version bump per changed cell, as `Ctx::store` does.
    ctx.version += stores;
    stuck
}
