//! An artist's 16-tile corner atlas: cut in its documented order, drawn whole, written
//! beside the TMX byte for byte, and refused with a typed error at any other size.

use image::GenericImageView;
use std::path::PathBuf;
use zone_tiles::corner::atlas::{CornerAtlas, index_of, write_tmx};
use zone_tiles::corner::{self, Material, sixteen};
use zone_tiles::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("corner_atlas_{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A 4x4 atlas of `t` px tiles where every pixel differs from every other tile's.
fn art(t: u32) -> image::RgbImage {
    image::RgbImage::from_fn(4 * t, 4 * t, |x, y| {
        let i = (y / t) * 4 + x / t;
        image::Rgb([(i * 16) as u8, (x % t * 7) as u8, (y % t * 11) as u8])
    })
}

fn world(seed: u64) -> ZoneWorld {
    ZoneGenerator::new(ZoneConfig::default(), seed)
        .unwrap()
        .generate(ZoneRect::new(-7, 3, 14, 9))
        .unwrap()
}

#[test]
fn the_order_is_the_documented_one_and_the_image_round_trips() {
    // Tile i has wall at corner c (TL, TR, BL, BR) when bit c of i is set.
    for (i, corners) in sixteen(Material::Floor, Material::Wall)
        .into_iter()
        .enumerate()
    {
        assert_eq!(index_of(corners), i);
    }
    assert_eq!(index_of([Material::Floor; 4]), 0);
    assert_eq!(index_of([Material::Wall; 4]), 15);
    assert_eq!(
        index_of([
            Material::Wall,
            Material::Wall,
            Material::Floor,
            Material::Floor
        ]),
        3,
        "tile 3 is wall along its top"
    );
    let dir = temp_dir("round_trip");
    let path = dir.join("corners.png");
    art(10).save(&path).unwrap();
    let atlas = CornerAtlas::load(&path).unwrap();
    assert_eq!(atlas.size(), 10);
    assert_eq!(atlas.to_image(), art(10));
    assert_eq!(
        atlas.tile(5),
        &art(10).view(10, 10, 10, 10).to_image().into_raw()[..]
    );
}

#[test]
fn every_tile_of_the_picture_is_the_atlas_tile_of_its_corners() {
    let w = world(4);
    let keys = corner::world_keys(&w, None).unwrap();
    let atlas = CornerAtlas::from_image(&art(6)).unwrap();
    let img = atlas.paint(&keys).unwrap();
    assert_eq!(img.dimensions(), (28 * 6, 18 * 6));
    let mut used = [false; 16];
    for ((x, y), key) in keys.iter() {
        let i = index_of(key.corners);
        used[i] = true;
        let cut = image::imageops::crop_imm(&img, x as u32 * 6, y as u32 * 6, 6, 6).to_image();
        assert_eq!(cut.as_raw(), atlas.tile(i), "tile ({x}, {y})");
        // Wall corners are the zone's wall cells.
        let node = |dx: usize, dy: usize| {
            let (i, j) = (x + dx, y + dy);
            let (zx, zy) = ((i / 2).min(13), (j / 2).min(8));
            w.states.at(zx, zy).cell(i - 2 * zx, j - 2 * zy)
        };
        let bits = [node(0, 0), node(1, 0), node(0, 1), node(1, 1)];
        for (c, wall) in bits.into_iter().enumerate() {
            assert_eq!(i >> c & 1 == 1, wall, "tile ({x}, {y}) corner {c}");
        }
    }
    assert!(
        used.iter().all(|&u| u),
        "a 14x9-zone world uses all 16 tiles"
    );
}

#[test]
fn tmx_over_the_atlas_loads_in_tiled_with_the_file_copied_byte_for_byte() {
    let dir = temp_dir("tmx");
    let source = dir.join("art.png");
    art(8).save(&source).unwrap();
    let bytes = std::fs::read(&source).unwrap();
    let atlas = CornerAtlas::load(&source).unwrap();
    let keys = corner::world_keys(&world(9), None).unwrap();
    let path = dir.join("map.tmx");
    write_tmx(&keys, &atlas, &path, &source).unwrap();
    assert_eq!(std::fs::read(dir.join("map_tiles.png")).unwrap(), bytes);
    let map = tiled::Loader::new().load_tmx_map(&path).unwrap();
    assert_eq!((map.width, map.height, map.tile_width), (28, 18, 8));
    let ts = &map.tilesets()[0];
    assert_eq!((ts.tilecount, ts.columns), (16, 4));
    let wang = &ts.wang_sets[0];
    assert_eq!(wang.wang_set_type, tiled::WangSetType::Corner);
    let names: Vec<&str> = wang.wang_colors.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["wall", "floor"]);
    let layer = map.get_layer(0).unwrap().as_tile_layer().unwrap();
    for ((x, y), key) in keys.iter() {
        let tile = layer.get_tile(x as i32, y as i32).unwrap();
        assert_eq!(tile.id() as usize, index_of(key.corners));
        let id = wang.wang_tiles[&tile.id()].wang_id.0;
        let [tl, tr, bl, br] = key.corners.map(|m| if m.is_floor() { 2 } else { 1 });
        assert_eq!([id[1], id[3], id[5], id[7]], [tr, br, bl, tl], "({x}, {y})");
    }
}

#[test]
fn wrong_sizes_are_typed_errors() {
    for (w, h) in [(41, 41), (0, 0), (40, 36)] {
        let img = image::RgbImage::new(w, h);
        let e = CornerAtlas::from_image(&img).unwrap_err();
        assert!(
            matches!(e, ZoneError::CornerAtlasSize { width, height } if (width, height) == (w, h)),
            "{e}"
        );
        assert!(e.to_string().contains("4T x 4T"), "{e}");
    }
    assert!(corner::atlas::is_corner_layout(40, 40));
    assert!(!corner::atlas::is_corner_layout(32 * 9, 16 * 9));
    assert!(!corner::atlas::is_corner_layout(17 * 9, 6 * 9));
}

#[test]
fn the_builtin_corner_atlas_is_the_default_art_in_the_documented_order() {
    let atlas = CornerAtlas::builtin(24).unwrap();
    assert_eq!(atlas.size(), 12);
    let tiles = corner::CornerTiles::for_zone(24).unwrap();
    for (i, corners) in sixteen(Material::Floor, Material::Wall)
        .into_iter()
        .enumerate()
    {
        let key = corner::CornerKey {
            corners,
            variant: 0,
        };
        assert_eq!(atlas.tile(i), &tiles.tile(key)[..], "tile {i}");
    }
    let again = CornerAtlas::from_image(&atlas.to_image()).unwrap();
    assert_eq!(again, atlas);
}

#[test]
fn ldtk_over_the_atlas_places_each_tile_by_its_corners() {
    let dir = temp_dir("ldtk");
    let source = dir.join("art.png");
    art(8).save(&source).unwrap();
    let atlas = CornerAtlas::load(&source).unwrap();
    let w = world(3);
    let nodes = corner::nodes(&w, None).unwrap();
    let grid = corner::keys(&nodes, 2 * w.origin.0, 2 * w.origin.1);
    let path = dir.join("map.ldtk");
    zone_tiles::corner::atlas::write_ldtk(&nodes, &grid, &atlas, &path, &source).unwrap();
    assert_eq!(
        std::fs::read(dir.join("map_tiles.png")).unwrap(),
        std::fs::read(&source).unwrap()
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let ts = &v["defs"]["tilesets"][0];
    assert_eq!(
        (ts["__cWid"].as_u64(), ts["__cHei"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(
        (ts["pxWid"].as_u64(), ts["relPath"].as_str()),
        (Some(32), Some("map_tiles.png"))
    );
    let placed = v["levels"][0]["layerInstances"][0]["gridTiles"]
        .as_array()
        .unwrap();
    assert_eq!(placed.len(), 28 * 18);
    for p in placed {
        let (x, y) = (
            p["px"][0].as_u64().unwrap() as usize / 8,
            p["px"][1].as_u64().unwrap() as usize / 8,
        );
        let t = p["t"].as_u64().unwrap() as usize;
        assert_eq!(t, index_of(grid.at(x, y).corners));
        assert_eq!(p["src"][0].as_u64().unwrap() as usize, t % 4 * 8);
        assert_eq!(p["src"][1].as_u64().unwrap() as usize, t / 4 * 8);
    }
}
