//! `POST /api/marahel`: a Marahel script (with overrides) to a map preview or a download.

use super::{Output, apply_overrides, base64, encode};
use crate::error::{StudioError, within};
use crate::limits::{MAX_CELLS, MAX_PNG_SIDE, MAX_SIDE};
use crate::locate::line_of;
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
    let (w, h, given) = match (width, height) {
        (Some(w), Some(h)) => (w, h, true),
        (None, None) => {
            let (_, max) = script.size_range();
            (max.0, max.1, false)
        }
        _ => {
            return Err(StudioError::input(
                "body",
                "give both width and height, or neither",
            ));
        }
    };
    within("map side", w.max(h), MAX_SIDE)?;
    within("map cells", w * h, MAX_CELLS)?;
    Ok(given.then_some((w, h)))
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

/// Runs a request (on the blocking pool).
pub fn run(req: MarahelRequest) -> Result<Output, StudioError> {
    let script = compile(&req.script, &req.set)?;
    let size = size_of(&script, req.width, req.height)?;
    if !(1..=16).contains(&req.scale) {
        return Err(StudioError::input(
            "body.scale",
            "expected 1..=16 pixels per tile",
        ));
    }
    let map = generate(&script, req.seed, size, &req.script)?;
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
