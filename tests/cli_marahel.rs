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

/// `--objects`: roguelike's player, enemies and treasure become a TMX object group that the
/// `tiled` crate reads with one object per such cell, and a JSON `objects` list; a name the
/// script lacks, or a format without objects, is bad input.
#[test]
fn entities_declared_as_objects_are_exported_as_objects() {
    let dir = std::env::temp_dir().join(format!("levelgen-objects-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/marahel/roguelike.json"
    );
    let names = "player,enemy,treasure";
    let run = |out: &std::path::Path, extra: &[&str]| {
        bin()
            .args([
                "marahel",
                script,
                "--seed",
                "1",
                "--objects",
                names,
                "--out",
            ])
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };
    let plain = bin()
        .args(["marahel", script, "--seed", "1", "--format", "json"])
        .output()
        .unwrap();
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    let expected = plain["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .filter(|t| ["player", "enemy", "treasure"].contains(&t.as_str().unwrap()))
        .count();
    assert!(expected >= 3, "{plain}");

    let tmx = dir.join("dungeon.tmx");
    let o = run(&tmx, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let map = tiled::Loader::new().load_tmx_map(&tmx).unwrap();
    let group = map.get_layer(1).unwrap().as_object_layer().unwrap();
    assert_eq!(group.objects().len(), expected);
    assert!(group.objects().any(|o| o.name == "player"));

    let json = dir.join("dungeon.json");
    assert!(run(&json, &[]).status.success());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["objects"].as_array().unwrap().len(), expected);

    let bad = bin()
        .args(["marahel", script, "--objects", "dragon", "--out"])
        .arg(dir.join("x.tmx"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("\"dragon\" is not an entity of"));
    let png = run(&dir.join("x.png"), &[]);
    assert_eq!(png.status.code(), Some(2));
}
