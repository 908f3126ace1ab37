//! `levelgen marahel`: reproducible output, files, and exit code 2 with a located message on
//! bad scripts.

use std::path::PathBuf;

mod common;
use common::{assert_success, bin, temp_dir};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("examples/marahel/{name}.json"))
}

fn tmp(name: &str) -> PathBuf {
    temp_dir("cli-marahel").join(name)
}

#[test]
fn seed_is_reproducible_and_count_gives_consecutive_seeds() {
    let run = |args: &[&str]| {
        let out = bin()
            .arg("marahel")
            .arg(example("roguelike"))
            .args(args)
            .output()
            .unwrap();
        assert_success(&out, "");
        String::from_utf8(out.stdout).unwrap()
    };
    let a = run(&["--seed", "7"]);
    let b = run(&["--seed", "7"]);
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 44);
    assert!(a.contains('@'));
    assert_ne!(a, run(&["--seed", "8"]));
    let batch = run(&["--seed", "6", "--count", "2"]);
    assert!(batch.starts_with("seed 6\n"));
    assert!(batch.contains(&format!("seed 7\n{a}")), "{batch}");
    let sized = run(&["--seed", "1", "--size", "30x20"]);
    assert_eq!(sized.lines().count(), 20);
    assert!(sized.lines().all(|l| l.chars().count() == 30));
}

#[test]
fn writes_png_json_and_a_directory_of_maps() {
    let png = tmp("cave.png");
    let st = bin()
        .args(["marahel"])
        .arg(example("cave"))
        .arg("--out")
        .arg(&png)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    let dir = tmp("maps");
    let st = bin()
        .args(["marahel"])
        .arg(example("digger"))
        .args(["--seed", "3", "--count", "3", "--format", "json", "--out"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(st.success());
    for seed in 3..6 {
        let f = dir.join(format!("digger_{seed}.json"));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert!(v.is_object(), "{}", f.display());
    }
}

#[test]
fn bad_script_exits_2_naming_the_place() {
    let bad = tmp("bad.json");
    std::fs::write(
        &bad,
        r#"{"metadata": {"min": "10x10"}, "entities": ["solid", "empty"],
            "explorers": [{"type": "narrow_horz", "rules": ["-> self(solid)"]},
                          {"type": "narrow_horz", "rules": ["self(solid) -> plsu(empty)"]}]}"#,
    )
    .unwrap();
    let out = bin().arg("marahel").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("explorers[1].rules[0]"), "{err}");
    assert!(err.contains("unknown neighbourhood \"plsu\""), "{err}");
    let out = bin()
        .arg("marahel")
        .arg(tmp("missing.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .arg("marahel")
        .arg(example("cave"))
        .args(["--size", "0x3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn no_arguments_prints_the_cave_and_writes_its_png() {
    let dir = tmp("default");
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin().current_dir(&dir).output().unwrap();
    assert_success(&out, "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 40);
    assert!(text.lines().all(|l| l.chars().count() == 64));
    assert!(dir.join("levelgen-cave.png").is_file());
    assert!(String::from_utf8_lossy(&out.stderr).contains("levelgen-cave.png"));
}

/// A parameter the explorer ignores (`dirprob` on `horz`, as evolved scripts have) is a
/// warning naming its path, and the map is made; `--strict` turns it into an error.
#[test]
fn ignored_parameters_warn_and_strict_refuses_them() {
    let script = tmp("evolved.json");
    std::fs::write(
        &script,
        r#"{"metadata": {"min": "8x8", "max": "8x8"}, "entities": ["empty", "solid"],
            "explorers": [{"type": "horz", "region": "map", "parameters": {"dirprob": "0.8"},
                           "rules": ["self(any) -> self(solid:1|empty:1)"]}]}"#,
    )
    .unwrap();
    let out = bin().arg("marahel").arg(&script).output().unwrap();
    assert_success(&out, "a warning is not an error: ");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning") && err.contains("explorers[0].parameters.dirprob"),
        "{err}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 8);
    let strict = bin()
        .arg("marahel")
        .arg(&script)
        .arg("--strict")
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(2));
    assert!(strict.stdout.is_empty());
    let err = String::from_utf8_lossy(&strict.stderr);
    assert!(err.contains("dirprob"), "{err}");
}

/// A walking `maxDist` over a 300x300 map would search the map from each of its cells: the
/// run stops at once with exit code 2, naming the rule, the estimator and the limit.
#[test]
fn a_quadratic_walk_on_a_large_map_exits_2_naming_the_limit() {
    let script = tmp("max_dist.json");
    std::fs::write(
        &script,
        r#"{"metadata": {"min": "300x300", "max": "300x300"}, "entities": ["solid", "empty", "gold"],
            "explorers": [
              {"type": "narrow_horz", "rules": ["random < 0.3 -> self(solid)", "-> self(empty)"]},
              {"type": "narrow_horz", "parameters": {"replace": "buffer"},
               "rules": ["self(empty), maxDist(plus, solid, empty) > 5 -> self(gold)"]}]}"#,
    )
    .unwrap();
    let out = bin().arg("marahel").arg(&script).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("explorers[1].rules[0]"), "{err}");
    assert!(err.contains("maxDist(plus, solid, empty)"), "{err}");
    assert!(err.contains("limit of 100000000 steps"), "{err}");
}

/// `--compat reference` runs connect as the reference's tour: another map than the default
/// spanning tree, the same as the script's own `metadata.compat`, which `--compat default`
/// overrides.
#[test]
fn compat_reference_runs_the_references_connect() {
    let run = |extra: &[&str]| {
        let out = bin()
            .arg("marahel")
            .arg(example("cave"))
            .args(["--seed", "1"])
            .args(extra)
            .output()
            .unwrap();
        assert_success(&out, "compat: ");
        String::from_utf8(out.stdout).unwrap()
    };
    let default = run(&[]);
    let reference = run(&["--compat", "reference"]);
    assert_ne!(default, reference);
    assert_eq!(run(&["--set", "metadata.compat=reference"]), reference);
    let both = ["--set", "metadata.compat=reference", "--compat", "default"];
    assert_eq!(run(&both), default);
}
