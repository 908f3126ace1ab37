//! Remakes every picture and sample under `docs/images/` from `docs/pictures.txt`, the
//! manifest that `tests/pictures` checks against.
//!
//! ```sh
//! cargo run --release --example pictures            # all of them
//! cargo run --release --example pictures -- mario   # those whose file name contains `mario`
//! ```

#[path = "../tests/pictures/manifest.rs"]
mod manifest;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let fixtures = manifest::fixtures();
    let images = manifest::root().join("docs/images");
    let out = std::env::temp_dir().join(format!("levelgen-pictures-{}", std::process::id()));
    for (i, entry) in manifest::read().iter().enumerate() {
        if !entry.files.iter().any(|(name, _)| name.contains(&filter)) {
            continue;
        }
        let missing = manifest::missing_programs(entry);
        if !missing.is_empty() {
            eprintln!(
                "skipping line {}: needs {} on PATH",
                entry.line,
                missing.join(", ")
            );
            continue;
        }
        let fixtures = match (&fixtures, entry.fixtures) {
            (Some(f), _) => f.clone(),
            (None, false) => manifest::root(),
            (None, true) => {
                eprintln!("skipping line {}: ../shared/fixtures is absent", entry.line);
                continue;
            }
        };
        match manifest::make(entry, &out.join(i.to_string()), &fixtures) {
            Ok(made) => {
                for (name, path) in made {
                    std::fs::copy(&path, images.join(&name)).expect("copy into docs/images");
                    eprintln!("made docs/images/{name}");
                }
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}
