//! Writes the level text of a seed with the default config (used to refresh the golden file
//! after an intended change: inspect the level, then pin it).
fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .map_or(7, |v| v.parse().expect("seed"));
    let lib = mario_rooms::Library::builtin().expect("library");
    let g = mario_rooms::generate(&lib, &mario_rooms::LevelConfig::default(), seed).expect("level");
    print!("{}", g.level.to_text());
}
