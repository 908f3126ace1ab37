//! The output layer, as a script or pipeline sees it: a closed pipe ends a run quietly, a
//! full device is exit 1, a failed write leaves the previous file intact, and no output
//! ever overwrites one of the run's inputs.

mod common;
use common::{bin, fresh_dir, names};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn example(path: &str) -> String {
    root().join("examples").join(path).display().to_string()
}

/// A fresh directory for one test.
fn fresh(name: &str) -> PathBuf {
    fresh_dir("cli-output", name)
}

/// Runs of every generator that print several maps on stdout. (Their reader goes away
/// before the first byte, so a few maps show what forty would.)
fn printing_runs() -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["mario", "--count", "3"]),
        v(&[
            "heroes",
            &example("heroes/duel.json"),
            "--size",
            "32",
            "--count",
            "3",
        ]),
        v(&["zones", "--count", "3"]),
        v(&["marahel", &example("marahel/cave.json"), "--count", "3"]),
    ]
}

/// `levelgen mario --count 40 | head -c 1` (and heroes, zones): the reader goes away; the
/// run ends with exit 0 and no panic.
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    for args in printing_runs() {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before the first map is written: every write gets EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Stdout on a full device: exit 1 with a message, never success with the map lost.
#[test]
fn a_full_stdout_is_exit_1_with_a_message() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipping: no /dev/full");
        return;
    };
    let mut runs = printing_runs();
    runs.push(vec![
        "marahel".into(),
        example("marahel/cave.json"),
        "--size".into(),
        "200x200".into(),
    ]);
    for args in runs {
        let out = bin()
            .args(&args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("stdout") && err.contains("space"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A write that fails half-way (here a file-size limit, as a full disk) leaves the
/// previous file intact and no partial or temporary file.
#[test]
fn a_failed_write_keeps_the_previous_file() {
    let dir = fresh("ulimit");
    let target = dir.join("big.txt");
    std::fs::write(&target, "previous map\n").unwrap();
    let script = format!(
        "ulimit -f 8; exec '{}' marahel '{}' --size 400x400 --out '{}'",
        env!("CARGO_BIN_EXE_levelgen"),
        example("marahel/cave.json"),
        target.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("big.txt"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "previous map\n");
    assert_eq!(names(&dir), vec!["big.txt"]);
}

/// A successful write replaces the file whole and leaves nothing else behind.
#[test]
fn a_write_replaces_the_file_and_leaves_no_temporary() {
    let dir = fresh("replace");
    let target = dir.join("cave.txt");
    std::fs::write(&target, "x".repeat(100_000)).unwrap();
    let out = bin()
        .args(["marahel", &example("marahel/cave.json"), "--out"])
        .arg(&target)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.len() < 100_000 && !text.contains("xxx"), "{text}");
    // A TMX map and its tileset image arrive together.
    let out = bin()
        .args(["marahel", &example("marahel/cave.json"), "--out"])
        .arg(dir.join("cave.tmx"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(names(&dir), vec!["cave.tmx", "cave.txt", "cave_tiles.png"]);
}

/// `--out` or `--png` naming an input (the script, template, config, a room file, an
/// analysed input) is bad input: exit 2, the input untouched.
#[test]
fn outputs_never_overwrite_inputs() {
    let dir = fresh("inputs");
    let script = dir.join("s.json");
    let cave = std::fs::read_to_string(example("marahel/cave.json")).unwrap();
    std::fs::write(&script, &cave).unwrap();
    let template = dir.join("t.json");
    let duel = std::fs::read_to_string(example("heroes/duel.json")).unwrap();
    std::fs::write(&template, &duel).unwrap();
    let rooms = dir.join("rooms");
    std::fs::create_dir_all(&rooms).unwrap();
    let room = "1\nsafe\n------\nm----f\nXXXXXX\n";
    std::fs::write(rooms.join("r.txt"), room).unwrap();
    std::fs::write(rooms.join("summary.json"), &cave).unwrap();
    let d = dir.display();
    let runs: Vec<Vec<String>> = vec![
        vec![
            "marahel".into(),
            format!("{d}/s.json"),
            "--out".into(),
            format!("{d}/s.json"),
        ],
        vec![
            "marahel".into(),
            format!("{d}/s.json"),
            "--out".into(),
            format!("{d}/rooms/../s.json"),
        ],
        vec![
            "heroes".into(),
            format!("{d}/t.json"),
            "--out".into(),
            format!("{d}/t.json"),
        ],
        vec![
            "heroes".into(),
            format!("{d}/t.json"),
            "--size".into(),
            "32".into(),
            "--png".into(),
            format!("{d}/rooms/r.txt"),
        ],
        vec![
            "mario".into(),
            "--rooms".into(),
            format!("{d}/rooms"),
            "--out".into(),
            format!("{d}/rooms/r.txt"),
        ],
        vec![
            "analyze".into(),
            "marahel".into(),
            format!("{d}/rooms/summary.json"),
            "--count".into(),
            "2".into(),
            "--out".into(),
            format!("{d}/rooms"),
        ],
    ];
    for args in runs {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("input"), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read_to_string(&script).unwrap(), cave);
    assert_eq!(std::fs::read_to_string(&template).unwrap(), duel);
    assert_eq!(std::fs::read_to_string(rooms.join("r.txt")).unwrap(), room);
    assert_eq!(
        std::fs::read_to_string(rooms.join("summary.json")).unwrap(),
        cave
    );
}

/// `--out -` is stdout: the same bytes as no `--out`.
#[test]
fn out_dash_is_stdout() {
    for args in [
        vec!["marahel".to_string(), example("marahel/cave.json")],
        vec!["mario".to_string()],
        vec!["zones".to_string(), "--size".into(), "4x3".into()],
    ] {
        let plain = bin().args(&args).output().unwrap();
        let dash = bin().args(&args).args(["--out", "-"]).output().unwrap();
        assert!(plain.status.success() && dash.status.success(), "{args:?}");
        assert!(!plain.stdout.is_empty());
        assert_eq!(plain.stdout, dash.stdout, "{args:?}");
    }
    let png = bin()
        .args([
            "marahel",
            &example("marahel/cave.json"),
            "--format",
            "png",
            "--out",
            "-",
        ])
        .output()
        .unwrap();
    assert!(png.status.success());
    assert_eq!(&png.stdout[..4], b"\x89PNG");
}

/// An input that never ends (`/dev/zero`) or is too large is bad input, found before it
/// is held in memory; a preview named like the map itself is refused before generating.
#[test]
fn endless_inputs_and_clashing_outputs_are_bad_input() {
    if Path::new("/dev/zero").exists() {
        for args in [
            vec!["marahel", "/dev/zero"],
            vec!["heroes", "/dev/zero"],
            vec!["check", "/dev/zero", "--kind", "marahel"],
        ] {
            let script = format!(
                "ulimit -v 2000000; exec '{}' {}",
                env!("CARGO_BIN_EXE_levelgen"),
                args.join(" ")
            );
            let out = Command::new("sh").args(["-c", &script]).output().unwrap();
            // `check` reports on stdout, the generators on stderr.
            let err = String::from_utf8_lossy(&out.stderr).into_owned()
                + &String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("64 MiB"), "{args:?}: {err}");
        }
    }
    let dir = fresh("clash");
    let p = dir.join("p.png");
    let out = bin()
        .args(["mario", "--out"])
        .arg(&p)
        .arg("--png")
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is also --out"), "{err}");
    assert!(names(&dir).is_empty());
}

/// A FIFO (or device) named by `--out` is written into, not replaced by a regular file.
#[cfg(unix)]
#[test]
fn a_fifo_target_is_written_into() {
    use std::os::unix::fs::FileTypeExt;
    let dir = fresh("fifo");
    let fifo = dir.join("map.txt");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipping: mkfifo not available");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = bin()
        .args(["marahel", &example("marahel/cave.json"), "--out"])
        .arg(&fifo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let text = reader.join().unwrap();
    assert!(text.contains('#') && text.contains("solid"), "{text}");
    assert_eq!(names(&dir), vec!["map.txt"]);
}

/// A device as `--out` is written into in the stdout format (every map of a batch), and a
/// `.tmx` map, which needs a tileset file beside it, is refused there.
#[cfg(unix)]
#[test]
fn a_device_target_takes_maps_in_the_stdout_format() {
    let cave = example("marahel/cave.json");
    for args in [
        vec!["marahel", cave.as_str(), "--out", "/dev/null"],
        vec![
            "marahel",
            cave.as_str(),
            "--count",
            "3",
            "--out",
            "/dev/null",
        ],
        vec![
            "mario",
            "--count",
            "2",
            "--out",
            "/dev/null",
            "--format",
            "png",
        ],
        vec!["zones", "--size", "4x3", "--out", "/dev/null"],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = bin()
        .args(["marahel", &cave, "--out", "/dev/null", "--format", "tmx"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tileset"));
}

/// A batch into one FIFO is refused before any work (its reader would stop at the first
/// map's end and the second would wait for a reader forever).
#[cfg(unix)]
#[test]
fn a_batch_into_a_fifo_is_refused() {
    let dir = fresh("fifo-batch");
    let fifo = dir.join("maps");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipping: mkfifo not available");
        return;
    }
    let out = bin()
        .args([
            "marahel",
            &example("marahel/cave.json"),
            "--count",
            "2",
            "--out",
        ])
        .arg(&fifo)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a batch cannot go into one FIFO"));
}

/// A name without an extension that is not an existing file is a directory, created if
/// missing, for one map as for many; the run ends with one line saying what it wrote.
#[test]
fn a_new_name_without_extension_is_a_directory() {
    let dir = fresh("newdir");
    let cave = example("marahel/cave.json");
    let one = bin()
        .args(["marahel", &cave, "--seed", "4", "--out"])
        .arg(dir.join("single"))
        .output()
        .unwrap();
    assert!(one.status.success());
    assert_eq!(names(&dir.join("single")), vec!["cave_4.txt"]);
    assert_eq!(
        String::from_utf8_lossy(&one.stderr),
        format!("wrote {}\n", dir.join("single/cave_4.txt").display())
    );
    let many = bin()
        .args(["marahel", &cave, "--count", "3", "--out"])
        .arg(dir.join("many"))
        .output()
        .unwrap();
    assert!(many.status.success());
    assert_eq!(
        names(&dir.join("many")),
        vec!["cave_0.txt", "cave_1.txt", "cave_2.txt"]
    );
    assert_eq!(
        String::from_utf8_lossy(&many.stderr),
        format!("wrote 3 files to {}\n", dir.join("many").display())
    );
    // An existing file without an extension is not taken for a directory.
    std::fs::write(dir.join("plain"), "x").unwrap();
    let clash = bin()
        .args(["marahel", &cave, "--out"])
        .arg(dir.join("plain"))
        .output()
        .unwrap();
    assert_eq!(clash.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(dir.join("plain")).unwrap(), "x");
}
