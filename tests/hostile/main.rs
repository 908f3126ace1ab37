//! The hostile-input run: thousands of mutated inputs, extreme arguments and environment
//! faults against the binary (every generator and `check`), counting panics, hangs, aborts
//! and lost or clobbered files.
//!
//! Not part of `cargo test` (it takes minutes); run it against the release binary with
//!
//! ```sh
//! cargo test --release --test hostile -- --ignored --nocapture
//! ```
//!
//! `HOSTILE_CASES` sets the number of mutated inputs per kind (default 600), `HOSTILE_SEED`
//! the mutation seed. Every run is limited to [`TIMEOUT`] (a run still going is a hang) and
//! to 4 GiB of address space (`ulimit -v`: an allocation past it aborts, which is counted).
//! The test fails unless every count is 0.
//!
//! The same command runs [`studio_under_load_and_rebinding`]: `levelgen studio` on
//! 127.0.0.1 under a burst of 200 large PNG requests, and requests from a rebound name.

#[path = "../common/mod.rs"]
mod common;
mod studio;
mod support;

use support::{Mutator, Outcome, Tally, shell_quote};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Longest a single run may take before it counts as a hang.
const TIMEOUT: Duration = Duration::from_secs(10);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `levelgen ARGS` under `sh` with `prelude` (ulimits, traps), stdout and stderr to
/// files, killed after [`TIMEOUT`].
fn run(dir: &Path, prelude: &str, args: &[String], stdout: Stdio) -> (Option<ExitStatus>, String) {
    let script = format!("{prelude} exec {}", command_line(dir, args));
    shell(dir, &script, stdout)
}

/// `levelgen ARGS 2>DIR/stderr`, quoted for the shell.
fn command_line(dir: &Path, args: &[String]) -> String {
    let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
    format!(
        "{} {} 2>{}",
        shell_quote(env!("CARGO_BIN_EXE_levelgen")),
        quoted.join(" "),
        shell_quote(&dir.join("stderr").to_string_lossy())
    )
}

/// Runs `script` under bash with the memory limit, killed after [`TIMEOUT`]; the exit status
/// (`None` for a hang) and what the run wrote to `DIR/stderr`.
fn shell(dir: &Path, script: &str, stdout: Stdio) -> (Option<ExitStatus>, String) {
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -v 4194304; {script}"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .spawn()
        .expect("bash starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = fs::read_to_string(dir.join("stderr")).unwrap_or_default();
    (status, stderr)
}

fn to_file(dir: &Path) -> Stdio {
    Stdio::from(fs::File::create(dir.join("stdout")).expect("stdout file"))
}

/// Mutated files of one kind: each mutation of a seed file, run with `args(path)`.
fn mutated_inputs(
    tally: &mut Tally,
    dir: &Path,
    kind: &str,
    seeds: &[PathBuf],
    cases: usize,
    mutator: &mut Mutator,
    args: impl Fn(&Path, u64) -> Vec<String>,
) {
    let input = dir.join(format!("input-{kind}.json"));
    for case in 0..cases {
        let seed_file = &seeds[case % seeds.len()];
        let original = fs::read(seed_file).expect("seed file");
        let bytes = mutator.mutate(&original);
        fs::write(&input, &bytes).expect("write input");
        let argv = args(&input, case as u64);
        let (status, stderr) = run(dir, "", &argv, to_file(dir));
        let unchanged = fs::read(&input).map(|b| b == bytes).unwrap_or(false);
        tally.record(kind, &argv, Outcome::of(status, &stderr), unchanged, &bytes);
    }
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(root().join(dir))
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

fn s(items: &[&str]) -> Vec<String> {
    items.iter().map(|x| x.to_string()).collect()
}

/// Extreme arguments: each generator with sizes, counts, seeds and settings at and past
/// their limits.
fn extreme_arguments(tally: &mut Tally, dir: &Path, mutator: &mut Mutator) {
    let cave = root().join("examples/marahel/cave.json");
    let cave = cave.to_string_lossy().to_string();
    let duel = root().join("examples/heroes/duel.json");
    let duel = duel.to_string_lossy().to_string();
    let huge = [
        "0",
        "1",
        "-1",
        "65536",
        "1000000",
        "4294967296",
        "18446744073709551615",
        "1e12",
        "nan",
        "inf",
        "0.5",
        "",
    ];
    for case in 0..400u64 {
        let pick = |m: &mut Mutator| huge[m.below(huge.len())].to_string();
        let a = pick(mutator);
        let b = pick(mutator);
        let argv = match case % 8 {
            0 => vec![
                "marahel".into(),
                cave.clone(),
                "--size".into(),
                format!("{a}x{b}"),
                "-q".into(),
            ],
            1 => vec![
                "heroes".into(),
                duel.clone(),
                "--size".into(),
                a,
                "--seed".into(),
                b,
            ],
            2 => vec![
                "mario".into(),
                "--length".into(),
                a,
                "--no-check".into(),
                "-q".into(),
            ],
            3 => vec![
                "mario".into(),
                "--length".into(),
                a,
                "--difficulty".into(),
                b,
                "-q".into(),
            ],
            4 => vec![
                "zones".into(),
                "--zones".into(),
                format!("{a}x{b}"),
                "-q".into(),
            ],
            5 => {
                let flag = [
                    "--zone-size",
                    "--octaves",
                    "--scale",
                    "--persistence",
                    "--stride",
                    "--fill",
                    "--threshold",
                ];
                let f = flag[mutator.below(flag.len())];
                vec![
                    "zones".into(),
                    f.into(),
                    a,
                    "--zones".into(),
                    "4x4".into(),
                    "-q".into(),
                ]
            }
            6 => vec![
                "zones".into(),
                "atlas".into(),
                "--zone-size".into(),
                a,
                "--out".into(),
                "atlas.png".into(),
            ],
            // Seeds at the end of the range; counts stay small (a large count is work asked for).
            _ => {
                let count = ["0", "1", "2", "3"][mutator.below(4)];
                let argv = ["marahel", &cave, "--seed", &a, "--count", count, "-q"];
                s(&argv)
            }
        };
        let (status, stderr) = run(dir, "", &argv, to_file(dir));
        tally.record("arguments", &argv, Outcome::of(status, &stderr), true, b"");
    }
}

/// Broken environments: a closed pipe, a full device, a file-size limit (disk full) over an
/// existing output file, and outputs that name the run's inputs.
fn environment_faults(tally: &mut Tally, dir: &Path) {
    let cave = root()
        .join("examples/marahel/cave.json")
        .to_string_lossy()
        .to_string();
    let duel = root()
        .join("examples/heroes/duel.json")
        .to_string_lossy()
        .to_string();
    let jobs: Vec<(&str, Vec<String>)> = vec![
        (
            "marahel",
            s(&["marahel", &cave, "--size", "200x200", "--count", "20"]),
        ),
        (
            "heroes",
            s(&["heroes", &duel, "--size", "64", "--count", "20"]),
        ),
        ("mario", s(&["mario", "--count", "40"])),
        ("zones", s(&["zones", "--count", "20"])),
    ];
    for (name, argv) in &jobs {
        // A pipe whose reader is gone: the run must end quietly or with exit 1, never panic.
        let (status, stderr) = run(dir, "", argv, Stdio::null());
        tally.record("devnull", argv, Outcome::of(status, &stderr), true, b"");
        let closed = {
            let mut argv = argv.clone();
            argv.push("|".into());
            argv
        };
        let (status, stderr) = closed_pipe(dir, argv);
        tally.record(
            "closed-pipe",
            &closed,
            Outcome::of(status, &stderr),
            true,
            b"",
        );
        // stdout on a full device: exit 1 with a message, never 0.
        let full = fs::File::options().write(true).open("/dev/full");
        if let Ok(full) = full {
            let (status, stderr) = run(dir, "", argv, Stdio::from(full));
            let outcome = match Outcome::of(status, &stderr) {
                Outcome::Exit(0) => Outcome::Lost,
                other => other,
            };
            tally.record("dev-full", argv, outcome, true, b"");
        }
        // A file-size limit (the disk fills) over an existing output: the old file survives.
        let ext = if *name == "heroes" {
            "hmm"
        } else if *name == "zones" {
            "png"
        } else {
            "txt"
        };
        let target = dir.join(format!("existing.{ext}"));
        fs::write(&target, b"previous contents").expect("write");
        let mut limited = argv.clone();
        limited.retain(|a| a != "--count" && a.parse::<u32>().map_or(true, |n| n < 20));
        limited.extend(s(&["--out", &target.to_string_lossy()]));
        let (status, stderr) = run(dir, "trap '' XFSZ; ulimit -f 1;", &limited, to_file(dir));
        let after = fs::read(&target).unwrap_or_default();
        let kept = match Outcome::of(status, &stderr) {
            Outcome::Exit(0) => !after.is_empty() && after != b"previous contents",
            _ => after == b"previous contents",
        };
        tally.record(
            "disk-full",
            &limited,
            Outcome::of(status, &stderr),
            kept,
            b"",
        );
    }
    // Outputs naming inputs: the input must be untouched and the run rejected.
    let script = dir.join("script.json");
    let template = dir.join("template.json");
    fs::copy(&cave, &script).expect("copy");
    fs::copy(&duel, &template).expect("copy");
    let cases = vec![
        (
            script.clone(),
            s(&[
                "marahel",
                &script.to_string_lossy(),
                "--out",
                &script.to_string_lossy(),
            ]),
        ),
        (
            template.clone(),
            s(&[
                "heroes",
                &template.to_string_lossy(),
                "--size",
                "32",
                "--out",
                &template.to_string_lossy(),
            ]),
        ),
        (
            template.clone(),
            s(&[
                "heroes",
                &template.to_string_lossy(),
                "--size",
                "32",
                "--png",
                &template.to_string_lossy(),
            ]),
        ),
        (
            script.clone(),
            s(&[
                "analyze",
                "marahel",
                &script.to_string_lossy(),
                "--count",
                "5",
                "--out",
                &dir.to_string_lossy(),
            ]),
        ),
    ];
    for (input, argv) in cases {
        let before = fs::read(&input).expect("input");
        let (status, stderr) = run(dir, "", &argv, to_file(dir));
        let unchanged = fs::read(&input).map(|b| b == before).unwrap_or(false);
        tally.record(
            "output-names-input",
            &argv,
            Outcome::of(status, &stderr),
            unchanged,
            b"",
        );
    }
}

/// Runs `argv` with stdout into a pipe whose reading end is closed at once.
fn closed_pipe(dir: &Path, argv: &[String]) -> (Option<ExitStatus>, String) {
    let script = format!(
        "{} | head -c 1 >/dev/null; exit ${{PIPESTATUS[0]}}",
        command_line(dir, argv)
    );
    shell(dir, &script, Stdio::null())
}

#[test]
#[ignore = "minutes long: run with --release -- --ignored --nocapture"]
fn hostile_inputs_and_environments() {
    let cases: usize = std::env::var("HOSTILE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("HOSTILE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let dir = common::temp_dir("hostile");
    let mut mutator = Mutator::new(seed);
    let mut tally = Tally::default();
    let started = Instant::now();

    let scripts = files("examples/marahel", "json");
    mutated_inputs(
        &mut tally,
        &dir,
        "marahel",
        &scripts,
        cases,
        &mut mutator,
        |p, i| {
            s(&[
                "marahel",
                &p.to_string_lossy(),
                "--seed",
                &i.to_string(),
                "-q",
            ])
        },
    );
    let templates = vec![
        root().join("examples/heroes/duel.json"),
        root().join("examples/heroes/four-kingdoms.json"),
    ];
    mutated_inputs(
        &mut tally,
        &dir,
        "heroes",
        &templates,
        cases,
        &mut mutator,
        |p, i| {
            s(&[
                "heroes",
                &p.to_string_lossy(),
                "--size",
                "32",
                "--seed",
                &i.to_string(),
                "-q",
            ])
        },
    );
    let config = vec![root().join("examples/heroes/config.json")];
    let duel = root()
        .join("examples/heroes/duel.json")
        .to_string_lossy()
        .to_string();
    mutated_inputs(
        &mut tally,
        &dir,
        "heroes-config",
        &config,
        cases / 2,
        &mut mutator,
        |p, _| {
            s(&[
                "heroes",
                &duel,
                "--config",
                &p.to_string_lossy(),
                "--size",
                "32",
                "-q",
            ])
        },
    );
    let checked: Vec<PathBuf> = scripts.iter().chain(&templates).cloned().collect();
    mutated_inputs(
        &mut tally,
        &dir,
        "check",
        &checked,
        cases / 2,
        &mut mutator,
        |p, _| s(&["check", &p.to_string_lossy()]),
    );
    let rooms = files("crates/mario-rooms/library/rooms", "txt");
    let room_dir = dir.join("rooms");
    let _ = fs::create_dir_all(&room_dir);
    for r in &rooms {
        let _ = fs::copy(r, room_dir.join(r.file_name().expect("name")));
    }
    let mutated_room = room_dir.join(rooms[0].file_name().expect("name"));
    for case in 0..cases {
        let original = fs::read(&rooms[case % rooms.len()]).expect("room");
        let bytes = mutator.mutate(&original);
        fs::write(&mutated_room, &bytes).expect("write");
        let argv = s(&[
            "mario",
            "--rooms",
            &room_dir.to_string_lossy(),
            "--seed",
            &case.to_string(),
            "-q",
        ]);
        let (status, stderr) = run(&dir, "", &argv, to_file(&dir));
        tally.record(
            "mario-room",
            &argv,
            Outcome::of(status, &stderr),
            true,
            &bytes,
        );
    }
    extreme_arguments(&mut tally, &dir, &mut mutator);
    environment_faults(&mut tally, &dir);

    println!("{}", tally.report(started.elapsed()));
    assert!(tally.clean(), "{}", tally.report(started.elapsed()));
}

#[test]
#[ignore = "a burst of 200 large requests: run with --release -- --ignored --nocapture"]
fn studio_under_load_and_rebinding() {
    let b = studio::burst();
    println!("{}", studio::report(&b));
    let failures = studio::check_burst(&b);
    let server = studio::Studio::start();
    let probes = studio::rebinding(server.addr);
    for (what, code) in &probes {
        println!("rebinding: {what}: {code}");
    }
    let origin = studio::foreign_origin(server.addr);
    println!("rebinding: GET /api/examples Origin http://evil.example: {origin}");
    assert!(failures.is_empty(), "{failures:?}");
    for (what, code) in &probes {
        let want = if what.contains("own host") { 200 } else { 403 };
        assert_eq!(*code, want, "{what}");
    }
    assert_eq!(origin, 403);
}
