//! The two pictures of the Marahel paper, drawn with `plotters` into PNGs: the expressive-range
//! heat map (empty fraction against regions, its Figure 1) and the block-entropy box plot
//! (its Figure 2).
//!
//! Text uses plotters' pure-Rust `ab_glyph` renderer with DejaVu Sans from the `dejavu` crate,
//! so plotting needs no system fonts or C libraries.

use super::{AnalyzeError, Run};
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};
use std::path::Path;
use std::sync::Once;

/// Columns of the heat map: empty fraction `[0, 1]` in bins of 0.02.
pub const EMPTY_BINS: usize = 50;
/// At most this many rows of regions; more regions are grouped into wider bins.
pub const MAX_REGION_ROWS: usize = 40;

/// The font family every plot uses (registered by [`fonts`]).
pub(crate) const FONT: &str = "sans-serif";

/// Registers the bundled font once.
pub(crate) fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
    });
}

/// A plotting failure as an output error naming the file.
pub(crate) fn plot_err(path: &Path, e: impl std::fmt::Display) -> AnalyzeError {
    AnalyzeError::Output {
        path: path.display().to_string(),
        message: format!("plotting failed: {e}"),
    }
}

/// The heat-map counts of one run: `counts[row * EMPTY_BINS + col]`, where `col` bins the
/// empty fraction and `row` bins the region count by `region_step`.
pub fn heat_counts(run: &Run, region_step: usize) -> Vec<u32> {
    let rows = MAX_REGION_ROWS + 1;
    let mut counts = vec![0u32; rows * EMPTY_BINS];
    for r in &run.rows {
        let col = ((r.metrics.empty_fraction * EMPTY_BINS as f64) as usize).min(EMPTY_BINS - 1);
        let row = (r.metrics.regions / region_step.max(1)).min(rows - 1);
        counts[row * EMPTY_BINS + col] += 1;
    }
    counts
}

/// Regions per heat-map row so that `max_regions` fits in [`MAX_REGION_ROWS`] rows.
pub fn region_step(max_regions: usize) -> usize {
    max_regions / MAX_REGION_ROWS + 1
}

/// Draws one heat-map panel per run, side by side, with a shared region axis.
pub fn heat_map(runs: &[Run], path: &Path) -> Result<(), AnalyzeError> {
    fonts();
    let n = runs.len().max(1);
    let max_regions = runs
        .iter()
        .flat_map(|r| r.rows.iter().map(|row| row.metrics.regions))
        .max()
        .unwrap_or(1)
        .max(1);
    let step = region_step(max_regions);
    // Row k (regions in [k*step, (k+1)*step)) is drawn centred on y = k.
    let top = (max_regions / step) as f64 + 0.5;
    let root = BitMapBackend::new(path, (360 * n as u32 + 20, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    let root = root
        .titled(
            "Expressive range: empty fraction vs regions (colour: sqrt of count / peak)",
            (FONT, 20),
        )
        .map_err(|e| plot_err(path, e))?;
    let panels = root.split_evenly((1, n));
    for (panel, run) in panels.iter().zip(runs) {
        let counts = heat_counts(run, step);
        let peak = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let mut chart = ChartBuilder::on(panel)
            .caption(
                format!("{} (n={}, peak {})", run.label, run.rows.len(), peak),
                (FONT, 16),
            )
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..1f64, -0.5f64..top)
            .map_err(|e| plot_err(path, e))?;
        let y_desc = if step == 1 {
            "regions".to_string()
        } else {
            format!("regions (bins of {step})")
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("empty fraction")
            .y_desc(y_desc)
            .x_labels(6)
            .y_labels((top as usize).min(10) + 2)
            .y_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-9 {
                    format!("{:.0}", v.round() * step as f64)
                } else {
                    String::new()
                }
            })
            .label_style((FONT, 12))
            .draw()
            .map_err(|e| plot_err(path, e))?;
        let w = 1.0 / EMPTY_BINS as f64;
        let cells = counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &c)| {
                let (col, row) = ((i % EMPTY_BINS) as f64, (i / EMPTY_BINS) as f64);
                // Square-root scale: a few outliers stay visible next to the mode.
                let shade = ViridisRGB::get_color((c as f64 / peak).sqrt());
                Rectangle::new(
                    [(col * w, row - 0.5), ((col + 1.0) * w, row + 0.5)],
                    shade.filled(),
                )
            });
        chart.draw_series(cells).map_err(|e| plot_err(path, e))?;
    }
    root.present().map_err(|e| plot_err(path, e))?;
    Ok(())
}

/// Quartiles by linear interpolation (the same rule as numpy's default); `v` sorted.
pub fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let rank = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] + (v[hi] - v[lo]) * (rank - lo as f64)
}

/// Draws the block-entropy box plot: one box per run (quartiles, median line, whiskers to the
/// minimum and maximum, a dot at the mean). `blocks` names the block grid in the title.
pub fn entropy_box_plot(runs: &[Run], blocks: &str, path: &Path) -> Result<(), AnalyzeError> {
    fonts();
    let n = runs.len().max(1);
    let root = BitMapBackend::new(path, (160 * n as u32 + 160, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("Mean block entropy ({blocks} blocks)"), (FONT, 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..1f64)
        .map_err(|e| plot_err(path, e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("entropy (bits)")
        .label_style((FONT, 12))
        .draw()
        .map_err(|e| plot_err(path, e))?;
    let stroke = ShapeStyle::from(&BLACK).stroke_width(1);
    let fill = ShapeStyle::from(&RGBColor(120, 170, 220)).filled();
    for (i, run) in runs.iter().enumerate() {
        let mut v: Vec<f64> = run.rows.iter().map(|r| r.metrics.block_entropy).collect();
        if v.is_empty() {
            continue;
        }
        v.sort_by(f64::total_cmp);
        let (q1, med, q3) = (quantile(&v, 0.25), quantile(&v, 0.5), quantile(&v, 0.75));
        let (min, max) = (v[0], v[v.len() - 1]);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let x = i as f64;
        let (l, r) = (x - 0.3, x + 0.3);
        let draw = |chart: &mut ChartContext<_, _>, e: PathElement<(f64, f64)>| {
            chart.draw_series(std::iter::once(e)).map(|_| ())
        };
        chart
            .draw_series([Rectangle::new([(l, q1), (r, q3)], fill)])
            .map_err(|e| plot_err(path, e))?;
        chart
            .draw_series([Rectangle::new([(l, q1), (r, q3)], stroke)])
            .map_err(|e| plot_err(path, e))?;
        for seg in [
            vec![(l, med), (r, med)],
            vec![(x, q3), (x, max)],
            vec![(x, q1), (x, min)],
            vec![(x - 0.15, max), (x + 0.15, max)],
            vec![(x - 0.15, min), (x + 0.15, min)],
        ] {
            draw(&mut chart, PathElement::new(seg, stroke.stroke_width(2)))
                .map_err(|e| plot_err(path, e))?;
        }
        chart
            .draw_series([Circle::new((x, mean), 4, RED.filled())])
            .map_err(|e| plot_err(path, e))?;
        let (px, py) = chart.backend_coord(&(x, 0.0));
        root.draw(&Text::new(
            run.label.clone(),
            (px, py + 8),
            TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(|e| plot_err(path, e))?;
    }
    root.present().map_err(|e| plot_err(path, e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::Row;
    use grid_core::MapMetrics;

    fn run(points: &[(f64, usize)]) -> Run {
        Run {
            label: "t".into(),
            extra_names: vec![],
            rows: points
                .iter()
                .enumerate()
                .map(|(i, &(e, r))| Row {
                    seed: i as u64,
                    metrics: MapMetrics {
                        empty_fraction: e,
                        regions: r,
                        block_entropy: e,
                        ..MapMetrics::default()
                    },
                    extras: [0.0; crate::analyze::MAX_EXTRAS],
                    gen_secs: 0.0,
                    measure_secs: 0.0,
                    axes: [e, r as f64],
                })
                .collect(),
            failures: vec![],
            wall_secs: 1.0,
            threads: 1,
            histogram: None,
        }
    }

    #[test]
    fn heat_bins() {
        let r = run(&[(0.0, 1), (0.019, 1), (0.5, 3), (1.0, 3), (0.51, 200)]);
        let c = heat_counts(&r, 1);
        assert_eq!(c[EMPTY_BINS], 2); // row 1, col 0
        assert_eq!(c[3 * EMPTY_BINS + 25], 1);
        assert_eq!(c[3 * EMPTY_BINS + 49], 1); // 1.0 goes in the last column
        assert_eq!(c[MAX_REGION_ROWS * EMPTY_BINS + 25], 1); // clamped
        assert_eq!(region_step(39), 1);
        assert_eq!(region_step(200), 6);
        assert_eq!(heat_counts(&r, 6)[33 * EMPTY_BINS + 25], 1);
    }

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.5), 2.5);
        assert_eq!(quantile(&v, 0.25), 1.75);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn pngs_are_written() {
        let dir = std::env::temp_dir().join(format!("levelgen-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let runs = vec![run(&[(0.3, 1), (0.4, 2), (0.45, 2)]), run(&[(0.6, 5)])];
        let (h, b) = (dir.join("h.png"), dir.join("b.png"));
        heat_map(&runs, &h).unwrap();
        entropy_box_plot(&runs, "5x5", &b).unwrap();
        for p in [&h, &b] {
            let bytes = std::fs::read(p).unwrap();
            assert_eq!(&bytes[1..4], b"PNG");
        }
        let bad = entropy_box_plot(&runs, "5x5", &dir.join("missing/dir/b.png"));
        assert!(matches!(bad, Err(AnalyzeError::Output { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The colour bar beside a [`grid_heat_map`]: viridis from `lo` (bottom) to `hi` (top),
/// with the values labelled.
fn colour_bar<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    lo: f64,
    hi: f64,
    path: &Path,
) -> Result<(), AnalyzeError> {
    const STEPS: usize = 100;
    let mut chart = ChartBuilder::on(area)
        .margin_top(36)
        .margin_bottom(50)
        .margin_left(4)
        .margin_right(4)
        .set_label_area_size(LabelAreaPosition::Right, 44)
        .build_cartesian_2d(0.0..1.0, lo..hi)
        .map_err(|e| plot_err(path, e))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(6)
        .y_label_formatter(&|v| format!("{v:.2}"))
        .label_style((FONT, 11))
        .draw()
        .map_err(|e| plot_err(path, e))?;
    let step = (hi - lo) / STEPS as f64;
    let strips = (0..STEPS).map(|i| {
        let t = (i as f64 + 0.5) / STEPS as f64;
        Rectangle::new(
            [
                (0.0, lo + i as f64 * step),
                (1.0, lo + (i + 1) as f64 * step),
            ],
            ViridisRGB::get_color(t).filled(),
        )
    });
    chart.draw_series(strips).map_err(|e| plot_err(path, e))?;
    Ok(())
}

/// One axis of a [`grid_heat_map`]: its label and the value range its bins cover.
#[derive(Clone, Debug, PartialEq)]
pub struct GridAxis {
    /// Axis label.
    pub label: String,
    /// Lower edge of the first bin.
    pub min: f64,
    /// Upper edge of the last bin.
    pub max: f64,
    /// Number of bins.
    pub bins: usize,
}

/// Draws a grid of cell values (`values[row * x.bins + col]`, `None` for an empty cell) as
/// a heat map (viridis from the lowest to the highest value; empty cells white): the
/// MAP-Elites archive of `levelgen search`.
pub fn grid_heat_map(
    values: &[Option<f64>],
    x: &GridAxis,
    y: &GridAxis,
    title: &str,
    path: &Path,
) -> Result<(), AnalyzeError> {
    fonts();
    let root = BitMapBackend::new(path, (640, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    let (lo, hi) = values
        .iter()
        .flatten()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (main, bar) = root.split_horizontally(560);
    colour_bar(&bar, lo, lo + span, path)?;
    let mut chart = ChartBuilder::on(&main)
        .caption(title, (FONT, 16))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x.min..x.max, y.min..y.max)
        .map_err(|e| plot_err(path, e))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x.label.as_str())
        .y_desc(y.label.as_str())
        .label_style((FONT, 12))
        .draw()
        .map_err(|e| plot_err(path, e))?;
    let (wx, wy) = (
        (x.max - x.min) / x.bins.max(1) as f64,
        (y.max - y.min) / y.bins.max(1) as f64,
    );
    let cells = values.iter().enumerate().filter_map(|(i, v)| {
        let v = (*v)?;
        let (col, row) = ((i % x.bins.max(1)) as f64, (i / x.bins.max(1)) as f64);
        let shade = ViridisRGB::get_color((v - lo) / span);
        Some(Rectangle::new(
            [
                (x.min + col * wx, y.min + row * wy),
                (x.min + (col + 1.0) * wx, y.min + (row + 1.0) * wy),
            ],
            shade.filled(),
        ))
    });
    chart.draw_series(cells).map_err(|e| plot_err(path, e))?;
    root.present().map_err(|e| plot_err(path, e))?;
    Ok(())
}
