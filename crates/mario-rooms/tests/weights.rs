//! Per-room and per-section weights and must-include rules (`weight=N`, `must=yes` on a
//! room's tags line; `weight: N`, `must: yes` in a section's header).

use mario_rooms::{
    LevelConfig, Library, Source, Step, Strictness, generate, parse_room, parse_section,
};

fn src(name: &str, text: &str) -> Source {
    Source {
        name: name.into(),
        file: format!("{name}.txt"),
        text: text.into(),
    }
}

fn builtin(prefix: &str) -> Vec<Source> {
    mario_rooms::library::BUILTIN_FILES
        .iter()
        .filter(|(p, _)| p.starts_with(prefix))
        .map(|(p, t)| src(p.rsplit('/').next().unwrap().trim_end_matches(".txt"), t))
        .collect()
}

#[test]
fn attributes_parse_and_mistakes_name_the_line() {
    let r = parse_room(
        "r",
        "r.txt",
        "2\nsafe, weight=5, must=yes\n----\nm--f\nXXXX\n",
    )
    .unwrap();
    assert_eq!(
        (r.weight, r.must, r.tags.clone()),
        (5, true, vec!["safe".to_string()])
    );
    let r = parse_room("r", "r.txt", "safe, weight=2\n---\nm--f\nXXXX\n").unwrap();
    assert_eq!((r.weight, r.must), (2, false), "reference format");
    let plain = parse_room("r", "r.txt", "1\nsafe\nm--f\nXXXX\n").unwrap();
    assert_eq!((plain.weight, plain.must), (1, false));
    for (text, needle) in [
        (
            "1\nweight=0\nm--f\nXXXX\n",
            "r.txt:2:1: expected a weight 1..=1000",
        ),
        ("1\nweight=many\nm--f\nXXXX\n", "found \"many\""),
        (
            "1\nmust=maybe\nm--f\nXXXX\n",
            "expected `must=yes` or `must=no`",
        ),
        (
            "1\ncolour=red\nm--f\nXXXX\n",
            "unknown attribute \"colour\"",
        ),
    ] {
        let e = parse_room("r", "r.txt", text).unwrap_err().to_string();
        assert!(e.contains(needle), "{e}");
    }
    let s = parse_section(
        "s",
        "s.txt",
        "roles: intro\nweight: 7\nmust: yes\na:\n---\naaaa\nMaaF\naaaa\n",
    )
    .unwrap();
    assert_eq!((s.weight, s.must), (7, true));
    let e = parse_section("s", "s.txt", "weight: -1\na:\n---\naaaa\nMaaF\naaaa\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("s.txt:1:1: expected a weight"), "{e}");
}

/// Two rooms fit the only cell: the weight-9 one is drawn about nine times as often.
#[test]
fn weights_steer_the_draw() {
    let rooms = [
        src("s", "1\nstart\n--------\nM------f\nXXXXXXXX\n"),
        src("light", "1\n\n--------\nm-----of\nXXXXXXXX\n"),
        src("heavy", "1\nweight=9\n--------\nm-----gf\nXXXXXXXX\n"),
        src("e", "1\nfinish\n--------\nm----F--\nXXXXXXXX\n"),
    ];
    let sections = [src(
        "one",
        "roles: intro\na:\n---\naaaaaaaa\nMaaaaaaF\naaaaaaaa\n",
    )];
    let lib = Library::from_sources(&rooms, &sections, &[], Strictness::Strict).unwrap();
    let cfg = LevelConfig {
        sequence: vec![Step::new("intro", &[])],
        difficulty: None,
        check_playability: false,
        ..LevelConfig::default()
    };
    let heavy = (0..300)
        .filter(|&s| {
            generate(&lib, &cfg, s)
                .unwrap()
                .rooms
                .contains(&"heavy".into())
        })
        .count();
    assert!((240..=290).contains(&heavy), "{heavy} of 300");
}

/// A must-include room appears in every level; one that fits nowhere is an error.
#[test]
fn must_include_rooms_and_sections_are_placed() {
    let mut rooms = builtin("rooms/");
    rooms.push(src(
        "signpost",
        "1\nsafe, must=yes\n--------------------\n--------------------\n--------------------\n\
         -------ooooo--------\n------S?S?S---------\n--------------------\n\
         m------------------f\nXXXXXXXXXXXXXXXXXXXX\n",
    ));
    let mut sections = builtin("sections/");
    for s in &mut sections {
        if s.name == "stair_valley" {
            s.text = format!("must: yes\n{}", s.text);
        }
    }
    let macros = builtin("macros/");
    let lib = Library::from_sources(&rooms, &sections, &macros, Strictness::Strict).unwrap();
    for seed in 0..20 {
        let g = generate(&lib, &LevelConfig::default(), seed).unwrap();
        assert!(
            g.rooms.contains(&"signpost".into()),
            "seed {seed}: {:?}",
            g.rooms
        );
        assert!(g.sections.contains(&"stair_valley".into()), "seed {seed}");
        assert!(g.report.unwrap().playable);
    }
    rooms.push(src("giant", "1\nmust=yes\n------------------------------------------\nm----------------------------------------f\nXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n"));
    let lib = Library::from_sources(&rooms, &sections, &macros, Strictness::Strict).unwrap();
    let cfg = LevelConfig {
        max_attempts: 3,
        ..LevelConfig::default()
    };
    let e = generate(&lib, &cfg, 1).unwrap_err().to_string();
    assert!(
        e.contains("must-include room \"giant\" fits no cell"),
        "{e}"
    );
}
