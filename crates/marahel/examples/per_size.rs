//! Mean time per map of a script at every size `W x H` with `W, H` in `LO..=HI`, one line
//! `W H MICROSECONDS` per size: the table `benches/reference/bench.js --ours` compares the
//! reference's maps with, size for size. The time is that of `generate_sized` only (the map is
//! handed to `black_box`, not inspected), as the reference's harness times `generate()` only.
//!
//! `cargo run --release -p marahel --example per_size -- SCRIPT.json LO HI MAPS`

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, lo, hi, maps] = &args[..] else {
        eprintln!("usage: per_size SCRIPT.json LO HI MAPS");
        return ExitCode::from(2);
    };
    let (Ok(lo), Ok(hi), Ok(maps)) = (lo.parse(), hi.parse(), maps.parse::<u64>()) else {
        eprintln!("LO, HI and MAPS must be numbers");
        return ExitCode::from(2);
    };
    let script = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| marahel::Script::parse(&text).map_err(|e| e.to_string()))
    {
        Ok(script) => script,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    for w in lo..=hi {
        for h in lo..=hi {
            let start = Instant::now();
            for seed in 0..maps.max(1) {
                match script.generate_sized(seed, w, h) {
                    Ok(map) => {
                        black_box(map);
                    }
                    Err(e) => {
                        eprintln!("{w}x{h}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            let us = start.elapsed().as_secs_f64() * 1e6 / maps.max(1) as f64;
            println!("{w} {h} {us:.3}");
        }
    }
    ExitCode::SUCCESS
}
