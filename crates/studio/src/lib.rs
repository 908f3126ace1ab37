//! # levelgen-studio
//!
//! `levelgen studio`: a local web server whose page has one pane per generator, so a designer
//! sees every change at once. The server is axum on tokio; generation runs on tokio's blocking
//! pool in two lanes of turns (small requests never wait behind large ones, see [`work`]); the page is plain HTML, CSS and JavaScript
//! embedded in the binary (no build step, no network, no third-party scripts). The example
//! scripts and templates the page offers come from the caller as an [`Examples`] value.
//!
//! | stage | module |
//! |---|---|
//! | connections: header and body timeouts, a cap on open connections | [`server`] |
//! | who may ask: `Host`, `Origin`; the body's media type | [`guard`] |
//! | routes, body limit, JSON errors for every status | this module ([`router`], [`serve`]) |
//! | costs, turns, memory budget, time limit, cancellation | [`work`] |
//! | one adapter per generator: request -> cost -> generator -> PNG/JSON | [`api`] |
//! | located errors (JSON path and line) | [`error`], [`locate`] |
//! | the embedded page; the examples, given by the caller | [`assets`] |
//! | every request parser from one byte string, for the fuzz target | [`probe`] |
//!
//! Every response is a pure function of the request: the same request gives the same bytes.
//!
//! ## Limits
//!
//! Checked before any work is done; a request over one gets HTTP 400 naming it (a body over
//! [`limits::BODY_LIMIT`] gets 413, a body not sent as `application/json` 415). Every error
//! answer is JSON ([`StudioError`]). How much runs at once is [`work`]'s business.
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
pub mod guard;
pub mod locate;
pub mod probe;
pub mod server;
pub mod work;

pub use assets::Examples;
pub use error::StudioError;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get, post};
use std::net::SocketAddr;
use std::sync::Arc;

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

/// Reads a request body of at most [`limits::BODY_LIMIT`] bytes within
/// [`server::BODY_TIMEOUT`]: 413 above the limit (told by `Content-Length` before reading, or
/// found while reading), 408 when it does not arrive in time.
pub async fn read_body(headers: &HeaderMap, body: Body) -> Result<Bytes, StudioError> {
    let too_large = StudioError::BodyTooLarge {
        limit: limits::BODY_LIMIT,
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits::BODY_LIMIT as u64) {
        return Err(too_large);
    }
    let timeout = StudioError::BodyTimeout {
        seconds: server::BODY_TIMEOUT.as_secs(),
    };
    let read = axum::body::to_bytes(body, limits::BODY_LIMIT);
    match tokio::time::timeout(server::BODY_TIMEOUT, read).await {
        Err(_) => Err(timeout),
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => {
            let inner = e.into_inner();
            let over =
                std::iter::successors(Some(&*inner as &(dyn std::error::Error + 'static)), |e| {
                    e.source()
                })
                .any(|e| e.is::<http_body_util::LengthLimitError>());
            Err(if over { too_large } else { timeout })
        }
    }
}

/// Answers a `POST` of a `T`: the media type, the body, the request's cost, then its work on
/// the [`work::Pool`].
///
/// Only `application/json` bodies are read: a page on another site can send a "simple"
/// cross-origin request (`text/plain`) to this machine's ports without asking first, but not
/// a JSON one (and [`guard`] refuses it by its `Origin` anyway).
async fn answer<T: api::Endpoint>(
    pool: &work::Pool,
    request: Request,
) -> Result<api::Output, StudioError> {
    let (parts, body) = request.into_parts();
    guard::require_json(&parts.headers)?;
    let bytes = read_body(&parts.headers, body).await?;
    let req: T = error::parse_body(&bytes)?;
    let cost = req.cost()?;
    pool.run(cost, move |job| req.run(job)).await
}

/// The `POST` route of endpoint `T` (see [`answer`]).
fn endpoint<T: api::Endpoint>(pool: &Arc<work::Pool>) -> MethodRouter {
    let pool = pool.clone();
    post(move |request: Request| async move {
        match answer::<T>(&pool, request).await {
            Ok(out) => out.into_response(),
            Err(e) => e.into_response(),
        }
    })
    .fallback(|method: Method| async move {
        StudioError::MethodNotAllowed {
            method: method.to_string(),
            allowed: "POST",
        }
    })
}

/// A `GET` route; other methods get a JSON 405.
fn page<H, T>(handler: H) -> MethodRouter
where
    H: axum::handler::Handler<T, ()>,
    T: 'static,
{
    get(handler).fallback(|method: Method| async move {
        StudioError::MethodNotAllowed {
            method: method.to_string(),
            allowed: "GET, HEAD",
        }
    })
}

/// The studio's routes, for a server bound at `bound`: the page, its assets, the `examples`
/// it offers and the API, behind the [`guard`] (requests must name `bound` or `localhost`)
/// and sharing one [`work::Pool`] sized to the machine's cores.
pub fn router(examples: &Examples, bound: SocketAddr) -> Router {
    router_with(examples, bound, work::Pool::for_this_machine())
}

/// [`router`] with a given pool (its lanes, its time limit).
pub fn router_with(examples: &Examples, bound: SocketAddr, pool: work::Pool) -> Router {
    let listing = Arc::new(examples.to_json());
    let pool = Arc::new(pool);
    Router::new()
        .route("/", page(assets::index))
        .route("/js/{name}", page(assets::script))
        .route("/app.css", page(assets::style))
        .route("/favicon.svg", page(assets::favicon))
        .route("/favicon.ico", page(assets::favicon))
        .route(
            "/api/metrics",
            page(|| async { axum::Json(assets::metrics()) }),
        )
        .route(
            "/api/examples",
            page(move || {
                let listing = listing.clone();
                async move { axum::Json((*listing).clone()) }
            }),
        )
        .route(
            "/api/marahel",
            endpoint::<api::marahel::MarahelRequest>(&pool),
        )
        .route(
            "/api/marahel/range",
            endpoint::<api::range::RangeRequest>(&pool),
        )
        .route("/api/heroes", endpoint::<api::heroes::HeroesRequest>(&pool))
        .route("/api/zones", endpoint::<api::zones::ZonesRequest>(&pool))
        .route("/api/mario", endpoint::<api::mario::MarioRequest>(&pool))
        .route("/api/search", endpoint::<api::search::SearchRequest>(&pool))
        .fallback(|uri: axum::http::Uri| async move {
            StudioError::NotFound(grid_core::text::excerpt(uri.path()))
        })
        .layer(axum::middleware::from_fn_with_state(
            guard::Access::new(bound),
            guard::guard,
        ))
}

/// Binds `addr` and serves the studio with `examples` until the process ends; `ready` is called
/// with the bound address (port 0 picks a free one) before the first request is accepted.
pub async fn serve(
    addr: SocketAddr,
    examples: &Examples,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    ready(bound);
    server::serve(listener, router(examples, bound)).await
}

/// Whether the studio may bind `addr`: a loopback address always; any other address (which
/// serves every machine that can reach it) only when `allow_remote` says so. The error says
/// what binding it would expose.
pub fn check_bind(addr: SocketAddr, allow_remote: bool) -> Result<(), String> {
    if addr.ip().is_loopback() || allow_remote {
        Ok(())
    } else {
        Err(remote_warning(addr))
    }
}

/// What serving on a non-loopback `addr` exposes.
pub fn remote_warning(addr: SocketAddr) -> String {
    let who = if addr.ip().is_unspecified() {
        "every network this machine is on".to_string()
    } else {
        format!("every machine that can reach {}", addr.ip())
    };
    format!(
        "--bind {}: serves the studio to {who}: anyone there can run the generators \
         (their CPU and memory are this machine's) and read what they make; there is no \
         password and no encryption",
        addr.ip()
    )
}

/// Starts a multi-threaded runtime and serves the studio on `addr` until the process ends,
/// printing the address (first capping malloc's arenas, [`work::bound_arenas`]); the page offers `examples`; with `open`, asks the desktop to open it
/// in a browser.
pub fn run(addr: SocketAddr, examples: &Examples, open: bool) -> std::io::Result<()> {
    work::bound_arenas();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        // Both lanes' turns, and a few for the runtime's own blocking calls; an idle worker
        // thread ends after a second, giving its stack back after a burst.
        .max_blocking_threads(2 * cores + 2)
        .thread_keep_alive(std::time::Duration::from_secs(1))
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
