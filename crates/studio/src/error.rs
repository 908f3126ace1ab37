//! The one error type of the studio: every bad request names where it is and what was wrong.

use crate::work::RETRY_AFTER;
use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use thiserror::Error;

/// Everything a request can get wrong, and the server's own failures.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum StudioError {
    /// The request or the input it carries is wrong (HTTP 400). `path` names the place: a JSON
    /// path into the script or template (`explorers[2].rules[0]`), or into the request
    /// (`body.width`); `line` is the 1-based line of that place in the script text, when known.
    #[error("{}{message}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
    BadInput {
        /// Where.
        path: String,
        /// The 1-based line in the script or template text, when it is known.
        line: Option<usize>,
        /// What was wrong and what was expected.
        message: String,
    },
    /// The request asks for more work than one request may do (HTTP 400), naming the limit.
    #[error("{what}: {asked} is over the studio's limit of {limit}")]
    TooMuch {
        /// What was counted (`width x height`, `count x cells`, ...).
        what: &'static str,
        /// How much was asked.
        asked: usize,
        /// The limit.
        limit: usize,
    },
    /// The body was not sent as `application/json` (HTTP 415).
    #[error("send the body as application/json")]
    NotJson,
    /// The body is larger than the studio reads (HTTP 413).
    #[error("the body is over the studio's limit of {limit} bytes")]
    BodyTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The body did not arrive in time, or the connection broke while it was sent (HTTP 408).
    #[error("the body did not arrive within {seconds} s")]
    BodyTimeout {
        /// The limit in seconds.
        seconds: u64,
    },
    /// No such page or endpoint (HTTP 404).
    #[error("no such page or endpoint: {0}")]
    NotFound(String),
    /// The endpoint exists but not for this method (HTTP 405).
    #[error("{method} is not allowed here: {allowed}")]
    MethodNotAllowed {
        /// The method asked for.
        method: String,
        /// What the endpoint takes.
        allowed: &'static str,
    },
    /// The request names another host or comes from another site's page (HTTP 403): what a
    /// DNS-rebinding or cross-site page sends.
    #[error("{0}")]
    Forbidden(String),
    /// Every turn is taken and the queue is full, or the wait was too long (HTTP 503, with
    /// `Retry-After`).
    #[error("the studio is busy: try again shortly")]
    Busy,
    /// The work ran past the studio's time limit and was stopped (HTTP 422).
    #[error("the work took longer than the studio's limit of {seconds} s and was stopped")]
    TimeLimit {
        /// The limit in seconds.
        seconds: u64,
    },
    /// The client went away and the work was stopped (no one reads this answer; HTTP 503).
    #[error("the request was cancelled")]
    Cancelled,
    /// The generator ran but gave up (its own budget, an unplayable level): HTTP 422.
    #[error("{0}")]
    Generation(String),
    /// The server failed (a generation task could not be joined): HTTP 500.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The JSON body of every error response.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    /// The whole message, as shown to the user.
    pub error: String,
    /// Where (JSON path), empty when the whole input is meant.
    pub path: String,
    /// The 1-based line in the script or template text, when known.
    pub line: Option<usize>,
}

impl StudioError {
    /// A bad input at `path`, line unknown.
    pub fn input(path: impl Into<String>, message: impl Into<String>) -> Self {
        StudioError::BadInput {
            path: path.into(),
            line: None,
            message: message.into(),
        }
    }

    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            StudioError::BadInput { .. } | StudioError::TooMuch { .. } => StatusCode::BAD_REQUEST,
            StudioError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            StudioError::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            StudioError::BodyTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            StudioError::NotFound(_) => StatusCode::NOT_FOUND,
            StudioError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            StudioError::Forbidden(_) => StatusCode::FORBIDDEN,
            StudioError::Busy | StudioError::Cancelled => StatusCode::SERVICE_UNAVAILABLE,
            StudioError::Generation(_) | StudioError::TimeLimit { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            StudioError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON body of the error.
    pub fn body(&self) -> ErrorBody {
        let (path, line) = match self {
            StudioError::BadInput { path, line, .. } => (path.clone(), *line),
            _ => (String::new(), None),
        };
        ErrorBody {
            error: self.to_string(),
            path,
            line,
        }
    }
}

impl IntoResponse for StudioError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(self.body())).into_response();
        let headers = response.headers_mut();
        match &self {
            StudioError::Busy => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER));
            }
            StudioError::MethodNotAllowed { allowed, .. } => {
                headers.insert(header::ALLOW, HeaderValue::from_static(allowed));
            }
            _ => {}
        }
        // An answer whose request body was not read closes the connection.
        if matches!(
            self,
            StudioError::BodyTooLarge { .. } | StudioError::BodyTimeout { .. }
        ) {
            headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// Parses a request body, naming the line and column of a JSON mistake or the field at fault.
pub fn parse_body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StudioError> {
    serde_json::from_slice(bytes).map_err(|e| StudioError::BadInput {
        path: "body".into(),
        line: Some(e.line()),
        message: format!("column {}: {e}", e.column()),
    })
}

/// Checks `asked <= limit`.
pub fn within(what: &'static str, asked: usize, limit: usize) -> Result<(), StudioError> {
    if asked > limit {
        Err(StudioError::TooMuch { what, asked, limit })
    } else {
        Ok(())
    }
}
