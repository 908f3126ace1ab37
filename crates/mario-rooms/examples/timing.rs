//! Times level generation (run under `perf stat` on a loaded machine for CPU time).
//! `cargo run --release -p mario-rooms --example timing -- [columns] [levels] [check]`
fn main() {
    let mut args = std::env::args().skip(1);
    let columns: usize = args.next().map_or(1000, |v| v.parse().expect("columns"));
    let n: u64 = args.next().map_or(200, |v| v.parse().expect("levels"));
    let check = args.next().is_none_or(|v| v != "nocheck");
    let lib = mario_rooms::Library::builtin().expect("library");
    let cfg = mario_rooms::LevelConfig {
        length: columns,
        check_playability: check,
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let (mut cols, mut attempts) = (0, 0);
    for s in 0..n {
        let g = mario_rooms::generate(&lib, &cfg, s).expect("level");
        cols += g.level.width();
        attempts += g.attempts as usize;
    }
    println!(
        "{:?} wall per level, mean width {}, check {check}, {attempts} attempts",
        t.elapsed() / n as u32,
        cols / n as usize
    );
}
