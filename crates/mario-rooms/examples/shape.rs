//! Prints, per theme and difficulty, what `tests/shape.rs` bounds over a batch: the widest
//! pit, coins per 100 columns (the mean and the most of one level), the longest featureless
//! run, feature-chunk reuse and distinct section sequences:
//! `cargo run --release -p mario-rooms --example shape -- [SEEDS] [SMB_DIR]`.
use mario_rooms::measure::{chunk_reuse, longest_featureless, widest_pit};
use mario_rooms::{Features, LevelConfig, Library, MarioLevel, THEMES, generate};
use std::collections::BTreeSet;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().map_or(40, |v| v.parse().unwrap());
    if let Some(dir) = args.next() {
        let mut levels = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let text = std::fs::read_to_string(&p).unwrap();
            levels.push(MarioLevel::parse("smb", &text).unwrap());
        }
        let (coins, cols): (usize, usize) = levels.iter().fold((0, 0), |(c, w), l| {
            let f = Features::of(l);
            (c + f.coins, w + f.width)
        });
        let run = levels.iter().map(longest_featureless).max().unwrap_or(0);
        let pit = levels.iter().map(widest_pit).max().unwrap_or(0);
        let est: Vec<String> = levels
            .iter()
            .map(|l| format!("{:.2}", mario_rooms::estimate::estimate(l)))
            .collect();
        println!("SMB estimated difficulty: {}", est.join(" "));
        println!(
            "SMB {} levels: coins/100 {:.2}, longest featureless {run}, widest pit {pit}, reuse {:.3}",
            levels.len(),
            coins as f64 * 100.0 / cols as f64,
            chunk_reuse(&levels)
        );
    }
    println!(
        "theme\td\tgap\tcoins/100\tmax\tfeatureless\treuse\tseqs\tenemies/100\tdemand\testimate"
    );
    for theme in THEMES {
        let lib = Library::builtin_theme(theme).expect("theme");
        for d in 1..=5 {
            let cfg = LevelConfig {
                difficulty: Some((d as f32, d as f32)),
                ..LevelConfig::default()
            };
            let gs: Vec<_> = (0..n)
                .map(|s| generate(&lib, &cfg, s).expect("level"))
                .collect();
            let levels: Vec<MarioLevel> = gs.iter().map(|g| g.level.clone()).collect();
            let fs: Vec<Features> = levels.iter().map(Features::of).collect();
            let mean = |f: &dyn Fn(&Features) -> f64| fs.iter().map(f).sum::<f64>() / n as f64;
            let seqs: BTreeSet<&Vec<String>> = gs.iter().map(|g| &g.sections).collect();
            let lm = |f: &dyn Fn(&MarioLevel) -> f32| levels.iter().map(f).sum::<f32>() / n as f32;
            println!(
                "{theme}\t{d}\t{}\t{:.1}\t{:.1}\t{}\t{:.3}\t{}\t{:.1}\t{:.2}\t{:.2}",
                levels.iter().map(widest_pit).max().unwrap_or(0),
                mean(&|f| f.coins_per_100()),
                fs.iter().map(|f| f.coins_per_100()).fold(0.0, f64::max),
                levels.iter().map(longest_featureless).max().unwrap_or(0),
                chunk_reuse(&levels),
                seqs.len(),
                mean(&|f| f.enemies_per_100()),
                lm(&mario_rooms::estimate::demand),
                lm(&mario_rooms::estimate::estimate),
            );
        }
    }
}
