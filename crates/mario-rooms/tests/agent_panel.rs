//! The agent panel's runner (`tests/panel/mod.rs`): the framework-free parts always, the
//! framework run where `LEVELGEN_MARIO_FRAMEWORK` names a checkout of
//! amidos2006/Mario-AI-Framework and a JDK is on `PATH` (skipped with a notice otherwise,
//! as in CI, which cannot fetch the framework). The measurement itself is the example
//! `agent_panel` (figures in docs/mario.md).
mod panel;

use mario_rooms::{LevelConfig, Library, generate};

#[test]
fn a_runner_line_is_read_field_by_field() {
    let p = panel::parse_play("play\tmichal\td1/1000.txt\tLOSE\t0.25\t4\t132\t53\tfall")
        .expect("a play");
    assert_eq!(
        (
            p.agent.as_str(),
            p.status.as_str(),
            p.jumps,
            p.ticks,
            p.wall_ms,
            p.cause.as_str()
        ),
        ("michal", "LOSE", 4, 132, 53, "fall")
    );
    assert!((p.completion - 0.25).abs() < 1e-6 && !p.won());
    assert!(panel::parse_play("panel: michal on x: java.lang.NullPointerException").is_none());
    assert!(panel::parse_play("play\tmichal\tx\tWIN\tnot-a-number\t4\t1\t1\t-").is_none());
    // The runner's older eight-field line (no cause) is not read as a play.
    assert!(panel::parse_play("play\tmichal\tx\tWIN\t1\t4\t1\t1").is_none());
}

#[test]
fn rank_correlation_sees_order_not_scale() {
    let a = [1.0, 2.0, 3.0, 4.0];
    assert!((panel::spearman(&a, &[10.0, 20.0, 300.0, 4000.0]) - 1.0).abs() < 1e-9);
    assert!((panel::spearman(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-9);
    assert_eq!(panel::pearson(&a, &[1.0, 1.0, 1.0, 1.0]), 0.0);
}

/// The framework compiles with the runner, reads our level text and the framework's own, and
/// plays them for exactly the game timer: the do-nothing agent neither wins nor dies in 3 s of
/// game time (100 ticks of 30 ms, the first played by the framework before the agent's loop,
/// so 99 agent steps).
#[test]
fn the_framework_plays_our_levels() {
    let fw = match panel::Framework::locate() {
        Ok(fw) => fw,
        Err(why) => {
            eprintln!("agent panel test skipped: {why}");
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!("levelgen-panel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let classes = fw.build(&dir).expect("framework and runner compile");
    let lib = Library::builtin().unwrap();
    let cfg = LevelConfig {
        difficulty: Some((1.0, 1.0)),
        ..LevelConfig::default()
    };
    let ours = dir.join("ours.txt");
    std::fs::write(&ours, generate(&lib, &cfg, 7).unwrap().level.to_text()).unwrap();
    let files = vec![ours, fw.original("lvl-1")];
    let plays = fw
        .play(&classes, 3, &["doNothing"], &files, |_| {})
        .expect("the runner plays");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(plays.len(), 2);
    for (p, f) in plays.iter().zip(&files) {
        assert_eq!(&p.file, f);
        assert_eq!(
            (p.status.as_str(), p.ticks, p.cause.as_str()),
            ("TIME_OUT", 99, "-"),
            "{p:?}"
        );
        assert!(p.completion > 0.0 && p.completion < 0.1, "{p:?}");
    }
}
