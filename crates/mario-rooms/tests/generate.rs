//! Generation from the embedded library: playability, determinism, the golden level, and
//! assembly errors.

use mario_rooms::{
    LevelConfig, Library, MarioError, MarioLevel, Source, Step, Strictness, check, generate,
};

fn lib() -> Library {
    Library::builtin().expect("the embedded library loads strictly")
}

#[test]
fn builtin_library_has_the_promised_pieces() {
    let lib = lib();
    assert!(lib.rooms.len() >= 40, "{} rooms", lib.rooms.len());
    assert!(lib.sections.len() >= 6);
    assert!(lib.diagnostics.is_empty());
    for role in ["intro", "hard", "twist", "divide", "safe"] {
        assert!(
            lib.sections.iter().any(|s| s.has_role(role)),
            "no {role} section"
        );
    }
    for tag in [
        "start",
        "finish",
        "safe",
        "challenge",
        "divide",
        "twist",
        "bonus",
        "sky",
    ] {
        assert!(lib.rooms.iter().any(|r| r.has_tag(tag)), "no {tag} room");
    }
    // Several exits: a divide cell and rooms with two exits.
    let split = lib.section("divide_split").unwrap();
    assert!(split.cells.iter().any(|c| c.exits.len() == 2));
    assert!(lib.rooms.iter().filter(|r| r.exits.len() == 2).count() >= 4);
    // Both formats and inline macros are used.
    assert!(
        lib.rooms
            .iter()
            .any(|r| r.format == mario_rooms::RoomFormat::Reference)
    );
    assert!(lib.rooms.iter().filter(|r| !r.slots.is_empty()).count() >= 20);
}

#[test]
fn builtin_list_matches_the_library_dir() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("library");
    let mut on_disk: Vec<String> = Vec::new();
    let mut subs: Vec<String> = ["rooms", "sections", "macros"].map(String::from).to_vec();
    for theme in &mario_rooms::THEMES[1..] {
        subs.push(format!("themes/{theme}/rooms"));
        subs.push(format!("themes/{theme}/sections"));
    }
    for sub in subs {
        for e in std::fs::read_dir(dir.join(&sub)).unwrap() {
            on_disk.push(format!(
                "{sub}/{}",
                e.unwrap().file_name().to_string_lossy()
            ));
        }
    }
    on_disk.sort();
    let embedded: Vec<String> = mario_rooms::library::BUILTIN_FILES
        .iter()
        .map(|(p, _)| p.to_string())
        .collect();
    assert_eq!(on_disk, embedded);
}

#[test]
fn two_hundred_seeds_are_all_playable() {
    let lib = lib();
    let cfg = LevelConfig::default();
    let mut first_try = 0;
    for seed in 0..200 {
        let g = generate(&lib, &cfg, seed).unwrap();
        let l = &g.level;
        assert_eq!(l.height(), 16, "seed {seed}");
        assert_eq!(l.count(b'M'), 1);
        assert_eq!(l.count(b'F'), 1);
        assert!(g.report.as_ref().unwrap().playable);
        // The checker agrees on the written-out and re-read text.
        let again = MarioLevel::parse("re-read", &l.to_text()).unwrap();
        assert!(check(&again).playable, "seed {seed}");
        first_try += u32::from(g.attempts == 1);
    }
    assert!(
        first_try >= 190,
        "{first_try}/200 playable on the first assembly"
    );
}

#[test]
fn same_seed_same_level_and_seeds_differ() {
    let lib = lib();
    let cfg = LevelConfig::default();
    let a = generate(&lib, &cfg, 42).unwrap();
    let b = generate(&lib, &cfg, 42).unwrap();
    let c = generate(&lib, &cfg, 43).unwrap();
    assert_eq!(a.level, b.level);
    assert_eq!(a.rooms, b.rooms);
    assert_ne!(a.level, c.level);
}

#[test]
fn golden_level_for_seed_7() {
    let g = generate(&lib(), &LevelConfig::default(), 7).unwrap();
    let golden = include_str!("golden/default_seed7.txt");
    assert_eq!(g.level.to_text(), golden);
}

#[test]
fn length_and_height_and_difficulty_are_honoured() {
    let lib = lib();
    let cfg = LevelConfig {
        length: 1000,
        height: 20,
        ..LevelConfig::default()
    };
    let g = generate(&lib, &cfg, 5).unwrap();
    assert!(
        (900..1400).contains(&g.level.width()),
        "{}",
        g.level.width()
    );
    assert_eq!(g.level.height(), 20);
    // An asked length shorter than the default sequence stops it early: `--length 200`
    // makes levels of about SMB's length (150-200 columns), not the sequence's ~350.
    let short = LevelConfig {
        length: 200,
        difficulty: Some((1.0, 1.0)),
        ..LevelConfig::default()
    };
    let widths: Vec<usize> = (0..10)
        .map(|seed| generate(&lib, &short, seed).unwrap().level.width())
        .collect();
    let mean = widths.iter().sum::<usize>() / widths.len();
    assert!(widths.iter().all(|w| (140..300).contains(w)), "{widths:?}");
    assert!((170..240).contains(&mean), "{widths:?}");
    let easy = LevelConfig {
        difficulty: Some((1.0, 1.0)),
        ..LevelConfig::default()
    };
    let hard = LevelConfig {
        difficulty: Some((4.0, 4.0)),
        ..LevelConfig::default()
    };
    let mean = |cfg: &LevelConfig| -> f32 {
        (0..20)
            .map(|s| generate(&lib, cfg, s).unwrap().difficulty)
            .sum::<f32>()
            / 20.0
    };
    let (e, h) = (mean(&easy), mean(&hard));
    assert!(
        h > e + 0.3,
        "difficulty target has no effect: easy {e}, hard {h}"
    );
}

#[test]
fn nothing_fits_names_the_cell_and_tags() {
    let lib = lib();
    let cfg = LevelConfig {
        sequence: vec![Step::new("hard", &["unicorn"])],
        ..LevelConfig::default()
    };
    let e = generate(&lib, &cfg, 1).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, MarioError::NoFit { .. }), "{msg}");
    assert!(msg.contains("cell `") && msg.contains("unicorn"), "{msg}");
    let cfg = LevelConfig {
        sequence: vec![Step::new("nonexistent", &[])],
        ..LevelConfig::default()
    };
    assert!(
        generate(&lib, &cfg, 1)
            .unwrap_err()
            .to_string()
            .contains("role \"nonexistent\"")
    );
}

#[test]
fn an_impossible_room_is_rejected_and_reported() {
    // A library whose only middle room has a 12-wide pit: every attempt fails the check
    // (without a difficulty: the shaping would give the pit stepping stones).
    let src = |name: &str, text: &str| Source {
        name: name.into(),
        file: format!("{name}.txt"),
        text: text.into(),
    };
    let rooms = [
        src("s", "1\nstart\n--------\nM------f\nXXXXXXXX\n"),
        src(
            "pit",
            "1\n\n--------------------\nm------------------f\nXXXX------------XXXX\n",
        ),
        src("e", "1\nfinish\n--------\nm----F--\nXXXXXXXX\n"),
    ];
    let sections = [src(
        "one",
        "roles: intro\na:\n---\naaaaaaaaaaaaaaaaaaaa\nMaaaaaaaaaaaaaaaaaaF\naaaaaaaaaaaaaaaaaaaa\n",
    )];
    let lib = Library::from_sources(&rooms, &sections, &[], Strictness::Strict).unwrap();
    let cfg = LevelConfig {
        sequence: vec![Step::new("intro", &[])],
        max_attempts: 3,
        difficulty: None,
        ..LevelConfig::default()
    };
    let e = generate(&lib, &cfg, 9).unwrap_err();
    assert!(
        matches!(e, MarioError::Unplayable { attempts: 3, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("no further than column"), "{e}");
    let unchecked = LevelConfig {
        check_playability: false,
        ..cfg
    };
    let g = generate(&lib, &unchecked, 9).unwrap();
    assert!(!check(&g.level).playable);
    assert!(g.level.to_text().contains("XXXX------------XXXX"));
}

/// Every middle room of the embedded library, alone between two strips of ground, is
/// playable for many macro draws (so a level can only fail where rooms meet).
#[test]
fn every_builtin_room_is_playable_on_its_own() {
    let lib = lib();
    let failures = mario_rooms::playability::unplayable_rooms(&lib, 16);
    assert!(failures.is_empty(), "{failures:#?}");
    let trials = lib
        .rooms
        .iter()
        .filter_map(|r| mario_rooms::playability::trial_level(r, &lib.macros, 0))
        .count();
    assert!(trials >= 38, "{trials}");
    // A room with an impossible pit fails its trial.
    let pit = mario_rooms::parse_room(
        "pit",
        "pit.txt",
        "1\n\n--------------------\nm------------------f\nXX----------------XX\n",
    )
    .unwrap();
    let level = mario_rooms::playability::trial_level(&pit, &[], 0).unwrap();
    assert!(!check(&level).playable);
    assert_eq!(level.count(b'M'), 1);
}

/// Long levels are checked window by window: whatever that check passes, the whole-level
/// search passes too, and a dressed level repaired where it failed is playable.
#[test]
fn windowed_check_agrees_with_the_whole_search() {
    use mario_rooms::playability::check_whole;
    let lib = lib();
    let mut passed = 0;
    for seed in 0..8 {
        let cfg = LevelConfig {
            length: 1500,
            difficulty: Some((1.0, 5.0)),
            check_playability: false,
            ..LevelConfig::default()
        };
        let level = generate(&lib, &cfg, seed).unwrap().level;
        let windowed = check(&level);
        if windowed.playable {
            passed += 1;
            assert!(check_whole(&level).playable, "seed {seed}");
        }
        let checked = LevelConfig {
            check_playability: true,
            ..cfg
        };
        let g = generate(&lib, &checked, seed).unwrap();
        assert!(g.report.unwrap().playable && check_whole(&g.level).playable);
    }
    assert!(passed > 0);
}

/// A section with two exits is followed along both: the level goes on from the lower one,
/// and a `route` room continues the upper one over the next section (its air erases
/// nothing), where the routes rejoin.
#[test]
fn every_exit_of_a_branching_section_is_followed() {
    let src = |name: &str, text: &str| Source {
        name: name.into(),
        file: format!("{name}.txt"),
        text: text.into(),
    };
    let rooms = [
        src("s", "1\nstart\n------\n------\n------\nM----f\nXXXXXX\n"),
        src("low", "1\nlow\nm----f\nXXXXXX\n"),
        src("high", "1\nhigh\nm----f\nSSSSSS\n"),
        src(
            "fan",
            "1\nfan\n------\n------\n-----f\n------\n------\n------\n------\n------\nm----f\nXXXXXX\n",
        ),
        src("bridge", "1\nroute\nm---f\nSSSS-\n"),
        src(
            "e",
            "1\nfinish\n---o--\n------\n------\n------\nm-F---\nXXXXXX\n",
        ),
    ];
    let fork = "roles: intro\na: fan\nb: high\nc: low\n---\n\
                aaaaaabbbbbb\n\
                aaaaaabbbbbb\n\
                aaaaafmbbbbF\n\
                aaaaaabbbbbb\n\
                aaaaaacccccc\n\
                aaaaaacccccc\n\
                aaaaaacccccc\n\
                aaaaaacccccc\n\
                MaaaafmccccF\n\
                aaaaaacccccc\n";
    let sections = [src("fork", fork)];
    let lib = Library::from_sources(&rooms, &sections, &[], Strictness::Strict).unwrap();
    let cfg = LevelConfig {
        sequence: vec![Step::new("intro", &[])],
        difficulty: None,
        ..LevelConfig::default()
    };
    let g = generate(&lib, &cfg, 1).unwrap();
    assert!(g.rooms.contains(&"bridge".to_string()), "{:?}", g.rooms);
    let text = g.level.to_text();
    let rows: Vec<&str> = text.lines().collect();
    // The upper route: the high room's bricks and then the bridge's, over the finish room,
    // whose coin (under the bridge's air) survives and whose air does not erase the bricks
    // (the finish room's ground is five rows below them, so they leave no hole).
    let bricks = rows.iter().position(|r| r.contains("SSSSSSSSSS"));
    assert!(bricks.is_some(), "{text}");
    assert!(
        text.contains('o'),
        "the bridge's air erased the finish room's coin:\n{text}"
    );
    assert!(g.report.unwrap().playable, "{text}");
    // Without a route room the extra exit cannot be followed: an error says so.
    let no_route: Vec<Source> = rooms
        .iter()
        .filter(|r| r.name != "bridge")
        .cloned()
        .collect();
    let lib = Library::from_sources(&no_route, &sections, &[], Strictness::Strict).unwrap();
    let e = generate(&lib, &cfg, 1).unwrap_err().to_string();
    assert!(e.contains("needs a room tagged `route`"), "{e}");
}
