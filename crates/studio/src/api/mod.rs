//! The JSON/PNG API: one module per generator, each a thin adapter from a request to the
//! generator's public API and back. Every request is an [`Endpoint`]: read from the body as
//! bytes (so a malformed body gets a located error), costed and checked against the limits
//! before any work ([`Endpoint::cost`]), then run on tokio's blocking pool
//! ([`Endpoint::run`]) under the studio's [`crate::work::Pool`].

pub mod heroes;
pub mod marahel;
pub mod mario;
pub mod range;
pub mod search;
pub mod zones;

use crate::error::StudioError;
use crate::work::{Cost, Job};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde::Serialize;

/// What a generation gives back: JSON for the page, or a file to download.
#[derive(Debug)]
pub enum Output {
    /// A JSON document.
    Json(serde_json::Value),
    /// A file: content type, bytes.
    File(&'static str, Vec<u8>),
}

impl IntoResponse for Output {
    fn into_response(self) -> Response {
        match self {
            Output::Json(v) => axum::Json(v).into_response(),
            Output::File(kind, bytes) => ([(header::CONTENT_TYPE, kind)], bytes).into_response(),
        }
    }
}

impl Output {
    /// A JSON document of a serialisable value.
    pub fn json(value: impl Serialize) -> Result<Self, StudioError> {
        serde_json::to_value(value)
            .map(Output::Json)
            .map_err(|e| StudioError::Internal(e.to_string()))
    }

    /// A PNG file.
    pub fn png(bytes: Vec<u8>) -> Self {
        Output::File("image/png", bytes)
    }

    /// A UTF-8 text file of the given type.
    pub fn text(kind: &'static str, text: String) -> Self {
        Output::File(kind, text.into_bytes())
    }
}

/// One API request: its body type, its cost, its work.
pub trait Endpoint: serde::de::DeserializeOwned + Send + 'static {
    /// What the request will cost, from its fields alone (no generation): a request over a
    /// limit that its fields already show is refused here, before it waits for a turn.
    fn cost(&self) -> Result<Cost, StudioError>;

    /// Does the work, checking `job` between stages so a cancelled or late request stops.
    fn run(self, job: &Job) -> Result<Output, StudioError>;
}

/// Bytes a map may hold per cell while it is generated and measured (the generators' grids,
/// region labels and scratch), for the memory estimates.
pub const MAP_BYTES_PER_CELL: u64 = 64;

/// Bytes an answer holds per PNG pixel: the RGB buffer, the PNG (at most about as large), and
/// its base64 copy in a JSON answer.
pub const BYTES_PER_PIXEL: u64 = 3 + 3 + 4;

/// Base64 (standard alphabet, padded) of `bytes`, for PNGs inside JSON.
pub fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Decodes base64 sent by the page, naming the field on failure.
pub fn unbase64(field: &str, text: &str) -> Result<Vec<u8>, StudioError> {
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| StudioError::input(field, format!("not base64: {e}")))
}

/// PNG bytes of an RGB buffer.
pub fn encode(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, StudioError> {
    grid_core::export::encode_png(width, height, rgb).map_err(StudioError::Internal)
}

/// Applies `path=value` overrides (the `set` field of a request) to a JSON input.
pub fn apply_overrides(doc: &mut serde_json::Value, set: &[String]) -> Result<(), StudioError> {
    use grid_core::overrides::{Override, apply};
    for (i, text) in set.iter().enumerate() {
        let o: Override = text
            .parse()
            .map_err(|e| StudioError::input(format!("set[{i}]"), format!("{e}")))?;
        apply(doc, &o).map_err(|e| StudioError::input(format!("set[{i}]"), format!("{e}")))?;
    }
    Ok(())
}

/// `settings` with the `set` overrides applied through its JSON form (as the CLI's `--set`
/// does for the settings of `levelgen zones` and `levelgen mario`).
pub fn with_overrides<T>(settings: T, set: &[String]) -> Result<T, StudioError>
where
    T: Serialize + serde::de::DeserializeOwned,
{
    if set.is_empty() {
        return Ok(settings);
    }
    let mut doc =
        serde_json::to_value(settings).map_err(|e| StudioError::Internal(e.to_string()))?;
    apply_overrides(&mut doc, set)?;
    serde_json::from_value(doc)
        .map_err(|e| StudioError::input("set", grid_core::text::excerpt_with(&e.to_string(), 160)))
}
