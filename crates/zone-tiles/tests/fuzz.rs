//! Property tests: parameter parsing, configuration and atlas cutting never panic, and
//! accept exactly what they document.

use image::RgbImage;
use proptest::prelude::*;
use zone_tiles::world::parse_size;
use zone_tiles::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn size_parser_never_panics(text in ".{0,12}") {
        if let Ok((w, h)) = parse_size(&text) {
            prop_assert!(w >= 1 && h >= 1);
            prop_assert_eq!(parse_size(&format!("{w}x{h}")).unwrap(), (w, h));
        }
        let _ = Distance::parse(&text);
    }

    #[test]
    fn size_parser_round_trips(w in 1u32..70000, h in 1u32..70000) {
        let ok = w <= 65536 && h <= 65536;
        prop_assert_eq!(parse_size(&format!("{w}x{h}")).is_ok(), ok);
    }

    #[test]
    fn atlas_cutting_checks_sizes(w in 0u32..700, h in 0u32..400, zone in 0u32..40, reduced: bool) {
        let img = RgbImage::new(w, h);
        let kind = if reduced { AtlasKind::Reduced } else { AtlasKind::Full };
        let (cols, rows) = kind.grid();
        let fits = zone > 0 && zone % 3 == 0 && w == cols * zone && h == rows * zone;
        let cut = Atlas::from_image(&img, kind, zone);
        prop_assert_eq!(cut.is_ok(), fits, "{:?}", cut.err());
        if let Ok(auto) = Atlas::from_image_auto(&img) {
            let (c, r) = auto.kind().grid();
            prop_assert_eq!((w, h), (c * auto.zone_size(), r * auto.zone_size()));
        }
    }

    #[test]
    fn any_configuration_errors_or_generates(
        zone in 0u32..100,
        threshold in prop_oneof![any::<f64>(), -0.5f64..1.5],
        fill: bool,
        scale in prop_oneof![any::<f64>(), 0.0f64..300.0],
        octaves in 0u32..10,
        persistence in -0.5f64..1.5,
        stride in 0u32..30,
        seamless: bool,
        connected in 0u8..3,
        weight in prop_oneof![any::<f64>(), -0.5f64..5.0],
        macro_scale in prop_oneof![any::<f64>(), 0.0f64..2000.0],
        x in -3_000_000_000i64..3_000_000_000,
        y in any::<i64>(),
        seed: u64,
    ) {
        let config = ZoneConfig {
            zone_size: zone,
            noise: NoiseConfig { scale, octaves, persistence, ..NoiseConfig::simplex() },
            sampling: Sampling::Stride(stride),
            threshold: if fill { Threshold::Fill(threshold) } else { Threshold::Fixed(threshold) },
            mode: if seamless { Mode::Seamless } else { Mode::Reference },
            connected: [Connected::Off, Connected::Regions, Connected::Windows][connected as usize],
            structure: Structure { weight, scale: macro_scale },
        };
        if let Ok(generator) = ZoneGenerator::new(config, seed) {
            prop_assert!(zone % 3 == 0 && (0.0..=1.0).contains(&threshold));
            prop_assert!((0.0..=4.0).contains(&weight) && (60.0..=1e6).contains(&macro_scale));
            match generator.generate(ZoneRect::new(x, y % (1 << 33), 2, 2)) {
                Ok(world) => prop_assert_eq!(world.states.len(), 4),
                Err(e) => {
                    let coord = matches!(e, ZoneError::ZoneCoord { .. });
                    prop_assert!(coord, "unexpected error {}", e);
                }
            }
        }
    }
}
