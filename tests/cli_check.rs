//! `levelgen check FILE...`: validates maps, levels, scripts, templates and room files
//! without generating; findings name the file and place; exit 0 or 2.

mod common;
use common::{bin, fresh_dir};
use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fresh(name: &str) -> PathBuf {
    fresh_dir("cli-check", name)
}

fn check(files: &[&Path], extra: &[&str]) -> (Option<i32>, String) {
    let out: Output = bin().arg("check").args(files).args(extra).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    (out.status.code(), text)
}

#[test]
fn the_repositorys_inputs_all_pass() {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [
        "examples/marahel",
        "examples/heroes",
        "examples/search",
        "crates/mario-rooms/library/rooms",
        "crates/mario-rooms/library/sections",
        "crates/mario-rooms/library/macros",
    ] {
        // Inputs only: a spec's helper programs (examples/search/metrics/) are not inputs.
        for e in std::fs::read_dir(root().join(dir)).unwrap().flatten() {
            if e.path().is_file() {
                files.push(e.path());
            }
        }
    }
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let (code, text) = check(&refs, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(text.matches(": ok: ").count(), files.len(), "{text}");
    for kind in [
        "Marahel script",
        "heroes template",
        "heroes config",
        "Mario room file",
        "Mario section file",
        "Mario macro file",
        "search spec",
    ] {
        assert!(text.contains(&format!("ok: {kind}")), "{kind}: {text}");
    }
    assert!(
        text.contains("crossroads-vcmi.json: ok: heroes template, 1 VCMI template(s)"),
        "{text}"
    );
}

/// A file `check` cannot identify (a Markdown text, a Tiled map, an image) is an error that
/// says so, never checked as a guessed kind; `--kind` still checks it as one. The first
/// case's lines are the ones docs/cli.md shows.
#[test]
fn files_of_no_known_kind_are_refused_with_a_clear_message() {
    let dir = fresh("unknown");
    let (code, text) = check(&[Path::new("README.md")], &[]);
    assert_eq!(code, Some(2), "{text}");
    assert_eq!(
        text,
        "README.md: error: cannot tell what this .md file is: check reads .hmm maps, JSON \
         (Marahel scripts, heroes templates and configs, search specs) and Mario text files \
         (.txt or .lvl levels; room, section and macro files); give --kind to check it as one \
         of those\nREADME.md: unknown kind: 1 error(s), 0 warning(s)\n"
    );
    let docs = std::fs::read_to_string(root().join("docs/cli.md")).unwrap();
    assert!(
        docs.contains(text.lines().next().unwrap()),
        "docs/cli.md is stale"
    );
    let tmx = dir.join("big.tmx");
    std::fs::write(
        &tmx,
        "<?xml version=\"1.0\"?>\n<map version=\"1.10\"></map>\n",
    )
    .unwrap();
    let bare = dir.join("notes");
    std::fs::write(&bare, "<html></html>\n").unwrap();
    for f in [&tmx, &bare] {
        let (code, text) = check(&[f], &[]);
        assert_eq!(code, Some(2), "{text}");
        assert!(text.contains("cannot tell what this"), "{text}");
        assert!(!text.contains("Mario level"), "{text}");
    }
    // Told the kind, it is checked as that kind.
    let (code, text) = check(&[&tmx], &["--kind", "level"]);
    assert_eq!(code, Some(2));
    assert!(text.contains("Mario level: 1 error(s)"), "{text}");
}

/// The playability checker on the Mario AI Framework's own levels.
#[test]
fn the_mario_ai_frameworks_levels_are_playable() {
    let dir = Path::new("../shared/fixtures/mario-levels/original");
    if !dir.is_dir() {
        eprintln!("skipping: ../shared/fixtures not found");
        return;
    }
    let files: Vec<PathBuf> = (1..=5).map(|i| dir.join(format!("lvl-{i}.txt"))).collect();
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let (code, text) = check(&refs, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(text.matches("ok: Mario level, ").count(), 5, "{text}");
    assert!(
        text.contains("lvl-1.txt: ok: Mario level, 202x16, playable"),
        "{text}"
    );
}

#[test]
fn generated_files_pass_and_broken_ones_are_located() {
    let dir = fresh("generated");
    let hmm = dir.join("duel.hmm");
    let level = dir.join("level.txt");
    let st = bin()
        .args([
            "heroes",
            "examples/heroes/duel.json",
            "--size",
            "32",
            "-q",
            "--out",
        ])
        .arg(&hmm)
        .status()
        .unwrap();
    assert!(st.success());
    let st = bin()
        .args(["mario", "-q", "--out"])
        .arg(&level)
        .status()
        .unwrap();
    assert!(st.success());
    let (code, text) = check(&[&hmm, &level], &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok: Pocket Heroes map, 32x32"), "{text}");
    assert!(text.contains("level.txt: ok: Mario level"), "{text}");

    // A truncated .hmm, a ragged level, an unplayable level.
    let bytes = std::fs::read(&hmm).unwrap();
    let cut = dir.join("cut.hmm");
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let ragged = dir.join("ragged.txt");
    std::fs::write(&ragged, "M----\n----------\nXXXXX\n").unwrap();
    let pit = dir.join("pit.txt");
    std::fs::write(
        &pit,
        "------------------\nM----------------F\nXX--------------XX\n",
    )
    .unwrap();
    let (code, text) = check(&[&cut, &ragged, &pit, &level], &[]);
    assert_eq!(code, Some(2), "{text}");
    let name = |p: &Path| p.display().to_string();
    assert!(
        text.contains(&format!("{}: error: .hmm at byte", name(&cut))),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}:2:6: error: row of 10 chars", name(&ragged))),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: error: not playable", name(&pit))),
        "{text}"
    );
    // The good file is still reported fine.
    assert!(text.contains("level.txt: ok: "), "{text}");
}

#[test]
fn scripts_templates_and_room_files_name_the_place() {
    let dir = fresh("inputs");
    let script = dir.join("s.json");
    std::fs::write(
        &script,
        r#"{"metadata":{"min":"10x10","max":"10x10"},"entities":["a"],
            "explorers":[{"type":"narrow_horz","rules":["-> self(b)"]}]}"#,
    )
    .unwrap();
    let template = dir.join("t.json");
    std::fs::write(
        &template,
        r#"{"name":"t","zones":[{"surface":"GRASS","size":10,"index":0},{"surface":"WATER","size":10,"index":1}],
            "connections":[{"first":0,"second":1}]}"#,
    )
    .unwrap();
    let config = dir.join("c.json");
    std::fs::write(&config, "[]").unwrap();
    let rooms = dir.join("rooms");
    std::fs::create_dir_all(&rooms).unwrap();
    let room = rooms.join("broken.txt");
    std::fs::write(&room, "1\nsafe\n-----\nm--f\nXXXXX\n").unwrap();
    let (code, text) = check(&[&script, &template, &room], &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("error: explorers[0].rules[0]"), "{text}");
    assert!(text.contains("zones[1].surface"), "{text}");
    assert!(
        text.contains(&format!("{}:4:5: error: ragged row", room.display())),
        "{text}"
    );
    // `[]` is no config; --kind says what a file is when the content cannot.
    let (code, text) = check(&[&config], &["--kind", "config"]);
    assert_eq!(code, Some(2));
    assert!(text.contains("expected a JSON object"), "{text}");
    let (code, text) = check(&[&script], &["--kind", "template"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("heroes template: 1 error(s)"), "{text}");
}

/// A Marahel script whose work at its largest size passes an explorer's budget (a scan over
/// a 201x201 neighbourhood repeated a million times on 12x9) is flagged with a warning, and
/// one past the neighbourhood limit (401x401 on 512x512) is an error.
#[test]
fn marahel_scripts_over_their_budget_are_flagged() {
    let dir = fresh("marahel-cost");
    let matrix = |side: usize| -> String {
        let c = side / 2;
        let row = |y: usize| -> String {
            (0..side)
                .map(|x| if (x, y) == (c, c) { '3' } else { '1' })
                .collect()
        };
        (0..side).map(row).collect::<Vec<_>>().join(",")
    };
    let script = |size: &str, side: usize| {
        format!(
            r#"{{"metadata": {{"min": "{size}", "max": "{size}"}}, "entities": ["solid", "empty"],
                "neighborhoods": {{"big": "{}"}},
                "explorers": [{{"type": "narrow_horz", "region": "map",
                    "parameters": {{"repeats": "1000000"}}, "rules": ["big(solid) > 100 -> self(empty)"]}}]}}"#,
            matrix(side)
        )
    };
    let small = dir.join("small.json");
    std::fs::write(&small, script("12x9", 201)).unwrap();
    let (code, text) = check(&[&small], &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("warning: explorers[0]: asks for up to"),
        "{text}"
    );
    assert!(text.contains("counted as 632 visit(s)"), "{text}");
    assert!(text.contains("over its work budget of 1048576"), "{text}");
    let big = dir.join("big.json");
    std::fs::write(&big, script("512x512", 401)).unwrap();
    let (code, text) = check(&[&big], &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("neighborhoods.big: over a limit"), "{text}");
}
