//! An explorer's rules compiled for visiting cells one at a time (narrow scans, walkers, wide
//! explorers, connect): each condition becomes the cheapest test that gives the same answer.
//!
//! * `self(list) op number` is a look-up in a bit table over the visited cell's code; the
//!   leading ones of each rule are folded into a per-code mask of the rules that may fire.
//! * `nbh(list) op number` reads the cell's count from a live plane ([`crate::accel::live`]; passes
//!   that visit few cells count it afresh) and tests it against an integer range ([`Pred`]),
//!   exact since a count converts to `f64` exactly.
//! * `random op number` draws once, like the estimator; constants are folded.
//! * Anything else (`dist`, entity counts, `noise`, progress, two dynamic sides) is evaluated
//!   by the estimators as before.
//!
//! Executers writing one value to the visited cell store it; weighted ones draw first, with
//! the same draw as [`crate::executer::Executer::apply`]; others go through it. Conditions are
//! evaluated left to right with short-circuit (tests without side effects before the first
//! draw may run in any order) and executers in order, so the random draws and the map are
//! exactly those of the core's interpreter; `tests/accel.rs` and `tests/kernel.rs` compare
//! the two on every example and fixture script and on random scripts.
//!
//! Scans run a line at a time ([`Kernel::visit_line`]); when every cell code has at most one
//! candidate rule with at most one count test (a cellular automaton), a visit is a code load,
//! a count load and a compare, and a horizontal pass over byte counts ([`Kernel::scan_rows`],
//! `byte_scan`) tests sixteen cells at a time.

use super::pred::Pred;
use crate::accel::live::{Bytes, CountLayout, Pairs, PlaneSpec, Words};
use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::executer::Executer;
use crate::program::{Explorer, ExplorerKind, Nbh};
use crate::rule::{Condition, Op};
use grid_core::below;
use grid_core::rand::RngExt;

mod build;
mod byte_scan;

/// One compiled condition (`repr(u8)`: a plain tag, cheap to dispatch on).
#[derive(Clone, Debug, PartialEq)]
#[repr(u8)]
enum Test {
    /// Holds always or never.
    Const(bool),
    /// Holds when bit `code` of the table is set (a `self` count against a number).
    Cell([u64; 4]),
    /// Holds when count `plane` lies in `lo..=lo + width` (or, with `negate`, outside).
    Plane {
        plane: usize,
        lo: u32,
        width: u32,
        negate: bool,
    },
    /// `random op t` (or `t op random` when `!random_left`).
    Draw { t: f64, op: Op, random_left: bool },
    /// Evaluated by the estimators.
    General(Box<Condition>),
}

/// A plane test: holds when count `plane` lies in `lo..=lo + width` (or, with `negate`,
/// outside).
#[derive(Clone, Copy, Debug, PartialEq)]
struct PlaneTest {
    plane: u32,
    lo: u32,
    width: u32,
    negate: bool,
}

impl PlaneTest {
    /// Whether the test holds for `count`.
    #[inline(always)]
    fn holds(self, count: u32) -> bool {
        (count.wrapping_sub(self.lo) <= self.width) != self.negate
    }
}

/// One compiled executer.
#[derive(Clone, Debug, PartialEq)]
enum Write {
    /// The visited cell gets this value.
    Fixed(u8),
    /// The visited cell gets a value drawn from this list.
    Choice(Vec<u8>),
    /// Anything else.
    General(Executer),
}

/// One compiled rule.
#[derive(Clone, Debug, PartialEq)]
struct KRule {
    /// The plane tests among the rule's leading pure tests (its leading `self` tests are in
    /// [`Kernel::by_code`]); pure tests commute, so they run first.
    planes: Vec<PlaneTest>,
    /// The tests from the first one that draws or needs the estimators on, in order.
    rest: Vec<Test>,
    writes: Vec<Write>,
    /// The rule's one executer writes this value to the visited cell.
    only: Option<u8>,
}

/// One candidate rule for a cell code, in a kernel whose rules are all [`Kernel::simple`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    /// The rule's one plane test (unused when `always`).
    test: PlaneTest,
    /// The rule has no plane test: it fires.
    always: bool,
    /// Index of the rule.
    rule: u32,
}

/// Most rules a kernel handles (one bit per rule in its per-code rule masks); explorers with more
/// are interpreted.
pub const MAX_RULES: usize = 64;

/// An explorer's rules compiled for cell-by-cell visits.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    rules: Vec<KRule>,
    /// For each code of the visited cell, the rules whose leading `self` tests and constants
    /// hold (bit `i`: rule `i`).
    by_code: Vec<u64>,
    /// Every rule has only pure tests, at most one of them a plane test: then
    /// `candidates[first[code]..first[code + 1]]` lists, in order, the rules a cell holding
    /// `code` may fire and their test.
    simple: bool,
    /// See `simple`.
    first: Vec<u32>,
    /// See `simple`.
    candidates: Vec<Candidate>,
    /// When the kernel is simple, reads live planes, and every code has at most one candidate
    /// rule (the usual cellular automaton, whose rules start with `self(x)` for different
    /// `x`): each code's one test, as a test of a live plane (a code without a rule, or a
    /// rule without a test, reads plane 0 with a range of every count, negated or not: a test
    /// that never or always holds). Else empty.
    one: Vec<Candidate>,
    /// `one` as lanes for row scans over byte planes ([`byte_scan`]); empty when there are none or
    /// more than [`byte_scan::MAX_LANES`].
    lanes: Vec<byte_scan::CodeRun>,
    /// `lanes` as one test per code ([`byte_scan::cell_tests`]).
    cells: Box<[[u8; 4]; 256]>,
    /// When `lanes` run over paired planes with a code plane and every code that may fire
    /// has a rule writing one value to the cell: per code, that value and the change of the
    /// cell's pair weight it makes ([`byte_scan`] fires such rules straight into the planes).
    /// Else empty.
    direct: Vec<(u8, u16)>,
    /// The live planes the rules read.
    pub planes: Vec<PlaneSpec>,
    /// Whether anything reads `percent`/`cpercent` (else the explorers need not set them).
    pub progress: bool,
}

impl Kernel {
    /// Applies the first rule whose conditions hold at `(x, y)` (inside the region); returns
    /// whether one fired. The live planes must have been begun for this region pass.
    #[inline(always)]
    pub fn visit(&self, ctx: &mut Ctx, x: usize, y: usize) -> bool {
        let code = ctx.canvas.front[y * ctx.canvas.w + x] as usize;
        if self.by_code[code] == 0 {
            return false;
        }
        let at = if ctx.layer.caches.live.is_active() {
            ctx.layer.caches.live.index(x, y)
        } else {
            0
        };
        self.fire_first(ctx, x, y, code, at)
    }

    /// Whether [`Kernel::scan_rows`] can run a horizontal scan pass of the current region:
    /// a test per code, in few enough lanes, over byte planes.
    pub fn scans_rows(&self, ctx: &Ctx) -> bool {
        !self.lanes.is_empty()
            && (Bytes::view(&ctx.layer.caches.live).is_some()
                || Pairs::view(&ctx.layer.caches.live).is_some())
    }

    /// A horizontal scan pass ([`Kernel::scans_rows`]): `tiles` visits from `(lx, ly)` (region
    /// coordinates) along the rows, wrapping, as many calls of [`Kernel::visit`] would; stops
    /// once `changes` rules have fired. For passes that do not read `percent`/`cpercent`.
    pub fn scan_rows(&self, ctx: &mut Ctx, start: (usize, usize), tiles: u64, changes: u64) {
        byte_scan::pass(self, ctx, start, tiles, changes);
    }

    /// Visits `n` cells from `(x, y)` rightwards (`vertical`: downwards), all inside the
    /// region, as `n` calls of [`Kernel::visit`] would, counting firings in `changed`; stops
    /// and returns false once `changed` reaches `changes`. For passes that do not read
    /// `percent`/`cpercent`.
    #[allow(clippy::too_many_arguments)]
    pub fn visit_line(
        &self,
        ctx: &mut Ctx,
        (x, y): (usize, usize),
        vertical: bool,
        n: usize,
        changed: &mut u64,
        changes: u64,
    ) -> bool {
        let (cell_step, plane_step) = line_steps(ctx, vertical);
        let mut cell = y * ctx.canvas.w + x;
        let mut at = if self.planes.is_empty() {
            0
        } else {
            ctx.layer.caches.live.index(x, y)
        };
        if !self.one.is_empty() {
            let line = (x, y);
            return if Pairs::view(&ctx.layer.caches.live).is_some() {
                byte_scan::one_line::<Pairs>(self, ctx, line, vertical, n, changed, changes)
            } else if Bytes::view(&ctx.layer.caches.live).is_some() {
                byte_scan::one_line::<Bytes>(self, ctx, line, vertical, n, changed, changes)
            } else {
                byte_scan::one_line::<Words>(self, ctx, line, vertical, n, changed, changes)
            };
        }
        if self.simple {
            for k in 0..n {
                let code = ctx.canvas.front[cell] as usize;
                let (s, e) = (self.first[code] as usize, self.first[code + 1] as usize);
                for c in &self.candidates[s..e] {
                    if c.always
                        || c.test
                            .holds(ctx.layer.caches.live.get(c.test.plane as usize, at))
                    {
                        let (cx, cy) = if vertical { (x, y + k) } else { (x + k, y) };
                        self.write(ctx, c.rule as usize, cx, cy);
                        *changed += 1;
                        if *changed >= changes {
                            return false;
                        }
                        break;
                    }
                }
                cell += cell_step;
                at += plane_step;
            }
            return true;
        }
        for k in 0..n {
            let code = ctx.canvas.front[cell] as usize;
            if self.by_code[code] != 0 {
                let (cx, cy) = if vertical { (x, y + k) } else { (x + k, y) };
                if self.fire_first(ctx, cx, cy, code, at) {
                    *changed += 1;
                    if *changed >= changes {
                        return false;
                    }
                }
            }
            cell += cell_step;
            at += plane_step;
        }
        true
    }

    /// Fires the first candidate rule for `code` whose tests hold at `(x, y)` (padded plane
    /// index `at`).
    #[inline(always)]
    fn fire_first(&self, ctx: &mut Ctx, x: usize, y: usize, code: usize, at: usize) -> bool {
        let mut candidates = self.by_code[code];
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            let rule = &self.rules[i];
            candidates &= candidates - 1;
            // A plain loop (not `Iterator::all`): it stays inlined here.
            let mut planes_hold = true;
            for t in &rule.planes {
                if !t.holds(self.count(ctx, t.plane as usize, x, y, at)) {
                    planes_hold = false;
                    break;
                }
            }
            if planes_hold && holds_all(self, &rule.rest, ctx, x, y, code, at) {
                self.write(ctx, i, x, y);
                return true;
            }
        }
        false
    }

    /// Count `plane` at `(x, y)`: read from the live planes when the pass keeps them (padded
    /// index `at`), else counted afresh (passes that visit few cells).
    #[inline(always)]
    fn count(&self, ctx: &Ctx, plane: usize, x: usize, y: usize, at: usize) -> u32 {
        if ctx.layer.caches.live.is_active() {
            ctx.layer.caches.live.get(plane, at)
        } else {
            self.count_afresh(ctx, plane, x, y)
        }
    }

    /// Count `plane` at `(x, y)`, counted from the map ([`Ctx::count_nbh`], with the visited
    /// cell alone read directly and the usual 3x3 and plus shapes unrolled).
    #[inline(never)]
    fn count_afresh(&self, ctx: &Ctx, plane: usize, x: usize, y: usize) -> u32 {
        let spec = &self.planes[plane];
        let (n, weights) = (&ctx.nbhs[spec.nbh], &spec.weights);
        let front = &ctx.canvas.front;
        if n.is_self {
            // The visited cell is always inside the region.
            return weights[front[y * ctx.canvas.w + x] as usize];
        }
        let (xi, yi) = (x as i64, y as i64);
        if !ctx.interior(n.bbox, xi, yi) {
            return ctx.count_nbh_edge(n, weights, xi, yi);
        }
        let base = (y * ctx.canvas.w + x) as isize;
        let at = |d: isize| weights[front[(base + d) as usize] as usize];
        // Fixed-size arms unroll the usual 3x3 and plus shapes.
        match n.flat.len() {
            9 => {
                let f: &[isize; 9] = n.flat[..9].try_into().expect("nine offsets");
                f.iter().fold(0u32, |s, &d| s.wrapping_add(at(d)))
            }
            8 => {
                let f: &[isize; 8] = n.flat[..8].try_into().expect("eight offsets");
                f.iter().fold(0u32, |s, &d| s.wrapping_add(at(d)))
            }
            4 => {
                let f: &[isize; 4] = n.flat[..4].try_into().expect("four offsets");
                f.iter().fold(0u32, |s, &d| s.wrapping_add(at(d)))
            }
            _ => n.flat.iter().fold(0u32, |s, &d| s.wrapping_add(at(d))),
        }
    }

    /// Runs the executers of rule `i` at `(x, y)`.
    #[inline(always)]
    fn write(&self, ctx: &mut Ctx, i: usize, x: usize, y: usize) {
        for w in &self.rules[i].writes {
            match w {
                Write::Fixed(v) => ctx.set_at(x, y, *v),
                Write::Choice(choices) => {
                    let v = choices[below(ctx.rng, choices.len())];
                    ctx.set_at(x, y, v);
                }
                Write::General(e) => e.apply(ctx, x, y),
            }
        }
    }
}

/// The steps from one cell of a line to the next, in the map and in the live planes' padded
/// layout: rightwards, or downwards (`vertical`).
#[inline(always)]
fn line_steps(ctx: &Ctx, vertical: bool) -> (usize, usize) {
    if vertical {
        (ctx.canvas.w, ctx.layer.caches.live.pitch())
    } else {
        (1, 1)
    }
}

/// Whether every test of `tests` holds at `(x, y)` (code `code`, padded plane index `at`),
/// evaluated in order with short-circuit.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn holds_all(
    kernel: &Kernel,
    tests: &[Test],
    ctx: &mut Ctx,
    x: usize,
    y: usize,
    code: usize,
    at: usize,
) -> bool {
    for t in tests {
        let holds = match t {
            Test::Plane {
                plane,
                lo,
                width,
                negate,
            } => {
                let count = kernel.count(ctx, *plane, x, y, at);
                (count.wrapping_sub(*lo) <= *width) != *negate
            }
            Test::Cell(bits) => bits[code / 64] >> (code % 64) & 1 != 0,
            Test::Const(b) => *b,
            Test::Draw { t, op, random_left } => {
                let v = ctx.rng.random::<f64>();
                if *random_left {
                    op.holds(v, *t)
                } else {
                    op.holds(*t, v)
                }
            }
            _ => slow_test(t, ctx, x, y),
        };
        if !holds {
            return false;
        }
    }
    true
}

/// [`holds_all`]'s tests that evaluate estimators.
#[inline(never)]
fn slow_test(t: &Test, ctx: &mut Ctx, x: usize, y: usize) -> bool {
    let Test::General(c) = t else {
        unreachable!("holds_all handles the other tests")
    };
    let a = c.left.eval(ctx, x, y);
    let b = c.right.eval(ctx, x, y);
    c.op.holds(a, b)
}
