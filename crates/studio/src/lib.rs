//! # levelgen-studio
//!
//! `levelgen studio`: a local web server whose page has one pane per generator, so a designer
//! sees every change at once. The server is axum on tokio; generation runs on tokio's blocking
//! pool so requests never hold each other up; the page is plain HTML, CSS and JavaScript
//! embedded in the binary (no build step, no network, no third-party scripts). The example
//! scripts and templates the page offers come from the caller as an [`Examples`] value.
//!
//! | stage | module |
//! |---|---|
//! | routes, body limit, serving | this module ([`router`], [`serve`]) |
//! | one adapter per generator: request -> generator -> PNG/JSON | [`api`] |
//! | located errors (JSON path and line) | [`error`], [`locate`] |
//! | the embedded page; the examples, given by the caller | [`assets`] |
//!
//! Every response is a pure function of the request: the same request gives the same bytes.
//!
//! ## Limits
//!
//! Checked before any work is done; a request over one gets HTTP 400 naming it (a body over
//! [`limits::BODY_LIMIT`] gets 413, a body not sent as `application/json` 415).
//!
//! | what | limit |
//! |---|---|
//! | request body | 4 MiB |
//! | Marahel map | 512 per side, 262,144 cells |
//! | expressive range | 500 maps, 20,000,000 cells in all |
//! | PNG | 4,096 pixels per side |
//! | Heroes map | the generator's sizes: 32, 64, 128, 256 |
//! | Mario level | 4,000 columns, 64 rows, 64 sequence steps |
//! | zone window | 64 zones per side, 8,000,000 noise samples, atlas 4,096 px per side |
//!
//! Inside those, each generator's own budgets bound the work.

pub mod api;
pub mod assets;
pub mod error;
pub mod locate;

pub use assets::Examples;
pub use error::StudioError;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use std::net::SocketAddr;

/// The studio's limits on one request.
pub mod limits {
    /// Largest request body in bytes (4 MiB: a script, a template, a painted field, an atlas).
    pub const BODY_LIMIT: usize = 4 << 20;
    /// Largest Marahel map side.
    pub const MAX_SIDE: usize = 512;
    /// Largest Marahel map in cells.
    pub const MAX_CELLS: usize = 512 * 512;
    /// Most maps in one expressive-range request.
    pub const MAX_RANGE_MAPS: usize = 500;
    /// Most cells over all maps of one expressive-range request.
    pub const MAX_RANGE_CELLS: usize = 20_000_000;
    /// Largest PNG side in pixels.
    pub const MAX_PNG_SIDE: usize = 4096;
    /// Longest Mario level asked for, in columns.
    pub const MAX_MARIO_LENGTH: usize = 4000;
    /// Tallest Mario level asked for, in rows.
    pub const MAX_MARIO_HEIGHT: usize = 64;
    /// Most steps in a Mario section sequence.
    pub const MAX_MARIO_STEPS: usize = 64;
    /// Largest zone window side, in zones.
    pub const MAX_ZONES_SIDE: usize = 64;
    /// Most noise samples for one zone window.
    pub const MAX_ZONE_SAMPLES: usize = 8_000_000;
    /// Largest atlas image side in pixels.
    pub const MAX_ATLAS_SIDE: u32 = 4096;
    /// Most candidates one search request evaluates.
    pub const MAX_SEARCH_EVALUATIONS: u64 = 4000;
    /// Most maps one search request makes (candidates x maps per candidate), Marahel.
    pub const MAX_SEARCH_MAPS: usize = 40_000;
    /// Most maps one search request makes for Heroes, Mario and zones (slower maps).
    pub const MAX_SEARCH_OTHER_MAPS: usize = 1_000;
}

/// Reads the body as `T` and runs `work` on the blocking pool.
/// Only `application/json` bodies are read: a page on another site can send a "simple"
/// cross-origin request (`text/plain`) to this machine's ports without asking first, but not
/// a JSON one, so no other site can make the studio work.
async fn handle<T, F>(headers: HeaderMap, body: Bytes, work: F) -> Response
where
    T: DeserializeOwned + Send + 'static,
    F: FnOnce(T) -> Result<api::Output, StudioError> + Send + 'static,
{
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    if !json {
        return StudioError::NotJson.into_response();
    }
    let result = match error::parse_body::<T>(&body) {
        Ok(req) => api::blocking(move || work(req)).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(out) => out.into_response(),
        Err(e) => e.into_response(),
    }
}

/// A `POST` route that reads a JSON body and answers with `work`'s result (see [`handle`]).
fn endpoint<T, F>(work: F) -> axum::routing::MethodRouter
where
    T: DeserializeOwned + Send + 'static,
    F: FnOnce(T) -> Result<api::Output, StudioError> + Clone + Send + Sync + 'static,
{
    post(move |h: HeaderMap, b: Bytes| handle(h, b, work))
}

/// The studio's routes: the page, its assets, the `examples` it offers and the API.
pub fn router(examples: &Examples) -> Router {
    let listing = std::sync::Arc::new(examples.to_json());
    Router::new()
        .route("/", get(assets::index))
        .route("/js/{name}", get(assets::script))
        .route("/app.css", get(assets::style))
        .route(
            "/api/examples",
            get(move || {
                let listing = listing.clone();
                async move { axum::Json((*listing).clone()) }
            }),
        )
        .route("/api/marahel", endpoint(api::marahel::run))
        .route("/api/marahel/range", endpoint(api::range::run))
        .route("/api/heroes", endpoint(api::heroes::run))
        .route("/api/zones", endpoint(api::zones::run))
        .route("/api/mario", endpoint(api::mario::run))
        .route("/api/search", endpoint(api::search::run))
        .layer(DefaultBodyLimit::max(limits::BODY_LIMIT))
}

/// Binds `addr` and serves the studio with `examples` until the process ends; `ready` is called
/// with the bound address (port 0 picks a free one) before the first request is accepted.
pub async fn serve(
    addr: SocketAddr,
    examples: &Examples,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    ready(listener.local_addr()?);
    axum::serve(listener, router(examples)).await
}

/// Starts a multi-threaded runtime and serves the studio on `addr` until the process ends,
/// printing the address; the page offers `examples`; with `open`, asks the desktop to open it
/// in a browser.
pub fn run(addr: SocketAddr, examples: &Examples, open: bool) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .build()?;
    rt.block_on(serve(addr, examples, |bound| {
        let url = format!("http://{bound}/");
        println!("levelgen studio: {url}  (Ctrl-C to stop)");
        if open {
            open_browser(&url);
        }
    }))
}

/// Asks the platform's opener for `url`; prints a notice if there is none.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("could not run {opener} ({e}); open {url} yourself");
    }
}
