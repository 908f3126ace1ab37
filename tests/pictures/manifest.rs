//! The pictures manifest (`docs/pictures.txt`): every picture and sample file under `docs/`
//! with the `levelgen` command that makes it. `cargo run --release --example pictures`
//! remakes them all; `tests/pictures` checks that each committed file is byte for byte what
//! the code makes now.
//!
//! A line is `FILES | FLAGS | COMMAND`: FILES are names under `docs/images/`, each
//! optionally `NAME=PRODUCED` when the command writes it under another name; FLAGS is empty
//! or holds `heavy` (checked only in optimised builds), `fixtures` (needs the shared
//! fixtures), `example` (COMMAND is the arguments of `cargo run --release`, for pictures a
//! crate's example draws) and `script` (COMMAND is a shell script run with `sh` from the
//! workspace root, `levelgen` on its PATH: a screenshot of another program, remade where the
//! programs named by `needs=A,B,..` are installed and never compared byte for byte);
//! otherwise COMMAND is the `levelgen` arguments. Arguments are split on spaces; `{out}` is
//! the directory the command writes into and `{fixtures}` the shared fixtures folder.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// One manifest line.
#[derive(Debug)]
pub struct Entry {
    /// `(docs name, path the command produces under {out})`.
    pub files: Vec<(String, String)>,
    /// Checked only in optimised builds.
    pub heavy: bool,
    /// Needs `../shared/fixtures`.
    pub fixtures: bool,
    /// The command is `cargo run --release ARGS` (a crate's example), not `levelgen ARGS`.
    pub example: bool,
    /// The command is `sh ARGS` (a screenshot script), `levelgen` on its PATH.
    pub script: bool,
    /// Programs the command needs on PATH (`needs=A,B`); without them it is skipped.
    pub needs: Vec<String>,
    /// The command's arguments, placeholders unexpanded.
    pub args: Vec<String>,
    /// Line number in the manifest.
    pub line: usize,
}

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared fixtures folder, if present.
pub fn fixtures() -> Option<PathBuf> {
    let dir = root().join("../shared/fixtures");
    dir.is_dir().then_some(dir)
}

/// Reads `docs/pictures.txt`.
pub fn read() -> Vec<Entry> {
    let text =
        std::fs::read_to_string(root().join("docs/pictures.txt")).expect("docs/pictures.txt");
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
        assert_eq!(
            parts.len(),
            3,
            "docs/pictures.txt:{}: expected FILES | FLAGS | COMMAND",
            i + 1
        );
        let files = parts[0]
            .split_whitespace()
            .map(|f| match f.split_once('=') {
                Some((name, produced)) => (name.to_string(), produced.to_string()),
                None => (f.to_string(), f.to_string()),
            })
            .collect();
        let flags: Vec<&str> = parts[1].split_whitespace().collect();
        let needs = flags
            .iter()
            .filter_map(|f| f.strip_prefix("needs="))
            .flat_map(|n| n.split(',').map(str::to_string))
            .collect();
        entries.push(Entry {
            files,
            heavy: flags.contains(&"heavy"),
            fixtures: flags.contains(&"fixtures"),
            example: flags.contains(&"example"),
            script: flags.contains(&"script"),
            needs,
            args: parts[2].split_whitespace().map(str::to_string).collect(),
            line: i + 1,
        });
    }
    entries
}

/// The programs an entry needs that are not on PATH.
pub fn missing_programs(entry: &Entry) -> Vec<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    entry
        .needs
        .iter()
        .filter(|p| !std::env::split_paths(&path).any(|d| d.join(p).is_file()))
        .cloned()
        .collect()
}

/// Runs a `script` entry: `sh ARGS` from the workspace root with the release `levelgen`
/// (built first) on PATH.
fn run_script(entry: &Entry, args: Vec<String>) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let built = std::process::Command::new(&cargo)
        .args(["build", "--release", "--quiet", "--bin", "levelgen"])
        .current_dir(root())
        .status()
        .map_err(|e| e.to_string())?;
    if !built.success() {
        return Err(format!(
            "docs/pictures.txt:{}: building levelgen: {built}",
            entry.line
        ));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root().join("target"), PathBuf::from)
        .join("release");
    let mut path = vec![target];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let status = std::process::Command::new("sh")
        .args(args)
        .env(
            "PATH",
            std::env::join_paths(path).map_err(|e| e.to_string())?,
        )
        .current_dir(root())
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("docs/pictures.txt:{}: {status}", entry.line));
    }
    Ok(())
}

/// Runs an entry's command in this process with `{out}` = `out`; returns the produced files
/// as `(docs name, path)`, or the CLI's error.
pub fn make(entry: &Entry, out: &Path, fixtures: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    use clap::Parser;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    let expand = |a: &String| {
        a.replace("{out}", &out.to_string_lossy())
            .replace("{fixtures}", &fixtures.to_string_lossy())
    };
    if entry.script {
        run_script(entry, entry.args.iter().map(expand).collect())?;
        return Ok(produced(entry, out));
    }
    if entry.example {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let status = std::process::Command::new(cargo)
            .args(["run", "--release", "--quiet"])
            .args(entry.args.iter().map(expand))
            .current_dir(root())
            .status()
            .map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("docs/pictures.txt:{}: {status}", entry.line));
        }
        return Ok(produced(entry, out));
    }
    let args: Vec<String> = std::iter::once("levelgen".to_string())
        .chain(entry.args.iter().map(expand))
        .collect();
    // Paths in commands are relative to the workspace root.
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    std::env::set_current_dir(root()).map_err(|e| e.to_string())?;
    let result = levelgen::cli::Cli::try_parse_from(&args)
        .map_err(|e| e.to_string())
        .and_then(|cli| levelgen::cli::run(cli).map_err(|e| e.to_string()));
    std::env::set_current_dir(cwd).map_err(|e| e.to_string())?;
    result.map_err(|e| format!("docs/pictures.txt:{}: {e}", entry.line))?;
    Ok(produced(entry, out))
}

/// An entry's files: `(docs name, where the command wrote it under out)`.
fn produced(entry: &Entry, out: &Path) -> Vec<(String, PathBuf)> {
    entry
        .files
        .iter()
        .map(|(name, produced)| (name.clone(), out.join(produced)))
        .collect()
}
