//! The studio in a real browser: Chromium driven over WebDriver (fantoccini, chromedriver).
//!
//! Skips with a notice when `/usr/bin/chromedriver` is absent, unless `LEVELGEN_BROWSER_TESTS`
//! is set (CI sets it, so there a missing browser is a failure). Saves a screenshot of each
//! pane into `docs/images/studio-*.png` and prints the edit-to-picture and expressive-range
//! timings measured in the page (`performance.now()` around fetch and redraw).

mod common;
#[path = "browser/controls.rs"]
mod controls;

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DRIVER: &str = "/usr/bin/chromedriver";
const BROWSER: &str = "/usr/bin/chromium";
const MANDATORY: &str = "LEVELGEN_BROWSER_TESTS";

/// chromedriver, killed when the test ends (also on panic).
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn start_driver() -> (Driver, u16) {
    let port = free_port();
    let child = Command::new(DRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child);
    let until = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < until,
            "chromedriver did not listen within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (driver, port)
}

async fn connect(port: u16, profile: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": BROWSER,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--window-size=1500,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session")
}

/// Evaluates `expr` until it is truthy (60 s: a debug build on a loaded machine), returning
/// its value.
async fn wait_for(c: &Client, what: &str, expr: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let v = c
            .execute(&format!("return ({expr});"), vec![])
            .await
            .expect("script runs");
        let truthy = match &v {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::String(s) => !s.is_empty(),
            Value::Number(n) => n.as_f64() != Some(0.0),
            _ => true,
        };
        if truthy {
            return v;
        }
        assert!(Instant::now() < until, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.expect("script runs")
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    assert_eq!(&png[..4], b"\x89PNG");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/images");
    std::fs::create_dir_all(&dir).expect("docs/images");
    std::fs::write(dir.join(format!("studio-{name}.png")), png).expect("screenshot written");
}

async fn tab(c: &Client, pane: &str) {
    c.find(Locator::Css(&format!("#tabs button[data-pane={pane}]")))
        .await
        .expect("tab")
        .click()
        .await
        .expect("click tab");
}

fn percentile(v: &[f64], p: f64) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[((s.len() as f64 - 1.0) * p).round() as usize]
}

async fn start_server() -> SocketAddr {
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let examples = common::repo_examples();
        levelgen_studio::serve("127.0.0.1:0".parse().unwrap(), &examples, move |a| {
            let _ = tx.send(a);
        })
        .await
        .expect("studio serves");
    });
    rx.await.expect("studio bound")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn studio_in_a_real_browser() {
    if !std::path::Path::new(DRIVER).exists() {
        assert!(
            std::env::var_os(MANDATORY).is_none(),
            "{MANDATORY} is set but {DRIVER} is missing (apt-get install chromium chromium-driver)"
        );
        println!("SKIPPED: browser tests need {DRIVER} (Debian: chromium chromium-driver)");
        return;
    }
    let addr = start_server().await;
    let (_driver, port) = start_driver();
    let profile =
        std::env::temp_dir().join(format!("levelgen-studio-chrome-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    // Nothing here may hang a CI run: the session must start within two minutes and the whole
    // walk through the panes finish within fifteen.
    let c = tokio::time::timeout(Duration::from_secs(120), connect(port, &profile))
        .await
        .expect("a browser session within 120 s");
    // The timing script runs for about 30 s in a debug build; allow ten minutes.
    c.update_timeouts(TimeoutConfiguration::new(
        Some(Duration::from_secs(600)),
        Some(Duration::from_secs(120)),
        Some(Duration::ZERO),
    ))
    .await
    .expect("timeouts");
    let result = tokio::time::timeout(Duration::from_secs(900), run_all(&c, addr)).await;
    let _ = c.close().await;
    let _ = std::fs::remove_dir_all(&profile);
    result.expect("the browser walk finishes within 15 minutes");
}

async fn run_all(c: &Client, addr: SocketAddr) {
    c.goto(&format!("http://{addr}/"))
        .await
        .expect("page loads");
    marahel_pane(c).await;
    heroes_pane(c).await;
    zones_pane(c).await;
    controls::zones_options(c).await;
    mario_pane(c).await;
    controls::mario_theme(c).await;
    search_pane(c).await;
    controls::search_open_in_marahel(c).await;
    controls::heat_axes_and_cell_click(c).await;
    controls::reload_keeps_the_work(c).await;
    timings(c).await;
}

async fn marahel_pane(c: &Client) {
    let src = "document.getElementById('m-preview').src";
    let first = wait_for(c, "the first Marahel map", src).await;
    // Type a new probability over the cave's 0.46 and see the map change.
    js(
        c,
        "const t = document.getElementById('m-script'); const i = t.value.indexOf('0.46'); \
           t.focus(); t.setSelectionRange(i, i + 4);",
    )
    .await;
    let editor = c.find(Locator::Id("m-script")).await.expect("editor");
    editor.send_keys("0.6").await.expect("typing");
    let changed = wait_for(
        c,
        "the preview to change after typing",
        &format!("{src} !== {first} && {src}"),
    )
    .await;
    assert_ne!(changed, first);
    assert!(
        js(
            c,
            "return document.getElementById('m-script').value.includes('random < 0.6 ')"
        )
        .await
        .as_bool()
        .unwrap()
    );
    // Break the script: a misspelt neighbourhood; the error names its path and line.
    js(
        c,
        "const t = document.getElementById('m-script'); const i = t.value.indexOf('plus(out)'); \
           t.focus(); t.setSelectionRange(i, i + 4);",
    )
    .await;
    editor.send_keys("plsu").await.expect("typing");
    let err = wait_for(
        c,
        "the error box",
        "!document.getElementById('m-error').hidden && document.getElementById('m-error').textContent",
    )
    .await;
    let err = err.as_str().unwrap().to_string();
    assert!(err.contains("plsu"), "{err}");
    assert!(
        err.contains("line 19") && err.contains("explorers[2].rules[0]"),
        "{err}"
    );
    let bad = js(
        c,
        "const b = document.querySelector('#m-gutter .bad'); return b ? b.textContent : null",
    )
    .await;
    assert_eq!(bad, json!("19\n"));
    // Back to a valid script: the roguelike example, one click away.
    c.find(Locator::Css("#m-examples button[data-example=roguelike]"))
        .await
        .expect("example button")
        .click()
        .await
        .expect("click");
    wait_for(
        c,
        "the error to clear",
        "document.getElementById('m-error').hidden",
    )
    .await;
    wait_for(
        c,
        "sliders for the script's numbers",
        "document.querySelectorAll('#m-sliders input').length",
    )
    .await;
    wait_for(
        c,
        "the expressive range",
        "document.getElementById('m-range-note').textContent.includes('maps')",
    )
    .await;
    // A slider (a rule's probability) is an override: the map changes, the text does not.
    let before = js(c, &format!("return {src}")).await;
    let text = js(c, "return document.getElementById('m-script').value").await;
    js(
        c,
        "const l = [...document.querySelectorAll('#m-sliders label')] \
             .find((l) => l.textContent.includes('random < [0.3]')); \
           const r = l.querySelector('input'); r.value = Number(r.value) + 0.3; \
           r.dispatchEvent(new Event('input'));",
    )
    .await;
    wait_for(
        c,
        "the preview to follow the slider",
        &format!("{src} !== '{}' && {src}", before.as_str().unwrap()),
    )
    .await;
    assert_eq!(
        js(c, "return document.getElementById('m-script').value").await,
        text
    );
    screenshot(c, "marahel").await;
}

async fn heroes_pane(c: &Client) {
    tab(c, "heroes").await;
    let src = "document.getElementById('h-preview').src";
    let first = wait_for(c, "the first Heroes map", src).await;
    wait_for(
        c,
        "5 zones",
        "document.getElementById('h-stats').textContent.includes('5 zones')",
    )
    .await;
    c.find(Locator::Id("h-add"))
        .await
        .expect("add")
        .click()
        .await
        .expect("click");
    wait_for(
        c,
        "6 zones",
        "document.getElementById('h-stats').textContent.includes('6 zones')",
    )
    .await;
    let after = js(c, &format!("return {src}")).await;
    assert_ne!(after, first, "adding a zone changes the map");
    assert_eq!(
        js(
            c,
            "return document.querySelectorAll('#h-graph .zone').length"
        )
        .await,
        json!(6)
    );
    // The form edits the new zone: another surface, another map.
    c.find(Locator::Css("#h-form select"))
        .await
        .expect("surface select")
        .select_by_value("SNOW")
        .await
        .expect("select SNOW");
    wait_for(
        c,
        "the map to follow the form",
        &format!("{src} !== '{}' && {src}", after.as_str().unwrap()),
    )
    .await;
    screenshot(c, "heroes").await;
}

async fn zones_pane(c: &Client) {
    tab(c, "zones").await;
    wait_for(
        c,
        "the zone tiles",
        "window.studio.zonesStates && document.getElementById('z-preview').src",
    )
    .await;
    let before = js(c, "return window.studio.zonesStates").await;
    let canvas = c.find(Locator::Id("z-noise-canvas")).await.expect("canvas");
    // A stroke across the middle of the noise field with the raise brush.
    let mut stroke = MouseActions::new("brush".into())
        .then(PointerAction::MoveToElement {
            element: canvas.clone(),
            duration: None,
            x: -150.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for i in 1..=15 {
        stroke = stroke.then(PointerAction::MoveToElement {
            element: canvas.clone(),
            duration: Some(Duration::from_millis(10)),
            x: -150.0 + 20.0 * f64::from(i),
            y: 10.0 * (f64::from(i) * 0.5).sin(),
        });
    }
    stroke = stroke.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    });
    c.perform_actions(stroke).await.expect("brush stroke");
    let after = wait_for(
        c,
        "the tiles to change after painting",
        &format!(
            "JSON.stringify(window.studio.zonesStates) !== '{}' && window.studio.zonesStates",
            before
        ),
    )
    .await;
    let on = |v: &Value| -> u32 {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| (s.as_u64().unwrap() as u16).count_ones())
            .sum()
    };
    assert!(on(&after) > on(&before), "raising the noise turns cells on");
    screenshot(c, "zones").await;
}

async fn mario_pane(c: &Client) {
    tab(c, "mario").await;
    wait_for(
        c,
        "a playable Mario level",
        "document.getElementById('r-stats').textContent.includes('playable')",
    )
    .await;
    let text = js(c, "return document.getElementById('r-text').textContent").await;
    assert!(
        text.as_str().unwrap().contains('M'),
        "level text shows Mario's start"
    );
    screenshot(c, "mario").await;
}

async fn search_pane(c: &Client) {
    tab(c, "search").await;
    wait_for(
        c,
        "the cave-range spec in the editor",
        "document.getElementById('s-spec').value.includes('map_elites')",
    )
    .await;
    js(
        c,
        "document.getElementById('s-evals').value = 240; document.getElementById('s-run').click();",
    )
    .await;
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let stats = js(c, "return document.getElementById('s-stats').textContent").await;
        if stats
            .as_str()
            .unwrap_or("")
            .starts_with("marahel: 240 candidates")
        {
            break;
        }
        let error = js(c, "return document.getElementById('s-error').textContent").await;
        assert!(
            Instant::now() < until,
            "timed out waiting for the archive after 240 candidates: stats {stats}, error {error}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Some cells of the archive are coloured (not white).
    let coloured = js(
        c,
        "const d = document.getElementById('s-grid').getContext('2d').getImageData(0, 0, 400, 400).data; \
         let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] < 250) n++; return n;",
    )
    .await;
    assert!(coloured.as_f64().unwrap() > 1000.0, "{coloured}");
    screenshot(c, "search").await;
}

/// Edit to picture for a 100x100 map (a changed script, its request, generation, transfer and
/// redraw), and the expressive range of 200 maps of that size, timed inside the page.
async fn timings(c: &Client) {
    tab(c, "marahel").await;
    let script = r#"
        const done = arguments[arguments.length - 1];
        (async () => {
          const m = window.studio.marahel;
          document.getElementById('m-width').value = 100;
          document.getElementById('m-height').value = 100;
          document.getElementById('m-count').value = 200;
          const cave = window.studio.examples.marahel.cave;
          const ta = document.getElementById('m-script');
          m.sliders = [];
          const edit = [], range = [];
          for (let i = 0; i < 60; i++) {
            ta.value = cave.replace('0.46', (0.40 + (i % 10) / 100).toFixed(2));
            const t0 = performance.now();
            const ok = await m.render();
            if (!ok) { done({ error: document.getElementById('m-error').textContent }); return; }
            edit.push(performance.now() - t0);
          }
          for (let i = 0; i < 8; i++) {
            ta.value = cave.replace('0.46', (0.40 + i / 100).toFixed(2));
            const t0 = performance.now();
            if (!await m.range()) { done({ error: 'range failed' }); return; }
            range.push(performance.now() - t0);
          }
          done({ edit, range });
        })();
    "#;
    let out = c
        .execute_async(script, vec![])
        .await
        .expect("timing script");
    assert!(out.get("error").is_none(), "{out}");
    let list = |k: &str| -> Vec<f64> {
        out[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let (edit, range) = (list("edit"), list("range"));
    // Skip the first few (connection set-up, caches) for the steady-state figures.
    let edit = &edit[5..];
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    println!(
        "studio timings ({profile} build): edit-to-picture 100x100 p50 {:.1} ms, p95 {:.1} ms over {} edits; \
         expressive range of 200 maps 100x100 p50 {:.0} ms, max {:.0} ms over {} runs",
        percentile(edit, 0.5),
        percentile(edit, 0.95),
        edit.len(),
        percentile(&range, 0.5),
        percentile(&range, 1.0),
        range.len()
    );
    assert!(edit.iter().all(|&t| t > 0.0));
}
