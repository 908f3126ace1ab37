//! Measures border-mismatch rates, state coverage and the strided-sampling trade-off, and
//! writes the documentation pictures.
//!
//! `cargo run --release -p zone-tiles --example zones_report -- docs/images`

use grid_core::Grid;
use std::path::PathBuf;
use std::time::Instant;
use zone_tiles::export::{black_and_white, paint, save_png};
use zone_tiles::seamless::border_mismatch;
use zone_tiles::*;

fn main() -> Result<()> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/images".into()),
    );
    std::fs::create_dir_all(&out).map_err(|e| ZoneError::Write {
        path: out.clone(),
        message: e.to_string(),
    })?;
    let noises = [
        ("simplex, scale 100, t 0.45", NoiseConfig::simplex(), 0.45),
        (
            "worley F1 chebyshev, scale 40, t 0.45",
            NoiseConfig::worley(),
            0.45,
        ),
        (
            "worley F1/(Fn-F1) chebyshev (reference), t 0.45 raw = 0.3103",
            NoiseConfig::worley_reference(Distance::Chebyshev),
            0.45 / 1.45,
        ),
        (
            "worley F1/(Fn-F1) euclidean (reference), t 0.3103",
            NoiseConfig::worley_reference(Distance::Euclidean),
            0.45 / 1.45,
        ),
    ];
    println!("## Border mismatch (30x30 zones of 60 px, seeds 0..10, stride 2)\n");
    println!(
        "| noise | mode | zone pairs mismatched | border cells differing | distinct states (mean) | cells on |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, noise, t) in noises {
        for mode in [Mode::Reference, Mode::Seamless] {
            let cfg = ZoneConfig {
                structure: Structure::OFF,
                noise,
                threshold: Threshold::Fixed(t),
                mode,
                ..ZoneConfig::default()
            };
            let (mut pairs, mut bad, mut cells, mut cbad) = (0, 0, 0, 0);
            let (mut distinct, mut on, mut total) = (0usize, 0u64, 0u64);
            for seed in 0..10 {
                let w = ZoneGenerator::new(cfg, seed)?.generate_par(ZoneRect::new(0, 0, 30, 30))?;
                let m = border_mismatch(&w.states);
                pairs += m.pairs;
                bad += m.mismatched;
                cells += m.cell_pairs;
                cbad += m.cell_mismatched;
                let mut seen = [false; 512];
                for s in w.states.as_slice() {
                    seen[s.index() as usize] = true;
                    on += u64::from(s.on_count());
                    total += 9;
                }
                distinct += seen.iter().filter(|&&b| b).count();
            }
            println!(
                "| {name} | {mode:?} | {:.1}% | {:.1}% | {:.0} | {:.1}% |",
                100.0 * bad as f64 / pairs as f64,
                100.0 * cbad as f64 / cells as f64,
                distinct as f64 / 10.0,
                100.0 * on as f64 / total as f64
            );
        }
    }

    println!("\n## Strided sampling against full sampling (40x40 zones of 60 px, seeds 0..4)\n");
    println!(
        "| noise | stride | samples per cell | zones with a different state | cells different | time per zone |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, noise) in [
        ("worley F1 chebyshev", NoiseConfig::worley()),
        ("simplex 100", NoiseConfig::simplex()),
    ] {
        let rect = ZoneRect::new(0, 0, 40, 40);
        let full: Vec<Grid<ZoneState>> = (0..4)
            .map(|seed| {
                let cfg = ZoneConfig {
                    structure: Structure::OFF,
                    noise,
                    sampling: Sampling::Full,
                    ..ZoneConfig::default()
                };
                Ok(ZoneGenerator::new(cfg, seed)?.generate(rect)?.states)
            })
            .collect::<Result<_>>()?;
        for stride in [1, 2, 4, 5, 10] {
            let cfg = ZoneConfig {
                structure: Structure::OFF,
                noise,
                sampling: Sampling::Stride(stride),
                ..ZoneConfig::default()
            };
            let (mut zones, mut cells) = (0u32, 0u32);
            let start = Instant::now();
            for (seed, reference) in full.iter().enumerate() {
                let w = ZoneGenerator::new(cfg, seed as u64)?.generate(rect)?;
                for (a, b) in w.states.as_slice().iter().zip(reference.as_slice()) {
                    zones += u32::from(a != b);
                    cells += (a.index() ^ b.index()).count_ones();
                }
            }
            let per_zone = start.elapsed().as_secs_f64() / (4.0 * 1600.0);
            let k = 20u32.div_ceil(stride);
            println!(
                "| {name} | {stride} | {} | {:.2}% | {:.3}% | {:.1} µs |",
                k * k,
                100.0 * f64::from(zones) / 6400.0,
                100.0 * f64::from(cells) / (6400.0 * 9.0),
                per_zone * 1e6
            );
        }
    }

    // Pictures.
    Atlas::reference(AtlasKind::Full, 60)?.save_png(&out.join("zones-atlas.png"))?;
    Atlas::reference(AtlasKind::Reduced, 60)?.save_png(&out.join("zones-atlas-reduced.png"))?;
    let rect = ZoneRect::new(0, 0, 24, 14);
    for (file, mode) in [
        ("zones-world.png", Mode::Reference),
        ("zones-world-seamless.png", Mode::Seamless),
    ] {
        let cfg = ZoneConfig {
            noise: NoiseConfig::simplex(),
            threshold: Threshold::Fill(0.45),
            mode,
            ..ZoneConfig::default()
        };
        let w = ZoneGenerator::new(cfg, 7)?.generate_par(rect)?;
        let mut img = black_and_white(&w, 30)?;
        // Zone borders in red, so the seams (or their absence) are visible.
        for (x, y, p) in img.enumerate_pixels_mut() {
            if x % 30 == 0 || y % 30 == 0 {
                let dark = p.0[0] < 128;
                p.0 = if dark { [150, 0, 0] } else { [255, 120, 120] };
            }
        }
        save_png(&img, &out.join(file))?;
    }
    let cfg = ZoneConfig {
        noise: NoiseConfig::simplex(),
        ..ZoneConfig::default()
    };
    let w = ZoneGenerator::new(cfg, 7)?.generate(ZoneRect::new(0, 0, 12, 7))?;
    let atlas = Atlas::reference(AtlasKind::Full, 60)?;
    save_png(&paint(&w, &atlas)?, &out.join("zones-world-painted.png"))?;
    more_tables()?;
    more_pictures(&out)?;
    println!("\nwrote pictures to {}", out.display());
    Ok(())
}

/// The share of wall per noise kind (fixed threshold against the default fill), and the
/// floor areas of windows with and without connected mode.
fn more_tables() -> Result<()> {
    let kinds = [
        ("Worley F1", NoiseConfig::worley()),
        (
            "Worley F1/(Fn-F1)",
            NoiseConfig::worley_reference(Distance::Chebyshev),
        ),
        ("Simplex", NoiseConfig::simplex()),
        (
            "Perlin",
            NoiseConfig {
                kind: NoiseKind::Perlin,
                ..NoiseConfig::simplex()
            },
        ),
    ];
    println!(
        "\n## Share of wall (40x40 zones at (1000, -3000), seeds 0..8, reference / seamless)\n"
    );
    println!("| noise | fixed 0.45 | fill 0.45 (default) |");
    println!("|---|---|---|");
    for (name, noise) in kinds {
        let mut cells = Vec::new();
        for threshold in [Threshold::Fixed(0.45), Threshold::Fill(0.45)] {
            let mut shares = Vec::new();
            for mode in [Mode::Reference, Mode::Seamless] {
                let (mut on, mut n) = (0u64, 0u64);
                for seed in 0..8 {
                    let cfg = ZoneConfig {
                        structure: Structure::OFF,
                        noise,
                        threshold,
                        mode,
                        ..ZoneConfig::default()
                    };
                    let w = ZoneGenerator::new(cfg, seed)?
                        .generate_par(ZoneRect::new(1000, -3000, 40, 40))?;
                    on += w.on_cells();
                    n += 40 * 40 * 9;
                }
                shares.push(format!("{:.1}%", 100.0 * on as f64 / n as f64));
            }
            cells.push(shares.join(" / "));
        }
        println!("| {name} | {} | {} |", cells[0], cells[1]);
    }
    println!("\n## Floor areas in windows alone (Worley F1, fill 0.45, seeds 0..8)\n");
    println!(
        "| mode | window | floor areas in the window (mean) | largest area's share of the floor | wall |"
    );
    println!("|---|---|---|---|---|");
    let cut = (41, 39, 40, 30);
    let whole = (40, 40, 40, 32);
    let far = (-(1 << 31) + 7, (1 << 31) - 33, 40, 30);
    for mode in [Mode::Reference, Mode::Seamless] {
        for (connected, rect, window) in [
            (Connected::Off, cut, "40x30 at (41, 39)"),
            (
                Connected::Regions,
                whole,
                "40x32 at (40, 40): whole regions",
            ),
            (Connected::Regions, cut, "40x30 at (41, 39): cut"),
            (Connected::Windows, cut, "40x30 at (41, 39)"),
            (Connected::Windows, far, "40x30 at (-2^31+7, 2^31-33)"),
        ] {
            floor_areas_row(mode, connected, rect, window)?;
        }
    }
    Ok(())
}

/// One row of the floor-area table: 8 seeds of the window `rect` (`x, y, w, h`).
fn floor_areas_row(
    mode: Mode,
    connected: Connected,
    rect: (i64, i64, u32, u32),
    window: &str,
) -> Result<()> {
    let (mut areas, mut largest, mut wall) = (0.0, 0.0, 0.0);
    for seed in 0..8 {
        let cfg = ZoneConfig {
            structure: Structure::OFF,
            mode,
            connected,
            ..ZoneConfig::default()
        };
        let rect = ZoneRect::new(rect.0, rect.1, rect.2, rect.3);
        let w = ZoneGenerator::new(cfg, seed)?.generate_par(rect)?;
        let (cw, ch) = (
            grid_core::TileMap::width(&w),
            grid_core::TileMap::height(&w),
        );
        let comps = grid_core::connectivity::components(
            cw,
            ch,
            grid_core::connectivity::Connectivity::Four,
            |i| grid_core::TileMap::tile(&w, i % cw, i / cw) == 0,
        );
        let floor: u32 = comps.sizes.iter().sum();
        areas += comps.count() as f64;
        largest +=
            f64::from(comps.sizes.iter().copied().max().unwrap_or(0)) / f64::from(floor.max(1));
        wall += 1.0 - f64::from(floor) / (cw * ch) as f64;
    }
    println!(
        "| {mode:?}{} | {window} | {:.1} | {:.1}% | {:.0}% |",
        match connected {
            Connected::Off => "",
            Connected::Regions => ", `--connected regions`",
            Connected::Windows => ", `--connected`",
        },
        areas / 8.0,
        100.0 * largest / 8.0,
        100.0 * wall / 8.0
    );
    Ok(())
}

/// The pictures of the default look (corner tiles): a large seamless, connected,
/// biome-painted world, and a panorama of chunks spread over 1,000,000 zones.
fn more_pictures(out: &std::path::Path) -> Result<()> {
    let cfg = big_world(out, Connected::Regions, "zones-big-world.png")?;
    // Eight chunks, 142,857 zones apart, spanning 1,000,000 zones; 4 px gaps between them.
    let cfg = ZoneConfig {
        zone_size: 12,
        ..cfg
    };
    let world = World::new(cfg, Some(BiomeConfig::default()), 4)?;
    let side = 16 * 12;
    let mut strip =
        image::RgbImage::from_pixel(8 * side + 7 * 4, side, image::Rgb([255, 255, 255]));
    for k in 0..8i64 {
        let cx = k * 1_000_000 / 7 / 16;
        let img = world.chunk_corner_image(cx, 0)?;
        image::imageops::replace(&mut strip, &img, k * i64::from(side + 4), 0);
    }
    save_png(&strip, &out.join("zones-panorama.png"))?;
    windows_pictures(out)
}

/// A large seamless, biome-painted world (80x45 zones of 24 px, seed 4) in the `connected`
/// mode, saved as `name`; its settings.
fn big_world(out: &std::path::Path, connected: Connected, name: &str) -> Result<ZoneConfig> {
    let cfg = ZoneConfig {
        mode: Mode::Seamless,
        connected,
        zone_size: 24,
        ..ZoneConfig::default()
    };
    let world = World::new(cfg, Some(BiomeConfig::default()), 4)?;
    let w = world
        .generator()
        .generate_par(ZoneRect::new(0, 0, 80, 45))?;
    save_png(&world.paint_corners(&w)?, &out.join(name))?;
    Ok(cfg)
}

/// The pictures of `--connected windows`: the big world of `zones-big-world.png` in that
/// mode, and the three modes side by side on the same seamless world.
fn windows_pictures(out: &std::path::Path) -> Result<()> {
    let cfg = big_world(out, Connected::Windows, "zones-windows-world.png")?;
    // Off, regions, windows: 30x24 zones of 18 px each, 8 px apart.
    let (zw, zh, z, gap) = (30u32, 24u32, 18u32, 8u32);
    let mut strip =
        image::RgbImage::from_pixel(3 * zw * z + 2 * gap, zh * z, image::Rgb([255, 255, 255]));
    for (k, connected) in [Connected::Off, Connected::Regions, Connected::Windows]
        .into_iter()
        .enumerate()
    {
        let cfg = ZoneConfig {
            connected,
            zone_size: z,
            ..cfg
        };
        let world = World::new(cfg, None, 4)?;
        let w = world
            .generator()
            .generate_par(ZoneRect::new(0, 0, zw, zh))?;
        let x = k as i64 * i64::from(zw * z + gap);
        image::imageops::replace(&mut strip, &world.paint_corners(&w)?, x, 0);
    }
    save_png(&strip, &out.join("zones-modes.png"))
}
