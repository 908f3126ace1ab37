//! `levelgen search` with control targets (one generator per asked value, `targets.json`)
//! and `--run-cell` (maps from any cell of a MAP-Elites archive).

use std::path::{Path, PathBuf};

mod common;
use common::{assert_success, bin, temp_dir};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("examples/search/{name}.json"))
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn targets_write_one_generator_each_with_its_measured_value() {
    let out = temp_dir("cli-search-targets").join("t");
    let run = bin()
        .arg("search")
        .arg(example("binary-targets"))
        .arg("--out")
        .arg(&out)
        .args(["--budget", "12", "--check", "4"])
        .output()
        .unwrap();
    assert_success(&run, "");
    let summary = String::from_utf8(run.stdout).unwrap();
    assert!(
        summary.starts_with("4 targets, 48 candidates in "),
        "{summary}"
    );
    assert!(summary.contains("measured on seeds 5..=8"), "{summary}");
    let table = read_json(&out.join("targets.json"));
    let rows = table.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for (i, (row, want)) in rows.iter().zip([20.0, 30.0, 40.0, 50.0]).enumerate() {
        assert_eq!(row["file"], format!("target-{}.json", i + 1));
        assert_eq!(row["target"]["longest_path"], want);
        assert_eq!(row["measured_seeds"], "5..=8");
        let measured = row["measured"]["longest_path"].as_f64().unwrap();
        assert_eq!(measured, row["means"]["longest_path"].as_f64().unwrap());
        assert!(out.join(format!("target-{}.json", i + 1)).is_file());
    }
    // A target's generator is a plain script, and its measured value is its maps' mean on
    // the fresh seeds 5..=8 (the exact longest path, as `levelgen analyze` measures it).
    let mut total = 0.0;
    for seed in 5..=8 {
        let map = bin()
            .arg("marahel")
            .arg(out.join("target-2.json"))
            .args(["--seed", &seed.to_string(), "--format", "json"])
            .output()
            .unwrap();
        assert_success(&map, "");
        let map: serde_json::Value = serde_json::from_slice(&map.stdout).unwrap();
        total += longest_path(&map);
    }
    let measured = rows[1]["measured"]["longest_path"].as_f64().unwrap();
    assert!((total / 4.0 - measured).abs() < 1e-9, "{total} {measured}");
    assert!(out.join("contact.png").is_file());
    assert!(!out.join("best.json").exists());
}

/// The exact longest shortest path over the `empty` cells of a map in levelgen's JSON.
fn longest_path(map: &serde_json::Value) -> f64 {
    let rows: Vec<Vec<bool>> = map["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str() == Some("empty"))
                .collect()
        })
        .collect();
    let (h, w) = (rows.len(), rows[0].len());
    let mut best = 0;
    for start in 0..w * h {
        if !rows[start / w][start % w] {
            continue;
        }
        let mut dist = vec![usize::MAX; w * h];
        let mut queue = std::collections::VecDeque::from([start]);
        dist[start] = 0;
        while let Some(c) = queue.pop_front() {
            let (x, y) = (c % w, c / w);
            let next = [
                (x > 0).then(|| c - 1),
                (x + 1 < w).then(|| c + 1),
                (y > 0).then(|| c - w),
                (y + 1 < h).then(|| c + w),
            ];
            for n in next.into_iter().flatten() {
                if rows[n / w][n % w] && dist[n] == usize::MAX {
                    dist[n] = dist[c] + 1;
                    best = best.max(dist[n]);
                    queue.push_back(n);
                }
            }
        }
    }
    best as f64
}

#[test]
fn run_cell_makes_the_maps_of_an_archive_cell() {
    let dir = temp_dir("cli-search-cell");
    let out = dir.join("s");
    let run = bin()
        .arg("search")
        .arg(example("cave-range"))
        .arg("--out")
        .arg(&out)
        .args(["--budget", "60", "--check", "4", "--quiet"])
        .output()
        .unwrap();
    assert_success(&run, "");
    let archive = read_json(&out.join("archive.json"));
    assert_eq!(archive["generator"], "marahel");
    let cell = &archive["grid"]["cells"][0];
    let xy = format!("{},{}", cell["x"], cell["y"]);
    let script = dir.join("cell.json");
    std::fs::write(&script, cell["script"].to_string()).unwrap();
    let from_cell = bin()
        .arg("search")
        .arg(out.join("archive.json"))
        .args(["--run-cell", &xy, "--seed", "7"])
        .output()
        .unwrap();
    assert_success(&from_cell, "");
    let direct = bin()
        .arg("marahel")
        .arg(&script)
        .args(["--seed", "7"])
        .output()
        .unwrap();
    assert_success(&direct, "");
    assert_eq!(from_cell.stdout, direct.stdout);
    assert_eq!(
        String::from_utf8_lossy(&from_cell.stdout).lines().count(),
        24
    );

    // Several maps go to a folder, in the format asked for.
    let maps = dir.join("maps");
    let many = bin()
        .arg("search")
        .arg(out.join("archive.json"))
        .args([
            "--run-cell",
            &xy,
            "--count",
            "3",
            "--format",
            "png",
            "--out",
        ])
        .arg(&maps)
        .output()
        .unwrap();
    assert_success(&many, "");
    for seed in 1..=3 {
        let file = maps.join(format!("cell-{}-{}-seed-{seed}.png", cell["x"], cell["y"]));
        assert_eq!(&std::fs::read(&file).unwrap()[1..4], b"PNG", "{file:?}");
    }

    // A cell outside the grid is an input error naming the grid.
    let bad = bin()
        .arg("search")
        .arg(out.join("archive.json"))
        .args(["--run-cell", "10,0"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(err.contains("cell 10,0 is outside the 10x10 grid"), "{err}");
}
