//! The embedded page (HTML, CSS, JavaScript written for the studio), compiled into the
//! binary, and the [`Examples`] it offers, given by the caller.

use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

/// The page.
pub const INDEX: &str = include_str!("../web/index.html");
/// Its scripts, `/js/<name>`, loaded in this order: shared helpers, one per pane, start-up.
pub const SCRIPTS: [(&str, &str); 7] = [
    ("common.js", include_str!("../web/common.js")),
    ("marahel.js", include_str!("../web/marahel.js")),
    ("heroes.js", include_str!("../web/heroes.js")),
    ("zones.js", include_str!("../web/zones.js")),
    ("mario.js", include_str!("../web/mario.js")),
    ("search.js", include_str!("../web/search.js")),
    ("main.js", include_str!("../web/main.js")),
];
/// Its style sheet.
pub const STYLE: &str = include_str!("../web/app.css");
/// Its icon (SVG), served as `/favicon.svg` and `/favicon.ico`.
pub const FAVICON: &str = include_str!("../web/favicon.svg");

/// The example scripts and templates the page offers, supplied by the caller (the `levelgen`
/// CLI passes the repository's `examples/`): each list is `(name, text)`.
#[derive(Debug, Clone, Default)]
pub struct Examples {
    /// Marahel scripts, offered as one button each.
    pub marahel: Vec<(String, String)>,
    /// Heroes templates (JSON text), offered as one button each.
    pub heroes: Vec<(String, String)>,
    /// Search specs (JSON text), offered as one button each in the Search pane.
    pub search: Vec<(String, String)>,
}

impl Examples {
    /// The `GET /api/examples` body: `{"marahel": {name: script}, "heroes": {name: template},
    /// "search": {name: spec}}`.
    pub fn to_json(&self) -> serde_json::Value {
        let map = |list: &[(String, String)]| {
            list.iter()
                .map(|(n, t)| (n.clone(), serde_json::Value::String(t.clone())))
                .collect::<serde_json::Map<_, _>>()
        };
        serde_json::json!({
            "marahel": map(&self.marahel),
            "heroes": map(&self.heroes),
            "search": map(&self.search),
        })
    }
}

/// `GET /`.
pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `GET /js/{name}`: one of [`SCRIPTS`], else a JSON 404.
pub async fn script(Path(name): Path<String>) -> Response {
    match SCRIPTS.iter().find(|(n, _)| *n == name) {
        Some((_, text)) => (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            *text,
        )
            .into_response(),
        None => crate::StudioError::NotFound(grid_core::text::excerpt(&format!("/js/{name}")))
            .into_response(),
    }
}

/// `GET /app.css`.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

/// `GET /favicon.svg` and `GET /favicon.ico` (the same SVG; browsers read it by its type).
pub async fn favicon() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "max-age=86400"),
        ],
        FAVICON,
    )
}

/// `GET /api/metrics`: the metrics the expressive range can plot, from grid-core's registry
/// (the list `levelgen analyze --x/--y` offers): `[{"name", "description"}]`.
pub fn metrics() -> serde_json::Value {
    grid_core::metrics::registry::METRICS
        .iter()
        .map(|m| serde_json::json!({"name": m.name, "description": m.description}))
        .collect()
}
