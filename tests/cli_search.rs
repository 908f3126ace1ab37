//! `levelgen search`: the output folder, the same bytes from the same spec and seed, the best
//! script running as it is under `levelgen marahel`, and exit code 2 on a bad spec.

use std::path::PathBuf;

mod common;
use common::{assert_success, bin, temp_dir};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("examples/search/{name}.json"))
}

fn search(spec: &str, out: &PathBuf, extra: &[&str]) -> String {
    let run = bin()
        .arg("search")
        .arg(example(spec))
        .arg("--out")
        .arg(out)
        .args(["--check", "10"])
        .args(extra)
        .output()
        .unwrap();
    assert_success(&run, "");
    String::from_utf8(run.stdout).unwrap()
}

#[test]
fn writes_the_folder_reproducibly_and_best_runs_as_is() {
    let dir = temp_dir("cli-search");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let summary = search("cave-range", &a, &["--budget", "120"]);
    search("cave-range", &b, &["--budget", "120"]);
    assert!(summary.starts_with("120 candidates in "), "{summary}");
    assert!(summary.contains("best.json"), "{summary}");
    for file in ["archive.json", "log.csv", "best.json", "check.json"] {
        let (x, y) = (
            std::fs::read(a.join(file)).unwrap(),
            std::fs::read(b.join(file)).unwrap(),
        );
        assert_eq!(x, y, "{file} differs between two runs");
    }
    for png in ["heatmap.png", "contact.png"] {
        let bytes = std::fs::read(a.join(png)).unwrap();
        assert_eq!(&bytes[1..4], b"PNG", "{png}");
    }
    let archive: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("archive.json")).unwrap()).unwrap();
    assert_eq!(archive["evaluations"], 120);
    assert!(!archive["grid"]["cells"].as_array().unwrap().is_empty());
    let log = std::fs::read_to_string(a.join("log.csv")).unwrap();
    assert!(log.starts_with("evaluations,best_fitness,"));
    assert!(log.trim_end().ends_with(&format!(
        ",{}",
        archive["grid"]["cells"].as_array().unwrap().len()
    )));

    // The best generator is a plain Marahel script.
    let map = bin()
        .arg("marahel")
        .arg(a.join("best.json"))
        .args(["--seed", "3"])
        .output()
        .unwrap();
    assert_success(&map, "");
    assert_eq!(String::from_utf8(map.stdout).unwrap().lines().count(), 24);

    // Another seed, another run.
    let c = dir.join("c");
    search("cave-range", &c, &["--budget", "120", "--seed", "9"]);
    assert_ne!(
        std::fs::read(a.join("log.csv")).unwrap(),
        std::fs::read(c.join("log.csv")).unwrap()
    );
}

#[test]
fn bad_spec_exits_2_naming_the_place() {
    let dir = temp_dir("cli-search-bad");
    let spec = dir.join("bad.json");
    std::fs::write(
        &spec,
        r#"{"marahel": {"metadata": {"min": "5x5", "max": "5x5"}, "entities": ["empty", "solid"], "explorers": [{"type": "horz", "region": "map", "rules": ["-> self(solid)"]}]},
            "algorithm": {"type": "es"}, "constraints": [{"metric": "longest", "min": 3}]}"#,
    )
    .unwrap();
    let out = bin().arg("search").arg(&spec).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.json: constraints[0].metric: unknown metric \"longest\""),
        "{err}"
    );
}

#[test]
fn evolution_strategy_writes_no_heat_map() {
    let dir = temp_dir("cli-search-es").join("z");
    let summary = search("zelda", &dir, &["--budget", "60"]);
    assert!(summary.starts_with("60 candidates in "), "{summary}");
    assert!(dir.join("best.json").is_file());
    assert!(dir.join("contact.png").is_file());
    assert!(!dir.join("heatmap.png").exists());
    let checks: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("check.json")).unwrap()).unwrap();
    assert_eq!(checks[0]["maps"], 10);
    assert!(checks[0]["means"]["count:player"].is_number());
}
