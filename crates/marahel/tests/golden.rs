//! Golden maps: the examples' maps for fixed seeds, pinned byte for byte, and determinism.
//!
//! To re-pin after an intended change: `MARAHEL_BLESS=1 cargo test -p marahel --test golden`,
//! then inspect the diff of `tests/golden/`.

use grid_core::export::to_text;
use marahel::Script;
use std::path::PathBuf;

mod common;

fn golden_path(name: &str, seed: u64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{name}_{seed}.txt"))
}

#[test]
fn example_maps_are_pinned() {
    let bless = std::env::var_os("MARAHEL_BLESS").is_some();
    for (name, text) in common::examples() {
        let script = Script::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for seed in [0u64, 7] {
            let map = script.generate(seed).unwrap();
            assert!(map.warnings.is_empty(), "{name}: {:?}", map.warnings);
            let got = to_text(&map);
            let path = golden_path(name, seed);
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &got).unwrap();
            }
            let want = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run with MARAHEL_BLESS=1)", path.display()));
            assert_eq!(
                got,
                want,
                "{name} seed {seed} differs from {}",
                path.display()
            );
        }
    }
}

#[test]
fn same_seed_same_map_in_any_order_and_thread() {
    let script = Script::parse(&common::example("roguelike")).unwrap();
    let forward: Vec<String> = (0..6)
        .map(|s| to_text(&script.generate(s).unwrap()))
        .collect();
    let backward: Vec<String> = (0..6)
        .rev()
        .map(|s| to_text(&script.generate(s).unwrap()))
        .collect();
    let threaded: Vec<String> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..6)
            .map(|s| {
                let script = &script;
                sc.spawn(move || to_text(&script.generate(s).unwrap()))
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for s in 0..6 {
        assert_eq!(forward[s], backward[5 - s]);
        assert_eq!(forward[s], threaded[s]);
    }
    // Different seeds, including 0, give different maps.
    for a in 0..6 {
        for b in a + 1..6 {
            assert_ne!(forward[a], forward[b], "seeds {a} and {b}");
        }
    }
}

/// The engine keeps buffers per thread from one map to the next (neighbourhoods laid out for
/// the last width, the back buffer, scratch): a map must not depend on the maps made before
/// it on the same thread, whatever their script and size.
#[test]
fn a_map_does_not_depend_on_the_maps_made_before_it() {
    let scripts: Vec<Script> = common::examples()
        .iter()
        .map(|(_, t)| Script::parse(t).unwrap())
        .collect();
    // (script, seed, width, height): sizes change width back and forth, and one map passes
    // the workspace's keep limit (maps of more than 2^20 cells drop the buffers).
    let mut jobs: Vec<(usize, u64, usize, usize)> = (0..24)
        .map(|k| {
            let z = [17, 64, 33, 64, 280, 17][k % 6];
            (k * 5 % 6, k as u64, z, z)
        })
        .collect();
    jobs[10] = (1, 10, 1100, 960);
    let make = |&(i, seed, w, h): &(usize, u64, usize, usize)| {
        to_text(&scripts[i].generate_sized(seed, w, h).unwrap())
    };
    let interleaved: Vec<String> = jobs.iter().map(make).collect();
    for (job, got) in jobs.iter().zip(&interleaved) {
        // The same job alone on a fresh thread.
        let alone = std::thread::scope(|sc| sc.spawn(|| make(job)).join().unwrap());
        assert_eq!(got, &alone, "job {job:?}");
    }
}

#[test]
fn examples_have_their_pieces() {
    let rogue = Script::parse(&common::example("roguelike")).unwrap();
    for seed in 0..20 {
        let m = rogue.generate(seed).unwrap();
        assert_eq!(m.count("player"), 1, "seed {seed}");
        assert_eq!(m.count("exit"), 1, "seed {seed}");
        assert!(m.count("enemy") >= 7, "seed {seed}");
        assert!(m.count("treasure") >= 1, "seed {seed}");
    }
    let mine = Script::parse(&common::example("mine")).unwrap();
    let m = mine.generate(3).unwrap();
    assert!(m.count("gold") > 0);
}
