//! Atlases (render, cut, size checks) and exports (JSON, painted PNG, TMX with flip bits).

use image::RgbImage;
use std::path::PathBuf;
use zone_tiles::export::{black_and_white, paint, state_grid_json, to_tmx, write_tmx};
use zone_tiles::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zone-tiles-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn world(mode: Mode, seed: u64, w: u32, h: u32) -> ZoneWorld {
    let cfg = ZoneConfig {
        noise: NoiseConfig::simplex(),
        mode,
        sampling: Sampling::Stride(4),
        ..ZoneConfig::default()
    };
    ZoneGenerator::new(cfg, seed)
        .unwrap()
        .generate(ZoneRect::new(0, 0, w, h))
        .unwrap()
}

#[test]
fn atlas_round_trip_through_png() {
    let dir = temp_dir("atlas");
    for (kind, zone) in [
        (AtlasKind::Full, 30),
        (AtlasKind::Reduced, 60),
        (AtlasKind::Full, 9),
    ] {
        let atlas = Atlas::reference(kind, zone).unwrap();
        let path = dir.join(format!("atlas_{zone}.png"));
        atlas.save_png(&path).unwrap();
        let back = Atlas::load(&path, None, None).unwrap();
        assert_eq!(back.kind(), kind);
        assert_eq!(back.zone_size(), zone);
        for i in 0..kind.tile_count() {
            assert_eq!(back.tile(i), atlas.tile(i), "{kind:?} tile {i}");
        }
        assert_eq!(back, atlas);
        // Cutting with an explicit layout gives the same tiles.
        let img = atlas.to_image();
        assert_eq!(Atlas::from_image(&img, kind, zone).unwrap(), atlas);
    }
}

#[test]
fn wrong_size_atlas_is_a_clear_error() {
    let img = RgbImage::new(1920, 961);
    let err = Atlas::from_image(&img, AtlasKind::Full, 60).unwrap_err();
    assert!(matches!(
        err,
        ZoneError::AtlasSize {
            found_h: 961,
            expected_w: 1920,
            expected_h: 960,
            ..
        }
    ));
    let msg = err.to_string();
    assert!(
        msg.contains("1920x961") && msg.contains("1920x960"),
        "{msg}"
    );
    assert!(matches!(
        Atlas::from_image_auto(&RgbImage::new(100, 50)),
        Err(ZoneError::AtlasLayout { .. })
    ));
    // 32N x 16N with N not a multiple of 3 fits no zone.
    assert!(Atlas::from_image_auto(&RgbImage::new(32 * 10, 16 * 10)).is_err());
    assert!(matches!(
        Atlas::from_image(&RgbImage::new(32 * 10, 16 * 10), AtlasKind::Full, 10),
        Err(ZoneError::ZoneSizeNotDivisible { size: 10 })
    ));
    let missing = Atlas::load(std::path::Path::new("/nonexistent/atlas.png"), None, None);
    assert!(matches!(missing, Err(ZoneError::Image { .. })));
}

/// A reduced atlas whose tiles are the canonical states drawn black/white, no labels.
fn plain_reduced_atlas(zone: u32) -> Atlas {
    let (cols, rows) = AtlasKind::Reduced.grid();
    let table = SymmetryTable::get();
    let c = zone / 3;
    let img = RgbImage::from_fn(cols * zone, rows * zone, |x, y| {
        let class = ((y / zone) * cols + x / zone) as usize;
        let state = table.canonical_states()[class.min(101)];
        let on = state.cell(((x % zone) / c) as usize, ((y % zone) / c) as usize);
        image::Rgb(if on { [0, 0, 0] } else { [255, 255, 255] })
    });
    Atlas::from_image(&img, AtlasKind::Reduced, zone).unwrap()
}

#[test]
fn painting_with_flipped_reduced_tiles_reproduces_every_state() {
    let atlas = plain_reduced_atlas(12);
    for mode in [Mode::Reference, Mode::Seamless] {
        let w = world(mode, 8, 30, 20);
        assert_eq!(paint(&w, &atlas).unwrap(), black_and_white(&w, 12).unwrap());
    }
    // And a world containing all 512 states.
    let all = ZoneWorld::from_states(
        (0, 0),
        12,
        Mode::Reference,
        grid_core::Grid::from_fn(32, 16, |x, y| ZoneState::from_bits((y * 32 + x) as u16)),
    );
    assert_eq!(
        paint(&all, &atlas).unwrap(),
        black_and_white(&all, 12).unwrap()
    );
    // The full reference atlas paints each zone with its own tile.
    let full = Atlas::reference(AtlasKind::Full, 12).unwrap();
    let painted = paint(&all, &full).unwrap();
    assert_eq!(painted, full.to_image());
}

#[test]
fn json_state_grid_reads_back() {
    let w = world(Mode::Seamless, 2, 7, 4);
    let v: serde_json::Value = serde_json::from_str(&state_grid_json(&w)).unwrap();
    assert_eq!(v["mode"], "seamless");
    assert_eq!(v["width"], 7);
    let rows = v["states"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for (y, row) in rows.iter().enumerate() {
        for (x, s) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(s.as_u64().unwrap(), u64::from(w.states.at(x, y).index()));
        }
    }
}

#[test]
fn tmx_reads_back_with_tiled_and_flip_bits_rebuild_every_state() {
    let dir = temp_dir("tmx");
    let all = ZoneWorld::from_states(
        (0, 0),
        30,
        Mode::Reference,
        grid_core::Grid::from_fn(32, 16, |x, y| ZoneState::from_bits((y * 32 + x) as u16)),
    );
    for (name, w) in [("all", all), ("world", world(Mode::Reference, 4, 12, 9))] {
        let path = dir.join(format!("{name}.tmx"));
        write_tmx(&w, &path, None).unwrap();
        assert!(dir.join(format!("{name}_tiles.png")).exists());
        let map = tiled::Loader::new().load_tmx_map(&path).unwrap();
        assert_eq!(map.tilesets()[0].tilecount, 102);
        let layer = map.get_layer(0).unwrap().as_tile_layer().unwrap();
        let table = SymmetryTable::get();
        let mut flipped = 0;
        for y in 0..w.zones_high() {
            for x in 0..w.zones_wide() {
                let state = *w.states.at(x, y);
                let tile = layer.get_tile(x as i32, y as i32).unwrap();
                let t = Transform {
                    flip_h: tile.flip_h,
                    flip_v: tile.flip_v,
                    flip_d: tile.flip_d,
                };
                let expected = table.lookup(state);
                assert_eq!(tile.id(), u32::from(expected.class), "({x},{y})");
                assert_eq!(t, expected.transform);
                let rebuilt = table.reconstruct(ClassRef {
                    class: tile.id() as u8,
                    transform: t,
                });
                assert_eq!(rebuilt, state);
                flipped += usize::from(t != Transform::IDENTITY);
            }
        }
        if name == "all" {
            assert_eq!(flipped, 512 - 102, "every non-canonical state is flipped");
        }
    }
    // The raw gids carry Tiled's bits.
    let text = to_tmx(
        &ZoneWorld::from_states(
            (0, 0),
            30,
            Mode::Reference,
            grid_core::Grid::from_vec(1, 1, vec![ZoneState::from_bits(4)]).unwrap(),
        ),
        30,
        "t.png",
    );
    // State 4 (top right) is class 1 (state 1, top left) mirrored: gid 2 | H.
    assert!(text.contains(&format!("{}", 2u32 | 0x8000_0000)), "{text}");
}

#[test]
fn seamless_pictures_draw_a_shared_node_once() {
    // Left zone: right column on; right zone: left column on. They share that node column,
    // which must be as wide as a centre cell (6 px of 12), not two thirds (8 px).
    let states = grid_core::Grid::from_vec(
        2,
        1,
        vec![
            ZoneState::from_bits(4 | 32 | 256),
            ZoneState::from_bits(1 | 8 | 64),
        ],
    )
    .unwrap();
    for (mode, wall) in [(Mode::Seamless, 6), (Mode::Reference, 8)] {
        let w = ZoneWorld::from_states((0, 0), 12, mode, states.clone());
        let plain = black_and_white(&w, 12).unwrap();
        let black = (0..24)
            .filter(|&x| plain.get_pixel(x, 6).0 == [0, 0, 0])
            .count();
        assert_eq!(black, wall, "{mode:?}");
        let painted = paint(&w, &plain_reduced_atlas(12)).unwrap();
        assert_eq!(painted, plain, "{mode:?}");
    }
}

/// The wang ids of a loaded map's tileset, by tile id.
fn wang_ids(map: &tiled::Map) -> std::collections::HashMap<u32, [u8; 8]> {
    let set = &map.tilesets()[0];
    assert_eq!(set.wang_sets.len(), 1);
    let w = &set.wang_sets[0];
    assert_eq!(w.wang_set_type, tiled::WangSetType::Mixed);
    let names: Vec<&str> = w.wang_colors.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["wall", "floor"]);
    w.wang_tiles
        .iter()
        .map(|(&k, t)| (k, t.wang_id.0))
        .collect()
}

#[test]
fn tmx_carries_a_wangset_whose_colours_are_the_cells_of_every_zone() {
    let dir = temp_dir("wang");
    let w = world(Mode::Seamless, 6, 14, 10);
    let path = dir.join("wang.tmx");
    write_tmx(&w, &path, None).unwrap();
    let map = tiled::Loader::new().load_tmx_map(&path).unwrap();
    let ids = wang_ids(&map);
    assert_eq!(ids.len(), 102);
    assert!(map.tilesets()[0].transformations.hflip);
    let layer = map.get_layer(0).unwrap().as_tile_layer().unwrap();
    for ((x, y), &state) in w.states.iter() {
        let tile = layer.get_tile(x as i32, y as i32).unwrap();
        let t = Transform {
            flip_h: tile.flip_h,
            flip_v: tile.flip_v,
            flip_d: tile.flip_d,
        };
        // The class tile's colours, flipped as the map places it, are the zone's cells.
        let canon = SymmetryTable::get().canonical_states()[tile.id() as usize];
        assert_eq!(
            ids[&tile.id()],
            wang::wang_id(canon, wang::WALL, wang::FLOOR)
        );
        assert_eq!(t.apply(canon), state, "({x}, {y})");
        assert_eq!(
            wang::wang_id(t.apply(canon), 1, 2),
            wang::wang_id(state, 1, 2)
        );
    }
    // The default tileset is the built-in art, not the numbered reference drawing.
    let tiles = image::open(dir.join("wang_tiles.png")).unwrap().to_rgb8();
    let builtin = zone_tiles::procedural::ProceduralTiles::new(
        w.zone_size,
        zone_tiles::procedural::Geometry::Dual,
        zone_tiles::procedural::Style::DUNGEON,
    )
    .unwrap()
    .reduced_atlas()
    .unwrap();
    assert_eq!(tiles, builtin.to_image());
}

#[test]
fn a_full_atlas_is_used_whole_and_its_png_copied_byte_for_byte() {
    let dir = temp_dir("full-atlas");
    let source = dir.join("art.png");
    // An artist's full atlas: the reference drawing, re-encoded by another tool (extra
    // chunks or compression would survive too: the file is copied, not re-encoded).
    Atlas::reference(AtlasKind::Full, 12)
        .unwrap()
        .save_png(&source)
        .unwrap();
    let mut bytes = std::fs::read(&source).unwrap();
    // A tEXt chunk before IEND that a re-encoder would drop.
    let iend = bytes.len() - 12;
    let text = b"Comment\0by hand";
    let mut chunk = (text.len() as u32).to_be_bytes().to_vec();
    chunk.extend_from_slice(b"tEXt");
    chunk.extend_from_slice(text);
    let crc = crc32(&chunk[4..]);
    chunk.extend_from_slice(&crc.to_be_bytes());
    bytes.splice(iend..iend, chunk);
    std::fs::write(&source, &bytes).unwrap();
    let atlas = Atlas::load(&source, None, None).unwrap();
    assert_eq!(atlas.kind(), AtlasKind::Full);
    let w = world(Mode::Seamless, 2, 16, 12);
    let path = dir.join("map.tmx");
    zone_tiles::export::write_tmx_with_atlas_file(&w, &path, &atlas, &source).unwrap();
    assert_eq!(std::fs::read(dir.join("map_tiles.png")).unwrap(), bytes);
    let map = tiled::Loader::new().load_tmx_map(&path).unwrap();
    assert_eq!(map.tilesets()[0].tilecount, 512);
    let ids = wang_ids(&map);
    assert_eq!(ids.len(), 512);
    let layer = map.get_layer(0).unwrap().as_tile_layer().unwrap();
    for ((x, y), &state) in w.states.iter() {
        let tile = layer.get_tile(x as i32, y as i32).unwrap();
        assert_eq!(tile.id(), u32::from(state.index()));
        assert!(!tile.flip_h && !tile.flip_v && !tile.flip_d);
        assert_eq!(
            ids[&tile.id()],
            wang::wang_id(state, wang::WALL, wang::FLOOR)
        );
    }
}

/// CRC-32 (PNG's polynomial) of `data`.
fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}
