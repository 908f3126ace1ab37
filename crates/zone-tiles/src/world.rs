//! The world: an unbounded plane of zones, generated window by window.
//!
//! Zone `(zx, zy)` (any `i64`s) covers pixels `[zx*Z, (zx+1)*Z) x [zy*Z, (zy+1)*Z)`. Its state
//! is a pure function of `(config, seed, zx, zy)`: no window-dependent step exists (a
//! [`Threshold::Fill`] is resolved once per generator on a fixed calibration window). So any
//! rectangle can be generated on its own ("streaming"), and a chunk is identical whether
//! generated alone or inside a larger window. [`ZoneGenerator::generate_par`] splits rows over
//! rayon threads; every row is computed independently, so the result does not depend on the
//! thread count.

use crate::blocks::{MACRO_JITTER, MACRO_ZONES};
use crate::connect::{Connected, Lattice, REGION_ZONES, connect_regions};
use crate::error::{Result, ZoneError};
use crate::limits;
use crate::matcher::{
    NOISE_CELL, NOISE_ZONE, Sampling, Threshold, cell_averages, quantile_threshold, state_of,
};
use crate::noise::{Noise, NoiseConfig};
use crate::seamless::{node_value, zone_from_nodes};
use crate::state::ZoneState;
use crate::structure::{MacroField, Structure, spread};
use grid_core::{Grid, Legend, TileId, TileKind, TileMap};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

mod windows;

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

/// How zones decide their border cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The reference's look: every zone averages its own 3x3 cells, so neighbouring zones
    /// disagree along about three quarters of their shared edges and the zone grid shows.
    Reference,
    /// Dual grid (the default): border cells are shared with the neighbours, so borders
    /// always agree.
    #[default]
    Seamless,
}

/// Everything that defines a world (together with the seed).
///
/// Serialised with these field names (the JSON of `levelgen analyze zones` and the paths of
/// `levelgen zones --set`), unknown fields rejected:
///
/// | path | type | default |
/// |---|---|---|
/// | `zone_size` | multiple of 3, 3..=1023 (the drawn size only) | 60 |
/// | `noise.kind.type` | `worley`, `simplex`, `perlin` | `worley` |
/// | `noise.kind.distance` (worley) | `euclidean`, `manhattan`, `chebyshev` | `chebyshev` |
/// | `noise.kind.output.type` (worley) | `f1`, `f1_over_gap` (with `points`, `n`) | `f1` |
/// | `noise.scale` | noise px per noise unit (a zone is 60 noise px), [0.1, 1e9] | 40 |
/// | `noise.octaves` | 1..=8 | 1 |
/// | `noise.persistence` | (0, 1] | 0.5 |
/// | `sampling` | `"full"` or `{"stride": n}` | `{"stride": 2}` |
/// | `threshold` | `{"fill": p}` or `{"fixed": t}`, in [0, 1] | `{"fill": 0.45}` |
/// | `mode` | `seamless`, `reference` | `seamless` |
/// | `connected` | `false`, `true` (regions) or `"windows"` (may be left out) | `false` |
/// | `structure.weight` | macro layer strength, `[0, 4]` (0: off) | 1.2 |
/// | `structure.scale` | macro noise px per unit, `[60, 1e6]` | 480 |
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneConfig {
    /// Zone side in pixels when drawn, a multiple of 3 (default 60: cells of 20). The map
    /// does not depend on it: noise is measured in [`NOISE_ZONE`] noise pixels per zone.
    pub zone_size: u32,
    /// Base noise.
    pub noise: NoiseConfig,
    /// Samples per cell.
    pub sampling: Sampling,
    /// When a cell is on.
    pub threshold: Threshold,
    /// Reference or seamless.
    pub mode: Mode,
    /// Which floor connectivity is guaranteed: none, all floor one area with every whole
    /// region (chunk) one area ([`crate::connect`]), or every window one area on its own
    /// ([`crate::blocks`]).
    #[serde(default)]
    pub connected: Connected,
    /// The macro layer under the detail ([`crate::structure`]); may be left out (then the
    /// default layer), `{"weight": 0, ...}` turns it off.
    #[serde(default)]
    pub structure: Structure,
}

impl Default for ZoneConfig {
    fn default() -> Self {
        Self {
            zone_size: 60,
            noise: NoiseConfig::worley(),
            sampling: Sampling::default(),
            threshold: Threshold::default(),
            mode: Mode::Seamless,
            connected: Connected::Off,
            structure: Structure::default(),
        }
    }
}

pub use crate::limits::{MAX_WINDOW_SIDE, MAX_ZONE_COORD, MAX_ZONE_SIZE};

impl ZoneConfig {
    /// Settings for streaming a game world: seamless, connected, stride 10 (4 samples per
    /// 20 px cell: a coarser estimate of each cell's mean, so 17% of Worley zones differ
    /// from full sampling, against 0.8% at stride 2; the world looks the same kind).
    pub fn streaming() -> Self {
        Self {
            mode: Mode::Seamless,
            connected: Connected::Regions,
            sampling: Sampling::Stride(10),
            ..Self::default()
        }
    }

    /// Checks every parameter and the work of one zone (see [`crate::limits`]).
    pub fn validate(&self) -> Result<()> {
        check_zone_size(self.zone_size)?;
        self.sampling.validate(NOISE_CELL)?;
        self.threshold.validate()?;
        self.noise.validate()?;
        self.structure.validate()?;
        limits::check_zone_work(&self.noise, NOISE_ZONE, self.sampling.stride())?;
        Ok(())
    }

    /// Checks a window against the size limits and the work budget, before anything is
    /// allocated or computed.
    pub fn check_window(&self, rect: ZoneRect) -> Result<()> {
        rect.validate()?;
        let (w, h) = (u64::from(rect.width), u64::from(rect.height));
        // Connected mode computes whole regions around the window (and in seamless mode
        // one more on each side).
        let grow = match self.connected {
            Connected::Off => 0,
            Connected::Regions => 5 * REGION_ZONES as u64,
            Connected::Windows => 2 * (MACRO_ZONES + MACRO_JITTER + 3) as u64,
        };
        let (gw, gh) = (w + grow, h + grow);
        let cells = match self.mode {
            Mode::Reference => gw * gh * 9,
            Mode::Seamless => (2 * gw + 1) * (2 * gh + 1),
        };
        let units = limits::samples_per_cell(NOISE_ZONE, self.sampling.stride())
            * limits::sample_work(&self.noise);
        limits::check_window_work(w, h, cells, units)
    }
}

/// Checks that zone `(zx, zy)` lies in the supported part of the plane.
pub fn check_zone_coords(zx: i64, zy: i64) -> Result<()> {
    for v in [zx, zy] {
        if !(-MAX_ZONE_COORD..MAX_ZONE_COORD).contains(&v) {
            return Err(ZoneError::ZoneCoord {
                value: v,
                limit: MAX_ZONE_COORD,
            });
        }
    }
    Ok(())
}

/// Checks a zone size: a positive multiple of 3, at most [`MAX_ZONE_SIZE`].
pub fn check_zone_size(size: u32) -> Result<()> {
    if size == 0 || !size.is_multiple_of(3) {
        return Err(ZoneError::ZoneSizeNotDivisible { size });
    }
    if size > MAX_ZONE_SIZE {
        return Err(ZoneError::ZoneSizeTooLarge {
            size,
            max: MAX_ZONE_SIZE,
        });
    }
    Ok(())
}

/// A rectangle of zones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ZoneRect {
    /// Leftmost zone column.
    pub x: i64,
    /// Topmost zone row.
    pub y: i64,
    /// Zones across.
    pub width: u32,
    /// Zones down.
    pub height: u32,
}

impl ZoneRect {
    /// A rectangle of `width x height` zones at `(x, y)`.
    pub fn new(x: i64, y: i64, width: u32, height: u32) -> Self {
        Self {
            x,
            y,
            width,
            height,
        }
    }

    fn validate(&self) -> Result<()> {
        let (w, h) = (u64::from(self.width), u64::from(self.height));
        if w == 0 || h == 0 || w > MAX_WINDOW_SIDE || h > MAX_WINDOW_SIDE {
            return Err(ZoneError::WindowSize {
                width: w,
                height: h,
                max: MAX_WINDOW_SIDE,
            });
        }
        check_zone_coords(self.x, self.y)?;
        check_zone_coords(
            self.x + i64::from(self.width) - 1,
            self.y + i64::from(self.height) - 1,
        )
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
        Ok(ZoneWorld {
            origin: (rect.x, rect.y),
            zone_size: self.config.zone_size,
            mode: self.config.mode,
            states: Grid::from_vec(w, h, states)
                .unwrap_or_else(|| Grid::new(0, 0, ZoneState::EMPTY)),
            legend: cell_legend(),
        })
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

/// The legend of the cell-level map: 0 off, 1 on.
pub fn cell_legend() -> Legend {
    Legend::new(vec![
        TileKind::new("off", '.', [245, 245, 245]),
        TileKind::new("on", '#', [30, 30, 30]),
    ])
}

/// A generated window of zones.
///
/// As a [`TileMap`] it is the **cell-level** on/off map: `3 * width x 3 * height` tiles,
/// 0 = off, 1 = on (in seamless mode shared border cells appear in both zones).
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneWorld {
    /// Zone coordinates of the top-left zone.
    pub origin: (i64, i64),
    /// Zone side in pixels.
    pub zone_size: u32,
    /// The mode that made it.
    pub mode: Mode,
    /// One state per zone.
    pub states: Grid<ZoneState>,
    legend: Legend,
}

impl ZoneWorld {
    /// A world from a grid of states (for exports of states made elsewhere).
    pub fn from_states(
        origin: (i64, i64),
        zone_size: u32,
        mode: Mode,
        states: Grid<ZoneState>,
    ) -> Self {
        Self {
            origin,
            zone_size,
            mode,
            states,
            legend: cell_legend(),
        }
    }

    /// Zones across.
    pub fn zones_wide(&self) -> usize {
        self.states.width()
    }

    /// Zones down.
    pub fn zones_high(&self) -> usize {
        self.states.height()
    }

    /// Cells on (wall) over every zone's 3x3 pattern.
    pub fn on_cells(&self) -> u64 {
        self.states
            .as_slice()
            .iter()
            .map(|s| u64::from(s.on_count()))
            .sum()
    }

    /// The share of the world's cells that are on (wall), in `[0, 1]`.
    pub fn on_share(&self) -> f64 {
        self.on_cells() as f64 / (9 * self.states.as_slice().len()).max(1) as f64
    }

    /// The sub-window `rect` (in this world's zone coordinates), if it lies inside.
    pub fn sub_window(&self, rect: ZoneRect) -> Option<Grid<ZoneState>> {
        let dx = usize::try_from(rect.x - self.origin.0).ok()?;
        let dy = usize::try_from(rect.y - self.origin.1).ok()?;
        let (w, h) = (rect.width as usize, rect.height as usize);
        if dx + w > self.zones_wide() || dy + h > self.zones_high() {
            return None;
        }
        Some(Grid::from_fn(w, h, |x, y| *self.states.at(dx + x, dy + y)))
    }
}

impl TileMap for ZoneWorld {
    fn width(&self) -> usize {
        self.states.width() * 3
    }
    fn height(&self) -> usize {
        self.states.height() * 3
    }
    fn tile(&self, x: usize, y: usize) -> TileId {
        TileId::from(self.states.at(x / 3, y / 3).cell(x % 3, y % 3))
    }
    fn legend(&self) -> &Legend {
        &self.legend
    }
}

/// Parses a window size `"WxH"` (for example `20x20`), each side in `1..=65536`.
pub fn parse_size(text: &str) -> Result<(u32, u32)> {
    let err = || ZoneError::Parse {
        what: "zone count",
        text: text.to_string(),
        expected: "WxH with W and H in 1..=65536, for example 20x20",
    };
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(err)?;
    let w: u32 = w.trim().parse().map_err(|_| err())?;
    let h: u32 = h.trim().parse().map_err(|_| err())?;
    if w == 0 || h == 0 || u64::from(w) > MAX_WINDOW_SIDE || u64::from(h) > MAX_WINDOW_SIDE {
        return Err(err());
    }
    Ok((w, h))
}
