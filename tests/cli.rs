//! The CLI frame: help lists every subcommand, bad flags exit with code 2 and no backtrace.

mod common;
use common::{assert_success, bin};

fn levelgen(args: &[&str]) -> std::process::Output {
    bin().args(args).output().expect("levelgen runs")
}

#[test]
fn help_lists_every_subcommand() {
    let out = levelgen(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in ["marahel", "heroes", "mario", "zones", "analyze", "studio"] {
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

/// Every generator's batch: `--seed 3 --count 3` and `--seeds 3..6` print the same maps, in
/// seed order, whether rayon has one thread or two.
#[test]
fn batches_are_ordered_and_independent_of_threads_and_seed_syntax() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases: [(&str, Vec<String>); 4] = [
        (
            "marahel",
            vec![format!("{root}/examples/marahel/cave.json")],
        ),
        (
            "heroes",
            vec![
                format!("{root}/examples/heroes/duel.json"),
                "--size".into(),
                "32".into(),
            ],
        ),
        ("mario", vec![]),
        ("zones", vec!["--zones".into(), "4x3".into()]),
    ];
    for (sub, extra) in cases {
        let run = |seeds: &[&str], threads: &str| {
            let out = bin()
                .arg(sub)
                .args(&extra)
                .args(seeds)
                .env("RAYON_NUM_THREADS", threads)
                .output()
                .expect("levelgen runs");
            assert_success(&out, &format!("{sub}: "));
            out.stdout
        };
        let counted = run(&["--seed", "3", "--count", "3"], "2");
        assert_eq!(counted, run(&["--seeds", "3..6"], "2"), "{sub}: --seeds");
        assert_eq!(counted, run(&["--seeds", "3..6"], "1"), "{sub}: 1 thread");
        // The batch is the three single maps, concatenated in seed order.
        let singles: Vec<u8> = ["3", "4", "5"]
            .iter()
            .flat_map(|s| run(&["--seed", s], "1"))
            .collect();
        if sub == "marahel" {
            // Batches of text maps are headed by their seed.
            let text = String::from_utf8(counted).unwrap();
            assert!(text.starts_with("seed 3\n"));
            let stripped: String = text
                .split("\n\n")
                .filter(|b| !b.is_empty())
                .map(|b| b.split_once('\n').unwrap().1.to_string() + "\n")
                .collect();
            assert_eq!(stripped.as_bytes(), &singles[..], "{sub}: order");
        } else {
            assert_eq!(counted, singles, "{sub}: order");
        }
    }
}
