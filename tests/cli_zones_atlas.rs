//! `levelgen zones --atlas` with an artist's 16-tile corner atlas (4x4 tiles): drawn whole
//! in PNG, copied byte for byte beside the TMX, refused with exit code 2 at a wrong size
//! or with `--biomes`.

mod common;
use common::{assert_success, bin};

/// Writes a 4x4 corner atlas of `t` px tiles, every tile its own colours, at `path`.
fn save_art(t: u32, path: &std::path::Path) {
    let side = 4 * t;
    let raw: Vec<u8> = (0..side * side)
        .flat_map(|p| {
            let (x, y) = (p % side, p / side);
            let i = (y / t) * 4 + x / t;
            [(i * 16) as u8, (x % t * 9) as u8, 200]
        })
        .collect();
    grid_core::export::write_rgb_png(path, side, side, &raw).unwrap();
}

#[test]
fn a_corner_atlas_draws_the_png_and_travels_with_the_tmx() {
    let dir = common::temp_dir("cli-zones-corner-atlas");
    let source = dir.join("corners.png");
    save_art(12, &source);
    for ext in ["png", "tmx", "ldtk"] {
        let out = bin()
            .args(["zones", "--zones", "10x6", "--seed", "2", "--atlas"])
            .arg(&source)
            .arg("--out")
            .arg(dir.join(format!("world.{ext}")))
            .output()
            .unwrap();
        assert_success(&out, "");
    }
    // 10x6 zones are 20x12 corner tiles of the atlas's 12 px.
    let img = zone_tiles::Atlas::load_image(&dir.join("world.png"), 4).unwrap();
    assert_eq!(img.dimensions(), (240, 144));
    assert!(
        img.pixels().all(|p| p.0[2] == 200),
        "only the atlas's pixels"
    );
    assert_eq!(
        std::fs::read(dir.join("world_tiles.png")).unwrap(),
        std::fs::read(&source).unwrap(),
        "the atlas beside the map, byte for byte"
    );
    let text = std::fs::read_to_string(dir.join("world.tmx")).unwrap();
    assert!(text.contains(r#"tilecount="16""#) && text.contains(r#"type="corner""#));
    let ldtk = std::fs::read_to_string(dir.join("world.ldtk")).unwrap();
    assert!(ldtk.contains(r#""relPath":"world_tiles.png""#) && ldtk.contains(r#""__cWid":4"#));
}

#[test]
fn a_square_atlas_of_the_wrong_size_or_with_biomes_exits_2() {
    let dir = common::temp_dir("cli-zones-corner-atlas-bad");
    let odd = dir.join("odd.png");
    grid_core::export::write_rgb_png(&odd, 30, 30, &[0; 30 * 30 * 3]).unwrap();
    let good = dir.join("good.png");
    save_art(6, &good);
    for (atlas, extra, message) in [
        (
            &odd,
            None,
            "corner atlas image 30x30 px is not 4x4 square tiles",
        ),
        (&good, Some("--biomes"), "draws wall and floor only"),
    ] {
        let out = bin()
            .args(["zones", "--zones", "4x4", "--atlas"])
            .arg(atlas)
            .args(extra)
            .arg("--out")
            .arg(dir.join("x.png"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{err}");
        assert!(!dir.join("x.png").exists());
    }
}

/// `zones atlas --corners` writes the built-in corner tiles as a corner atlas, which
/// `zones --atlas` reads back whole.
#[test]
fn the_builtin_corner_atlas_round_trips_through_the_cli() {
    let dir = common::temp_dir("cli-zones-corner-atlas-builtin");
    let art = dir.join("corners.png");
    let out = bin()
        .args(["zones", "atlas", "--corners", "--zone-size", "24", "--out"])
        .arg(&art)
        .output()
        .unwrap();
    assert_success(&out, "");
    let img = zone_tiles::Atlas::load_image(&art, 1).unwrap();
    assert_eq!(img.dimensions(), (48, 48), "4x4 tiles of 12 px");
    let out = bin()
        .args(["zones", "--zones", "8x6", "--atlas"])
        .arg(&art)
        .arg("--out")
        .arg(dir.join("world.tmx"))
        .output()
        .unwrap();
    assert_success(&out, "");
    assert_eq!(
        std::fs::read(dir.join("world_tiles.png")).unwrap(),
        std::fs::read(&art).unwrap()
    );
    let out = bin()
        .args(["zones", "atlas", "--corners", "--reduced", "--out"])
        .arg(dir.join("x.png"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--corners is its own layout");
}
