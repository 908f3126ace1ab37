//! Layout quality: hubs centred and touching all their neighbours (stars of 8 leaves, and of
//! 16 leaves at 128 and 256 over 8 seeds, with no forced portal), no zone thinner than 3 cells, the largest community template
//! without crossing connections.

use heroes_zones::map::HeroesMap;
use heroes_zones::{Config, Template, generate, measure};

/// A star: zone 0 is the hub, zones 1..=leaves hang off it.
fn star(leaves: usize) -> Template {
    let zones: Vec<String> = (0..=leaves)
        .map(|i| format!(r#"{{"surface":"GRASS","size":10,"index":{i}}}"#))
        .collect();
    let conns: Vec<String> = (1..=leaves)
        .map(|i| format!(r#"{{"first":0,"second":{i}}}"#))
        .collect();
    Template::from_json(&format!(
        r#"{{"name":"star","zones":[{}],"connections":[{}]}}"#,
        zones.join(","),
        conns.join(",")
    ))
    .unwrap()
}

/// Cells of zones thinner than 3 cells there: cells in no 3x3 square of their own zone
/// (computed here, independently of the crate).
fn thin_cells(map: &HeroesMap) -> usize {
    let n = map.size;
    let z = |x: usize, y: usize| *map.zone_of.get(x, y).unwrap();
    let mut cov = vec![false; n * n];
    for y in 0..n - 2 {
        for x in 0..n - 2 {
            if (0..3).all(|dy| (0..3).all(|dx| z(x + dx, y + dy) == z(x, y))) {
                for dy in 0..3 {
                    for dx in 0..3 {
                        cov[(y + dy) * n + x + dx] = true;
                    }
                }
            }
        }
    }
    for i in (0..n * n).filter(|&i| !cov[i]).take(2) {
        let (x, y) = (i % n, i / n);
        eprintln!("thin at ({x},{y})");
        for yy in y.saturating_sub(3)..(y + 4).min(n) {
            let row: String = (x.saturating_sub(3)..(x + 4).min(n))
                .map(|xx| char::from(b'a' + z(xx, yy) % 26))
                .collect();
            eprintln!("  {row}");
        }
    }
    cov.iter().filter(|&&c| !c).count()
}

fn hub_offset(map: &HeroesMap) -> f64 {
    let c = map.zones[0].centre;
    let mid = map.size as f64 / 2.0;
    ((c.0 - mid).powi(2) + (c.1 - mid).powi(2)).sqrt() / map.size as f64
}

#[test]
fn stars_lay_out_with_a_centred_hub_and_no_forced_portal() {
    for (leaves, size, seeds) in [(8, 128, 3), (16, 128, 8), (16, 256, 8)] {
        let t = star(leaves);
        for seed in 1..=seeds {
            let map = generate(&t, &Config::default(), size, seed).unwrap();
            assert_eq!(
                map.stats.forced_portals, 0,
                "{leaves}-leaf star, seed {seed}: {} forced portals",
                map.stats.forced_portals
            );
            assert!(map.stats.left_out.is_empty());
            let aspect = measure::aspect_ratios(&map)
                .into_iter()
                .fold(1.0f64, f64::max);
            eprintln!(
                "{leaves}-leaf star {size} seed {seed}: zone aspect ratio at most {aspect:.2}"
            );
            // Sixteen leaves of a 17th of the map each touching a hub of the same size are
            // wedges (a ring of round leaves would need about 2.5 times the hub's
            // circumference): up to 3.52:1 as partitioned, brought to 3:1 by step 3c
            // (`reshape`); 8 leaves stay below 2.
            assert!(
                aspect <= measure::MAX_ASPECT,
                "{leaves}-leaf star {size} seed {seed}: aspect {aspect:.2}"
            );
            assert_not_thin(&map, &format!("{leaves}-leaf star {size} seed {seed}"));
            assert!(
                hub_offset(&map) < 0.1,
                "{leaves}-leaf star seed {seed}: hub off centre by {:.2} of the side",
                hub_offset(&map)
            );
        }
    }
}

/// The text of `examples/heroes/<name>` in the levelgen repository (outside this package).
fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/heroes")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Asserts no cell of `map` lies in a part of its zone thinner than 3 cells, counted here and
/// by the crate's measure.
fn assert_not_thin(map: &HeroesMap, what: &str) {
    let thin = thin_cells(map);
    assert_eq!(thin, heroes_zones::measure::thin_cells(map), "{what}");
    assert_eq!(
        thin, 0,
        "{what}: {thin} cells where a zone is thinner than 3 cells"
    );
}

/// No zone is thinner than 3 cells anywhere: every zone cell lies in a 3x3 square of its
/// zone (so the runs of its zone through it, across and down, are at least 3 long). Checked
/// on a 4x8 grid graph and an 8-leaf star (where slivers appeared), the shipped examples and
/// the reference's zones25 and zones9 templates (when the fixtures are present). The VCMI
/// sample is checked in `tests/vcmi.rs`.
#[test]
fn no_zone_is_thinner_than_three_cells() {
    // A 4x8 grid graph of equal zones at 128 (thin slivers appeared here).
    let (w, h) = (4, 8);
    let zones: Vec<String> = (0..w * h)
        .map(|i| format!(r#"{{"surface":"GRASS","size":10,"index":{i}}}"#))
        .collect();
    let mut conns = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x + 1 < w {
                conns.push(format!(r#"{{"first":{i},"second":{}}}"#, i + 1));
            }
            if y + 1 < h {
                conns.push(format!(r#"{{"first":{i},"second":{}}}"#, i + w));
            }
        }
    }
    let t = Template::from_json(&format!(
        r#"{{"name":"grid","zones":[{}],"connections":[{}]}}"#,
        zones.join(","),
        conns.join(",")
    ))
    .unwrap();
    for seed in 1..=3 {
        let map = generate(&t, &Config::default(), 128, seed).unwrap();
        assert_not_thin(&map, &format!("4x8 grid seed {seed}"));
    }
    for seed in 1..=2 {
        let map = generate(&star(8), &Config::default(), 128, seed).unwrap();
        assert_not_thin(&map, &format!("8-leaf star seed {seed}"));
    }
    for name in ["duel.json", "four-kingdoms.json"] {
        let t = Template::from_json(&example(name)).unwrap();
        for (size, seed) in [(64, 1), (64, 2), (128, 1), (128, 2), (128, 3)] {
            let map = generate(&t, &Config::default(), size, seed).unwrap();
            assert_not_thin(&map, &format!("{name} {size} seed {seed}"));
        }
    }
    let korge = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fixtures/korge/templates");
    for name in ["zones25", "zones9"] {
        let Ok(text) = std::fs::read_to_string(korge.join(format!("{name}.json"))) else {
            eprintln!("skipping {name}: the shared fixtures are absent");
            continue;
        };
        let t = Template::from_json(&text).unwrap();
        for seed in 1..=8 {
            let map = generate(&t, &Config::default(), 128, seed).unwrap();
            assert_not_thin(&map, &format!("{name} 128 seed {seed}"));
        }
    }
}
