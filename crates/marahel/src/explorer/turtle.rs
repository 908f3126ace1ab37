//! Turtle explorers: `turtle_drunk` (a digger that keeps a direction and changes it at
//! random) and `turtle_heur` (a greedy walker moving to the neighbour with the smallest
//! heuristics). Both stop after `tiles` steps or `changes` firings.
//!
//! A drunk walker whose rules each have the form `[self test] [, random test] -> one
//! executer` (the usual digger), in a pass that writes the front buffer and keeps no counts
//! nor live planes, runs a step loop of its own (`drunk_steps`): position, direction, the
//! map slice and a copy of the RNG state in locals, `random op t` as an integer range test
//! of the draw's 53 bits, a 3x3 write as three row stores. Other walkers visit through the
//! compiled rules ([`super::visit`]). Both make the same draws in the same order and the
//! same writes; `tests/kernel.rs` compares the step loop (compiled scripts) with the
//! interpreter on random scripts.
//!
//! The greedy walker evaluates every heuristic at every neighbour, in order (so `random`
//! draws as the reference does); `noise` heuristics, which depend only on the cell, are kept
//! for the pass.

use super::{Limits, set_progress, visit};
use crate::engine::{Ctx, FlatNbh};
use crate::estimator::Estimator;
use crate::program::Explorer;
use crate::rule::{Op, Pred, integer_range};
use grid_core::below;
use grid_core::rand::{Rng, RngExt};
use std::cmp::Ordering;

fn start(ctx: &mut Ctx) -> (i64, i64) {
    let r = ctx.region;
    let x = r.x + ctx.rng.random_range(0..r.w);
    let y = r.y + ctx.rng.random_range(0..r.h);
    (x, y)
}

/// `turtle_drunk`: from a random direction and a random cell, visit, then turn with
/// probability `dirprob` (or when the next cell is outside the region) and step.
pub fn drunk(ex: &Explorer, dirprob: f64, ctx: &mut Ctx, lim: Limits) {
    let nbhs = ctx.nbhs;
    let plain = !ctx.buffer && !ctx.track_counts && !ctx.live.tracking();
    if plain
        && ex.kernel.is_some()
        && !nbhs[ex.directions].offsets.is_empty()
        && let Some(steps) = steps(ex, nbhs)
    {
        return drunk_steps(&steps, &nbhs[ex.directions], dirprob, ctx, lim);
    }
    let dirs = &nbhs[ex.directions].offsets;
    let mut dir = dirs[below(ctx.rng, dirs.len())];
    let from = start(ctx);
    walk(ex, ctx, lim, from, |ctx, (x, y)| {
        let turn = ctx.rng.random::<f64>() < dirprob;
        if turn || !ctx.inside(x + dir.0, y + dir.1) {
            dir = dirs[below(ctx.rng, dirs.len())];
        }
        if ctx.inside(x + dir.0, y + dir.1) {
            (x + dir.0, y + dir.1)
        } else {
            (x, y)
        }
    });
}

/// The loop every walker shares: from `from`, up to `lim.tiles` steps or until `lim.changes`
/// rules have fired, apply the rules where the walker stands, then move it with `step`.
fn walk(
    ex: &Explorer,
    ctx: &mut Ctx,
    lim: Limits,
    from: (i64, i64),
    mut step: impl FnMut(&mut Ctx, (i64, i64)) -> (i64, i64),
) {
    let (mut at, mut changed) = (from, 0);
    for visited in 0..lim.tiles {
        if changed >= lim.changes {
            break;
        }
        set_progress(ex, ctx, visited, lim.tiles, changed, lim.changes);
        if visit(ex, ctx, at.0 as usize, at.1 as usize) {
            changed += 1;
        }
        at = step(ctx, at);
    }
}

/// An integer range test over the visited cell's weight (`self(list) op t`), or over the 53
/// bits of a `random` draw: holds when `v` lies in `lo..=lo + width`, or (with `negate`)
/// outside.
#[derive(Clone, Copy, Debug)]
struct Span {
    lo: u64,
    width: u64,
    negate: bool,
}

impl Span {
    /// A test that always or never holds.
    const fn always(b: bool) -> Span {
        Span {
            lo: 0,
            width: u64::MAX,
            negate: !b,
        }
    }

    /// Whether the test holds for `v`.
    #[inline(always)]
    fn holds(self, v: u64) -> bool {
        (v.wrapping_sub(self.lo) <= self.width) != self.negate
    }

    /// `self(list) op t` over a count.
    fn count(op: Op, t: f64) -> Span {
        match Pred::new(op, t) {
            Pred::Always(b) => Span::always(b),
            Pred::Range { lo, hi, negate } => Span {
                lo: lo as u64,
                width: (hi - lo) as u64,
                negate,
            },
        }
    }

    /// `random op t` over `bits`, the draw's 53 bits: `random::<f64>()` is
    /// `bits as f64 * 2^-53`, exact, so `random op t` is `bits op t * 2^53` (exact too).
    fn draw(op: Op, t: f64) -> Span {
        match integer_range(op, t * (1u64 << 53) as f64, ((1u64 << 53) - 1) as f64) {
            Err(b) => Span::always(b),
            Ok((lo, hi, negate)) => Span {
                lo,
                width: hi - lo,
                negate,
            },
        }
    }
}

/// What a [`Step`] rule writes.
#[derive(Clone, Copy, Debug)]
enum Write<'a> {
    /// This value to the visited cell.
    Cell(u8),
    /// This value to the neighbourhood around the visited cell, the 3x3 square of offsets
    /// `-1..=1` in row-major order (written a row at a time away from the region's edge).
    Square(&'a FlatNbh, u8),
    /// This value to the neighbourhood around the visited cell.
    Nbh(&'a FlatNbh, u8),
    /// A value drawn from the list to the neighbourhood.
    Choice(&'a FlatNbh, &'a [u8]),
}

/// A drunk walker's rule of the shape `[self test] [, random test] -> one executer`: its
/// `self` test (the weight of each code, tested), then its draw.
#[derive(Clone, Copy, Debug)]
struct Step<'a> {
    cell: Option<(&'a [u32; 256], Span)>,
    draw: Option<Span>,
    write: Write<'a>,
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
            write: match (nbhs[e.nbh].is_self, &e.choices[..]) {
                (true, &[v]) => Write::Cell(v),
                (false, &[v]) if is_square(&nbhs[e.nbh]) => Write::Square(&nbhs[e.nbh], v),
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
                }
                (_, Estimator::Random) if number(l).is_some() && step.draw.is_none() => {
                    step.draw = Some(Span::draw(op.flip(), number(l)?));
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

/// [`drunk`] for rules that are [`Step`]s, in a pass that writes the front buffer and keeps no
/// counts nor live planes: the same draws in the same order and the same writes, with the
/// walker's position, the map slice and the RNG state in locals. A `random < t` test is an
/// integer compare of the draw's 53 bits ([`Span::draw`]).
fn drunk_steps(steps: &[Step], dirs: &FlatNbh, dirprob: f64, ctx: &mut Ctx, lim: Limits) {
    let mut rng = ctx.rng.clone();
    // (dx, dy, flat delta) of each direction.
    let moves: Vec<(i64, i64, isize)> = dirs
        .offsets
        .iter()
        .zip(&dirs.flat)
        .map(|(&(dx, dy), &d)| (dx, dy, d))
        .collect();
    let n = moves.len();
    let mut dir = moves[below(&mut rng, n)];
    let r = ctx.region;
    let (mut lx, mut ly) = (rng.random_range(0..r.w), rng.random_range(0..r.h));
    let w = ctx.canvas.w;
    let front = &mut ctx.canvas.front[..];
    let mut i = (r.y + ly) as usize * w + (r.x + lx) as usize;
    // Whether local cell `(x, y)` lies in the region.
    let (rw, rh) = (r.w as u64, r.h as u64);
    let inside = |x: i64, y: i64| (x as u64) < rw && (y as u64) < rh;
    // `random < dirprob` is `bits < dirprob * 2^53` (exact), so `bits < turn`.
    let scaled = dirprob * (1u64 << 53) as f64;
    let turn = if scaled > 0.0 {
        scaled.ceil().min((1u64 << 53) as f64) as u64
    } else {
        0
    };
    // Firings left; the walk stops when none are.
    let mut left = lim.changes;
    for _ in 0..lim.tiles {
        if left == 0 {
            break;
        }
        let code = front[i] as usize;
        for s in steps {
            if let Some((weights, span)) = s.cell
                && !span.holds(weights[code] as u64)
            {
                continue;
            }
            if let Some(d) = s.draw
                && !d.holds(rng.next_u64() >> 11)
            {
                continue;
            }
            let (nbh, value) = match s.write {
                Write::Cell(v) => {
                    front[i] = v;
                    left -= 1;
                    break;
                }
                Write::Square(_, v) if lx >= 1 && ly >= 1 && inside(lx + 1, ly + 1) => {
                    for row in [i - w - 1, i - 1, i + w - 1] {
                        front[row..row + 3].copy_from_slice(&[v; 3]);
                    }
                    left -= 1;
                    break;
                }
                Write::Square(nbh, v) | Write::Nbh(nbh, v) => (nbh, v),
                Write::Choice(nbh, list) => (nbh, list[below(&mut rng, list.len())]),
            };
            let mut store = |j: usize| front[j] = value;
            let b = nbh.bbox;
            if inside(lx + b.0, ly + b.2) && inside(lx + b.1, ly + b.3) {
                // Fixed-size arms unroll the usual 3x3 and plus shapes.
                match nbh.flat.len() {
                    9 => {
                        let f: &[isize; 9] = nbh.flat[..9].try_into().expect("nine offsets");
                        f.iter().for_each(|&d| store(i.wrapping_add_signed(d)));
                    }
                    5 => {
                        let f: &[isize; 5] = nbh.flat[..5].try_into().expect("five offsets");
                        f.iter().for_each(|&d| store(i.wrapping_add_signed(d)));
                    }
                    _ => nbh
                        .flat
                        .iter()
                        .for_each(|&d| store(i.wrapping_add_signed(d))),
                }
            } else {
                for &(dx, dy) in &nbh.offsets {
                    if inside(lx + dx, ly + dy) {
                        store(i.wrapping_add_signed((dy * w as i64 + dx) as isize));
                    }
                }
            }
            left -= 1;
            break;
        }
        let turning = rng.next_u64() >> 11 < turn;
        let mut ok = inside(lx + dir.0, ly + dir.1);
        if turning || !ok {
            dir = moves[below(&mut rng, n)];
            ok = inside(lx + dir.0, ly + dir.1);
        }
        if ok {
            lx += dir.0;
            ly += dir.1;
            i = i.wrapping_add_signed(dir.2);
        }
    }
    // Only caches read the version, and only as "unchanged since": one bump per firing
    // covers every change.
    ctx.version += lim.changes - left;
    *ctx.rng = rng;
}

/// Whether the offsets of `nbh` are the 3x3 square around the centre, in row-major order.
fn is_square(nbh: &FlatNbh) -> bool {
    (nbh.offsets.iter().enumerate())
        .all(|(k, &(dx, dy))| (dx, dy) == (k as i64 % 3 - 1, k as i64 / 3 - 1))
        && nbh.offsets.len() == 9
}

/// Lexicographic comparison of heuristic keys.
pub fn cmp_keys(a: &[f64], b: &[f64]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.total_cmp(y))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// `turtle_heur`.
pub fn greedy(ex: &Explorer, heuristics: &[Estimator], ctx: &mut Ctx, lim: Limits) {
    let nbhs = ctx.nbhs;
    let dirs = &nbhs[ex.directions].offsets;
    let from = start(ctx);
    let mut best = vec![0.0; heuristics.len()];
    let mut key = vec![0.0; heuristics.len()];
    // A `noise` heuristic depends only on the cell (and draws nothing): its values are kept
    // for the pass (NaN: not yet evaluated), as the walker keeps evaluating the same cells.
    let nh = heuristics.len();
    let noisy = |h: &Estimator| matches!(h, Estimator::Noise { .. });
    let r = ctx.region;
    let mut memo = match heuristics.iter().any(noisy) {
        true => vec![f64::NAN; r.area() as usize * nh],
        false => Vec::new(),
    };
    walk(ex, ctx, lim, from, |ctx, (x, y)| {
        let mut chosen: Option<(i64, i64)> = None;
        let mut ties = 0u32;
        for &(dx, dy) in dirs {
            let (nx, ny) = (x + dx, y + dy);
            if !ctx.inside(nx, ny) {
                continue;
            }
            let cell = ((ny - r.y) * r.w + nx - r.x) as usize * nh;
            for (j, (k, h)) in key.iter_mut().zip(heuristics).enumerate() {
                *k = match h {
                    Estimator::Noise { .. } => {
                        let slot = &mut memo[cell + j];
                        if slot.is_nan() {
                            *slot = h.eval(ctx, nx as usize, ny as usize);
                        }
                        *slot
                    }
                    // The estimator's own draw, without the call.
                    Estimator::Random => ctx.rng.random::<f64>(),
                    _ => h.eval(ctx, nx as usize, ny as usize),
                };
            }
            let ord = if chosen.is_none() {
                Ordering::Less
            } else {
                cmp_keys(&key, &best)
            };
            match ord {
                Ordering::Less => {
                    best.copy_from_slice(&key);
                    chosen = Some((nx, ny));
                    ties = 1;
                }
                Ordering::Equal => {
                    // Uniform choice among equals (reservoir sampling).
                    ties += 1;
                    if below(ctx.rng, ties as usize) == 0 {
                        chosen = Some((nx, ny));
                    }
                }
                Ordering::Greater => {}
            }
        }
        chosen.unwrap_or((x, y))
    });
}
