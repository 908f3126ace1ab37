//! The documentation's commands run as pasted: every `levelgen` command in the `sh`, `bash`,
//! `shell` and `console` blocks of README.md and docs/*.md, in order (README.md first, then
//! docs/ by name), in one scratch copy of the repository, with the built `levelgen` first on
//! PATH, each run by `sh -c` and required to exit 0. The `--set PATH=VALUE` examples of the
//! `--help` texts run too, on the shipped inputs.
//!
//! A block that must not run (it starts a server) is preceded by the line
//! `<!-- docs-test: not run (REASON) -->`; the only `levelgen` commands such a block may
//! hold are `levelgen studio` ones, and every `levelgen studio` command must be in such a block, so the marker can
//! hide nothing else. Other commands of a block (`cargo ...`, `curl ...`) are not run here.

mod common;

use common::bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The marker of a block that is not run.
const NOT_RUN: &str = "<!-- docs-test: not run";

/// Longest time one documented command may take before the test fails.
const COMMAND_LIMIT: Duration = Duration::from_secs(300);

/// One shell command of the documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DocCommand {
    /// `FILE:LINE` of the command's first line.
    place: String,
    /// The command as a shell would read it (continuation lines joined).
    text: String,
    /// Whether its block carries the not-run marker.
    not_run: bool,
}

/// The shell commands of one Markdown text, `file` naming it in places.
fn commands(file: &str, text: &str) -> Vec<DocCommand> {
    let mut out = Vec::new();
    let mut block: Option<(String, bool)> = None;
    let mut marked = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            block = match block {
                None => Some((info.trim().to_string(), marked)),
                Some(_) => None,
            };
            marked = false;
            continue;
        }
        let Some((info, not_run)) = &block else {
            if !trimmed.is_empty() {
                marked = trimmed.starts_with(NOT_RUN);
            }
            continue;
        };
        let lang = info.split([' ', ',']).next().unwrap_or("");
        if !["sh", "bash", "shell", "console"].contains(&lang) {
            continue;
        }
        let body = if lang == "console" {
            match (trimmed.strip_prefix("$ "), &pending) {
                (Some(cmd), _) => cmd,
                (None, Some(_)) => trimmed,
                (None, None) => continue,
            }
        } else {
            trimmed
        };
        let (start, mut joined) = pending.take().unwrap_or((i + 1, String::new()));
        if let Some(head) = body.strip_suffix('\\') {
            joined.push_str(head);
            pending = Some((start, joined));
            continue;
        }
        joined.push_str(body);
        if !joined.trim().is_empty() && !joined.trim_start().starts_with('#') {
            out.push(DocCommand {
                place: format!("{file}:{start}"),
                text: joined,
                not_run: *not_run,
            });
        }
    }
    out
}

/// Whether a command runs `levelgen` (its first word).
fn is_levelgen(cmd: &str) -> bool {
    cmd.split_whitespace().next() == Some("levelgen")
}

/// Whether a command starts the studio's server.
fn is_studio(cmd: &str) -> bool {
    let mut words = cmd.split_whitespace();
    words.next() == Some("levelgen") && words.next() == Some("studio")
}

/// The documentation files, in the order their commands run: README.md, then docs/*.md.
fn doc_files(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    std::iter::once(root.join("README.md"))
        .chain(docs)
        .collect()
}

/// Every command of the documentation, checked against the not-run rule.
fn all_commands(root: &Path) -> Vec<DocCommand> {
    let mut all = Vec::new();
    for f in doc_files(root) {
        let name = f.strip_prefix(root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        for c in commands(&name, &text) {
            assert!(
                !c.not_run || is_studio(&c.text) || !is_levelgen(&c.text),
                "{}: only `levelgen studio` may be marked not run: {}",
                c.place,
                c.text
            );
            assert!(
                c.not_run || !is_studio(&c.text),
                "{}: `levelgen studio` starts a server; mark its block `{NOT_RUN} (starts a \
                 server) -->`: {}",
                c.place,
                c.text
            );
            all.push(c);
        }
    }
    all
}

/// Copies the repository's files (not `target/`, `.git` or other hidden folders) into `to`:
/// what a fresh clone holds.
fn copy_repo(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let name = e.file_name();
        let s = name.to_string_lossy();
        if s.starts_with('.') || s == "target" {
            continue;
        }
        let (src, dst) = (e.path(), to.join(&name));
        let ty = e.file_type().unwrap();
        if ty.is_dir() {
            copy_repo(&src, &dst);
        } else if ty.is_file() {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Runs `cmd` with `sh -c` in `dir` with `levelgen` first on PATH; the failure message, if
/// it failed or ran past [`COMMAND_LIMIT`].
fn run_shell(dir: &Path, cmd: &str) -> Result<(), String> {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_levelgen")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let err_file = dir.join(".docs-test-stderr");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err_file).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > COMMAND_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {COMMAND_LIMIT:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if status.success() {
        Ok(())
    } else {
        let err = std::fs::read_to_string(&err_file).unwrap_or_default();
        let tail: Vec<&str> = err.lines().rev().take(8).collect();
        Err(format!(
            "{status}: {}",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n    ")
        ))
    }
}

#[cfg(unix)]
#[test]
fn every_documented_levelgen_command_runs_as_pasted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let all = all_commands(root);
    let scratch = std::env::temp_dir().join(format!("levelgen-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    copy_repo(root, &scratch);
    let mut ran = 0;
    let mut failures = Vec::new();
    for c in all.iter().filter(|c| is_levelgen(&c.text) && !c.not_run) {
        let started = Instant::now();
        let result = run_shell(&scratch, &c.text);
        eprintln!(
            "{:>6.2} s  {}  {}",
            started.elapsed().as_secs_f64(),
            c.place,
            c.text
        );
        ran += 1;
        if let Err(e) = result {
            failures.push(format!("{}: `{}`\n    {e}", c.place, c.text));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(ran >= 20, "only {ran} documented commands found");
    assert!(
        failures.is_empty(),
        "{} of {ran} documented commands failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The `--set` examples of each generator's `--help` (the backquoted `PATH=VALUE` items of
/// its `--set`/`--config-set` lines) apply to a shipped input and make a map.
#[cfg(unix)]
#[test]
fn help_set_examples_apply_to_shipped_inputs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cave = root.join("examples/marahel/cave.json");
    let duel = root.join("examples/heroes/duel.json");
    let cases: [(&str, Vec<String>, usize); 4] = [
        ("marahel", vec![cave.display().to_string()], 2),
        (
            "heroes",
            vec![duel.display().to_string(), "--size".into(), "32".into()],
            3,
        ),
        ("mario", vec!["--length".into(), "200".into()], 2),
        ("zones", vec!["--size".into(), "4x3".into()], 3),
    ];
    for (sub, input, expected) in cases {
        let help = bin().args([sub, "--help"]).output().unwrap();
        let text = String::from_utf8(help.stdout).unwrap();
        let examples = set_examples(&text);
        assert_eq!(examples.len(), expected, "{sub}: {examples:?}");
        for (flag, example) in examples {
            let out = bin()
                .arg(sub)
                .args(&input)
                .args([flag.as_str(), example.as_str(), "--out", "/dev/null", "-q"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{sub} {flag} {example}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// The backquoted `PATH=VALUE` items (with `--set ` stripped) of the `--set` and
/// `--config-set` options in a `--help` text, with the flag they belong to.
fn set_examples(help: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut flag: Option<&str> = None;
    for line in help.lines() {
        let t = line.trim_start();
        if t.starts_with('-') {
            flag = ["--set ", "--config-set "]
                .into_iter()
                .find(|f| t.starts_with(f))
                .map(str::trim_end);
        }
        let Some(f) = flag else { continue };
        for (i, item) in line.split('`').enumerate() {
            let item = item.strip_prefix("--set ").unwrap_or(item);
            if i % 2 == 1 && item.contains('=') && !item.contains(' ') && item != "PATH=VALUE" {
                out.push((f.to_string(), item.to_string()));
            }
        }
    }
    out
}

#[test]
fn blocks_and_markers_are_read_as_documented() {
    let md = "intro\n\
              ```sh\n\
              levelgen mario --seed 1   # a comment\n\
              # a comment line\n\
              levelgen zones \\\n  --size 4x3\n\
              ```\n\
              <!-- docs-test: not run (starts a server) -->\n\
              ```sh\n\
              levelgen studio\n\
              ```\n\
              ```text\n\
              levelgen not-a-command\n\
              ```\n\
              ```console\n\
              $ levelgen check README.md\n\
              README.md: error\n\
              ```\n";
    let c = commands("x.md", md);
    let texts: Vec<(&str, &str, bool)> = c
        .iter()
        .map(|c| (c.place.as_str(), c.text.as_str(), c.not_run))
        .collect();
    assert_eq!(
        texts,
        vec![
            ("x.md:3", "levelgen mario --seed 1   # a comment", false),
            ("x.md:5", "levelgen zones --size 4x3", false),
            ("x.md:10", "levelgen studio", true),
            ("x.md:16", "levelgen check README.md", false),
        ]
    );
    // A marker applies to the next block only.
    let c = commands(
        "y.md",
        "<!-- docs-test: not run (x) -->\n```sh\na\n```\n```sh\nb\n```\n",
    );
    assert_eq!((c[0].not_run, c[1].not_run), (true, false));
    assert!(is_studio("levelgen studio --open") && !is_studio("levelgen mario"));
    let help = "      --set <PATH=VALUE>  Change: `PATH=VALUE` (`zones.0.size=30`,\n          \
                `/connections/0/guard=5000`)\n      --seed <SEED>  `a=b`\n";
    assert_eq!(
        set_examples(help),
        vec![
            ("--set".to_string(), "zones.0.size=30".to_string()),
            ("--set".to_string(), "/connections/0/guard=5000".to_string()),
        ]
    );
}
