//! Malformed files give `file:line:col` errors saying what was expected (spec d), and the
//! parsers never panic on arbitrary input (proptest).

use mario_rooms::{Library, Source, Strictness, parse_macro, parse_room, parse_section};
use proptest::prelude::*;

fn err_room(text: &str) -> String {
    parse_room("r", "r.txt", text).unwrap_err().to_string()
}

#[test]
fn placeholder_colliding_with_a_tile_char() {
    let e = err_room("safe\nr = pipe\n---\n------\nm-rr-f\nXXXXXX\n");
    assert_eq!(
        e,
        "r.txt:2:1: placeholder `r` collides with the tile char `r` (red koopa)"
    );
    let e = err_room("safe\nm = pipe\n---\nm----f\nXXXXXX\n");
    assert!(
        e.starts_with("r.txt:2:1: placeholder `m` collides with the entrance"),
        "{e}"
    );
}

#[test]
fn ragged_rows() {
    let e = err_room("1\nsafe\n------\nm---f\nXXXXXX\n");
    assert_eq!(e, "r.txt:4:6: ragged row: 5 chars, expected 6 like line 3");
    let e = err_room("safe\n---\n------\nm----f\nXXXXXXX\n");
    assert_eq!(e, "r.txt:5:7: ragged row: 7 chars, expected 6 like line 3");
}

#[test]
fn missing_separator() {
    let e = err_room("safe\nc = coin33\n------\nm----f\n");
    assert!(
        e.starts_with("r.txt:3:1: expected a binding `X = macroName` or `---`"),
        "{e}"
    );
    let e = err_room("safe\nc = coin33\n");
    assert!(
        e.starts_with("r.txt:3:1: unexpected end of file: expected `---`"),
        "{e}"
    );
}

#[test]
fn probabilities_over_100() {
    let e = err_room("2\nsafe\n--------\nm-{g=60;k=50;}---f\nXXXXXXXX\n");
    assert_eq!(
        e,
        "r.txt:4:11: inline macro probabilities sum to 110, over 100"
    );
    let e = parse_macro("m.txt", "two 1 1\n0.7\ng\n0.4\nk\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("m.txt:4:1: probabilities sum to 1.10"), "{e}");
}

#[test]
fn inline_macro_mistakes() {
    let e = err_room("2\nsafe\nm-{gg=60;k=20;}---f\nXXXXXXXX\n");
    assert!(
        e.starts_with("r.txt:3:10: inline macro options must have equal length"),
        "{e}"
    );
    let e = err_room("2\nsafe\nm-{g=60;---f\nXXXXXXXX\n");
    assert!(e.starts_with("r.txt:3:3: unclosed `{`"), "{e}");
    let e = err_room("2\nsafe\nm-{g=sixty;}---f\nXXXXXXXX\n");
    assert!(
        e.starts_with("r.txt:3:6: expected a percent 0..=100"),
        "{e}"
    );
    let e = err_room("-3\nsafe\nm--f\n");
    assert!(
        e.starts_with("r.txt:1:1: expected a positive difficulty"),
        "{e}"
    );
}

#[test]
fn inline_macros_and_difficulty_parse() {
    let r = parse_room(
        "r",
        "r.txt",
        "2.5\nchallenge, !x\n----------\nm-{gk=30;-k=20;}-----f\nXXXXXXXXXX\n",
    )
    .unwrap();
    assert_eq!(r.difficulty, Some(2.5));
    assert_eq!(r.tags, vec!["challenge", "!x"]);
    assert_eq!(r.width(), 10);
    assert_eq!(r.entrance, Some((0, 1)));
    assert_eq!(r.exits, vec![(9, 1)]);
    assert_eq!(r.slots.len(), 1);
    assert_eq!(r.slots[0].area, Some((2, 1, 2, 1)));
}

#[test]
fn unknown_macro_and_size_mismatch_in_a_library() {
    let src = |name: &str, text: &str| Source {
        name: name.into(),
        file: format!("{name}.txt"),
        text: text.into(),
    };
    let room = src("r", "safe\nc = nothing\n---\n------\nm-cc-f\nXXXXXX\n");
    let e = Library::from_sources(std::slice::from_ref(&room), &[], &[], Strictness::Strict)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "r.txt:2:1: unknown macro \"nothing\": no macro file defines it"
    );
    let lenient = Library::from_sources(&[room], &[], &[], Strictness::Lenient).unwrap();
    assert_eq!(lenient.diagnostics.len(), 1);
    let m = src("m", "pair 3 1\n0.5\nggg\n");
    let room = src("r", "safe\nc = pair\n---\n------\nm-cc-f\nXXXXXX\n");
    let e = Library::from_sources(&[room], &[], &[m], Strictness::Strict).unwrap_err();
    assert!(
        e.to_string()
            .contains("placeholder `c` is 2x1 but macro \"pair\" is 3x1"),
        "{e}"
    );
}

#[test]
fn section_errors() {
    let e = parse_section("s", "s.txt", "a: x\n---\nMaaF\nMaaa\n").unwrap_err();
    assert!(e.to_string().starts_with("s.txt:"), "{e}");
    let e = parse_section("s", "s.txt", "a: x\n---\naaaa\n-aaF\n").unwrap_err();
    assert!(e.to_string().contains("no section entrance `M`"), "{e}");
    let e = parse_section("s", "s.txt", "ab: x\n---\nMaF\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("s.txt:1:1: expected one cell char"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parsers_never_panic(text in "[-mfMFXk#{}=;:,!0-9a-z\\n\\r ]{0,200}") {
        let _ = parse_room("r", "r.txt", &text);
        let _ = parse_section("s", "s.txt", &text);
        let _ = parse_macro("m.txt", &text);
        let _ = mario_rooms::MarioLevel::parse("l.txt", &text);
    }

    #[test]
    fn mutated_library_files_never_panic(
        pick in 0usize..64,
        pos in 0usize..2000,
        ch in prop::sample::select(vec!['-', 'm', 'f', 'M', 'F', '{', '}', '=', ';', '\n', 'X', '9', ':', '!']),
        delete in any::<bool>(),
    ) {
        let files = mario_rooms::library::BUILTIN_FILES;
        let (path, text) = files[pick % files.len()];
        let mut t: Vec<char> = text.chars().collect();
        let i = pos % (t.len() + 1);
        if delete && i < t.len() { t.remove(i); } else { t.insert(i, ch); }
        let t: String = t.into_iter().collect();
        let _ = parse_room("r", path, &t);
        let _ = parse_section("s", path, &t);
        let _ = parse_macro(path, &t);
    }
}
