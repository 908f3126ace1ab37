//! Size limits and work budgets, checked before anything is allocated or computed.
//!
//! | limit | value | what it bounds |
//! |---|---|---|
//! | [`MAX_ZONE_SIZE`] | 1023 px | zone side |
//! | [`MAX_WINDOW_SIDE`] | 65,536 zones | one side of a window |
//! | [`MAX_WINDOW_ZONES`] | 2^24 = 16,777,216 zones | zones in one window (32 MiB of states) |
//! | [`MAX_ZONE_COORD`] | 2^31 | zone coordinates lie in `-2^31..2^31` |
//! | [`MAX_ZONE_WORK`] | 2^16 units | noise work of one zone |
//! | [`MAX_WINDOW_WORK`] | 2^30 units | noise work of one window (about 20-40 s on one core) |
//! | [`MAX_IMAGE_PIXELS`] | 2^26 px | a painted or black-and-white picture (192 MiB of RGB) |
//! | [`MAX_ATLAS_PIXELS`] | 2^25 px | an atlas image (full atlas: zones up to 256 px) |
//!
//! **Work units.** One unit is one noise sample of one octave of Worley F1, Simplex or Perlin;
//! a sample of the reference's Worley `F1/(Fn−F1)` with `p` points per lattice cell counts
//! `p` units. Cells are measured in noise pixels, 20 per cell whatever the drawn zone size
//! ([`NOISE_ZONE`](crate::matcher::NOISE_ZONE)). A zone in reference mode averages 9 cells
//! of `k x k` samples (`k = ceil(20 / stride)`), in seamless mode about 4 nodes: at stride 2
//! with Worley F1 and one octave a zone's 9 cells cost 900 units (the per-zone check), and a
//! default (seamless) window about 400 units per zone, so it may hold about 2.68 million
//! zones (a reference-mode window about 1.19 million). A zone over [`MAX_ZONE_WORK`] is
//! rejected when the generator is built (the [`Threshold::Fill`](crate::Threshold::Fill)
//! calibration computes 256 zones), a window over [`MAX_WINDOW_WORK`] when it is asked for.
//! The error names the limit and what to change (a larger stride, fewer octaves or a
//! smaller window).

use crate::error::{Result, ZoneError};
use crate::noise::{NoiseConfig, NoiseKind, WorleyOutput};

/// Largest zone side accepted, in pixels.
pub const MAX_ZONE_SIZE: u32 = 1023;
/// Largest window side, in zones.
pub const MAX_WINDOW_SIDE: u64 = 1 << 16;
/// Most zones in one window.
pub const MAX_WINDOW_ZONES: u64 = 1 << 24;
/// Zone coordinates must lie in `-MAX_ZONE_COORD..MAX_ZONE_COORD`.
pub const MAX_ZONE_COORD: i64 = 1 << 31;
/// Most noise work (units, see the module docs) for one zone.
pub const MAX_ZONE_WORK: u64 = 1 << 16;
/// Most noise work (units) for one window.
pub const MAX_WINDOW_WORK: u64 = 1 << 30;
/// Largest picture (painted or black-and-white), in pixels.
pub const MAX_IMAGE_PIXELS: u64 = 1 << 26;
/// Largest atlas image, in pixels.
pub const MAX_ATLAS_PIXELS: u64 = 1 << 25;

/// Units of work of one noise sample (all octaves) of `noise`.
pub fn sample_work(noise: &NoiseConfig) -> u64 {
    let weight = match noise.kind {
        NoiseKind::Worley {
            output: WorleyOutput::F1OverGap { points, .. },
            ..
        } => u64::from(points.max(1)),
        _ => 1,
    };
    weight * u64::from(noise.octaves.max(1))
}

/// Samples per averaged cell: `ceil(cell / stride)^2`.
pub fn samples_per_cell(zone_size: u32, stride: u32) -> u64 {
    let k = u64::from((zone_size / 3).div_ceil(stride.max(1)));
    k * k
}

/// Checks the work of one zone (9 cells) against [`MAX_ZONE_WORK`].
pub fn check_zone_work(noise: &NoiseConfig, zone_size: u32, stride: u32) -> Result<u64> {
    let work = 9 * samples_per_cell(zone_size, stride) * sample_work(noise);
    if work > MAX_ZONE_WORK {
        return Err(ZoneError::Budget {
            what: "one zone",
            needed: work,
            limit: MAX_ZONE_WORK,
            hint: "use a larger --stride or fewer --octaves",
        });
    }
    Ok(work)
}

/// Checks a window of `width x height` zones: the zone count against
/// [`MAX_WINDOW_ZONES`], then its work (`units` per averaged cell or node, `cells` of them)
/// against [`MAX_WINDOW_WORK`].
pub fn check_window_work(width: u64, height: u64, cells: u64, units: u64) -> Result<()> {
    let zones = width.saturating_mul(height);
    if zones > MAX_WINDOW_ZONES {
        return Err(ZoneError::TooManyZones {
            width,
            height,
            zones,
            limit: MAX_WINDOW_ZONES,
        });
    }
    let work = cells.saturating_mul(units);
    if work > MAX_WINDOW_WORK {
        return Err(ZoneError::Budget {
            what: "the window",
            needed: work,
            limit: MAX_WINDOW_WORK,
            hint: "ask for fewer zones, or use a larger --stride or fewer --octaves",
        });
    }
    Ok(())
}

/// Checks a picture of `zones_wide x zones_high` zones of `zone` px against
/// [`MAX_IMAGE_PIXELS`] (before anything is generated or allocated).
pub fn check_image(zones_wide: u64, zones_high: u64, zone: u32) -> Result<()> {
    let z = u64::from(zone);
    let (w, h) = (zones_wide.saturating_mul(z), zones_high.saturating_mul(z));
    let pixels = w.saturating_mul(h);
    if pixels > MAX_IMAGE_PIXELS {
        return Err(ZoneError::ImageTooLarge {
            width: w,
            height: h,
            pixels,
            limit: MAX_IMAGE_PIXELS,
        });
    }
    Ok(())
}

/// Checks an atlas of `tiles` tiles of `zone` px against [`MAX_ATLAS_PIXELS`].
pub fn check_atlas(tiles: u64, zone: u32) -> Result<()> {
    let pixels = tiles.saturating_mul(u64::from(zone) * u64::from(zone));
    if pixels > MAX_ATLAS_PIXELS {
        let max_zone = ((MAX_ATLAS_PIXELS / tiles.max(1)) as f64).sqrt() as u64 / 3 * 3;
        return Err(ZoneError::AtlasTooLarge {
            zone,
            pixels,
            limit: MAX_ATLAS_PIXELS,
            max_zone,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_zone_costs_900_units() {
        assert_eq!(check_zone_work(&NoiseConfig::worley(), 60, 2).unwrap(), 900);
        assert!(check_zone_work(&NoiseConfig::worley(), 1023, 8).is_ok());
        assert!(check_zone_work(&NoiseConfig::worley(), 1023, 1).is_err());
        let eight = NoiseConfig {
            octaves: 8,
            ..NoiseConfig::worley()
        };
        assert!(matches!(
            check_zone_work(&eight, 1023, 8),
            Err(ZoneError::Budget { .. })
        ));
    }

    #[test]
    fn limits_are_named_in_errors() {
        let e = check_window_work(65536, 65536, 1, 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("16777216"), "{e}");
        let e = check_image(1000, 1000, 60).unwrap_err().to_string();
        assert!(e.contains("67108864"), "{e}");
        let e = check_atlas(512, 1023).unwrap_err().to_string();
        assert!(e.contains("33554432") && e.contains("255"), "{e}");
        assert!(check_atlas(512, 255).is_ok());
    }
}
