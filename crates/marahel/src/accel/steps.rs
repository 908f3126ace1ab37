//! The drunk walker's own step loops, for rules that each have the form `[self test] [,
//! random test] -> one executer` (the usual digger), in a pass that writes the front buffer
//! and keeps no counts nor live planes, with at most `MAX_DIRS` directions and
//! `dirprob < 1`.
//!
//! `walk` keeps the walker's region-local position, its flat index, the index of its
//! direction (the directions in arrays on the stack), the map slice and a copy of the RNG
//! state in locals, and moves the walker; firings are counted per run of steps too short to
//! reach the firing limit. What happens where the walker stands is a closure, so each rule
//! shape gets a loop of its own:
//! - the digger proper, `[self test,] random test -> self(v)` then `[self test] -> all(u)`
//!   (`Digger`, a function for each combination of `self` tests, each a table of the
//!   codes' answers or none when it holds for every code a cell can hold): two tests, then
//!   one store or a 3x3 square (three 3-byte row stores away from the region's edge, along
//!   it each row's one to three cells in the region as a slice: its ends and middle);
//! - any other list of `Step`s (`general`): the rules in order.
//!
//! The digger whose first rule has no `self` test and whose second rule's test holds for
//! every cell the walk can visit (none, `self(any)` on a region that holds no `out`, ...)
//! always fires and never reads the map: it has a loop of its own in `dig.rs`, which makes
//! no branch on the draw away from the region's edge.
//!
//! `random op t` is an integer range test of the draw's 53 bits (`Span::draw`) or, in the
//! digger, of the whole 64-bit draw (`Span::raw_draw`); the turn test `bits < turn` is
//! `x < turn << 11`. `self op t` tests the cell's weight. Both loops make the draws of the
//! compiled rules, in the same order, and the same writes; `tests/kernel.rs` compares them
//! with the interpreter.

mod dig;

use super::pred::{Pred, integer_range};
use crate::engine::{Ctx, FlatNbh};
use crate::estimator::Estimator;
use crate::explorer::Limits;
use crate::program::Explorer;
use crate::rule::Op;
use grid_core::rand::{Rng, RngExt};
use grid_core::{LevelRng, below};

/// An integer range test over the visited cell's weight (`self(list) op t`), or over the 53
/// bits of a `random` draw: holds when `v - lo` (wrapping) is at most `width`. A test that
/// holds outside `lo..=hi` is the cyclic range from `hi + 1` round to `lo - 1`: the values
/// past the domain's largest (`u32::MAX` or `2^53 - 1`) in it are never tested.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    lo: u64,
    width: u64,
}

impl Span {
    /// A test that always or never holds (`v` is never `u64::MAX`).
    const fn always(b: bool) -> Span {
        match b {
            true => Span {
                lo: 0,
                width: u64::MAX,
            },
            false => Span {
                lo: u64::MAX,
                width: 0,
            },
        }
    }

    /// Holds for `lo..=hi` or (with `negate`) outside it.
    fn range(lo: u64, hi: u64, negate: bool) -> Span {
        match negate {
            false => Span { lo, width: hi - lo },
            true => Span {
                lo: hi + 1,
                width: lo.wrapping_sub(hi).wrapping_sub(2),
            },
        }
    }

    /// Whether the test holds for `v`.
    #[inline(always)]
    fn holds(self, v: u64) -> bool {
        v.wrapping_sub(self.lo) <= self.width
    }

    /// `self(list) op t` over a count.
    fn count(op: Op, t: f64) -> Span {
        match Pred::new(op, t) {
            Pred::Always(b) => Span::always(b),
            Pred::Range { lo, hi, negate } => Span::range(lo.into(), hi.into(), negate),
        }
    }

    /// `random op t` over `bits`, the draw's 53 bits: `random::<f64>()` is
    /// `bits as f64 * 2^-53`, exact, so `random op t` is `bits op t * 2^53` (exact too).
    fn draw(op: Op, t: f64) -> Span {
        match integer_range(op, t * (1u64 << 53) as f64, ((1u64 << 53) - 1) as f64) {
            Err(b) => Span::always(b),
            Ok((lo, hi, negate)) => Span::range(lo, hi, negate),
        }
    }

    /// `random op t` over the whole 64-bit draw `x` (`bits` is `x >> 11`: `bits` in
    /// `lo..=hi` is `x` in `lo << 11..=hi << 11 | 0x7ff`), or `None` when it never holds (a
    /// test over every `u64` always holds for some).
    fn raw_draw(op: Op, t: f64) -> Option<Span> {
        let (lo, hi, negate) =
            match integer_range(op, t * (1u64 << 53) as f64, ((1u64 << 53) - 1) as f64) {
                Err(b) => return b.then_some(Span::always(true)),
                Ok(range) => range,
            };
        let (lo, hi) = (lo << 11, hi << 11 | 0x7ff);
        match negate {
            false => Some(Span { lo, width: hi - lo }),
            true if lo == 0 && hi == u64::MAX => None,
            true => {
                let start = hi.wrapping_add(1);
                Some(Span {
                    lo: start,
                    width: lo.wrapping_sub(1).wrapping_sub(start),
                })
            }
        }
    }
}

/// The 53 bits of a `random::<f64>()` draw.
#[inline(always)]
fn bits(rng: &mut LevelRng) -> u64 {
    rng.next_u64() >> 11
}

/// What a [`Step`] rule writes.
#[derive(Clone, Copy, Debug)]
enum Write<'a> {
    /// This value to the visited cell.
    Cell(u8),
    /// This value to the neighbourhood around the visited cell, the 3x3 square of offsets
    /// `-1..=1` in row-major order.
    Square(u8),
    /// This value to the neighbourhood around the visited cell.
    Nbh(&'a FlatNbh, u8),
    /// A value drawn from the list to the neighbourhood.
    Choice(&'a FlatNbh, &'a [u8]),
}

/// A drunk walker's rule of the shape `[self test] [, random test] -> one executer`: its
/// `self` test (the weight of each code, tested), then its draw.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step<'a> {
    cell: Option<(&'a [u32; 256], Span)>,
    draw: Option<Span>,
    /// The draw's test over the whole 64-bit draw ([`Span::raw_draw`]).
    raw: Option<Span>,
    write: Write<'a>,
}

/// Whether the drunk walker `ex` can run its own step loop in this pass: rules of the
/// step shape, compiled, a pass that writes the front buffer and keeps no counts, live planes
/// nor live `dist` tracking, `dirprob < 1` (every step turning is not a test the loop can say) and at
/// most `MAX_DIRS` directions.
pub fn fits(ex: &Explorer, dirprob: f64, ctx: &Ctx) -> bool {
    let plain = !ctx.buffer && !ctx.track_counts && !ctx.layer.caches.watching();
    let dirs = ctx.nbhs[ex.directions].offsets.len();
    plain
        && dirprob < 1.0
        && ctx.layer.kernel.is_some()
        && (1..=MAX_DIRS).contains(&dirs)
        && steps(ex, ctx.nbhs).is_some()
}

/// A drunk walker's region pass through the step loops (the planner checked [`fits`]).
pub fn pass(ex: &Explorer, dirprob: f64, ctx: &mut Ctx, lim: Limits) {
    let nbhs = ctx.nbhs;
    let list = steps(ex, nbhs).expect("the planner checked the shape");
    drunk(&list, &nbhs[ex.directions], dirprob, ctx, lim);
}

/// `ex`'s rules as [`Step`]s, or `None` when one has another shape. Constant conditions are
/// folded: a rule whose conditions fail before any draw is dropped (it never draws nor fires).
fn steps<'a>(ex: &'a Explorer, nbhs: &'a [FlatNbh]) -> Option<Vec<Step<'a>>> {
    let number = |e: &Estimator| match e {
        Estimator::Number(v) => Some(*v),
        _ => None,
    };
    let cell = |e: &'a Estimator| match e {
        Estimator::Neighborhood { nbh, weights, .. } if nbhs[*nbh].is_self => Some(&**weights),
        _ => None,
    };
    let mut out = Vec::with_capacity(ex.rules.len());
    'rules: for rule in &ex.rules {
        let [e] = &rule.executers[..] else {
            return None;
        };
        let mut step = Step {
            cell: None,
            draw: None,
            raw: None,
            write: match (nbhs[e.nbh].is_self, &e.choices[..]) {
                (true, &[v]) => Write::Cell(v),
                (false, &[v]) if is_square(&nbhs[e.nbh]) => Write::Square(v),
                (false, &[v]) => Write::Nbh(&nbhs[e.nbh], v),
                (_, list) => Write::Choice(&nbhs[e.nbh], list),
            },
        };
        for c in &rule.conditions {
            let (l, r, op) = (&c.left, &c.right, c.op);
            match (l, r) {
                _ if number(l).is_some() && number(r).is_some() => {
                    if op.holds(number(l)?, number(r)?) {
                        continue;
                    }
                    if step.draw.is_none() {
                        continue 'rules;
                    }
                    return None;
                }
                (Estimator::Random, _) if number(r).is_some() && step.draw.is_none() => {
                    step.draw = Some(Span::draw(op, number(r)?));
                    step.raw = Span::raw_draw(op, number(r)?);
                }
                (_, Estimator::Random) if number(l).is_some() && step.draw.is_none() => {
                    step.draw = Some(Span::draw(op.flip(), number(l)?));
                    step.raw = Span::raw_draw(op.flip(), number(l)?);
                }
                _ if step.cell.is_none() && step.draw.is_none() => {
                    step.cell = match (cell(l), number(r), number(l), cell(r)) {
                        (Some(w), Some(t), _, _) => Some((w, Span::count(op, t))),
                        (_, _, Some(t), Some(w)) => Some((w, Span::count(op.flip(), t))),
                        _ => return None,
                    };
                }
                _ => return None,
            }
        }
        out.push(step);
    }
    Some(out)
}

/// Whether the offsets of `nbh` are the 3x3 square around the centre, in row-major order.
fn is_square(nbh: &FlatNbh) -> bool {
    const SQUARE: [(i64, i64); 9] = {
        let mut s = [(0, 0); 9];
        let mut k = 0;
        while k < 9 {
            s[k] = (k as i64 % 3 - 1, k as i64 / 3 - 1);
            k += 1;
        }
        s
    };
    nbh.offsets == SQUARE
}

/// Where the walker stands: region-local `(x, y)` and the cell's index in the map.
#[derive(Clone, Copy, Debug)]
struct At {
    x: i64,
    y: i64,
    i: usize,
}

/// The pass's region as the step loops see it.
#[derive(Clone, Copy, Debug)]
struct StepRegion {
    /// The map's width (row stride).
    w: usize,
    /// The region's width and height.
    rw: u64,
    rh: u64,
}

impl StepRegion {
    /// Whether local cell `(x, y)` lies in the region.
    #[inline(always)]
    fn inside(self, x: i64, y: i64) -> bool {
        (x as u64) < self.rw && (y as u64) < self.rh
    }

    /// Writes `v` to the cells of the 3x3 square around `at` that lie in the region.
    #[inline(always)]
    fn square(self, front: &mut [u8], at: At, v: u8) {
        let w = self.w;
        // Away from the edge (`1 <= x <= rw - 2`, same for y): three row stores.
        if ((at.x - 1) as u64) < self.rw.saturating_sub(2)
            && ((at.y - 1) as u64) < self.rh.saturating_sub(2)
        {
            let rows = &mut front[at.i - w - 1..at.i + w + 2];
            rows[..3].fill(v);
            rows[w..w + 3].fill(v);
            rows[2 * w..2 * w + 3].fill(v);
            return;
        }
        // Along the edge: a row above or below the region is replaced with the centre's
        // (written anyway), and each row's cells from `x - left` to `x + right` lie in it.
        let (x, y) = (at.x as u64, at.y as u64);
        let left = usize::from(x > 0);
        let right = usize::from(x + 1 < self.rw);
        let up = usize::from(y > 0) * w;
        let down = usize::from(y + 1 < self.rh) * w;
        for row in [at.i - up, at.i, at.i + down] {
            // The row's cells in the region, one to three: its ends and its middle.
            let cells = &mut front[row - left..=row + right];
            let n = cells.len();
            cells[0] = v;
            cells[n / 2] = v;
            cells[n - 1] = v;
        }
    }
}

/// [`super::drunk`] for rules that are [`Step`]s: the digger shape in a loop of its own
/// ([`Digger`]), others in [`general`].
fn drunk(steps: &[Step], dirs: &FlatNbh, dirprob: f64, ctx: &mut Ctx, lim: Limits) {
    match *steps {
        [
            Step {
                cell: a_cell,
                draw: Some(_),
                raw: Some(a_draw),
                write: Write::Cell(a_value),
            },
            Step {
                cell: b_cell,
                draw: None,
                write: Write::Square(b_value),
                ..
            },
        ] => {
            // A loop of its own for each case: with or without each rule's `self` test.
            let test = |c| table(c, ctx.out_code);
            let d = Digger {
                a_cell: Always,
                a_draw,
                a_value,
                b_cell: Always,
                b_value,
            };
            match (test(a_cell), test(b_cell)) {
                (None, None) => dig::dig(dirs, dirprob, ctx, lim, a_draw, a_value, b_value),
                (Some(a), None) => digger(dirs, dirprob, ctx, lim, &d.tests(a, Always)),
                (None, Some(b)) if dig::passes_all(&b, ctx, [a_value, b_value]) => {
                    dig::dig(dirs, dirprob, ctx, lim, a_draw, a_value, b_value)
                }
                (None, Some(b)) => digger(dirs, dirprob, ctx, lim, &d.tests(Always, b)),
                (Some(a), Some(b)) => digger(dirs, dirprob, ctx, lim, &d.tests(a, b)),
            }
        }
        _ => walk(dirs, dirprob, ctx, lim, |front, rng, area, at| {
            general(steps, front, rng, area, at)
        }),
    }
}

/// `cell` as each code's answer, or `None` when it holds for every code a cell can hold
/// (up to `out`, e.g. `self(any)`). Codes past `out` weigh nothing (and never occur).
fn table(cell: Option<(&[u32; 256], Span)>, out: u8) -> Option<Table> {
    let (weights, span) = cell?;
    let codes = ..=usize::from(out);
    if weights[codes].iter().all(|&v| span.holds(v.into())) {
        return None;
    }
    let mut t = [span.holds(0); 256];
    for (t, &v) in t[codes].iter_mut().zip(&weights[codes]) {
        *t = span.holds(v.into());
    }
    Some(Table(t))
}

/// A `self` test of the visited cell's code.
trait CellTest {
    /// Whether the test holds for `code`.
    fn holds(&self, code: u8) -> bool;
}

/// No test: always holds.
#[derive(Clone, Copy, Debug)]
struct Always;

impl CellTest for Always {
    #[inline(always)]
    fn holds(&self, _: u8) -> bool {
        true
    }
}

/// Whether the test holds, for each code.
#[derive(Clone, Copy, Debug)]
struct Table([bool; 256]);

impl CellTest for Table {
    #[inline(always)]
    fn holds(&self, code: u8) -> bool {
        self.0[usize::from(code)]
    }
}

/// The digger: `[self test,] random test -> self(a_value)`, then `[self test] ->
/// all(b_value)`, each `self` test [`Always`] or a [`Table`]; the draw's test is over the
/// whole 64-bit draw ([`Span::raw_draw`]).
#[derive(Clone, Copy, Debug)]
struct Digger<A, B> {
    a_cell: A,
    a_draw: Span,
    a_value: u8,
    b_cell: B,
    b_value: u8,
}

impl<A, B> Digger<A, B> {
    /// The same digger with these `self` tests.
    fn tests<C, D>(self, a_cell: C, b_cell: D) -> Digger<C, D> {
        Digger {
            a_cell,
            a_draw: self.a_draw,
            a_value: self.a_value,
            b_cell,
            b_value: self.b_value,
        }
    }
}

impl<A: CellTest, B: CellTest> Digger<A, B> {
    /// Applies the first rule that holds at `at`; returns whether one fired.
    #[inline(always)]
    fn fire(&self, front: &mut [u8], rng: &mut LevelRng, area: StepRegion, at: At) -> bool {
        let code = front[at.i];
        if self.a_cell.holds(code) && self.a_draw.holds(rng.next_u64()) {
            front[at.i] = self.a_value;
            return true;
        }
        if !self.b_cell.holds(code) {
            return false;
        }
        area.square(front, at, self.b_value);
        true
    }
}

/// The walk of a [`Digger`] (a function of its own for each kind of tests, so that each
/// loop gets the registers to itself).
#[inline(never)]
fn digger<A: CellTest, B: CellTest>(
    dirs: &FlatNbh,
    dirprob: f64,
    ctx: &mut Ctx,
    lim: Limits,
    d: &Digger<A, B>,
) {
    walk(dirs, dirprob, ctx, lim, |front, rng, area, at| {
        d.fire(front, rng, area, at)
    });
}

/// Applies the first of `steps` that holds at `at`; returns whether one fired.
#[inline(always)]
fn general(steps: &[Step], front: &mut [u8], rng: &mut LevelRng, area: StepRegion, at: At) -> bool {
    let code = front[at.i] as usize;
    for s in steps {
        if let Some((weights, span)) = s.cell
            && !span.holds(weights[code].into())
        {
            continue;
        }
        if let Some(d) = s.draw
            && !d.holds(bits(rng))
        {
            continue;
        }
        let (nbh, value) = match s.write {
            Write::Cell(v) => {
                front[at.i] = v;
                return true;
            }
            Write::Square(v) => {
                area.square(front, at, v);
                return true;
            }
            Write::Nbh(nbh, v) => (nbh, v),
            Write::Choice(nbh, list) => (nbh, list[below(rng, list.len())]),
        };
        let mut store = |j: usize| front[j] = value;
        let (b, w) = (nbh.bbox, area.w as i64);
        if area.inside(at.x + b.0, at.y + b.2) && area.inside(at.x + b.1, at.y + b.3) {
            nbh.flat
                .iter()
                .for_each(|&d| store(at.i.wrapping_add_signed(d)));
        } else {
            for &(dx, dy) in &nbh.offsets {
                if area.inside(at.x + dx, at.y + dy) {
                    store(at.i.wrapping_add_signed((dy * w + dx) as isize));
                }
            }
        }
        return true;
    }
    false
}

/// The most directions the step loops keep in locals (walkers with more visit through the
/// compiled rules).
pub(crate) const MAX_DIRS: usize = 16;

/// The walk: from a random direction and a random cell, up to `lim.tiles` steps or until
/// `lim.changes` firings, `fire` where the walker stands, then turn with probability
/// `dirprob` (or when the next cell is outside the region) and step. The same draws in the
/// same order as [`super::drunk`]'s visits, with the position, the direction's index, the
/// map slice and the RNG state in locals (few enough to stay in registers).
#[inline(always)]
fn walk(
    dirs: &FlatNbh,
    dirprob: f64,
    ctx: &mut Ctx,
    lim: Limits,
    mut fire: impl FnMut(&mut [u8], &mut LevelRng, StepRegion, At) -> bool,
) {
    let n = dirs.offsets.len();
    assert!((1..=MAX_DIRS).contains(&n), "{n} directions");
    // Each direction's dx, dy and flat delta, indexed by `k & (MAX_DIRS - 1)`, which is `k`.
    let (mut mx, mut my, mut md) = ([0i64; MAX_DIRS], [0i64; MAX_DIRS], [0isize; MAX_DIRS]);
    for (k, (&(dx, dy), &d)) in dirs.offsets.iter().zip(&dirs.flat).enumerate() {
        (mx[k], my[k], md[k]) = (dx, dy, d);
    }
    let mut rng = ctx.rng.clone();
    let mut k = below(&mut rng, n) & (MAX_DIRS - 1);
    let r = ctx.region;
    let (x, y) = (rng.random_range(0..r.w), rng.random_range(0..r.h));
    let area = StepRegion {
        w: ctx.canvas.w,
        rw: r.w as u64,
        rh: r.h as u64,
    };
    let front = &mut ctx.canvas.front[..];
    let mut at = At {
        x,
        y,
        i: (r.y + y) as usize * area.w + (r.x + x) as usize,
    };
    // `random < dirprob` is `bits < dirprob * 2^53` (exact), so `bits < turn`.
    let scaled = dirprob * (1u64 << 53) as f64;
    let turn = if scaled > 0.0 {
        scaled.ceil().min((1u64 << 53) as f64) as u64
    } else {
        0
    };
    // With `turn < 2^53` (`dirprob < 1`), `bits < turn` is `x < turn << 11` over the whole
    // draw `x`.
    assert!(turn < 1 << 53, "dirprob {dirprob}");
    let turn = turn << 11;
    let (mut tiles, mut left) = (lim.tiles, lim.changes);
    while tiles > 0 && left > 0 {
        // At most `run` firings in `run` steps: the limit cannot be reached before the end of
        // the run, so the firings are counted after it (from the few visits that did not fire).
        let run = tiles.min(left);
        let mut missed = 0;
        for _ in 0..run {
            if !fire(front, &mut rng, area, at) {
                missed += 1;
            }
            let turning = rng.next_u64() < turn;
            let (mut nx, mut ny) = (at.x + mx[k], at.y + my[k]);
            let mut ok = area.inside(nx, ny);
            if turning || !ok {
                k = below(&mut rng, n) & (MAX_DIRS - 1);
                (nx, ny) = (at.x + mx[k], at.y + my[k]);
                ok = area.inside(nx, ny);
            }
            if ok {
                at = At {
                    x: nx,
                    y: ny,
                    i: at.i.wrapping_add_signed(md[k]),
                };
            }
        }
        tiles -= run;
        left -= run - missed;
    }
    // Only caches read the version, and only as "unchanged since": one bump per firing
    // covers every change.
    ctx.version += lim.changes - left;
    *ctx.rng = rng;
}

#[cfg(test)]
mod tests;
