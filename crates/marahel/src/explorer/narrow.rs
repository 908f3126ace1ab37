//! Narrow explorers: `narrow_horz`, `narrow_vert` (a wrapping scan from a random cell) and
//! `narrow_rand` (uniformly random cells).

use super::{Limits, reads_progress, visit};
use crate::accel::Strategy;
use crate::engine::Ctx;
use crate::program::{Explorer, ExplorerKind};
use grid_core::below;

/// One region pass: `lim.tiles` visits (wrapping around the region as often as needed), or
/// fewer once `lim.changes` rules have fired.
pub fn pass(ex: &Explorer, ctx: &mut Ctx, lim: Limits, strategy: Strategy) {
    let r = ctx.region;
    let (x0, y0, w, h) = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
    let mut lx = below(ctx.rng, w);
    let mut ly = below(ctx.rng, h);
    let mut st = Step {
        progress: reads_progress(ex),
        inv_tiles: 1.0 / lim.tiles as f64,
        inv_changes: 1.0 / lim.changes as f64,
        changed: 0,
        changes: lim.changes,
    };
    let mut visited = 0u64;
    if lim.changes == 0 {
        return;
    }
    let vertical = matches!(ex.kind, ExplorerKind::Vertical);
    match (&ex.kernel, &ex.kind) {
        // A cellular automaton over byte planes: the whole pass at once, sixteen cells at a
        // time.
        (Some(k), ExplorerKind::Horizontal) if strategy == Strategy::ByteScan => {
            k.scan_rows(ctx, (lx, ly), lim.tiles, lim.changes);
        }
        // Scans run along a row (column) at a time: the same visits in the same order as
        // stepping one cell and wrapping. `a` is the position along the line, `b` the line.
        (kernel, ExplorerKind::Horizontal | ExplorerKind::Vertical) => {
            let (mut a, mut b, along, across) = if vertical {
                (ly, lx, h, w)
            } else {
                (lx, ly, w, h)
            };
            let cell = |a: usize, b: usize| {
                if vertical {
                    (x0 + b, y0 + a)
                } else {
                    (x0 + a, y0 + b)
                }
            };
            let lines = kernel.as_ref().filter(|_| strategy == Strategy::Lines);
            'scan: while visited < lim.tiles {
                let run = ((along - a) as u64).min(lim.tiles - visited) as usize;
                match lines {
                    // Compiled rules that need no progress: the whole line at once.
                    Some(k) => {
                        let at = cell(a, b);
                        if !k.visit_line(ctx, at, vertical, run, &mut st.changed, lim.changes) {
                            break 'scan;
                        }
                    }
                    _ => {
                        for i in 0..run {
                            let (x, y) = cell(a + i, b);
                            if !st.visit(ex, ctx, x, y, visited + i as u64) {
                                break 'scan;
                            }
                        }
                    }
                }
                visited += run as u64;
                a = 0;
                b = if b + 1 == across { 0 } else { b + 1 };
            }
        }
        _ => {
            while visited < lim.tiles {
                let go_on = st.visit(ex, ctx, x0 + lx, y0 + ly, visited);
                // The next cell is drawn even after the last firing (the stream continues
                // into the next region pass).
                lx = below(ctx.rng, w);
                ly = below(ctx.rng, h);
                visited += 1;
                if !go_on {
                    break;
                }
            }
        }
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
