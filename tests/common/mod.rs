//! Helpers shared by the CLI integration tests (each test binary uses a subset).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The `levelgen` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_levelgen"))
}

/// A directory `<system temp>/levelgen-<name>-<pid>`, created if missing: unique to this test
/// process, so concurrent test runs do not share files.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("levelgen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that a finished `levelgen` run succeeded; on failure the message is `what` (if
/// any) and the run's stderr.
pub fn assert_success(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The path of `examples/PATH` in this repository, as text for an argument.
pub fn example(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path)
        .display()
        .to_string()
}

/// `temp_dir(group)/name`, emptied: a fresh folder for one test.
pub fn fresh_dir(group: &str, name: &str) -> PathBuf {
    let d = temp_dir(group).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The sorted file names in `dir`.
pub fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
