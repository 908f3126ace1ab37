//! The API through the router itself (tower's `oneshot`): every endpoint, located errors,
//! limits, determinism and two slow requests at once.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
mod common;

use levelgen_studio::{Examples, router};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::LazyLock;
use tower::ServiceExt;

static EXAMPLES: LazyLock<Examples> = LazyLock::new(common::repo_examples);
static CAVE: LazyLock<String> = LazyLock::new(|| common::example("marahel/cave.json"));
static DUEL: LazyLock<String> = LazyLock::new(|| common::example("heroes/duel.json"));

/// The address the routers under test believe they are bound to.
const HOST: &str = "127.0.0.1:8450";

fn app() -> axum::Router {
    router(&EXAMPLES, HOST.parse::<SocketAddr>().unwrap())
}

async fn post(path: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    post_as(path, "application/json", body).await
}

async fn post_as(path: &str, kind: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let req = Request::post(path)
        .header("host", HOST)
        .header("content-type", kind)
        .body(Body::from(body))
        .unwrap();
    let res = app().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, bytes)
}

async fn post_json(path: &str, body: Value) -> (StatusCode, Value) {
    let (s, b) = post(path, body.to_string().into_bytes()).await;
    let v = serde_json::from_slice(&b)
        .unwrap_or_else(|_| panic!("{path}: not JSON: {}", String::from_utf8_lossy(&b)));
    (s, v)
}

async fn get(path: &str) -> (StatusCode, String) {
    let res = app()
        .oneshot(
            Request::get(path)
                .header("host", HOST)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let s = res.status();
    let b = res.into_body().collect().await.unwrap().to_bytes();
    (s, String::from_utf8_lossy(&b).into_owned())
}

fn png_size(b64: &str) -> (u32, u32) {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    png_dims(&bytes)
}

fn png_dims(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (s, html) = get("/").await;
    assert_eq!(s, StatusCode::OK);
    for pane in ["marahel", "heroes", "zones", "mario"] {
        assert!(
            html.contains(&format!("id=\"pane-{pane}\"")),
            "no {pane} pane"
        );
    }
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "network reference"
    );
    for (name, _) in levelgen_studio::assets::SCRIPTS {
        assert!(
            html.contains(&format!("src=\"/js/{name}\"")),
            "{name} not loaded"
        );
    }
    // No network: nothing is fetched from anywhere but the studio (the SVG namespace is a
    // name, not a request).
    for (name, text) in levelgen_studio::assets::SCRIPTS {
        let outside = text.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !outside.contains("http://")
                && !outside.contains("https://")
                && !outside.contains("//cdn"),
            "{name} refers to the network"
        );
    }
    let (s, js) = get("/js/marahel.js").await;
    assert_eq!(s, StatusCode::OK);
    assert!(js.contains("/api/marahel/range"));
    assert_eq!(get("/js/nosuch.js").await.0, StatusCode::NOT_FOUND);
    let (s, ex) = get("/api/examples").await;
    assert_eq!(s, StatusCode::OK);
    let ex: Value = serde_json::from_str(&ex).unwrap();
    assert_eq!(ex["marahel"].as_object().unwrap().len(), 6);
    assert_eq!(ex["marahel"]["cave"], *CAVE);
}

#[tokio::test]
async fn marahel_map_preview_and_downloads() {
    let body = json!({"script": &*CAVE, "seed": 3, "width": 60, "height": 40});
    let (s, v) = post_json("/api/marahel", body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(60), Some(40))
    );
    assert_eq!(png_size(v["png"].as_str().unwrap()), (60, 40));
    let e = v["metrics"]["empty_fraction"].as_f64().unwrap();
    assert!(e > 0.0 && e < 1.0, "{e}");
    assert!(v["legend"].as_array().unwrap().len() >= 2);

    let mut png = body.clone();
    png["format"] = json!("png");
    png["scale"] = json!(4);
    let (s, bytes) = post("/api/marahel", png.to_string().into_bytes()).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(png_dims(&bytes), (240, 160));

    let mut text = body.clone();
    text["format"] = json!("text");
    let (_, t) = post("/api/marahel", text.to_string().into_bytes()).await;
    let t = String::from_utf8(t).unwrap();
    assert_eq!(t.lines().count(), 40);
    assert!(t.lines().all(|l| l.chars().count() == 60));

    let mut tmx = body.clone();
    tmx["format"] = json!("tmx");
    let (_, x) = post("/api/marahel", tmx.to_string().into_bytes()).await;
    let x = String::from_utf8(x).unwrap();
    assert!(x.contains("<map") && x.contains("width=\"60\"") && x.contains("tileset.png"));
}

#[tokio::test]
async fn the_same_request_gives_the_same_bytes_and_seeds_differ() {
    let body = json!({"script": &*CAVE, "seed": 11, "width": 50, "height": 50});
    let a = post("/api/marahel", body.to_string().into_bytes()).await;
    let b = post("/api/marahel", body.to_string().into_bytes()).await;
    assert_eq!(a, b);
    let other = json!({"script": &*CAVE, "seed": 12, "width": 50, "height": 50});
    let c = post("/api/marahel", other.to_string().into_bytes()).await;
    assert_ne!(a.1, c.1);
}

#[tokio::test]
async fn malformed_script_is_a_400_with_its_line() {
    let broken = &CAVE[..CAVE.len() - 30];
    let (s, v) = post_json("/api/marahel", json!({"script": broken})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let last = broken.lines().count() as u64;
    assert_eq!(v["line"].as_u64(), Some(last), "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("not valid JSON"),
        "{v}"
    );
}

#[tokio::test]
async fn unknown_name_is_a_400_with_json_path_and_line() {
    let at = CAVE.find("\"plus\"").expect("cave uses plus");
    let line = CAVE[..at].lines().count() as u64;
    let bad = CAVE.replacen("\"plus\"", "\"plsu\"", 1);
    let (s, v) = post_json("/api/marahel", json!({"script": bad})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["path"].as_str().unwrap().starts_with("explorers["), "{v}");
    assert_eq!(v["line"].as_u64(), Some(line), "{v}");
    assert!(v["error"].as_str().unwrap().contains("plsu"), "{v}");
}

#[tokio::test]
async fn overrides_change_the_map_and_a_bad_path_is_named() {
    let base = json!({"script": &*CAVE, "seed": 5, "width": 40, "height": 40});
    let mut small = base.clone();
    small["set"] = json!(["metadata.max=20x10", "metadata.min=20x10"]);
    small.as_object_mut().unwrap().remove("width");
    small.as_object_mut().unwrap().remove("height");
    let (s, v) = post_json("/api/marahel", small).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(20), Some(10))
    );

    let mut bad = base.clone();
    bad["set"] = json!(["metadata.nosuch.key=1"]);
    let (s, v) = post_json("/api/marahel", bad).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["path"], "set[0]", "{v}");
}

#[tokio::test]
async fn limits_are_named_and_oversize_bodies_get_413() {
    let (s, v) = post_json(
        "/api/marahel",
        json!({"script": &*CAVE, "width": 5000, "height": 10}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("limit of 512"), "{v}");

    let (s, v) = post_json(
        "/api/marahel/range",
        json!({"script": &*CAVE, "count": 501}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("500"), "{v}");

    let huge = json!({"script": "x".repeat(5 << 20)})
        .to_string()
        .into_bytes();
    let (s, b) = post("/api/marahel", huge).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    let v: Value = serde_json::from_slice(&b).expect("a JSON 413");
    assert!(
        v["error"].as_str().unwrap().contains("4194304 bytes"),
        "{v}"
    );

    let body = json!({"script": &*CAVE}).to_string().into_bytes();
    let (s, b) = post_as("/api/marahel", "text/plain", body).await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let v: Value = serde_json::from_slice(&b).expect("a JSON 415");
    assert!(
        v["error"].as_str().unwrap().contains("application/json"),
        "{v}"
    );

    let (s, v) = post_json("/api/marahel", json!({"script": &*CAVE, "colour": 1})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("colour"), "{v}");
}

#[tokio::test]
async fn expressive_range_bins_every_map() {
    let body = json!({"script": &*CAVE, "seed": 0, "width": 40, "height": 40, "count": 30});
    let (s, v) = post_json("/api/marahel/range", body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["count"], 30);
    assert_eq!(v["points"].as_array().unwrap().len(), 30);
    let heat: u64 = v["heat"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(heat, 30);
    let hist: u64 = v["entropy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(hist, 30);
    // Map i of the range is the map of seed i.
    let (_, one) = post_json(
        "/api/marahel",
        json!({"script": &*CAVE, "seed": 7, "width": 40, "height": 40}),
    )
    .await;
    assert_eq!(v["points"][7][0], one["metrics"]["empty_fraction"]);
}

#[tokio::test]
async fn heroes_preview_hmm_and_located_template_errors() {
    let template: Value = serde_json::from_str(&DUEL).unwrap();
    let (s, v) = post_json("/api/heroes", json!({"template": template, "seed": 2})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["zones"], 5);
    let (w, h) = png_size(v["png"].as_str().unwrap());
    assert!(w >= 64 && w == h);

    let (s, hmm) = post(
        "/api/heroes",
        json!({"template": template, "seed": 2, "format": "hmm"})
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let parsed = heroes_zones::hmm::HmmFile::parse(&hmm);
    assert!(parsed.is_ok(), "the .hmm does not read back");

    // More zones change the map.
    let mut more = template.clone();
    let mut zone = more["zones"][4].clone();
    zone["index"] = json!(5);
    more["zones"].as_array_mut().unwrap().push(zone);
    more["connections"]
        .as_array_mut()
        .unwrap()
        .push(json!({"first": 4, "second": 5}));
    let (s, v6) = post_json("/api/heroes", json!({"template": more, "seed": 2})).await;
    assert_eq!(s, StatusCode::OK, "{v6}");
    assert_eq!(v6["zones"], 6);
    assert_ne!(v6["png"], v["png"]);

    // A connection to a zone that does not exist, sent as text: path and line.
    let bad = DUEL.replace(
        "{\"first\": 0, \"second\": 4",
        "{\"first\": 0, \"second\": 9",
    );
    let (s, e) = post_json("/api/heroes", json!({"template": bad})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(e["error"].as_str().unwrap().contains('9'), "{e}");
    assert_eq!(e["path"], "connections[0]", "{e}");
    let line = DUEL[..DUEL.find("{\"first\": 0, \"second\": 4").unwrap()]
        .lines()
        .count();
    assert_eq!(e["line"], line, "{e}");

    // A misspelt field in template text: the line where it is.
    let typo = DUEL.replacen("\"richness\"", "\"richnes\"", 1);
    let (s, e) = post_json("/api/heroes", json!({"template": typo})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let line = DUEL[..DUEL.find("\"richness\"").unwrap()].lines().count();
    assert_eq!(e["line"], line, "{e}");
    assert!(e["error"].as_str().unwrap().contains("richnes"), "{e}");
}

#[tokio::test]
async fn mario_level_with_reach_and_text() {
    let body = json!({"seed": 4, "length": 150, "difficulty": [1.0, 2.0]});
    let (s, v) = post_json("/api/mario", body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let w = v["width"].as_u64().unwrap();
    // `length` asks for about that many columns (mario_rooms::assemble::sections_end).
    assert!((120..=260).contains(&w), "{w}");
    assert!(v["report"].as_str().unwrap().starts_with("playable"), "{v}");
    assert_eq!(
        png_size(v["png"].as_str().unwrap()),
        (w as u32 * 8, v["height"].as_u64().unwrap() as u32 * 8)
    );
    let mut text = body.clone();
    text["format"] = json!("text");
    let (_, t) = post("/api/mario", text.to_string().into_bytes()).await;
    assert_eq!(String::from_utf8(t).unwrap(), v["text"].as_str().unwrap());

    let (s, e) = post_json("/api/mario", json!({"sequence": ["intro", "nosuchrole"]})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["path"], "sequence[1]", "{e}");
}

#[tokio::test]
async fn painting_the_zones_noise_changes_the_tiles() {
    let n = 8 * 6 * 8 * 6;
    for reference in [true, false] {
        let base = json!({"seed": 1, "zones": [8, 8], "reference": reference});
        let (s, v) = post_json("/api/zones", base.clone()).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["noise"].as_array().unwrap().len(), n);
        let states = |v: &Value| -> Vec<u64> {
            v["states"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_u64().unwrap())
                .collect()
        };
        let plain = states(&v);
        assert!(plain.iter().any(|&s| s != 0 && s != 511), "{plain:?}");
        let mut up = base.clone();
        up["offsets"] = json!(vec![100; n]);
        let (_, v) = post_json("/api/zones", up).await;
        assert!(states(&v).iter().all(|&s| s == 511), "raised: all on");
        let mut down = base.clone();
        down["offsets"] = json!(vec![-100; n]);
        let (_, v) = post_json("/api/zones", down).await;
        assert!(states(&v).iter().all(|&s| s == 0), "lowered: all off");
        // A stroke over one corner zone (and the samples of its far nodes, which seamless
        // mode shares with the next zones) turns it on and changes nothing far away.
        let mut corner = vec![0i8; n];
        for y in 0..7 {
            for x in 0..7 {
                corner[y * 48 + x] = 100;
            }
        }
        let mut brush = base.clone();
        brush["offsets"] = json!(corner);
        let (_, v) = post_json("/api/zones", brush).await;
        let painted = states(&v);
        assert_eq!(painted[0], 511);
        assert_eq!(painted[20..], plain[20..]);
    }
    let (s, e) = post_json("/api/zones", json!({"zones": [8, 8], "offsets": [1, 2]})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["path"], "body.offsets", "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_slow_requests_at_once_both_complete() {
    let body = |seed: u64| {
        json!({"script": &*CAVE, "seed": seed, "width": 100, "height": 100, "count": 60})
            .to_string()
            .into_bytes()
    };
    let a = tokio::spawn(post("/api/marahel/range", body(0)));
    let b = tokio::spawn(post("/api/marahel/range", body(1000)));
    let quick = post_json("/api/mario", json!({"seed": 1})).await;
    let (a, b) = (a.await.unwrap(), b.await.unwrap());
    assert_eq!(a.0, StatusCode::OK);
    assert_eq!(b.0, StatusCode::OK);
    assert_eq!(quick.0, StatusCode::OK);
    assert_ne!(a.1, b.1);
    // The same as asked one at a time.
    assert_eq!(a, post("/api/marahel/range", body(0)).await);
}

#[tokio::test]
async fn an_uploaded_atlas_paints_the_tiles() {
    use base64::Engine;
    use zone_tiles::{Atlas, AtlasKind};
    let atlas = Atlas::reference(AtlasKind::Reduced, 12).unwrap().to_image();
    let png = grid_core::export::encode_png(atlas.width(), atlas.height(), atlas.as_raw()).unwrap();
    let b64 = base64::engine::general_purpose::STANDARD.encode(png);
    let (s, v) = post_json(
        "/api/zones",
        json!({"seed": 2, "zones": [5, 4], "atlas": b64}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // 12 px per zone from the atlas, whatever the noise's zone size.
    assert_eq!(png_size(v["png"].as_str().unwrap()), (60, 48));
    let (s, e) = post_json("/api/zones", json!({"atlas": "bm90IGEgcG5n"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["path"], "body.atlas", "{e}");
}

#[tokio::test]
async fn search_fills_its_archive_step_by_step_and_deterministically() {
    let spec = common::example("search/cave-range.json");
    let step = |n: u64| json!({"spec": spec, "evaluations": n});
    // 200 random candidates, then batches of 40.
    let (s, small) = post_json("/api/search", step(200)).await;
    assert_eq!(s, StatusCode::OK, "{small}");
    let (_, large) = post_json("/api/search", step(280)).await;
    let (_, again) = post_json("/api/search", step(280)).await;
    assert_eq!(large, again, "the same request, the same answer");
    assert_eq!(small["generator"], "marahel");
    assert_eq!(large["evaluations"], 280);
    assert_eq!(large["log"].as_array().unwrap().len(), 3);
    let filled = |v: &Value| {
        v["grid"]["fitness"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| !c.is_null())
            .count()
    };
    assert_eq!(large["grid"]["fitness"].as_array().unwrap().len(), 100);
    assert!(filled(&small) > 0 && filled(&large) >= filled(&small));
    // The larger budget extends the smaller run: its log starts with the same batches.
    let log = |v: &Value| v["log"].as_array().unwrap().clone();
    assert_eq!(log(&large)[..log(&small).len()], log(&small)[..]);
    assert_eq!(
        large["grid"]["coverage"].as_f64().unwrap(),
        filled(&large) as f64 / 100.0
    );
    assert_eq!(large["best"]["document"]["metadata"]["min"], "24x24");
    assert!(large["best"]["args"].is_null());
}

#[tokio::test]
async fn search_examples_are_offered_and_bad_requests_are_located() {
    let (s, text) = get("/api/examples").await;
    assert_eq!(s, StatusCode::OK);
    let ex: Value = serde_json::from_str(&text).unwrap();
    for name in [
        "cave-range",
        "binary",
        "zelda",
        "zones-floor",
        "mario-enemies",
        "heroes-areas",
    ] {
        assert!(
            ex["search"][name]
                .as_str()
                .unwrap()
                .contains("\"algorithm\""),
            "{name}"
        );
    }
    let zones = ex["search"]["zones-floor"].as_str().unwrap();
    let (s, v) = post_json("/api/search", json!({"spec": zones, "evaluations": 8})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["generator"], "zones");
    assert!(v["grid"].is_null());
    assert!(
        v["best"]["args"]
            .as_str()
            .unwrap()
            .starts_with("--size\n12x12\n")
    );
    let (s, v) = post_json(
        "/api/search",
        json!({"spec": "{\"marahel\": {}}", "evaluations": 8}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["error"].as_str().unwrap().starts_with("spec: line 1"),
        "{v}"
    );
    let (s, v) = post_json("/api/search", json!({"spec": zones, "evaluations": 0})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["error"].as_str().unwrap().contains("body.evaluations"),
        "{v}"
    );
    let binary = ex["search"]["binary"].as_str().unwrap();
    let (s, v) = post_json("/api/search", json!({"spec": binary, "evaluations": 4000})).await;
    assert_ne!(s, StatusCode::OK, "over the map limit: {v}");
    assert!(v["error"].as_str().unwrap().contains("maps"), "{v}");
}

/// A square neighbourhood matrix of `side` cells, its centre counted.
fn square(side: usize) -> String {
    let c = side / 2;
    let row = |y: usize| -> String {
        (0..side)
            .map(|x| if (x, y) == (c, c) { '3' } else { '1' })
            .collect()
    };
    (0..side).map(row).collect::<Vec<_>>().join(",")
}

/// Big neighbourhoods end as the library ends them: a 201x201 scan on 12x9 at its work
/// budget (a warning in the answer), a 401x401 one past the neighbourhood limit (a 400).
#[tokio::test]
async fn big_neighbourhoods_end_at_the_budget_or_the_limit() {
    let script = |size: &str, side: usize| {
        json!({"metadata": {"min": size, "max": size}, "entities": ["solid", "empty"],
            "neighborhoods": {"big": square(side)},
            "explorers": [{"type": "narrow_horz", "region": "map",
                "parameters": {"repeats": "1000000"},
                "rules": ["big(solid) > 100 -> self(empty)"]}]})
        .to_string()
    };
    let (s, v) = post_json("/api/marahel", json!({"script": script("12x9", 201)})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("stopped at its work budget"), "{v}");
    let (s, v) = post_json("/api/marahel", json!({"script": script("512x512", 401)})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v.to_string().contains("neighborhoods.big"), "{v}");
}
