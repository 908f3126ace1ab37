//! `levelgen zones` end to end.

use std::path::PathBuf;

mod common;
use common::{assert_success, bin};

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &std::path::Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir(&format!("cli-zones-{name}"))
}

#[test]
fn prints_a_cell_map_and_is_deterministic() {
    let run = || {
        bin()
            .args([
                "zones", "--zones", "6x4", "--seed", "3", "--noise", "simplex",
            ])
            .output()
            .unwrap()
    };
    let a = run();
    assert_success(&a, "");
    // The cell map on stdout, the summary on stderr.
    let text = String::from_utf8(a.stdout.clone()).unwrap();
    let map_lines: Vec<&str> = text.lines().collect();
    assert_eq!(map_lines.len(), 12);
    assert!(map_lines.iter().all(|l| l.len() == 18));
    assert!(String::from_utf8_lossy(&a.stderr).contains("border mismatch"));
    assert_eq!(a.stdout, run().stdout);
}

#[test]
fn seamless_reports_zero_mismatch() {
    let out = bin()
        .args([
            "zones",
            "--seamless",
            "--zones",
            "12x12",
            "--fill",
            "0.4",
            "--seed",
            "9",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(text.contains("border mismatch 0.0%"), "{text}");
}

#[test]
fn writes_png_json_tmx_and_atlases() {
    let dir = temp_dir("files");
    let atlas = dir.join("atlas.png");
    let status = bin()
        .args(["zones", "atlas", "--reduced", "--zone-size", "30", "--out"])
        .arg(&atlas)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(png_size(&atlas), (17 * 30, 6 * 30));
    let full = dir.join("full.png");
    assert!(
        bin()
            .args(["zones", "atlas", "--zone-size", "6", "--out"])
            .arg(&full)
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(png_size(&full), (32 * 6, 16 * 6));

    // A world painted with the reduced atlas: 8x5 zones of 30 px.
    let png = dir.join("world.png");
    let out = bin()
        .args(["zones", "--zones", "8x5", "--quiet", "--atlas"])
        .arg(&atlas)
        .arg("--out")
        .arg(&png)
        .output()
        .unwrap();
    assert_success(&out, "");
    assert_eq!(png_size(&png), (240, 150));

    let json = dir.join("world.json");
    assert!(
        bin()
            .args(["zones", "--zones", "5x3", "--origin", "-7,2", "--out"])
            .arg(&json)
            .status()
            .unwrap()
            .success()
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["origin"][0], -7);
    assert_eq!(v["states"].as_array().unwrap().len(), 3);

    let tmx = dir.join("world.tmx");
    assert!(
        bin()
            .args(["zones", "--zones", "4x4", "--out"])
            .arg(&tmx)
            .status()
            .unwrap()
            .success()
    );
    // The default TMX: 8x8 corner tiles of 30 px; the 16 wall/floor tiles and the other
    // variants the map uses (at most 3 of each), 16 tiles across.
    let text = std::fs::read_to_string(&tmx).unwrap();
    assert!(
        text.contains(r#"width="8" height="8" tilewidth="30""#),
        "{text}"
    );
    let count: u32 = text
        .split(r#"tilecount=""#)
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((16..=48).contains(&count), "{count} tiles");
    assert!(text.contains(r#"type="corner""#));
    let (w, h) = png_size(&dir.join("world_tiles.png"));
    assert_eq!((w, h), (16 * 30, count.div_ceil(16) * 30));
    // One tile per zone, the reduced tileset placed with flips.
    let zones = dir.join("zones.tmx");
    let out = bin()
        .args(["zones", "--zones", "4x4", "--zone-tiles", "--out"])
        .arg(&zones)
        .output()
        .unwrap();
    assert_success(&out, "");
    let text = std::fs::read_to_string(&zones).unwrap();
    assert!(text.contains(r#"tilecount="102""#));
    assert!(dir.join("zones_tiles.png").exists());
}

#[test]
fn biomes_export_corner_tiles_to_tmx_and_ldtk() {
    let dir = temp_dir("corner-biomes");
    for ext in ["tmx", "ldtk", "png"] {
        let out = bin()
            .args(["zones", "--zones", "12x8", "--zone-size", "24", "--biomes"])
            .args(["--seed", "2", "--out"])
            .arg(dir.join(format!("b.{ext}")))
            .output()
            .unwrap();
        assert_success(&out, "");
    }
    assert_eq!(png_size(&dir.join("b.png")), (288, 192));
    let text = std::fs::read_to_string(dir.join("b.tmx")).unwrap();
    assert!(text.contains(r#"width="24" height="16" tilewidth="12""#));
    assert!(text.contains(r#"<wangset name="terrain" type="corner""#));
    for name in ["water", "sand", "grass"] {
        assert!(
            text.contains(&format!(r#"<wangcolor name="{name}""#)),
            "{name}"
        );
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("b.ldtk")).unwrap()).unwrap();
    let level = &v["levels"][0];
    assert_eq!(level["pxWid"], 25 * 12);
    let ints = &level["layerInstances"][1];
    assert_eq!(ints["__type"], "IntGrid");
    assert_eq!(ints["intGridCsv"].as_array().unwrap().len(), 25 * 17);
    assert!(dir.join("b_tiles.png").exists());
    // LDtk output needs the corner tiles: a reference world is refused, naming why.
    let out = bin()
        .args(["zones", "--zones", "4x4", "--reference", "--out"])
        .arg(dir.join("r.ldtk"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("seamless"), "{err}");
    assert!(!err.contains("seed 0:"), "refused before generating: {err}");
    assert!(!dir.join("r.ldtk").exists());
}

#[test]
fn bad_input_exits_with_code_2() {
    let dir = temp_dir("bad");
    let wrong = dir.join("wrong.png");
    // A valid PNG whose size (24x16: 6x4 corner tiles of 4 px, a 3x2-zone world) fits no
    // atlas layout (not square, so no corner atlas either).
    let made = dir.join("made.png");
    assert!(
        bin()
            .args(["zones", "--zones", "3x2", "--zone-size", "9", "--out"])
            .arg(&made)
            .status()
            .unwrap()
            .success()
    );
    std::fs::copy(&made, &wrong).unwrap();
    let cases: Vec<Vec<String>> = vec![
        vec!["--threshold".into(), "1.5".into()],
        vec!["--fill".into(), "-0.2".into()],
        vec!["--zone-size".into(), "50".into()],
        vec!["--zones".into(), "0x4".into()],
        vec!["--zones".into(), "big".into()],
        vec!["--scale".into(), "0".into()],
        vec!["--stride".into(), "0".into()],
        vec!["--noise".into(), "value".into()],
        vec![
            "--threshold".into(),
            "0.3".into(),
            "--fill".into(),
            "0.3".into(),
        ],
        vec!["--atlas".into(), wrong.to_string_lossy().into_owned()],
        vec!["--origin".into(), "1;2".into()],
    ];
    for args in cases {
        let out = bin().arg("zones").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    let out = bin()
        .args(["zones", "atlas", "--zone-size", "10", "--out"])
        .arg(dir.join("a.png"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("multiple of 3"));
}

#[test]
fn limits_are_checked_before_any_work_and_named() {
    let dir = temp_dir("limits");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--zones".into(), "65536x65536".into()], "16777216"),
        (
            vec![
                "--zones".into(),
                "1000x1000".into(),
                "--out".into(),
                dir.join("o.png").to_string_lossy().into_owned(),
            ],
            "67108864",
        ),
        (vec!["--zones".into(), "2000x2000".into()], "1073741824"),
        // The work of a zone depends on the noise and the stride, not on --zone-size.
        (
            vec![
                "--worley".into(),
                "ratio".into(),
                "--octaves".into(),
                "8".into(),
                "--stride".into(),
                "1".into(),
            ],
            "65536",
        ),
    ];
    for (args, limit) in cases {
        let out = bin().arg("zones").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(limit) && err.contains("limit"),
            "{args:?}: {err}"
        );
        assert!(!dir.join("o.png").exists());
    }
    let out = bin()
        .args(["zones", "atlas", "--zone-size", "1023", "--out"])
        .arg(dir.join("a.png"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("33554432") && err.contains("255"), "{err}");
}

#[test]
fn broken_atlas_and_long_input_give_short_readable_errors() {
    let dir = temp_dir("broken");
    let atlas = dir.join("atlas.png");
    assert!(
        bin()
            .args(["zones", "atlas", "--reduced", "--zone-size", "6", "--out"])
            .arg(&atlas)
            .status()
            .unwrap()
            .success()
    );
    // Flip a byte of the IHDR chunk: the CRC no longer matches.
    let mut bytes = std::fs::read(&atlas).unwrap();
    bytes[20] ^= 0xff;
    let crc = dir.join("crc.png");
    std::fs::write(&crc, &bytes).unwrap();
    let out = bin()
        .args(["zones", "--zones", "2x2", "--atlas"])
        .arg(&crc)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a valid image"), "{err}");
    assert!(!err.contains("ChunkType") && !err.contains('{'), "{err}");
    let long = format!("{},1", "9".repeat(100_000));
    let out = bin().args(["zones", "--origin", &long]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() < 300, "{} bytes", out.stderr.len());
}

#[test]
fn png_output_uses_the_procedural_tiles_by_default() {
    let dir = temp_dir("procedural");
    let (world, plain) = (dir.join("world.png"), dir.join("plain.png"));
    let run = |extra: &[&str], path: &std::path::Path| {
        let out = bin()
            .args(["zones", "--zones", "20x12", "--seed", "4", "--out"])
            .arg(path)
            .args(extra)
            .output()
            .unwrap();
        assert_success(&out, "");
    };
    run(&[], &world);
    run(&["--plain"], &plain);
    assert_eq!(png_size(&world), (1200, 720));
    assert_eq!(png_size(&plain), (1200, 720));
    // Textured tiles (stone, bricks, grain) compress far worse than two flat colours.
    let (a, b) = (
        std::fs::metadata(&world).unwrap().len(),
        std::fs::metadata(&plain).unwrap().len(),
    );
    assert!(a > 20 * b, "procedural {a} bytes, plain {b} bytes");
}

#[test]
fn biomes_paint_png_and_export_tmx_with_the_combined_tileset() {
    let dir = temp_dir("biomes");
    let (png, tmx) = (dir.join("b.png"), dir.join("b.tmx"));
    for path in [&png, &tmx] {
        let out = bin()
            .args([
                "zones",
                "--zones",
                "12x8",
                "--zone-size",
                "30",
                "--seamless",
                "--zone-tiles",
            ])
            .args(["--connected", "--biomes", "--seed", "2", "--out"])
            .arg(path)
            .output()
            .unwrap();
        assert_success(&out, "");
    }
    assert_eq!(png_size(&png), (360, 240));
    // Compact: 102 class tiles per terrain, placed with flips.
    let text = std::fs::read_to_string(&tmx).unwrap();
    assert!(text.contains(r#"tilecount="306""#), "{}", &text[..300]);
    assert!(text.contains("<wangset name=\"terrains\" type=\"mixed\""));
    assert_eq!(png_size(&dir.join("b_tiles.png")), (17 * 30, 18 * 30));
}

/// `--biomes --atlas`: a biome atlas (one atlas per terrain, stacked, as `zones atlas
/// --builtin --biomes` draws it) paints PNG and TMX; its file is copied beside the TMX as
/// it is. A plain atlas with `--biomes` is a clear error.
#[test]
fn biomes_take_an_atlas_per_terrain_and_a_full_atlas_round_trips() {
    let dir = temp_dir("biome-atlas");
    for (name, extra) in [("full", &[][..]), ("reduced", &["--reduced"][..])] {
        let art = dir.join(format!("{name}-biomes.png"));
        let out = bin()
            .args([
                "zones",
                "atlas",
                "--builtin",
                "--biomes",
                "--zone-size",
                "12",
            ])
            .args(extra)
            .arg("--out")
            .arg(&art)
            .output()
            .unwrap();
        assert_success(&out, "");
        let (cols, rows) = if name == "full" { (32, 48) } else { (17, 18) };
        assert_eq!(png_size(&art), (cols * 12, rows * 12));
        for ext in ["png", "tmx"] {
            let path = dir.join(format!("{name}.{ext}"));
            let out = bin()
                .args(["zones", "--zones", "30x20", "--biomes", "--seed", "3"])
                .arg("--atlas")
                .arg(&art)
                .arg("--out")
                .arg(&path)
                .output()
                .unwrap();
            assert_success(&out, "");
        }
        assert_eq!(png_size(&dir.join(format!("{name}.png"))), (360, 240));
        let tiles = std::fs::read(dir.join(format!("{name}_tiles.png"))).unwrap();
        assert_eq!(tiles, std::fs::read(&art).unwrap(), "copied byte for byte");
        let text = std::fs::read_to_string(dir.join(format!("{name}.tmx"))).unwrap();
        let count = if name == "full" { 3 * 512 } else { 3 * 102 };
        assert!(text.contains(&format!("tilecount=\"{count}\"")));
    }
    // A full 512-tile atlas without biomes: every tile as drawn, the file as it is.
    let full = dir.join("plain-full.png");
    let out = bin()
        .args(["zones", "atlas", "--zone-size", "9", "--out"])
        .arg(&full)
        .output()
        .unwrap();
    assert_success(&out, "");
    let tmx = dir.join("plain.tmx");
    let out = bin()
        .args(["zones", "--zones", "10x6", "--atlas"])
        .arg(&full)
        .arg("--out")
        .arg(&tmx)
        .output()
        .unwrap();
    assert_success(&out, "");
    let text = std::fs::read_to_string(&tmx).unwrap();
    assert!(text.contains(r#"tilecount="512""#));
    assert_eq!(
        std::fs::read(dir.join("plain_tiles.png")).unwrap(),
        std::fs::read(&full).unwrap()
    );
    // One atlas where three are needed.
    let out = bin()
        .args(["zones", "--biomes", "--atlas"])
        .arg(&full)
        .arg("--out")
        .arg(dir.join("x.png"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not three atlases stacked"), "{err}");
}

#[test]
fn set_changes_settings_by_their_documented_paths() {
    let run = |args: &[&str]| {
        bin()
            .args(["zones", "--zones", "6x4", "--seed", "1"])
            .args(args)
            .output()
            .unwrap()
    };
    let by_flags = run(&["--seamless", "--octaves", "3"]);
    let by_set = run(&["--set", "mode=seamless", "--set", "noise.octaves=3"]);
    assert_success(&by_set, "");
    assert_eq!(by_flags.stdout, by_set.stdout);
    for bad in [
        "noise.octavez=3",
        "threshold.fill=2",
        "mode=sideways",
        "nonsense",
    ] {
        let out = run(&["--set", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn atlas_builtin_writes_the_procedural_tiles_in_both_layouts() {
    let dir = temp_dir("atlas-builtin");
    for (extra, size) in [
        (None, (32 * 30, 16 * 30)),
        (Some("--reduced"), (17 * 30, 6 * 30)),
    ] {
        let path = dir.join(format!("{}.png", extra.unwrap_or("full")));
        let out = bin()
            .args(["zones", "atlas", "--builtin", "--zone-size", "30"])
            .args(extra)
            .arg("--out")
            .arg(&path)
            .output()
            .unwrap();
        assert_success(&out, "");
        assert_eq!(png_size(&path), size);
    }
    let out = bin()
        .args([
            "zones",
            "atlas",
            "--builtin",
            "--zone-size",
            "1023",
            "--out",
        ])
        .arg(dir.join("huge.png"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn connected_takes_a_mode_and_matches_the_settings() {
    let run = |args: &[&str]| {
        bin()
            .args(["zones", "--zones", "9x7", "--origin", "-5,3", "--seed", "4"])
            .args(args)
            .output()
            .unwrap()
    };
    // `--connected` alone asks for every window connected; `regions` keeps the caves.
    let windows = run(&["--connected"]);
    assert_success(&windows, "");
    assert_eq!(windows.stdout, run(&["--connected", "windows"]).stdout);
    let by_set = run(&["--set", "connected=\"windows\""]);
    assert_eq!(windows.stdout, by_set.stdout);
    let regions = run(&["--connected", "regions"]);
    assert_eq!(regions.stdout, run(&["--set", "connected=true"]).stdout);
    assert_ne!(regions.stdout, windows.stdout);
    let plain = run(&[]);
    assert_ne!(plain.stdout, windows.stdout);
    // `--seamless` is the default, kept for scripts.
    assert_eq!(plain.stdout, run(&["--seamless"]).stdout);
    assert_eq!(run(&["--connected", "sideways"]).status.code(), Some(2));
    assert_eq!(
        run(&["--set", "connected=\"sideways\""]).status.code(),
        Some(2)
    );
}

/// `--help` states the window size that `--connected` guarantees, the one
/// `tests/windows.rs` checks on 200 random windows (`zone_tiles::blocks::MIN_WINDOW`).
#[test]
fn help_states_the_tested_window_minimum() {
    let out = bin().args(["zones", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(zone_tiles::blocks::MIN_WINDOW, 7);
    assert!(
        text.contains("every window of at least 7x7 zones, at any origin, is one floor area"),
        "{text}"
    );
    assert!(!text.contains("4x4 zones at any origin"), "{text}");
}

/// The map is the same at any drawn zone size, and `--reference` gives the reference's look
/// (borders that disagree) while the default never does.
#[test]
fn zone_size_changes_the_picture_not_the_map() {
    let states = |args: &[&str]| {
        let out = bin()
            .args([
                "zones", "--zones", "12x8", "--origin", "40,-9", "--seed", "3",
            ])
            .args(["--out", "-", "--format", "json"])
            .args(args)
            .output()
            .unwrap();
        assert_success(&out, "");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (v["states"].clone(), v["mode"].clone())
    };
    let at60 = states(&["--zone-size", "60"]);
    assert_eq!(at60.1, "seamless");
    for size in ["18", "24"] {
        assert_eq!(states(&["--zone-size", size]), at60, "--zone-size {size}");
    }
    let reference = states(&["--reference"]);
    assert_eq!(reference.1, "reference");
    assert_ne!(reference.0, at60.0);
    let summary = |args: &[&str]| {
        let out = bin()
            .args(["zones", "--zones", "20x20", "--seed", "5"])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    assert!(summary(&[]).contains("border mismatch 0.0%"));
    assert!(!summary(&["--reference"]).contains("border mismatch 0.0%"));
}
