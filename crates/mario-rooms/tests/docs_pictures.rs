//! The pictures of `docs/mario.md` are what the code makes now: each is re-rendered here and
//! compared byte for byte, so a change that alters them fails until they are regenerated
//! (with the `levelgen mario ... --png docs/images/...` command under each picture).

use mario_rooms::{LevelConfig, Library, generate, preview};
use std::path::{Path, PathBuf};

fn docs_image(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/images")
        .join(name)
}

fn same_png(level: &mario_rooms::MarioLevel, name: &str, reach: bool) {
    let committed = docs_image(name);
    let Ok(expected) = std::fs::read(&committed) else {
        eprintln!("SKIP: {} is not present", committed.display());
        return;
    };
    let fresh = std::env::temp_dir().join(format!("mario-docs-{}-{name}", std::process::id()));
    if reach {
        preview::write_png_with_reach(level, &fresh, 8).unwrap();
    } else {
        preview::write_png(level, &fresh, 8).unwrap();
    }
    let made = std::fs::read(&fresh).unwrap();
    std::fs::remove_file(&fresh).unwrap();
    assert!(
        made == expected,
        "docs/images/{name} is stale: regenerate it with the command under it in docs/mario.md"
    );
}

#[test]
fn committed_pictures_match_the_code() {
    let seed7 = generate(&Library::builtin().unwrap(), &LevelConfig::default(), 7)
        .unwrap()
        .level;
    same_png(&seed7, "mario-seed7.png", false);
    same_png(&seed7, "mario-seed7-reach.png", true);
    for theme in mario_rooms::THEMES {
        let lib = Library::builtin_theme(theme).unwrap();
        let level = generate(&lib, &LevelConfig::default(), 4).unwrap().level;
        same_png(&level, &format!("mario-theme-{theme}.png"), false);
    }
}
