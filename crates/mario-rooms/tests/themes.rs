//! The embedded library's themes: enough rooms and sections, each theme's levels playable
//! and in character, no section twice in a row, and varied batches.

use mario_rooms::measure::{batch_variety, top_half_filled};
use mario_rooms::{LevelConfig, Library, MarioLevel, THEMES, generate};

fn levels(theme: &str, seeds: std::ops::Range<u64>) -> Vec<mario_rooms::GeneratedLevel> {
    let lib = Library::builtin_theme(theme).unwrap();
    seeds
        .map(|s| generate(&lib, &LevelConfig::default(), s).unwrap())
        .collect()
}

#[test]
fn four_themes_hold_eighty_rooms_and_fifteen_sections() {
    let (mut rooms, mut sections) = (0, 0);
    for theme in THEMES {
        let lib = Library::builtin_theme(theme).unwrap();
        assert!(lib.diagnostics.is_empty(), "{theme}");
        assert!(lib.rooms.len() >= 15, "{theme}: {} rooms", lib.rooms.len());
        for role in ["intro", "hard", "twist"] {
            assert!(
                lib.sections.iter().any(|s| s.has_role(role)),
                "{theme} {role}"
            );
        }
        // Every middle room passes the per-room check (`levelgen mario --check-rooms`).
        let failures = mario_rooms::playability::unplayable_rooms(&lib, 8);
        assert!(failures.is_empty(), "{theme}: {failures:#?}");
        rooms += lib.rooms.len();
        sections += lib.sections.len();
    }
    assert!(rooms >= 80, "{rooms} rooms");
    assert!(sections >= 15, "{sections} sections");
    let e = Library::builtin_theme("lava").unwrap_err().to_string();
    assert!(
        e.contains("overground, underground, athletic, castle"),
        "{e}"
    );
}

#[test]
fn every_theme_makes_playable_levels_in_character() {
    for theme in THEMES {
        let made = levels(theme, 0..12);
        for g in &made {
            assert!(
                g.report.as_ref().unwrap().playable,
                "{theme} seed {}",
                g.seed
            );
            for pair in g.sections.windows(2) {
                assert_ne!(
                    pair[0], pair[1],
                    "{theme} seed {}: {:?}",
                    g.seed, g.sections
                );
            }
        }
        let level_list: Vec<MarioLevel> = made.iter().map(|g| g.level.clone()).collect();
        let top: f64 =
            level_list.iter().map(top_half_filled).sum::<f64>() / level_list.len() as f64;
        // The top half's tiles that Mario can stand on or hit (coins left out: the shaping
        // thins them to SMB's scale).
        let solid_top = |l: &MarioLevel| {
            let rows = l.height() / 2;
            let n = (0..rows)
                .flat_map(|y| l.row(y))
                .filter(|&&c| !matches!(c, b'-' | b'o' | b'|'))
                .count();
            n as f64 / (rows * l.width()) as f64
        };
        let solid: f64 = level_list.iter().map(solid_top).sum::<f64>() / level_list.len() as f64;
        match theme {
            // Platforms over pits: at least 4 % of the top half is platform or block
            // (overground: under 2 %), at least 5 % with coins.
            "athletic" => assert!(solid >= 0.04 && top >= 0.05, "{theme}: {solid} {top}"),
            // A ceiling across the level.
            "underground" | "castle" => {
                for l in &level_list {
                    let row = (0..l.height()).find(|&y| l.row(y).iter().any(|&c| c != b'-'));
                    let ceiling = l.row(row.unwrap());
                    let solid = ceiling.iter().filter(|&&c| c == b'S' || c == b'#').count();
                    assert!(
                        solid * 10 >= l.width() * 9,
                        "{theme}: {solid} of {}",
                        l.width()
                    );
                }
            }
            _ => {}
        }
        let variety = batch_variety(&level_list);
        assert!(variety > 0.35, "{theme}: variety {variety}");
    }
}
