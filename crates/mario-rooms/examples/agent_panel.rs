//! Measures our levels with the Mario AI Framework's own agents (see `tests/panel/mod.rs`;
//! needs `LEVELGEN_MARIO_FRAMEWORK` and a JDK, and says so and exits when either is absent).
//!
//! `cargo run --release -p mario-rooms --example agent_panel -- panel DIR [N] [TIMER]`: the
//! eight-agent panel on N levels (default 6) of `--length 200` at difficulties 1, 3 and 5
//! (seeds 1000..), and on the framework's original levels 1, 2, 4, 5, 6 and 9; game timer
//! TIMER seconds (default 30). Prints the share of plays won per setting and agent, and how
//! each level's estimated difficulty correlates with the share of the panel that wins it.
//!
//! `... --example agent_panel -- astar DIR [N] [TIMER] [THEMES] [DIFFICULTIES]`: the A*
//! agent (`robinBaumgarten`) alone on N levels (default 30) of the default length per theme
//! (THEMES, comma-separated; default or `all`: every theme) and difficulty (DIFFICULTIES,
//! comma-separated; default 1..5), seeds 1000.., game timer TIMER seconds (default 20).
//!
//! `... --example agent_panel -- levels DIR [N]`: only writes the panel's levels (no
//! framework needed), to look at or to play some of them with `files`.
//!
//! `... --example agent_panel -- files DIR TIMER FILE...`: the eight agents on the given
//! level files (a ceiling check: what each agent wins on a trivial level).
#[path = "../tests/panel/mod.rs"]
mod panel;

use mario_rooms::{LevelConfig, Library, MarioLevel, THEMES, estimate::estimate, generate};
use panel::{AGENTS, Framework, Play};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: agent_panel panel DIR [N] [TIMER] | astar DIR [N] [TIMER] [THEMES] [DIFFICULTIES] | levels DIR [N] | files DIR TIMER FILE...";
    let (mode, dir) = match (args.first(), args.get(1)) {
        (Some(m), Some(d)) => (m.as_str(), PathBuf::from(d)),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let n: Option<u64> = match mode {
        "files" => None,
        _ => args.get(2).map(|v| v.parse().expect("N")),
    };
    let timer: Option<u32> = match mode {
        "files" => None,
        _ => args.get(3).map(|v| v.parse().expect("TIMER")),
    };
    let themes: Vec<&str> = match (mode, args.get(4)) {
        ("astar", Some(t)) if t != "all" => t.split(',').collect(),
        _ => THEMES.to_vec(),
    };
    let diffs: Vec<u32> = match (mode, args.get(5)) {
        ("astar", Some(d)) => d
            .split(',')
            .map(|v| v.parse().expect("DIFFICULTIES"))
            .collect(),
        _ => (1..=5).collect(),
    };
    if mode == "levels" {
        panel_levels(&dir, n.unwrap_or(6));
        return;
    }
    let fw = match Framework::locate() {
        Ok(fw) => fw,
        Err(why) => {
            println!("agent panel skipped: {why}");
            return;
        }
    };
    let classes = fw.build(&dir).unwrap_or_else(|e| fail(&e));
    match mode {
        "panel" => run_panel(&fw, &classes, &dir, n.unwrap_or(6), timer.unwrap_or(30)),
        "files" => {
            let timer: u32 = args.get(2).map_or(30, |v| v.parse().expect("TIMER"));
            // The JVM runs in the framework's folder: relative paths are made absolute.
            let files: Vec<PathBuf> = args[3..]
                .iter()
                .map(|f| std::path::absolute(f).unwrap_or_else(|e| fail(&format!("{f}: {e}"))))
                .collect();
            let plays = fw
                .play(&classes, timer, &AGENTS, &files, progress)
                .unwrap_or_else(|e| fail(&e));
            for p in &plays {
                println!(
                    "{}\t{}\t{}\t{:.2}\t{}",
                    p.agent,
                    p.file.display(),
                    p.status,
                    p.completion,
                    p.cause
                );
            }
        }
        "astar" => {
            let (n, timer) = (n.unwrap_or(30), timer.unwrap_or(20));
            run_astar(&fw, &classes, &dir, n, timer, (&themes, &diffs))
        }
        _ => fail(usage),
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("agent_panel: {msg}");
    std::process::exit(1)
}

/// Writes `n` levels of `theme` at difficulty `d` (seeds 1000..) into `dir/name/`.
fn write_levels(
    dir: &Path,
    name: &str,
    theme: &str,
    d: f32,
    length: usize,
    n: u64,
) -> Vec<PathBuf> {
    let lib = Library::builtin_theme(theme).unwrap_or_else(|e| fail(&e.to_string()));
    let cfg = LevelConfig {
        difficulty: Some((d, d)),
        length,
        ..LevelConfig::default()
    };
    let out = dir.join(name);
    std::fs::create_dir_all(&out).unwrap_or_else(|e| fail(&e.to_string()));
    (1000..1000 + n)
        .map(|seed| {
            let g = generate(&lib, &cfg, seed).unwrap_or_else(|e| fail(&e.to_string()));
            let p = out.join(format!("{seed}.txt"));
            std::fs::write(&p, g.level.to_text()).unwrap_or_else(|e| fail(&e.to_string()));
            p
        })
        .collect()
}

fn estimate_of(file: &Path) -> f64 {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| fail(&e.to_string()));
    let level = MarioLevel::parse("level", &text).unwrap_or_else(|e| fail(&e.to_string()));
    estimate(&level) as f64
}

fn progress(p: &Play) {
    eprintln!(
        "{} {} {} {} {:.2} {} ms",
        p.agent,
        p.file.display(),
        p.status,
        p.cause,
        p.completion,
        p.wall_ms
    );
}

/// Writes the panel's levels: `n` overground levels of `--length 200` at difficulties 1, 3
/// and 5 into `dir/d1`, `dir/d3` and `dir/d5`.
fn panel_levels(dir: &Path, n: u64) -> Vec<(String, Vec<PathBuf>)> {
    [1.0, 3.0, 5.0]
        .iter()
        .map(|&d| {
            let name = format!("d{d}");
            let files = write_levels(dir, &name, "overground", d, 200, n);
            (name, files)
        })
        .collect()
}

fn run_panel(fw: &Framework, classes: &Path, dir: &Path, n: u64, timer: u32) {
    let mut sets = panel_levels(dir, n);
    let smb = ["lvl-1", "lvl-2", "lvl-4", "lvl-5", "lvl-6", "lvl-9"];
    sets.push(("SMB".into(), smb.iter().map(|l| fw.original(l)).collect()));
    let all: Vec<PathBuf> = sets.iter().flat_map(|(_, f)| f.clone()).collect();
    let plays = fw
        .play(classes, timer, &AGENTS, &all, progress)
        .unwrap_or_else(|e| fail(&e));
    let won = |f: &Path, agent: Option<&str>| {
        let ps: Vec<&Play> = plays
            .iter()
            .filter(|p| p.file == f && agent.is_none_or(|a| p.agent == a))
            .collect();
        (ps.iter().filter(|p| p.won()).count(), ps.len())
    };
    println!("| setting | panel wins | share | A* wins | mean completion | mean estimate |");
    println!("|---|---|---|---|---|---|");
    let (mut est, mut share) = (Vec::new(), Vec::new());
    for (name, files) in &sets {
        let (mut w, mut t, mut aw, mut comp) = (0, 0, 0, 0.0);
        for f in files {
            let (fw_, ft) = won(f, None);
            w += fw_;
            t += ft;
            aw += won(f, Some("robinBaumgarten")).0;
            est.push(estimate_of(f));
            share.push(fw_ as f64 / ft.max(1) as f64);
        }
        for p in plays.iter().filter(|p| files.contains(&p.file)) {
            comp += p.completion as f64;
        }
        let e: f64 = files.iter().map(|f| estimate_of(f)).sum::<f64>() / files.len() as f64;
        println!(
            "| {name} | {w}/{t} | {:.2} | {aw}/{} | {:.2} | {e:.2} |",
            w as f64 / t.max(1) as f64,
            files.len(),
            comp / t.max(1) as f64
        );
    }
    println!();
    println!(
        "| agent | {} |",
        sets.iter()
            .map(|s| s.0.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(sets.len()));
    for a in AGENTS {
        let cells: Vec<String> = sets
            .iter()
            .map(|(_, files)| {
                let w: usize = files.iter().map(|f| won(f, Some(a)).0).sum();
                format!("{w}/{}", files.len())
            })
            .collect();
        println!("| {a} | {} |", cells.join(" | "));
    }
    println!();
    println!("| setting | lost to a fall | to an enemy | out of time | agent error |");
    println!("|---|---|---|---|---|");
    for (name, files) in &sets {
        let count = |f: &dyn Fn(&Play) -> bool| {
            plays
                .iter()
                .filter(|p| files.contains(&p.file) && f(p))
                .count()
        };
        println!(
            "| {name} | {} | {} | {} | {} |",
            count(&|p| p.cause == "fall"),
            count(&|p| p.cause == "enemy"),
            count(&|p| p.status == "TIME_OUT"),
            count(&|p| p.status == "ERROR"),
        );
    }
    println!();
    println!(
        "estimate vs panel win share over {} levels: Spearman {:.2}, Pearson {:.2}",
        est.len(),
        panel::spearman(&est, &share),
        panel::pearson(&est, &share)
    );
}

fn run_astar(
    fw: &Framework,
    classes: &Path,
    dir: &Path,
    n: u64,
    timer: u32,
    (themes, diffs): (&[&str], &[u32]),
) {
    let mut rows: BTreeMap<(String, u32), (usize, usize, f64)> = BTreeMap::new();
    let (mut est, mut comp) = (Vec::new(), Vec::new());
    for &theme in themes {
        for &d in diffs {
            let name = format!("{theme}-d{d}");
            let files = write_levels(dir, &name, theme, d as f32, 0, n);
            let plays = fw
                .play(classes, timer, &["robinBaumgarten"], &files, progress)
                .unwrap_or_else(|e| fail(&e));
            let wins = plays.iter().filter(|p| p.won()).count();
            let c = plays.iter().map(|p| p.completion as f64).sum::<f64>();
            for p in &plays {
                est.push(estimate_of(&p.file));
                comp.push(if p.won() { 1.0 } else { 0.0 });
            }
            rows.insert(
                (theme.to_string(), d),
                (wins, plays.len(), c / plays.len().max(1) as f64),
            );
        }
    }
    let head: Vec<String> = diffs.iter().map(|d| format!("d{d}")).collect();
    println!("| theme | {} |", head.join(" | "));
    println!("|---|{}", "---|".repeat(diffs.len()));
    for &theme in themes {
        let cells: Vec<String> = diffs
            .iter()
            .map(|&d| {
                let (w, t, _) = rows[&(theme.to_string(), d)];
                format!("{w}/{t}")
            })
            .collect();
        println!("| {theme} | {} |", cells.join(" | "));
    }
    let (w, t) = rows.values().fold((0, 0), |(a, b), r| (a + r.0, b + r.1));
    println!();
    println!(
        "A* wins {w}/{t} ({:.1} %); estimate vs win over the levels: Spearman {:.2}",
        100.0 * w as f64 / t.max(1) as f64,
        panel::spearman(&est, &comp)
    );
}
