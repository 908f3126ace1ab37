//! The controls added for the first hour (issue 29), driven in the browser: the zones
//! options (biomes, connected), the Mario theme, the search's best maps opened in the
//! Marahel pane, the heat map's axes and a click on one of its cells, and a reload that keeps
//! the work.

use super::{js, tab, wait_for};
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use std::time::Duration;

/// Sets a `<select>` or checkbox by id and fires its `change` event, as a user's pick does.
async fn pick(c: &Client, id: &str, value: Value) {
    let set = match &value {
        Value::Bool(b) => format!("e.checked = {b};"),
        v => format!("e.value = {v};"),
    };
    js(
        c,
        &format!(
            "const e = document.getElementById('{id}'); {set} \
             e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change'));"
        ),
    )
    .await;
}

/// Biomes repaint the same cells with terrain tiles; connected windows is asked and shown.
pub async fn zones_options(c: &Client) {
    let src = "document.getElementById('z-preview').src";
    let states = "JSON.stringify(window.studio.zonesStates)";
    let before_src = js(c, &format!("return {src}")).await;
    let before = js(c, &format!("return {states}")).await;
    pick(c, "z-biomes", json!(true)).await;
    wait_for(
        c,
        "the biome tiles",
        &format!("{src} !== {before_src} && document.getElementById('z-stats').textContent.includes('biomes')"),
    )
    .await;
    assert_eq!(
        js(c, &format!("return {states}")).await,
        before,
        "biomes keep the cells"
    );
    pick(c, "z-connected", json!("windows")).await;
    wait_for(
        c,
        "a connected world",
        "document.getElementById('z-stats').textContent.includes('connected (windows)')",
    )
    .await;
}

/// Another theme: other rooms and colours, named in the stats.
pub async fn mario_theme(c: &Client) {
    let src = "document.getElementById('r-preview').src";
    let before = js(c, &format!("return {src}")).await;
    pick(c, "r-theme", json!("castle")).await;
    wait_for(
        c,
        "the castle theme",
        &format!("{src} !== {before} && document.getElementById('r-stats').textContent.startsWith('castle')"),
    )
    .await;
    let stats = js(c, "return document.getElementById('r-stats').textContent").await;
    assert!(stats.as_str().unwrap().contains("estimated"), "{stats}");
}

/// The best maps of the search are drawn; *Open in its pane* puts the best script in the
/// Marahel editor, whose map follows.
pub async fn search_open_in_marahel(c: &Client) {
    wait_for(
        c,
        "three maps of the best script",
        "document.querySelectorAll('#s-maps img[src^=\"data:\"]').length === 3",
    )
    .await;
    let before = js(c, "return document.getElementById('m-preview').src").await;
    let best = js(
        c,
        "return JSON.stringify(window.studio.search.best.document, null, 2)",
    )
    .await;
    c.find(Locator::Id("s-open"))
        .await
        .expect("open button")
        .click()
        .await
        .expect("click open");
    wait_for(
        c,
        "the Marahel pane",
        "document.getElementById('pane-marahel').classList.contains('active')",
    )
    .await;
    assert_eq!(
        js(c, "return document.getElementById('m-script').value").await,
        best
    );
    wait_for(
        c,
        "the opened script's map",
        &format!("document.getElementById('m-preview').src !== {before}"),
    )
    .await;
}

/// Longest path across, largest region up; a click on a filled cell shows that cell's maps.
pub async fn heat_axes_and_cell_click(c: &Client) {
    tab(c, "marahel").await;
    pick(c, "m-x", json!("longest_path")).await;
    pick(c, "m-y", json!("largest_region")).await;
    wait_for(
        c,
        "the heat map over the picked metrics",
        "document.getElementById('m-heat-x').textContent.startsWith('longest_path') && \
         document.getElementById('m-heat-y').textContent.startsWith('largest_region') && \
         window.studio.marahel.lastRange.r.heat.y.metric === 'largest_region'",
    )
    .await;
    // The fullest cell, and the seeds the answer puts in it.
    let target = js(
        c,
        "const l = window.studio.marahel.lastRange; const h = l.r.heat; let best = 0; \
         h.counts.forEach((row, r) => row.forEach((n, k) => { \
           if (n > h.counts[Math.floor(best / h.x.bins)][best % h.x.bins]) best = r * h.x.bins + k; })); \
         const seeds = []; l.r.cells.forEach((c, i) => { if (c === best) seeds.push(l.seed + i); }); \
         return { col: best % h.x.bins, row: Math.floor(best / h.x.bins), bins: h.x.bins, seeds };",
    )
    .await;
    let bins = target["bins"].as_f64().unwrap();
    let (col, row) = (
        target["col"].as_f64().unwrap(),
        target["row"].as_f64().unwrap(),
    );
    let seeds: Vec<u64> = target["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    assert!(!seeds.is_empty());
    let side = js(
        c,
        "return document.getElementById('m-heat').getBoundingClientRect().width",
    )
    .await;
    let side = side.as_f64().unwrap();
    let canvas = c.find(Locator::Id("m-heat")).await.expect("heat map");
    // Offsets from the canvas's centre; rows count up from the bottom.
    let x = (col + 0.5) * side / bins - side / 2.0;
    let y = side / 2.0 - (row + 0.5) * side / bins;
    let click = MouseActions::new("heat".into())
        .then(PointerAction::MoveToElement {
            element: canvas,
            duration: Some(Duration::from_millis(10)),
            x: x.round(),
            y: y.round(),
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(click)
        .await
        .expect("click on the heat map");
    let shown = seeds.len().min(8);
    wait_for(
        c,
        "the cell's maps",
        &format!(
            "document.querySelectorAll('#m-cell-maps img[src^=\"data:\"]').length === {shown}"
        ),
    )
    .await;
    let captions = js(
        c,
        "return [...document.querySelectorAll('#m-cell-maps figure')].map((f) => Number(f.dataset.seed))",
    )
    .await;
    assert_eq!(captions, json!(seeds[..shown]));
}

/// A reload keeps the script, the picked controls and the painted field.
pub async fn reload_keeps_the_work(c: &Client) {
    tab(c, "marahel").await;
    let script = js(c, "return document.getElementById('m-script').value").await;
    let painted = js(c, "return window.studio.zones.offsets.some((v) => v !== 0)").await;
    assert_eq!(painted, json!(true), "the zones pane was painted on");
    c.refresh().await.expect("reload");
    wait_for(
        c,
        "the map after the reload",
        "document.getElementById('m-preview').src",
    )
    .await;
    assert_eq!(
        js(c, "return document.getElementById('m-script').value").await,
        script
    );
    let controls = js(
        c,
        "return ['m-x', 'm-y', 'r-theme', 'z-connected'].map((id) => document.getElementById(id).value)\
           .concat([document.getElementById('z-biomes').checked])",
    )
    .await;
    assert_eq!(
        controls,
        json!(["longest_path", "largest_region", "castle", "windows", true])
    );
    tab(c, "zones").await;
    wait_for(
        c,
        "the painted field after the reload",
        "window.studio.zones.offsets && window.studio.zones.offsets.some((v) => v !== 0)",
    )
    .await;
}
