//! Generates levels from the embedded library and prints one plus attempt statistics.
fn main() {
    let lib = mario_rooms::Library::builtin().expect("library");
    let cfg = mario_rooms::LevelConfig::default();
    let n: u64 = std::env::args().nth(1).map_or(200, |v| v.parse().unwrap());
    let mut hist = std::collections::BTreeMap::new();
    let mut fails = 0;
    for seed in 0..n {
        match mario_rooms::generate(&lib, &cfg, seed) {
            Ok(g) => *hist.entry(g.attempts).or_insert(0) += 1,
            Err(e) => {
                fails += 1;
                eprintln!("seed {seed}: {e}");
            }
        }
    }
    println!("attempts histogram {hist:?}, failures {fails}");
    let g = mario_rooms::generate(&lib, &cfg, 1).unwrap();
    println!(
        "{}x{} rooms {:?} sections {:?}",
        g.level.width(),
        g.level.height(),
        g.rooms,
        g.sections
    );
    println!("{}", g.level.to_text());
}
