//! The options of a world by the names a user types: one builder of [`ZoneConfig`] for
//! `levelgen zones` (its flags) and the studio (its request fields), so the names, their
//! values, their defaults and the checks between them exist once.
//!
//! ```
//! use zone_tiles::options::{NoiseName, ZoneOptions};
//! let config = ZoneOptions {
//!     noise: NoiseName::Simplex,
//!     stride: 4,
//!     ..ZoneOptions::default()
//! }
//! .config()?;
//! assert_eq!(config.noise.scale, 100.0);
//! assert_eq!(ZoneOptions::default().config()?, zone_tiles::ZoneConfig::default());
//! // A threshold and a fill together are a typed error naming both.
//! let both = ZoneOptions { threshold: Some(0.5), fill: Some(0.4), ..ZoneOptions::default() };
//! assert!(both.config().unwrap_err().to_string().contains("`threshold` and `fill`"));
//! # Ok::<(), zone_tiles::ZoneError>(())
//! ```

use crate::connect::Connected;
use crate::error::{Result, ZoneError};
use crate::matcher::{Sampling, Threshold};
use crate::noise::{Distance, NoiseConfig, NoiseKind, WorleyOutput};
use crate::structure::Structure;
use crate::world::{Mode, ZoneConfig};
use serde::{Deserialize, Serialize};

/// The base noise (`--noise`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseName {
    /// Worley (cellular) noise.
    #[default]
    Worley,
    /// Simplex noise (scale 100 by default).
    Simplex,
    /// Perlin noise (scale 100 by default).
    Perlin,
}

/// What Worley noise returns (`--worley`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorleyName {
    /// Distance to the nearest feature point.
    #[default]
    F1,
    /// The reference's F1/(Fn-F1) with 8 points per lattice cell and n = 12, normalised.
    Ratio,
}

/// A name a user types, with the help text shown beside it.
pub type Choice = (&'static str, &'static str);

/// `--noise` values.
pub const NOISE_CHOICES: [Choice; 3] = [
    ("worley", "Worley (cellular) noise"),
    ("simplex", "Simplex noise (scale 100 by default)"),
    ("perlin", "Perlin noise (scale 100 by default)"),
];

/// `--distance` values.
pub const DISTANCE_CHOICES: [Choice; 3] = [
    ("euclidean", "Straight-line distance"),
    ("manhattan", "Sum of absolute differences"),
    ("chebyshev", "Largest absolute difference"),
];

/// `--worley` values.
pub const WORLEY_CHOICES: [Choice; 2] = [
    ("f1", "Distance to the nearest feature point (noise crate)"),
    (
        "ratio",
        "The reference's F1/(Fn-F1) with 8 points per lattice cell and n = 12, normalised",
    ),
];

/// `--connected` values.
pub const CONNECTED_CHOICES: [Choice; 3] = [
    (
        "windows",
        "Every window of at least 7x7 zones, at any origin, one 4-connected floor area on \
         its own (a 40x30-zone screen included); walls become blocks of zones with ragged edges",
    ),
    (
        "regions",
        "All floor of the world one area, and every window made of whole 4x4-zone regions \
         (every chunk) one area on its own; the caves keep their shape, but a window cut \
         elsewhere may hold pockets joined to the rest only outside it",
    ),
    (
        "off",
        "No connectivity guaranteed (the same as leaving the flag out)",
    ),
];

fn parse_choice<T>(what: &'static str, expected: &'static str, text: &str) -> Result<T>
where
    T: for<'de> Deserialize<'de>,
{
    use serde::de::value::{Error, StrDeserializer};
    let name = text.trim().to_ascii_lowercase();
    T::deserialize(StrDeserializer::<Error>::new(&name)).map_err(|_| ZoneError::Parse {
        what,
        text: text.to_string(),
        expected,
    })
}

impl std::str::FromStr for NoiseName {
    type Err = ZoneError;
    fn from_str(text: &str) -> Result<Self> {
        parse_choice("noise", "worley, simplex or perlin", text)
    }
}

impl std::str::FromStr for WorleyName {
    type Err = ZoneError;
    fn from_str(text: &str) -> Result<Self> {
        parse_choice("worley output", "f1 or ratio", text)
    }
}

/// Parses a `--distance` name.
pub fn parse_distance(text: &str) -> Result<Distance> {
    parse_choice("distance", "euclidean, manhattan or chebyshev", text)
}

/// Parses a `--connected` name.
pub fn parse_connected(text: &str) -> Result<Connected> {
    Connected::parse(text).ok_or_else(|| ZoneError::Parse {
        what: "connected",
        text: text.to_string(),
        expected: "windows, regions or off",
    })
}

/// The options of a world, by the names of `levelgen zones`' flags; [`ZoneOptions::config`]
/// turns them into the [`ZoneConfig`]. Deserialised with these names (missing ones take
/// their defaults, unknown ones are refused).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ZoneOptions {
    /// The base noise.
    pub noise: NoiseName,
    /// Worley distance function.
    pub distance: Distance,
    /// What Worley returns.
    pub worley: WorleyName,
    /// Noise pixels (60 per zone) per noise unit; `None`: the noise's own (40 for F1
    /// Worley, 100 for the others).
    pub scale: Option<f64>,
    /// Octaves, summed and normalised (1..=8).
    pub octaves: u32,
    /// Amplitude factor per octave, (0, 1].
    pub persistence: f64,
    /// A cell is on (wall) when its value is above this (not with `fill`).
    pub threshold: Option<f64>,
    /// The share of cells on, calibrated per seed (not with `threshold`); without either,
    /// 0.45.
    pub fill: Option<f64>,
    /// The reference's look: every zone decides its own cells, and no macro layer unless
    /// `structure` asks for one.
    pub reference: bool,
    /// Strength of the macro layer; `None`: 1.2, or 0 with `reference`.
    pub structure: Option<f64>,
    /// Floor connectivity.
    pub connected: Connected,
    /// Zone side in pixels when drawn, a multiple of 3 (the map does not depend on it).
    pub zone_size: u32,
    /// Sample every N-th noise pixel of a cell (1 = every one, up to the cell's 20).
    pub stride: u32,
}

impl Default for ZoneOptions {
    fn default() -> Self {
        Self {
            noise: NoiseName::Worley,
            distance: Distance::Chebyshev,
            worley: WorleyName::F1,
            scale: None,
            octaves: 1,
            persistence: 0.5,
            threshold: None,
            fill: None,
            reference: false,
            structure: None,
            connected: Connected::Off,
            zone_size: 60,
            stride: 2,
        }
    }
}

impl ZoneOptions {
    /// The noise settings the options name.
    pub fn noise_config(&self) -> NoiseConfig {
        let mut noise = match (self.noise, self.worley) {
            (NoiseName::Worley, WorleyName::F1) => NoiseConfig {
                kind: NoiseKind::Worley {
                    distance: self.distance,
                    output: WorleyOutput::F1,
                },
                ..NoiseConfig::worley()
            },
            (NoiseName::Worley, WorleyName::Ratio) => NoiseConfig::worley_reference(self.distance),
            (NoiseName::Simplex, _) => NoiseConfig::simplex(),
            (NoiseName::Perlin, _) => NoiseConfig {
                kind: NoiseKind::Perlin,
                ..NoiseConfig::simplex()
            },
        };
        if let Some(s) = self.scale {
            noise.scale = s;
        }
        noise.octaves = self.octaves;
        noise.persistence = self.persistence;
        noise
    }

    /// The configuration the options describe. Refuses a threshold together with a fill,
    /// and a stride of 0; the ranges of the values are [`ZoneConfig::validate`]'s, which a
    /// caller runs after any `--set` overrides.
    pub fn config(&self) -> Result<ZoneConfig> {
        if self.threshold.is_some() && self.fill.is_some() {
            return Err(ZoneError::ConflictingOptions {
                first: "threshold",
                second: "fill",
            });
        }
        let sampling = match self.stride {
            0 => {
                return Err(ZoneError::Stride {
                    stride: 0,
                    cell: crate::matcher::NOISE_CELL,
                });
            }
            1 => Sampling::Full,
            k => Sampling::Stride(k),
        };
        Ok(ZoneConfig {
            zone_size: self.zone_size,
            noise: self.noise_config(),
            sampling,
            threshold: match (self.threshold, self.fill) {
                (_, Some(p)) => Threshold::Fill(p),
                (Some(t), None) => Threshold::Fixed(t),
                (None, None) => Threshold::default(),
            },
            mode: if self.reference {
                Mode::Reference
            } else {
                Mode::Seamless
            },
            connected: self.connected,
            structure: match (self.structure, self.reference) {
                (Some(weight), _) => Structure {
                    weight,
                    ..Structure::default()
                },
                (None, true) => Structure::OFF,
                (None, false) => Structure::default(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_the_values_the_choices_list() {
        for (name, _) in NOISE_CHOICES {
            let n: NoiseName = name.parse().unwrap();
            assert_eq!(serde_json::to_string(&n).unwrap(), format!("\"{name}\""));
        }
        for (name, _) in WORLEY_CHOICES {
            let w: WorleyName = name.parse().unwrap();
            assert_eq!(serde_json::to_string(&w).unwrap(), format!("\"{name}\""));
        }
        for (name, _) in DISTANCE_CHOICES {
            let d = parse_distance(name).unwrap();
            assert_eq!(serde_json::to_string(&d).unwrap(), format!("\"{name}\""));
        }
        for (name, _) in CONNECTED_CHOICES {
            assert!(parse_connected(name).is_ok());
        }
        // The help states the tested window minimum.
        let m = crate::blocks::MIN_WINDOW;
        assert!(
            CONNECTED_CHOICES[0]
                .1
                .contains(&format!("at least {m}x{m} zones"))
        );
        assert_eq!("Simplex".parse::<NoiseName>().unwrap(), NoiseName::Simplex);
        let e = "cubic".parse::<NoiseName>().unwrap_err().to_string();
        assert!(
            e.contains("cubic") && e.contains("worley, simplex or perlin"),
            "{e}"
        );
    }

    #[test]
    fn defaults_are_the_default_config_and_options_map_one_to_one() {
        assert_eq!(
            ZoneOptions::default().config().unwrap(),
            ZoneConfig::default()
        );
        let o = ZoneOptions {
            reference: true,
            stride: 1,
            fill: Some(0.3),
            connected: Connected::Windows,
            ..ZoneOptions::default()
        };
        let c = o.config().unwrap();
        assert_eq!(c.mode, Mode::Reference);
        assert_eq!(c.structure, Structure::OFF);
        assert_eq!(c.sampling, Sampling::Full);
        assert_eq!(c.threshold, Threshold::Fill(0.3));
        assert_eq!(c.connected, Connected::Windows);
        let o = ZoneOptions {
            noise: NoiseName::Worley,
            worley: WorleyName::Ratio,
            distance: Distance::Manhattan,
            scale: Some(77.0),
            ..ZoneOptions::default()
        };
        let n = o.config().unwrap().noise;
        assert_eq!(n.scale, 77.0);
        assert_eq!(
            n.kind,
            NoiseConfig::worley_reference(Distance::Manhattan).kind
        );
    }

    #[test]
    fn conflicts_and_a_zero_stride_are_typed_errors() {
        let both = ZoneOptions {
            threshold: Some(0.5),
            fill: Some(0.5),
            ..ZoneOptions::default()
        };
        assert!(matches!(
            both.config(),
            Err(ZoneError::ConflictingOptions { .. })
        ));
        let zero = ZoneOptions {
            stride: 0,
            ..ZoneOptions::default()
        };
        assert!(matches!(
            zero.config(),
            Err(ZoneError::Stride { stride: 0, .. })
        ));
        let o: ZoneOptions = serde_json::from_str(r#"{"noise": "perlin", "stride": 4}"#).unwrap();
        assert_eq!(o.noise, NoiseName::Perlin);
        assert!(serde_json::from_str::<ZoneOptions>(r#"{"noize": "perlin"}"#).is_err());
    }
}
