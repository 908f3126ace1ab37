//! `levelgen.metrics`: grid-core's metric registry on any 2-D array of tile ids.

use crate::error::Failure;
use grid_core::metrics::paths::{longest_path_with, path_distance, tile_counts};
use grid_core::metrics::{BlockGrid, EmptySet, MetricsScratch};
use grid_core::{Connectivity, Grid, Legend, TileGrid, TileId, TileKind};
use pyo3::prelude::*;
use serde_json::{Value, json};

/// The tile ids as a map whose legend names each id by its number.
fn grid(tiles: Vec<TileId>, width: usize, height: usize) -> Option<TileGrid> {
    let max = tiles.iter().copied().max().unwrap_or(0);
    let kinds = (0..=max)
        .map(|i| TileKind::new(i.to_string(), '?', [0; 3]))
        .collect();
    Some(TileGrid {
        tiles: Grid::from_vec(width, height, tiles)?,
        legend: Legend::new(kinds),
    })
}

/// What is measured beyond the three paper metrics.
struct Asked {
    empty: Vec<TileId>,
    passable: Vec<TileId>,
    blocks: BlockGrid,
    conn: Connectivity,
    exact_path_cells: usize,
    distances: Vec<(Vec<TileId>, Vec<TileId>)>,
}

fn run(map: &TileGrid, asked: &Asked) -> Value {
    let empty = EmptySet::from_ids(&asked.empty);
    let passable = EmptySet::from_ids(&asked.passable);
    let m = MetricsScratch::new().measure(map, &empty, asked.blocks);
    let longest = longest_path_with(map, &passable, asked.conn, asked.exact_path_cells);
    let distances: Vec<Value> = asked
        .distances
        .iter()
        .map(|(from, to)| json!(path_distance(map, from, to, &passable, asked.conn)))
        .collect();
    json!({
        "width": m.width,
        "height": m.height,
        "empty_tiles": m.empty_tiles,
        "empty_fraction": m.empty_fraction,
        "regions": m.regions,
        "block_entropy": m.block_entropy,
        "longest_path": longest.length,
        "longest_path_exact": longest.exact,
        "tile_counts": tile_counts(map),
        "distances": distances,
    })
}

/// Measures a `height x width` map of native-endian `u16` tile ids (see `levelgen.metrics`).
#[pyfunction]
#[pyo3(signature = (data, width, height, empty, passable, blocks, connectivity, exact_path_cells, distances))]
#[allow(clippy::too_many_arguments)]
pub fn metrics<'py>(
    py: Python<'py>,
    data: Vec<u8>,
    width: usize,
    height: usize,
    empty: Vec<TileId>,
    passable: Vec<TileId>,
    blocks: (usize, usize),
    connectivity: u8,
    exact_path_cells: usize,
    distances: Vec<(Vec<TileId>, Vec<TileId>)>,
) -> PyResult<Bound<'py, PyAny>> {
    let conn = match connectivity {
        4 => Connectivity::Four,
        8 => Connectivity::Eight,
        c => {
            return Err(
                Failure::argument(format!("connectivity {c}: expected 4 or 8")).into_py(py),
            );
        }
    };
    let asked = Asked {
        empty,
        passable,
        blocks: BlockGrid {
            cols: blocks.0.max(1),
            rows: blocks.1.max(1),
        },
        conn,
        exact_path_cells,
        distances,
    };
    let value = py.detach(|| {
        let tiles: Vec<TileId> = data
            .chunks_exact(2)
            .map(|b| TileId::from_ne_bytes([b[0], b[1]]))
            .collect();
        grid(tiles, width, height).map(|map| run(&map, &asked))
    });
    match value {
        Some(v) => crate::json_to_py(py, &v.to_string()),
        None => Err(Failure::argument(format!(
            "{} bytes are not a {width}x{height} map of uint16 ids",
            data.len()
        ))
        .into_py(py)),
    }
}
