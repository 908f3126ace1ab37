//! Unit tests of the run-based centres.

use super::{Scratch, centre, centre_of_runs};

/// A small xorshift stream for the test shapes.
struct Xs(u64);
impl Xs {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// [`centre_of_runs`] picks the cell [`centre`] picks from the same cells, for several ranks,
/// on random run sets (uneven centroids, so distances near integers, included).
#[test]
fn centre_of_runs_is_centre() {
    let mut g = Xs(0x9e37_79b9_7f4a_7c15);
    let mut s = Scratch::default();
    for case in 0..3000 {
        let (rw, rh) = (2 + g.below(90) as u32, 2 + g.below(90) as u32);
        let mut runs = Vec::new();
        let dense = 1 + g.below(6);
        for y in 0..rh {
            let mut x = g.below(4) as u32;
            while x < rw {
                if g.below(dense + 1) == 0 {
                    x += 1 + g.below(5) as u32;
                    continue;
                }
                let x1 = (x + 1 + g.below(rw as u64) as u32).min(rw);
                runs.push((y, x, x1));
                x = x1 + 1;
            }
        }
        if runs.is_empty() {
            continue;
        }
        let members: Vec<(u32, u32)> = runs
            .iter()
            .flat_map(|&(y, x0, x1)| (x0..x1).map(move |x| (x, y)))
            .collect();
        let n = members.len();
        let dims = (rw as usize, rh as usize);
        let ks = [0, n / 3, n / 2, n - 1, g.below(n as u64) as usize];
        for k in ks {
            let want = centre(&mut members.clone(), &mut s, dims, |_| k);
            let got = centre_of_runs(&runs, &mut s, dims, |_| k);
            assert_eq!(got, want, "case {case} k {k} runs {runs:?}");
        }
    }
}
