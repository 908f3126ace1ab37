use super::grid::Grid;
use super::*;
use grid_core::{Connectivity, Seed, components};

/// grid-core's offsets of `conn` as the engine's `(dx, dy)` pairs.
fn offsets(conn: Connectivity) -> Vec<(i64, i64)> {
    conn.offsets()
        .iter()
        .map(|&(x, y)| (x as i64, y as i64))
        .collect()
}

/// The view of a whole `w`-wide map of `cells`.
fn whole_view(cells: &[u8], w: usize, h: usize) -> View<'_> {
    View {
        cells,
        w,
        r: Rect {
            x: 0,
            y: 0,
            w: w as i64,
            h: h as i64,
        },
    }
}

/// A `w x h` map of 0/1 cells drawn from `seed`, about `1/per` of them 1.
fn random_map(w: usize, h: usize, per: u64, seed: u64) -> Vec<u8> {
    let mut rng = Seed(seed).rng();
    (0..w * h)
        .map(|_| u8::from(grid_core::below(&mut rng, per as usize) == 0))
        .collect()
}

fn plan_of(cells: &[u8], w: usize, h: usize, adj: &[(i64, i64)], seed: u64) -> Plan {
    plan(
        &mut Plain,
        adj,
        &[false, true],
        whole_view(cells, w, h),
        &mut Seed(seed).rng(),
    )
}

/// The length of a minimum spanning tree of the 4-connected areas of `cells` (value 1), the
/// length of an edge being the least Manhattan distance between cells of the two areas (the
/// steps of a corridor on an open grid): Prim over every pair, by brute force.
fn brute_mst(cells: &[u8], w: usize, h: usize) -> u64 {
    let c = components(w, h, Connectivity::Four, |i| cells[i] == 1);
    let areas = c.cells();
    let k = areas.len();
    let d = |a: usize, b: usize| {
        let mut best = u64::MAX;
        for &i in &areas[a] {
            for &j in &areas[b] {
                best = best.min(((i % w).abs_diff(j % w) + (i / w).abs_diff(j / w)) as u64);
            }
        }
        best
    };
    let mut inside = vec![false; k];
    let mut near = vec![u64::MAX; k];
    near[0] = 0;
    let mut total = 0;
    for _ in 0..k {
        let a = (0..k)
            .filter(|&a| !inside[a])
            .min_by_key(|&a| near[a])
            .unwrap();
        inside[a] = true;
        total += near[a];
        for b in 0..k {
            if !inside[b] {
                near[b] = near[b].min(d(a, b));
            }
        }
    }
    total
}

#[test]
fn the_tree_is_a_minimum_spanning_tree_of_the_corridor_lengths() {
    for seed in 0..60u64 {
        let (w, h) = (5 + seed as usize % 17, 4 + seed as usize % 13);
        let cells = random_map(w, h, 2 + seed % 9, seed * 7919 + 1);
        let plan = plan_of(&cells, w, h, &offsets(Connectivity::Four), seed);
        let k = components(w, h, Connectivity::Four, |i| cells[i] == 1).count();
        assert_eq!(plan.areas, k, "seed {seed}");
        if k < 2 {
            assert!(plan.corridors.is_empty());
            continue;
        }
        assert_eq!(plan.length, brute_mst(&cells, w, h), "seed {seed}");
        // k - 1 tree corridors and at most one loop, each from an area cell to an area cell
        // and no longer than the tree's longest step count.
        let n = plan.corridors.len();
        assert!(
            n == k - 1 || n == k,
            "seed {seed}: {n} corridors, {k} areas"
        );
        for &((x0, y0), (x1, y1)) in &plan.corridors {
            assert_eq!(cells[y0 as usize * w + x0 as usize], 1);
            assert_eq!(cells[y1 as usize * w + x1 as usize], 1);
            assert!(x0.abs_diff(x1) + y0.abs_diff(y1) <= plan.length);
        }
    }
}

#[test]
fn areas_in_a_row_are_joined_to_their_neighbours() {
    // Five one-cell areas on a line, three cells apart: four corridors of three steps between
    // neighbours (a loop may join two areas farther apart).
    let (w, h) = (17, 3);
    let mut cells = vec![0u8; w * h];
    for x in [0, 4, 8, 12, 16] {
        cells[w + x] = 1;
    }
    for seed in 0..20 {
        let plan = plan_of(&cells, w, h, &offsets(Connectivity::Four), seed);
        assert_eq!(plan.length, 4 * 4);
        for &((x0, _), (x1, _)) in &plan.corridors[..4] {
            assert_eq!(x0.abs_diff(x1), 4, "seed {seed}: {:?}", plan.corridors);
        }
    }
}

#[test]
fn areas_are_the_components() {
    // The 4- and 8-neighbourhoods in another order, plus a long step no cell can take: the
    // same labels as grid-core's components, and the first cell of each.
    for conn in [Connectivity::Four, Connectivity::Eight] {
        let mut adj: Vec<(i64, i64)> = conn
            .offsets()
            .iter()
            .rev()
            .map(|&(x, y)| (x as i64, y as i64))
            .collect();
        adj.extend([(40, 0), (-40, 0)]);
        for seed in 0..30u64 {
            let (w, h) = (1 + seed as usize % 11, 1 + seed as usize % 7);
            let cells = random_map(w, h, 3, seed + 11);
            let view = whole_view(&cells, w, h);
            let mut grid = Grid::new(&adj, &view);
            let firsts = grid.areas(&view, &[false, true]);
            let c = components(w, h, conn, |i| cells[i] == 1);
            let labels: Vec<u32> = grid.rows().flatten().map(|i| grid.owner(i)).collect();
            assert_eq!(labels, c.labels.into_vec(), "{conn:?} seed {seed}");
            let want: Vec<usize> = (0..firsts.len() as u32)
                .map(|a| labels.iter().position(|&l| l == a).unwrap())
                .collect();
            let local = |i: usize| grid.local(i).1 * w + grid.local(i).0;
            let firsts: Vec<usize> = firsts.into_iter().map(local).collect();
            assert_eq!(firsts, want, "{conn:?} seed {seed}");
        }
    }
}

#[test]
fn unreachable_areas_are_chained() {
    // Steps of two cells only: areas on odd columns are never reached from even ones.
    let two = [(2, 0), (-2, 0), (0, 2), (0, -2)];
    let (w, h) = (9, 5);
    let mut cells = vec![0u8; w * h];
    cells[0] = 1;
    cells[3] = 1;
    cells[4 * w + 8] = 1;
    let plan = plan_of(&cells, w, h, &two, 1);
    assert_eq!(plan.areas, 3);
    // Areas 0 and 2 (even columns and rows) by the tree, area 1 by the chain.
    assert!(
        plan.corridors.contains(&((0, 0), (3, 0))) || plan.corridors.contains(&((3, 0), (8, 4)))
    );
    assert!(plan.corridors.len() >= 2);
}

#[test]
fn each_cell_is_owned_by_its_nearest_area_of_lowest_number() {
    // The 4 and 8 unit steps and knight's moves: each cell's steps are those to its nearest
    // area (a breadth-first search from that area alone), its owner is the lowest-numbered
    // area at that distance, and the borders are the pairs of neighbours of two owners.
    let knight: Vec<(i64, i64)> = [(1, 2), (2, 1), (2, -1), (1, -2)]
        .into_iter()
        .flat_map(|(x, y)| [(x, y), (-x, -y)])
        .collect();
    for adj in [
        offsets(Connectivity::Four),
        offsets(Connectivity::Eight),
        knight,
    ] {
        for seed in 0..30u64 {
            let (w, h) = (3 + seed as usize % 13, 2 + seed as usize % 11);
            let cells = random_map(w, h, 3 + seed % 7, seed * 31 + 5);
            let view = whole_view(&cells, w, h);
            let mut grid = Grid::new(&adj, &view);
            let k = grid.areas(&view, &[false, true]).len();
            grid.nearest();
            let steps = |a: u32| steps_from(&grid, a);
            let from: Vec<Vec<u32>> = (0..k as u32).map(steps).collect();
            for (n, i) in grid.rows().flatten().enumerate() {
                let near = (0..k).map(|a| from[a][n]).min().unwrap_or(u32::MAX);
                if near == u32::MAX {
                    assert_eq!(grid.owner(i), grid::NONE, "seed {seed} cell {n}");
                    continue;
                }
                let lowest = (0..k).find(|&a| from[a][n] == near).unwrap();
                assert_eq!(grid.dist(i), near, "{adj:?} seed {seed} cell {n}");
                assert_eq!(grid.owner(i), lowest as u32, "{adj:?} seed {seed} cell {n}");
            }
            let mut want = Vec::new();
            for i in grid.rows().flatten() {
                for &s in &grid.steps {
                    let j = i.wrapping_add_signed(s);
                    let (a, b) = (grid.owner(i), grid.owner(j));
                    if j > i && a != b && a < grid::OPEN && b < grid::OPEN {
                        want.push((i as u32, j as u32));
                    }
                }
            }
            let mut pairs = grid.scratch.pairs.clone();
            pairs.sort_unstable();
            want.sort_unstable();
            assert_eq!(pairs, want, "{adj:?} seed {seed}");
        }
    }
}

/// The steps from area `a` to each cell of the region, in scan order (`u32::MAX`: none),
/// by a breadth-first search from its cells alone.
fn steps_from(grid: &Grid, a: u32) -> Vec<u32> {
    let mut d = vec![u32::MAX; grid.keys.len()];
    let mut queue: std::collections::VecDeque<usize> = grid
        .rows()
        .flatten()
        .filter(|&i| grid.dist(i) == 0 && grid.owner(i) == a)
        .collect();
    for &i in &queue {
        d[i] = 0;
    }
    while let Some(i) = queue.pop_front() {
        for &s in &grid.steps {
            let j = i.wrapping_add_signed(s);
            if grid.owner(j) != grid::PAD && d[j] == u32::MAX {
                d[j] = d[i] + 1;
                queue.push_back(j);
            }
        }
    }
    grid.rows().flatten().map(|i| d[i]).collect()
}
