//! Error messages quote hostile input as a short excerpt, never whole and never as debug
//! output of internal types: a 100 KB argument or a 400 KB rule gives a short error line.

mod common;
use common::{bin, example, temp_dir};

#[test]
fn long_input_gives_short_errors() {
    let x = "x".repeat(100_000);
    let cave = example("marahel/cave.json");
    let duel = example("heroes/duel.json");
    let dir = temp_dir("cli-messages");
    let huge = dir.join("huge.json");
    let mut script: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cave).unwrap()).unwrap();
    script["explorers"][0]["rules"][0] =
        format!("random < {} -> self(solid)", "9".repeat(200_000)).into();
    std::fs::write(&huge, script.to_string()).unwrap();
    let huge = huge.display().to_string();
    let set_path = format!("explorers.{x}=1");
    let set_value = format!("zones.0.surface={x}");
    let flag = format!("--{x}");
    let runs: Vec<Vec<&str>> = vec![
        vec!["marahel", &cave, "--size", &x],
        vec!["marahel", &cave, "--seeds", &x],
        vec![&flag],
        vec!["zones", "--origin", &x],
        vec!["mario", "--difficulty", &x],
        vec!["mario", "--sequence", &x],
        vec!["marahel", &huge],
        vec!["marahel", &cave, "--set", &set_path],
        vec!["heroes", &duel, "--set", &set_value],
        vec!["analyze", "marahel", &cave, "--empty", ",,", "--out", &x],
    ];
    for args in runs {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let what = format!(
            "{:?}",
            args.iter()
                .map(|a| &a[..a.len().min(30)])
                .collect::<Vec<_>>()
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{what}: {}",
            &err[..err.len().min(300)]
        );
        assert!(err.len() < 2_000, "{what}: {} bytes of error", err.len());
        assert!(
            err.starts_with("error"),
            "{what}: {}",
            &err[..err.len().min(300)]
        );
        assert!(!err.contains("panicked"), "{what}");
    }
}

/// Summaries name modes in words, not as debug output (`Reference`).
#[test]
fn summaries_use_words_not_debug_output() {
    let out = bin().args(["zones", "--size", "3x3"]).output().unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("(seamless mode)"), "{err}");
    let out = bin()
        .args(["zones", "--origin", "a\u{1}b"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(r#"--origin "a\u{1}b""#), "{err}");
}
