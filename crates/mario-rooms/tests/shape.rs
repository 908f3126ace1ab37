//! The shape of the embedded library's levels at every difficulty and theme, measured over
//! 40 seeds each: pits at difficulty 1 no wider than 4 columns, coins per 100 columns at
//! most twice SMB's mean, no featureless run over 20 columns; and the variety of the
//! section sequences.

use mario_rooms::measure::{longest_featureless, widest_pit};
use mario_rooms::{Features, LevelConfig, Library, MarioLevel, THEMES, generate};
use std::collections::BTreeSet;
use std::path::Path;

/// SMB's coins per 100 columns (coin tiles and coin blocks) over the framework's first five
/// original levels, as `docs/mario.md` states it.
const SMB_COINS: f64 = 9.52;

fn cfg(d: f32) -> LevelConfig {
    LevelConfig {
        difficulty: Some((d, d)),
        ..LevelConfig::default()
    }
}

#[test]
fn smb_coin_rate_is_the_one_stated() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fixtures/mario-levels/original");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: ../shared/fixtures/mario-levels not found");
        return;
    };
    let (mut coins, mut cols, mut runs) = (0, 0, 0);
    for e in entries {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let l = MarioLevel::parse("smb", &text).unwrap();
        let f = Features::of(&l);
        coins += f.coins;
        cols += f.width;
        runs = runs.max(longest_featureless(&l));
    }
    let rate = coins as f64 * 100.0 / cols as f64;
    assert!((rate - SMB_COINS).abs() < 0.005, "{rate}");
    assert_eq!(runs, 16, "SMB's longest featureless run");
}

#[test]
fn pits_coins_and_flat_runs_are_on_smbs_scale() {
    for theme in THEMES {
        let lib = Library::builtin_theme(theme).unwrap();
        for d in 1..=5 {
            for seed in 0..40 {
                let l = generate(&lib, &cfg(d as f32), seed).unwrap().level;
                let at = format!("{theme} d{d} seed {seed}");
                if d == 1 {
                    assert!(widest_pit(&l) <= 4, "{at}: pit {}", widest_pit(&l));
                }
                let coins = Features::of(&l).coins_per_100();
                assert!(coins <= 2.0 * SMB_COINS, "{at}: {coins} coins per 100");
                let run = longest_featureless(&l);
                assert!(run <= 20, "{at}: featureless run of {run}");
            }
        }
    }
}

#[test]
fn every_theme_has_20_section_sequences_in_30_seeds() {
    for theme in THEMES {
        let lib = Library::builtin_theme(theme).unwrap();
        let seqs: BTreeSet<Vec<String>> = (0..30)
            .map(|s| generate(&lib, &LevelConfig::default(), s).unwrap().sections)
            .collect();
        assert!(seqs.len() >= 20, "{theme}: {} sequences", seqs.len());
    }
}
