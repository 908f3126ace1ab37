//! The draws of a rule's executers over a region's cells, in row-major order (module
//! `whole` hands them rows, masks and rectangles).

use crate::executer::Executer;
use grid_core::{LevelRng, below};

/// The draws of a rule's executers, prepared once per pass.
pub struct Draws<'a> {
    execs: &'a [Executer],
    /// A single executer's choices, when at most 256: indexed by the draw masked to a byte
    /// (the draw is below their number), so without a bounds test.
    table: Option<(usize, [u8; 256])>,
}

impl<'a> Draws<'a> {
    pub fn new(execs: &'a [Executer]) -> Draws<'a> {
        let table = match execs {
            // (A single fixed value needs no table: such passes store it without drawing.)
            [e] if (2..=256).contains(&e.choices.len()) => {
                let mut t = [0; 256];
                t[..e.choices.len()].copy_from_slice(&e.choices);
                Some((e.choices.len(), t))
            }
            _ => None,
        };
        Draws { execs, table }
    }

    /// [`Draws::row`] over the `rows x width` rectangle whose rows start `stride` apart in
    /// `dst`, when a table applies (one call for the whole rectangle); returns whether it
    /// did (else nothing is drawn). The choices and the generator's state are in locals.
    pub fn rect(
        &self,
        rng: &mut LevelRng,
        dst: &mut [u8],
        stride: usize,
        width: usize,
        rows: usize,
    ) -> bool {
        let Some((len, table)) = &self.table else {
            return false;
        };
        let mut r = rng.clone();
        for row in dst.chunks_mut(stride).take(rows) {
            for t in &mut row[..width] {
                *t = table[below(&mut r, *len) & 255];
            }
        }
        *rng = r;
        true
    }

    /// Drawn values: the draws of every executer, cell by cell in row-major order (the
    /// cells of `mask`, or all); the last executer's value stays.
    #[inline]
    pub fn row(&self, rng: &mut LevelRng, dst: &mut [u8], mask: Option<&[u8]>) {
        // The common case (one drawing executer, every cell): a one-row rectangle.
        if mask.is_none() && self.rect(rng, dst, dst.len().max(1), dst.len(), 1) {
            return;
        }
        let mut draw = |t: &mut u8| {
            for e in self.execs {
                *t = match e.choices.len() {
                    1 => e.choices[0],
                    len => e.choices[below(rng, len)],
                };
            }
        };
        match mask {
            Some(mask) => {
                for (t, &m) in dst.iter_mut().zip(mask) {
                    if m != 0 {
                        draw(t);
                    }
                }
            }
            None => dst.iter_mut().for_each(draw),
        }
    }
}
