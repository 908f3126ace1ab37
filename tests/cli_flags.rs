//! One flag scheme across subcommands (docs/cli.md): `--size WxH`, batch files named
//! `NAME_SEED.EXT` (previews too), a directory in the generator's own format, format
//! conflicts found before generating, summaries on stderr, `-q` never hiding the output,
//! `-v` for per-file lines, and runs that would make nothing rejected.

mod common;
use common::{bin, example, fresh_dir, names};
use std::path::PathBuf;
use std::process::Output;

fn fresh(name: &str) -> PathBuf {
    fresh_dir("cli-flags", name)
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn assert_bad_input(out: &Output, needle: &str, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(err.contains(needle), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// `heroes --count 2 --png p.png` wrote both previews to `p.png`; now `p_SEED.png`.
#[test]
fn batch_previews_are_named_by_seed() {
    let dir = fresh("previews");
    let png = dir.join("p.png").display().to_string();
    let duel = example("heroes/duel.json");
    let out = run(&[
        "heroes", &duel, "--size", "32", "--count", "2", "--png", &png, "-q",
    ]);
    assert!(out.status.success());
    assert_eq!(names(&dir), vec!["p_0.png", "p_1.png"]);
    let a = std::fs::read(dir.join("p_0.png")).unwrap();
    let b = std::fs::read(dir.join("p_1.png")).unwrap();
    assert_eq!(&a[..4], b"\x89PNG");
    assert_ne!(a, b);
    // A --png that is not a .png is rejected before generating.
    let out = run(&[
        "heroes",
        &duel,
        "--png",
        &dir.join("p.txt").display().to_string(),
    ]);
    assert_bad_input(&out, "expected a .png file", "--png p.txt");
}

/// A directory `--out` uses the generator's own format: heroes `.hmm` (it wrote `.txt`),
/// mario and marahel `.txt`, zones `.png`.
#[test]
fn a_directory_gets_the_generators_own_format() {
    let dir = fresh("dirs");
    let duel = example("heroes/duel.json");
    let cave = example("marahel/cave.json");
    let cases: [(&[&str], &str); 4] = [
        (&["heroes", &duel, "--size", "32"], "duel_0.hmm"),
        (&["mario"], "mario_0.txt"),
        (&["marahel", &cave], "cave_0.txt"),
        (&["zones", "--size", "3x2"], "zones_0.png"),
    ];
    for (args, first) in cases {
        let d = dir.join(args[0]);
        let out = bin()
            .args(args)
            .args(["--count", "2", "--out"])
            .arg(format!("{}/", d.display()))
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        let files = names(&d);
        assert_eq!(files.len(), 2, "{args:?}: {files:?}");
        assert_eq!(files[0], first, "{args:?}");
    }
    let hmm = std::fs::read(dir.join("heroes/duel_1.hmm")).unwrap();
    assert_eq!(heroes_zones::hmm::HmmFile::parse(&hmm).unwrap().side(), 32);
    let level = std::fs::read_to_string(dir.join("mario/mario_1.txt")).unwrap();
    assert!(level.contains('M') && level.contains('F'));
    assert_eq!(
        &std::fs::read(dir.join("zones/zones_1.png")).unwrap()[..4],
        b"\x89PNG"
    );
    // --format picks another format for a directory.
    let d = dir.join("json");
    let out = bin()
        .args([
            "heroes", &duel, "--size", "32", "--count", "2", "--format", "json", "--out",
        ])
        .arg(&d)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(names(&d), vec!["duel_0.json", "duel_1.json"]);
}

/// Format and extension conflicts are errors, found before any map is made or any file
/// written: `--format` against a file's extension, an atlas into a `.txt`, a Mario level
/// as `.hmm` (rejected before the rooms are even read).
#[test]
fn format_conflicts_are_errors_before_generating() {
    let dir = fresh("conflicts");
    let cave = example("marahel/cave.json");
    let x = dir.join("x.txt").display().to_string();
    let out = run(&["marahel", &cave, "--format", "png", "--out", &x]);
    assert_bad_input(&out, "--format png disagrees", "--format png --out x.txt");
    let a = dir.join("a.txt").display().to_string();
    let out = run(&["zones", "atlas", "--out", &a]);
    assert_bad_input(&out, "PNG", "zones atlas --out a.txt");
    let h = dir.join("x.hmm").display().to_string();
    let out = run(&["mario", "--rooms", "/nonexistent/rooms", "--out", &h]);
    assert_bad_input(&out, "mario does not write .hmm", "mario --out x.hmm");
    let out = run(&["marahel", &cave, "--format", "hmm"]);
    assert_bad_input(&out, "marahel does not write .hmm", "marahel --format hmm");
    let out = run(&["marahel", &cave, "--format", "tmx"]);
    assert_bad_input(&out, "stdout", "tmx on stdout");
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
}

/// `-q` silences messages, never the map asked for; summaries are on stderr.
#[test]
fn quiet_keeps_the_output_and_summaries_go_to_stderr() {
    let duel = example("heroes/duel.json");
    let cave = example("marahel/cave.json");
    let cases: [(&[&str], &str); 4] = [
        (&["heroes", &duel, "--size", "32"], "duel seed 0:"),
        (&["mario"], "mario seed 0:"),
        (&["zones", "--size", "4x3"], "seed 0: 4x3 zones"),
        (&["marahel", &cave, "--size", "4x4"], ""),
    ];
    for (args, summary) in cases {
        let loud = run(args);
        let quiet = bin().args(args).arg("-q").output().unwrap();
        assert!(loud.status.success() && quiet.status.success(), "{args:?}");
        assert!(!loud.stdout.is_empty(), "{args:?}");
        assert_eq!(loud.stdout, quiet.stdout, "{args:?}: -q changed the output");
        assert!(quiet.stderr.is_empty(), "{args:?}");
        let out = String::from_utf8_lossy(&loud.stdout);
        let err = String::from_utf8_lossy(&loud.stderr);
        assert!(
            !out.contains("seed 0"),
            "{args:?}: summary on stdout: {out}"
        );
        assert!(err.contains(summary), "{args:?}: {err}");
    }
}

/// A batch into a directory prints one closing `wrote N files to DIR` line, or with `-v` a
/// line per file (and every map's summary); `-q` prints nothing.
#[test]
fn wrote_lines_only_with_verbose() {
    let dir = fresh("verbose");
    let base = ["mario", "--count", "3", "--out"];
    let plain = bin().args(base).arg(dir.join("a/")).output().unwrap();
    assert!(plain.status.success());
    assert_eq!(
        String::from_utf8_lossy(&plain.stderr),
        format!("wrote 3 files to {}\n", dir.join("a").display())
    );
    let quiet = bin()
        .args(base)
        .arg(dir.join("q/"))
        .arg("-q")
        .output()
        .unwrap();
    assert!(quiet.status.success() && quiet.stderr.is_empty());
    assert_eq!(names(&dir.join("a")), names(&dir.join("q")));
    let verbose = bin()
        .args(base)
        .arg(dir.join("b/"))
        .arg("-v")
        .output()
        .unwrap();
    assert!(verbose.status.success());
    let err = String::from_utf8_lossy(&verbose.stderr);
    assert_eq!(err.matches("wrote ").count(), 3, "{err}");
    assert_eq!(err.matches("mario seed ").count(), 3, "{err}");
    assert_eq!(names(&dir.join("a")), names(&dir.join("b")));
}

/// Runs that would make nothing are errors like `--count 0`: the last seed with a count
/// past it, and an empty `--seeds` range.
#[test]
fn empty_seed_runs_are_errors() {
    let cave = example("marahel/cave.json");
    let dir = fresh("empty");
    let er = dir.join("er").display().to_string();
    for args in [
        vec![
            "marahel",
            &cave,
            "--seed",
            "18446744073709551615",
            "--count",
            "2",
        ],
        vec!["marahel", &cave, "--seeds", "5..5"],
        vec!["marahel", &cave, "--count", "0"],
        vec!["mario", "--seeds", "5..5"],
        vec!["zones", "--seed", "18446744073709551614", "--count", "3"],
        vec!["analyze", "marahel", &cave, "--seeds", "5..5", "--out", &er],
        vec![
            "analyze",
            "marahel",
            &cave,
            "--seed",
            "18446744073709551615",
            "--count",
            "2",
            "--out",
            &er,
        ],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(names(&dir).is_empty());
}

/// `--size` is the map size everywhere: zones takes it (`--zones` stays an alias), heroes
/// takes `NxN` or `N` and rejects the sides it cannot make, analyze takes `NxN`.
#[test]
fn size_is_one_flag_everywhere() {
    let zones = run(&["zones", "--size", "4x3"]);
    assert!(zones.status.success());
    assert_eq!(zones.stdout, run(&["zones", "--zones", "4x3"]).stdout);
    assert_eq!(String::from_utf8_lossy(&zones.stdout).lines().count(), 9);
    let duel = example("heroes/duel.json");
    let square = run(&["heroes", &duel, "--size", "32x32"]);
    assert!(square.status.success());
    assert_eq!(
        square.stdout,
        run(&["heroes", &duel, "--size", "32"]).stdout
    );
    for bad in ["48", "64x32", "0", "big"] {
        let out = run(&["heroes", &duel, "--size", bad]);
        assert_bad_input(&out, bad, &format!("heroes --size {bad}"));
    }
    let dir = fresh("analyze");
    let out = bin()
        .args([
            "analyze", "heroes", &duel, "--size", "32x32", "--count", "2", "-q", "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = std::fs::read_to_string(dir.join("maps.csv")).unwrap();
    assert!(rows.lines().nth(1).unwrap().contains(",32,32,"), "{rows}");
}

/// A zones picture too large for the PNG limit is rejected before generating (a 1000x1000
/// window computed for 25 s first; 65536x65536 aborted allocating 8 GiB). The run gets a
/// 2 GB address-space limit so a regression fails fast instead of eating the machine.
#[test]
fn picture_limits_are_checked_before_generating() {
    for size in ["65536x65536", "1000x1000"] {
        let script = format!(
            "ulimit -v 2000000; exec '{}' zones --size {size} --out /nonexistent-dir/o.png",
            env!("CARGO_BIN_EXE_levelgen")
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{size}: {err}");
        assert!(
            err.contains("limit"),
            "{size}: the error names the limit: {err}"
        );
    }
}

/// One size rule everywhere: `WxH` (or `N` where the map is square) in digits with no
/// spaces; the same text is refused (exit 2) or read alike by every subcommand.
#[test]
fn every_size_flag_reads_sizes_alike() {
    let cave = example("marahel/cave.json");
    let duel = example("heroes/duel.json");
    let er = fresh("sizes").join("er").display().to_string();
    for size in [
        " 64", "64 ", " 64x 64", "64x 64", "64 x64", "+64x64", "64x64 ",
    ] {
        for args in [
            vec!["marahel", &cave, "--size", size, "-q"],
            vec!["heroes", &duel, "--size", size, "-q"],
            vec!["zones", "--size", size, "-q"],
            vec![
                "analyze", "heroes", &duel, "--size", size, "--count", "1", "--out", &er,
            ],
        ] {
            let out = run(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("no spaces"), "{args:?}: {err}");
        }
    }
    for args in [
        vec!["marahel", &cave, "--size", "64x64", "-q"],
        vec!["heroes", &duel, "--size", "64X64", "-q"],
        vec!["heroes", &duel, "--size", "64", "-q"],
        vec!["zones", "--size", "4x4", "-q"],
    ] {
        assert!(run(&args).status.success(), "{args:?}");
    }
}
