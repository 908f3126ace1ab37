//! The CLI frame: help lists every subcommand, bad flags exit with code 2 and no backtrace.

use std::process::Command;

fn levelgen(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_levelgen"))
        .args(args)
        .output()
        .expect("levelgen runs")
}

#[test]
fn help_lists_every_subcommand() {
    let out = levelgen(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in ["marahel", "heroes", "mario", "zones", "analyze"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(sub)),
            "--help does not list {sub}:\n{text}"
        );
    }
}

#[test]
fn unknown_flags_and_subcommands_exit_with_code_2() {
    for args in [
        &["--no-such-flag"][..],
        &["dungeon"][..],
        &["marahel", "--seed", "x"][..],
    ] {
        let out = levelgen(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
        assert!(!err.is_empty());
    }
}
