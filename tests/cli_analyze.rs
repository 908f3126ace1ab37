//! `levelgen analyze`: files written, figures consistent, bad input exits 2.

use std::path::{Path, PathBuf};

mod common;
use common::{assert_success, bin};

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_analyze_{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small cave script of our own: noise, two CA passes, solid border.
const CAVE: &str = r#"{
  "metadata": {"min": "20x16", "max": "20x16"},
  "entities": ["solid", "empty"],
  "neighborhoods": {"all": "111,121,111"},
  "explorers": [
    {"type": "narrow_horz", "region": "map", "rules": ["self(any) -> self(solid:1|empty:1)"]},
    {"type": "narrow_horz", "region": "map", "parameters": {"replace": "buffer"},
     "rules": ["all(solid) > 4 -> self(solid)", "all(empty) > 4 -> self(empty)"]},
    {"type": "narrow_horz", "region": "map", "rules": ["plus(out) > 0 -> self(solid)"]}
  ]
}"#;

fn script(dir: &Path) -> PathBuf {
    let p = dir.join("cave.json");
    std::fs::write(&p, CAVE).unwrap();
    p
}

fn lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn writes_rows_summary_and_both_pngs() {
    let dir = tmp("ok");
    let input = script(&dir);
    let out = dir.join("er");
    let o = bin()
        .args(["analyze", "marahel"])
        .arg(&input)
        .args(["--count", "40", "--seed", "7", "--threads", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&o, "");
    let table = String::from_utf8_lossy(&o.stderr);
    assert!(table.contains("cave: 40/40 maps"), "{table}");
    assert!(table.contains("block_entropy"), "{table}");

    let rows = lines(&out.join("maps.csv"));
    assert_eq!(
        rows[0],
        "input,seed,width,height,empty_tiles,empty_fraction,regions,block_entropy,unknown_tiles,warnings"
    );
    assert_eq!(rows.len(), 41);
    assert!(rows[1].starts_with("cave,7,20,16,"), "{}", rows[1]);
    assert!(rows[40].starts_with("cave,46,"), "{}", rows[40]);
    // Every row's empty fraction is empty_tiles / 320 and lies in [0, 1].
    for r in &rows[1..] {
        let f: Vec<&str> = r.split(',').collect();
        let tiles: f64 = f[4].parse().unwrap();
        let frac: f64 = f[5].parse().unwrap();
        let entropy: f64 = f[7].parse().unwrap();
        assert!((frac - tiles / 320.0).abs() < 1e-12, "{r}");
        assert!((0.0..=1.0).contains(&entropy), "{r}");
    }

    let summary = lines(&out.join("summary.csv"));
    assert_eq!(summary[0], "input,metric,n,mean,median,min,max");
    assert!(
        summary
            .iter()
            .any(|l| l.starts_with("cave,width,40,20,20,20,20")),
        "{summary:?}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["seeds"], "7..47");
    assert_eq!(json["inputs"][0]["ok"], 40);
    let e = &json["inputs"][0]["metrics"]["empty_fraction"];
    assert!(e["min"].as_f64().unwrap() <= e["median"].as_f64().unwrap());
    assert!(e["median"].as_f64().unwrap() <= e["max"].as_f64().unwrap());

    for png in ["heatmap.png", "entropy.png"] {
        let bytes = std::fs::read(out.join(png)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{png}");
        assert!(bytes.len() > 2000, "{png} is suspiciously small");
    }
}

#[test]
fn seed_ranges_concatenate_and_threads_do_not_matter() {
    let dir = tmp("split");
    let input = script(&dir);
    let run = |seeds: &str, threads: &str, out: &str| {
        let o = bin()
            .args(["analyze", "marahel"])
            .arg(&input)
            .args(["--seeds", seeds, "--threads", threads, "-q", "--out"])
            .arg(dir.join(out))
            .output()
            .unwrap();
        assert_success(&o, "");
        assert!(
            o.stdout.is_empty() && o.stderr.is_empty(),
            "quiet run printed"
        );
        lines(&dir.join(out).join("maps.csv"))
    };
    let whole = run("0..30", "1", "whole");
    let whole2 = run("0..30", "2", "whole2");
    assert_eq!(whole, whole2);
    let a = run("0..12", "2", "a");
    let b = run("12..30", "2", "b");
    let mut joined = a.clone();
    joined.extend(b.into_iter().skip(1));
    assert_eq!(whole, joined);
}

#[test]
fn empty_names_and_blocks_are_used() {
    let dir = tmp("names");
    let input = script(&dir);
    let out = dir.join("er");
    // Counting solid as empty: fractions become 1 - the default ones.
    let o = bin()
        .args(["analyze", "marahel"])
        .arg(&input)
        .args([
            "--count", "5", "--empty", "solid", "--blocks", "4x2", "-q", "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&o, "");
    let solid = lines(&out.join("maps.csv"));
    let o = bin()
        .args(["analyze", "marahel"])
        .arg(&input)
        .args(["--count", "5", "--blocks", "4x2", "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let empty = lines(&out.join("maps.csv"));
    for (s, e) in solid[1..].iter().zip(&empty[1..]) {
        let fs: f64 = s.split(',').nth(5).unwrap().parse().unwrap();
        let fe: f64 = e.split(',').nth(5).unwrap().parse().unwrap();
        assert!((fs + fe - 1.0).abs() < 1e-12, "{s} / {e}");
        // Binary entropy is symmetric, so the block entropy is the same (up to rounding).
        let hs: f64 = s.split(',').nth(7).unwrap().parse().unwrap();
        let he: f64 = e.split(',').nth(7).unwrap().parse().unwrap();
        assert!((hs - he).abs() < 1e-12, "{s} / {e}");
    }
    let json = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(json.contains("\"blocks\": \"4x2\""), "{json}");
}

fn exit_code(args: &[&str], dir: &Path) -> (i32, String) {
    let o = bin()
        .args(args)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn bad_input_exits_2() {
    let dir = tmp("bad");
    let good = script(&dir);
    let good = good.to_str().unwrap();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"metadata\": ").unwrap();
    let broken = broken.to_str().unwrap();
    let missing = dir.join("missing.json");
    let missing = missing.to_str().unwrap();
    for (args, needle) in [
        (vec!["analyze", "nethack", good], "nethack"),
        (vec!["analyze", "marahel", broken], "broken.json"),
        (vec!["analyze", "marahel", missing], "missing.json"),
        (vec!["analyze", "marahel", good, "--empty", "lava"], "lava"),
        (vec!["analyze", "marahel", good, "--blocks", "0"], "0"),
        (vec!["analyze", "marahel", good, "--seeds", "9..3"], "9..3"),
        (vec!["analyze", "marahel", good, "--seeds", "4..4"], "4..4"),
        (vec!["analyze", "marahel", good, "--count", "0"], "0"),
        (
            vec![
                "analyze", "marahel", good, "--seeds", "0..5", "--count", "3",
            ],
            "--count",
        ),
    ] {
        let (code, err) = exit_code(&args, &dir);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Runs `analyze` for one generator on a few maps and returns the header of `maps.csv`.
fn analyze_few(generator: &str, input: &str, extra: &[&str], name: &str) -> Vec<String> {
    let dir = tmp(name);
    let out = dir.join("er");
    let o = bin()
        .args(["analyze", generator, input, "--count", "4", "-q"])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_success(&o, &format!("{generator}: "));
    for f in [
        "maps.csv",
        "summary.csv",
        "summary.json",
        "heatmap.png",
        "entropy.png",
    ] {
        assert!(out.join(f).is_file(), "{generator}: {f} missing");
    }
    let rows = lines(&out.join("maps.csv"));
    assert_eq!(rows.len(), 5, "{generator}: {rows:?}");
    rows
}

fn column(rows: &[String], name: &str) -> Vec<f64> {
    let i = rows[0].split(',').position(|c| c == name).unwrap();
    rows[1..]
        .iter()
        .map(|r| r.split(',').nth(i).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn heroes_rows_have_area_error_and_reachable_objects() {
    let rows = analyze_few(
        "heroes",
        "examples/heroes/duel.json",
        &["--size", "64"],
        "heroes",
    );
    assert!(rows[0].ends_with(
        "max_zone_area_error,mean_zone_area_error,objects,reachable_objects,forced_portals,planar_portals,removed_objects,terrain_features,border_obstacle_share"
    ));
    assert_eq!(column(&rows, "width"), vec![64.0; 4]);
    assert_eq!(column(&rows, "reachable_objects"), vec![1.0; 4]);
    assert!(column(&rows, "objects").iter().all(|&n| n > 0.0));
    // Duel at 64: mountains and forests stand in the zones, ridges line the borders.
    assert!(column(&rows, "terrain_features").iter().all(|&n| n >= 2.0));
    assert!(
        column(&rows, "border_obstacle_share")
            .iter()
            .all(|&s| (0.1..0.9).contains(&s))
    );
}

#[test]
fn heroes_takes_a_config_and_its_map_size() {
    let dir = tmp("heroes_config_file");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("small.json");
    std::fs::write(&config, r#"{"mapSize": 32, "addRoads": false}"#).unwrap();
    let rows = analyze_few(
        "heroes",
        "examples/heroes/duel.json",
        &["--config", config.to_str().unwrap()],
        "heroes_config",
    );
    // No --size: the config's mapSize.
    assert_eq!(column(&rows, "width"), vec![32.0; 4]);
    // A bad config is an input error naming the file; other generators take none.
    for (generator, input, text) in [
        ("heroes", "examples/heroes/duel.json", r#"{"mapSize": 33}"#),
        (
            "heroes",
            "examples/heroes/duel.json",
            r#"{"mapSize": "big"}"#,
        ),
        (
            "marahel",
            "examples/marahel/cave.json",
            r#"{"mapSize": 32}"#,
        ),
    ] {
        std::fs::write(&config, text).unwrap();
        let o = bin()
            .args([
                "analyze", generator, input, "--count", "2", "-q", "--config",
            ])
            .arg(&config)
            .arg("--out")
            .arg(dir.join("er-bad"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{generator}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("small.json"), "{generator} {text}: {err}");
    }
}

#[test]
fn mario_rows_have_gaps_enemies_and_jumps() {
    let rows = analyze_few("mario", "builtin", &[], "mario");
    assert!(rows[0].ends_with(
        "gaps,gap_columns,enemies_per_100,height_changes,jumps,special_enemies,playable,longest_jump"
    ));
    assert_eq!(column(&rows, "height"), vec![16.0; 4]);
    assert_eq!(column(&rows, "playable"), vec![1.0; 4]);
    assert!(column(&rows, "jumps").iter().all(|&j| j > 0.0));
    assert!(column(&rows, "enemies_per_100").iter().all(|&e| e > 0.0));
    let widest = mario_rooms::difficulty::widest_gap() as f64;
    assert!(
        column(&rows, "longest_jump")
            .iter()
            .all(|&j| j >= 2.0 && j <= widest + 8.0)
    );
}

#[test]
fn mario_difficulty_inputs_draw_the_response_curves() {
    let out = tmp("mario_curves").join("er");
    let o = bin()
        .args([
            "analyze",
            "mario",
            "builtin@1",
            "builtin@5",
            "--count",
            "3",
            "-q",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&o, "mario curves: ");
    assert!(out.join("difficulty.png").is_file());
    let rows = lines(&out.join("maps.csv"));
    let k = rows[0]
        .split(',')
        .position(|c| c == "enemies_per_100")
        .unwrap();
    let mean = |label: &str| {
        let v: Vec<f64> = rows[1..]
            .iter()
            .filter(|r| r.starts_with(&format!("{label},")))
            .map(|r| r.split(',').nth(k).unwrap().parse::<f64>().unwrap())
            .collect();
        assert_eq!(v.len(), 3, "{label}");
        v.iter().sum::<f64>() / 3.0
    };
    assert!(mean("builtin@5") > 2.0 * mean("builtin@1"));
    let bad = bin()
        .args([
            "analyze",
            "mario",
            "builtin@9",
            "--count",
            "1",
            "-q",
            "--out",
        ])
        .arg(tmp("mario_curves_bad"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn zones_rows_have_states_and_mismatches() {
    let rows = analyze_few("zones", "seamless", &["--size", "8"], "zones");
    assert!(rows[0].ends_with(
        "distinct_states,distinct_classes,all_off_zones,all_on_zones,mismatched_pairs,mismatched_cells"
    ));
    assert_eq!(column(&rows, "width"), vec![24.0; 4]);
    assert_eq!(column(&rows, "mismatched_pairs"), vec![0.0; 4]);
    let states =
        lines(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_analyze_zones/er/zone_states.csv"));
    assert_eq!(states[0], "input,state,cells,class,count,fraction");
    assert_eq!(states.len(), 513);
    let total: u64 = states[1..]
        .iter()
        .map(|l| l.split(',').nth(4).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 4 * 64);
    assert!(column(&rows, "distinct_states").iter().all(|&n| n >= 1.0));
}

#[test]
fn generator_specific_bad_input_exits_2() {
    let dir = tmp("bad_gen");
    for (args, needle) in [
        (
            vec![
                "analyze",
                "heroes",
                "examples/heroes/duel.json",
                "--size",
                "100",
            ],
            "100",
        ),
        (vec!["analyze", "mario", "no/such/library"], "library"),
        (
            vec!["analyze", "zones", "no-such-config.json"],
            "no-such-config.json",
        ),
    ] {
        let o = bin()
            .args(&args)
            .arg("--out")
            .arg(dir.join("out"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `--x`/`--y` take every metric of grid-core's registry: each pair draws a heat map that
/// differs from the default pair's, and an unknown name is bad input naming the known ones.
#[test]
fn heat_map_axes_take_every_registered_metric() {
    use grid_core::metrics::registry::METRICS;
    let dir = tmp("axes");
    let input = script(&dir);
    let run = |x: &str, y: &str, out: &str| {
        bin()
            .args(["analyze", "marahel"])
            .arg(&input)
            .args(["--count", "12", "-q", "--x", x, "--y", y, "--out"])
            .arg(dir.join(out))
            .output()
            .unwrap()
    };
    let o = run("empty_fraction", "regions", "default");
    assert_success(&o, "");
    let default = std::fs::read(dir.join("default/heatmap.png")).unwrap();
    for m in &METRICS {
        // Every metric across, against one that makes the pair other than the default.
        let other = if m.name == "longest_path" {
            "regions"
        } else {
            "longest_path"
        };
        let out = format!("axes-{}", m.name);
        let o = run(m.name, other, &out);
        assert_success(&o, m.name);
        let png = std::fs::read(dir.join(&out).join("heatmap.png")).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{}", m.name);
        assert!(png != default, "{} vs {other} drew the default map", m.name);
        // The rest of the analysis does not depend on the axes.
        assert_eq!(
            lines(&dir.join(&out).join("maps.csv")),
            lines(&dir.join("default/maps.csv"))
        );
    }
    let o = run("corridors", "regions", "bad");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("corridors") && err.contains("longest_path"),
        "{err}"
    );
}
