//! The JSON/PNG API: one module per generator, each a thin adapter from a request to the
//! generator's public API and back. Every handler reads the body as bytes (so a malformed
//! body gets a located error), checks the limits, and runs the generator on tokio's blocking
//! pool.

pub mod heroes;
pub mod marahel;
pub mod mario;
pub mod range;
pub mod search;
pub mod zones;

use crate::error::StudioError;
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

/// Runs `work` on tokio's blocking pool, so a long generation never holds an async thread.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StudioError> + Send + 'static,
) -> Result<T, StudioError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| StudioError::Internal(e.to_string()))?
}

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
