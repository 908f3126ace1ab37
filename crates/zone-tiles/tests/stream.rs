//! Streaming: a chunk is a pure function of (settings, seed, cx, cy), fits its neighbours,
//! and biome painting of chunks equals the painting of the window they make up.

use zone_tiles::stream::chunk_rect;
use zone_tiles::*;

fn settings() -> ZoneConfig {
    ZoneConfig {
        mode: Mode::Seamless,
        connected: Connected::Regions,
        zone_size: 12,
        ..ZoneConfig::default()
    }
}

#[test]
fn chunks_are_pure_and_equal_the_window_they_cut() {
    let world = World::new(settings(), Some(BiomeConfig::default()), 21).unwrap();
    let again = World::new(settings(), Some(BiomeConfig::default()), 21).unwrap();
    let big = world
        .generator()
        .generate(ZoneRect::new(-16, -32, 48, 32))
        .unwrap();
    let refs = world.tile_refs(&big);
    for (cx, cy) in [(-1, -2), (0, -2), (1, -1)] {
        let chunk = world.chunk(cx, cy).unwrap();
        assert_eq!(chunk, again.chunk(cx, cy).unwrap());
        let rect = chunk_rect(cx, cy);
        assert_eq!(big.sub_window(rect).unwrap(), chunk.states);
        let (dx, dy) = ((rect.x + 16) as usize, (rect.y + 32) as usize);
        for ((x, y), t) in chunk.tiles.iter() {
            assert_eq!(*refs.at(dx + x, dy + y), *t);
        }
    }
}

#[test]
fn chunk_pictures_side_by_side_are_the_window_picture() {
    let world = World::new(settings(), Some(BiomeConfig::default()), 5).unwrap();
    let big = world
        .generator()
        .generate(ZoneRect::new(16, 0, 32, 16))
        .unwrap();
    let whole = world.paint(&big).unwrap();
    let z = 12 * 16;
    for (i, cx) in [1, 2].into_iter().enumerate() {
        let part = world.chunk_image(cx, 0).unwrap();
        let cut = image::imageops::crop_imm(&whole, i as u32 * z, 0, z, z).to_image();
        assert_eq!(part, cut, "chunk {cx}");
    }
}

#[test]
fn three_terrains_with_their_own_tiles_and_the_combined_tileset() {
    let world = World::new(settings(), Some(BiomeConfig::default()), 8).unwrap();
    let big = world
        .generator()
        .generate(ZoneRect::new(0, 0, 120, 60))
        .unwrap();
    let refs = world.tile_refs(&big);
    let mut seen = [0usize; 3];
    for t in refs.as_slice() {
        seen[t.terrain.unwrap().index()] += 1;
        assert!(t.index() < 4 * 3 * 512);
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    let set = world.tileset_image().unwrap();
    assert_eq!(set.dimensions(), (32 * 12, 4 * 16 * 12));
    // Each terrain's full-wall tile has its own colour.
    let wall = |slot: u32| {
        let i = slot * 512 + 511;
        set.get_pixel((i % 32) * 12 + 6, (i / 32) * 12 + 6).0
    };
    let colours = [wall(0), wall(1), wall(2), wall(3)];
    for a in 0..4 {
        for b in a + 1..4 {
            assert_ne!(colours[a], colours[b]);
        }
    }
}

#[test]
fn tmx_with_the_builtin_tiles_reads_back_with_terrains() {
    let world = World::new(settings(), Some(BiomeConfig::default()), 8).unwrap();
    let w = world
        .generator()
        .generate(ZoneRect::new(0, 0, 60, 30))
        .unwrap();
    let dir = std::env::temp_dir().join(format!("zone-tiles-builtin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("world.tmx");
    export::write_tmx_builtin(&w, &world, &path).unwrap();
    assert!(dir.join("world_tiles.png").exists());
    let map = tiled::Loader::new().load_tmx_map(&path).unwrap();
    // Compact: 102 class tiles per terrain, 17 across (not 4 x 512 directional tiles).
    let set = &map.tilesets()[0];
    assert_eq!((set.tilecount, set.columns), (306, 17));
    let image = image::open(dir.join("world_tiles.png")).unwrap();
    assert_eq!(image.width(), 17 * 12);
    assert_eq!(image.height(), 18 * 12);
    let wangset = &set.wang_sets[0];
    assert_eq!(wangset.wang_colors.len(), 6);
    let tiled::LayerType::Tiles(layer) = map.get_layer(0).unwrap().layer_type() else {
        panic!("not a tile layer")
    };
    let refs = world.tile_refs(&w);
    let table = SymmetryTable::get();
    for y in 0..30 {
        for x in 0..60 {
            let t = layer.get_tile(x, y).unwrap();
            let r = refs.at(x as usize, y as usize);
            let terrain = r.terrain.unwrap().index() as u32;
            let flips = Transform {
                flip_h: t.flip_h,
                flip_v: t.flip_v,
                flip_d: t.flip_d,
            };
            assert_eq!(t.id() / 102, terrain);
            let class = ClassRef {
                class: (t.id() % 102) as u8,
                transform: flips,
            };
            assert_eq!(table.reconstruct(class), r.state);
            // The tile's wang colours are its terrain's wall and floor at its cells.
            let canon = table.canonical_states()[(t.id() % 102) as usize];
            let id = wangset.wang_tiles[&t.id()].wang_id.0;
            let (wall, floor) = (2 * terrain as u8 + 1, 2 * terrain as u8 + 2);
            assert_eq!(id, zone_tiles::wang::wang_id(canon, wall, floor));
        }
    }
}
