//! Property tests of the expressive-range metrics: the block-grid parser never panics, and
//! on random maps the metrics agree with independent computations.

use grid_core::metrics::{BlockGrid, EmptySet, MetricsScratch, binary_entropy, measure};
use grid_core::{Connectivity, Legend, TileGrid, TileKind, components};
use proptest::prelude::*;

fn legend() -> Legend {
    Legend::new(vec![
        TileKind::new("empty", '.', [255; 3]),
        TileKind::new("solid", '#', [0; 3]),
        TileKind::new("door", '+', [9; 3]),
    ])
}

fn map(w: usize, h: usize, cells: &[u16]) -> TileGrid {
    let mut m = TileGrid::new(w, h, 1, legend());
    for (i, &c) in cells.iter().take(w * h).enumerate() {
        m.tiles.as_mut_slice()[i] = c % 3;
    }
    m
}

/// The mean block entropy by the §14.1 formula, written out naively.
fn naive_entropy(m: &TileGrid, open: &dyn Fn(u16) -> bool, cols: usize, rows: usize) -> f64 {
    let (w, h) = (m.tiles.width(), m.tiles.height());
    let (mut sum, mut used) = (0.0, 0);
    for by in 0..rows {
        for bx in 0..cols {
            let (x0, x1) = (bx * w / cols, (bx + 1) * w / cols);
            let (y0, y1) = (by * h / rows, (by + 1) * h / rows);
            let area = (x1 - x0) * (y1 - y0);
            if area == 0 {
                continue;
            }
            let mut e = 0;
            for y in y0..y1 {
                for x in x0..x1 {
                    e += usize::from(open(*m.tiles.at(x, y)));
                }
            }
            sum += binary_entropy(e as f64 / area as f64);
            used += 1;
        }
    }
    if used == 0 { 0.0 } else { sum / used as f64 }
}

proptest! {
    #[test]
    fn block_grid_parser_never_panics(s in ".{0,20}") {
        let _ = s.parse::<BlockGrid>();
    }

    #[test]
    fn block_grids_round_trip(c in 1usize..=1000, r in 1usize..=1000) {
        let g = BlockGrid { cols: c, rows: r };
        prop_assert_eq!(g.to_string().parse::<BlockGrid>(), Ok(g));
    }

    #[test]
    fn metrics_agree_with_independent_computations(
        w in 0usize..40,
        h in 0usize..40,
        cells in prop::collection::vec(0u16..3, 1600),
        cols in 1usize..8,
        rows in 1usize..8,
        with_door in any::<bool>(),
    ) {
        let m = map(w, h, &cells);
        let names: &[&str] = if with_door { &["empty", "door"] } else { &["empty"] };
        let empty = EmptySet::from_names(&m.legend, names).unwrap();
        let open = |id: u16| id == 0 || (with_door && id == 2);
        let blocks = BlockGrid { cols, rows };
        let r = measure(&m, &empty, blocks);

        let expected_empty = m.tiles.as_slice().iter().filter(|&&c| open(c)).count();
        prop_assert_eq!(r.empty_tiles, expected_empty);
        if w * h > 0 {
            prop_assert!((r.empty_fraction - expected_empty as f64 / (w * h) as f64).abs() < 1e-12);
        }
        let comps = components(w, h, Connectivity::Four, |i| open(m.tiles.as_slice()[i]));
        prop_assert_eq!(r.regions, comps.count());
        prop_assert!((0.0..=1.0).contains(&r.block_entropy));
        prop_assert!((r.block_entropy - naive_entropy(&m, &open, cols, rows)).abs() < 1e-12);

        // The complement has the same entropy (H(p) = H(1-p)) and the complementary fraction.
        let solid = EmptySet::from_ids(if with_door { &[1] } else { &[1, 2] });
        let c = MetricsScratch::new().measure(&m, &solid, blocks);
        prop_assert_eq!(c.empty_tiles + r.empty_tiles, w * h);
        prop_assert!((c.block_entropy - r.block_entropy).abs() < 1e-9);
    }
}
