//! The world: an unbounded plane of zones, generated window by window.
//!
//! Zone `(zx, zy)` (any `i64`s) covers pixels `[zx*Z, (zx+1)*Z) x [zy*Z, (zy+1)*Z)`. Its state
//! is a pure function of `(config, seed, zx, zy)`: no window-dependent step exists (a
//! [`Threshold::Fill`] is resolved once per generator on a fixed calibration window). So any
//! rectangle can be generated on its own ("streaming"), and a chunk is identical whether
//! generated alone or inside a larger window. [`ZoneGenerator::generate_par`] splits rows over
//! rayon threads; every row is computed independently, so the result does not depend on the
//! thread count.

use crate::connect::{Connected, Lattice, REGION_ZONES, connect_regions};
use crate::error::Result;
use crate::matcher::{NOISE_ZONE, Threshold, cell_averages, quantile_threshold, state_of};
use crate::noise::Noise;
use crate::seamless::{node_value, zone_from_nodes};
use crate::state::ZoneState;
use crate::structure::{MacroField, spread};
use grid_core::Grid;
use rayon::prelude::*;

mod config;
mod windows;
mod zones;

pub use config::{
    MAX_WINDOW_SIDE, MAX_ZONE_COORD, MAX_ZONE_SIZE, Mode, ZoneConfig, ZoneRect, check_zone_coords,
    check_zone_size, parse_size,
};
pub use zones::{ZoneWorld, cell_legend};

/// Calls `fill((j, row))` for each row `j` of `width` items of `out`, on rayon's pool when
/// `parallel` (the rows are independent, so the result is the same).
fn fill_rows<T: Send>(
    out: &mut [T],
    width: usize,
    parallel: bool,
    fill: impl Fn((usize, &mut [T])) + Send + Sync,
) {
    if parallel {
        out.par_chunks_mut(width).enumerate().for_each(fill);
    } else {
        out.chunks_mut(width).enumerate().for_each(fill);
    }
}

/// A place whose value decides cells: a cell of a zone (reference mode; `k` = `3 * row +
/// col`) or a node of the dual grid (seamless mode; node `(a, b)` sits at zone coordinates
/// `(a / 2, b / 2)`). Global coordinates, like the zones'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Cell `k` of zone `(zx, zy)`.
    Cell {
        /// Zone column.
        zx: i64,
        /// Zone row.
        zy: i64,
        /// Cell index, `3 * row + col`.
        k: usize,
    },
    /// Node `(a, b)` of the dual grid.
    Node {
        /// Node column.
        a: i64,
        /// Node row.
        b: i64,
    },
}

/// A value added to every place's noise before the threshold (a designer's painted field,
/// see [`ZoneGenerator::with_offset`]).
#[derive(Clone)]
pub struct Offset(std::sync::Arc<dyn Fn(Place) -> f64 + Send + Sync>);

impl std::fmt::Debug for Offset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Offset(..)")
    }
}

/// A validated, seeded generator.
#[derive(Clone, Debug)]
pub struct ZoneGenerator {
    config: ZoneConfig,
    seed: u64,
    noise: Noise,
    /// The macro layer, when on.
    macro_field: Option<MacroField>,
    /// Added to every place's value after the macro layer, when set.
    offset: Option<Offset>,
    threshold: f64,
    /// The share of cells above the threshold: the fill, or measured on the calibration
    /// window (read by [`Connected::Windows`]).
    wall_share: f64,
}

/// Side of the calibration window, in zones, for [`Threshold::Fill`].
pub const CALIBRATION_ZONES: u32 = 16;

impl ZoneGenerator {
    /// Validates `config` and resolves its threshold.
    pub fn new(config: ZoneConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let noise = Noise::new(&config.noise, seed)?;
        let mut generator = Self {
            config,
            seed,
            noise,
            macro_field: None,
            offset: None,
            threshold: 0.45,
            wall_share: 0.45,
        };
        let needs_values = config.structure.weight > 0.0
            || config.connected == Connected::Windows
            || matches!(config.threshold, Threshold::Fill(_));
        if !needs_values {
            generator.threshold = match config.threshold {
                Threshold::Fixed(t) | Threshold::Fill(t) => t,
            };
            return Ok(generator);
        }
        let mut values = generator.calibration_values();
        generator.macro_field = MacroField::new(&config.structure, seed, spread(&values))?;
        if let Some(m) = &generator.macro_field {
            for (i, v) in values.iter_mut().enumerate() {
                *v += m.calibration_shift(i);
            }
        }
        match config.threshold {
            Threshold::Fixed(t) => {
                generator.threshold = t;
                let on = values.iter().filter(|&&v| v > t).count();
                generator.wall_share = on as f64 / values.len() as f64;
            }
            Threshold::Fill(p) => {
                generator.threshold = quantile_threshold(&mut values, p);
                generator.wall_share = p;
            }
        }
        Ok(generator)
    }

    /// The same generator with `offset(place)` added to every cell's or node's value (noise
    /// plus macro layer) before the threshold, in every mode and connectivity: a painted
    /// field steering the map. The threshold stays the one resolved without it (a
    /// [`Threshold::Fill`] is the share of the unpainted world).
    pub fn with_offset(mut self, offset: impl Fn(Place) -> f64 + Send + Sync + 'static) -> Self {
        self.offset = Some(Offset(std::sync::Arc::new(offset)));
        self
    }

    /// The configuration.
    pub fn config(&self) -> &ZoneConfig {
        &self.config
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The noise sampler.
    pub fn noise(&self) -> &Noise {
        &self.noise
    }

    /// The resolved fixed threshold (a [`Threshold::Fill`] turned into a value).
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    fn stride(&self) -> u32 {
        self.config.sampling.stride()
    }

    fn calibration_values(&self) -> Vec<f64> {
        let n = CALIBRATION_ZONES as i64;
        let z = NOISE_ZONE;
        match self.config.mode {
            Mode::Reference => {
                let mut v = Vec::with_capacity((n * n * 9) as usize);
                for zy in 0..n {
                    for zx in 0..n {
                        v.extend(self.detail_averages(zx, zy, self.stride()));
                    }
                }
                v
            }
            Mode::Seamless => {
                let mut v = Vec::with_capacity(((2 * n + 1) * (2 * n + 1)) as usize);
                for b in 0..=2 * n {
                    for a in 0..=2 * n {
                        v.push(node_value(&self.noise, a, b, z, self.stride()));
                    }
                }
                v
            }
        }
    }

    /// The detail's 9 cell means of zone `(zx, zy)` at `stride`, without the macro layer.
    fn detail_averages(&self, zx: i64, zy: i64, stride: u32) -> [f64; 9] {
        let z = f64::from(NOISE_ZONE);
        cell_averages(
            &self.noise,
            zx as f64 * z,
            zy as f64 * z,
            NOISE_ZONE,
            stride,
        )
    }

    /// The 9 cell values of zone `(zx, zy)` at `stride`: detail plus macro layer.
    fn cell_values_at(&self, zx: i64, zy: i64, stride: u32) -> [f64; 9] {
        let mut v = self.detail_averages(zx, zy, stride);
        if let Some(m) = &self.macro_field {
            for (v, s) in v.iter_mut().zip(m.cell_shifts(zx, zy)) {
                *v += s;
            }
        }
        if let Some(Offset(f)) = &self.offset {
            for (k, v) in v.iter_mut().enumerate() {
                *v += f(Place::Cell { zx, zy, k });
            }
        }
        v
    }

    fn averages(&self, zx: i64, zy: i64) -> [f64; 9] {
        self.cell_values_at(zx, zy, self.stride())
    }

    /// The value of node `(a, b)` at `stride`: detail plus macro layer.
    fn node_value_at(&self, a: i64, b: i64, stride: u32) -> f64 {
        let v = node_value(&self.noise, a, b, NOISE_ZONE, stride);
        v + self
            .macro_field
            .as_ref()
            .map_or(0.0, |m| m.node_shift(a, b))
            + self
                .offset
                .as_ref()
                .map_or(0.0, |o| (o.0)(Place::Node { a, b }))
    }

    fn node_on(&self, a: i64, b: i64) -> bool {
        self.node_value_at(a, b, self.stride()) > self.threshold
    }

    /// The state of one zone, computed on its own.
    pub fn zone_state(&self, zx: i64, zy: i64) -> Result<ZoneState> {
        check_zone_coords(zx, zy)?;
        if self.config.connected != Connected::Off {
            let world = self.generate(ZoneRect::new(zx, zy, 1, 1))?;
            return Ok(*world.states.at(0, 0));
        }
        Ok(match self.config.mode {
            Mode::Reference => state_of(&self.averages(zx, zy), self.threshold),
            Mode::Seamless => zone_from_nodes(
                |a, b| self.node_on(2 * zx + a as i64, 2 * zy + b as i64),
                0,
                0,
            ),
        })
    }

    /// Generates a window of zones on the current thread.
    pub fn generate(&self, rect: ZoneRect) -> Result<ZoneWorld> {
        self.run(rect, false)
    }

    /// Generates a window of zones with rows spread over rayon's threads. The result is
    /// identical to [`ZoneGenerator::generate`] for any thread count.
    pub fn generate_par(&self, rect: ZoneRect) -> Result<ZoneWorld> {
        self.run(rect, true)
    }

    fn run(&self, rect: ZoneRect, parallel: bool) -> Result<ZoneWorld> {
        self.config.check_window(rect)?;
        let (w, h) = (rect.width as usize, rect.height as usize);
        let states = match (self.config.mode, self.config.connected) {
            (Mode::Reference, Connected::Off) => self.reference_states(rect, parallel),
            (Mode::Seamless, Connected::Off) => {
                let (nw, nh) = (2 * w + 1, 2 * h + 1);
                let nodes = self.node_walls(2 * rect.x, 2 * rect.y, nw, nh, parallel);
                let on = |x: usize, y: usize| nodes[y * nw + x];
                (0..w * h)
                    .map(|k| zone_from_nodes(on, k % w, k / w))
                    .collect()
            }
            (mode, Connected::Regions) => self.connected_states(rect, mode, parallel),
            (mode, Connected::Windows) => self.window_states(rect, mode, parallel),
        };
        let states =
            Grid::from_vec(w, h, states).unwrap_or_else(|| Grid::new(0, 0, ZoneState::EMPTY));
        Ok(ZoneWorld::from_states(
            (rect.x, rect.y),
            self.config.zone_size,
            self.config.mode,
            states,
        ))
    }

    /// Connected mode: the cell lattice of the whole regions around `rect`, connected
    /// ([`crate::connect`]), read back as zone states.
    fn connected_states(&self, rect: ZoneRect, mode: Mode, parallel: bool) -> Vec<ZoneState> {
        let s = REGION_ZONES;
        // Seamless zones read the node on their far border, which may open the next region,
        // and the first column and row of a region depend on the region before it.
        let extra = i64::from(mode == Mode::Seamless);
        let x0 = (rect.x.div_euclid(s) - extra) * s;
        let y0 = (rect.y.div_euclid(s) - extra) * s;
        let (ex, ey) = (
            rect.x + i64::from(rect.width),
            rect.y + i64::from(rect.height),
        );
        let x1 = ((ex - 1).div_euclid(s) + 1 + extra) * s;
        let y1 = ((ey - 1).div_euclid(s) + 1 + extra) * s;
        let (zw, zh) = ((x1 - x0) as usize, (y1 - y0) as usize);
        let period: usize = if mode == Mode::Seamless { 2 } else { 3 };
        let (lw, lh) = (zw * period, zh * period);
        let wall = match mode {
            Mode::Seamless => self.node_walls(2 * x0, 2 * y0, lw, lh, parallel),
            Mode::Reference => {
                let zones = ZoneRect::new(x0, y0, zw as u32, zh as u32);
                let states = self.reference_states(zones, parallel);
                (0..lw * lh)
                    .map(|i| {
                        let (u, v) = (i % lw, i / lw);
                        states[(v / 3) * zw + u / 3].cell(u % 3, v % 3)
                    })
                    .collect()
            }
        };
        let p = period as i64;
        let mut lattice = Lattice {
            u0: x0 * p,
            v0: y0 * p,
            width: lw,
            wall,
        };
        connect_regions(&mut lattice, p * s, self.seed, mode == Mode::Seamless);
        let (dx, dy) = ((rect.x - x0) as usize, (rect.y - y0) as usize);
        let (w, h) = (rect.width as usize, rect.height as usize);
        (0..w * h)
            .map(|k| {
                let (zx, zy) = (dx + k % w, dy + k / w);
                let mut bits = 0u16;
                for r in 0..3 {
                    for c in 0..3 {
                        let on = lattice.wall[(zy * period + r) * lw + zx * period + c];
                        bits |= u16::from(on) << (r * 3 + c);
                    }
                }
                ZoneState::from_bits(bits)
            })
            .collect()
    }

    fn reference_states(&self, rect: ZoneRect, parallel: bool) -> Vec<ZoneState> {
        let w = rect.width as usize;
        let mut states = vec![ZoneState::EMPTY; w * rect.height as usize];
        let fill = |(j, row): (usize, &mut [ZoneState])| {
            let zy = rect.y + j as i64;
            for (i, s) in row.iter_mut().enumerate() {
                let zx = rect.x + i as i64;
                *s = state_of(&self.averages(zx, zy), self.threshold);
            }
        };
        fill_rows(&mut states, w, parallel, fill);
        states
    }

    /// Wall (on) flags of the `nw x nh` nodes from global node `(a0, b0)`.
    fn node_walls(&self, a0: i64, b0: i64, nw: usize, nh: usize, parallel: bool) -> Vec<bool> {
        let mut nodes = vec![false; nw * nh];
        let fill = |(j, row): (usize, &mut [bool])| {
            for (i, n) in row.iter_mut().enumerate() {
                *n = self.node_on(a0 + i as i64, b0 + j as i64);
            }
        };
        fill_rows(&mut nodes, nw, parallel, fill);
        nodes
    }
}
