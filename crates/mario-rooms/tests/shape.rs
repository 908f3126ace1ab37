//! The shape of the embedded library's levels at every difficulty and theme, measured over
//! 40 seeds each: pits at difficulty 1 no wider than 4 columns, coins per 100 columns at
//! most twice SMB's mean, no featureless run over 20 columns; and the variety of the
//! section sequences and of the levels' content (feature-chunk reuse).

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

/// At every theme and difficulty, over a batch of 30 levels: at most 10 % of the 16-column
/// chunks with anything besides air and ground are found verbatim in another level, and
/// the levels follow at least 20 distinct section sequences.
#[test]
fn feature_chunks_are_rarely_reused_and_sequences_vary_at_every_setting() {
    use mario_rooms::measure::chunk_reuse;
    for theme in THEMES {
        let lib = Library::builtin_theme(theme).unwrap();
        for d in 1..=5 {
            let gs: Vec<_> = (0..30)
                .map(|s| generate(&lib, &cfg(d as f32), s).unwrap())
                .collect();
            let levels: Vec<MarioLevel> = gs.iter().map(|g| g.level.clone()).collect();
            let reuse = chunk_reuse(&levels);
            assert!(reuse <= 0.10, "{theme} d{d}: reuse {reuse:.3}");
            let seqs: BTreeSet<&Vec<String>> = gs.iter().map(|g| &g.sections).collect();
            assert!(seqs.len() >= 20, "{theme} d{d}: {} sequences", seqs.len());
        }
    }
}

#[test]
fn set_pieces_follow_the_teaching_curve_and_rise_with_difficulty() {
    use mario_rooms::setpiece::PIECES;
    let rating = |name: &str| PIECES.iter().find(|p| p.name == name).unwrap().rating;
    let lib = Library::builtin().unwrap();
    let mut means = Vec::new();
    for d in 1..=5 {
        let (mut sum, mut n, mut bare) = (0, 0, 0);
        for seed in 0..20 {
            let g = generate(&lib, &cfg(d as f32), seed).unwrap();
            let r: Vec<usize> = g.pieces.iter().map(|p| rating(p.1)).collect();
            // At 4 and 5 the dressing's gaps, plateaus and pipes can leave a level no flat
            // ground for a piece (1 level in these 20 at 4); below, every level has some.
            if r.is_empty() {
                bare += 1;
                assert!(d >= 4 && bare <= 1, "d{d} seed {seed}: no set piece");
                continue;
            }
            // Alone first: the first piece of every level is rated 1, and at d1 (taught)
            // every piece is a single challenge.
            assert!(r[0] == 1, "d{d} seed {seed}: {r:?}");
            if d == 1 {
                assert!(r.iter().all(|&x| x == 1), "seed {seed}: {r:?}");
            }
            sum += r.iter().sum::<usize>();
            n += r.len();
        }
        // At 5 about 2.8 per level (113 in 40 levels): the dressing's own features leave
        // less flat ground.
        assert!(2 * n >= 20 * 5, "d{d}: {n} pieces in 20 levels");
        means.push(sum as f64 / n as f64);
    }
    // Above difficulty 1 the pieces are rated higher; at 4 and 5 the dressing's own gaps,
    // plateaus and pipes leave less flat ground, so fewer and narrower pieces fit, and with
    // about three pieces a level the teaching curve ends at rating 3 (over 60 seeds the mean
    // rating is 1.35 at d1, 2.0 at d4, 1.7 at d5).
    assert!(means[1..].iter().all(|&m| m > means[0] + 0.25), "{means:?}");
}

#[test]
fn the_estimate_rises_with_the_asked_difficulty() {
    use mario_rooms::estimate::estimate;
    let lib = Library::builtin().unwrap();
    let means: Vec<f32> = (1..=5)
        .map(|d| {
            (0..40)
                .map(|s| estimate(&generate(&lib, &cfg(d as f32), s).unwrap().level))
                .sum::<f32>()
                / 40.0
        })
        .collect();
    assert!(means.windows(2).all(|m| m[1] > m[0]), "{means:?}");
    // Calibrated on these levels: 1 at difficulty 1, 5 at 5 (within rounding).
    assert!(
        (means[0] - 1.0).abs() < 0.1 && (means[4] - 5.0).abs() < 0.1,
        "{means:?}"
    );
}
