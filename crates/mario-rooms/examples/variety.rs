//! Prints, per theme of the embedded library, the batch variety (mean pairwise Jaccard
//! distance of column-slice sets), the filled share of the top half and the enemies per
//! 100 columns of a batch: `cargo run --release -p mario-rooms --example variety -- [SEEDS]`.
use mario_rooms::measure::{batch_variety, top_half_filled};
use mario_rooms::{Features, LevelConfig, Library, MarioLevel, THEMES, generate};

fn main() {
    let n: u64 = std::env::args().nth(1).map_or(40, |v| v.parse().unwrap());
    println!("theme\trooms\tsections\tvariety\ttop_half\tenemies/100");
    for theme in THEMES {
        let lib = Library::builtin_theme(theme).expect("theme");
        let levels: Vec<MarioLevel> = (0..n)
            .map(|s| {
                generate(&lib, &LevelConfig::default(), s)
                    .expect("level")
                    .level
            })
            .collect();
        let mean = |f: &dyn Fn(&MarioLevel) -> f64| levels.iter().map(f).sum::<f64>() / n as f64;
        println!(
            "{theme}\t{}\t{}\t{:.3}\t{:.3}\t{:.2}",
            lib.rooms.len(),
            lib.sections.len(),
            batch_variety(&levels),
            mean(&top_half_filled),
            mean(&|l| Features::of(l).enemies_per_100()),
        );
    }
}
