//! VCMI template conversion on synthetic templates (the features the community collection
//! does not use, and every warning).

use heroes_zones::template::{ConnectionType, Fraction, MonsterStrength, Surface, ZoneKind};
use heroes_zones::vcmi::size::{player_counts, size_tiles};
use heroes_zones::vcmi::{Options, load};
use heroes_zones::{Config, generate};

/// A template named "T" with these zones and connections (JSON fragments).
fn file(zones: &str, connections: &str, extra: &str) -> String {
    format!(
        r#"{{ "T": {{ "minSize": "m", "maxSize": "l+u", "players": "2-8", {extra}
        "zones": {{ {zones} }}, "connections": [ {connections} ] }} }}"#
    )
}

const PLAYERS: &str = r#"
    "1": { "type": "playerStart", "owner": 1, "size": 20, "playerTowns": {"castles": 1},
           "allowedTowns": ["tower"], "monsters": "weak",
           "mines": {"wood": 2, "gold": 1}, "treasure": [{"min": 500, "max": 3000, "density": 9}] },
    "2": { "type": "cpuStart", "owner": 2, "size": 20, "minesLikeZone": 3, "treasureLikeZone": 1,
           "terrainTypeLikeZone": 3 },
    "3": { "type": "treasure", "size": 30, "monsters": "strong", "matchTerrainToTown": false,
           "terrainTypes": ["sand"], "minesLikeZone": 1, "neutralTowns": {"castles": 1, "towns": 1} }"#;

#[test]
fn zones_map_onto_the_model_with_inheritance() {
    let text = file(
        PLAYERS,
        r#"{"a": "1", "b": "3", "guard": 6000}, {"a": "2", "b": "3", "guard": 0, "road": "true"}"#,
        "",
    );
    let c = load(&text, None, &Options::default()).unwrap();
    assert_eq!(c.players, 6, "8 allowed, the format has 6");
    let z = &c.template.zones;
    assert_eq!(z[0].kind, ZoneKind::PlayerStart);
    assert_eq!(z[0].castles[0].player, 0);
    assert_eq!(z[0].castles[0].fraction, Fraction::Tower);
    assert_eq!(z[0].surface, Surface::Snow, "tower's native terrain");
    assert_eq!(z[0].monsters, Some(MonsterStrength::Weak));
    assert_eq!(z[0].mines.len(), 3);
    assert_eq!(z[1].kind, ZoneKind::CpuStart, "cpuStart with an owner");
    assert_eq!(
        z[1].castles[0].player, 1,
        "a player zone always has its town"
    );
    // minesLikeZone 3 -> 1 (a chain), terrain like 3 (sand), treasure like 1.
    assert_eq!(z[1].mines, z[0].mines);
    assert_eq!(z[1].surface, Surface::Sand);
    assert_eq!(z[1].treasures, z[0].treasures);
    assert_eq!(z[2].castles.len(), 2, "a town and a castle");
    assert!(z[2].castles.iter().all(|c| c.player == -1));
    let conns = &c.template.connections;
    assert_eq!(conns[0].guard_value, Some(6000));
    assert_eq!(conns[1].guard_value, None);
    assert_eq!(conns[1].kind, ConnectionType::Road);
    // The cpuStart zone's owner is a computer-only player in the .hmm; the others are not.
    let map = generate(&c.template, &Config::default(), c.side, 1).unwrap();
    let file = heroes_zones::hmm::export(&map);
    let mask = |id: i8| {
        file.players
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.type_mask)
    };
    assert_eq!(mask(1), Some(heroes_zones::hmm::export::TYPE_MASK_COMPUTER));
    assert_eq!(mask(0), Some(heroes_zones::hmm::export::TYPE_MASK_ANY));
    let w = c.warnings.join("\n");
    for want in [
        "players: up to 8",
        "maxSize: the .hmm format has one level",
        "towns without a fort",
    ] {
        assert!(w.contains(want), "{want} missing from\n{w}");
    }
    // Fewer players: zone 2 becomes a treasure zone with a neutral town.
    let c = load(
        &text,
        None,
        &Options {
            players: Some(1),
            side: None,
        },
    )
    .unwrap_err();
    assert!(
        c.to_string()
            .contains("template allows 2, 3, 4, 5, 6, 7, 8"),
        "{c}"
    );
    let c = load(
        &text,
        None,
        &Options {
            players: Some(7),
            side: None,
        },
    )
    .unwrap_err();
    assert!(c.to_string().contains("at most 6"), "{c}");
}

#[test]
fn connection_types_and_graph_oddities_warn() {
    let text = file(
        PLAYERS,
        r#"{"a": "1", "b": "3", "guard": 6000},
           {"a": "3", "b": "1", "guard": 9000},
           {"a": "2", "b": "3", "type": "wide", "guard": 5000, "road": "false"},
           {"a": "1", "b": "2", "type": "fictive"},
           {"a": "2", "b": "1", "type": "repulsive"},
           {"a": "1", "b": "1", "guard": 100},
           {"a": "2", "b": "1", "type": "forcePortal", "guard": 3000}"#,
        r#""settings": {}, "description": "x","#,
    );
    let c = load(&text, None, &Options::default()).unwrap();
    let conns = &c.template.connections;
    assert_eq!(conns.len(), 3);
    assert_eq!(conns[0].guard_value, Some(9000), "merged, stronger guard");
    assert_eq!(conns[1].guard_value, None, "wide: no guard");
    assert!(conns[1].wide && !conns[0].wide);
    assert_eq!(conns[2].kind, ConnectionType::Portal);
    let w = c.warnings.join("\n");
    for want in [
        "merged into one passage",
        "\"fictive\" only moves zones",
        "\"repulsive\" only moves zones",
        "connected to itself",
        "road: \"false\"",
        "\"T\".\"settings\"",
    ] {
        assert!(w.contains(want), "{want} missing from\n{w}");
    }
    assert!(!w.contains("description"), "{w}");
    let map = generate(&c.template, &Config::default(), c.side, 2).unwrap();
    assert!(map.stats.left_out.is_empty());
    // The wide connection is an open border: passage cells around its passage, no guard;
    // the map stays sealed elsewhere.
    let heroes_zones::Realised::Passage([p, _]) = map.connections[1] else {
        panic!("wide connection not a passage: {:?}", map.connections[1]);
    };
    let (px, py) = ((p % map.size) as i64, (p / map.size) as i64);
    let open = (0..map.size * map.size)
        .filter(|&i| {
            let (x, y) = ((i % map.size) as i64, (i / map.size) as i64);
            (x - px).abs() <= 3 && (y - py).abs() <= 3 && map.cell(i) == heroes_zones::Cell::Passage
        })
        .count();
    assert!(open > 2, "{open} passage cells");
    assert!(heroes_zones::measure::gaps(&map).is_empty());
    assert!(heroes_zones::measure::leaks(&map).is_empty());
}

#[test]
fn unreachable_zones_and_bad_references() {
    let zones = format!(r#"{PLAYERS}, "9": {{"type": "sealed", "size": 5}}"#);
    let c = load(
        &file(&zones, r#"{"a": "1", "b": "3"}, {"a": "2", "b": "3"}"#, ""),
        None,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(c.template.zones.len(), 3);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("zones.\"9\": no connection reaches")),
        "{:?}",
        c.warnings
    );
    let e = load(
        &file(PLAYERS, r#"{"a": "1", "b": "7"}"#, ""),
        None,
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("connections[0].b: zone 7 does not exist"),
        "{e}"
    );
    let cyc = r#""1": {"type": "playerStart", "owner": 1, "minesLikeZone": 2},
                 "2": {"type": "playerStart", "owner": 2, "minesLikeZone": 1}"#;
    let e = load(
        &file(cyc, r#"{"a": "1", "b": "2"}"#, ""),
        None,
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("minesLikeZone: more than 50 steps"),
        "{e}"
    );
    let e = load(
        &file(r#""1": {"type": "castle"}"#, "", ""),
        None,
        &Options::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("\"T\".zones.\"1\".type"), "{e}");
}

#[test]
fn sizes_players_and_template_choice() {
    assert_eq!(size_tiles("l"), Some((108 * 108, false)));
    assert_eq!(size_tiles("xl+u"), Some((2 * 144 * 144, true)));
    assert_eq!(size_tiles("100x80x1"), Some((8000, false)));
    assert_eq!(size_tiles("huge"), None);
    assert_eq!(player_counts("2-4").unwrap().len(), 3);
    assert_eq!(
        player_counts("2,4,6")
            .unwrap()
            .into_iter()
            .collect::<Vec<_>>(),
        [2, 4, 6]
    );
    assert!(player_counts("4-2").is_none() && player_counts("9").is_none());
    let two = format!(
        "{{ \"A\": {0}, \"B\": {0} }}",
        r#"{"minSize": "s", "maxSize": "s", "players": "2", "zones": {"1": {"type": "playerStart", "owner": 1}, "2": {"type": "playerStart", "owner": 2}}, "connections": [{"a": "1", "b": "2"}]}"#
    );
    let e = load(&two, None, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("choose one: \"A\", \"B\""), "{e}");
    let b = load(&two, Some("B"), &Options::default()).unwrap();
    assert_eq!(b.template.name, "B");
    // s (36x36) holds no .hmm side exactly: the nearest that fits the zones.
    assert_eq!(b.side, 32);
    let e = load(&two, Some("C"), &Options::default()).unwrap_err();
    assert!(e.to_string().contains("no template \"C\""), "{e}");
}
