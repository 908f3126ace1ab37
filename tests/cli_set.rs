//! `--set PATH=VALUE` changes one value of a JSON input (marahel scripts, heroes templates;
//! `--config-set` for the heroes config) through `grid_core::overrides`, without editing the
//! file; a path that leads nowhere is bad input naming it.

mod common;
use common::{bin, example, temp_dir};
use std::process::Output;

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

#[test]
fn marahel_set_changes_the_script() {
    let cave = example("marahel/cave.json");
    let out = run(&[
        "marahel",
        &cave,
        "--set",
        "metadata.min=10x5",
        "--set",
        "/metadata/max=10x5",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text.lines().all(|l| l.chars().count() == 10), "{text}");
    // A number replaces a number.
    let more = run(&[
        "marahel",
        &cave,
        "--set",
        "explorers.1.parameters.repeats=1",
    ]);
    assert!(more.status.success());
    assert_ne!(more.stdout, run(&["marahel", &cave]).stdout);
}

#[test]
fn a_set_path_that_leads_nowhere_is_bad_input() {
    let cave = example("marahel/cave.json");
    for (set, needle) in [
        ("explorers.9.type=drunk", "/explorers has no \"9\""),
        ("metadata.min.x=3", "not an object or array"),
        ("nonsense", "expected PATH=VALUE"),
    ] {
        let out = run(&["marahel", &cave, "--set", set]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{set}: {err}");
        assert!(err.contains(needle), "{set}: {err}");
    }
}

#[test]
fn heroes_set_and_config_set() {
    let duel = example("heroes/duel.json");
    let plain = run(&["heroes", &duel, "--size", "32"]);
    assert!(plain.status.success());
    // A value that is not JSON is text: the surface name. The .hmm map shows it.
    let hmm = |extra: &[&str]| {
        let out = bin()
            .args(["heroes", &duel, "--size", "32", "--format", "hmm"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_ne!(hmm(&[]), hmm(&["--set", "zones.0.surface=SNOW"]));
    // The built-in config's map size, changed without a config file.
    let small = run(&["heroes", &duel, "--config-set", "mapSize=32"]);
    assert!(
        small.status.success(),
        "{}",
        String::from_utf8_lossy(&small.stderr)
    );
    assert_eq!(small.stdout, plain.stdout);
    let out = run(&["heroes", &duel, "--config-set", "noSuchKey.x=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("built-in config"));
}

/// A heroes `--config` holding `[]` (or any JSON that is not an object) was accepted and
/// ran with the defaults.
#[test]
fn a_config_that_is_not_an_object_is_rejected() {
    let dir = temp_dir("cli-set");
    let duel = example("heroes/duel.json");
    for (name, text) in [
        ("list.json", "[]"),
        ("num.json", "5"),
        ("null.json", "null"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = bin()
            .args(["heroes", &duel, "--size", "32", "--config"])
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        assert!(err.contains("expected a JSON object"), "{text}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// `mario --set` changes the level settings exactly as the flag for the same setting does,
/// and a path the settings do not have is bad input.
#[test]
fn mario_set_changes_the_settings_like_a_flag() {
    let by_flag = run(&["mario", "--seed", "3", "--difficulty", "4"]);
    let by_set = run(&["mario", "--seed", "3", "--set", "difficulty=[4,4]"]);
    assert!(by_flag.status.success() && by_set.status.success());
    assert_eq!(by_flag.stdout, by_set.stdout);
    let plain = run(&["mario", "--seed", "3"]);
    assert_ne!(plain.stdout, by_set.stdout, "the setting changes the level");
    let bad = run(&["mario", "--set", "difficultty=[4,4]"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--set"));
}

/// `zones --set` reaches any setting of the zone configuration, as its flags do.
#[test]
fn zones_set_changes_the_settings_like_a_flag() {
    let by_flag = run(&["zones", "--size", "6x4", "--reference"]);
    // `--reference` is the reference's look: its mode, without the macro layer.
    let by_set = run(&[
        "zones",
        "--size",
        "6x4",
        "--set",
        "mode=reference",
        "--set",
        "structure.weight=0",
    ]);
    assert!(by_flag.status.success() && by_set.status.success());
    assert_eq!(by_flag.stdout, by_set.stdout);
    let plain = run(&["zones", "--size", "6x4"]);
    assert_ne!(plain.stdout, by_set.stdout);
    let bad = run(&["zones", "--set", "noise.octavs=3"]);
    assert_eq!(bad.status.code(), Some(2));
}
