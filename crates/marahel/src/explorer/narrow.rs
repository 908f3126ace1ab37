//! Narrow explorers: `narrow_horz`, `narrow_vert` (a wrapping scan from a random cell) and
//! `narrow_rand` (uniformly random cells).

use super::{Limits, visit};
use crate::engine::Ctx;
use crate::program::{Explorer, ExplorerKind};
use grid_core::rand::RngExt;

/// One region pass.
pub fn pass(ex: &Explorer, ctx: &mut Ctx, lim: Limits) {
    let r = ctx.region;
    let (x0, y0, w, h) = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
    let mut lx = ctx.rng.random_range(0..w);
    let mut ly = ctx.rng.random_range(0..h);
    let mut changed = 0u64;
    let (inv_tiles, inv_changes) = (1.0 / lim.tiles as f64, 1.0 / lim.changes as f64);
    let mut visited = 0u64;
    while visited < lim.tiles && changed < lim.changes {
        ctx.percent = visited as f64 * inv_tiles;
        ctx.cpercent = changed as f64 * inv_changes;
        if visit(&ex.rules, ctx, x0 + lx, y0 + ly) {
            changed += 1;
        }
        match ex.kind {
            ExplorerKind::Horizontal => {
                lx += 1;
                if lx == w {
                    lx = 0;
                    ly += 1;
                    if ly == h {
                        ly = 0;
                    }
                }
            }
            ExplorerKind::Vertical => {
                ly += 1;
                if ly == h {
                    ly = 0;
                    lx += 1;
                    if lx == w {
                        lx = 0;
                    }
                }
            }
            _ => {
                lx = ctx.rng.random_range(0..w);
                ly = ctx.rng.random_range(0..h);
            }
        }
        visited += 1;
    }
}
