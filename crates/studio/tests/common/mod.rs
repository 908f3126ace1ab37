//! The repository's example scripts and templates, read at run time: they live in the
//! workspace's `examples/`, outside this package, and the `levelgen` CLI hands them to the
//! studio the same way.
#![allow(dead_code)]

use levelgen_studio::Examples;
use std::path::PathBuf;

/// The text of `examples/<rel>` in the levelgen repository this crate sits in.
pub fn example(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (these tests read the levelgen repository's examples/)",
            path.display()
        )
    })
}

/// The examples `levelgen studio` offers: six Marahel scripts, two Heroes templates, six
/// search specs.
pub fn repo_examples() -> Examples {
    let read = |dir: &str, names: &[&str]| {
        names
            .iter()
            .map(|n| (n.to_string(), example(&format!("{dir}/{n}.json"))))
            .collect()
    };
    Examples {
        marahel: read(
            "marahel",
            &[
                "cave",
                "digger",
                "mine",
                "nonuniform",
                "roguelike",
                "uniform",
            ],
        ),
        heroes: read("heroes", &["duel", "four-kingdoms"]),
        search: read(
            "search",
            &[
                "cave-range",
                "binary",
                "zelda",
                "zones-floor",
                "mario-enemies",
                "heroes-areas",
            ],
        ),
    }
}
