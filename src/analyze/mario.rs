//! The Mario-rooms adapter. The input is a room library:
//!
//! * `builtin`: the embedded library with the default level configuration;
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
//! Extras:
//!
//! | column | meaning |
//! |---|---|
//! | `gaps` | pits: maximal runs of columns whose bottom cell is not solid |
//! | `gap_columns` | columns without a solid bottom cell |
//! | `enemies` | enemy spawn cells |
//! | `jumps` | a static count of jumps the level demands: one per gap plus one per step where the floor rises between neighbouring columns |
//! | `playable` | 1 when the crate's playability check passed, 0 when it failed, -1 when it did not run |
//! | `difficulty` | the level's mean room difficulty |
//! | `attempts` | assembly attempts until a playable level |

use super::{AnalyzeError, OpenOptions, Probe, Row, SampleError, Subject};
use mario_rooms::tiles::{CHARS, TileClass, class_of};
use mario_rooms::{GeneratedLevel, LevelConfig, Library, MarioLevel, Strictness};
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
    Ok(Box::new(MarioSubject {
        label: super::label_of(path),
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

/// Level-design counts of a level: `(gaps, gap_columns, enemies, jumps)`.
pub fn design_counts(level: &MarioLevel) -> (usize, usize, usize, usize) {
    let (w, h) = (level.width(), level.height());
    if w == 0 || h == 0 {
        return (0, 0, 0, 0);
    }
    let solid = |x: usize, y: usize| class_of(level.get(x, y)) == TileClass::Solid;
    let mut gaps = 0;
    let mut gap_columns = 0;
    let mut in_gap = false;
    let mut rises = 0;
    let mut prev_floor: Option<usize> = None;
    for x in 0..w {
        let pit = !solid(x, h - 1);
        if pit {
            gap_columns += 1;
            if !in_gap {
                gaps += 1;
            }
        }
        in_gap = pit;
        // Floor height: the first non-solid cell above solid ground, from the bottom.
        let floor = if pit { None } else { level.first_floor(x) };
        if let (Some(a), Some(b)) = (prev_floor, floor)
            && b < a
        {
            rises += 1;
        }
        if floor.is_some() {
            prev_floor = floor;
        }
    }
    let enemies = level
        .cells()
        .iter()
        .filter(|&&c| class_of(c) == TileClass::Enemy)
        .count();
    (gaps, gap_columns, enemies, gaps + rises)
}

fn extras(g: &GeneratedLevel) -> [f64; 7] {
    let (gaps, gap_columns, enemies, jumps) = design_counts(&g.level);
    let playable = match &g.report {
        Some(r) if r.playable => 1.0,
        Some(_) => 0.0,
        None => -1.0,
    };
    [
        gaps as f64,
        gap_columns as f64,
        enemies as f64,
        jumps as f64,
        playable,
        g.difficulty as f64,
        g.attempts as f64,
    ]
}

impl Subject for MarioSubject {
    fn label(&self) -> &str {
        &self.label
    }

    fn default_empty(&self) -> &'static [&'static str] {
        passable_names()
    }

    fn extra_names(&self) -> &'static [&'static str] {
        &[
            "gaps",
            "gap_columns",
            "enemies",
            "jumps",
            "playable",
            "difficulty",
            "attempts",
        ]
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
    fn design_counts_by_hand() {
        // Columns 0-1 ground at row 3; column 2-3 a pit; column 4 ground with a block on top
        // (floor rises from y=2 to y=1); column 5 ground again (floor drops).
        let level = MarioLevel::parse(
            "t",
            "------\n\
             -g----\n\
             ----#-\n\
             XX--XX\n",
        )
        .unwrap();
        let (gaps, gap_columns, enemies, jumps) = design_counts(&level);
        assert_eq!((gaps, gap_columns, enemies), (1, 2, 1));
        // One gap plus one rise (column 1 floor y=2 -> column 4 floor y=1).
        assert_eq!(jumps, 2);
    }

    #[test]
    fn passable_names_cover_air_and_enemies_not_ground() {
        let names = passable_names();
        assert!(names.contains(&"empty") && names.contains(&"coin") && names.contains(&"goomba"));
        assert!(!names.contains(&"ground") && !names.contains(&"pipe"));
    }
}
