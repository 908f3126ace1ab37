//! What a hostile page or client does: rebinding, foreign origins, preflights, odd media
//! types, wrong methods and paths, seeds at the end of the range, slow and half-sent
//! requests, and work past its time limit. Loopback only.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
mod common;

use levelgen_studio::{Examples, router, router_with, server, work};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::LazyLock;
use std::time::{Duration, Instant};
use tower::ServiceExt;

static EXAMPLES: LazyLock<Examples> = LazyLock::new(common::repo_examples);
static CAVE: LazyLock<String> = LazyLock::new(|| common::example("marahel/cave.json"));

const HOST: &str = "127.0.0.1:8450";

fn bound() -> SocketAddr {
    HOST.parse().unwrap()
}

/// Sends `req` through a fresh router; the status and the body as JSON (every answer of the
/// studio's own errors is JSON).
async fn send(app: axum::Router, req: Request<Body>) -> (StatusCode, Value) {
    let res = app.oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
        panic!(
            "{status}: not JSON: {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
        )
    });
    (status, v)
}

fn small_map() -> String {
    json!({"script": &*CAVE, "seed": 1, "width": 20, "height": 20, "format": "map_json"})
        .to_string()
}

fn request(method: &str, path: &str, headers: &[(&str, &str)], body: String) -> Request<Body> {
    let mut b = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Body::from(body)).unwrap()
}

const ROUTES: [(&str, &str); 10] = [
    ("GET", "/"),
    ("GET", "/js/common.js"),
    ("GET", "/app.css"),
    ("GET", "/api/examples"),
    ("POST", "/api/marahel"),
    ("POST", "/api/marahel/range"),
    ("POST", "/api/heroes"),
    ("POST", "/api/zones"),
    ("POST", "/api/mario"),
    ("POST", "/api/search"),
];

#[tokio::test]
async fn a_foreign_host_or_origin_is_refused_on_every_route() {
    let json = ("content-type", "application/json");
    let cases: [&[(&str, &str)]; 6] = [
        &[("host", "evil.example"), json],
        &[("host", "evil.example:8450"), json],
        &[("host", "127.0.0.1:9999"), json],
        &[("host", HOST), ("origin", "http://evil.example"), json],
        &[("host", HOST), ("origin", "null"), json],
        &[json],
    ];
    for (method, path) in ROUTES
        .iter()
        .chain(&[("GET", "/nosuch"), ("OPTIONS", "/api/marahel")])
    {
        for headers in cases {
            let (s, v) = send(
                router(&EXAMPLES, bound()),
                request(method, path, headers, small_map()),
            )
            .await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{method} {path} {headers:?}: {v}");
            assert!(!v["error"].as_str().unwrap().is_empty());
        }
    }
    // The studio's own page, by either name, is served.
    for origin in ["http://127.0.0.1:8450", "http://localhost:8450"] {
        let headers = [("host", "localhost:8450"), ("origin", origin), json];
        let res = router(&EXAMPLES, bound())
            .oneshot(request("POST", "/api/marahel", &headers, small_map()))
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{origin}");
    }
}

#[tokio::test]
async fn preflights_wrong_methods_and_unknown_paths_get_json_errors() {
    let host = [("host", HOST)];
    let preflight = [
        ("host", HOST),
        ("origin", "http://127.0.0.1:8450"),
        ("access-control-request-method", "POST"),
    ];
    let (s, v) = send(
        router(&EXAMPLES, bound()),
        request("OPTIONS", "/api/marahel", &preflight, String::new()),
    )
    .await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{v}");
    let (s, v) = send(
        router(&EXAMPLES, bound()),
        request("GET", "/api/marahel", &host, String::new()),
    )
    .await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    assert!(v["error"].as_str().unwrap().contains("POST"), "{v}");
    let (s, v) = send(
        router(&EXAMPLES, bound()),
        request("POST", "/", &host, String::new()),
    )
    .await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{v}");
    for path in ["/nosuch", "/api/nosuch", "/js/nosuch.js"] {
        let (s, v) = send(
            router(&EXAMPLES, bound()),
            request("GET", path, &host, String::new()),
        )
        .await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
        assert!(v["error"].as_str().unwrap().contains("no such"), "{v}");
    }
}

#[tokio::test]
async fn media_types_are_parsed_not_prefix_matched() {
    for (kind, want) in [
        ("application/json", StatusCode::OK),
        ("APPLICATION/JSON; charset=utf-8", StatusCode::OK),
        ("Application/Json;charset=UTF-8", StatusCode::OK),
        ("application/jsonx", StatusCode::UNSUPPORTED_MEDIA_TYPE),
        (
            "application/json-patch+json",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        ("text/plain", StatusCode::UNSUPPORTED_MEDIA_TYPE),
    ] {
        let headers = [("host", HOST), ("content-type", kind)];
        let res = router(&EXAMPLES, bound())
            .oneshot(request("POST", "/api/marahel", &headers, small_map()))
            .await
            .unwrap();
        assert_eq!(res.status(), want, "{kind}");
    }
}

async fn post(app: axum::Router, path: &str, body: Value) -> (StatusCode, Value) {
    let headers = [("host", HOST), ("content-type", "application/json")];
    send(app, request("POST", path, &headers, body.to_string())).await
}

#[tokio::test]
async fn every_u64_is_a_seed_and_ranges_never_wrap() {
    let app = || router(&EXAMPLES, bound());
    let max = u64::MAX;
    let one = json!({"script": &*CAVE, "seed": max, "width": 30, "height": 20});
    let (s, v) = post(app(), "/api/marahel", one).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let range = |seed: u64, count: u64| json!({"script": &*CAVE, "seed": seed, "width": 30, "height": 20, "count": count});
    let (s, last3) = post(app(), "/api/marahel/range", range(max - 2, 3)).await;
    assert_eq!(s, StatusCode::OK, "{last3}");
    assert_eq!(last3["count"], 3);
    // Map 2 of that range is the map of seed MAX.
    let (_, alone) = post(
        app(),
        "/api/marahel",
        json!({"script": &*CAVE, "seed": max, "width": 30, "height": 20}),
    )
    .await;
    assert_eq!(last3["points"][2][0], alone["metrics"]["empty_fraction"]);
    let (s, v) = post(app(), "/api/marahel/range", range(max - 1, 3)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["path"], "body.seed", "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("18446744073709551615")
    );
}

#[tokio::test]
async fn a_request_over_its_memory_estimate_or_time_is_refused_with_json() {
    // A 512x512 PNG at scale 16 is over the PNG side limit, found before any work.
    let (s, v) = post(
        router(&EXAMPLES, bound()),
        "/api/marahel",
        json!({"script": &*CAVE, "width": 512, "height": 512, "scale": 16, "format": "png"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("4096"), "{v}");
    // A time limit of nothing: the work stops at its first check, with a JSON 422.
    let pool = work::Pool::new(2).with_time_limit(Duration::ZERO);
    let (s, v) = post(
        router_with(&EXAMPLES, bound(), pool),
        "/api/marahel/range",
        json!({"script": &*CAVE, "width": 40, "height": 40, "count": 20}),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("limit of 0 s"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_is_answered_503_with_retry_after() {
    // One turn per lane: many heavy requests at once fill the queue; each is answered.
    let app = router_with(&EXAMPLES, bound(), work::Pool::new(1));
    let body = json!({"script": &*CAVE, "width": 200, "height": 200, "count": 60}).to_string();
    let mut tasks = Vec::new();
    for _ in 0..work::QUEUE + 12 {
        let app = app.clone();
        let headers = [("host", HOST), ("content-type", "application/json")];
        let req = request("POST", "/api/marahel/range", &headers, body.clone());
        tasks.push(tokio::spawn(async move {
            let res = app.oneshot(req).await.unwrap();
            let retry = res.headers().get("retry-after").cloned();
            (res.status(), retry)
        }));
    }
    let mut busy = 0;
    for t in tasks {
        let (status, retry) = t.await.unwrap();
        match status {
            StatusCode::OK => {}
            StatusCode::SERVICE_UNAVAILABLE => {
                busy += 1;
                assert_eq!(retry.unwrap(), "1");
            }
            other => panic!("{other}"),
        }
    }
    assert!(busy >= 1, "no request was turned away");
}

/// A server on a loopback port; its address.
async fn start() -> SocketAddr {
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        levelgen_studio::serve("127.0.0.1:0".parse().unwrap(), &EXAMPLES, move |a| {
            let _ = tx.send(a);
        })
        .await
        .expect("studio serves");
    });
    rx.await.unwrap()
}

/// Writes `text` and reads until the server closes the connection; how long that took and
/// what came back.
fn until_closed(addr: SocketAddr, text: &str) -> (Duration, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let start = Instant::now();
    s.write_all(text.as_bytes()).unwrap();
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    (start.elapsed(), String::from_utf8_lossy(&got).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers_and_short_bodies_are_closed_in_time() {
    let addr = start().await;
    let headers = tokio::task::spawn_blocking(move || {
        until_closed(
            addr,
            &format!("POST /api/marahel HTTP/1.1\r\nHost: {addr}\r\n"),
        )
    });
    let body = tokio::task::spawn_blocking(move || {
        until_closed(
            addr,
            &format!(
                "POST /api/marahel HTTP/1.1\r\nHost: {addr}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"script\""
            ),
        )
    });
    let (t, got) = headers.await.unwrap();
    let limit = server::HEADER_TIMEOUT + Duration::from_secs(5);
    assert!(t < limit, "half-sent headers held {t:?}: {got}");
    let (t, got) = body.await.unwrap();
    let limit = server::BODY_TIMEOUT + Duration::from_secs(5);
    assert!(t < limit, "a short body held {t:?}");
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(got.contains("\"error\""), "{got}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_socket_refuses_a_rebound_name() {
    let addr = start().await;
    let (_, got) = tokio::task::spawn_blocking(move || {
        until_closed(
            addr,
            "GET /api/examples HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
        )
    })
    .await
    .unwrap();
    assert!(got.starts_with("HTTP/1.1 403"), "{got:.200}");
    let (_, got) = tokio::task::spawn_blocking(move || {
        until_closed(
            addr,
            &format!("GET /api/examples HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
        )
    })
    .await
    .unwrap();
    assert!(got.starts_with("HTTP/1.1 200"), "{got:.200}");
}
