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
