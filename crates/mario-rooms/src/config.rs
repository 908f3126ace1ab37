//! The level settings: [`LevelConfig`] (serde-serializable, so a settings file, `--set` and
//! a search address its fields by name), its section [`Step`]s and the reference's tag
//! [`Substitution`], and their check against the limits before any work.

use crate::difficulty;
use crate::error::MarioError;
use crate::limits;
use serde::{Deserialize, Serialize};

/// One step of the section sequence: a section with `role`, its cells asked for `tags` too.
/// As JSON: `{"role": "hard", "tags": ["!easy", "!twist"]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The section role (`intro`, `hard`, `twist`, ...).
    pub role: String,
    /// Extra tags for every cell (`!hard`, `!twist`, ...).
    #[serde(default)]
    pub tags: Vec<String>,
}

impl Step {
    /// A step.
    pub fn new(role: &str, tags: &[&str]) -> Self {
        Self {
            role: role.to_string(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
        }
    }

    /// A step with the reference's context tags for its role: `intro` cells exclude `hard`
    /// and `twist` rooms, `hard` cells exclude `easy` and `twist` rooms, other roles none.
    pub fn for_role(role: &str) -> Self {
        match role {
            "intro" => Self::new(role, &["!hard", "!twist"]),
            "hard" => Self::new(role, &["!easy", "!twist"]),
            _ => Self::new(role, &[]),
        }
    }
}

/// The reference's `challenge` → `bullet` substitution, off by default. As JSON:
/// `{"from": "challenge", "to": "bullet", "probability": 0.7}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Substitution {
    /// Tag replaced.
    pub from: String,
    /// Replacement.
    pub to: String,
    /// Probability of replacing, 0..=1.
    pub probability: f64,
}

/// How levels are assembled.
///
/// Serialized (serde) with the field names below, so a JSON settings file, `--set
/// key=value` (`grid_core::overrides`) and a search address them the same way: `height`,
/// `start_tags`, `finish_tags`, `sequence` (a list of [`Step`]), `length`, `fill` (a
/// [`Step`]), `difficulty` (`[A, B]` or `null`), `substitution` (a [`Substitution`] or
/// `null`), `check_playability`, `max_attempts`. Missing fields take their defaults;
/// unknown fields are an error.
///
/// ```
/// let cfg: mario_rooms::LevelConfig =
///     serde_json::from_str(r#"{"difficulty": [4, 4.5], "length": 600}"#).unwrap();
/// assert_eq!(cfg.difficulty, Some((4.0, 4.5)));
/// assert_eq!(cfg.height, 16);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LevelConfig {
    /// Minimum level height in rows (taller content makes taller levels). Default 16.
    pub height: usize,
    /// Tags of the start room (it also needs a literal `M` and no `m`).
    pub start_tags: Vec<String>,
    /// Tags of the finish room (it also needs `m` and a literal `F`).
    pub finish_tags: Vec<String>,
    /// The section sequence between start and finish.
    pub sequence: Vec<Step>,
    /// Level length in columns, about (0: as long as the sequence makes it). Sections stop
    /// at [`crate::assemble::sections_end`] of it: the sequence stops early (its first step
    /// always comes), or `fill` steps are appended until then; the last section, the finish
    /// room and the dressing's spacing bring the level near the length. Settings files may
    /// still name it `min_length`.
    #[serde(alias = "min_length")]
    pub length: usize,
    /// The step repeated to reach `length`.
    pub fill: Step,
    /// Difficulty from 1 (easiest) to 5 (hardest) at the first and at the last step
    /// (linear in between; fractions allowed). It steers room choice towards
    /// [`difficulty::room_target`] and dresses the level with the features of
    /// [`difficulty::Profile`] (gaps, plateaus, pipes, enemies). `None`: the rooms as drawn,
    /// no dressing (the reference's behaviour).
    pub difficulty: Option<(f32, f32)>,
    /// The reference's tag substitution, if wanted.
    pub substitution: Option<Substitution>,
    /// Whether to prove each level playable (and re-assemble until one is).
    pub check_playability: bool,
    /// Assembly attempts before giving up.
    pub max_attempts: u32,
}

impl Default for LevelConfig {
    fn default() -> Self {
        Self {
            height: 16,
            start_tags: vec!["start".into()],
            finish_tags: vec!["finish".into()],
            sequence: vec![
                Step::new("intro", &["!hard", "!twist"]),
                Step::new("intro", &["!hard", "!twist"]),
                Step::new("hard", &["!easy", "!twist"]),
                Step::new("twist", &[]),
                Step::new("hard", &["!easy", "!twist"]),
            ],
            length: 0,
            fill: Step::new("hard", &["!easy", "!twist"]),
            difficulty: Some((1.0, 3.0)),
            substitution: None,
            check_playability: true,
            max_attempts: 32,
        }
    }
}

impl LevelConfig {
    /// The reference's setup: start/finish tagged `bullet`, INTRO, INTRO, HARD, TWIST,
    /// 70 % `challenge` → `bullet`, no difficulty target.
    pub fn reference() -> Self {
        Self {
            start_tags: vec!["start".into(), "bullet".into()],
            finish_tags: vec!["finish".into(), "bullet".into()],
            sequence: vec![
                Step::new("intro", &["!hard", "!twist"]),
                Step::new("intro", &["!hard", "!twist"]),
                Step::new("hard", &["!easy", "!twist"]),
                Step::new("twist", &[]),
            ],
            difficulty: None,
            substitution: Some(Substitution {
                from: "challenge".into(),
                to: "bullet".into(),
                probability: 0.7,
            }),
            ..Self::default()
        }
    }
}

/// The options every front end (the CLI, the studio, Python) offers, turned into a
/// [`LevelConfig`] by [`LevelConfig::from_options`] in one place.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelOptions {
    /// Start from [`LevelConfig::reference`] instead of [`LevelConfig::default`].
    pub reference: bool,
    /// Minimum height in rows.
    pub height: usize,
    /// Minimum length in columns.
    pub length: usize,
    /// Whether to prove each level playable.
    pub check: bool,
    /// Section roles replacing the sequence (blank roles skipped), each step with the
    /// context tags of [`Step::for_role`]; `None` keeps the base's sequence.
    pub roles: Option<Vec<String>>,
    /// `None` keeps the base's difficulty ramp; `Some(None)` asks for none (the rooms as
    /// drawn); `Some(Some((a, b)))` a ramp from `a` to `b`.
    pub difficulty: Option<Option<(f32, f32)>>,
}

impl Default for LevelOptions {
    /// The defaults of `levelgen mario`: height 16, no minimum length, checked.
    fn default() -> Self {
        Self {
            reference: false,
            height: 16,
            length: 0,
            check: true,
            roles: None,
            difficulty: None,
        }
    }
}

impl LevelConfig {
    /// The configuration the options describe, checked with [`check_config`].
    ///
    /// ```
    /// use mario_rooms::config::{LevelConfig, LevelOptions};
    /// let opts = LevelOptions {
    ///     roles: Some(vec!["intro".into(), " ".into(), "hard".into()]),
    ///     difficulty: Some(Some((2.0, 4.0))),
    ///     ..LevelOptions::default()
    /// };
    /// let cfg = LevelConfig::from_options(&opts).unwrap();
    /// assert_eq!(cfg.sequence.len(), 2);
    /// assert_eq!(cfg.difficulty, Some((2.0, 4.0)));
    /// let bad = LevelOptions { difficulty: Some(Some((f32::NAN, 1.0))), ..opts };
    /// assert!(LevelConfig::from_options(&bad).is_err());
    /// ```
    pub fn from_options(opts: &LevelOptions) -> Result<Self, MarioError> {
        let mut cfg = if opts.reference {
            Self::reference()
        } else {
            Self::default()
        };
        cfg.height = opts.height;
        cfg.length = opts.length;
        cfg.check_playability = opts.check;
        if let Some(roles) = &opts.roles {
            cfg.sequence = roles
                .iter()
                .map(|r| r.trim())
                .filter(|r| !r.is_empty())
                .map(Step::for_role)
                .collect();
        }
        if let Some(ramp) = opts.difficulty {
            cfg.difficulty = ramp;
        }
        check_config(&cfg)?;
        Ok(cfg)
    }
}

/// Checks a configuration against the limits of [`crate::limits`] before any work.
pub fn check_config(cfg: &LevelConfig) -> Result<(), MarioError> {
    if cfg.height == 0 {
        return Err(MarioError::Config(
            "height 0: a level needs at least one row".into(),
        ));
    }
    limits::check_asked_size(cfg.length, cfg.height)?;
    if let Some(ramp) = cfg.difficulty {
        difficulty::validate(ramp).map_err(MarioError::Config)?;
    }
    if cfg.max_attempts > limits::MAX_ATTEMPTS {
        return Err(MarioError::Limit(format!(
            "{} assembly attempts is more than the limit of {} (mario_rooms::limits::MAX_ATTEMPTS)",
            cfg.max_attempts,
            limits::MAX_ATTEMPTS
        )));
    }
    Ok(())
}
