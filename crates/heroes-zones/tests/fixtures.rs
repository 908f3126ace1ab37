//! Compatibility with the reference's files: every fixture template generates; every real
//! `.hmm` map parses, round-trips byte for byte and passes the validator.

use heroes_zones::hmm::{Catalog, HmmFile, export, validate};
use heroes_zones::{Config, Template, generate, measure};
use std::path::PathBuf;

fn fixtures() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: ../shared/fixtures not found");
        None
    }
}

#[test]
fn every_fixture_template_loads_and_generates() {
    let Some(f) = fixtures() else { return };
    let config =
        Config::from_json(&std::fs::read_to_string(f.join("korge/resources/config.json")).unwrap())
            .unwrap();
    assert_eq!(config.map_size, 128);
    assert!(!config.add_roads);
    let catalog = Catalog::builtin();
    for name in [
        "templates/zones9.json",
        "templates/zones25.json",
        "templates/original.json",
        "resources/template.json",
    ] {
        let t = Template::from_json(&std::fs::read_to_string(f.join("korge").join(name)).unwrap())
            .unwrap();
        for (size, cfg) in [(128, config.clone()), (256, Config::default())] {
            let map = generate(&t, &cfg, size, 42).unwrap_or_else(|e| panic!("{name} {size}: {e}"));
            assert!(
                map.stats.max_area_error <= 0.15,
                "{name} {size}: area error {}",
                map.stats.max_area_error
            );
            let file = export(&map);
            let bytes = file.to_bytes();
            let back = HmmFile::parse(&bytes).unwrap();
            assert_eq!(back, file);
            let report = validate(&back, &catalog);
            assert!(report.ok(), "{name} {size}: {:?}", report.errors);
            if std::env::var("HEROES_PNG").is_ok() {
                let stem = name.replace('/', "_");
                std::fs::write(
                    format!("/tmp/heroes_{stem}_{size}.png"),
                    heroes_zones::preview::png(&map).unwrap(),
                )
                .unwrap();
            }
        }
    }
}

#[test]
fn fixture_zone_graphs_are_laid_out_without_crossings() {
    let Some(f) = fixtures() else { return };
    for (name, want) in [("zones9", 0), ("zones25", 0), ("original", 0)] {
        let t = Template::from_json(
            &std::fs::read_to_string(f.join(format!("korge/templates/{name}.json"))).unwrap(),
        )
        .unwrap();
        let sizes: Vec<f64> = t.zones.iter().map(|z| z.size as f64).collect();
        let edges: Vec<(usize, usize)> = t
            .connections
            .iter()
            .map(|c| (c.first as usize, c.second as usize))
            .collect();
        for seed in 0..10 {
            let l = heroes_zones::layout::layout(
                &sizes,
                &edges,
                256.0,
                &mut grid_core::Seed(seed).rng(),
            );
            let x = heroes_zones::layout::crossings(&l.centres, &edges);
            eprintln!("{name} seed {seed}: {x} crossings, score {:.2}", l.score);
            assert!(x <= want, "{name} seed {seed}: {x} crossings");
        }
    }
}

#[test]
fn every_real_map_parses_round_trips_and_validates() {
    let Some(f) = fixtures() else { return };
    let catalog = Catalog::from_hmm_xml(&std::fs::read_to_string(f.join("pph/hmm.xml")).unwrap());
    assert!(catalog.avatars.len() > 300, "{}", catalog.avatars.len());
    let index = std::fs::read_to_string(f.join("pph/maps/INDEX.txt")).unwrap();
    let mut count = 0;
    let (mut on_obstacle, mut other, mut unreachable_total) = (0, Vec::new(), 0);
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let bytes = std::fs::read(f.join("pph/maps").join(cols[0])).unwrap();
        let m = HmmFile::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
        assert_eq!(format!("{:#x}", m.version), cols[1], "{}", cols[0]);
        assert_eq!(m.side().to_string(), cols[2]);
        assert_eq!(m.map_name(), cols[3]);
        let counts = [
            m.players.len(),
            m.heroes.len(),
            m.items.len(),
            m.guards.len(),
            m.events.len(),
            m.visitables.len(),
            m.ownerables.len(),
            m.castles.len(),
            m.decorations.len(),
            m.paths.len(),
        ];
        let want: Vec<usize> = cols[4..14].iter().map(|c| c.parse().unwrap()).collect();
        assert_eq!(counts.to_vec(), want, "{}", cols[0]);
        assert_eq!(m.to_bytes(), bytes, "{}: round trip differs", cols[0]);
        // Known gap: our pass map (object/decoration footprints from hmm.xml) flags some map
        // items of the shipped maps as standing on obstacles, which PH's editor accepts; every
        // other check must pass on every real map.
        let report = validate(&m, &catalog);
        let unreachable = heroes_zones::hmm::reachability(&m, &catalog);
        unreachable_total += unreachable.len();
        if !unreachable.is_empty() {
            eprintln!(
                "{}: {} objects unreachable from the first castle, e.g. {}",
                cols[0],
                unreachable.len(),
                unreachable[0]
            );
        }
        for e in &report.errors {
            if e.contains("on a cell with an obstacle") {
                on_obstacle += 1;
                eprintln!("{}: {e}", cols[0]);
            } else {
                other.push(format!("{}: {e}", cols[0]));
            }
        }
        count += 1;
    }
    assert_eq!(count, 39);
    // Items or guards on cells our pass map blocks (object footprints and decoration
    // PassModifiers from hmm.xml): 11 in 7 maps, e.g. a map item on obelisk1's own cell in
    // Armageddons_Blade. Whether PH's editor flags all of them is not verified.
    assert_eq!(on_obstacle, 11);
    // The hand-made maps are almost fully connected: 9 objects in 7 maps cannot be reached
    // from the first castle on foot or by teleport (signs and mines across water, which needs
    // boats, or walled in).
    assert_eq!(unreachable_total, 9);
    // The one real defect the validator finds in the shipped maps: a misspelt artifact id
    // (hmm.xml has `PendantOfOmniscience`).
    // Also two cells holding two map items/guards each. PH's ValidateMap reports these too.
    assert_eq!(
        other,
        [
            "Swampy.hmm: artifact \"PedantOfOmniscience\" at (114, 79) is not in the catalog",
            "The_Labyrynth.hmm: two map items or guards at (28, 13)",
            "Winter_Wars.hmm: two map items or guards at (2, 37)",
        ]
    );
}

#[test]
fn shipped_table_matches_hmm_xml() {
    let Some(f) = fixtures() else { return };
    let xml = Catalog::from_hmm_xml(&std::fs::read_to_string(f.join("pph/hmm.xml")).unwrap());
    let ours = Catalog::builtin();
    let norm = |v: &Vec<(i16, i16)>| {
        let mut v = v.clone();
        v.sort_unstable();
        v
    };
    for (id, cells) in &ours.ownerables {
        assert_eq!(norm(cells), norm(&xml.ownerables[id]), "{id}");
    }
    for (id, cells) in &ours.castles {
        assert_eq!(norm(cells), norm(&xml.castles[id]), "{id}");
    }
    for (id, cells) in &ours.visitables {
        assert_eq!(norm(cells), norm(&xml.visitables[id]), "{id}");
    }
    for (id, k) in &ours.teleports {
        assert_eq!(xml.teleports[id], *k, "{id}");
    }
    for (id, cells) in &ours.avatars {
        assert_eq!(norm(cells), norm(&xml.avatars[id]), "{id}");
    }
    for id in ours.paths.keys() {
        assert_eq!(xml.paths[id], 4, "{id}");
    }
    for a in &ours.artifacts {
        assert!(xml.artifacts.contains(a), "{a}");
    }
}

#[test]
fn fixture_templates_over_seeds_report() {
    let Some(f) = fixtures() else { return };
    for name in ["zones9", "zones25", "original"] {
        let t = Template::from_json(
            &std::fs::read_to_string(f.join(format!("korge/templates/{name}.json"))).unwrap(),
        )
        .unwrap();
        for size in [128, 256] {
            let mut worst_area: f64 = 0.0;
            let mut forced = Vec::new();
            for seed in 0..8 {
                let map = generate(&t, &Config::default(), size, seed)
                    .unwrap_or_else(|e| panic!("{name} {size} seed {seed}: {e}"));
                worst_area = worst_area.max(map.stats.max_area_error);
                forced.push(map.stats.forced_portals);
            }
            eprintln!(
                "{name} {size}: worst area error {:.1}%, forced portals per seed {forced:?}",
                worst_area * 100.0
            );
            assert!(worst_area <= 0.15);
            // The equal-size templates realise every connection as a passage; "original"
            // (sizes 20/30/50) still needs a few portals where small zones do not touch.
            let allowed = if name == "original" { 3 } else { 0 };
            assert!(
                forced.iter().all(|&p| p <= allowed),
                "{name} {size}: {forced:?}"
            );
        }
    }
}

/// Zones of the KorGE fixture templates at 64, 128 and 256, seeds 1-8: none longer than 3:1
/// ([`measure::aspect_ratios`]).
#[test]
fn fixture_zones_are_at_most_3_to_1() {
    let Some(f) = fixtures() else { return };
    for name in ["zones9", "zones25", "original"] {
        let t = Template::from_json(
            &std::fs::read_to_string(f.join(format!("korge/templates/{name}.json"))).unwrap(),
        )
        .unwrap();
        let (mut worst, mut long) = (1.0f64, Vec::new());
        for size in [64, 128, 256] {
            for seed in 1..=8 {
                let map = generate(&t, &Config::default(), size, seed)
                    .unwrap_or_else(|e| panic!("{name} {size} seed {seed}: {e}"));
                let aspect = measure::aspect_ratios(&map)
                    .into_iter()
                    .fold(1.0f64, f64::max);
                worst = worst.max(aspect);
                if aspect > measure::MAX_ASPECT {
                    long.push(format!("{size} seed {seed}: {aspect:.2}"));
                }
            }
        }
        eprintln!(
            "{name} at 64, 128, 256, seeds 1-8: zone aspect ratio at most {worst:.2}; above 3: {long:?}"
        );
        assert!(
            long.is_empty() && worst <= measure::MAX_ASPECT,
            "{name}: {long:?}"
        );
    }
}
