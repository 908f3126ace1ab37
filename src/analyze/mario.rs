//! The Mario-rooms adapter. The input is a room library:
//!
//! * `builtin`: the embedded library with the default level configuration; `builtin@D` or
//!   `builtin@A:B` at difficulty `D` (1 to 5, fractions allowed) or a ramp from `A` to `B`;
//! * a directory holding `rooms/`, `sections/` and `macros/` subdirectories (a missing one
//!   comes from the embedded library), or a directory of rooms alone, with the default
//!   configuration;
//! * a directory in the reference's layout (`blocks/`, `sections/`, `macros/`, as in the
//!   jcatlos LevelGenerator): its blocks are the rooms, and the level configuration is the
//!   reference's (`LevelConfig::reference()`: start/finish tagged `bullet`, INTRO, INTRO,
//!   HARD, TWIST).
//!
//! Directories load leniently, as `levelgen mario --rooms DIR` does.
//!
//! Map `seed` is `mario_rooms::generate(library, config, seed)`.
//!
//! Empty tiles default to every cell Mario passes through: air, markers, coins, background,
//! and enemy spawn cells (enemies stand in air), so regions counts the air pockets.
//!
//! Extras (measured by `mario_rooms::Features` and the playability checker):
//!
//! | column | meaning |
//! |---|---|
//! | `gaps` | pits: maximal runs of columns whose bottom cell is not solid |
//! | `gap_columns` | columns without a solid bottom cell |
//! | `enemies_per_100` | enemy sprites per 100 columns |
//! | `height_changes` | places where the floor rises or falls between neighbouring floor columns |
//! | `jumps` | jumps on the path the playability checker found (0 when unchecked or unplayable) |
//! | `special_enemies` | shells (koopas), winged enemies and piranha-plant pipes together |
//! | `playable` | 1 when the crate's playability check passed, 0 when it failed, -1 when it did not run |
//! | `longest_jump` | the longest jump on the checker's path, in columns from take-off to landing (the tightest jump; the widest gap the checker passes is `mario_rooms::difficulty::widest_gap()`) |
//!
//! With several `builtin@D` inputs, `levelgen analyze` also draws [`response_curves`]: the
//! mean of each extra against the difficulty.

use super::{AnalyzeError, OpenOptions, Probe, Row, Run, SampleError, Subject, plot};
use mario_rooms::tiles::{CHARS, TileClass};
use mario_rooms::{Features, GeneratedLevel, LevelConfig, Library, Strictness};
use std::path::Path;
use std::sync::OnceLock;

/// A loaded library and level configuration.
#[derive(Debug)]
pub struct MarioSubject {
    label: String,
    library: Library,
    config: LevelConfig,
}

/// Opens a library for analysis.
pub fn open(path: &Path, _options: &OpenOptions) -> Result<Box<dyn Subject>, AnalyzeError> {
    let text = path.to_string_lossy();
    let err = |e: mario_rooms::MarioError| AnalyzeError::input(path, e);
    let (library, config) = match text.as_ref() {
        "builtin" => (Library::builtin().map_err(err)?, LevelConfig::default()),
        t if t.starts_with("builtin@") => {
            let ramp = parse_ramp(&t["builtin@".len()..]).ok_or_else(|| {
                AnalyzeError::input(
                    path,
                    "expected `builtin@D` or `builtin@A:B` with difficulties from 1 to 5",
                )
            })?;
            let config = LevelConfig {
                difficulty: Some(ramp),
                ..LevelConfig::default()
            };
            (Library::builtin().map_err(err)?, config)
        }
        _ if path.is_dir() => {
            let sub = |name: &str| {
                let d = path.join(name);
                d.is_dir().then_some(d)
            };
            let blocks = sub("blocks");
            let config = if blocks.is_some() {
                LevelConfig::reference()
            } else {
                LevelConfig::default()
            };
            let (rooms, sections, macros) =
                (sub("rooms").or(blocks), sub("sections"), sub("macros"));
            let lib = if rooms.is_none() && sections.is_none() && macros.is_none() {
                Library::load(Some(path), None, None, Strictness::Lenient)
            } else {
                Library::load(
                    rooms.as_deref(),
                    sections.as_deref(),
                    macros.as_deref(),
                    Strictness::Lenient,
                )
            };
            (lib.map_err(err)?, config)
        }
        _ => {
            return Err(AnalyzeError::input(
                path,
                "expected `builtin` or a directory of rooms (with optional rooms/ or blocks/, sections/, macros/)",
            ));
        }
    };
    let label = if text.starts_with("builtin@") {
        text.to_string()
    } else {
        super::label_of(path)
    };
    Ok(Box::new(MarioSubject {
        label,
        library,
        config,
    }))
}

/// Names of the cells Mario passes through (movement class empty or enemy).
pub fn passable_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        CHARS
            .iter()
            .filter(|c| matches!(c.class, TileClass::Empty | TileClass::Enemy))
            .map(|c| c.name)
            .collect()
    })
}

/// A difficulty `D` or ramp `A:B`, each from 1 to 5.
pub fn parse_ramp(text: &str) -> Option<(f32, f32)> {
    let mut parts = text.split(':').map(|p| p.trim().parse::<f32>().ok());
    let a = parts.next()??;
    let b = match parts.next() {
        Some(b) => b?,
        None => a,
    };
    let ok = parts.next().is_none() && mario_rooms::difficulty::validate((a, b)).is_ok();
    ok.then_some((a, b))
}

/// The extras of one level, in the order of [`EXTRAS`].
pub fn extras(g: &GeneratedLevel) -> [f64; 8] {
    let f = Features::of(&g.level);
    let playable = match &g.report {
        Some(r) if r.playable => 1.0,
        Some(_) => 0.0,
        None => -1.0,
    };
    [
        f.gaps as f64,
        f.gap_columns as f64,
        f.enemies_per_100(),
        f.height_changes as f64,
        g.report.as_ref().map_or(0, |r| r.jumps) as f64,
        (f.shells + f.flying + f.piranhas) as f64,
        playable,
        g.report.as_ref().map_or(0, |r| r.longest_jump) as f64,
    ]
}

/// Names of the extra columns.
pub const EXTRAS: [&str; 8] = [
    "gaps",
    "gap_columns",
    "enemies_per_100",
    "height_changes",
    "jumps",
    "special_enemies",
    "playable",
    "longest_jump",
];

/// The difficulty of a run labelled `builtin@D` (`builtin@A:B`: the ramp's middle).
fn difficulty_of(label: &str) -> Option<f64> {
    let (a, b) = parse_ramp(label.strip_prefix("builtin@")?)?;
    Some(f64::from(a + b) / 2.0)
}

/// Extras drawn by [`response_curves`], with their axis names.
const CURVES: [(&str, &str); 6] = [
    ("enemies_per_100", "enemies per 100 columns"),
    ("gaps", "gaps per level"),
    ("gap_columns", "columns without ground"),
    ("jumps", "jumps the checker needs"),
    ("height_changes", "height changes"),
    ("special_enemies", "shells + flying + piranhas"),
];

/// Draws the mean of each design extra against the difficulty, one panel per extra, when
/// every run is a `builtin@D` input and there are at least two. Returns whether it drew.
pub fn response_curves(runs: &[Run], path: &Path) -> Result<bool, AnalyzeError> {
    use plotters::prelude::*;
    let Some(xs) = runs
        .iter()
        .map(|r| difficulty_of(&r.label))
        .collect::<Option<Vec<f64>>>()
    else {
        return Ok(false);
    };
    if runs.len() < 2 {
        return Ok(false);
    }
    plot::fonts();
    let err = |e: &dyn std::fmt::Display| plot::plot_err(path, e);
    let root = BitMapBackend::new(path, (1080, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let panels = root.split_evenly((2, 3));
    for ((name, desc), area) in CURVES.iter().zip(&panels) {
        let mut pts: Vec<(f64, f64)> = Vec::new();
        for (run, &x) in runs.iter().zip(&xs) {
            let Some(k) = run.extra_names.iter().position(|n| n == name) else {
                continue;
            };
            let n = run.rows.len().max(1) as f64;
            pts.push((x, run.rows.iter().map(|r| r.extras[k]).sum::<f64>() / n));
        }
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let top = pts.iter().map(|p| p.1).fold(0.0, f64::max) * 1.15 + 1e-9;
        let (x0, x1) = (
            xs.iter().copied().fold(5.0, f64::min),
            xs.iter().copied().fold(1.0, f64::max),
        );
        let mut chart = ChartBuilder::on(area)
            .caption(*desc, (plot::FONT, 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(44)
            .build_cartesian_2d((x0 - 0.2)..(x1 + 0.2), 0f64..top)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("difficulty")
            .label_style((plot::FONT, 11))
            .draw()
            .map_err(|e| err(&e))?;
        let colour = RGBColor(40, 100, 180);
        chart
            .draw_series(std::iter::once(PathElement::new(
                pts.clone(),
                colour.stroke_width(2),
            )))
            .map_err(|e| err(&e))?;
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(true)
}

impl Subject for MarioSubject {
    fn label(&self) -> &str {
        &self.label
    }

    fn default_empty(&self) -> &'static [&'static str] {
        passable_names()
    }

    fn extra_names(&self) -> &'static [&'static str] {
        &EXTRAS
    }

    fn sample(&self, seed: u64, probe: &mut Probe) -> Result<Row, SampleError> {
        let (g, secs) =
            probe.generate(|| mario_rooms::generate(&self.library, &self.config, seed))?;
        let metrics = probe.measure(&g.level)?;
        Ok(probe.row(seed, metrics, &extras(&g), secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramps_parse_and_out_of_range_is_refused() {
        assert_eq!(parse_ramp("3"), Some((3.0, 3.0)));
        assert_eq!(parse_ramp("1:4.5"), Some((1.0, 4.5)));
        assert_eq!(parse_ramp("0"), None);
        assert_eq!(parse_ramp("2:9"), None);
        assert_eq!(parse_ramp("x"), None);
        assert_eq!(parse_ramp("1:2:3"), None);
    }

    #[test]
    fn passable_names_cover_air_and_enemies_not_ground() {
        let names = passable_names();
        assert!(names.contains(&"empty") && names.contains(&"coin") && names.contains(&"goomba"));
        assert!(!names.contains(&"ground") && !names.contains(&"pipe"));
    }
}
