//! Python bindings of levelgen: the extension module `levelgen._levelgen`.
//!
//! The Python package (`python/levelgen/`) is the public face: it turns paths, JSON text
//! and dicts into [`jobs::Input`], checks arguments, and wraps batches as iterators. This
//! module does the work, with the GIL released: [`jobs`] prepares a generator as the CLI
//! does before its first map and runs it per seed, [`made`] exports a map through the same
//! code the CLI writes with, [`measure`] and [`searching`] wrap grid-core's metrics and the
//! search crate, [`search_metrics`] makes Python callables search metrics. Errors become `levelgen.errors` classes ([`error`]).

mod error;
mod jobs;
mod made;
mod measure;
mod search_metrics;
mod searching;
mod zones_args;

use error::Failure;
use jobs::{HeroesOptions, Input, Job, MarioOptions};
use made::Made;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList};
use rayon::prelude::*;
use zone_tiles::ZoneRect;

/// `json.loads(text)`: a serde value handed to Python as its own objects.
pub(crate) fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// A `(height, width)` numpy `uint16` array of native-endian bytes.
fn numpy_u16<'py>(
    py: Python<'py>,
    bytes: &[u8],
    height: usize,
    width: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let buf = PyByteArray::new(py, bytes);
    np.call_method1("frombuffer", (buf, np.getattr("uint16")?))?
        .call_method1("reshape", ((height, width),))
}

/// One generated map (see `levelgen.Map` in the stubs).
#[derive(Debug)]
#[pyclass(module = "levelgen._levelgen", name = "Map")]
pub struct Map {
    made: Made,
    seed: u64,
}

#[pymethods]
impl Map {
    /// The generator: "marahel", "heroes", "mario" or "zones".
    #[getter]
    fn kind(&self) -> &'static str {
        self.made.kind()
    }

    /// The seed the map was made with.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Width in tiles.
    #[getter]
    fn width(&self) -> usize {
        self.made.tile_map().width()
    }

    /// Height in tiles.
    #[getter]
    fn height(&self) -> usize {
        self.made.tile_map().height()
    }

    /// The tile ids: a numpy uint16 array of shape (height, width), rows first.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let bytes = self.made.tile_bytes();
        numpy_u16(py, &bytes, self.height(), self.width())
    }

    /// The tile names: `legend[id]` names tile id `id`.
    #[getter]
    fn legend(&self) -> Vec<String> {
        let legend = self.made.tile_map().legend();
        legend.kinds().iter().map(|k| k.name.clone()).collect()
    }

    /// The text character of each tile id.
    #[getter]
    fn chars(&self) -> Vec<String> {
        let legend = self.made.tile_map().legend();
        legend.kinds().iter().map(|k| k.ch.to_string()).collect()
    }

    /// The preview colour `(r, g, b)` of each tile id.
    #[getter]
    fn colors(&self) -> Vec<(u8, u8, u8)> {
        let legend = self.made.tile_map().legend();
        legend
            .kinds()
            .iter()
            .map(|k| (k.color[0], k.color[1], k.color[2]))
            .collect()
    }

    /// The zone states of a zones world (numpy uint16, rows first); None for other maps.
    #[getter]
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.made.zone_states() {
            None => Ok(None),
            Some((w, h, states)) => {
                let bytes: Vec<u8> = states.iter().flat_map(|s| s.to_ne_bytes()).collect();
                numpy_u16(py, &bytes, h, w).map(Some)
            }
        }
    }

    /// The run's warnings and figures.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.made.report().to_string())
    }

    /// What `levelgen KIND ... --format json` writes for this input and seed.
    fn to_json(&self) -> String {
        // Microseconds of work: releasing the GIL would cost more than it frees.
        self.made.to_json()
    }

    /// The map as text, one character per tile.
    fn to_text(&self) -> String {
        self.made.to_text()
    }

    /// The generator's own format: `.hmm` bytes (heroes), Mario AI level text as bytes
    /// (mario); None for marahel and zones (whose own formats are text and TMX: `save`).
    fn native<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        py.detach(|| self.made.native())
            .map(|bytes| PyBytes::new(py, &bytes))
    }

    /// Writes the map to `path` as `levelgen KIND --out PATH` does (`format`: an extension,
    /// by default the path's).
    #[pyo3(signature = (path, format = None))]
    fn save(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        format: Option<String>,
    ) -> PyResult<()> {
        let format = format
            .unwrap_or_else(|| levelgen::cli::common::extension(&path))
            .trim_start_matches('.')
            .to_ascii_lowercase();
        py.detach(|| self.made.save(&path, &format))
            .map_err(|e| e.into_py(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "<levelgen.Map {} seed={} {}x{}>",
            self.kind(),
            self.seed,
            self.width(),
            self.height()
        )
    }
}

/// A prepared generator (built by `levelgen.marahel` and the others; see `_prepare_*`).
#[derive(Debug)]
#[pyclass(module = "levelgen._levelgen", name = "Job")]
pub struct PyJob {
    job: Job,
    warnings: Vec<String>,
    pool: Option<rayon::ThreadPool>,
}

impl PyJob {
    fn new(prepared: error::Result<(Job, Vec<String>)>, py: Python<'_>) -> PyResult<Self> {
        let (job, warnings) = prepared.map_err(|e| e.into_py(py))?;
        Ok(Self {
            job,
            warnings,
            pool: None,
        })
    }
}

#[pymethods]
impl PyJob {
    /// Warnings found while reading the input.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// Runs batches on a pool of `threads` threads (None: rayon's global pool).
    #[pyo3(signature = (threads = None))]
    fn set_threads(&mut self, threads: Option<usize>) -> PyResult<()> {
        self.pool = match threads {
            None => None,
            Some(n) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build()
                    .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?,
            ),
        };
        Ok(())
    }

    /// The map of `seed` (GIL released while generating).
    fn generate(&self, py: Python<'_>, seed: u64) -> PyResult<Map> {
        let made = py
            .detach(|| self.job.make(seed))
            .map_err(|e| e.into_py(py))?;
        Ok(Map { made, seed })
    }

    /// The maps of `seeds`, in parallel on rayon's threads with the GIL released, in the
    /// order given: each a Map, or the exception its seed raised.
    fn run<'py>(&self, py: Python<'py>, seeds: Vec<u64>) -> PyResult<Bound<'py, PyList>> {
        let run = || -> Vec<Result<Made, Failure>> {
            seeds.par_iter().map(|&s| self.job.make(s)).collect()
        };
        let results = py.detach(|| match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        });
        let list = PyList::empty(py);
        for (seed, r) in seeds.iter().zip(results) {
            match r {
                Ok(made) => list.append(Py::new(py, Map { made, seed: *seed })?)?,
                Err(e) => list.append(e.into_py(py).into_value(py))?,
            }
        }
        Ok(list)
    }
}

fn input(text: Option<String>, path: Option<String>) -> Input {
    Input { text, path }
}

/// Prepares a Marahel script (`text` or `path`).
#[pyfunction]
#[pyo3(signature = (text, path, size, overrides, strict))]
fn prepare_marahel(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    size: Option<(usize, usize)>,
    overrides: Vec<String>,
    strict: bool,
) -> PyResult<PyJob> {
    let input = input(text, path);
    PyJob::new(
        py.detach(|| jobs::marahel(&input, size, &overrides, strict)),
        py,
    )
}

/// Prepares a Heroes template.
#[pyfunction]
#[pyo3(signature = (text, path, side, players, template_name, config_text, config_path, overrides, config_overrides))]
#[allow(clippy::too_many_arguments)]
fn prepare_heroes(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    side: Option<u32>,
    players: Option<u8>,
    template_name: Option<String>,
    config_text: Option<String>,
    config_path: Option<String>,
    overrides: Vec<String>,
    config_overrides: Vec<String>,
) -> PyResult<PyJob> {
    let config =
        (config_text.is_some() || config_path.is_some()).then(|| input(config_text, config_path));
    let opts = HeroesOptions {
        side,
        players,
        template_name,
        config,
        sets: overrides,
        config_sets: config_overrides,
    };
    let input = input(text, path);
    PyJob::new(py.detach(|| jobs::heroes(&input, &opts)), py)
}

/// Prepares a Mario library and settings.
#[pyfunction]
#[pyo3(signature = (rooms, sections, macros, theme, strict, height, length, difficulty, sequence, reference, check, overrides))]
#[allow(clippy::too_many_arguments)]
fn prepare_mario(
    py: Python<'_>,
    rooms: Option<String>,
    sections: Option<String>,
    macros: Option<String>,
    theme: String,
    strict: bool,
    height: usize,
    length: usize,
    difficulty: Option<(f32, f32)>,
    sequence: Option<Vec<String>>,
    reference: bool,
    check: bool,
    overrides: Vec<String>,
) -> PyResult<PyJob> {
    let opts = MarioOptions {
        dirs: [rooms, sections, macros],
        theme,
        strict,
        height,
        length,
        difficulty,
        sequence,
        reference,
        check,
        sets: overrides,
    };
    PyJob::new(py.detach(|| jobs::mario(&opts)), py)
}

/// Prepares zones settings from `levelgen zones` flags, a window and overrides.
#[pyfunction]
#[pyo3(signature = (flags, overrides, biomes, zones, origin))]
fn prepare_zones(
    py: Python<'_>,
    flags: Vec<String>,
    overrides: Vec<String>,
    biomes: bool,
    zones: (u32, u32),
    origin: (i64, i64),
) -> PyResult<PyJob> {
    let prepared = py.detach(|| {
        let config = zones_args::config(&flags)?;
        let rect = ZoneRect::new(origin.0, origin.1, zones.0, zones.1);
        jobs::zones(config, &overrides, biomes, rect)
    });
    PyJob::new(prepared, py)
}

/// The extension module.
#[pymodule]
fn _levelgen(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Map>()?;
    m.add_class::<PyJob>()?;
    m.add_function(wrap_pyfunction!(prepare_marahel, m)?)?;
    m.add_function(wrap_pyfunction!(prepare_heroes, m)?)?;
    m.add_function(wrap_pyfunction!(prepare_mario, m)?)?;
    m.add_function(wrap_pyfunction!(prepare_zones, m)?)?;
    m.add_function(wrap_pyfunction!(measure::metrics, m)?)?;
    m.add_function(wrap_pyfunction!(searching::search, m)?)?;
    m.add_class::<searching::Evaluator>()?;
    m.add_class::<search_metrics::MetricMap>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
