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

use crate::engine::{Ctx, FlatNbh};
use crate::estimator::Estimator;
use crate::explorer::Limits;
use crate::explorer::connect::{Corridor, Steer, manhattan};
use crate::program::Explorer;
use grid_core::Rect;

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
