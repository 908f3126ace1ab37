//! Python callables as search metrics: `levelgen.search(spec, metrics={"name": f})`.
//!
//! Each callable becomes a [`MetricFn`] of the search crate, the mechanism the spec's
//! external commands use: it is named, its values are cached per map, and its failures
//! make the candidate invalid with the metric named. The search runs with the GIL
//! released; a callable takes the GIL only around its own call, with the map as a
//! [`MetricMap`].

use crate::numpy_u16;
use grid_core::TileMap;
use levelgen_search::external::MetricFn;
use pyo3::prelude::*;
use std::sync::Arc;

/// The map a metric callable is given (see `levelgen.MetricMap` in the stubs): a copy of
/// its tiles, legend and JSON.
#[derive(Debug)]
#[pyclass(module = "levelgen._levelgen", name = "MetricMap", frozen)]
pub struct MetricMap {
    width: usize,
    height: usize,
    /// Tile ids, row-major, as native-endian `u16` bytes.
    bytes: Vec<u8>,
    legend: Vec<String>,
    json: String,
}

impl MetricMap {
    fn new(map: &dyn TileMap, json: &str) -> Self {
        let (width, height) = (map.width(), map.height());
        let mut bytes = Vec::with_capacity(width * height * 2);
        for y in 0..height {
            for x in 0..width {
                bytes.extend_from_slice(&map.tile(x, y).to_ne_bytes());
            }
        }
        let legend = map
            .legend()
            .kinds()
            .iter()
            .map(|k| k.name.clone())
            .collect();
        Self {
            width,
            height,
            bytes,
            legend,
            json: json.to_string(),
        }
    }
}

#[pymethods]
impl MetricMap {
    /// Width in tiles.
    #[getter]
    fn width(&self) -> usize {
        self.width
    }

    /// Height in tiles.
    #[getter]
    fn height(&self) -> usize {
        self.height
    }

    /// The tile ids: a numpy uint16 array of shape (height, width), rows first.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        numpy_u16(py, &self.bytes, self.height, self.width)
    }

    /// The tile names: `legend[id]` names tile id `id`.
    #[getter]
    fn legend(&self) -> Vec<String> {
        self.legend.clone()
    }

    /// The map's JSON, as an external command metric reads it on standard input.
    fn to_json(&self) -> String {
        self.json.clone()
    }

    fn __repr__(&self) -> String {
        format!("<levelgen.MetricMap {}x{}>", self.width, self.height)
    }
}

/// A Python callable `f(map: MetricMap) -> float` as a search metric.
pub struct PyMetric {
    callable: Py<PyAny>,
}

impl std::fmt::Debug for PyMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PyMetric")
    }
}

impl MetricFn for PyMetric {
    fn value(&self, map: &dyn TileMap, json: &str) -> Result<f64, String> {
        let arg = MetricMap::new(map, json);
        Python::attach(|py| {
            let out = self
                .callable
                .call1(py, (arg,))
                .map_err(|e| format!("the callable raised {e}"))?;
            out.extract::<f64>(py).map_err(|_| {
                let shown = out
                    .bind(py)
                    .repr()
                    .map_or_else(|_| "a value".to_string(), |r| r.to_string());
                let short: String = shown.chars().take(60).collect();
                let cut = if short.len() < shown.len() { "..." } else { "" };
                format!("the callable returned {short}{cut}, not a number")
            })
        })
    }
}

/// The `(name, callable)` pairs as the search's functions.
pub fn functions(metrics: Vec<(String, Py<PyAny>)>) -> Vec<(String, Arc<dyn MetricFn>)> {
    metrics
        .into_iter()
        .map(|(name, callable)| (name, Arc::new(PyMetric { callable }) as Arc<dyn MetricFn>))
        .collect()
}
