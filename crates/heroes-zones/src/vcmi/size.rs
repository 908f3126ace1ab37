//! Map sides and player counts: VCMI's size codes and `players` ranges, and the `.hmm`
//! side and player count chosen from them.

use super::Warnings;
use super::parse::VcmiTemplate;
use crate::error::HeroesError;
use grid_core::text::excerpt;
use std::collections::BTreeSet;

/// Most players a `.hmm` map declares.
pub const MAX_PLAYERS: u8 = 6;
/// Map sides of the `.hmm` format.
pub const SIDES: [u32; 4] = [32, 64, 128, 256];
/// Cells per zone the default side aims for (smaller sides crowd zones together).
pub const CELLS_PER_ZONE: u32 = 1000;

/// The tile count of a size code (`s`, `m`, `l`, `xl`, `h`, `xh`, `g`, with `+u` for two
/// levels, or `WxHxD`), and whether it has an underground level.
pub fn size_tiles(code: &str) -> Option<(u64, bool)> {
    let code = code.trim().to_ascii_lowercase();
    let (base, under) = match code.strip_suffix("+u") {
        Some(b) => (b.to_string(), true),
        None => (code.clone(), false),
    };
    let side = match base.as_str() {
        "s" => 36,
        "m" => 72,
        "l" => 108,
        "xl" => 144,
        "h" => 180,
        "xh" => 216,
        "g" => 252,
        _ => {
            let dims: Vec<u64> = base
                .split('x')
                .map(|p| p.parse().ok())
                .collect::<Option<_>>()?;
            return match dims.as_slice() {
                [w, h, d] if *w <= 1000 && *h <= 1000 && (1..=8).contains(d) => {
                    Some((w * h * d, *d > 1))
                }
                _ => None,
            };
        }
    };
    Some((side * side * if under { 2 } else { 1 }, under))
}

/// The numbers of a `players` string (`"2"`, `"2-4"`, `"2,4,6"`).
pub fn player_counts(spec: &str) -> Option<BTreeSet<u8>> {
    let mut out = BTreeSet::new();
    for part in spec.split(',') {
        let part = part.trim();
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b): (u8, u8) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        if a > b || b > 8 {
            return None;
        }
        out.extend(a..=b);
    }
    (!out.is_empty()).then_some(out)
}

/// The side to generate at: the smallest `.hmm` side inside the template's size range (by
/// tile count, as VCMI compares sizes) that gives each zone [`CELLS_PER_ZONE`] cells, else
/// the largest inside the range, else the nearest outside it (with a warning).
pub(crate) fn choose_side(
    t: &VcmiTemplate,
    sizes: &[i32],
    requested: Option<u32>,
    w: &mut Warnings,
) -> Result<u32, HeroesError> {
    let at = excerpt(&t.id);
    let (min, min_u) = size_tiles(&t.min_size).ok_or_else(|| {
        HeroesError::invalid(
            format!("{at}.minSize"),
            format!("{} is not a size", excerpt(&t.min_size)),
        )
    })?;
    let (max, max_u) = size_tiles(&t.max_size).ok_or_else(|| {
        HeroesError::invalid(
            format!("{at}.maxSize"),
            format!("{} is not a size", excerpt(&t.max_size)),
        )
    })?;
    if min_u || max_u {
        let field = if max_u { "maxSize" } else { "minSize" };
        w.add(
            format!("{at}.{field}"),
            "the .hmm format has one level: the underground (+u) is left out, its zones are placed on the surface",
        );
    }
    let inside = |s: u32| (min..=max.max(min)).contains(&(s as u64 * s as u64));
    if let Some(s) = requested {
        if !inside(s) {
            w.add(
                format!("{at}.minSize"),
                &format!("the map side {s} is outside the template's size range"),
            );
        }
        return Ok(s);
    }
    // Sides where the smallest zone still gets twice the minimum of cells.
    let total: u64 = sizes.iter().map(|&s| s.max(1) as u64).sum::<u64>().max(1);
    let smallest = sizes.iter().copied().min().unwrap_or(1).max(1) as u64;
    let fits = |s: u32| {
        (s as u64 * s as u64) * smallest / total >= 2 * crate::validate::MIN_ZONE_CELLS as u64
    };
    let roomy = |s: u32| s * s / sizes.len().max(1) as u32 >= CELLS_PER_ZONE;
    let allowed: Vec<u32> = SIDES
        .iter()
        .copied()
        .filter(|&s| inside(s) && fits(s))
        .collect();
    if let Some(&s) = allowed.iter().find(|&&s| roomy(s)).or(allowed.last()) {
        return Ok(s);
    }
    let distance = |s: u32| {
        let t = s as u64 * s as u64;
        if t < min {
            min - t
        } else {
            t.saturating_sub(max)
        }
    };
    let nearest = SIDES
        .iter()
        .copied()
        .filter(|&s| fits(s))
        .min_by_key(|&s| distance(s))
        .unwrap_or(256);
    w.add(
        format!("{at}.minSize"),
        &format!(
            "no .hmm side (32, 64, 128, 256) in the size range holds these zones; {nearest} is used"
        ),
    );
    Ok(nearest)
}

pub(crate) fn choose_players(
    counts: &BTreeSet<u8>,
    wanted: Option<u8>,
    at: &str,
    w: &mut Warnings,
) -> Result<u8, HeroesError> {
    let list = counts
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match wanted {
        Some(n) if n > MAX_PLAYERS => Err(HeroesError::invalid(
            "--players",
            format!("{n} players, but the .hmm format has at most {MAX_PLAYERS}"),
        )),
        Some(n) if !counts.contains(&n) => Err(HeroesError::invalid(
            "--players",
            format!("{n} players, but the template allows {list}"),
        )),
        Some(n) => Ok(n),
        None => {
            let max = counts.iter().copied().max().unwrap_or(2);
            if max > MAX_PLAYERS {
                w.add(
                    format!("{at}.players"),
                    &format!("up to {max} players, the .hmm format has {MAX_PLAYERS}: the other player zones become treasure zones"),
                );
            }
            Ok(counts
                .iter()
                .copied()
                .filter(|&n| n <= MAX_PLAYERS)
                .max()
                .unwrap_or(max.min(MAX_PLAYERS)))
        }
    }
}
