//! The world has no period: windows at far-apart origins (multiples of the old 256-unit
//! period, 171 zones with the defaults, and near ±2^31) are all different, and each is the
//! same as the window cut from a larger one around it.

use zone_tiles::*;

const SIDE: u32 = 16;
const LIMIT: i64 = 1 << 31;

fn origins() -> Vec<(i64, i64)> {
    vec![
        (0, 0),
        (171, 0),
        (342, 0),
        (0, 171),
        (512, 0),
        (1280, 0),
        (1280, -1280),
        (256 * 1000, 0),
        (0, 256 * 4096),
        (171 * 100_000, -171 * 7),
        (LIMIT - i64::from(SIDE) - 2, 0),
        (-LIMIT + 2, -LIMIT + 2),
        (LIMIT - i64::from(SIDE) - 2, LIMIT - i64::from(SIDE) - 2),
        (-LIMIT + 2, 171 * 1000),
    ]
}

fn check(config: ZoneConfig) {
    let generator = ZoneGenerator::new(config, 4).unwrap();
    let mut windows = Vec::new();
    for (x, y) in origins() {
        let rect = ZoneRect::new(x, y, SIDE, SIDE);
        let window = generator.generate(rect).unwrap();
        let larger = generator
            .generate(ZoneRect::new(x - 2, y - 2, SIDE + 4, SIDE + 2))
            .unwrap();
        assert_eq!(
            larger.sub_window(rect).unwrap(),
            window.states,
            "{config:?} at ({x}, {y})"
        );
        windows.push(((x, y), window.states));
    }
    for (i, (a, wa)) in windows.iter().enumerate() {
        for (b, wb) in &windows[i + 1..] {
            let same = wa
                .as_slice()
                .iter()
                .zip(wb.as_slice())
                .filter(|(p, q)| p == q)
                .count();
            // Unrelated windows share only the common states (all off, all on) by chance.
            assert!(
                same < (SIDE * SIDE) as usize * 3 / 4,
                "{config:?}: windows at {a:?} and {b:?} share {same} zones"
            );
            assert_ne!(wa, wb, "{config:?}: {a:?} and {b:?}");
        }
    }
}

#[test]
fn worley_windows_far_apart_differ() {
    check(ZoneConfig::default());
}

#[test]
fn perlin_windows_far_apart_differ() {
    check(ZoneConfig {
        noise: NoiseConfig {
            kind: NoiseKind::Perlin,
            ..NoiseConfig::simplex()
        },
        ..ZoneConfig::default()
    });
}

#[test]
fn simplex_windows_far_apart_differ_in_seamless_mode_too() {
    for mode in [Mode::Reference, Mode::Seamless] {
        check(ZoneConfig {
            noise: NoiseConfig::simplex(),
            mode,
            ..ZoneConfig::default()
        });
    }
}
