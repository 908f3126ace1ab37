//! The hostile-input run (ignored by default): mutated inputs and broken environments
//! against the `levelgen` binary, counting panics, hangs, aborts and lost or clobbered files.
//!
//! ```text
//! cargo test --release -p levelgen --test cli_hostile -- --ignored --nocapture
//! LEVELGEN_HOSTILE_N=5000 cargo test --release -p levelgen --test cli_hostile -- --ignored --nocapture
//! ```
//!
//! Each run gets a 10-second timeout and a 4 GB address-space limit (`ulimit -v`), so a run
//! that would hang or allocate without bound is counted, not waited for. The test fails
//! unless every count is zero. It needs a Unix shell with `timeout` (coreutils).

mod common;
use common::temp_dir;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Seconds a run may take before it counts as a hang.
const TIMEOUT_SECS: u32 = 10;
/// Address-space limit of every run, in KiB.
const MEMORY_KIB: u64 = 4_000_000;

#[derive(Debug, Default)]
struct Counts {
    runs: u64,
    panics: u64,
    hangs: u64,
    aborts: u64,
    lost: u64,
}

impl Counts {
    fn clean(&self) -> bool {
        self.panics + self.hangs + self.aborts + self.lost == 0
    }
}

/// A small deterministic generator (xorshift64*), so a failing mutation can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const HOSTILE: [&str; 10] = [
    "1000000000000",
    "-1",
    "1e308",
    "[]",
    "{}",
    "null",
    "\"\"",
    "999999",
    "65536x65536",
    "\u{0}\u{1}\u{7f}",
];

/// One mutation of `input`: a byte flipped, a range deleted or duplicated, a number or
/// value replaced by a hostile one, or the file cut short.
fn mutate(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut v = input.to_vec();
    let at = rng.below(v.len());
    match rng.below(6) {
        0 => v[at] ^= 1 << rng.below(8),
        1 => {
            let end = (at + rng.below(64)).min(v.len());
            v.drain(at..end);
        }
        2 => {
            let end = (at + rng.below(256)).min(v.len());
            let copy = v[at..end].to_vec();
            v.splice(at..at, copy);
        }
        3 => {
            // Replace the digits at or after `at` by a hostile value.
            if let Some(start) = v[at..].iter().position(u8::is_ascii_digit).map(|p| p + at) {
                let end = v[start..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(v.len(), |p| p + start);
                let h = HOSTILE[rng.below(HOSTILE.len())].as_bytes().to_vec();
                v.splice(start..end, h);
            }
        }
        4 => v.truncate(at),
        _ => {
            let h = "x".repeat(1 + rng.below(200_000));
            v.splice(at..at, h.into_bytes());
        }
    }
    v
}

/// Runs `levelgen ARGS` under the time and memory limits; classifies the outcome.
fn run(args: &[String], stdout: Stdio, counts: &mut Counts, what: &str) -> Option<i32> {
    let quoted: Vec<String> = args
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    let script = format!(
        "ulimit -v {MEMORY_KIB}; exec timeout -s KILL {TIMEOUT_SECS} '{}' {}",
        env!("CARGO_BIN_EXE_levelgen"),
        quoted.join(" ")
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    counts.runs += 1;
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    // `timeout -s KILL` kills its whole process group, itself included.
    let killed = std::os::unix::process::ExitStatusExt::signal(&out.status) == Some(9);
    if err.contains("panicked") || code == Some(101) {
        counts.panics += 1;
        eprintln!("PANIC {what}: {}", err.lines().next().unwrap_or(""));
    } else if killed || code == Some(137) || code == Some(124) {
        counts.hangs += 1;
        eprintln!("HANG {what}");
    } else if !matches!(code, Some(0..=2)) {
        counts.aborts += 1;
        eprintln!(
            "ABORT ({code:?}) {what}: {}",
            err.lines().next().unwrap_or("")
        );
    }
    code
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Mutated inputs: each is generated from and checked; `n` mutations in all.
fn mutated_inputs(n: u64, dir: &Path, counts: &mut Counts) {
    let mut seeds: Vec<(PathBuf, &str)> = Vec::new();
    for f in files("examples/marahel") {
        seeds.push((f, "marahel"));
    }
    for f in files("examples/heroes") {
        let kind = if f.ends_with("config.json") {
            "config"
        } else {
            "heroes"
        };
        seeds.push((f, kind));
    }
    for f in files("crates/mario-rooms/library/rooms") {
        seeds.push((f, "room"));
    }
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for i in 0..n {
        let (seed, kind) = &seeds[rng.below(seeds.len())];
        let bytes = mutate(&std::fs::read(seed).unwrap(), &mut rng);
        let what = format!("mutation {i} of {} ({kind})", seed.display());
        let out = dir.join("out.txt");
        let args: Vec<String> = match *kind {
            "marahel" | "heroes" => {
                let input = dir.join("input.json");
                std::fs::write(&input, &bytes).unwrap();
                let mut a = vec![kind.to_string(), s(&input), "--out".into(), s(&out)];
                if *kind == "heroes" {
                    a.extend(["--size".into(), "32".into()]);
                }
                a
            }
            "config" => {
                let input = dir.join("config.json");
                std::fs::write(&input, &bytes).unwrap();
                let t = s(&root().join("examples/heroes/duel.json"));
                vec![
                    "heroes".into(),
                    t,
                    "--config".into(),
                    s(&input),
                    "--out".into(),
                    s(&out),
                ]
            }
            _ => {
                let rooms = dir.join("rooms");
                let _ = std::fs::remove_dir_all(&rooms);
                std::fs::create_dir_all(&rooms).unwrap();
                std::fs::write(rooms.join("room.txt"), &bytes).unwrap();
                vec![
                    "mario".into(),
                    "--rooms".into(),
                    s(&rooms),
                    "--out".into(),
                    s(&out),
                ]
            }
        };
        let bad_before = counts.panics + counts.hangs + counts.aborts;
        run(&args, Stdio::null(), counts, &what);
        if counts.panics + counts.hangs + counts.aborts > bad_before {
            // Keep the input that failed, to replay it.
            let kept = dir.join(format!("failed-{i}-{kind}.txt"));
            std::fs::write(&kept, &bytes).unwrap();
            eprintln!("  input kept in {}", kept.display());
        }
        let checked = args[1].clone();
        let target = if *kind == "room" {
            s(&dir.join("rooms/room.txt"))
        } else {
            checked
        };
        run(
            &["check".into(), target],
            Stdio::null(),
            counts,
            &format!("check {what}"),
        );
    }
}

/// Broken environments: closed pipes, a full device, a file-size limit, outputs naming
/// inputs.
fn environments(dir: &Path, counts: &mut Counts) {
    let cave = s(&root().join("examples/marahel/cave.json"));
    let duel = s(&root().join("examples/heroes/duel.json"));
    let gens: Vec<Vec<String>> = vec![
        vec![
            "marahel".into(),
            cave.clone(),
            "--count".into(),
            "40".into(),
        ],
        vec![
            "heroes".into(),
            duel.clone(),
            "--size".into(),
            "64".into(),
            "--count".into(),
            "40".into(),
        ],
        vec!["mario".into(), "--count".into(), "40".into()],
        vec!["zones".into(), "--count".into(), "40".into()],
    ];
    for g in &gens {
        let what = format!("{} | head -c 1", g[0]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_levelgen"))
            .args(g)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        counts.runs += 1;
        if out.status.code() != Some(0) || String::from_utf8_lossy(&out.stderr).contains("panicked")
        {
            counts.panics += 1;
            eprintln!("PANIC {what}");
        }
        if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
            let code = run(
                g,
                Stdio::from(full),
                counts,
                &format!("{} > /dev/full", g[0]),
            );
            if code.is_some() && code != Some(1) {
                counts.lost += 1;
                eprintln!("LOST {} > /dev/full: exit {code:?}", g[0]);
            }
        }
    }
    // A file-size limit mid-write: the previous file must survive whole.
    let target = dir.join("big.txt");
    std::fs::write(&target, "previous").unwrap();
    let script = format!(
        "ulimit -f 8; exec '{}' marahel '{cave}' --size 400x400 --out '{}'",
        env!("CARGO_BIN_EXE_levelgen"),
        target.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    counts.runs += 1;
    if out.status.code() != Some(1) || std::fs::read_to_string(&target).unwrap() != "previous" {
        counts.lost += 1;
        eprintln!("LOST ulimit -f: exit {:?}", out.status.code());
    }
    // Outputs naming inputs.
    let script_copy = dir.join("s.json");
    std::fs::copy(&cave, &script_copy).unwrap();
    let before = std::fs::read(&script_copy).unwrap();
    run(
        &[
            "marahel".into(),
            s(&script_copy),
            "--out".into(),
            s(&script_copy),
        ],
        Stdio::null(),
        counts,
        "marahel --out SCRIPT",
    );
    if std::fs::read(&script_copy).unwrap() != before {
        counts.lost += 1;
        eprintln!("CLOBBERED the script");
    }
}

#[test]
#[ignore = "minutes of runs; see the module docs for the command"]
fn hostile_inputs_and_environments() {
    let n: u64 = std::env::var("LEVELGEN_HOSTILE_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let dir = temp_dir("cli-hostile");
    let mut counts = Counts::default();
    environments(&dir, &mut counts);
    mutated_inputs(n, &dir, &mut counts);
    println!(
        "hostile run: {} runs, {} panics, {} hangs, {} aborts, {} lost or clobbered files",
        counts.runs, counts.panics, counts.hangs, counts.aborts, counts.lost
    );
    assert!(counts.clean(), "{counts:?}");
}
