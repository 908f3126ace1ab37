//! `POST /api/zones`: a window of zone tiles from noise plus the offsets the designer painted
//! on it.
//!
//! zone-tiles decides a cell from the mean noise over it; the studio adds the mean painted
//! offset over the same place before thresholding, built from the crate's public pieces
//! ([`cell_averages`] and [`state_of`] in reference mode, [`node_value`] and
//! [`zone_from_nodes`] in seamless mode). The painted field has [`FIELD`] samples per zone
//! side: a cell covers 2x2 of them, a seamless node the 2x2 around its centre.

use super::{BYTES_PER_PIXEL, Endpoint, Output, base64, encode, unbase64};
use crate::error::{StudioError, within};
use crate::limits::{MAX_ATLAS_SIDE, MAX_ZONE_SAMPLES, MAX_ZONES_SIDE};
use crate::work::{Cost, Job};
use grid_core::Grid;
use grid_core::export::render_rgb;
use serde::{Deserialize, Serialize};
use zone_tiles::export::{paint, state_grid_json, to_tmx};
use zone_tiles::matcher::{cell_averages, state_of};
use zone_tiles::seamless::{node_value, zone_from_nodes};
use zone_tiles::{
    Atlas, Mode, NoiseConfig, NoiseKind, Sampling, Threshold, ZoneConfig, ZoneGenerator, ZoneState,
    ZoneWorld,
};

/// Painted-field samples per zone side.
pub const FIELD: usize = 6;

/// The base noise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseName {
    /// Worley F1, Chebyshev distance, feature size 40 px.
    #[default]
    Worley,
    /// Simplex, scale 100.
    Simplex,
    /// Perlin, scale 100.
    Perlin,
}

/// What to send back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZonesFormat {
    /// JSON for the page: noise field, states, base64 PNG.
    #[default]
    Json,
    /// The PNG (painted with the atlas, or the cells in black and white).
    Png,
    /// Tiled TMX over the 102-tile reduced tileset.
    Tmx,
    /// The state grid as JSON.
    States,
}

/// The body of `POST /api/zones`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZonesRequest {
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// The base noise.
    #[serde(default)]
    pub noise: NoiseName,
    /// A cell is on when its value is above this (default 0.45).
    pub threshold: Option<f64>,
    /// Instead of a threshold: about this fraction of cells on (of the unpainted noise).
    pub fill: Option<f64>,
    /// Decide cells on the dual grid so neighbouring zones agree.
    #[serde(default)]
    pub seamless: bool,
    /// Window size in zones `[w, h]`.
    #[serde(default = "twenty")]
    pub zones: (u32, u32),
    /// Zone side in pixels, a multiple of 3.
    #[serde(default = "sixty")]
    pub zone_size: u32,
    /// Sample every N-th pixel of a cell.
    #[serde(default = "two")]
    pub stride: u32,
    /// Painted offsets in hundredths, `6w x 6h` row-major, each in -100..=100.
    pub offsets: Option<Vec<i8>>,
    /// An atlas PNG (base64) to paint the tiles with.
    pub atlas: Option<String>,
    /// What to send back.
    #[serde(default)]
    pub format: ZonesFormat,
}

fn twenty() -> (u32, u32) {
    (20, 20)
}
fn sixty() -> u32 {
    60
}
fn two() -> u32 {
    2
}

/// The JSON answer.
#[derive(Debug, Serialize)]
pub struct ZonesResponse {
    /// Zones across.
    pub zones_wide: usize,
    /// Zones down.
    pub zones_high: usize,
    /// Painted-field samples across (`6 x zones_wide`).
    pub field_width: usize,
    /// Painted-field samples down.
    pub field_height: usize,
    /// The base noise at each field sample's centre, 0..=255 for 0..=1.
    pub noise: Vec<u8>,
    /// The threshold in force.
    pub threshold: f64,
    /// Each zone's state (bit `3*row + col` set when that cell is on), row-major.
    pub states: Vec<u16>,
    /// Base64 PNG of the tiles.
    pub png: String,
}

fn zone_config(req: &ZonesRequest) -> ZoneConfig {
    let noise = match req.noise {
        NoiseName::Worley => NoiseConfig::worley(),
        NoiseName::Simplex => NoiseConfig::simplex(),
        NoiseName::Perlin => NoiseConfig {
            kind: NoiseKind::Perlin,
            ..NoiseConfig::simplex()
        },
    };
    ZoneConfig {
        zone_size: req.zone_size,
        noise,
        sampling: if req.stride <= 1 {
            Sampling::Full
        } else {
            Sampling::Stride(req.stride)
        },
        threshold: match (req.threshold, req.fill) {
            (_, Some(f)) => Threshold::Fill(f),
            (Some(t), None) => Threshold::Fixed(t),
            (None, None) => Threshold::default(),
        },
        mode: if req.seamless {
            Mode::Seamless
        } else {
            Mode::Reference
        },
        // The studio computes cell values itself (with painted offsets), detail only.
        structure: zone_tiles::Structure::OFF,
        ..ZoneConfig::default()
    }
}

/// The painted field: offsets as fractions, `(6w) x (6h)`.
struct Painted<'a> {
    offsets: Option<&'a [i8]>,
    width: usize,
    height: usize,
}

impl Painted<'_> {
    /// The mean offset over field samples `[x0, x1) x [y0, y1)`, clipped to the field.
    fn mean(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> f64 {
        let Some(o) = self.offsets else { return 0.0 };
        let clip = |v: i64, hi: usize| v.clamp(0, hi as i64) as usize;
        let (x0, x1) = (clip(x0, self.width), clip(x1, self.width));
        let (y0, y1) = (clip(y0, self.height), clip(y1, self.height));
        let n = (x1 - x0) * (y1 - y0);
        if n == 0 {
            return 0.0;
        }
        let sum: i64 = (y0..y1)
            .flat_map(|y| o[y * self.width + x0..y * self.width + x1].iter())
            .map(|&v| i64::from(v))
            .sum();
        sum as f64 / n as f64 / 100.0
    }
}

/// The request checked against the limits; the noise samples it takes.
fn check(req: &ZonesRequest) -> Result<u64, StudioError> {
    let (w, h) = req.zones;
    if w == 0 || h == 0 {
        return Err(StudioError::input(
            "body.zones",
            "expected at least 1x1 zones",
        ));
    }
    within("zones per side", w.max(h) as usize, MAX_ZONES_SIDE)?;
    if req.zone_size < 3 || !req.zone_size.is_multiple_of(3) || req.zone_size > 300 {
        return Err(StudioError::input(
            "body.zone_size",
            format!("{}: expected a multiple of 3 in 3..=300", req.zone_size),
        ));
    }
    let k = (req.zone_size / 3).div_ceil(req.stride.max(1)) as usize;
    let samples = (w * h) as usize * 9 * k * k;
    within("noise samples", samples, MAX_ZONE_SAMPLES)?;
    if let Some(o) = &req.offsets {
        let want = (w as usize * FIELD) * (h as usize * FIELD);
        if o.len() != want {
            return Err(StudioError::input(
                "body.offsets",
                format!("{} values, expected {want} (6 per zone side)", o.len()),
            ));
        }
        if let Some(i) = o.iter().position(|v| !(-100..=100).contains(v)) {
            return Err(StudioError::input(
                format!("body.offsets[{i}]"),
                "expected -100..=100 (hundredths)",
            ));
        }
    }
    Ok(samples as u64)
}

/// The window's zone states with the painted offsets added to the noise.
pub fn states(g: &ZoneGenerator, req: &ZonesRequest) -> Grid<ZoneState> {
    let (w, h) = (req.zones.0 as usize, req.zones.1 as usize);
    let painted = Painted {
        offsets: req.offsets.as_deref(),
        width: w * FIELD,
        height: h * FIELD,
    };
    let (z, stride, t) = (req.zone_size, req.stride.max(1), g.threshold());
    let mut out = Vec::with_capacity(w * h);
    match req.seamless {
        false => {
            let c = (FIELD / 3) as i64;
            for zy in 0..h {
                for zx in 0..w {
                    let x0 = (zx as u32 * z) as f64;
                    let y0 = (zy as u32 * z) as f64;
                    let mut v = cell_averages(g.noise(), x0, y0, z, stride);
                    for (k, v) in v.iter_mut().enumerate() {
                        let fx = (zx * FIELD) as i64 + (k % 3) as i64 * c;
                        let fy = (zy * FIELD) as i64 + (k / 3) as i64 * c;
                        *v += painted.mean(fx, fy, fx + c, fy + c);
                    }
                    out.push(state_of(&v, t));
                }
            }
        }
        true => {
            let (nw, nh) = (2 * w + 1, 2 * h + 1);
            let half = (FIELD / 2) as i64;
            let mut nodes = vec![false; nw * nh];
            for (i, n) in nodes.iter_mut().enumerate() {
                let (a, b) = ((i % nw) as i64, (i / nw) as i64);
                let (fx, fy) = (a * half, b * half);
                let v = node_value(g.noise(), a, b, z, stride)
                    + painted.mean(fx - 1, fy - 1, fx + 1, fy + 1);
                *n = v > t;
            }
            for k in 0..w * h {
                out.push(zone_from_nodes(|x, y| nodes[y * nw + x], k % w, k / w));
            }
        }
    }
    Grid::from_vec(w, h, out).unwrap_or_else(|| Grid::new(0, 0, ZoneState::EMPTY))
}

/// The base noise at the centre of every painted-field sample, 0..=255.
pub fn noise_field(g: &ZoneGenerator, req: &ZonesRequest) -> Vec<u8> {
    let (fw, fh) = (req.zones.0 as usize * FIELD, req.zones.1 as usize * FIELD);
    let step = f64::from(req.zone_size) / FIELD as f64;
    (0..fw * fh)
        .map(|i| {
            let (x, y) = ((i % fw) as f64 + 0.5, (i / fw) as f64 + 0.5);
            (g.noise().get(x * step, y * step).clamp(0.0, 1.0) * 255.0).round() as u8
        })
        .collect()
}

fn atlas(text: &str) -> Result<Atlas, StudioError> {
    use image::ImageReader;
    let bytes = unbase64("body.atlas", text)?;
    let mut reader = ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| StudioError::input("body.atlas", e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_ATLAS_SIDE);
    limits.max_image_height = Some(MAX_ATLAS_SIDE);
    reader.limits(limits);
    let img = reader
        .decode()
        .map_err(|e| StudioError::input("body.atlas", e.to_string()))?;
    Atlas::from_image_auto(&img.to_rgb8())
        .map_err(|e| StudioError::input("body.atlas", e.to_string()))
}

/// The PNG of a world: painted with the atlas, else its cells (4 px or more each).
fn png(world: &ZoneWorld, atlas: Option<&Atlas>) -> Result<Vec<u8>, StudioError> {
    match atlas {
        Some(a) => {
            let img =
                paint(world, a).map_err(|e| StudioError::input("body.atlas", e.to_string()))?;
            encode(img.width(), img.height(), img.as_raw())
        }
        None => {
            let side = world.zones_wide().max(world.zones_high()) * 3;
            let scale = (480 / side.max(1)).clamp(1, 8) as u32;
            let (w, h, px) = render_rgb(world, scale);
            encode(w, h, &px)
        }
    }
}

/// Bytes of a decoded atlas at its largest (4,096 px per side, RGBA) and the painted picture.
const ATLAS_BYTES: u64 = 2 * (MAX_ATLAS_SIDE as u64 * MAX_ATLAS_SIDE as u64) * 4;

impl Endpoint for ZonesRequest {
    /// The noise samples; in memory, the picture (480 px per side without an atlas) and the
    /// atlas.
    fn cost(&self) -> Result<Cost, StudioError> {
        let samples = check(self)?;
        let picture = 480 * 480 * BYTES_PER_PIXEL;
        Ok(Cost {
            memory: picture + self.atlas.as_ref().map_or(0, |_| ATLAS_BYTES),
            cells: samples,
        })
    }

    fn run(self, job: &Job) -> Result<Output, StudioError> {
        run(self, job)
    }
}

/// Runs a request (on the blocking pool).
pub fn run(req: ZonesRequest, job: &Job) -> Result<Output, StudioError> {
    check(&req)?;
    job.check()?;
    let g = ZoneGenerator::new(zone_config(&req), req.seed)
        .map_err(|e| StudioError::input("body", e.to_string()))?;
    let mode = if req.seamless {
        Mode::Seamless
    } else {
        Mode::Reference
    };
    let world = ZoneWorld::from_states((0, 0), req.zone_size, mode, states(&g, &req));
    job.check()?;
    let atlas = req.atlas.as_deref().map(atlas).transpose()?;
    Ok(match req.format {
        ZonesFormat::Png => Output::png(png(&world, atlas.as_ref())?),
        ZonesFormat::Tmx => Output::text(
            "application/xml",
            to_tmx(&world, req.zone_size, "atlas.png"),
        ),
        ZonesFormat::States => Output::text("application/json", state_grid_json(&world)),
        ZonesFormat::Json => Output::json(ZonesResponse {
            zones_wide: world.zones_wide(),
            zones_high: world.zones_high(),
            field_width: world.zones_wide() * FIELD,
            field_height: world.zones_high() * FIELD,
            noise: noise_field(&g, &req),
            threshold: g.threshold(),
            states: world.states.as_slice().iter().map(|s| s.index()).collect(),
            png: base64(&png(&world, atlas.as_ref())?),
        })?,
    })
}
