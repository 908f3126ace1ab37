//! `ZoneGenerator::with_offset`: a field added to every cell's or node's value steers the map
//! in every mode and connectivity, and a zero field changes nothing.

use zone_tiles::{Connected, Mode, Place, ZoneConfig, ZoneGenerator, ZoneRect};

fn config(mode: Mode, connected: Connected) -> ZoneConfig {
    ZoneConfig {
        mode,
        connected,
        ..ZoneConfig::default()
    }
}

const MODES: [Mode; 2] = [Mode::Reference, Mode::Seamless];
const LINKS: [Connected; 3] = [Connected::Off, Connected::Regions, Connected::Windows];

#[test]
fn a_zero_offset_changes_nothing() {
    let rect = ZoneRect::new(-3, 2, 12, 9);
    for mode in MODES {
        for connected in LINKS {
            let g = ZoneGenerator::new(config(mode, connected), 7).unwrap();
            let plain = g.generate(rect).unwrap();
            let zero = g.clone().with_offset(|_| 0.0).generate_par(rect).unwrap();
            assert_eq!(plain.states, zero.states, "{mode:?} {connected:?}");
        }
    }
}

#[test]
fn raising_everything_fills_and_lowering_empties() {
    let rect = ZoneRect::new(0, 0, 10, 10);
    for mode in MODES {
        let g = ZoneGenerator::new(config(mode, Connected::Off), 3).unwrap();
        let full = g.clone().with_offset(|_| 10.0).generate(rect).unwrap();
        assert_eq!(full.on_share(), 1.0, "{mode:?}");
        let empty = g.with_offset(|_| -10.0).generate(rect).unwrap();
        assert_eq!(empty.on_share(), 0.0, "{mode:?}");
    }
}

#[test]
fn the_offset_sees_cells_in_reference_mode_and_nodes_in_seamless() {
    let rect = ZoneRect::new(0, 0, 4, 4);
    // Reference: only cell 4 (the centre) of zone (1, 2) raised.
    let g = ZoneGenerator::new(config(Mode::Reference, Connected::Off), 1).unwrap();
    let w = g
        .with_offset(|p| match p {
            Place::Cell { zx: 1, zy: 2, k: 4 } => 10.0,
            Place::Cell { .. } => -10.0,
            Place::Node { .. } => panic!("a node in reference mode"),
        })
        .generate(rect)
        .unwrap();
    assert_eq!(w.on_cells(), 1);
    assert_eq!(w.states.at(1, 2).index(), 1 << 4);
    // Seamless: only node (3, 5), the centre of zone (1, 2).
    let g = ZoneGenerator::new(config(Mode::Seamless, Connected::Off), 1).unwrap();
    let w = g
        .with_offset(|p| match p {
            Place::Node { a: 3, b: 5 } => 10.0,
            Place::Node { .. } => -10.0,
            Place::Cell { .. } => panic!("a cell in seamless mode"),
        })
        .generate(rect)
        .unwrap();
    assert_eq!(w.on_cells(), 1);
    assert_eq!(w.states.at(1, 2).index(), 1 << 4);
}
