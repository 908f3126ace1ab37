//! The agent panel: plays levels with the Mario AI Framework's own agents.
//!
//! The framework (`amidos2006/Mario-AI-Framework`) is not part of this repository: point
//! `LEVELGEN_MARIO_FRAMEWORK` at a checkout of it (the folder holding `src/` and `levels/`)
//! and have a JDK (`javac`, `java`, 17 or later) on `PATH`. [`Framework::locate`] says why
//! the panel cannot run when either is missing, so callers skip with a notice. The
//! framework's sources and our `Panel.java` runner are compiled into a folder of the
//! caller's choice (once: a stamp records what was compiled); nothing of the framework is
//! copied into the repository.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming the framework checkout.
pub const ENV: &str = "LEVELGEN_MARIO_FRAMEWORK";

/// The panel of the issue: the framework's eight AI agents.
pub const AGENTS: [&str; 8] = [
    "andySloane",
    "glennHartmann",
    "michal",
    "robinBaumgarten",
    "sergeyKarakovskiy",
    "sergeyPolikarpov",
    "spencerSchumann",
    "trondEllingsen",
];

/// The runner's source, compiled beside the framework's.
const RUNNER: &str = include_str!("Panel.java");

/// A located framework checkout.
pub struct Framework {
    /// The checkout (holds `src/` and `levels/`).
    pub root: PathBuf,
}

/// One play of one agent on one level.
#[derive(Debug, Clone)]
pub struct Play {
    /// The agent's package name (`robinBaumgarten`).
    pub agent: String,
    /// The level file.
    pub file: PathBuf,
    /// `WIN`, `LOSE`, `TIME_OUT` or `ERROR` (the agent threw).
    pub status: String,
    /// How far Mario got, 0..1.
    pub completion: f32,
    /// Jumps made.
    pub jumps: u32,
    /// Game ticks played.
    pub ticks: u32,
    /// Wall-clock milliseconds of the play.
    pub wall_ms: u64,
    /// For a lost play, `enemy` (Mario was hurt) or `fall`; `-` otherwise.
    pub cause: String,
}

impl Play {
    /// Whether the agent reached the exit.
    pub fn won(&self) -> bool {
        self.status == "WIN"
    }
}

impl Framework {
    /// The checkout named by [`ENV`], or why the panel cannot run here.
    pub fn locate() -> Result<Framework, String> {
        let root = std::env::var_os(ENV).map(PathBuf::from).ok_or_else(|| {
            format!("{ENV} is not set (a checkout of amidos2006/Mario-AI-Framework)")
        })?;
        if !root.join("src/engine/core/MarioGame.java").is_file() {
            return Err(format!(
                "{ENV}={} holds no src/engine/core/MarioGame.java",
                root.display()
            ));
        }
        for tool in ["javac", "java"] {
            let ok = Command::new(tool)
                .arg("-version")
                .output()
                .is_ok_and(|o| o.status.success());
            if !ok {
                return Err(format!(
                    "`{tool} -version` does not run (a JDK 17 is needed)"
                ));
            }
        }
        Ok(Framework { root })
    }

    /// The framework's own level `levels/original/NAME.txt`.
    pub fn original(&self, name: &str) -> PathBuf {
        self.root
            .join("levels/original")
            .join(format!("{name}.txt"))
    }

    /// Compiles the framework and the runner into `out/classes` (skipped when a stamp
    /// shows the same checkout and runner were compiled there before).
    pub fn build(&self, out: &Path) -> Result<PathBuf, String> {
        let classes = out.join("classes");
        let stamp = out.join("stamp.txt");
        let want = format!("{}\n{}", self.root.display(), RUNNER);
        if std::fs::read_to_string(&stamp).is_ok_and(|s| s == want) {
            return Ok(classes);
        }
        std::fs::create_dir_all(&classes).map_err(|e| format!("{}: {e}", classes.display()))?;
        let runner = out.join("Panel.java");
        std::fs::write(&runner, RUNNER).map_err(|e| format!("{}: {e}", runner.display()))?;
        let mut sources = vec![runner];
        java_files(&self.root.join("src"), &mut sources)?;
        let list = out.join("sources.txt");
        let text: Vec<String> = sources.iter().map(|p| p.display().to_string()).collect();
        std::fs::write(&list, text.join("\n")).map_err(|e| format!("{}: {e}", list.display()))?;
        let o = Command::new("javac")
            .args(["-nowarn", "-encoding", "UTF-8", "-d"])
            .arg(&classes)
            .arg(format!("@{}", list.display()))
            .output()
            .map_err(|e| format!("javac: {e}"))?;
        if !o.status.success() {
            return Err(format!(
                "javac failed: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        std::fs::write(&stamp, want).map_err(|e| format!("{}: {e}", stamp.display()))?;
        Ok(classes)
    }

    /// Plays every file with every agent (level by level, the agents in turn), in one JVM,
    /// with a game timer of `timer` seconds and small Mario, visuals off. `each` sees every
    /// play as it ends. A play that has not ended after [`stall`] (an agent stuck in its
    /// own search) kills the JVM and is an error.
    pub fn play(
        &self,
        classes: &Path,
        timer: u32,
        agents: &[&str],
        files: &[PathBuf],
        mut each: impl FnMut(&Play),
    ) -> Result<Vec<Play>, String> {
        use std::io::BufRead;
        use std::sync::mpsc;
        let mut child = Command::new("java")
            .arg("-cp")
            .arg(classes)
            .arg("Panel")
            .arg(timer.to_string())
            .arg(agents.join(","))
            .args(files)
            .current_dir(&self.root)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("java: {e}"))?;
        let stdout = child.stdout.take().ok_or("java: no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut plays = Vec::new();
        loop {
            match rx.recv_timeout(stall(timer)) {
                Ok(line) => {
                    let line = line.map_err(|e| format!("java output: {e}"))?;
                    if let Some(p) = parse_play(&line) {
                        each(&p);
                        plays.push(p);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "no play ended within {} s after {} plays: the JVM was stopped",
                        stall(timer).as_secs(),
                        plays.len()
                    ));
                }
            }
        }
        let status = child.wait().map_err(|e| format!("java: {e}"))?;
        if !status.success() {
            return Err(format!("java exited with {status}"));
        }
        Ok(plays)
    }
}

/// The longest a single play may take in wall time with a game timer of `timer` seconds: a
/// game is at most `timer / 0.03` ticks of an agent's 40 ms (40 s for 30 s), so three times
/// that and a minute leave room for a loaded machine.
pub fn stall(timer: u32) -> std::time::Duration {
    std::time::Duration::from_secs(60 + 4 * timer as u64)
}

/// Reads one `play` line of the runner.
pub fn parse_play(line: &str) -> Option<Play> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 9 || f[0] != "play" {
        return None;
    }
    Some(Play {
        agent: f[1].to_string(),
        file: PathBuf::from(f[2]),
        status: f[3].to_string(),
        completion: f[4].parse().ok()?,
        jumps: f[5].parse().ok()?,
        ticks: f[6].parse().ok()?,
        wall_ms: f[7].parse().ok()?,
        cause: f[8].to_string(),
    })
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            java_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
    Ok(())
}

/// Pearson correlation of two equally long series (0 when either is constant).
pub fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len()) as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa == 0.0 || sbb == 0.0 {
        0.0
    } else {
        sab / (saa * sbb).sqrt()
    }
}

/// Spearman rank correlation (Pearson on ranks, ties sharing their mean rank).
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        for &k in &idx[i..=j] {
            r[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    r
}
