use super::*;
use crate::explorer::connect::symmetric;
use crate::explorer::connect::tree::{Plan, plan};
use grid_core::{Connectivity, LevelRng, Rect, Seed, below};

/// A `w x h` map of codes 0 to 2 drawn from `rng`, about `percent` of them 1.
fn random_map(w: usize, h: usize, percent: usize, rng: &mut LevelRng) -> Vec<u8> {
    (0..w * h)
        .map(|_| match below(rng, 100) {
            n if n < percent => 1,
            n if n < percent + 5 => 2,
            _ => 0,
        })
        .collect()
}

/// The plan of region `r` of the `w`-wide `cells`, with `raster` or the core's stages, and
/// the state of its random source after it.
fn plan_with(
    cells: &[u8],
    w: usize,
    r: Rect,
    adj: &[(i64, i64)],
    raster: Option<Raster>,
    seed: u64,
) -> (Plan, u64) {
    let mut rng = Seed(seed).rng();
    let view = View { cells, w, r };
    let entities = [false, true, false];
    let plan = match raster {
        Some(mut raster) => plan(&mut raster, adj, &entities, view, &mut rng),
        None => plan(
            &mut crate::explorer::connect::tree::Plain,
            adj,
            &entities,
            view,
            &mut rng,
        ),
    };
    (plan, below(&mut rng, usize::MAX) as u64)
}

/// The 4 unit steps and the 8 of the 3x3 square (grid-core's orders), and halves of them made
/// symmetric.
fn raster_offsets() -> Vec<Vec<(i64, i64)>> {
    let steps = |c: Connectivity| -> Vec<(i64, i64)> {
        c.offsets()
            .iter()
            .map(|&(dx, dy)| (dx as i64, dy as i64))
            .collect()
    };
    vec![
        symmetric(&steps(Connectivity::Four)),
        symmetric(&[(1, 0), (0, 1)]),
        symmetric(&steps(Connectivity::Eight)),
        symmetric(&[(1, 1), (1, 0), (0, 1), (-1, 1)]),
    ]
}

#[test]
fn raster_plans_equal_the_core() {
    let mut rng = Seed(0x05ee_dc02_2ec7).rng();
    let mut joined = 0;
    for adj in raster_offsets() {
        let diagonal = adj.len() == 8;
        assert_eq!(super::diagonal(&Accel::all(), &adj), Some(diagonal));
        for n in 0..150 {
            // Odd sizes, regions anywhere in the map, sparse to dense.
            let (rw, rh) = (1 + below(&mut rng, 37), 1 + below(&mut rng, 29));
            let (x, y) = (below(&mut rng, 9), below(&mut rng, 7));
            let (w, h) = (x + rw + below(&mut rng, 5), y + rh + below(&mut rng, 5));
            let percent = [2, 8, 20, 40, 55, 70, 90][n % 7];
            let cells = random_map(w, h, percent, &mut rng);
            let r = Rect::new(x as i64, y as i64, rw as i64, rh as i64);
            let seed = below(&mut rng, 1 << 30) as u64;
            let core = plan_with(&cells, w, r, &adj, None, seed);
            let raster = choose(&Accel::all(), &adj).expect("raster offsets");
            let fast = plan_with(&cells, w, r, &adj, Some(raster), seed);
            assert_eq!(
                fast, core,
                "{adj:?} map {n}: {w}x{h} region {r:?} {percent}%"
            );
            joined += usize::from(core.0.areas > 1);
        }
    }
    // Most maps have areas to join (the others check the plans of none or one).
    assert!(joined > 400, "{joined} of 600 maps with two areas or more");
}

#[test]
fn raster_plans_join_many_areas() {
    // Large sparse maps: thousands of areas, so that the candidate table grows.
    let mut rng = Seed(17).rng();
    for adj in raster_offsets() {
        let (w, h) = (213, 151);
        let cells = random_map(w, h, 6, &mut rng);
        let r = Rect::new(3, 2, 207, 147);
        let core = plan_with(&cells, w, r, &adj, None, 9);
        let fast = plan_with(&cells, w, r, &adj, choose(&Accel::all(), &adj), 9);
        assert!(core.0.areas > 500, "{}", core.0.areas);
        assert_eq!(fast, core, "{adj:?}");
    }
}

#[test]
fn only_the_four_and_eight_unit_steps_run_in_raster_passes() {
    for adj in raster_offsets() {
        assert!(diagonal(&Accel::all(), &adj).is_some(), "{adj:?}");
        assert!(diagonal(&Accel::none(), &adj).is_none(), "{adj:?}");
        assert!(diagonal(&Accel::all_but("connect_raster").unwrap(), &adj).is_none());
    }
    for dirs in [
        &[(1, 0)][..],
        &[(1, 1), (1, -1)],
        &[(2, 0), (0, 2)],
        &[(1, 0), (0, 1), (1, 1)],
        &[(1, 0), (0, 1), (2, 0)],
        &[(1, 2), (2, 1), (2, -1), (1, -2)],
    ] {
        let adj = symmetric(dirs);
        assert_eq!(diagonal(&Accel::all(), &adj), None, "{adj:?}");
    }
    // Repeated offsets are not the 4 steps, though there are four.
    assert_eq!(
        diagonal(&Accel::all(), &[(1, 0), (1, 0), (-1, 0), (0, 1)]),
        None
    );
}
