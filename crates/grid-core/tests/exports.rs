//! Exports of any TileMap: text, JSON, PNG and a Tiled TMX round trip through the `tiled` crate.

use grid_core::export::{self, ExportOptions, Format, JsonTiles};
use grid_core::{Legend, TileGrid, TileKind, TileMap};
use std::path::{Path, PathBuf};

fn sample() -> TileGrid {
    let legend = Legend::new(vec![
        TileKind::new("empty", '.', [230, 230, 230]),
        TileKind::new("wall", '#', [30, 30, 30]),
        TileKind::new("water & <deep>", '~', [20, 60, 200]),
    ]);
    // 7x4 with every kind and an asymmetric pattern, so transposition bugs show.
    TileGrid::from_text("#######\n#..~..#\n#.##~~#\n####..#\n", legend).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grid-core-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn text_round_trips_and_lists_the_legend() {
    let map = sample();
    let text = export::to_text(&map);
    assert_eq!(text.lines().count(), 4);
    assert_eq!(text.lines().nth(2), Some("#.##~~#"));
    let back = TileGrid::from_text(&text, map.legend.clone()).unwrap();
    assert_eq!(back, map);
    let legend = export::legend_text(&map.legend);
    assert_eq!(legend, ". empty\n# wall\n~ water & <deep>\n");
}

#[test]
fn json_has_dimensions_legend_and_rows() {
    let map = sample();
    let v: serde_json::Value =
        serde_json::from_str(&export::to_json(&map, JsonTiles::Names)).unwrap();
    assert_eq!(v["width"], 7);
    assert_eq!(v["height"], 4);
    assert_eq!(v["legend"][2]["name"], "water & <deep>");
    assert_eq!(v["legend"][2]["color"], "#143cc8");
    assert_eq!(v["rows"][1][3], "water & <deep>");
    assert_eq!(v["rows"][3][5], "empty");
    let ids: serde_json::Value =
        serde_json::from_str(&export::to_json(&map, JsonTiles::Ids)).unwrap();
    for y in 0..4 {
        for x in 0..7 {
            assert_eq!(ids["rows"][y][x], map.tile(x, y), "({x},{y})");
        }
    }
}

#[test]
fn png_has_one_colour_per_tile_scaled() {
    let map = sample();
    let dir = temp_dir("png");
    let path = dir.join("m.png");
    export::write_png(&map, &path, 3).unwrap();
    let img = image::open(&path).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (21, 12));
    for y in 0..4u32 {
        for x in 0..7u32 {
            let want = map.legend.color(map.tile(x as usize, y as usize));
            for (dx, dy) in [(0, 0), (2, 2), (1, 2)] {
                assert_eq!(img.get_pixel(x * 3 + dx, y * 3 + dy).0, want, "({x},{y})");
            }
        }
    }
}

#[test]
fn tmx_round_trips_through_tiled() {
    let map = sample();
    let dir = temp_dir("tmx");
    let path = dir.join("level.tmx");
    export::write_map(&map, &path, &ExportOptions::default()).unwrap();
    assert!(dir.join("level_tiles.png").exists());

    let loaded = tiled::Loader::new().load_tmx_map(&path).unwrap();
    assert_eq!((loaded.width, loaded.height), (7, 4));
    let tileset = &loaded.tilesets()[0];
    assert_eq!(tileset.tilecount as usize, map.legend.len());
    let image = tileset.image.as_ref().unwrap();
    assert_eq!(image.source, dir.join("level_tiles.png"));
    // Tile properties carry the legend names.
    for (id, kind) in map.legend.kinds().iter().enumerate() {
        let tile = tileset.get_tile(id as u32).unwrap();
        match tile.properties.get("name") {
            Some(tiled::PropertyValue::StringValue(s)) => assert_eq!(s, &kind.name),
            other => panic!("tile {id}: {other:?}"),
        }
    }
    let layer = loaded.get_layer(0).unwrap().as_tile_layer().unwrap();
    for y in 0..4 {
        for x in 0..7 {
            let t = layer.get_tile(x, y).unwrap();
            assert_eq!(
                t.id(),
                u32::from(map.tile(x as usize, y as usize)),
                "({x},{y})"
            );
            assert!(!t.flip_h && !t.flip_v && !t.flip_d);
        }
    }
    // The tileset image has one framed square per kind in the kind's colour.
    let img = image::open(dir.join("level_tiles.png")).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (16 * 3, 16));
    assert_eq!(img.get_pixel(16 * 2 + 8, 8).0, [20, 60, 200]);
}

#[test]
fn formats_follow_the_extension() {
    assert_eq!(Format::from_path(Path::new("a/b.PNG")), Some(Format::Png));
    assert_eq!(Format::from_path(Path::new("x.tmx")), Some(Format::Tmx));
    assert_eq!(Format::from_path(Path::new("x.hmm")), None);
    let err = export::write_map(&sample(), Path::new("x.bmp"), &ExportOptions::default());
    assert!(matches!(
        err,
        Err(export::ExportError::UnknownFormat { .. })
    ));
    let msg = err.unwrap_err().to_string();
    assert!(msg.contains("x.bmp") && msg.contains(".tmx"), "{msg}");
}

/// Entities as objects: the TMX gains an object group that the `tiled` crate reads with one
/// object per entity at its tile, and the JSON an `objects` list, the rest unchanged.
#[test]
fn objects_round_trip_through_tiled_and_json() {
    let map = sample();
    let water = map.legend.id_of("water & <deep>").unwrap();
    let objects = export::objects_from_tiles(&map, |id| id == water);
    assert_eq!(objects.len(), 3);
    let dir = temp_dir("tmx-objects");
    let path = dir.join("level.tmx");
    let (iw, ih, px) = export::tileset_image(&map.legend, 16);
    export::write_rgb_png(&dir.join("level_tiles.png"), iw, ih, &px).unwrap();
    std::fs::write(
        &path,
        export::to_tmx_with_objects(&map, 16, "level_tiles.png", &objects),
    )
    .unwrap();
    let loaded = tiled::Loader::new().load_tmx_map(&path).unwrap();
    assert_eq!(loaded.layers().len(), 2);
    let group = loaded.get_layer(1).unwrap().as_object_layer().unwrap();
    let got: Vec<(String, f32, f32)> = group
        .objects()
        .map(|o| (o.name.clone(), o.x, o.y))
        .collect();
    let want: Vec<(String, f32, f32)> = objects
        .iter()
        .map(|o| (o.name.clone(), (o.x * 16) as f32, (o.y * 16) as f32))
        .collect();
    assert_eq!(got, want);
    assert_eq!(want[0], ("water & <deep>".to_string(), 48.0, 16.0));

    let plain: serde_json::Value =
        serde_json::from_str(&export::to_json(&map, JsonTiles::Names)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&export::to_json_with_objects(
        &map,
        JsonTiles::Names,
        &objects,
    ))
    .unwrap();
    assert_eq!(json["rows"], plain["rows"]);
    assert_eq!(json["objects"].as_array().unwrap().len(), 3);
    assert_eq!(json["objects"][2]["x"], 5);
    assert_eq!(json["objects"][2]["y"], 2);
    assert_eq!(json["objects"][0]["kind"], "water & <deep>");
}
