//! Compatibility with the reference data in `../shared/fixtures/jcatlos` and the framework's
//! levels in `../shared/fixtures/mario-levels` (skipped with a notice where absent).

use mario_rooms::{LevelConfig, Library, MarioLevel, Strictness, check, generate};
use std::path::{Path, PathBuf};

fn fixtures() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: ../shared/fixtures not found");
        None
    }
}

fn jcatlos(lenient: bool) -> Option<Result<Library, mario_rooms::MarioError>> {
    let f = fixtures()?.join("jcatlos");
    Some(Library::load(
        Some(&f.join("blocks")),
        Some(&f.join("sections")),
        Some(&f.join("macros")),
        if lenient {
            Strictness::Lenient
        } else {
            Strictness::Strict
        },
    ))
}

#[test]
fn every_reference_file_loads_leniently() {
    let Some(lib) = jcatlos(true) else { return };
    let lib = lib.unwrap();
    assert_eq!(lib.rooms.len(), 42);
    assert_eq!(lib.sections.len(), 7);
    assert_eq!(lib.macros.len(), 9);
    for d in &lib.diagnostics {
        eprintln!("{d}");
    }
    assert!(!lib.diagnostics.is_empty());
}

#[test]
fn framework_levels_are_playable() {
    let Some(f) = fixtures() else { return };
    let dir = f.join("mario-levels/original");
    let mut n = 0;
    for i in 1..=5 {
        let p = dir.join(format!("lvl-{i}.txt"));
        let text = std::fs::read_to_string(&p).unwrap();
        let level = MarioLevel::parse(&p.display().to_string(), &text).unwrap();
        assert_eq!(level.to_text(), text, "round trip of {}", p.display());
        let r = check(&level);
        eprintln!("lvl-{i}: {}", r.summary());
        assert!(r.playable, "lvl-{i}: {}", r.summary());
        n += 1;
    }
    assert_eq!(n, 5);
}

#[test]
fn reference_data_assembles_playable_levels() {
    let Some(lib) = jcatlos(true) else { return };
    let lib = lib.unwrap();
    let cfg = LevelConfig::reference();
    let mut attempts = 0;
    for seed in 0..50 {
        let g = generate(&lib, &cfg, seed).unwrap();
        assert!(g.report.as_ref().unwrap().playable);
        assert!(g.level.start().is_some() && g.level.exit().is_some());
        attempts += g.attempts;
    }
    eprintln!("50 levels from the reference data in {attempts} attempts");
}
