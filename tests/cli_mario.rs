//! `levelgen mario`: writes Mario AI level text and a PNG from the embedded library, is
//! reproducible by seed, reads the reference data, and exits 2 on bad input naming the place.

use std::path::PathBuf;

mod common;
use common::{assert_success, bin, temp_dir};

fn tmp(name: &str) -> PathBuf {
    temp_dir(&format!("cli-mario-{name}"))
}

#[test]
fn writes_level_text_and_png_reproducibly() {
    let dir = tmp("basic");
    let run = |out: &PathBuf, png: &PathBuf| {
        let st = bin()
            .args(["mario", "--seed", "11", "--quiet", "--out"])
            .arg(out)
            .arg("--png")
            .arg(png)
            .status()
            .unwrap();
        assert!(st.success());
    };
    let (a, b, png) = (dir.join("a.txt"), dir.join("b.txt"), dir.join("a.png"));
    run(&a, &png);
    run(&b, &png);
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    let level = mario_rooms::MarioLevel::parse("a.txt", &text).unwrap();
    assert_eq!(level.height(), 16);
    assert_eq!(level.count(b'M'), 1);
    assert_eq!(level.count(b'F'), 1);
    assert!(mario_rooms::check(&level).playable);
    assert!(
        !text.ends_with('\n'),
        "framework files have no final newline"
    );
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
}

#[test]
fn count_height_and_generic_formats() {
    let dir = tmp("many");
    let st = bin()
        .args([
            "mario", "--seed", "3", "--count", "3", "--height", "18", "--quiet", "--out",
        ])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(st.success());
    for seed in 3..6 {
        let t = std::fs::read_to_string(dir.join(format!("mario_{seed}.txt"))).unwrap();
        assert_eq!(t.lines().count(), 18);
    }
    let png = dir.join("reach.png");
    let st = bin()
        .args(["mario", "--quiet", "--show-reach", "--png"])
        .arg(&png)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let json = dir.join("l.json");
    let st = bin()
        .args(["mario", "--quiet", "--out"])
        .arg(&json)
        .status()
        .unwrap();
    assert!(st.success());
    assert!(std::fs::read_to_string(&json).unwrap().contains("ground"));
}

#[test]
fn sequence_flag_picks_the_sections() {
    let out = bin()
        .args(["mario", "--seed", "5", "--sequence", "twist,twist"])
        .output()
        .unwrap();
    assert!(out.status.success());
    // The summary is a message: on stderr.
    let s = String::from_utf8(out.stderr).unwrap();
    assert!(s.contains("sections [twist_section, twist_section]"), "{s}");
    let out = bin()
        .args(["mario", "--sequence", "nosuchrole"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("role \"nosuchrole\"")
    );
}

#[test]
fn check_rooms_reports_unplayable_rooms() {
    let out = bin().args(["mario", "--check-rooms"]).output().unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("every middle room is playable")
    );
    let dir = tmp("rooms");
    let rooms = dir.join("rooms");
    std::fs::create_dir_all(&rooms).unwrap();
    std::fs::write(rooms.join("ok.txt"), "1\nsafe\n------\nm----f\nXXXXXX\n").unwrap();
    std::fs::write(
        rooms.join("pit.txt"),
        "1\nsafe\n--------------------\nm------------------f\nXX----------------XX\n",
    )
    .unwrap();
    let out = bin()
        .args(["mario", "--check-rooms", "--rooms"])
        .arg(&rooms)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("1 room(s) not playable") && err.contains("pit ("),
        "{err}"
    );
}

#[test]
fn prints_level_and_summary() {
    let out = bin().args(["mario", "--seed", "2"]).output().unwrap();
    assert!(out.status.success());
    // The level on stdout, its summary on stderr.
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains('M') && s.contains('F'));
    assert!(!s.contains("mario seed"), "{s}");
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.starts_with("mario seed 2: "), "{e}");
    assert!(e.contains("playable: exit column"));
    assert!(e.contains("difficulty asked 1:3, estimated "), "{e}");
    assert!(!e.contains("  set pieces: "), "{e}");
}

#[test]
fn explain_lists_sections_rooms_and_set_pieces() {
    let out = bin()
        .args([
            "mario",
            "--theme",
            "castle",
            "--difficulty",
            "5",
            "--seed",
            "3",
            "-v",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.contains("difficulty asked 5, estimated "), "{e}");
    assert!(e.contains("  sections: c_"), "{e}");
    assert!(e.contains("  rooms: c_start, "), "{e}");
    let pieces = e
        .lines()
        .find(|l| l.starts_with("  set pieces: "))
        .expect("pieces");
    // The teaching curve: the first piece is one of the rating-1 pieces.
    let first = pieces["  set pieces: ".len()..].split(" @").next().unwrap();
    assert!(
        mario_rooms::setpiece::PIECES
            .iter()
            .any(|p| p.name == first && p.rating == 1),
        "{pieces}"
    );
}

#[test]
fn bad_input_exits_2_with_location() {
    let dir = tmp("bad");
    let rooms = dir.join("rooms");
    std::fs::create_dir_all(&rooms).unwrap();
    std::fs::write(rooms.join("broken.txt"), "1\nsafe\n-----\nm--f\nXXXXX\n").unwrap();
    let out = bin()
        .arg("mario")
        .arg("--rooms")
        .arg(&rooms)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("broken.txt:4:5: ragged row"), "{err}");
    let out = bin()
        .args(["mario", "--difficulty", "hard"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .args(["mario", "--rooms", "/nonexistent/rooms"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn reads_the_reference_data() {
    let f = std::path::Path::new("../shared/fixtures/jcatlos");
    if !f.is_dir() {
        eprintln!("skipping: ../shared/fixtures not found");
        return;
    }
    let out = bin()
        .args(["mario", "--reference", "--seed", "4", "--rooms"])
        .arg(f.join("blocks"))
        .arg("--sections")
        .arg(f.join("sections"))
        .arg("--macros")
        .arg(f.join("macros"))
        .output()
        .unwrap();
    assert_success(&out, "");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("warning: probabilities sum to 1.20"), "{err}");
    assert!(err.contains("playable"));
    let strict = bin()
        .args(["mario", "--strict", "--rooms"])
        .arg(f.join("blocks"))
        .arg("--sections")
        .arg(f.join("sections"))
        .arg("--macros")
        .arg(f.join("macros"))
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(2));
}

/// An output format mario cannot write is refused before anything is generated (it was
/// refused only after the levels were made: here 2000 levels of 20,000 columns, which
/// would take many minutes), and the message names the formats.
#[test]
fn unknown_output_format_is_refused_first() {
    let dir = tmp("hmm");
    let out = bin()
        .args(["mario", "--length", "20000", "--count", "2000", "--out"])
        .arg(dir.join("level.hmm"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("mario does not write .hmm files"), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// The sample run in docs/mario.md prints what the docs show.
#[test]
fn docs_sample_output_is_current() {
    let dir = tmp("docs-sample");
    let out = bin()
        .args(["mario", "--seed", "3", "--out"])
        .arg(dir.join("level.txt"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    let summary = printed
        .lines()
        .find(|l| l.starts_with("mario seed 3:"))
        .unwrap();
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/mario.md")).unwrap();
    assert!(
        docs.contains(summary),
        "docs/mario.md should show: {summary}"
    );
}

/// `.tmx` and `.json` carry Mario's start, the exit and every enemy (piranha plants
/// included, one per pipe) as objects: a TMX object group the `tiled` crate reads with the
/// right count, named as in the legend, and a JSON `objects` list; the tile layer keeps them
/// too.
#[test]
fn tmx_and_json_carry_the_entities_as_objects() {
    let dir = tmp("objects");
    let run = |out: &PathBuf| {
        let o = bin()
            .args([
                "mario",
                "--seed",
                "1",
                "--difficulty",
                "4",
                "--quiet",
                "--out",
            ])
            .arg(out)
            .output()
            .unwrap();
        assert_success(&o, "levelgen mario --out");
    };
    let (txt, tmx, json) = (dir.join("l.txt"), dir.join("l.tmx"), dir.join("l.json"));
    for p in [&txt, &tmx, &json] {
        run(p);
    }
    let text = std::fs::read_to_string(&txt).unwrap();
    let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    let at = |x: usize, y: usize| rows[y].get(x).copied().unwrap_or(b'-');
    let enemies = text.bytes().filter(|c| b"gEGkKrRyY".contains(c)).count();
    // Our pipes are two columns wide: one plant per pipe, at its top-left T.
    let mut plants = 0;
    for (y, row) in rows.iter().enumerate() {
        for x in 0..row.len() {
            let left = x > 0 && at(x - 1, y) == b'T';
            let above = y > 0 && at(x, y - 1) == b'T';
            plants += usize::from(at(x, y) == b'T' && !left && !above);
        }
    }
    assert!(
        enemies >= 10 && plants >= 1,
        "{enemies} enemies, {plants} plants"
    );
    let expected = enemies + plants + 2;

    let map = tiled::Loader::new().load_tmx_map(&tmx).unwrap();
    let group = map.get_layer(1).unwrap().as_object_layer().unwrap();
    assert_eq!(group.objects().len(), expected);
    let named = |n: &str| group.objects().filter(|o| o.name == n).count();
    assert_eq!((named("mario start"), named("exit flag")), (1, 1));
    assert_eq!(named("piranha plant"), plants);
    assert_eq!(
        group.objects().filter(|o| o.user_type == "enemy").count(),
        enemies + plants
    );

    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let objects = doc["objects"].as_array().unwrap();
    assert_eq!(objects.len(), expected);
    let start = objects.iter().find(|o| o["kind"] == "player").unwrap();
    let (x, y) = (start["x"].as_u64().unwrap(), start["y"].as_u64().unwrap());
    assert_eq!(at(x as usize, y as usize), b'M');
    assert_eq!(doc["rows"].as_array().unwrap().len(), rows.len());
}
