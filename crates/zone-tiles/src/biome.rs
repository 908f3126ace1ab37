//! Biomes and altitude: a second noise picks the terrain, and with it the tile style.
//!
//! The **altitude** is a slow Simplex noise (3 octaves, feature size [`BiomeConfig::scale`]
//! px, its own hash key), in [0, 1]. Low ground is [`Terrain::Water`] (sand floor, deep
//! water for walls), the middle [`Terrain::Grass`] (meadow, hedges), high ground
//! [`Terrain::Rock`] (gravel, cliffs). The zone states do not change; only the tiles that
//! draw them do, so a biome-painted world has the same floor and walls as without biomes.
//!
//! **Transitions.** A painter takes the altitude per pixel (bilinear between the zone
//! corners) and dithers it by a small hash of the pixel near each boundary, so terrains meet
//! along soft, irregular curves that do not follow the zone grid. A zone's own terrain (for
//! tile exports such as TMX) is the terrain at its centre.

use crate::error::Result;
use crate::noise::{Noise, NoiseConfig, NoiseKind};
use crate::procedural::Style;
use serde::{Deserialize, Serialize};

/// A terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Low ground: sand floor, deep water as walls.
    Water,
    /// Middle ground: meadow floor, hedges as walls.
    Grass,
    /// High ground: gravel floor, cliffs as walls.
    Rock,
}

impl Terrain {
    /// All terrains, low to high.
    pub const ALL: [Terrain; 3] = [Terrain::Water, Terrain::Grass, Terrain::Rock];

    /// Its index in [`Terrain::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The tile style of this terrain.
    pub const fn style(self) -> Style {
        match self {
            Terrain::Water => Style {
                floor: [196, 178, 128],
                mortar: [172, 154, 108],
                wall_top: [36, 70, 120],
                rim: [170, 206, 222],
                face: [58, 104, 150],
                decor: [150, 120, 90],
            },
            Terrain::Grass => Style {
                floor: [104, 148, 72],
                mortar: [90, 130, 62],
                wall_top: [34, 72, 40],
                rim: [120, 170, 90],
                face: [92, 70, 46],
                decor: [210, 200, 90],
            },
            Terrain::Rock => Style {
                floor: [142, 138, 132],
                mortar: [118, 114, 110],
                wall_top: [62, 58, 60],
                rim: [176, 170, 164],
                face: [96, 88, 84],
                decor: [108, 120, 96],
            },
        }
    }
}

/// The altitude noise and where the terrains change.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BiomeConfig {
    /// Feature size of the altitude noise, in px (default 900: 15 zones of 60 px).
    pub scale: f64,
    /// Altitudes below this are water (default 0.42).
    pub water_below: f64,
    /// Altitudes above this are rock (default 0.58).
    pub rock_above: f64,
}

impl Default for BiomeConfig {
    fn default() -> Self {
        Self {
            scale: 900.0,
            water_below: 0.42,
            rock_above: 0.58,
        }
    }
}

/// Half-width of the dithered band at a terrain boundary, in altitude units.
const DITHER: f64 = 0.02;

/// A seeded altitude field.
#[derive(Clone, Copy, Debug)]
pub struct Biomes {
    config: BiomeConfig,
    noise: Noise,
}

impl Biomes {
    /// Validates `config` and keys its noise by `seed` (a stream of its own).
    pub fn new(config: BiomeConfig, seed: u64) -> Result<Self> {
        let ok = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
        if !(ok(config.water_below) && ok(config.rock_above))
            || config.water_below > config.rock_above
        {
            return Err(crate::error::ZoneError::NoiseParam {
                name: "water_below/rock_above",
                value: config.water_below,
                expected: "0 <= water_below <= rock_above <= 1",
            });
        }
        let noise = NoiseConfig {
            kind: NoiseKind::Simplex,
            scale: config.scale,
            octaves: 3,
            persistence: 0.5,
        };
        let noise = Noise::new(&noise, grid_core::Seed(seed).stream("altitude").0)?;
        Ok(Self { config, noise })
    }

    /// Its settings.
    pub fn config(&self) -> &BiomeConfig {
        &self.config
    }

    /// The altitude at pixel `(x, y)`, in [0, 1].
    pub fn altitude(&self, x: f64, y: f64) -> f64 {
        self.noise.get(x, y)
    }

    /// The terrain of an altitude, with `jitter` (in [-1, 1]) moving it within the
    /// dithered band around each boundary.
    pub fn terrain(&self, altitude: f64, jitter: f64) -> Terrain {
        let a = altitude + jitter * DITHER;
        if a < self.config.water_below {
            Terrain::Water
        } else if a > self.config.rock_above {
            Terrain::Rock
        } else {
            Terrain::Grass
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_terrains_occur_and_change_slowly() {
        let b = Biomes::new(BiomeConfig::default(), 9).unwrap();
        let mut seen = [0usize; 3];
        let mut changes = 0;
        let mut last = None;
        for i in 0..4000 {
            let t = b.terrain(b.altitude(f64::from(i) * 30.0, 700.0), 0.0);
            seen[t.index()] += 1;
            changes += usize::from(last.is_some_and(|l| l != t));
            last = Some(t);
        }
        assert!(seen.iter().all(|&n| n > 200), "{seen:?}");
        // Terrains run for 5 samples (150 px, 2.5 zones) or more on average.
        assert!(changes < 800, "{changes} changes in 4000 samples");
        assert!(
            Biomes::new(
                BiomeConfig {
                    water_below: 0.7,
                    rock_above: 0.3,
                    ..BiomeConfig::default()
                },
                0
            )
            .is_err()
        );
    }
}
