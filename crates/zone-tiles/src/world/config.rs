//! The settings of a world ([`ZoneConfig`]), its checks, and windows of zones.

use crate::blocks::{MACRO_JITTER, MACRO_ZONES};
use crate::connect::{Connected, REGION_ZONES};
use crate::error::{Result, ZoneError};
use crate::limits;
use crate::matcher::{NOISE_CELL, NOISE_ZONE, Sampling, Threshold};
use crate::noise::NoiseConfig;
use crate::structure::Structure;
use serde::{Deserialize, Serialize};

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
