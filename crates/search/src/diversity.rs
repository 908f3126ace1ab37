//! Set-level measures: how a generator's maps differ from one another, and how two
//! generators' maps differ seed by seed.
//!
//! Two distances between maps of one generator:
//!
//! - **Hamming**: the fraction of cells whose tiles differ (1 between maps of different
//!   sizes);
//! - **layout**: the mean absolute difference of the maps' coarse layouts, the passable
//!   fraction of each block of the spec's `blocks` grid. Hamming counts a maze shifted by
//!   one cell as almost wholly different; the layout distance sees the same shape and
//!   only counts where the open space lies.
//!
//! From a distance, the per-map **nearest-neighbour distance** (the distance to its
//! closest other map, the PCG Benchmark's view of diversity: a field of maps that are far
//! apart on average can still come in near-identical clumps), its mean, and the share of
//! maps farther than a threshold from all others (**isolated**).

use grid_core::TileId;
use grid_core::metrics::{BlockGrid, EmptySet};

/// A measure of a whole set of maps, given to every map of the set as its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SetMetric {
    /// Mean Hamming distance over all pairs (`diversity`).
    Diversity,
    /// Mean over maps of the Hamming distance to the nearest other map (`nearest`).
    Nearest,
    /// Share of maps whose nearest other map is at least this Hamming distance away
    /// (`isolated:T`).
    Isolated(f64),
    /// Mean over maps of the layout distance to the nearest other map (`nearest_layout`).
    NearestLayout,
}

impl SetMetric {
    /// Whether it needs the maps' cells (else their layouts).
    pub fn needs_cells(self) -> bool {
        !matches!(self, Self::NearestLayout)
    }
}

/// The fraction of cells that differ (1 when the sizes differ or the maps are empty).
pub fn hamming<T: PartialEq>(a: &[T], b: &[T]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return 1.0;
    }
    a.iter().zip(b).filter(|(x, y)| x != y).count() as f64 / a.len() as f64
}

/// Mean absolute difference of two layouts (1 when their lengths differ).
pub fn layout_distance(a: &[f64], b: &[f64]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return 1.0;
    }
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>() / a.len() as f64
}

/// A map's layout: the passable fraction of each block of `blocks`, row-major (cells of a
/// `width`-wide map, given row by row).
pub fn layout(cells: &[TileId], width: usize, passable: &EmptySet, blocks: BlockGrid) -> Vec<f64> {
    let height = cells.len() / width.max(1);
    let (cols, rows) = (
        blocks.cols.clamp(1, width.max(1)),
        blocks.rows.clamp(1, height.max(1)),
    );
    let mut open = vec![0usize; cols * rows];
    let mut all = vec![0usize; cols * rows];
    for (i, &tile) in cells.iter().enumerate() {
        let (x, y) = (i % width.max(1), i / width.max(1));
        let b = (y * rows / height.max(1)) * cols + x * cols / width.max(1);
        all[b] += 1;
        open[b] += usize::from(passable.contains(tile));
    }
    open.iter()
        .zip(&all)
        .map(|(&o, &a)| if a == 0 { 0.0 } else { o as f64 / a as f64 })
        .collect()
}

/// Each item's distance to its nearest other item (0 for a lone item).
pub fn nearest<T>(items: &[T], distance: impl Fn(&T, &T) -> f64) -> Vec<f64> {
    let n = items.len();
    let mut best = vec![f64::INFINITY; n];
    for i in 0..n {
        for j in i + 1..n {
            let d = distance(&items[i], &items[j]);
            best[i] = best[i].min(d);
            best[j] = best[j].min(d);
        }
    }
    best.iter()
        .map(|&d| if d.is_finite() { d } else { 0.0 })
        .collect()
}

/// Mean Hamming distance over all pairs of maps (0 with fewer than two maps).
pub fn mean_hamming<T: PartialEq>(maps: &[Vec<T>]) -> f64 {
    let (mut sum, mut pairs) = (0.0, 0usize);
    for (i, a) in maps.iter().enumerate() {
        for b in &maps[i + 1..] {
            pairs += 1;
            sum += hamming(a, b);
        }
    }
    if pairs == 0 { 0.0 } else { sum / pairs as f64 }
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The value of `metric` on a set of maps, given their cells and layouts (either may be
/// empty when the metric does not need it).
pub fn set_value(metric: SetMetric, cells: &[Vec<TileId>], layouts: &[Vec<f64>]) -> f64 {
    match metric {
        SetMetric::Diversity => mean_hamming(cells),
        SetMetric::Nearest => mean(&nearest(cells, |a, b| hamming(a, b))),
        SetMetric::Isolated(t) => {
            let near = nearest(cells, |a, b| hamming(a, b));
            near.iter().filter(|&&d| d >= t).count() as f64 / near.len().max(1) as f64
        }
        SetMetric::NearestLayout => mean(&nearest(layouts, |a, b| layout_distance(a, b))),
    }
}

/// The share of seeds on which two generators make different maps (`a[i]` and `b[i]` are
/// their maps of the same seed).
pub fn differing_share<T: PartialEq>(a: &[T], b: &[T]) -> f64 {
    let n = a.len().min(b.len());
    if n == 0 {
        return 1.0;
    }
    a.iter().zip(b).filter(|(x, y)| x != y).count() as f64 / n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_neighbours_by_hand() {
        // Two near-twins and one far map: the mean pairwise distance hides the twins.
        let maps = vec![vec![0u16, 0, 0, 0], vec![0, 0, 0, 1], vec![1, 1, 1, 1]];
        assert_eq!(nearest(&maps, |a, b| hamming(a, b)), vec![0.25, 0.25, 0.75]);
        assert_eq!(
            set_value(SetMetric::Nearest, &maps, &[]),
            (0.25 + 0.25 + 0.75) / 3.0
        );
        assert_eq!(
            set_value(SetMetric::Diversity, &maps, &[]),
            (0.25 + 1.0 + 0.75) / 3.0
        );
        assert_eq!(set_value(SetMetric::Isolated(0.5), &maps, &[]), 1.0 / 3.0);
        assert_eq!(set_value(SetMetric::Isolated(0.25), &maps, &[]), 1.0);
        assert_eq!(nearest(&maps[..1], |a, b| hamming(a, b)), vec![0.0]);
        assert_eq!(hamming(&[1u16, 2], &[1u16]), 1.0);
    }

    #[test]
    fn layouts_see_shapes_not_single_cells() {
        // A 4x4 map with an open left half, and the same shifted right by one cell.
        let open = EmptySet::from_ids(&[0]);
        let left: Vec<TileId> = (0..16).map(|i| u16::from(i % 4 >= 2)).collect();
        let shifted: Vec<TileId> = (0..16)
            .map(|i| u16::from(i % 4 == 0 || i % 4 == 3))
            .collect();
        let blocks = BlockGrid { cols: 2, rows: 2 };
        let a = layout(&left, 4, &open, blocks);
        assert_eq!(a, vec![1.0, 0.0, 1.0, 0.0]);
        let b = layout(&shifted, 4, &open, blocks);
        assert_eq!(b, vec![0.5, 0.5, 0.5, 0.5]);
        assert_eq!(hamming(&left, &shifted), 0.5);
        assert_eq!(layout_distance(&a, &b), 0.5);
        assert_eq!(layout_distance(&a, &a), 0.0);
        assert_eq!(
            set_value(SetMetric::NearestLayout, &[], &[a.clone(), b, a]),
            (0.0 + 0.5 + 0.0) / 3.0
        );
    }

    #[test]
    fn differing_share_counts_seeds() {
        let a = vec![vec![0u16], vec![1], vec![2], vec![3]];
        let b = vec![vec![0u16], vec![1], vec![9], vec![9]];
        assert_eq!(differing_share(&a, &b), 0.5);
        assert_eq!(differing_share(&a, &a), 0.0);
    }
}
