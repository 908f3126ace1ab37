//! Narrow explorers: `narrow_horz`, `narrow_vert` (a wrapping scan from a random cell) and
//! `narrow_rand` (uniformly random cells).

use super::{Limits, reads_progress, visit};
use crate::engine::Ctx;
use crate::program::{Explorer, ExplorerKind};
use grid_core::below;

/// One region pass: `lim.tiles` visits (wrapping around the region as often as needed), or
/// fewer once `lim.changes` rules have fired.
pub fn pass(ex: &Explorer, ctx: &mut Ctx, lim: Limits) {
    let (mut lx, mut ly) = start(ctx);
    if lim.changes == 0 {
        return;
    }
    let mut st = Step {
        progress: reads_progress(ex),
        inv_tiles: 1.0 / lim.tiles as f64,
        inv_changes: 1.0 / lim.changes as f64,
        changed: 0,
        changes: lim.changes,
    };
    let vertical = matches!(ex.kind, ExplorerKind::Vertical);
    if let ExplorerKind::Horizontal | ExplorerKind::Vertical = ex.kind {
        scan(
            vertical,
            ctx,
            (lx, ly),
            lim.tiles,
            |ctx, (x, y), run, visited| {
                (0..run).all(|i| {
                    let (x, y) = if vertical { (x, y + i) } else { (x + i, y) };
                    st.visit(ex, ctx, x, y, visited + i as u64)
                })
            },
        );
        return;
    }
    let r = ctx.region;
    let (x0, y0, w, h) = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
    let mut visited = 0u64;
    while visited < lim.tiles {
        let go_on = st.visit(ex, ctx, x0 + lx, y0 + ly, visited);
        // The next cell is drawn even after the last firing (the stream continues into the
        // next region pass).
        lx = below(ctx.rng, w);
        ly = below(ctx.rng, h);
        visited += 1;
        if !go_on {
            break;
        }
    }
}

/// The first cell of a pass, in the region's own coordinates: a random cell.
pub fn start(ctx: &mut Ctx) -> (usize, usize) {
    let r = ctx.region;
    let lx = below(ctx.rng, r.w as usize);
    (lx, below(ctx.rng, r.h as usize))
}

/// A wrapping scan of `tiles` visits from local cell `start`, along rows (columns when
/// `vertical`), a line at a time: the same visits in the same order as stepping one cell and
/// wrapping. `line(ctx, cell, run, visited)` visits the `run` cells of a line from map cell
/// `cell` on, `visited` having been made before; it returns false to end the scan.
pub fn scan(
    vertical: bool,
    ctx: &mut Ctx,
    start: (usize, usize),
    tiles: u64,
    mut line: impl FnMut(&mut Ctx, (usize, usize), usize, u64) -> bool,
) {
    let r = ctx.region;
    let (x0, y0, w, h) = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
    // `a` is the position along the line, `b` the line.
    let (mut a, mut b, along, across) = match vertical {
        true => (start.1, start.0, h, w),
        false => (start.0, start.1, w, h),
    };
    let mut visited = 0u64;
    while visited < tiles {
        let run = ((along - a) as u64).min(tiles - visited) as usize;
        let at = match vertical {
            true => (x0 + b, y0 + a),
            false => (x0 + a, y0 + b),
        };
        if !line(ctx, at, run, visited) {
            return;
        }
        visited += run as u64;
        a = 0;
        b = if b + 1 == across { 0 } else { b + 1 };
    }
}

/// The state of a pass's visits.
struct Step {
    /// Whether to set `percent`/`cpercent` before each visit.
    progress: bool,
    inv_tiles: f64,
    inv_changes: f64,
    /// Rule firings so far.
    changed: u64,
    /// Firings allowed.
    changes: u64,
}

impl Step {
    /// One visit; false once the firing limit is reached.
    #[inline(always)]
    fn visit(&mut self, ex: &Explorer, ctx: &mut Ctx, x: usize, y: usize, visited: u64) -> bool {
        if self.progress {
            ctx.percent = visited as f64 * self.inv_tiles;
            ctx.cpercent = self.changed as f64 * self.inv_changes;
        }
        if visit(ex, ctx, x, y) {
            self.changed += 1;
        }
        self.changed < self.changes
    }
}
