//! `POST /api/mario`: a Mario level from the embedded room library (any of its themes), with
//! the playability checker's reach overlaid, or its level text: the options of `levelgen
//! mario` that do not read files.

use super::{BYTES_PER_PIXEL, Endpoint, Output, base64, encode, with_overrides};
use crate::error::{StudioError, within};
use crate::limits::{MAX_MARIO_HEIGHT, MAX_MARIO_LENGTH, MAX_MARIO_STEPS};
use crate::work::{Cost, Job};
use mario_rooms::{
    GeneratedLevel, LevelConfig, LevelOptions, Library, MarioError, Strictness, THEMES, preview,
};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Pixels per tile of the preview.
pub const SCALE: u32 = 8;

/// What to send back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarioFormat {
    /// JSON for the page: a base64 PNG, the level text and how it was made.
    #[default]
    Json,
    /// The PNG preview.
    Png,
    /// Mario AI Framework level text.
    Text,
}

/// The body of `POST /api/mario`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarioRequest {
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// Difficulty at the first and last section (a ramp); `null` for none (the rooms as
    /// drawn); absent: the default ramp (none with `reference`), as `levelgen mario`.
    #[serde(default, deserialize_with = "present")]
    pub difficulty: Option<Option<(f32, f32)>>,
    /// Minimum length in columns (0: the sequence alone).
    #[serde(default)]
    pub length: usize,
    /// Minimum height in rows.
    #[serde(default = "sixteen")]
    pub height: usize,
    /// Section roles between start and finish, e.g. `["intro", "hard", "twist"]`.
    pub sequence: Option<Vec<String>>,
    /// Mark the standing tiles the playability checker reached.
    #[serde(default = "yes")]
    pub reach: bool,
    /// Theme of the embedded library: `overground` (default), `underground`, `athletic`,
    /// `castle`; it picks the rooms and sections and colours the preview.
    #[serde(default = "overground")]
    pub theme: String,
    /// The reference's setup (`levelgen mario --reference`): start and finish tagged
    /// `bullet`, intro, intro, hard, twist, 70 % `challenge` -> `bullet`.
    #[serde(default)]
    pub reference: bool,
    /// Run the playability check (`false` = `--no-check`).
    #[serde(default = "yes")]
    pub check: bool,
    /// Overrides `path=value` of the `LevelConfig` JSON, applied after the other fields
    /// (`levelgen mario --set`).
    #[serde(default)]
    pub set: Vec<String>,
    /// What to send back.
    #[serde(default)]
    pub format: MarioFormat,
}

/// A field that is present (even as `null`), told apart from an absent one (`None`).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

fn sixteen() -> usize {
    16
}

fn yes() -> bool {
    true
}

fn overground() -> String {
    "overground".to_string()
}

/// The JSON answer.
#[derive(Debug, Serialize)]
pub struct MarioResponse {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Base64 PNG, 8 pixels per tile.
    pub png: String,
    /// The level text.
    pub text: String,
    /// The sections used, in order.
    pub sections: Vec<String>,
    /// The rooms used, in order.
    pub rooms: Vec<String>,
    /// Mean room rating of the rooms used.
    pub difficulty: f32,
    /// The difficulty asked, `[from, to]`, or `null`.
    pub asked: Option<(f32, f32)>,
    /// The level's estimated difficulty, 1..=5 (as `levelgen mario` reports it).
    pub estimated: f64,
    /// The theme.
    pub theme: String,
    /// The playability checker's verdict.
    pub report: String,
}

/// The embedded library of a theme, read once.
fn library(theme: &str) -> Result<&'static Library, StudioError> {
    static LIBS: [OnceLock<Result<Library, String>>; THEMES.len()] =
        [const { OnceLock::new() }; THEMES.len()];
    let i = theme_index(theme)?;
    LIBS[i]
        .get_or_init(|| {
            Library::load_theme(None, None, None, Strictness::Strict, THEMES[i])
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| StudioError::Internal(e.clone()))
}

/// The index of a theme in [`THEMES`], or bad input naming them.
fn theme_index(theme: &str) -> Result<usize, StudioError> {
    THEMES.iter().position(|t| *t == theme).ok_or_else(|| {
        StudioError::input(
            "body.theme",
            format!(
                "{}: not a theme (known: {})",
                grid_core::text::excerpt(theme),
                THEMES.join(", ")
            ),
        )
    })
}

/// The generator's configuration for a request.
pub fn config(req: &MarioRequest) -> Result<LevelConfig, StudioError> {
    within("length in columns", req.length, MAX_MARIO_LENGTH)?;
    within("height in rows", req.height, MAX_MARIO_HEIGHT)?;
    theme_index(&req.theme)?;
    if let Some(Some((a, b))) = req.difficulty
        && !(a.is_finite() && b.is_finite())
    {
        return Err(StudioError::input(
            "body.difficulty",
            "expected two numbers",
        ));
    }
    if let Some(roles) = &req.sequence {
        within("sequence steps", roles.len(), MAX_MARIO_STEPS)?;
    }
    let cfg = LevelConfig::from_options(&LevelOptions {
        reference: req.reference,
        height: req.height,
        length: req.length,
        check: req.check,
        roles: req.sequence.clone(),
        difficulty: req.difficulty,
    })
    .map_err(|e| StudioError::input("body", e.to_string()))?;
    let cfg = with_overrides(cfg, &req.set)?;
    within("length in columns", cfg.length, MAX_MARIO_LENGTH)?;
    within("height in rows", cfg.height, MAX_MARIO_HEIGHT)?;
    within("sequence steps", cfg.sequence.len(), MAX_MARIO_STEPS)?;
    Ok(cfg)
}

/// Generates the level of a request.
pub fn generate(req: &MarioRequest) -> Result<GeneratedLevel, StudioError> {
    let cfg = config(req)?;
    mario_rooms::generate(library(&req.theme)?, &cfg, req.seed).map_err(|e| match e {
        MarioError::NoSection { step, .. } => {
            StudioError::input(format!("sequence[{step}]"), e.to_string())
        }
        MarioError::Config(m) => StudioError::input("body", m),
        other => StudioError::Generation(other.to_string()),
    })
}

/// Columns a level may have beyond its minimum length (the sections' own widths).
const MARIO_SLACK: usize = 400;

impl Endpoint for MarioRequest {
    /// The level's tiles (its minimum length plus the sections' slack) and its preview.
    fn cost(&self) -> Result<Cost, StudioError> {
        let cfg = config(self)?;
        let cells = ((cfg.length + MARIO_SLACK) * cfg.height.max(16)) as u64;
        let pixels = match self.format {
            MarioFormat::Text => 0,
            _ => cells * u64::from(SCALE * SCALE),
        };
        Ok(Cost {
            memory: cells * 256 + pixels * BYTES_PER_PIXEL,
            cells: cells * 16,
        })
    }

    fn run(self, job: &Job) -> Result<Output, StudioError> {
        run(self, job)
    }
}

/// Runs a request (on the blocking pool).
pub fn run(req: MarioRequest, job: &Job) -> Result<Output, StudioError> {
    job.check()?;
    let g = generate(&req)?;
    job.check()?;
    let png = || {
        let (w, h, mut px) = if req.reach {
            preview::render_with_reach(&g.level, SCALE)
        } else {
            preview::render(&g.level, SCALE)
        };
        preview::apply_theme(&mut px, &req.theme);
        encode(w, h, &px)
    };
    Ok(match req.format {
        MarioFormat::Png => Output::png(png()?),
        MarioFormat::Text => Output::text("text/plain; charset=utf-8", g.level.to_text()),
        MarioFormat::Json => Output::json(MarioResponse {
            width: g.level.width(),
            height: g.level.height(),
            png: base64(&png()?),
            text: g.level.to_text(),
            sections: g.sections.clone(),
            rooms: g.rooms.clone(),
            difficulty: g.difficulty,
            asked: config(&req)?.difficulty,
            estimated: f64::from(mario_rooms::estimate::estimate(&g.level)),
            theme: req.theme.clone(),
            report: g
                .report
                .as_ref()
                .map_or("not checked".to_string(), |r| r.summary()),
        })?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(body: &str) -> LevelConfig {
        config(&serde_json::from_str::<MarioRequest>(body).unwrap()).unwrap()
    }

    #[test]
    fn an_absent_difficulty_is_the_clis_and_null_is_none() {
        assert_eq!(cfg("{}").difficulty, LevelConfig::default().difficulty);
        assert_eq!(cfg(r#"{"reference": true}"#).difficulty, None);
        assert_eq!(cfg(r#"{"difficulty": null}"#).difficulty, None);
        assert_eq!(
            cfg(r#"{"reference": true, "difficulty": [2, 4]}"#).difficulty,
            Some((2.0, 4.0))
        );
        let bad = serde_json::from_str::<MarioRequest>(r#"{"difficulty": [9, 9]}"#).unwrap();
        assert!(config(&bad).is_err());
    }
}
