//! Every option `levelgen zones`, `levelgen mario` and `levelgen analyze --x/--y` have reaches
//! the studio's API and means there what it means on the command line: the zones world is the
//! one zone-tiles builds from the same settings, drawn with the built-in tiles; Mario themes;
//! the expressive range on any two registry metrics with each map's heat-map cell.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
mod common;

use grid_core::metrics::registry;
use levelgen_studio::{Examples, router};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::LazyLock;
use tower::ServiceExt;
use zone_tiles::{
    BiomeConfig, Connected, Distance, Mode, NoiseConfig, Structure, World, WorleyOutput,
    ZoneConfig, ZoneRect,
};

static EXAMPLES: LazyLock<Examples> = LazyLock::new(common::repo_examples);
const HOST: &str = "127.0.0.1:8450";

async fn send(req: Request<Body>) -> (StatusCode, String, Vec<u8>) {
    let app = router(&EXAMPLES, HOST.parse::<SocketAddr>().unwrap());
    let res = app.oneshot(req).await.unwrap();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let status = res.status();
    (
        status,
        kind,
        res.into_body().collect().await.unwrap().to_bytes().to_vec(),
    )
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::post(path)
        .header("host", HOST)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (s, _, b) = send(req).await;
    (s, serde_json::from_slice(&b).expect("a JSON answer"))
}

async fn get(path: &str) -> (StatusCode, String, Vec<u8>) {
    send(
        Request::get(path)
            .header("host", HOST)
            .body(Body::empty())
            .unwrap(),
    )
    .await
}

fn png_rgb(b64: &str) -> image::RgbImage {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgb8()
}

fn colours(img: &image::RgbImage) -> usize {
    let mut seen: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

fn states(v: &Value) -> Vec<u16> {
    v["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as u16)
        .collect()
}

/// The states zone-tiles itself makes for `cfg` (and biomes) on a 12x10 window at (3, -2).
fn library_states(cfg: ZoneConfig, biomes: bool, seed: u64) -> Vec<u16> {
    let world = World::new(cfg, biomes.then(BiomeConfig::default), seed).unwrap();
    let w = world
        .generator()
        .generate(ZoneRect::new(3, -2, 12, 10))
        .unwrap();
    w.states.as_slice().iter().map(|s| s.index()).collect()
}

#[tokio::test]
async fn every_zones_option_builds_the_clis_world() {
    let worley = |distance, octaves, scale: Option<f64>| {
        let mut n = NoiseConfig {
            kind: zone_tiles::NoiseKind::Worley {
                distance,
                output: WorleyOutput::F1,
            },
            ..NoiseConfig::worley()
        };
        n.octaves = octaves;
        if let Some(s) = scale {
            n.scale = s;
        }
        n
    };
    let base = ZoneConfig::default();
    let cases: Vec<(Value, ZoneConfig)> = vec![
        (json!({}), base),
        (
            json!({"connected": "windows"}),
            ZoneConfig {
                connected: Connected::Windows,
                ..base
            },
        ),
        (
            json!({"connected": "regions", "fill": 0.3}),
            ZoneConfig {
                connected: Connected::Regions,
                threshold: zone_tiles::Threshold::Fill(0.3),
                ..base
            },
        ),
        (
            json!({"octaves": 3, "scale": 60.0, "distance": "euclidean", "structure": 0.5}),
            ZoneConfig {
                noise: worley(Distance::Euclidean, 3, Some(60.0)),
                structure: Structure {
                    weight: 0.5,
                    ..Structure::default()
                },
                ..base
            },
        ),
        (
            json!({"reference": true, "threshold": 0.4}),
            ZoneConfig {
                mode: Mode::Reference,
                structure: Structure::OFF,
                threshold: zone_tiles::Threshold::Fixed(0.4),
                ..base
            },
        ),
        (
            json!({"worley": "ratio"}),
            ZoneConfig {
                noise: NoiseConfig::worley_reference(Distance::Chebyshev),
                ..base
            },
        ),
        (
            json!({"noise": "simplex", "persistence": 0.8, "octaves": 2}),
            ZoneConfig {
                noise: NoiseConfig {
                    octaves: 2,
                    persistence: 0.8,
                    ..NoiseConfig::simplex()
                },
                ..base
            },
        ),
        (
            json!({"set": ["noise.octaves=4", "connected=\"windows\""]}),
            ZoneConfig {
                noise: worley(Distance::Chebyshev, 4, None),
                connected: Connected::Windows,
                ..base
            },
        ),
    ];
    for (opts, cfg) in cases {
        let mut body = json!({"seed": 5, "zones": [12, 10], "origin": [3, -2], "zone_size": 30});
        body.as_object_mut()
            .unwrap()
            .extend(opts.as_object().unwrap().clone());
        let (s, v) = post("/api/zones", body.clone()).await;
        assert_eq!(s, StatusCode::OK, "{opts}: {v}");
        let cfg = ZoneConfig {
            zone_size: 30,
            ..cfg
        };
        assert_eq!(states(&v), library_states(cfg, false, 5), "{opts}");
    }
    let (s, e) = post("/api/zones", json!({"connected": "always"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, e) = post("/api/zones", json!({"set": ["zone_size=999"]})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(
        e["path"], "body.zone_size",
        "an override is held to the same limits"
    );
    let (s, e) = post("/api/zones", json!({"octaves": 9})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(e["error"].as_str().unwrap().contains("octaves"), "{e}");
}

#[tokio::test]
async fn zones_are_drawn_with_the_built_in_tiles_biomes_and_plain_cells() {
    let body = json!({"seed": 3, "zones": [8, 6], "zone_size": 30});
    let (_, tiles) = post("/api/zones", body.clone()).await;
    let tiles_png = png_rgb(tiles["png"].as_str().unwrap());
    assert_eq!(tiles_png.dimensions(), (240, 180));
    assert!(colours(&tiles_png) > 8, "the built-in tiles have shading");
    let mut plain = body.clone();
    plain["plain"] = json!(true);
    let (_, p) = post("/api/zones", plain).await;
    let plain_png = png_rgb(p["png"].as_str().unwrap());
    assert_eq!(colours(&plain_png), 2, "plain: black-and-white cells");
    let mut biomes = body.clone();
    biomes["biomes"] = json!(true);
    let (s, b) = post("/api/zones", biomes).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(
        states(&b),
        states(&tiles),
        "biomes change the look, not the cells"
    );
    assert_ne!(png_rgb(b["png"].as_str().unwrap()), tiles_png);
    let cfg = ZoneConfig {
        zone_size: 30,
        ..ZoneConfig::default()
    };
    let world = World::new(cfg, Some(BiomeConfig::default()), 3).unwrap();
    let zones = world
        .generator()
        .generate(ZoneRect::new(0, 0, 8, 6))
        .unwrap();
    assert_eq!(
        png_rgb(b["png"].as_str().unwrap()),
        world.paint_corners(&zones).unwrap(),
        "by default the corner tiles, as `levelgen zones` draws them"
    );
    let mut per_zone = body.clone();
    per_zone["biomes"] = json!(true);
    per_zone["zone_tiles"] = json!(true);
    let (s, z) = post("/api/zones", per_zone).await;
    assert_eq!(s, StatusCode::OK, "{z}");
    assert_eq!(
        png_rgb(z["png"].as_str().unwrap()),
        world.paint(&zones).unwrap(),
        "zone_tiles: one tile per zone, as --zone-tiles"
    );
}

/// A raw (non-JSON) answer to `POST path`.
async fn post_raw(path: &str, body: Value) -> (StatusCode, Vec<u8>) {
    let req = Request::post(path)
        .header("host", HOST)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (s, _, b) = send(req).await;
    (s, b)
}

#[tokio::test]
async fn the_tmx_download_is_the_clis_corner_tiles_with_their_tileset() {
    use zone_tiles::corner::{self, export};
    for biomes in [false, true] {
        let body = json!({"seed": 4, "zones": [9, 7], "zone_size": 24, "biomes": biomes});
        let mut req = body.clone();
        req["format"] = json!("tmx");
        let (s, tmx) = post_raw("/api/zones", req).await;
        assert_eq!(s, StatusCode::OK);
        let tmx = String::from_utf8(tmx).unwrap();
        let world = World::new(
            ZoneConfig {
                zone_size: 24,
                ..ZoneConfig::default()
            },
            biomes.then(BiomeConfig::default),
            4,
        )
        .unwrap();
        let zones = world
            .generator()
            .generate(ZoneRect::new(0, 0, 9, 7))
            .unwrap();
        let grid = corner::world_keys(&zones, world.biomes()).unwrap();
        let set = export::Tileset::for_grid(&grid);
        let tiles = world.corner_tiles();
        assert_eq!(
            tmx,
            export::to_tmx(&grid, &set, tiles.size(), "zones_tiles.png"),
            "the corner tiles with their corner wangset, as `levelgen zones` writes them"
        );
        let mut req = body.clone();
        req["format"] = json!("tileset");
        let (s, png) = post_raw("/api/zones", req).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(
            image::load_from_memory(&png).unwrap().to_rgb8(),
            tiles.tileset(&set.keys, export::COLUMNS).unwrap()
        );
    }
    // One tile per zone: the reduced tileset's mixed wangset, and its 17x6 tiles.
    let body = json!({"seed": 4, "zones": [9, 7], "zone_size": 24, "zone_tiles": true});
    let mut req = body.clone();
    req["format"] = json!("tmx");
    let tmx = String::from_utf8(post_raw("/api/zones", req).await.1).unwrap();
    assert!(tmx.contains(r#"type="mixed""#) && tmx.contains("zones_tiles.png"));
    let mut req = body;
    req["format"] = json!("tileset");
    let png = post_raw("/api/zones", req).await.1;
    let img = image::load_from_memory(&png).unwrap();
    assert_eq!((img.width(), img.height()), (17 * 24, 6 * 24));
}

/// A square atlas is a 16-tile corner atlas, as `levelgen zones --atlas` reads it: the
/// picture is the atlas's tiles by their corners, the TMX download uses it as its tileset.
#[tokio::test]
async fn a_corner_atlas_paints_the_picture_and_the_tmx() {
    use base64::Engine;
    use zone_tiles::corner::{self, atlas::CornerAtlas};
    let art = image::RgbImage::from_fn(32, 32, |x, y| {
        image::Rgb([((y / 8) * 4 + x / 8) as u8 * 16, (x % 8) as u8 * 30, 90])
    });
    let mut png = Vec::new();
    art.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let b64 = base64::engine::general_purpose::STANDARD.encode(&png);
    let body = json!({"seed": 2, "zones": [6, 5], "zone_size": 30, "atlas": b64});
    let (s, v) = post("/api/zones", body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let world = World::new(
        ZoneConfig {
            zone_size: 30,
            ..ZoneConfig::default()
        },
        None,
        2,
    )
    .unwrap();
    let zones = world
        .generator()
        .generate(ZoneRect::new(0, 0, 6, 5))
        .unwrap();
    let keys = corner::world_keys(&zones, None).unwrap();
    let atlas = CornerAtlas::from_image(&art).unwrap();
    assert_eq!(
        png_rgb(v["png"].as_str().unwrap()),
        atlas.paint(&keys).unwrap()
    );
    let mut tmx = body.clone();
    tmx["format"] = json!("tmx");
    let text = String::from_utf8(post_raw("/api/zones", tmx).await.1).unwrap();
    assert_eq!(text, corner::atlas::to_tmx(&keys, 8, "zones_tiles.png"));
    let mut set = body.clone();
    set["format"] = json!("tileset");
    let tiles = post_raw("/api/zones", set).await.1;
    assert_eq!(image::load_from_memory(&tiles).unwrap().to_rgb8(), art);
    let mut biomes = body;
    biomes["biomes"] = json!(true);
    let (s, e) = post("/api/zones", biomes).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        e["error"].as_str().unwrap().contains("wall and floor only"),
        "{e}"
    );
}

#[tokio::test]
async fn mario_themes_pick_rooms_and_colours() {
    let (s, over) = post("/api/mario", json!({"seed": 4})).await;
    assert_eq!(s, StatusCode::OK, "{over}");
    assert_eq!(over["theme"], "overground");
    assert_eq!(over["asked"], json!([1.0, 3.0]));
    let est = over["estimated"].as_f64().unwrap();
    assert!((1.0..=5.0).contains(&est), "{est}");
    for theme in ["underground", "athletic", "castle"] {
        let (s, v) = post("/api/mario", json!({"seed": 4, "theme": theme})).await;
        assert_eq!(s, StatusCode::OK, "{theme}: {v}");
        assert_eq!(v["theme"], theme);
        assert_ne!(v["png"], over["png"], "{theme}");
    }
    let (s, e) = post("/api/mario", json!({"theme": "moon"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["path"], "body.theme");
    assert!(e["error"].as_str().unwrap().contains("castle"), "{e}");
    let (s, v) = post("/api/mario", json!({"seed": 4, "check": false})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["report"], "not checked");
    let (s, v) = post("/api/mario", json!({"seed": 4, "set": ["length=300"]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["width"].as_u64().unwrap() >= 300);
}

#[tokio::test]
async fn the_expressive_range_plots_any_two_registry_metrics() {
    let (s, kind, body) = get("/api/metrics").await;
    assert_eq!((s, kind.as_str()), (StatusCode::OK, "application/json"));
    let list: Value = serde_json::from_slice(&body).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, registry::METRICS.map(|m| m.name));
    let cave = common::example("marahel/cave.json");
    let (s, r) = post(
        "/api/marahel/range",
        json!({"script": cave, "seed": 10, "count": 12, "x": "longest_path", "y": "largest_region"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["heat"]["x"]["metric"], "longest_path");
    assert_eq!(r["heat"]["y"]["metric"], "largest_region");
    // Each map's values are the registry's on that seed's map, and its cell is counted.
    let script = levelgen_studio::api::marahel::compile(&cave, &[]).unwrap();
    for i in [0usize, 7] {
        let map =
            levelgen_studio::api::marahel::generate(&script, 10 + i as u64, None, &cave).unwrap();
        let empty = grid_core::metrics::EmptySet::from_names_present(
            grid_core::TileMap::legend(&map),
            &levelgen_studio::api::marahel::EMPTY_NAMES,
        );
        let want = ["longest_path", "largest_region"]
            .map(|n| registry::find(n).unwrap().measure(&map, &empty));
        assert_eq!(r["values"][i], json!(want), "seed {}", 10 + i);
    }
    let bins = r["heat"]["x"]["bins"].as_u64().unwrap() as usize;
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 12);
    for c in cells {
        let c = c.as_u64().unwrap() as usize;
        let n = cells
            .iter()
            .filter(|d| d.as_u64() == Some(c as u64))
            .count();
        assert_eq!(r["heat"]["counts"][c / bins][c % bins], json!(n));
    }
    let (s, e) = post("/api/marahel/range", json!({"script": cave, "y": "beauty"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(e["path"], "body.y");
    assert!(e["error"].as_str().unwrap().contains("longest_path"), "{e}");
}

#[tokio::test]
async fn marahel_maps_take_the_scripts_own_size_by_default() {
    let cave = common::example("marahel/cave.json");
    let (s, v) = post("/api/marahel", json!({"script": cave})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(64), Some(40))
    );
}

#[tokio::test]
async fn the_page_has_a_favicon() {
    for path in ["/favicon.svg", "/favicon.ico"] {
        let (s, kind, body) = get(path).await;
        assert_eq!(
            (s, kind.as_str()),
            (StatusCode::OK, "image/svg+xml"),
            "{path}"
        );
        assert!(String::from_utf8(body).unwrap().starts_with("<svg"));
    }
    let (_, _, page) = get("/").await;
    assert!(
        String::from_utf8(page)
            .unwrap()
            .contains(r#"rel="icon" type="image/svg+xml" href="/favicon.svg""#)
    );
}
