//! Corner tiles on the dual grid: 16 tiles for wall and floor, seams that never show,
//! faces at every wall above floor, materials that keep the walkable map, and the TMX and
//! LDtk exports read back.

use std::path::PathBuf;
use zone_tiles::corner::export::{Tileset, to_ldtk, write_tmx};
use zone_tiles::corner::{self, CornerTiles, Material, VARIANTS};
use zone_tiles::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("corner_{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn settings(zone: u32) -> ZoneConfig {
    ZoneConfig {
        zone_size: zone,
        ..ZoneConfig::default()
    }
}

#[test]
fn a_wall_and_floor_world_uses_the_sixteen_tiles_in_every_variant() {
    let w = ZoneGenerator::new(settings(24), 3)
        .unwrap()
        .generate(ZoneRect::new(-20, 7, 30, 20))
        .unwrap();
    let grid = corner::world_keys(&w, None).unwrap();
    assert_eq!((grid.width(), grid.height()), (60, 40));
    let set = Tileset::for_grid(&grid);
    assert_eq!(set.keys.len(), 16 * VARIANTS as usize);
    assert_eq!(set.materials, vec![Material::Floor, Material::Wall]);
    let used: std::collections::HashSet<_> = grid.as_slice().iter().collect();
    assert_eq!(
        used.len(),
        48,
        "a 30x20-zone world shows all 16 tiles in 3 variants"
    );
    // Each tile's corners are the four nodes around it.
    let nodes = corner::nodes(&w, None).unwrap();
    for ((x, y), k) in grid.iter() {
        assert_eq!(k.corners[0], *nodes.at(x, y));
        assert_eq!(k.corners[3], *nodes.at(x + 1, y + 1));
        let zone = w.states.at(x / 2, y / 2);
        let wall = zone.cell(x % 2, y % 2);
        assert_eq!(k.corners[0] == Material::Wall, wall, "({x},{y})");
    }
}

#[test]
fn chunk_pictures_side_by_side_are_the_window_picture() {
    for biomes in [None, Some(BiomeConfig::default())] {
        let world = World::new(settings(12), biomes, 8).unwrap();
        let big = world
            .generator()
            .generate(ZoneRect::new(-16, 0, 32, 16))
            .unwrap();
        let keys = corner::world_keys(&big, world.biomes()).unwrap();
        for cx in [-1i64, 0] {
            let part = world.chunk_corners(cx, 0).unwrap();
            assert_eq!((part.width(), part.height()), (32, 32));
            for ((x, y), k) in part.iter() {
                assert_eq!(
                    k,
                    keys.at(x + (cx + 1) as usize * 32, y),
                    "chunk {cx} ({x},{y})"
                );
            }
        }
        let whole = world.paint_corners(&big).unwrap();
        assert_eq!(whole.dimensions(), (32 * 12, 16 * 12));
        for cx in [-1, 0] {
            let part = world.chunk_corner_image(cx, 0).unwrap();
            let x0 = ((cx + 1) * 16 * 12) as u32;
            let cut = image::imageops::crop_imm(&whole, x0, 0, 16 * 12, 16 * 12).to_image();
            assert_eq!(part, cut, "chunk {cx}, biomes {}", biomes.is_some());
        }
    }
}

/// Pixels of the face colour (a brick face: red well above green, which neither the
/// floor, the wall top nor the rim has).
fn is_face(p: &image::Rgb<u8>) -> bool {
    i32::from(p[0]) - i32::from(p[1]) >= 24
}

#[test]
fn every_wall_above_floor_shows_its_face_at_zone_borders_as_inside_zones() {
    let zone = 60;
    let world = World::new(settings(zone), None, 11).unwrap();
    let w = world
        .generator()
        .generate(ZoneRect::new(3, -4, 16, 10))
        .unwrap();
    let img = world.paint_corners(&w).unwrap();
    let nodes = corner::nodes(&w, None).unwrap();
    let t = zone / 2;
    // [inside zones, at zone borders]: (wall above floor pairs, pairs with a face below).
    let mut seen = [(0, 0); 2];
    for j in 0..nodes.height() - 1 {
        for i in 0..nodes.width() {
            if *nodes.at(i, j) != Material::Wall || *nodes.at(i, j + 1) != Material::Floor {
                continue;
            }
            let x = (i as u32 * t).min(img.width() - 1);
            let face = (j as u32 * t..(j as u32 + 1) * t).any(|y| is_face(img.get_pixel(x, y)));
            let at_border = usize::from(j % 2 == 0);
            seen[at_border].0 += 1;
            seen[at_border].1 += usize::from(face);
        }
    }
    assert!(seen[0].0 > 20 && seen[1].0 > 20, "{seen:?}");
    assert_eq!(seen[0].0, seen[0].1, "faces inside zones");
    assert_eq!(seen[1].0, seen[1].1, "faces at zone borders");
    // And no face where floor is above wall.
    let floor_above = (0..nodes.height() - 1)
        .flat_map(|j| (0..nodes.width()).map(move |i| (i, j)))
        .filter(|&(i, j)| {
            *nodes.at(i, j) == Material::Floor && *nodes.at(i, j + 1) == Material::Floor
        })
        .filter(|&(i, j)| {
            let x = (i as u32 * t).min(img.width() - 1);
            is_face(img.get_pixel(x, j as u32 * t + t / 2))
        })
        .count();
    assert_eq!(floor_above, 0, "faces in open floor");
}

#[test]
fn the_map_and_its_tiles_do_not_depend_on_the_zone_size() {
    let keys = |zone| {
        let w = ZoneGenerator::new(settings(zone), 5)
            .unwrap()
            .generate(ZoneRect::new(40, -9, 12, 8))
            .unwrap();
        corner::world_keys(&w, None).unwrap()
    };
    let at60 = keys(60);
    assert_eq!(keys(18), at60);
    assert_eq!(keys(24), at60);
    assert_eq!(CornerTiles::for_zone(24).unwrap().size(), 12);
}

#[test]
fn reference_worlds_are_refused_with_a_typed_error() {
    let cfg = ZoneConfig {
        mode: Mode::Reference,
        ..settings(12)
    };
    let w = ZoneGenerator::new(cfg, 1)
        .unwrap()
        .generate(ZoneRect::new(0, 0, 3, 3))
        .unwrap();
    assert!(matches!(
        corner::nodes(&w, None),
        Err(ZoneError::CornerTilesNeedSeamless)
    ));
}

#[test]
fn biome_materials_keep_the_walkable_map_and_shape_water_and_shores() {
    let world = World::new(
        ZoneConfig {
            connected: Connected::Windows,
            ..settings(12)
        },
        Some(BiomeConfig::default()),
        4,
    )
    .unwrap();
    let w = world
        .generator()
        .generate(ZoneRect::new(0, 0, 48, 27))
        .unwrap();
    let nodes = corner::nodes(&w, world.biomes()).unwrap();
    let mut count = std::collections::BTreeMap::new();
    for ((i, j), m) in nodes.iter() {
        let (zx, zy) = ((i / 2).min(47), (j / 2).min(26));
        let wall = w.states.at(zx, zy).cell(i - 2 * zx, j - 2 * zy);
        assert_eq!(m.is_floor(), !wall, "node ({i},{j}) is {m:?}");
        *count.entry(*m).or_insert(0) += 1;
    }
    for m in [
        Material::Water,
        Material::Sand,
        Material::Grass,
        Material::Forest,
        Material::Gravel,
        Material::Cliff,
    ] {
        assert!(count.get(&m).copied().unwrap_or(0) > 20, "{m:?}: {count:?}");
    }
    assert!(!count.contains_key(&Material::Wall) && !count.contains_key(&Material::Floor));
}

#[test]
fn tmx_loads_in_tiled_with_a_corner_wangset_of_the_node_materials() {
    let dir = temp_dir("tmx");
    for (name, biomes) in [("plain", None), ("biomes", Some(BiomeConfig::default()))] {
        let world = World::new(settings(24), biomes, 6).unwrap();
        let w = world
            .generator()
            .generate(ZoneRect::new(-5, 5, 24, 16))
            .unwrap();
        let nodes = corner::nodes(&w, world.biomes()).unwrap();
        let grid = corner::keys(&nodes, -10, 10);
        let path = dir.join(format!("{name}.tmx"));
        write_tmx(&grid, world.corner_tiles(), &path).unwrap();
        let map = tiled::Loader::new().load_tmx_map(&path).unwrap();
        assert_eq!((map.width, map.height), (48, 32));
        assert_eq!(map.tile_width, 12);
        let ts = &map.tilesets()[0];
        let set = Tileset::for_grid(&grid);
        assert_eq!(ts.tilecount as usize, set.keys.len());
        let wang = &ts.wang_sets[0];
        assert_eq!(wang.wang_set_type, tiled::WangSetType::Corner);
        let names: Vec<&str> = wang.wang_colors.iter().map(|c| c.name.as_str()).collect();
        let expected: Vec<&str> = set.materials.iter().map(|m| m.name()).collect();
        assert_eq!(names, expected);
        if biomes.is_none() {
            assert_eq!(names, ["floor", "wall"]);
            assert_eq!(ts.tilecount, 48);
        }
        let layer = map.get_layer(0).unwrap().as_tile_layer().unwrap();
        for y in 0..32 {
            for x in 0..48 {
                let tile = layer.get_tile(x as i32, y as i32).unwrap();
                let id = wang.wang_tiles[&tile.id()].wang_id.0;
                let colour = |m: Material| names.iter().position(|&n| n == m.name()).unwrap();
                // Tiled's order: top-right, bottom-right, bottom-left, top-left (odd slots).
                let corners = [(1, 0), (1, 1), (0, 1), (0, 0)];
                for (slot, (dx, dy)) in [1, 3, 5, 7].into_iter().zip(corners) {
                    let m = *nodes.at(x + dx, y + dy);
                    assert_eq!(usize::from(id[slot]), colour(m) + 1, "{name} ({x},{y})");
                }
            }
        }
    }
}

#[test]
fn ldtk_project_parses_back_with_its_layers_nodes_and_tiles() {
    let world = World::new(settings(24), Some(BiomeConfig::default()), 2).unwrap();
    let w = world
        .generator()
        .generate(ZoneRect::new(0, 0, 10, 6))
        .unwrap();
    let nodes = corner::nodes(&w, world.biomes()).unwrap();
    let grid = corner::keys(&nodes, 0, 0);
    let set = Tileset::for_grid(&grid);
    let text = to_ldtk(&nodes, &grid, &set, 12, "map_tiles.png");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["jsonVersion"], "1.5.3");
    let layers = v["defs"]["layers"].as_array().unwrap();
    assert_eq!(layers[0]["type"], "Tiles");
    assert_eq!(layers[1]["type"], "IntGrid");
    assert_eq!(
        layers[1]["intGridValues"].as_array().unwrap().len(),
        Material::ALL.len()
    );
    let ts = &v["defs"]["tilesets"][0];
    assert_eq!(ts["uid"], layers[0]["tilesetDefUid"]);
    assert_eq!(ts["relPath"], "map_tiles.png");
    let level = &v["levels"][0];
    assert_eq!(
        (level["pxWid"].as_u64(), level["pxHei"].as_u64()),
        (Some(21 * 12), Some(13 * 12))
    );
    let inst = level["layerInstances"].as_array().unwrap();
    let (tiles, ints) = (&inst[0], &inst[1]);
    assert_eq!(tiles["__pxTotalOffsetX"], 6);
    let csv = ints["intGridCsv"].as_array().unwrap();
    assert_eq!(csv.len(), 21 * 13);
    for (i, m) in nodes.as_slice().iter().enumerate() {
        let value = csv[i].as_u64().unwrap() as usize;
        assert_eq!(Material::ALL[value - 1], *m);
    }
    let placed = tiles["gridTiles"].as_array().unwrap();
    assert_eq!(placed.len(), 20 * 12);
    for p in placed {
        let (x, y) = (
            p["px"][0].as_u64().unwrap() / 12,
            p["px"][1].as_u64().unwrap() / 12,
        );
        let t = p["t"].as_u64().unwrap() as u32;
        let key = grid.at(x as usize, y as usize);
        assert_eq!(set.index_of(key), Some(t));
        assert_eq!(p["src"][0].as_u64().unwrap(), u64::from(t % 16) * 12);
        assert_eq!(p["src"][1].as_u64().unwrap(), u64::from(t / 16) * 12);
    }
}

/// Below the rock line, a cliff is exactly a wall node on the upper edge of the ridge step
/// (its altitude at or above the ridge, a 4-neighbour's below), and such ridges occur.
#[test]
fn ridges_of_cliff_follow_the_step_in_the_middle_altitudes() {
    let world = World::new(settings(12), Some(BiomeConfig::default()), 4).unwrap();
    let b = world.biomes().unwrap();
    let (ox, oy) = (-10, 6);
    let w = world
        .generator()
        .generate(ZoneRect::new(ox, oy, 48, 27))
        .unwrap();
    let nodes = corner::nodes(&w, Some(b)).unwrap();
    let ridge = corner::ridge_altitude(b);
    let half = f64::from(zone_tiles::matcher::NOISE_ZONE) / 2.0;
    let alt = |i: i64, j: i64| b.altitude((2 * ox + i) as f64 * half, (2 * oy + j) as f64 * half);
    let mut ridges = 0;
    for ((i, j), m) in nodes.iter() {
        let (i, j) = (i as i64, j as i64);
        let a = alt(i, j);
        if a > b.config().rock_above || a < b.config().water_below {
            continue; // high ground is all cliff, low ground water
        }
        let step = a >= ridge
            && [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .iter()
                .any(|(dx, dy)| alt(i + dx, j + dy) < ridge);
        if *m == Material::Cliff || *m == Material::Forest {
            assert_eq!(*m == Material::Cliff, step, "node ({i},{j}) at {a}");
            ridges += usize::from(step);
        }
    }
    assert!(ridges > 20, "{ridges} ridge nodes");
}

/// A world keeps the tiles it drew: pictures painted from its warm cache, in any order and
/// from clones, are the pictures drawn afresh.
#[test]
fn pictures_from_the_tile_cache_are_the_fresh_pictures() {
    let world = World::new(settings(18), Some(BiomeConfig::default()), 8).unwrap();
    let clone = world.clone();
    for (cx, cy) in [(0, 0), (3, -2), (0, 0)] {
        let painted = clone.chunk_corner_image(cx, cy).unwrap();
        let w = world
            .generator()
            .generate(zone_tiles::stream::chunk_rect(cx, cy))
            .unwrap();
        let fresh = world
            .corner_tiles()
            .paint_world(&w, world.biomes())
            .unwrap();
        assert_eq!(painted, fresh, "chunk ({cx}, {cy})");
        assert_eq!(world.paint_corners(&w).unwrap(), fresh);
    }
}
