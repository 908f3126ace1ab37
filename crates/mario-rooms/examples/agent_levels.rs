//! Writes the level sets the Mario AI Framework's A* agent is measured on: for each
//! difficulty 1..5, seeds `1000..1000+N` (what `levelgen mario --difficulty D --seed 1000
//! --count N` makes) as `DIR/dD/seed.txt`:
//! `cargo run --release -p mario-rooms --example agent_levels -- DIR [N]`.
use mario_rooms::{LevelConfig, Library, generate};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().expect("usage: agent_levels DIR [N]"));
    let n: u64 = args.next().map_or(20, |v| v.parse().expect("N"));
    let lib = Library::builtin().expect("library");
    for d in 1..=5 {
        let cfg = LevelConfig {
            difficulty: Some((d as f32, d as f32)),
            ..LevelConfig::default()
        };
        let out = dir.join(format!("d{d}"));
        std::fs::create_dir_all(&out).expect("output folder");
        for seed in 1000..1000 + n {
            let g = generate(&lib, &cfg, seed).expect("level");
            std::fs::write(out.join(format!("{seed}.txt")), g.level.to_text()).expect("write");
        }
    }
}
