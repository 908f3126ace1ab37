//! Order-free full scans: a `narrow_horz` or `narrow_vert` pass that visits every cell of
//! its region once, whose executers write only the visited cell (`self`), and whose rules
//! read the map only when the pass is buffered (the front buffer is then frozen) or through
//! counts that depend only on the region's shape (the compiler marks them:
//! [`applies`], [`crate::program::Explorer::order_free`]). No cell sees another's write, so the order of the
//! visits changes nothing but the order of the random draws.
//!
//! Such a pass draws no start cell and runs row by row, from the region's top row: in a row,
//! each rule in order takes the cells no earlier rule fired on, and narrows them condition
//! by condition, in column order (the left sides of a condition, then its right sides), then
//! its executers fire on the cells left, in column order. This order lets a faster layer
//! behind [`crate::hook`] run a condition over a whole row.

use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::program::{Explorer, ExplorerKind, Nbh};

/// Whether `ex` is an order-free full scan (see the module's documentation).
///
/// `writes_out`: whether any executer of the program writes `out` into the map (then even a
/// `plus(out)` count can change while the pass runs).
pub fn applies(ex: &Explorer, nbhs: &[Nbh], writes_out: bool) -> bool {
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
        Estimator::Distance { .. } | Estimator::PathDistance { .. } | Estimator::Count { .. } => {
            ex.buffer
        }
        Estimator::Percent | Estimator::CPercent => false,
    };
    ex.rules.iter().all(|r| {
        r.executers.iter().all(|e| self_only(e.nbh))
            && r.conditions
                .iter()
                .all(|c| ok_est(&c.left) && ok_est(&c.right))
    })
}

/// One region pass.
pub fn pass(ex: &Explorer, ctx: &mut Ctx) {
    let r = ctx.region;
    let xs = r.x as usize..r.right() as usize;
    let (mut cand, mut left, mut right) = (Vec::new(), Vec::new(), Vec::new());
    for y in r.y as usize..r.bottom() as usize {
        // The cells of the row no rule has fired on yet.
        let mut undecided: Vec<usize> = xs.clone().collect();
        for rule in &ex.rules {
            cand.clone_from(&undecided);
            for c in &rule.conditions {
                left.clear();
                left.extend(cand.iter().map(|&x| c.left.eval(ctx, x, y)));
                right.clear();
                right.extend(cand.iter().map(|&x| c.right.eval(ctx, x, y)));
                let mut k = 0;
                cand.retain(|_| {
                    k += 1;
                    c.op.holds(left[k - 1], right[k - 1])
                });
            }
            for &x in &cand {
                for e in &rule.executers {
                    e.apply(ctx, x, y);
                }
            }
            // Both lists are in column order.
            let mut j = 0;
            undecided.retain(|&x| {
                while j < cand.len() && cand[j] < x {
                    j += 1;
                }
                cand.get(j) != Some(&x)
            });
        }
    }
}
