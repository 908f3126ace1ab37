//! Every window connected ([`Connected::Windows`](crate::Connected::Windows)): the noise
//! around a window, its blocks and its floor rules ([`crate::blocks`]).

use super::{Mode, ZoneGenerator, ZoneRect, fill_rows};
use crate::blocks::{self, MacroGrid, Values};
use crate::matcher::NOISE_CELL;
use crate::state::ZoneState;

impl ZoneGenerator {
    /// Every window connected: the noise values of the macro cells around `rect` (grown by
    /// one zone), their blocks, and the zones of `rect` ([`crate::blocks`]).
    pub(super) fn window_states(
        &self,
        rect: ZoneRect,
        mode: Mode,
        parallel: bool,
    ) -> Vec<ZoneState> {
        let (w, h) = (rect.width as usize, rect.height as usize);
        // The rules read zones up to two zones out (a neighbour's cell next to a block), in
        // seamless mode three (the pillar rule reads the nodes around the window).
        let shared = mode == Mode::Seamless;
        let r = if shared { 3 } else { 2 };
        let ring = (
            rect.x - r,
            rect.y - r,
            w + 2 * r as usize,
            h + 2 * r as usize,
        );
        let grid = MacroGrid::new(self.seed);
        // The blocks are fitted to a sketch of the noise (4 samples per cell) over the macro
        // cells meeting the ring; the rules read the noise as usual on the ring.
        let sketch = self.values(blocks::values_needed(&grid, ring), shared, true, parallel);
        let blocks = blocks::place_blocks(&grid, &sketch, ring);
        let mut values = if self.sketch_stride() == self.stride() {
            sketch
        } else {
            let (rx, ry) = (ring.0, ring.1);
            let area = [rx, ry, rx + ring.2 as i64, ry + ring.3 as i64];
            self.values(area, shared, false, parallel)
        };
        blocks::pull_to_blocks(&mut values, &blocks);
        let r = (rect.x, rect.y, w, h);
        if shared {
            blocks::seamless_states(&values, &blocks, r)
        } else {
            blocks::reference_states(&values, &blocks, r)
        }
    }

    /// The sampling stride of the noise sketch that blocks are fitted to: 2x2 samples per
    /// cell, or the usual stride when that is coarser.
    fn sketch_stride(&self) -> u32 {
        self.stride().max(NOISE_CELL.div_ceil(2))
    }

    /// The values of the zones `[x0, x1) x [y0, y1)`: cells, or nodes when `shared`; a
    /// `sketch` samples each cell (node) 2x2 times (or as usual, when that is coarser).
    fn values(&self, area: [i64; 4], shared: bool, sketch: bool, parallel: bool) -> Values {
        let [x0, y0, x1, y1] = area;
        let (zw, zh) = ((x1 - x0) as usize, (y1 - y0) as usize);
        let stride = if sketch {
            self.sketch_stride()
        } else {
            self.stride()
        };
        let values = if shared {
            self.node_values(2 * x0, 2 * y0, 2 * zw + 1, 2 * zh + 1, stride, parallel)
        } else {
            self.cell_values(
                ZoneRect::new(x0, y0, zw as u32, zh as u32),
                stride,
                parallel,
            )
        };
        Values {
            x0,
            y0,
            zones_wide: zw,
            zones_high: zh,
            shared,
            values,
            threshold: self.threshold,
            wall_share: self.wall_share,
        }
    }

    /// The node values of the `nw x nh` nodes from global node `(a0, b0)`, row-major.
    fn node_values(
        &self,
        a0: i64,
        b0: i64,
        nw: usize,
        nh: usize,
        stride: u32,
        parallel: bool,
    ) -> Vec<f64> {
        let mut out = vec![0.0; nw * nh];
        let fill = |(j, row): (usize, &mut [f64])| {
            for (i, x) in row.iter_mut().enumerate() {
                *x = self.node_value_at(a0 + i as i64, b0 + j as i64, stride);
            }
        };
        fill_rows(&mut out, nw, parallel, fill);
        out
    }

    /// The cell means of the zones of `rect` on their cell lattice (3 per zone), row-major.
    fn cell_values(&self, rect: ZoneRect, stride: u32, parallel: bool) -> Vec<f64> {
        let w = rect.width as usize;
        // One band of 3 lattice rows per row of zones.
        let mut out = vec![0.0; 9 * w * rect.height as usize];
        let fill = |(j, band): (usize, &mut [f64])| {
            for i in 0..w {
                let (zx, zy) = (rect.x + i as i64, rect.y + j as i64);
                let means = self.cell_values_at(zx, zy, stride);
                for (k, m) in means.into_iter().enumerate() {
                    band[(k / 3) * 3 * w + 3 * i + k % 3] = m;
                }
            }
        };
        fill_rows(&mut out, 9 * w, parallel, fill);
        out
    }
}
