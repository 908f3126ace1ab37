//! Measures of a generated map that need no template: how far each zone's area is from its
//! target, and which objects a hero can reach (walking 4-connected over walkable cells and
//! through portals, computed independently of the global check in [`crate::check`]).
//!
//! [`terrain`] measures how the obstacles form features (ridges, mountains, forests), and
//! [`thin_cells`] where zones are thinner than 3 cells.
//!
//! `levelgen analyze` reports these as extras and `levelgen search` offers them as metrics.

mod roads;
pub use roads::{sharp_turns, unlinked};

use crate::map::{Cell, Feature, HeroesMap, ObjectKind};
use grid_core::Grid;

/// `(max, mean)` of `|area - target| / target` over the zones.
pub fn area_errors(map: &HeroesMap) -> (f64, f64) {
    let errs: Vec<f64> = map
        .zones
        .iter()
        .filter(|z| z.target_area > 0)
        .map(|z| (z.area as f64 - z.target_area as f64).abs() / z.target_area as f64)
        .collect();
    if errs.is_empty() {
        return (0.0, 0.0);
    }
    let max = errs.iter().copied().fold(0.0, f64::max);
    (max, errs.iter().sum::<f64>() / errs.len() as f64)
}

const SIDES: [(i64, i64); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

/// The 4-neighbours of cell `i` on a `side x side` map.
pub(crate) fn neighbours(side: usize, i: usize) -> impl Iterator<Item = usize> {
    let (x, y) = ((i % side) as i64, (i / side) as i64);
    SIDES.iter().filter_map(move |&(dx, dy)| {
        let (nx, ny) = (x + dx, y + dy);
        (nx >= 0 && ny >= 0 && (nx as usize) < side && (ny as usize) < side)
            .then(|| ny as usize * side + nx as usize)
    })
}

/// Cells a hero reaches from the walkable side of the first castle (else the first walkable
/// cell), walking 4-connected over walkable cells; a reached portal end opens the walkable
/// sides of the other ends of its connection.
pub fn reached(map: &HeroesMap) -> Grid<bool> {
    let side = map.size;
    let n = side * side;
    let mut seen = vec![false; n];
    let walk = |i: usize| map.cell(i).walkable();
    let anchor = |x: u16, y: u16| y as usize * side + x as usize;
    let start = map
        .objects
        .iter()
        .find(|o| matches!(o.kind, ObjectKind::Castle { .. }))
        .and_then(|o| neighbours(side, anchor(o.x, o.y)).find(|&nb| walk(nb)))
        .or_else(|| (0..n).find(|&i| walk(i)));
    let portals: Vec<(usize, usize)> = map
        .objects
        .iter()
        .filter_map(|o| match o.kind {
            ObjectKind::Portal { connection, .. } => Some((connection, anchor(o.x, o.y))),
            _ => None,
        })
        .collect();
    let mut opened = vec![false; portals.len()];
    let mut queue: Vec<usize> = start.into_iter().collect();
    for &s in &queue {
        seen[s] = true;
    }
    // Each round floods, then opens newly touched portals; at most one round per portal.
    for _ in 0..=portals.len() {
        while let Some(i) = queue.pop() {
            for nb in neighbours(side, i) {
                if !seen[nb] && walk(nb) {
                    seen[nb] = true;
                    queue.push(nb);
                }
            }
        }
        for k in 0..portals.len() {
            let at = portals[k].1;
            if opened[k] || !(seen[at] || neighbours(side, at).any(|nb| seen[nb])) {
                continue;
            }
            opened[k] = true;
            for &(conn, at) in &portals {
                if conn == portals[k].0 {
                    for nb in neighbours(side, at) {
                        if !seen[nb] && walk(nb) {
                            seen[nb] = true;
                            queue.push(nb);
                        }
                    }
                }
            }
        }
        if queue.is_empty() {
            break;
        }
    }
    Grid::from_vec(side, side, seen).unwrap_or_else(|| Grid::new(0, 0, false))
}

/// Fraction of objects whose anchor is reached or touches a reached cell (1 with no objects).
pub fn reachable_objects(map: &HeroesMap) -> f64 {
    if map.objects.is_empty() {
        return 1.0;
    }
    let seen = reached(map);
    let side = map.size;
    let ok = map
        .objects
        .iter()
        .filter(|o| {
            let at = o.y as usize * side + o.x as usize;
            at < side * side
                && (seen.as_slice()[at] || neighbours(side, at).any(|nb| seen.as_slice()[nb]))
        })
        .count();
    ok as f64 / map.objects.len() as f64
}

/// Clumps of at least this many cells count as features in [`Terrain::features`].
pub const FEATURE_CELLS: u32 = 30;

/// How the obstacles are arranged: clumps of obstacle and border cells (8-connected, as the
/// `.hmm` decorations see them) and what the obstacle cells belong to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terrain {
    /// Obstacle cells / all cells.
    pub cover: f64,
    /// Clumps of obstacle and border cells.
    pub clumps: usize,
    /// Clumps of 3 cells or fewer.
    pub specks: usize,
    /// Clumps of at least [`FEATURE_CELLS`] cells that touch no border: mountains and forests
    /// standing free inside their zone.
    pub features: usize,
    /// Mean cells of the clumps that touch no border.
    pub mean_feature_cells: f64,
    /// Share of the obstacle cells in clumps that touch a border (ridges and what joins them).
    pub border_share: f64,
    /// Share of the obstacle cells that are forest ([`Feature::Forest`]).
    pub forest_share: f64,
}

/// The [`Terrain`] of `map`.
pub fn terrain(map: &HeroesMap) -> Terrain {
    let side = map.size;
    let n = side * side;
    let parts = grid_core::components_by_key(side, side, grid_core::Connectivity::Eight, |i| {
        matches!(map.cell(i), Cell::Obstacle | Cell::Edge).then_some(())
    });
    let labels = parts.labels.as_slice();
    let mut bordered = vec![false; parts.sizes.len()];
    let mut obstacles = vec![0usize; parts.sizes.len()];
    let (mut cover, mut forest) = (0usize, 0usize);
    for (i, &l) in labels.iter().enumerate() {
        if l == grid_core::Components::NONE {
            continue;
        }
        match map.cell(i) {
            Cell::Edge => bordered[l as usize] = true,
            _ => {
                obstacles[l as usize] += 1;
                cover += 1;
                forest += usize::from(map.feature(i) == Feature::Forest);
            }
        }
    }
    let inner: Vec<usize> = (0..parts.sizes.len()).filter(|&l| !bordered[l]).collect();
    let on_borders: usize = (0..parts.sizes.len())
        .filter(|&l| bordered[l])
        .map(|l| obstacles[l])
        .sum();
    let share = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    Terrain {
        cover: share(cover, n),
        clumps: parts.sizes.len(),
        specks: parts.sizes.iter().filter(|&&s| s <= 3).count(),
        features: inner
            .iter()
            .filter(|&&l| parts.sizes[l] >= FEATURE_CELLS)
            .count(),
        mean_feature_cells: share(
            inner.iter().map(|&l| parts.sizes[l] as usize).sum(),
            inner.len(),
        ),
        border_share: share(on_borders, cover),
        forest_share: share(forest, cover),
    }
}

/// Zone cells in no 3x3 square of their own zone: where a zone is thinner than 3 cells (a
/// cell in such a square has a run of at least 3 cells of its zone through it both across and
/// down).
pub fn thin_cells(map: &HeroesMap) -> usize {
    crate::borders::covered(map.size, map.zone_of.as_slice())
        .iter()
        .filter(|&&c| !c)
        .count()
}

/// The cells around cell `i` that a hero can step to (the 8 neighbours on the map).
fn around(side: usize, i: usize) -> impl Iterator<Item = usize> {
    let (x, y) = ((i % side) as i64, (i / side) as i64);
    crate::seal::steps().filter_map(move |(dx, dy)| {
        let (nx, ny) = (x + dx, y + dy);
        (nx >= 0 && ny >= 0 && (nx as usize) < side && (ny as usize) < side)
            .then(|| ny as usize * side + nx as usize)
    })
}

/// The cells of a `side` x `side` map in the 3x3 zone of control of a guard standing on one
/// of `guards` (cell indices): a hero who enters one meets the guard.
pub(crate) fn zones_of_control(side: usize, guards: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut zoc = vec![false; side * side];
    for at in guards {
        zoc[at] = true;
        for j in around(side, at) {
            zoc[j] = true;
        }
    }
    zoc
}

/// A gap in a zone border: two cells of different zones, neither a wall
/// ([`Cell::blocked`]), that touch at a side or a corner, neither of them a cell of a passage
/// between those zones. A hero steps diagonally, so a corner is enough to cross.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The first cell `(x, y)` (the lower flat index).
    pub a: (usize, usize),
    /// The second cell `(x, y)`.
    pub b: (usize, usize),
}

/// Every [`Gap`] of `map`, in cell order. A sealed map has none: zones meet only at their
/// passages (a cell touching a passage cell is within reach of its guard) and portals.
pub fn gaps(map: &HeroesMap) -> Vec<Gap> {
    let side = map.size;
    let passages: Vec<[usize; 2]> = map
        .connections
        .iter()
        .filter_map(|r| match r {
            crate::map::Realised::Passage(pq) => Some(*pq),
            _ => None,
        })
        .collect();
    crate::seal::gaps_in(
        side,
        map.cells.as_slice(),
        map.zone_of.as_slice(),
        &passages,
    )
    .into_iter()
    .map(|(i, j)| Gap {
        a: (i % side, i / side),
        b: (j % side, j / side),
    })
    .collect()
}

/// Zones a hero walks between without meeting a guard, as sorted pairs of zone positions.
///
/// The hero's walk: 8-connected over [`Cell::walkable`] cells, with every guard's 3x3 zone
/// of control blocked, portals not taken. Zones joined by a passage with no guard on it (a
/// `wide` connection, or one whose guard level is −1) may share an area; any other area
/// holding cells of two zones is a leak. A sealed map returns nothing.
pub fn leaks(map: &HeroesMap) -> Vec<(usize, usize)> {
    let side = map.size;
    let n = side * side;
    let zone = map.zone_of.as_slice();
    let zoc = zones_of_control(
        side,
        map.objects
            .iter()
            .filter(|o| matches!(o.kind, ObjectKind::Guard { .. }))
            .map(|o| o.y as usize * side + o.x as usize),
    );
    // Zones joined by unguarded passages form one class.
    let mut class: Vec<usize> = (0..map.zones.len()).collect();
    fn root(c: &mut [usize], mut x: usize) -> usize {
        while c[x] != x {
            c[x] = c[c[x]];
            x = c[x];
        }
        x
    }
    for r in &map.connections {
        if let crate::map::Realised::Passage([p, q]) = r
            && map.cell(*p) != Cell::Guard
            && map.cell(*q) != Cell::Guard
        {
            let (a, b) = (
                root(&mut class, zone[*p] as usize),
                root(&mut class, zone[*q] as usize),
            );
            class[a] = b;
        }
    }
    let open = |i: usize| map.cell(i).walkable() && !zoc[i];
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for s in 0..n {
        if seen[s] || !open(s) {
            continue;
        }
        seen[s] = true;
        let mut stack = vec![s];
        let mut zones_here: Vec<usize> = Vec::new();
        while let Some(i) = stack.pop() {
            let z = zone[i] as usize;
            if !zones_here.contains(&z) {
                zones_here.push(z);
            }
            for j in around(side, i) {
                if !seen[j] && open(j) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        for (k, &a) in zones_here.iter().enumerate() {
            for &b in &zones_here[k + 1..] {
                let pair = (a.min(b), a.max(b));
                if root(&mut class, a) != root(&mut class, b) && !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// Longest aspect ratio ([`aspect_ratios`]) a zone should have.
pub const MAX_ASPECT: f64 = 3.0;

/// Each zone's aspect ratio: the square root of the ratio of the principal moments of its
/// cells (1 for a disc or a square, about 3 for a 1:3 rectangle, at any rotation).
pub fn aspect_ratios(map: &HeroesMap) -> Vec<f64> {
    zone_aspects(map.size, map.zone_of.as_slice(), map.zones.len())
}

/// [`aspect_ratios`] of the `n` zones of `zone_of`, a `side x side` grid of zone ids.
pub fn zone_aspects(side: usize, zone_of: &[u8], n: usize) -> Vec<f64> {
    zone_moments(side, zone_of, n)
        .iter()
        .map(|m| m.shape().2)
        .collect()
}

/// The [`Moments`] of each of the `n` zones of `zone_of`, a `side x side` grid of zone ids.
pub(crate) fn zone_moments(side: usize, zone_of: &[u8], n: usize) -> Vec<Moments> {
    let mut moments = vec![Moments::default(); n];
    for (i, &z) in zone_of.iter().enumerate() {
        moments[z as usize].add((i % side) as f64, (i / side) as f64, 1.0);
    }
    moments
}

/// Running sums of a zone's cell count and of x, y, x², y² and xy over its cells, from
/// which [`zone_aspects`] and the reshaping step read its shape.
#[derive(Clone, Copy, Default)]
pub(crate) struct Moments([f64; 6]);

impl Moments {
    /// Adds (`sign` 1) or removes (`sign` -1) the cell at (`x`, `y`).
    pub(crate) fn add(&mut self, x: f64, y: f64, sign: f64) {
        let t = &mut self.0;
        t[0] += sign;
        t[1] += sign * x;
        t[2] += sign * y;
        t[3] += sign * x * x;
        t[4] += sign * y * y;
        t[5] += sign * x * y;
    }

    /// The zone's cell count.
    pub(crate) fn cells(&self) -> f64 {
        self.0[0]
    }

    /// Centroid, unit major axis and aspect ratio: the square root of the ratio of the
    /// principal moments (each cell a unit square; 1 below two cells).
    pub(crate) fn shape(&self) -> ((f64, f64), (f64, f64), f64) {
        let t = &self.0;
        if t[0] < 2.0 {
            return ((0.0, 0.0), (1.0, 0.0), 1.0);
        }
        let (mx, my) = (t[1] / t[0], t[2] / t[0]);
        let sxx = t[3] / t[0] - mx * mx + 1.0 / 12.0;
        let syy = t[4] / t[0] - my * my + 1.0 / 12.0;
        let sxy = t[5] / t[0] - mx * my;
        let mean = (sxx + syy) / 2.0;
        let d = (((sxx - syy) / 2.0).powi(2) + sxy * sxy).sqrt();
        let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
        let aspect = ((mean + d) / (mean - d).max(1e-9)).sqrt();
        ((mx, my), (angle.cos(), angle.sin()), aspect)
    }
}

/// Share of the map's obstacle objects ([`HeroesMap::decorations`]) that block a single cell
/// (0 when there are none).
pub fn single_cell_share(map: &HeroesMap) -> f64 {
    let singles = map.decorations.iter().filter(|d| !d.multi_cell()).count();
    if map.decorations.is_empty() {
        0.0
    } else {
        singles as f64 / map.decorations.len() as f64
    }
}

/// Most cells a pocket's inside may have for [`piles`] to call it a pocket.
pub const POCKET_CELLS: usize = 16;

/// A treasure pile as found on a map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PileFound {
    /// Zone (position in the template's list).
    pub zone: usize,
    /// The pile's value (`ObjectKind::Treasure::pile`).
    pub value: u32,
    /// Items in it.
    pub items: usize,
    /// Artifacts among them.
    pub artifacts: usize,
    /// A guard stands beside one of its items (8-neighbours).
    pub guarded: bool,
    /// It lies in a pocket whose only way in is a guard: walking 8-connected from it over
    /// walkable cells other than guards reaches at most [`POCKET_CELLS`] cells, and a guard
    /// stands beside them.
    pub pocketed: bool,
}

/// The treasure piles of `map`: treasure items of one zone and one pile value on side-
/// neighbouring cells, or in one pocket, form a pile.
pub fn piles(map: &HeroesMap) -> Vec<PileFound> {
    let side = map.size;
    let mut item = vec![usize::MAX; side * side];
    for (k, o) in map.objects.iter().enumerate() {
        if matches!(o.kind, ObjectKind::Treasure { .. }) {
            item[o.y as usize * side + o.x as usize] = k;
        }
    }
    let pile_of = |k: usize| match map.objects[k].kind {
        ObjectKind::Treasure { pile, .. } => pile,
        _ => 0,
    };
    let mut seen = vec![false; side * side];
    let mut out = Vec::new();
    for (k, o) in map.objects.iter().enumerate() {
        let start = o.y as usize * side + o.x as usize;
        if item[start] != k || seen[start] {
            continue;
        }
        let (value, zone) = (pile_of(k), o.zone as usize);
        let pocket = pocket(map, start);
        let mut found = PileFound {
            zone,
            value,
            items: 0,
            artifacts: 0,
            guarded: false,
            pocketed: pocket.is_some(),
        };
        let same = |c: usize| item[c] != usize::MAX && map.objects[item[c]].zone as usize == zone;
        let cells: Vec<usize> = match pocket {
            Some(inside) => inside.into_iter().filter(|&c| same(c)).collect(),
            None => grid_core::flood_fill(side, side, start, grid_core::Connectivity::Four, |c| {
                same(c) && pile_of(item[c]) == value && !seen[c]
            }),
        };
        for c in cells {
            if seen[c] {
                continue;
            }
            seen[c] = true;
            found.items += 1;
            found.guarded |= crate::seal::steps().any(|(dx, dy)| {
                let (x, y) = ((c % side) as i64 + dx, (c / side) as i64 + dy);
                x >= 0
                    && y >= 0
                    && x < side as i64
                    && y < side as i64
                    && map.cell(y as usize * side + x as usize) == Cell::Guard
            });
            if let ObjectKind::Treasure {
                kind: crate::map::TreasureKind::Artifact(_),
                ..
            } = map.objects[item[c]].kind
            {
                found.artifacts += 1;
            }
        }
        out.push(found);
    }
    out
}

/// The inside of the pocket around `start`, if it is one (see [`PileFound::pocketed`]).
fn pocket(map: &HeroesMap, start: usize) -> Option<Vec<usize>> {
    let side = map.size;
    let open = |c: usize| map.cell(c).walkable() && map.cell(c) != Cell::Guard;
    let mut inside = vec![start];
    let mut k = 0;
    let mut guarded = false;
    while k < inside.len() {
        let c = inside[k];
        k += 1;
        for (dx, dy) in crate::seal::steps() {
            let (x, y) = ((c % side) as i64 + dx, (c / side) as i64 + dy);
            if x < 0 || y < 0 || x >= side as i64 || y >= side as i64 {
                continue;
            }
            let n = y as usize * side + x as usize;
            guarded |= map.cell(n) == Cell::Guard;
            if open(n) && !inside.contains(&n) {
                if inside.len() == POCKET_CELLS {
                    return None;
                }
                inside.push(n);
            }
        }
    }
    guarded.then_some(inside)
}
