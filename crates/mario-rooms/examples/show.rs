//! Prints one level of the embedded library with its sections, rooms, set pieces, longest
//! featureless run and widest pit:
//! `cargo run --release -p mario-rooms --example show -- THEME DIFFICULTY SEED`.
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let theme = a.first().map_or("overground", String::as_str);
    let d: f32 = a.get(1).map_or(1.0, |v| v.parse().expect("difficulty"));
    let seed: u64 = a.get(2).map_or(0, |v| v.parse().expect("seed"));
    let lib = mario_rooms::Library::builtin_theme(theme).expect("theme");
    let cfg = mario_rooms::LevelConfig {
        difficulty: Some((d, d)),
        ..Default::default()
    };
    let g = mario_rooms::generate(&lib, &cfg, seed).expect("level");
    println!("sections {:?}\nrooms {:?}", g.sections, g.rooms);
    let f = mario_rooms::measure::longest_featureless(&g.level);
    println!(
        "longest featureless {f}, widest pit {}",
        mario_rooms::measure::widest_pit(&g.level)
    );
    println!("set pieces {:?}, attempts {}", g.pieces, g.attempts);
    print!("{}", g.level.to_text());
}
