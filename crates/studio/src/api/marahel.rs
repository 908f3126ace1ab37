//! `POST /api/marahel`: a Marahel script (with overrides) to a map preview or a download.

use super::{
    BYTES_PER_PIXEL, Endpoint, MAP_BYTES_PER_CELL, Output, apply_overrides, base64, encode,
};
use crate::error::{StudioError, within};
use crate::limits::{MAX_CELLS, MAX_PNG_SIDE, MAX_SIDE};
use crate::locate::line_of;
use crate::work::{Cost, Job};
use grid_core::TileMap;
use grid_core::export::{self, JsonTiles};
use grid_core::metrics::{BlockGrid, EmptySet, MetricsScratch};
use marahel::{MarahelError, MarahelMap, Script};
use serde::{Deserialize, Serialize};

/// Tile names counted as empty by the metrics (as `levelgen analyze marahel` does).
pub const EMPTY_NAMES: [&str; 9] = [
    "empty", "floor", "player", "enemy", "treasure", "exit", "gold", "coin", "key",
];

/// Entropy block grid of the metrics (5x5, as `levelgen analyze`'s default).
pub const BLOCKS: usize = 5;

/// What to send back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapFormat {
    /// JSON for the page: a base64 PNG, warnings, legend, metrics.
    #[default]
    Json,
    /// The PNG preview alone.
    Png,
    /// Tiled TMX whose tileset image is `tileset.png` (the `tileset` format).
    Tmx,
    /// The tileset image the TMX names.
    Tileset,
    /// The map as levelgen's JSON export (tile names and ids).
    MapJson,
    /// The map as text, one character per tile.
    Text,
}

/// The body of `POST /api/marahel`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarahelRequest {
    /// The script text (v0.3.0 or a 2017 dialect).
    pub script: String,
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// Map width; with `height`, overrides the script's size range.
    pub width: Option<usize>,
    /// Map height.
    pub height: Option<usize>,
    /// Overrides `path=value` applied to the script before it is compiled.
    #[serde(default)]
    pub set: Vec<String>,
    /// What to send back.
    #[serde(default)]
    pub format: MapFormat,
    /// PNG pixels per tile (1..=16; the page scales a 1-pixel image up itself).
    #[serde(default = "one")]
    pub scale: u32,
}

fn one() -> u32 {
    1
}

/// One legend entry as the page shows it.
#[derive(Debug, Serialize)]
pub struct LegendEntry {
    /// Tile name.
    pub name: String,
    /// `#rrggbb`.
    pub color: String,
}

/// The metrics of one map.
#[derive(Debug, Serialize)]
pub struct Metrics {
    /// Fraction of empty tiles.
    pub empty_fraction: f64,
    /// 4-connected regions of empty tiles.
    pub regions: usize,
    /// Mean binary entropy over a 5x5 block grid, bits.
    pub block_entropy: f64,
}

/// The JSON answer.
#[derive(Debug, Serialize)]
pub struct MarahelResponse {
    /// Map width in tiles.
    pub width: usize,
    /// Map height in tiles.
    pub height: usize,
    /// Base64 PNG, `scale` pixels per tile.
    pub png: String,
    /// The generator's warnings.
    pub warnings: Vec<String>,
    /// Tile names and colours.
    pub legend: Vec<LegendEntry>,
    /// Expressive-range metrics of this map.
    pub metrics: Metrics,
}

/// A Marahel error located in the script text: its JSON path and line.
pub fn located(text: &str, e: &MarahelError) -> StudioError {
    let (path, line) = match e {
        MarahelError::Json { line, .. } => (String::new(), Some(*line)),
        _ => {
            let p = e.path();
            let line = if p == "size" { None } else { line_of(text, &p) };
            (p, line)
        }
    };
    StudioError::BadInput {
        path,
        line,
        message: match e {
            MarahelError::Json { .. } => e.to_string(),
            _ => e
                .to_string()
                .strip_prefix(&format!("{}: ", e.path()))
                .map(str::to_string)
                .unwrap_or_else(|| e.to_string()),
        },
    }
}

/// Parses the script, applies the overrides and compiles it.
pub fn compile(script: &str, set: &[String]) -> Result<Script, StudioError> {
    let mut doc: serde_json::Value = serde_json::from_str(script).map_err(|e| {
        located(
            script,
            &MarahelError::Json {
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            },
        )
    })?;
    apply_overrides(&mut doc, set)?;
    Script::from_value(&doc).map_err(|e| located(script, &e))
}

/// The size to generate: the request's, or the script's largest, within the studio's limits.
pub fn size_of(
    script: &Script,
    width: Option<usize>,
    height: Option<usize>,
) -> Result<Option<(usize, usize)>, StudioError> {
    let asked = asked_size(width, height)?;
    if asked.is_none() {
        let (_, (w, h)) = script.size_range();
        within("map side", w.max(h), MAX_SIDE)?;
        within("map cells", w * h, MAX_CELLS)?;
    }
    Ok(asked)
}

/// Generates one map.
pub fn generate(
    script: &Script,
    seed: u64,
    size: Option<(usize, usize)>,
    text: &str,
) -> Result<MarahelMap, StudioError> {
    match size {
        Some((w, h)) => script.generate_sized(seed, w, h),
        None => script.generate(seed),
    }
    .map_err(|e| located(text, &e))
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The metrics of a map.
pub fn metrics(map: &MarahelMap, scratch: &mut MetricsScratch) -> Metrics {
    let empty = EmptySet::from_names_present(map.legend(), &EMPTY_NAMES);
    let m = scratch.measure(map, &empty, BlockGrid::square(BLOCKS));
    Metrics {
        empty_fraction: m.empty_fraction,
        regions: m.regions,
        block_entropy: m.block_entropy,
    }
}

/// The map size a request asks for, checked against the limits: `Some` when it gives
/// `width` and `height`.
pub fn asked_size(
    width: Option<usize>,
    height: Option<usize>,
) -> Result<Option<(usize, usize)>, StudioError> {
    match (width, height) {
        (Some(w), Some(h)) => {
            within("map side", w.max(h), MAX_SIDE)?;
            within("map cells", w * h, MAX_CELLS)?;
            Ok(Some((w, h)))
        }
        (None, None) => Ok(None),
        _ => Err(StudioError::input(
            "body",
            "give both width and height, or neither",
        )),
    }
}

impl MarahelRequest {
    fn wants_png(&self) -> bool {
        matches!(self.format, MapFormat::Json | MapFormat::Png)
    }
}

impl Endpoint for MarahelRequest {
    /// The map's cells (the script's largest allowed when no size is given) and its PNG.
    fn cost(&self) -> Result<Cost, StudioError> {
        if !(1..=16).contains(&self.scale) {
            return Err(StudioError::input(
                "body.scale",
                "expected 1..=16 pixels per tile",
            ));
        }
        let size = asked_size(self.width, self.height)?;
        let scale = self.scale as usize;
        if let Some((w, h)) = size
            && self.wants_png()
        {
            within("PNG side in pixels", w.max(h) * scale, MAX_PNG_SIDE)?;
        }
        let cells = size.map_or(MAX_CELLS, |(w, h)| w * h) as u64;
        let pixels = if self.wants_png() {
            (cells * (scale * scale) as u64).min((MAX_PNG_SIDE * MAX_PNG_SIDE) as u64)
        } else {
            0
        };
        Ok(Cost {
            memory: cells * MAP_BYTES_PER_CELL + pixels * BYTES_PER_PIXEL,
            cells,
        })
    }

    fn run(self, job: &Job) -> Result<Output, StudioError> {
        run(self, job)
    }
}

/// Runs a request (on the blocking pool).
pub fn run(req: MarahelRequest, job: &Job) -> Result<Output, StudioError> {
    let script = compile(&req.script, &req.set)?;
    let size = size_of(&script, req.width, req.height)?;
    if !(1..=16).contains(&req.scale) {
        return Err(StudioError::input(
            "body.scale",
            "expected 1..=16 pixels per tile",
        ));
    }
    job.check()?;
    let map = generate(&script, req.seed, size, &req.script)?;
    job.check()?;
    let scale = req.scale;
    within(
        "PNG side in pixels",
        map.width().max(map.height()) * scale as usize,
        MAX_PNG_SIDE,
    )?;
    let png = || {
        let (w, h, px) = export::render_rgb(&map, scale);
        encode(w, h, &px)
    };
    Ok(match req.format {
        MapFormat::Png => Output::png(png()?),
        MapFormat::Tmx => Output::text("application/xml", export::to_tmx(&map, 16, "tileset.png")),
        MapFormat::Tileset => {
            let (w, h, px) = export::tileset_image(map.legend(), 16);
            Output::png(encode(w, h, &px)?)
        }
        MapFormat::MapJson => {
            Output::text("application/json", export::to_json(&map, JsonTiles::Names))
        }
        MapFormat::Text => Output::text("text/plain; charset=utf-8", export::to_text(&map)),
        MapFormat::Json => Output::json(MarahelResponse {
            width: map.width(),
            height: map.height(),
            png: base64(&png()?),
            warnings: map.warnings.clone(),
            legend: map
                .legend()
                .kinds()
                .iter()
                .map(|k| LegendEntry {
                    name: k.name.clone(),
                    color: hex(k.color),
                })
                .collect(),
            metrics: metrics(&map, &mut MetricsScratch::new()),
        })?,
    })
}
