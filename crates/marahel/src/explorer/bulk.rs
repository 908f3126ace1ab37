//! Row-at-a-time execution of full narrow scans whose result does not depend on the order in
//! which cells are visited: every cell is visited once, executers write only the visited cell
//! (`self`), and rules read the map only when the pass is buffered (the front buffer is then
//! frozen). Such a pass is a pure per-cell function, so it runs one rule and one condition at a
//! time over a whole row, with one `match` per row instead of one per cell. Random draws are
//! made row by row, in column order, only for the cells that reach that estimator, exactly as
//! the per-cell short-circuit would.

use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::program::{Explorer, ExplorerKind, Nbh};
use crate::rule::Op;
use grid_core::rand::RngExt;

/// Whether `ex` can run row by row with the same meaning as the per-cell scan.
///
/// `writes_out`: whether any executer of the program writes `out` into the map (then even a
/// `plus(out)` count can change while the pass runs).
pub fn eligible(ex: &Explorer, nbhs: &[Nbh], writes_out: bool) -> bool {
    if !matches!(ex.kind, ExplorerKind::Horizontal | ExplorerKind::Vertical)
        || ex.tiles.is_some()
        || ex.changes.is_some()
    {
        return false;
    }
    let self_only = |nbh: usize| nbhs[nbh].offsets == [(0, 0)];
    let ok_est = |e: &Estimator| match e {
        Estimator::Number(_)
        | Estimator::Random
        | Estimator::Noise { .. }
        | Estimator::RPercent => true,
        Estimator::Neighborhood { uniform, .. } => ex.buffer || (*uniform && !writes_out),
        Estimator::Distance { .. } | Estimator::Count { .. } => ex.buffer,
        Estimator::Percent | Estimator::CPercent => false,
    };
    ex.rules.iter().all(|r| {
        r.executers.iter().all(|e| self_only(e.nbh))
            && r.conditions
                .iter()
                .all(|c| ok_est(&c.left) && ok_est(&c.right))
    })
}

/// Values of `est` at `(xs[i], y)`.
fn eval_row(est: &Estimator, ctx: &mut Ctx, y: usize, xs: &[u32], out: &mut Vec<f64>) {
    out.clear();
    match est {
        Estimator::Number(v) => out.resize(xs.len(), *v),
        Estimator::Random => out.extend(xs.iter().map(|_| ctx.rng.random::<f64>())),
        Estimator::Neighborhood {
            nbh,
            weights,
            slot,
            uniform,
        } if (ctx.buffer || *uniform) && !xs.is_empty() => {
            // Fill the cache for this region (frozen front buffer, or a count that depends
            // only on the region's shape), then read it directly.
            ctx.count_plane(*slot, *nbh, weights, xs[0] as usize, y, !ctx.buffer);
            let r = ctx.region;
            let plane = &ctx.dist_cache[*slot].as_ref().expect("filled").2;
            let row = (y - r.y as usize) * r.w as usize;
            let x0 = r.x as usize;
            out.extend(xs.iter().map(|&x| plane[row + x as usize - x0] as f64));
        }
        _ => {
            for &x in xs {
                let v = est.eval(ctx, x as usize, y);
                out.push(v);
            }
        }
    }
}

/// Keeps the cells of `cand` where `keep(left[i], right[i])`, in order; returns how many.
#[inline]
fn compact(
    cand: &mut [u32],
    left: &[f64],
    right: &[f64],
    keep: impl Fn(f64, f64) -> bool,
) -> usize {
    let mut k = 0;
    for i in 0..cand.len() {
        let x = cand[i];
        cand[k] = x;
        k += keep(left[i], right[i]) as usize;
    }
    k
}

/// One region pass, row by row.
pub fn pass(ex: &Explorer, ctx: &mut Ctx) {
    let r = ctx.region;
    let (x0, w) = (r.x as u32, r.w as u32);
    let mut undecided: Vec<u32> = Vec::with_capacity(w as usize);
    let mut cand: Vec<u32> = Vec::with_capacity(w as usize);
    let mut kept: Vec<u32> = Vec::with_capacity(w as usize);
    let (mut left, mut right) = (Vec::new(), Vec::new());
    let mut fired = vec![false; w as usize];
    for y in r.y as usize..r.bottom() as usize {
        undecided.clear();
        undecided.extend(x0..x0 + w);
        fired.iter_mut().for_each(|f| *f = false);
        for rule in &ex.rules {
            if undecided.is_empty() {
                break;
            }
            cand.clear();
            cand.extend_from_slice(&undecided);
            for c in &rule.conditions {
                eval_row(&c.left, ctx, y, &cand, &mut left);
                eval_row(&c.right, ctx, y, &cand, &mut right);
                // Branch-free compaction (the outcomes are often random), one loop per
                // operator so the comparison is not re-dispatched per cell.
                let k = match c.op {
                    Op::Gt => compact(&mut cand, &left, &right, |a, b| a > b),
                    Op::Lt => compact(&mut cand, &left, &right, |a, b| a < b),
                    Op::Ge => compact(&mut cand, &left, &right, |a, b| a >= b),
                    Op::Le => compact(&mut cand, &left, &right, |a, b| a <= b),
                    Op::Eq => compact(&mut cand, &left, &right, |a, b| a == b),
                    Op::Ne => compact(&mut cand, &left, &right, |a, b| a != b),
                };
                cand.truncate(k);
                if cand.is_empty() {
                    break;
                }
            }
            if cand.is_empty() {
                continue;
            }
            let row = y * ctx.canvas.w;
            if !ctx.track_counts && rule.executers.iter().all(|e| e.choices.len() == 1) {
                // Fixed value, nothing to keep counted: plain stores (the last executer wins).
                let value = rule.executers.last().expect("a rule has executers").choices[0];
                let target = if ctx.buffer {
                    &mut ctx.canvas.back
                } else {
                    ctx.version += 1;
                    &mut ctx.canvas.front
                };
                for &x in &cand {
                    target[row + x as usize] = value;
                }
            } else {
                for &x in &cand {
                    for e in &rule.executers {
                        let value = if e.choices.len() == 1 {
                            e.choices[0]
                        } else {
                            e.choices[ctx.rng.random_range(0..e.choices.len())]
                        };
                        ctx.set(row + x as usize, value);
                    }
                }
            }
            // Drop the fired cells from `undecided`, branch-free.
            for &x in &cand {
                fired[(x - x0) as usize] = true;
            }
            kept.clear();
            kept.resize(undecided.len(), 0);
            let mut k = 0;
            for &x in &undecided {
                kept[k] = x;
                k += !fired[(x - x0) as usize] as usize;
            }
            kept.truncate(k);
            std::mem::swap(&mut undecided, &mut kept);
        }
    }
}
