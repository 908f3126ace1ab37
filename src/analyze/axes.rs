//! The heat map's axes: any two metrics of `grid_core`'s registry
//! ([`grid_core::metrics::registry`]), picked with `levelgen analyze --x METRIC --y METRIC`.
//!
//! The default pair, empty fraction against regions, is the Marahel paper's figure and is
//! drawn by [`super::plot::heat_map`]; any other pair by [`heat_map`] here, with
//! [`BINS`] x [`BINS`] cells spanning the values seen over every run.

use super::plot::{FONT, fonts, plot_err};
use super::{AnalyzeError, Run};
use grid_core::TileMap;
use grid_core::metrics::registry::{self, MetricDef, Settings};
use grid_core::metrics::{EmptySet, MapMetrics};
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use std::path::Path;

/// Cells per side of a heat map over any two metrics.
pub const BINS: usize = 20;

/// The two metrics of the heat map.
#[derive(Clone, Copy, Debug)]
pub struct Axes {
    /// Across.
    pub x: &'static MetricDef,
    /// Up.
    pub y: &'static MetricDef,
}

impl Default for Axes {
    /// The paper's: empty fraction across, regions up.
    fn default() -> Self {
        Self {
            x: &registry::METRICS[0],
            y: &registry::METRICS[1],
        }
    }
}

impl Axes {
    /// Whether these are the paper's axes.
    pub fn is_default(&self) -> bool {
        self.x.name == "empty_fraction" && self.y.name == "regions"
    }

    /// The values of `map` on both axes; the metrics already measured (`m`, with the run's
    /// block grid) are read from it rather than measured again.
    pub fn values<M: TileMap>(&self, map: &M, empty: &EmptySet, m: &MapMetrics) -> [f64; 2] {
        [self.x, self.y].map(|def| def.value(map, empty, &Settings::PAPER, Some(m)))
    }
}

/// A metric of the registry by name, or the list of names.
pub fn metric(name: &str) -> Result<&'static MetricDef, String> {
    registry::find(name).ok_or_else(|| {
        format!(
            "{}: not a metric (known: {})",
            grid_core::text::excerpt(name),
            registry::names()
        )
    })
}

/// The span `[lo, hi)` of axis `k` over every row of `runs` (widened to 1 when flat).
fn span(runs: &[Run], k: usize) -> (f64, f64) {
    registry::span(
        runs.iter()
            .flat_map(|r| r.rows.iter().map(move |row| row.axes[k])),
    )
}

/// The cell counts of one run over the spans: `counts[row * BINS + col]`.
pub fn counts(run: &Run, x: (f64, f64), y: (f64, f64)) -> Vec<u32> {
    let bin = |v: f64, (lo, hi): (f64, f64)| {
        (((v - lo) / (hi - lo) * BINS as f64) as usize).min(BINS - 1)
    };
    let mut c = vec![0u32; BINS * BINS];
    for r in &run.rows {
        c[bin(r.axes[1], y) * BINS + bin(r.axes[0], x)] += 1;
    }
    c
}

/// Draws one heat-map panel per run over `axes`, side by side, on shared spans.
pub fn heat_map(runs: &[Run], axes: &Axes, path: &Path) -> Result<(), AnalyzeError> {
    fonts();
    let n = runs.len().max(1);
    let (x, y) = (span(runs, 0), span(runs, 1));
    let root = BitMapBackend::new(path, (360 * n as u32 + 20, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    let title = format!(
        "Expressive range: {} vs {} (colour: sqrt of count / peak)",
        axes.x.name, axes.y.name
    );
    let root = root
        .titled(&title, (FONT, 18))
        .map_err(|e| plot_err(path, e))?;
    for (panel, run) in root.split_evenly((1, n)).iter().zip(runs) {
        let c = counts(run, x, y);
        let peak = c.iter().copied().max().unwrap_or(1).max(1) as f64;
        let mut chart = ChartBuilder::on(panel)
            .caption(
                format!("{} (n={}, peak {})", run.label, run.rows.len(), peak),
                (FONT, 16),
            )
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(x.0..x.1, y.0..y.1)
            .map_err(|e| plot_err(path, e))?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(axes.x.name)
            .y_desc(axes.y.name)
            .label_style((FONT, 12))
            .draw()
            .map_err(|e| plot_err(path, e))?;
        let (wx, wy) = ((x.1 - x.0) / BINS as f64, (y.1 - y.0) / BINS as f64);
        let cells = c
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0)
            .map(|(i, &v)| {
                let (col, row) = ((i % BINS) as f64, (i / BINS) as f64);
                let shade = ViridisRGB::get_color((v as f64 / peak).sqrt());
                let x0 = x.0 + col * wx;
                let y0 = y.0 + row * wy;
                Rectangle::new([(x0, y0), (x0 + wx, y0 + wy)], shade.filled())
            });
        chart.draw_series(cells).map_err(|e| plot_err(path, e))?;
    }
    root.present().map_err(|e| plot_err(path, e))?;
    Ok(())
}
