//! What one thread keeps from one map to the next ([`Workspace`]): on small maps, allocating
//! the buffers afresh costs about as much as a pass.

use crate::engine::FlatNbh;
use crate::hook::Kept;
use crate::program::Program;

/// Buffers one thread reuses from one map to the next: the neighbourhoods laid out for the
/// last map's width, the back buffer, the entity counts, and what the layer behind
/// [`crate::hook`] keeps.
#[derive(Debug, Default)]
pub struct Workspace {
    /// The program's neighbourhoods for width `nbhs_w`.
    pub nbhs: Vec<FlatNbh>,
    /// The width `nbhs` are laid out for.
    nbhs_w: usize,
    /// The back buffer.
    pub back: Vec<u8>,
    /// Entity counts.
    pub counts: Vec<u32>,
    /// The layer's buffers.
    pub kept: Kept,
}

/// Maps of more cells than this (a 1024x1024 map has this many) keep nothing for the next
/// map, and the layer keeps no scratch from one explorer to the next (peak memory on huge
/// maps; below it, a thread keeps at most a few bytes per cell of the largest map it made).
pub const KEEP_CELLS: usize = 1 << 20;

thread_local! {
    /// This thread's buffers, kept from one map to the next.
    static WORKSPACE: std::cell::RefCell<Workspace> = std::cell::RefCell::default();
}

/// Runs `f` with this thread's workspace (a fresh one if it is in use), and keeps the buffers
/// for the next map unless the map has more than [`KEEP_CELLS`] cells.
pub fn with_workspace<T>(cells: usize, f: impl FnOnce(&mut Workspace) -> T) -> T {
    WORKSPACE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut ws) => {
            let t = f(&mut ws);
            if cells > KEEP_CELLS {
                *ws = Workspace::default();
            }
            t
        }
        Err(_) => f(&mut Workspace::default()),
    })
}

impl Workspace {
    /// Lays out `p`'s neighbourhoods for width `w`, unless the kept ones are already those.
    pub fn lay_out(&mut self, p: &Program, w: usize) {
        let same_program = self.nbhs.len() == p.nbhs.len()
            && self.nbhs.iter().zip(&p.nbhs).all(|(f, n)| {
                f.offsets.len() == n.offsets.len()
                    && (f.offsets.iter().zip(&n.offsets))
                        .all(|(&a, &(x, y))| a == (x as i64, y as i64))
            });
        if !same_program {
            self.nbhs = p.nbhs.iter().map(|n| FlatNbh::new(&n.offsets, w)).collect();
        } else if self.nbhs_w != w {
            // Only the flat deltas depend on the width.
            for n in &mut self.nbhs {
                for (f, &(x, y)) in n.flat.iter_mut().zip(&n.offsets) {
                    *f = crate::engine::flat(x, y, w);
                }
            }
        }
        self.nbhs_w = w;
    }
}
