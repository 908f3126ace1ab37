//! Whole-pipeline properties, validation errors, round trip, golden map, fuzz.

use heroes_zones::hmm::{Catalog, HmmFile, export, validate};
use heroes_zones::map::{Cell, ObjectKind};
use heroes_zones::{Config, HeroesError, Template, generate};
use proptest::prelude::*;
use std::sync::LazyLock;

/// The text of `examples/heroes/<name>` in the levelgen repository, read at run time: the
/// examples live outside this package.
fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/heroes")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (these tests read the levelgen repository's examples/)",
            path.display()
        )
    })
}

static DUEL: LazyLock<String> = LazyLock::new(|| example("duel.json"));
static FOUR: LazyLock<String> = LazyLock::new(|| example("four-kingdoms.json"));

fn err_of(json: &str, size: u32) -> String {
    let t = Template::from_json(json).unwrap();
    match generate(&t, &Config::default(), size, 1) {
        Err(e @ (HeroesError::Invalid { .. } | HeroesError::Many(_))) => e.to_string(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

const Z: &str = r#"{"surface":"GRASS","size":10,"index":IDX}"#;

fn zones(idx: &[i32]) -> String {
    idx.iter()
        .map(|i| Z.replace("IDX", &i.to_string()))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn validation_names_the_zone_or_connection() {
    let e = err_of(
        &format!(
            r#"{{"name":"t","zones":[{}],"connections":[{{"first":0,"second":1}}]}}"#,
            zones(&[0, 0])
        ),
        64,
    );
    assert!(e.contains("duplicate zone index 0"), "{e}");
    let e = err_of(
        &format!(
            r#"{{"name":"t","zones":[{}],"connections":[{{"first":0,"second":1}}]}}"#,
            zones(&[0, 5])
        ),
        64,
    );
    assert!(e.contains("zones[1].index"), "{e}");
    let e = err_of(
        &format!(
            r#"{{"name":"t","zones":[{}],"connections":[{{"first":0,"second":7}}]}}"#,
            zones(&[0, 1])
        ),
        64,
    );
    assert!(
        e.contains("connections[0]: connection to missing zone 7"),
        "{e}"
    );
    let e = err_of(
        &format!(
            r#"{{"name":"t","zones":[{}],"connections":[{{"first":0,"second":1}}]}}"#,
            zones(&[0, 1, 2])
        ),
        64,
    );
    assert!(e.contains("zones[2]: zone 2 is unreachable"), "{e}");
    let e = err_of(
        r#"{"name":"t","zones":[{"surface":"PAVEMENT","size":1,"index":0}],"connections":[]}"#,
        64,
    );
    assert!(e.contains("zones[0].surface"), "{e}");
    let many: Vec<i32> = (0..25).collect();
    let conns: Vec<String> = (1..25)
        .map(|i| format!(r#"{{"first":0,"second":{i}}}"#))
        .collect();
    let e = err_of(
        &format!(
            r#"{{"name":"t","zones":[{}],"connections":[{}]}}"#,
            zones(&many),
            conns.join(",")
        ),
        32,
    );
    assert!(e.contains("more than a 32x32 map can hold"), "{e}");
    let many: Vec<i32> = (0..300).collect();
    let e = err_of(
        &format!(
            r#"{{"name":"t","zones":[{}],"connections":[]}}"#,
            zones(&many)
        ),
        256,
    );
    assert!(e.contains("300 zones, at most 64"), "{e}");
    let conns: Vec<String> = (1..8)
        .map(|i| format!(r#"{{"first":0,"second":{i},"type":"PORTAL"}}"#))
        .collect();
    let e = err_of(
        &format!(
            r#"{{"name":"t","zones":[{}],"connections":[{}]}}"#,
            zones(&[0, 1, 2, 3, 4, 5, 6, 7]),
            conns.join(",")
        ),
        128,
    );
    assert!(e.contains("7 PORTAL connections"), "{e}");
}

#[test]
fn generated_maps_are_sound() {
    let config = Config::from_json(&example("config.json")).unwrap();
    for (json, size) in [(&*DUEL, 64), (&*DUEL, 128), (&*FOUR, 128), (&*FOUR, 256)] {
        let t = Template::from_json(json).unwrap();
        let map = generate(&t, &config, size, 11).unwrap();
        let n = map.size;
        assert!(
            map.stats.max_area_error <= 0.15,
            "{}",
            map.stats.max_area_error
        );
        for (z, info) in map.zones.iter().enumerate() {
            assert!(
                (info.area as f64 - info.target_area as f64).abs()
                    <= 0.15 * info.target_area as f64,
                "zone {z}"
            );
        }
        // All castles of the template are placed; players follow owners.
        let castles = map
            .objects
            .iter()
            .filter(|o| matches!(o.kind, ObjectKind::Castle { .. }))
            .count();
        assert!(castles >= t.zones.iter().map(|z| z.castles.len()).sum::<usize>());
        // Roads have no dangling ends: a road cell with at most one road/passage neighbour
        // (of 8: roads step diagonally) touches an object entrance or is a passage end.
        for y in 0..n {
            for x in 0..n {
                if map.cell(y * n + x) != Cell::Road {
                    continue;
                }
                let nb: Vec<Cell> = [
                    (0i64, -1i64),
                    (-1, 0),
                    (1, 0),
                    (0, 1),
                    (-1, -1),
                    (1, -1),
                    (-1, 1),
                    (1, 1),
                ]
                .iter()
                .filter_map(|&(dx, dy)| {
                    let (a, b) = (x as i64 + dx, y as i64 + dy);
                    (a >= 0 && b >= 0 && (a as usize) < n && (b as usize) < n)
                        .then(|| map.cell(b as usize * n + a as usize))
                })
                .collect();
                let roads = nb
                    .iter()
                    .filter(|c| matches!(c, Cell::Road | Cell::Passage | Cell::Guard))
                    .count();
                assert!(
                    roads >= 2 || nb.contains(&Cell::Entrance),
                    "dangling road at ({x}, {y})"
                );
            }
        }
        if let Ok(dir) = std::env::var("HEROES_DOC_PNG") {
            std::fs::write(
                format!("{dir}/heroes-{}-{size}.png", map.name.replace(' ', "-")),
                heroes_zones::preview::png(&map).unwrap(),
            )
            .unwrap();
        }
        let file = export(&map);
        let back = HmmFile::parse(&file.to_bytes()).unwrap();
        assert_eq!(back, file);
        let r = validate(&back, &Catalog::builtin());
        assert!(r.ok(), "{:?}", r.errors);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let unreachable = heroes_zones::hmm::reachability(&back, &Catalog::builtin());
        assert!(unreachable.is_empty(), "{unreachable:?}");
        assert_eq!(
            back.players.len(),
            t.zones
                .iter()
                .flat_map(|z| &z.castles)
                .filter(|c| c.player >= 0)
                .count()
        );
    }
}

#[test]
fn same_seed_same_map_and_golden_hash() {
    let t = Template::from_json(&DUEL).unwrap();
    let a = export(&generate(&t, &Config::default(), 64, 5).unwrap()).to_bytes();
    let b = export(&generate(&t, &Config::default(), 64, 5).unwrap()).to_bytes();
    assert_eq!(a, b);
    let c = export(&generate(&t, &Config::default(), 64, 6).unwrap()).to_bytes();
    assert_ne!(a, c);
    let hash = grid_core::rng::fnv1a(&a.iter().map(|b| format!("{b:02x}")).collect::<String>());
    assert_eq!((a.len(), hash), GOLDEN, "golden map changed");
}

#[test]
fn six_portal_pairs_use_two_way_then_one_way_ids() {
    let zones: Vec<String> = (0..7)
        .map(|i| {
            format!(
                r#"{{"surface":"GRASS","size":10,"index":{i},"castles":[{{"player":{}}}]}}"#,
                if i < 2 { i } else { -1 }
            )
        })
        .collect();
    let mut conns: Vec<String> = (0..6)
        .map(|i| format!(r#"{{"first":{i},"second":{}}}"#, i + 1))
        .collect();
    for (a, b) in [(0, 2), (0, 3), (0, 4), (1, 3), (1, 4), (2, 6)] {
        conns.push(format!(r#"{{"first":{a},"second":{b},"type":"PORTAL"}}"#));
    }
    let t = Template::from_json(&format!(
        r#"{{"name":"p","zones":[{}],"connections":[{}]}}"#,
        zones.join(","),
        conns.join(",")
    ))
    .unwrap();
    let map = generate(&t, &Config::default(), 128, 3).unwrap();
    let file = export(&map);
    let ids: Vec<&str> = file
        .visitables
        .iter()
        .map(|v| v.id.as_str())
        .filter(|id| id.starts_with("teleport"))
        .collect();
    for id in [
        "teleport1",
        "teleport2",
        "teleport3",
        "teleport_red_ent",
        "teleport_green_ext",
        "teleport_magenta_ent",
        "teleport_yellow_ext",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    assert_eq!(ids.len(), 3 * 2 + 3 * 4);
    let cat = Catalog::builtin();
    assert!(validate(&file, &cat).ok());
    assert!(heroes_zones::hmm::reachability(&file, &cat).is_empty());
    // A seventh portal pair has no ids left: validation refuses it.
    let mut more = conns.clone();
    more.push(r#"{"first":5,"second":0,"type":"PORTAL"}"#.into());
    let t = Template::from_json(&format!(
        r#"{{"name":"p","zones":[{}],"connections":[{}]}}"#,
        zones.join(","),
        more.join(",")
    ))
    .unwrap();
    assert!(
        generate(&t, &Config::default(), 128, 3)
            .unwrap_err()
            .to_string()
            .contains("7 PORTAL connections")
    );
}

#[test]
fn hmm_reachability_finds_a_walled_in_castle() {
    let t = Template::from_json(&DUEL).unwrap();
    let mut file = export(&generate(&t, &Config::default(), 64, 2).unwrap());
    let cat = Catalog::builtin();
    assert!(heroes_zones::hmm::reachability(&file, &cat).is_empty());
    // Ring the second castle with 1x1 rocks.
    let (cx, cy) = file.castles[1].pos;
    for dy in -4i16..=3 {
        for dx in -4i16..=4 {
            if dy == -4 || dy == 3 || dx.abs() == 4 {
                file.decorations
                    .push(((cx + dx, cy + dy), "rocks_2".into()));
            }
        }
    }
    let u = heroes_zones::hmm::reachability(&file, &cat);
    assert!(u.iter().any(|s| s.starts_with("castle")), "{u:?}");
}

const GOLDEN: (usize, u64) = (23841, 4392326583504877429);

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn fuzz_templates_never_panic(n in 1usize..7, sizes in proptest::collection::vec(1i32..60, 7), edges in proptest::collection::vec((0i32..8, 0i32..8, 0u8..3), 0..10), size in 0usize..3) {
        let zs: Vec<String> = (0..n).map(|i| format!(r#"{{"surface":"DIRT","size":{},"index":{i},"castles":[{{"player":{}}}]}}"#, sizes[i], (i as i32 % 3) - 1)).collect();
        let cs: Vec<String> = edges.iter().map(|(a, b, k)| format!(r#"{{"first":{a},"second":{b},"type":"{}"}}"#, ["ROAD", "REGULAR", "PORTAL"][*k as usize])).collect();
        let json = format!(r#"{{"name":"f","zones":[{}],"connections":[{}]}}"#, zs.join(","), cs.join(","));
        let t = Template::from_json(&json).unwrap();
        let _ = generate(&t, &Config::default(), [32, 64, 128][size], 9);
    }

    #[test]
    fn fuzz_mutated_template_never_panics(edits in proptest::collection::vec((0usize..4000, 0usize..16), 1..6), size in 0usize..3) {
        // Mutate digits and signs of a real template: still JSON, usually still a template,
        // with odd sizes, indices, ranges, levels and players.
        let mut bytes = DUEL.as_bytes().to_vec();
        let digits: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i].is_ascii_digit()).collect();
        for (at, v) in edits {
            let i = digits[at % digits.len()];
            bytes[i] = b"0123456789-9-999"[v];
        }
        if let Ok(t) = Template::from_json(&String::from_utf8_lossy(&bytes)) {
            let _ = generate(&t, &Config::default(), [32, 64, 128][size], 4);
        }
    }

    #[test]
    fn fuzz_json_and_hmm_bytes_never_panic(s in ".{0,200}", bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = Template::from_json(&s);
        let _ = Config::from_json(&s);
        let mut b = vec![0x78, 0x52, 0x23, 0x76, 0x19, 0, 0, 0, 0];
        b.extend(bytes);
        let _ = HmmFile::parse(&b);
    }
}

/// Forests are decorated with plants and mountains with rocks (where the surface has both):
/// single-cell avatars on forest cells are plants, on mountains and ridges not; multi-cell
/// pieces are mountains, rocks, mires or lakes (the catalogue has no multi-cell tree).
#[test]
fn forests_get_plants_and_mountains_get_rocks() {
    use heroes_zones::Feature;
    use heroes_zones::hmm::ids::{is_plant, singles};
    let t = Template::from_json(&FOUR).unwrap();
    let map = generate(&t, &Config::default(), 128, 3).unwrap();
    let (mut forest, mut mountain) = (0, 0);
    for d in &map.decorations {
        let (x, y) = (d.x as usize, d.y as usize);
        if d.multi_cell() {
            assert!(!is_plant(d.id), "{} is a multi-cell plant", d.id);
            continue;
        }
        let one = singles(map.surface_at(x, y));
        let both = one.iter().any(|a| is_plant(a)) && one.iter().any(|a| !is_plant(a));
        match map.feature(y * map.size + x) {
            Feature::Forest if both => {
                forest += 1;
                assert!(is_plant(d.id), "{} on a forest at ({x}, {y})", d.id);
            }
            Feature::Mountain | Feature::Ridge if both => {
                mountain += 1;
                assert!(!is_plant(d.id), "{} on a mountain at ({x}, {y})", d.id);
            }
            _ => {}
        }
    }
    assert!(
        forest >= 5 && mountain > 20,
        "{forest} forest, {mountain} mountain"
    );
}

/// The JSON document holds every object and obstacle, reads back, and a broken one is
/// refused naming the problem.
#[test]
fn json_document_reads_back() {
    use heroes_zones::document::{read_json, to_json};
    let t = Template::from_json(&DUEL).unwrap();
    let map = generate(&t, &Config::default(), 64, 3).unwrap();
    let text = to_json(&map);
    let s = read_json(&text).unwrap();
    assert_eq!((s.size, s.zones), (64, map.zones.len()));
    let count = |k: &str| s.objects.iter().find(|o| o.0 == k).map_or(0, |o| o.1);
    assert_eq!(count("obstacle"), map.decorations.len());
    let all: usize = s.objects.iter().map(|o| o.1).sum();
    assert_eq!(all, map.objects.len() + map.decorations.len());
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["zoneOf"][0][0] = serde_json::json!(200);
    doc["format"] = serde_json::json!("other");
    let e = read_json(&doc.to_string()).unwrap_err();
    assert!(e.iter().any(|p| p.contains("zoneOf (0, 0)")), "{e:?}");
    assert!(e.iter().any(|p| p.contains("format")), "{e:?}");
    assert!(read_json("[1]").is_err());
}
