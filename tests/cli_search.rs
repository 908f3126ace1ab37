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
    // The log counts the cells the search filled; the archive holds its elites scored
    // again on fresh seeds, where two elites can fall into one cell.
    let filled: usize = log.trim_end().rsplit(',').next().unwrap().parse().unwrap();
    let cells = archive["grid"]["cells"].as_array().unwrap().len();
    assert!(cells <= filled && cells > 0, "{cells} of {filled}");

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

/// The lines of a `.args` file as arguments (the single quotes `xargs` would remove).
fn args_of(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            l.strip_prefix('\'')
                .and_then(|l| l.strip_suffix('\''))
                .map_or(l.to_string(), |l| l.replace("'\\''", "'"))
        })
        .collect()
}

#[test]
fn best_settings_run_under_their_generators_commands() {
    let dir = temp_dir("cli-search-generators");
    // Mario: the flags make the very level the settings JSON makes.
    let out = dir.join("mario");
    search("mario-enemies", &out, &["--budget", "12"]);
    let args = args_of(&out.join("best.args"));
    let run = bin()
        .arg("mario")
        .args(&args)
        .args(["--seed", "5"])
        .output()
        .unwrap();
    assert_success(&run, "");
    let cfg: mario_rooms::LevelConfig =
        serde_json::from_slice(&std::fs::read(out.join("best.json")).unwrap()).unwrap();
    let theme = &args[args.iter().position(|a| a == "--theme").unwrap() + 1];
    let lib = mario_rooms::Library::builtin_theme(theme).unwrap();
    let level = mario_rooms::generate(&lib, &cfg, 5).unwrap().level;
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        level.to_text() + "\n"
    );
    // Zones: `--set` lines; Heroes: the template with `--size`.
    let out = dir.join("zones");
    search("zones-floor", &out, &["--budget", "12"]);
    let run = bin()
        .arg("zones")
        .args(args_of(&out.join("best.args")))
        .output()
        .unwrap();
    assert_success(&run, "");
    let out = dir.join("heroes");
    search("heroes-areas", &out, &["--budget", "4"]);
    let run = bin()
        .arg("heroes")
        .arg(out.join("best.json"))
        .args(args_of(&out.join("best.args")))
        .args(["--out"])
        .arg(dir.join("h.png"))
        .output()
        .unwrap();
    assert_success(&run, "");
    assert!(dir.join("h.png").exists());
}

/// `best.json` is the generator the final check ranks first, the rest follow in check
/// order (feasible share, then fitness), on every shipped example (tiny budgets).
#[test]
fn best_json_is_first_in_the_check_on_every_example() {
    let dir = temp_dir("cli-search-order");
    let mut names: Vec<String> =
        std::fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/search"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
            .collect();
    names.sort();
    assert!(names.len() >= 6, "{names:?}");
    for name in &names {
        let budget = match name.as_str() {
            "mario-enemies" | "heroes-areas" => "8",
            _ => "24",
        };
        let out = dir.join(name);
        search(name, &out, &["--budget", budget]);
        if out.join("targets.json").is_file() {
            // A control-target spec writes one generator per target, no best.json
            // (tests/cli_search_targets.rs).
            assert!(!out.join("best.json").exists(), "{name}");
            continue;
        }
        let checks: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("check.json")).unwrap()).unwrap();
        let checks = checks.as_array().unwrap();
        assert!(!checks.is_empty(), "{name}");
        for (i, c) in checks.iter().enumerate() {
            let file = if i == 0 {
                "best.json".to_string()
            } else {
                format!("best-{}.json", i + 1)
            };
            assert_eq!(c["file"], file.as_str(), "{name}");
            assert!(out.join(&file).is_file(), "{name}: {file}");
        }
        let key = |c: &serde_json::Value| {
            (
                c["feasible"].as_f64().unwrap(),
                c["fitness"].as_f64().unwrap(),
            )
        };
        for pair in checks.windows(2) {
            let (a, b) = (key(&pair[0]), key(&pair[1]));
            assert!(
                a.0 > b.0 || (a.0 == b.0 && a.1 >= b.1),
                "{name}: {a:?} before {b:?}"
            );
        }
        // Nothing beyond the kept ones.
        assert!(
            !out.join(format!("best-{}.json", checks.len() + 1)).exists(),
            "{name}"
        );
    }
}

/// A metric that fails on every map after the first (the one tried when the spec is read):
/// candidates are invalid, and the summary says why the first was.
#[test]
fn the_summary_names_why_candidates_were_invalid() {
    let dir = temp_dir("cli-search-invalid");
    let seen = dir.join("seen");
    let script = format!(
        "cat > /dev/null; if [ -e '{0}' ]; then exit 3; fi; touch '{0}'; echo 1",
        seen.display()
    );
    let spec = serde_json::json!({
        "marahel": {
            "metadata": {"min": "8x8", "max": "8x8"}, "entities": ["empty", "solid"],
            "explorers": [{"type": "horz", "region": "map", "rules": ["random < 0.5 -> self(solid)", "-> self(empty)"]}]
        },
        "vary": [{"path": "explorers.0.rules.0", "grammar": {"start": "random < <p> -> self(solid)",
                  "rules": {"<p>": {"float": [0.0, 1.0]}}, "codons": 1}}],
        "metrics": {"flaky": {"command": ["sh", "-c", script]}},
        "objectives": [{"metric": "flaky"}],
        "algorithm": {"type": "es", "mu": 2, "lambda": 4},
        "budget": {"evaluations": 8}, "maps": 2, "seed": 1
    });
    let path = dir.join("flaky.json");
    std::fs::write(&path, spec.to_string()).unwrap();
    let run = bin()
        .arg("search")
        .arg(&path)
        .arg("--out")
        .arg(dir.join("out"))
        .args(["--check", "2"])
        .output()
        .unwrap();
    assert_success(&run, "");
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(
        stdout.contains("some candidates were invalid (log.csv counts them in batch_invalid); the first: metric flaky: the command failed (exit status: 3)"),
        "{stdout}"
    );
    // Only a candidate whose maps all equal the first map (cached) stays valid: fewer than
    // `keep` are kept, and the summary says why.
    assert!(
        stdout.contains("kept 1 of 5: no other candidate differed from the kept ones on 95% of the seeds (selection.differing)"),
        "{stdout}"
    );
    let archive: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out/archive.json")).unwrap()).unwrap();
    assert!(
        archive["first_error"]
            .as_str()
            .unwrap()
            .starts_with("metric flaky: the command failed"),
        "{archive}"
    );
}
