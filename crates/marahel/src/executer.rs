//! Executers `nbh(a:2|b)`: pick one entity (weighted) and write it over a neighbourhood.

use crate::engine::Ctx;
use grid_core::below;

/// A compiled executer.
#[derive(Clone, Debug, PartialEq)]
pub struct Executer {
    /// Index into the program's neighbourhoods.
    pub nbh: usize,
    /// The expanded choice list (`a:2|b` is `[a, a, b]`); never empty.
    pub choices: Vec<u8>,
}

impl Executer {
    /// Draws an entity (no draw when there is one choice) and writes it to every cell of the
    /// neighbourhood around `(x, y)` that lies inside the region.
    #[inline]
    pub fn apply(&self, ctx: &mut Ctx, x: usize, y: usize) {
        let value = if self.choices.len() == 1 {
            self.choices[0]
        } else {
            self.choices[below(ctx.rng, self.choices.len())]
        };
        ctx.write_nbh(self.nbh, x, y, value);
    }
}
