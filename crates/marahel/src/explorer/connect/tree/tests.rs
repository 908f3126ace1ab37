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

/// A `w x h` map of 0/1 cells from a xorshift stream, about `1/per` of them 1.
fn random_map(w: usize, h: usize, per: u64, mut x: u64) -> Vec<u8> {
    (0..w * h)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            u8::from(x.is_multiple_of(per))
        })
        .collect()
}

fn plan_of(cells: &[u8], w: usize, h: usize, adj: &[(i64, i64)], seed: u64) -> Plan {
    plan(
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
    // same labels as grid-core's components; the search starts from exactly the area cells
    // next to a cell of no area.
    for conn in [Connectivity::Four, Connectivity::Eight] {
        let mut adj: Vec<(i64, i64)> = conn
            .offsets()
            .iter()
            .rev()
            .map(|&(x, y)| (x as i64, y as i64))
            .collect();
        adj.extend([(40, 0), (-40, 0)]);
        for seed in 0..30u64 {
            let (w, h) = (6 + seed as usize % 11, 5 + seed as usize % 7);
            let cells = random_map(w, h, 3, seed + 11);
            let view = whole_view(&cells, w, h);
            let mut grid = Grid::new(&adj, &view);
            let Areas { firsts, start } = grid.areas(&view, &[false, true]);
            let k = firsts.len();
            let c = components(w, h, conn, |i| cells[i] == 1);
            assert_eq!(k, c.count());
            // The raster's cells hold provisional areas until its forward pass maps them.
            let area = |i: usize| match &start {
                Start::Table(t) => t.get(grid.owner(i) as usize).map_or(NONE, |&k| k as u32),
                Start::Layer(_) => grid.owner(i),
            };
            let labels: Vec<u32> = grid.rows().flatten().map(area).collect();
            assert_eq!(labels, c.labels.into_vec(), "{conn:?} seed {seed}");
            let mut want: Vec<u32> = grid
                .rows()
                .flatten()
                .filter(|&i| {
                    grid.raster.is_none()
                        && (area(i) as usize) < k
                        && grid
                            .steps
                            .iter()
                            .any(|&s| area(i.wrapping_add_signed(s)) == NONE)
                })
                .map(|i| i as u32)
                .collect();
            let mut edge = match start {
                Start::Layer(edge) => edge,
                Start::Table(_) => Vec::new(),
            };
            edge.sort_unstable();
            want.sort_unstable();
            assert_eq!(edge, want);
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
fn the_raster_transform_finds_the_nearest_area() {
    // The 4 and 8 unit steps: each cell's steps to its owner are those of the breadth-first
    // search, the owner is an area at that distance (city-block or chessboard), no nearer
    // area has a smaller number, and the borders are the pairs of neighbours of two owners.
    for (adj, diagonal) in [
        (offsets(Connectivity::Four), false),
        (offsets(Connectivity::Eight), true),
    ] {
        for seed in 0..30u64 {
            let (w, h) = (3 + seed as usize % 13, 2 + seed as usize % 11);
            let cells = random_map(w, h, 3 + seed % 7, seed * 31 + 5);
            let view = whole_view(&cells, w, h);
            let mut raster = Grid::new(&adj, &view);
            assert_eq!(raster.raster, Some(diagonal));
            let Areas { firsts, start } = raster.areas(&view, &[false, true]);
            if firsts.is_empty() {
                continue;
            }
            raster.nearest(start);
            let mut pairs = raster.scratch.pairs.clone();
            let mut bfs = Grid::new(&adj, &view);
            bfs.raster = None;
            let start = bfs.areas(&view, &[false, true]).start;
            bfs.nearest(start);
            let metric = |i: usize, j: usize| {
                let (dx, dy) = ((i % w).abs_diff(j % w), (i / w).abs_diff(j / w));
                if diagonal { dx.max(dy) } else { dx + dy }
            };
            let local: Vec<usize> = raster.rows().flatten().collect();
            for (n, &i) in local.iter().enumerate() {
                assert_eq!(raster.dist(i), bfs.dist(i), "seed {seed} cell {n}");
                let owner = raster.owner(i);
                let nearest = |a: u32| {
                    local
                        .iter()
                        .enumerate()
                        .filter(|&(_, &j)| raster.dist(j) == 0 && raster.owner(j) == a)
                        .map(|(m, _)| metric(n, m))
                        .min()
                        .unwrap()
                };
                assert_eq!(
                    nearest(owner) as u32,
                    raster.dist(i),
                    "seed {seed} cell {n}"
                );
                for a in 0..owner {
                    assert!(nearest(a) as u32 > raster.dist(i), "seed {seed} cell {n}");
                }
            }
            // The borders, recomputed from the raster's owners by the general scan.
            let mut all = Vec::new();
            raster.borders(&mut all);
            all.sort_unstable();
            pairs.sort_unstable();
            assert_eq!(pairs, all, "seed {seed}");
        }
    }
}
