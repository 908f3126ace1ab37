//! Size limits and budgets: asked sizes over the limits are errors naming the limit, found
//! before any work; levels that grow too far stop before they are built; messages quote
//! user input only as short excerpts.

use mario_rooms::limits::{MAX_ATTEMPTS, MAX_FILE_BYTES, MAX_HEIGHT, MAX_LENGTH, MAX_PIECE_SIDE};
use mario_rooms::{LevelConfig, Library, MarioError, MarioLevel, Source, Step, Strictness};
use mario_rooms::{generate, parse_room, parse_section};

fn src(name: &str, text: &str) -> Source {
    Source {
        name: name.into(),
        file: format!("{name}.txt"),
        text: text.into(),
    }
}

#[test]
fn a_length_over_the_limit_is_an_error_naming_it() {
    let lib = Library::builtin().unwrap();
    // Was: `--length 1000000 --no-check` silently stopped at about 615,000 columns.
    for check in [false, true] {
        let cfg = LevelConfig {
            length: 1_000_000,
            check_playability: check,
            ..LevelConfig::default()
        };
        let e = generate(&lib, &cfg, 1).unwrap_err();
        assert!(matches!(e, MarioError::Limit(_)), "{e}");
        assert!(e.to_string().contains("MAX_LENGTH"), "{e}");
    }
    // The limit itself is allowed, and the level is about that long.
    let cfg = LevelConfig {
        length: MAX_LENGTH,
        check_playability: false,
        ..LevelConfig::default()
    };
    let g = generate(&lib, &cfg, 1).unwrap();
    let w = g.level.width();
    assert!(
        (MAX_LENGTH * 9 / 10..=MAX_LENGTH * 11 / 10).contains(&w),
        "{w}"
    );
}

#[test]
fn height_and_attempts_over_the_limits_are_errors() {
    let lib = Library::builtin().unwrap();
    let tall = LevelConfig {
        height: MAX_HEIGHT + 1,
        ..LevelConfig::default()
    };
    let e = generate(&lib, &tall, 1).unwrap_err().to_string();
    assert!(e.contains("MAX_HEIGHT"), "{e}");
    let area = LevelConfig {
        height: MAX_HEIGHT,
        length: MAX_LENGTH,
        ..LevelConfig::default()
    };
    let e = generate(&lib, &area, 1).unwrap_err().to_string();
    assert!(e.contains("MAX_CELLS"), "{e}");
    let attempts = LevelConfig {
        max_attempts: MAX_ATTEMPTS + 1,
        ..LevelConfig::default()
    };
    let e = generate(&lib, &attempts, 1).unwrap_err().to_string();
    assert!(e.contains("MAX_ATTEMPTS"), "{e}");
}

/// A section whose exit is 4 rows above its entrance climbs with every copy: was a 2.2 GB
/// level (`--reference --length 100000`), now an error as soon as the pieces pass the
/// height limit, before the level is built.
#[test]
fn a_climbing_level_stops_at_the_height_limit() {
    let rooms = [
        src("s", "1\nstart\n--------\nM------f\nXXXXXXXX\n"),
        src("r", "1\n\n--------\nm------f\nXXXXXXXX\n"),
        src("e", "1\nfinish\n--------\nm----F--\nXXXXXXXX\n"),
    ];
    let climb = "roles: intro\na:\n---\n\
                 -------aaaaaaaa-\n\
                 -------maaaaaafF\n\
                 ------#aaaaaaaa#\n\
                 -----##--------#\n\
                 ----###--------#\n\
                 M--####--------#\n\
                 #######--------#\n";
    let sections = [src("climb", climb)];
    let lib = Library::from_sources(&rooms, &sections, &[], Strictness::Strict).unwrap();
    let cfg = LevelConfig {
        sequence: vec![Step::new("intro", &[])],
        fill: Step::new("intro", &[]),
        length: 10_000,
        check_playability: false,
        ..LevelConfig::default()
    };
    let e = generate(&lib, &cfg, 1).unwrap_err();
    assert!(matches!(e, MarioError::Limit(_)), "{e}");
    assert!(e.to_string().contains("MAX_HEIGHT"), "{e}");
    // A short climbing level is fine.
    let short = LevelConfig { length: 300, ..cfg };
    let g = generate(&lib, &short, 1).unwrap();
    assert!(g.level.height() > 16);
}

#[test]
fn oversized_bodies_and_levels_are_refused_before_they_are_built() {
    let wide = format!("1\n\n{}\nm{}f\n", "-".repeat(2000), "-".repeat(1998));
    let e = parse_room("w", "w.txt", &wide).unwrap_err().to_string();
    assert!(e.contains("MAX_PIECE_SIDE"), "{e}");
    let tall_section = format!("a:\n---\n{}", "M---F\n".repeat(MAX_PIECE_SIDE + 1));
    let e = parse_section("t", "t.txt", &tall_section)
        .unwrap_err()
        .to_string();
    assert!(e.contains("MAX_PIECE_SIDE"), "{e}");
    let level = "-".repeat(mario_rooms::limits::MAX_LEVEL_WIDTH + 1);
    let e = MarioLevel::parse("l.txt", &level).unwrap_err().to_string();
    assert!(e.contains("MAX_LEVEL_WIDTH"), "{e}");
}

#[test]
fn a_library_file_over_the_limit_is_not_read() {
    let dir = std::env::temp_dir().join(format!("mario-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.txt");
    std::fs::write(&big, vec![b'-'; MAX_FILE_BYTES as usize + 1]).unwrap();
    let e = Library::load(Some(&dir), None, None, Strictness::Lenient)
        .unwrap_err()
        .to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(e.contains("MAX_FILE_BYTES"), "{e}");
}

/// Errors quoting a hostile line stay short (they echoed up to 20 KB).
#[test]
fn errors_quote_input_as_short_excerpts() {
    let long = "z".repeat(20_000);
    let cases = [
        parse_room("r", "r.txt", &format!("safe\n{long}\n---\nm-f\n")),
        parse_room("r", "r.txt", &format!("{long}5\n")),
        parse_room("r", "r.txt", &format!("1\n\nm{{{long}=5;}}f\n")),
    ];
    let unknown_macro = [src("r", &format!("safe\nq = {long}\n---\nm-qf\n"))];
    let e = Library::from_sources(&unknown_macro, &[], &[], Strictness::Strict)
        .unwrap_err()
        .to_string();
    assert!(e.len() < 300, "{e}");
    for r in cases {
        let e = match r {
            Ok(room) => panic!("{} parsed", room.name),
            Err(e) => e.to_string(),
        };
        assert!(
            e.len() < 300,
            "{} chars: {}",
            e.len(),
            &e[..200.min(e.len())]
        );
    }
    let e = parse_section("s", "s.txt", &format!("{long}\n---\nMF\n"))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 300, "{e}");
    let e = mario_rooms::parse_macro("m.txt", &format!("m 1 1\n{long}\ng\n"))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 300, "{e}");
    let lib = Library::builtin().unwrap();
    let cfg = LevelConfig {
        sequence: vec![Step::new(&long, &[])],
        ..LevelConfig::default()
    };
    let e = generate(&lib, &cfg, 1).unwrap_err().to_string();
    assert!(e.len() < 300, "{e}");
    let cfg = LevelConfig {
        sequence: vec![Step::new("hard", &[&long])],
        ..LevelConfig::default()
    };
    let e = generate(&lib, &cfg, 1).unwrap_err().to_string();
    assert!(e.len() < 400, "{e}");
}
