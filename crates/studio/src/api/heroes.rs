//! `POST /api/heroes`: a Heroes template (the page's graph editor state) to a map preview, the
//! `.hmm` or the template itself.

use super::{BYTES_PER_PIXEL, Endpoint, Output, apply_overrides, base64};
use crate::error::StudioError;
use crate::locate::line_of;
use crate::work::{Cost, Job};
use heroes_zones::{Config, HeroesError, HeroesMap, Template, generate, hmm, preview};
use serde::{Deserialize, Serialize};

/// What to send back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeroesFormat {
    /// JSON for the page: a base64 PNG and the generator's measurements.
    #[default]
    Json,
    /// The PNG preview.
    Png,
    /// The Pocket Heroes editor map.
    Hmm,
    /// The template as the generator read it (pretty JSON, defaults filled in).
    Template,
}

/// The body of `POST /api/heroes`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroesRequest {
    /// The template: a JSON object, or its text (then errors also carry the line).
    pub template: serde_json::Value,
    /// The config (default: the crate's built-in config).
    pub config: Option<serde_json::Value>,
    /// Map side: 32, 64, 128 or 256.
    #[serde(default = "sixty_four")]
    pub size: u32,
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// Overrides `path=value` applied to the template.
    #[serde(default)]
    pub set: Vec<String>,
    /// What to send back.
    #[serde(default)]
    pub format: HeroesFormat,
}

fn sixty_four() -> u32 {
    64
}

/// The JSON answer.
#[derive(Debug, Serialize)]
pub struct HeroesResponse {
    /// Map side in cells.
    pub size: usize,
    /// Base64 PNG preview.
    pub png: String,
    /// Zones generated.
    pub zones: usize,
    /// Objects placed.
    pub objects: usize,
    /// Largest relative error of a zone's area against its target.
    pub max_area_error: f64,
    /// Connections that became portals because the zones did not touch.
    pub forced_portals: usize,
    /// Objects the global check repaired or removed.
    pub repaired: usize,
}

/// A Heroes error with its JSON path and, when the template came as text, its line.
fn located(text: Option<&str>, e: HeroesError) -> StudioError {
    match e {
        HeroesError::Json { line, message, .. } => StudioError::BadInput {
            path: String::new(),
            line: text.map(|_| line),
            message,
        },
        HeroesError::Invalid { at, message } => StudioError::BadInput {
            line: text.and_then(|t| line_of(t, &at)),
            path: at,
            message,
        },
        HeroesError::Generation(m) => StudioError::Generation(m),
        other => StudioError::input("template", other.to_string()),
    }
}

/// Reads the template (object or text) with its overrides.
pub fn template(req: &HeroesRequest) -> Result<(Template, Option<String>), StudioError> {
    let (mut doc, text) = match &req.template {
        serde_json::Value::String(t) => {
            let doc = serde_json::from_str(t).map_err(|e| StudioError::BadInput {
                path: String::new(),
                line: Some(e.line()),
                message: e.to_string(),
            })?;
            (doc, Some(t.clone()))
        }
        v => (v.clone(), None),
    };
    apply_overrides(&mut doc, &req.set)?;
    // Unchanged text is read as sent, so a serde error's line is the user's line.
    let source = match (&text, req.set.is_empty()) {
        (Some(t), true) => t.clone(),
        _ => doc.to_string(),
    };
    let t = Template::from_json(&source).map_err(|e| match e {
        HeroesError::Json { line, message, .. } if text.is_some() && req.set.is_empty() => {
            StudioError::BadInput {
                path: "template".into(),
                line: Some(line),
                message,
            }
        }
        // A serde error on the compact re-serialisation: its line is meaningless, keep the text.
        HeroesError::Json { message, .. } => StudioError::input("template", message),
        e => located(text.as_deref(), e),
    })?;
    Ok((t, text))
}

/// Generates the map of a request.
pub fn generate_map(req: &HeroesRequest) -> Result<(Template, HeroesMap), StudioError> {
    let (t, text) = template(req)?;
    let config = match &req.config {
        Some(c) => Config::from_json(&c.to_string())
            .map_err(|e| StudioError::input("config", e.to_string()))?,
        None => Config::default(),
    };
    check_size(req.size)?;
    let map = generate(&t, &config, req.size, req.seed).map_err(|e| located(text.as_deref(), e))?;
    Ok((t, map))
}

fn check_size(size: u32) -> Result<(), StudioError> {
    if [32, 64, 128, 256].contains(&size) {
        Ok(())
    } else {
        Err(StudioError::input(
            "body.size",
            format!("{size}: expected 32, 64, 128 or 256"),
        ))
    }
}

/// Bytes a Heroes map holds per cell while it is generated (zones, distances, objects).
const HEROES_BYTES_PER_CELL: u64 = 1024;

impl Endpoint for HeroesRequest {
    /// The map's cells and its preview (at most 512 x 512 pixels).
    fn cost(&self) -> Result<Cost, StudioError> {
        check_size(self.size)?;
        let cells = u64::from(self.size) * u64::from(self.size);
        Ok(Cost {
            memory: cells * HEROES_BYTES_PER_CELL + 512 * 512 * BYTES_PER_PIXEL,
            // Placing zones and objects costs more per cell than a cellular automaton.
            cells: cells * 16,
        })
    }

    fn run(self, job: &Job) -> Result<Output, StudioError> {
        run(self, job)
    }
}

/// Runs a request (on the blocking pool).
pub fn run(req: HeroesRequest, job: &Job) -> Result<Output, StudioError> {
    job.check()?;
    let (t, map) = generate_map(&req)?;
    job.check()?;
    let png = || preview::png(&map).map_err(StudioError::Internal);
    Ok(match req.format {
        HeroesFormat::Png => Output::png(png()?),
        HeroesFormat::Hmm => Output::File("application/octet-stream", hmm::export(&map).to_bytes()),
        HeroesFormat::Template => Output::text("application/json", t.to_json()),
        HeroesFormat::Json => Output::json(HeroesResponse {
            size: map.size,
            png: base64(&png()?),
            zones: map.zones.len(),
            objects: map.objects.len(),
            max_area_error: map.stats.max_area_error,
            forced_portals: map.stats.forced_portals,
            repaired: map.stats.repaired,
        })?,
    })
}
