//! Unit tests of the run-based areas and centres.

use super::{Scratch, View, by_fill, runs};
use grid_core::{LevelRng, Seed};

/// The test shapes' draws: `0..n` from the project's seeded generator.
struct TestRng(LevelRng);
impl TestRng {
    fn below(&mut self, n: u64) -> u64 {
        grid_core::below(&mut self.0, n as usize) as u64
    }
}

/// The run-based path finds the areas and centres the flood fill finds, for several ranks,
/// on random maps (sparse and dense, one or several entity codes, regions inside wider
/// maps; uneven centroids, so distances near integers, included).
#[test]
fn runs_are_the_fill() {
    let mut g = TestRng(Seed(7).rng());
    let four = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut fill = Scratch::default();
    let mut rs = runs::Scratch::default();
    for case in 0..3000 {
        let (rw, rh) = (2 + g.below(90) as usize, 2 + g.below(90) as usize);
        let (w, h) = (rw + g.below(70) as usize, rh + g.below(3) as usize);
        let (ox, oy) = (g.below((w - rw + 1) as u64), g.below((h - rh + 1) as u64));
        let codes = 2 + g.below(3) as u8;
        // Blobs: a cell copies its left or upper neighbour most of the time.
        let stick = g.below(10);
        let mut cells = vec![0u8; w * h];
        for i in 0..w * h {
            cells[i] = match g.below(10) {
                s if s < stick && i >= w && g.below(2) == 0 => cells[i - w],
                s if s < stick && i >= 1 => cells[i - 1],
                _ => g.below(u64::from(codes)) as u8,
            };
        }
        let entities: Vec<bool> = (0..codes).map(|c| c == 0 || g.below(3) == 0).collect();
        let view = View {
            cells: &cells,
            w,
            first: oy as usize * w + ox as usize,
            rw,
            rh,
        };
        let salt = g.below(1 << 20) as usize;
        for pick in 0..3 {
            // A rank per area from the area's size and order.
            let ranks = || {
                let mut i = 0;
                move |n: usize| {
                    i += 1;
                    match pick {
                        0 => 0,
                        1 => n - 1,
                        _ => (salt + i * 7919) % n,
                    }
                }
            };
            let (mut want, mut got) = (Vec::new(), Vec::new());
            by_fill(&four, &view, &entities, &mut fill, ranks(), &mut want);
            runs::centres(&view, &entities, &mut rs, ranks(), &mut got);
            assert_eq!(got, want, "case {case} pick {pick}");
            // The next pass relies on the histograms left zero.
            assert!(rs.centroid.hist_is_clean(), "case {case} pick {pick}");
        }
    }
}
