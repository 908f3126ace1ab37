//! The embedded page (HTML, CSS, JavaScript written for the studio) and the examples it
//! offers, all compiled into the binary.

use axum::extract::Path;
use axum::http::{StatusCode, header};
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

/// The six Marahel examples, `(name, script)`.
pub const MARAHEL_EXAMPLES: [(&str, &str); 6] = [
    ("cave", include_str!("../../../examples/marahel/cave.json")),
    (
        "digger",
        include_str!("../../../examples/marahel/digger.json"),
    ),
    ("mine", include_str!("../../../examples/marahel/mine.json")),
    (
        "nonuniform",
        include_str!("../../../examples/marahel/nonuniform.json"),
    ),
    (
        "roguelike",
        include_str!("../../../examples/marahel/roguelike.json"),
    ),
    (
        "uniform",
        include_str!("../../../examples/marahel/uniform.json"),
    ),
];

/// The Heroes template examples, `(name, template)`.
pub const HEROES_EXAMPLES: [(&str, &str); 2] = [
    ("duel", include_str!("../../../examples/heroes/duel.json")),
    (
        "four-kingdoms",
        include_str!("../../../examples/heroes/four-kingdoms.json"),
    ),
];

/// The search specs, `(name, spec)`.
pub const SEARCH_EXAMPLES: [(&str, &str); 6] = [
    (
        "cave-range",
        include_str!("../../../examples/search/cave-range.json"),
    ),
    (
        "binary",
        include_str!("../../../examples/search/binary.json"),
    ),
    ("zelda", include_str!("../../../examples/search/zelda.json")),
    (
        "zones-floor",
        include_str!("../../../examples/search/zones-floor.json"),
    ),
    (
        "mario-enemies",
        include_str!("../../../examples/search/mario-enemies.json"),
    ),
    (
        "heroes-areas",
        include_str!("../../../examples/search/heroes-areas.json"),
    ),
];

/// `GET /`.
pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `GET /js/{name}`: one of [`SCRIPTS`], else 404.
pub async fn script(Path(name): Path<String>) -> Response {
    match SCRIPTS.iter().find(|(n, _)| *n == name) {
        Some((_, text)) => (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            *text,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `GET /app.css`.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

/// `GET /api/examples`: `{"marahel": {name: script}, "heroes": {name: template text},
/// "search": {name: spec text}}`.
pub async fn examples() -> axum::Json<serde_json::Value> {
    let map = |list: &[(&str, &str)]| {
        list.iter()
            .map(|(n, t)| (n.to_string(), serde_json::Value::String(t.to_string())))
            .collect::<serde_json::Map<_, _>>()
    };
    axum::Json(serde_json::json!({
        "marahel": map(&MARAHEL_EXAMPLES),
        "heroes": map(&HEROES_EXAMPLES),
        "search": map(&SEARCH_EXAMPLES),
    }))
}
