//! Prints the mean design features of levels per difficulty (the response curves):
//! `cargo run --release -p mario-rooms --example curves -- [SEEDS]`.
use mario_rooms::{Features, LevelConfig, Library, generate};

fn main() {
    let lib = Library::builtin().expect("library");
    let n: u64 = std::env::args().nth(1).map_or(40, |v| v.parse().unwrap());
    println!(
        "d\tenemies/100\tchars/100\tgaps\tgap_share\twidest\theight_changes\tshells\tflying\tpiranhas\tjumps\tattempts\tfailures"
    );
    for d10 in (10..=50).step_by(5) {
        let d = d10 as f32 / 10.0;
        let cfg = LevelConfig {
            difficulty: Some((d, d)),
            ..LevelConfig::default()
        };
        let mut sum = [0f64; 11];
        let mut fails = 0;
        for seed in 0..n {
            let g = match generate(&lib, &cfg, seed) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("d {d} seed {seed}: {e}");
                    fails += 1;
                    continue;
                }
            };
            let f = Features::of(&g.level);
            let v = [
                f.enemies_per_100(),
                Features::enemy_chars_per_100(&g.level),
                f.gaps as f64,
                f.gap_share(),
                f.widest_gap as f64,
                f.height_changes as f64,
                f.shells as f64,
                f.flying as f64,
                f.piranhas as f64,
                g.report.map_or(0, |r| r.jumps) as f64,
                g.attempts as f64,
            ];
            for (s, x) in sum.iter_mut().zip(v) {
                *s += x;
            }
        }
        let k = (n - fails) as f64;
        let cols: Vec<String> = sum.iter().map(|s| format!("{:.2}", s / k)).collect();
        println!("{d}\t{}\t{fails}", cols.join("\t"));
    }
}
