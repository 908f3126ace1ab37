//! Property tests: parsers never panic, connectivity agrees with a naive reference.

use grid_core::{Connectivity, Neighborhood, components, flood_fill};
use proptest::prelude::*;

proptest! {
    #[test]
    fn neighbourhood_parser_never_panics(s in ".{0,40}") {
        let _ = Neighborhood::parse(&s);
    }

    #[test]
    fn well_formed_matrices_parse_to_their_ones(rows in prop::collection::vec("[01]{1,6}", 1..6), centre in 0usize..36) {
        // Put exactly one centre digit (2) somewhere, then every 1 must become an offset.
        let mut cells: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().collect()).collect();
        let total: usize = cells.iter().map(Vec::len).sum();
        let mut k = centre % total;
        let mut centre_pos = (0i64, 0i64);
        'outer: for (y, row) in cells.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                if k == 0 { *c = b'2'; centre_pos = (x as i64, y as i64); break 'outer; }
                k -= 1;
            }
        }
        let text: Vec<String> = cells.iter().map(|r| String::from_utf8(r.clone()).unwrap()).collect();
        let n = Neighborhood::parse(&text.join(",")).unwrap();
        let ones: usize = cells.iter().flatten().filter(|&&c| c == b'1').count();
        prop_assert_eq!(n.len(), ones);
        for p in n.offsets() {
            let (x, y) = (p.x + centre_pos.0, p.y + centre_pos.1);
            prop_assert_eq!(cells[y as usize][x as usize], b'1');
        }
    }

    #[test]
    fn components_partition_the_open_cells(w in 1usize..20, h in 1usize..20, bits in prop::collection::vec(any::<bool>(), 400)) {
        let open = |i: usize| bits[i];
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let c = components(w, h, conn, open);
            let total: u32 = c.sizes.iter().sum();
            prop_assert_eq!(total as usize, (0..w * h).filter(|&i| open(i)).count());
            // Each component is exactly the flood fill from any of its cells.
            for cells in c.cells() {
                let mut fill = flood_fill(w, h, cells[0], conn, open);
                fill.sort_unstable();
                prop_assert_eq!(fill, cells);
            }
        }
    }
}
