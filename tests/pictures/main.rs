//! Every picture and sample under `docs/images/` is what the code makes now: each manifest
//! command (`docs/pictures.txt`) is run and its files compared byte for byte with the
//! committed ones. When an output changes on purpose, remake them with
//! `cargo run --release --example pictures` and commit them with the change.
//!
//! Entries flagged `heavy` (expressive-range runs over a thousand maps) are checked only in
//! optimised builds (`cargo test --release --test pictures`, which CI runs); entries that
//! need the shared fixtures skip with a notice where those are absent. Entries flagged
//! `script` (screenshots of other programs, such as Tiled's) are remade by the pictures
//! example where their programs exist; a screenshot is not reproducible byte for byte, so
//! here they are only required to be committed.

mod manifest;

#[test]
fn committed_pictures_are_what_the_code_makes() {
    let entries = manifest::read();
    assert!(!entries.is_empty(), "docs/pictures.txt lists no picture");
    let fixtures = manifest::fixtures();
    let out = std::env::temp_dir().join(format!("levelgen-pictures-{}", std::process::id()));
    let mut stale = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if entry.script {
            for (name, _) in &entry.files {
                let committed = manifest::root().join("docs/images").join(name);
                assert!(
                    committed.is_file(),
                    "docs/pictures.txt:{}: {name} is not committed; make it with \
                     `cargo run --release --example pictures {name}`",
                    entry.line
                );
            }
            println!(
                "skipping docs/pictures.txt:{} (a screenshot: remade by the pictures example)",
                entry.line
            );
            continue;
        }
        if entry.heavy && cfg!(debug_assertions) {
            println!(
                "skipping docs/pictures.txt:{} (heavy: checked in release builds)",
                entry.line
            );
            continue;
        }
        let fixtures = match (&fixtures, entry.fixtures) {
            (Some(f), _) => f.clone(),
            (None, false) => manifest::root(),
            (None, true) => {
                println!(
                    "skipping docs/pictures.txt:{}: ../shared/fixtures is absent",
                    entry.line
                );
                continue;
            }
        };
        let made = manifest::make(entry, &out.join(i.to_string()), &fixtures)
            .unwrap_or_else(|e| panic!("{e}"));
        for (name, path) in made {
            let now = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let committed =
                std::fs::read(manifest::root().join("docs/images").join(&name)).unwrap_or_default();
            if now != committed {
                stale.push(name);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        stale.is_empty(),
        "docs/images differ from what the code makes now: {stale:?}\n\
         remake them with `cargo run --release --example pictures` and commit them"
    );
}

#[test]
fn every_picture_in_the_docs_is_in_the_manifest() {
    let listed: Vec<String> = manifest::read()
        .into_iter()
        .flat_map(|e| e.files.into_iter().map(|(name, _)| name))
        .collect();
    let dir = manifest::root().join("docs/images");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("docs/images") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .to_string();
        // The studio's screenshots are taken by crates/studio/tests/browser.rs.
        if !listed.contains(&name) && !name.starts_with("studio-") {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "docs/images files no manifest line makes: {missing:?}"
    );
}
