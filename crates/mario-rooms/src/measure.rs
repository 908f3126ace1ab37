//! Level-design features of a level, measured the same way for every level (ours, the
//! reference's, the framework's): what the difficulty setting is meant to move.

use crate::level::MarioLevel;
use crate::tiles::{TileClass, class_of};

/// Counts of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Columns.
    pub width: usize,
    /// Enemy sprites (`g E G k K r R y Y`).
    pub enemies: usize,
    /// Koopas, winged or not (`k K r R`): enemies that leave a shell.
    pub shells: usize,
    /// Winged enemies (`G K R Y`).
    pub flying: usize,
    /// Spikies (`y Y`): enemies that cannot be stomped.
    pub spikies: usize,
    /// Pipes with a piranha plant: `T` cells with no `T` above them.
    pub piranhas: usize,
    /// Gaps: maximal runs of columns whose bottom cell is not solid.
    pub gaps: usize,
    /// Columns without a solid bottom cell.
    pub gap_columns: usize,
    /// The widest gap, in columns.
    pub widest_gap: usize,
    /// Height changes: places where the floor rises or falls between neighbouring floor
    /// columns (gaps skipped).
    pub height_changes: usize,
}

impl Features {
    /// Measures `level`.
    pub fn of(level: &MarioLevel) -> Self {
        let (w, h) = (level.width(), level.height());
        let mut f = Features {
            width: w,
            ..Self::default()
        };
        let solid = |x: usize, y: usize| class_of(level.get(x, y)) == TileClass::Solid;
        let mut run = 0;
        let mut prev_floor: Option<usize> = None;
        for x in 0..w {
            if !solid(x, h - 1) {
                f.gap_columns += 1;
                if run == 0 {
                    f.gaps += 1;
                }
                run += 1;
                f.widest_gap = f.widest_gap.max(run);
                continue;
            }
            run = 0;
            let floor = level.first_floor(x);
            if let (Some(a), Some(b)) = (prev_floor, floor)
                && a != b
            {
                f.height_changes += 1;
            }
            prev_floor = floor.or(prev_floor);
        }
        for y in 0..h {
            for x in 0..w {
                let c = level.get(x, y);
                match c {
                    // A piranha pipe is two columns wide: count its top left cell.
                    b'T' if (y == 0 || level.get(x, y - 1) != b'T')
                        && (x == 0 || level.get(x - 1, y) != b'T') =>
                    {
                        f.piranhas += 1;
                    }
                    _ if class_of(c) == TileClass::Enemy => {
                        f.enemies += 1;
                        f.shells += usize::from(matches!(c, b'k' | b'K' | b'r' | b'R'));
                        f.flying += usize::from(matches!(c, b'G' | b'K' | b'R' | b'Y'));
                        f.spikies += usize::from(matches!(c, b'y' | b'Y'));
                    }
                    _ => {}
                }
            }
        }
        f
    }

    /// Enemy sprites per 100 columns.
    pub fn enemies_per_100(&self) -> f64 {
        self.enemies as f64 * 100.0 / self.width.max(1) as f64
    }

    /// The Mario AI level format's enemy chars per 100 columns (`g E G k K r R y Y T`,
    /// each `T` cell counted, as a plain char count of the text does).
    pub fn enemy_chars_per_100(level: &MarioLevel) -> f64 {
        let n = level
            .cells()
            .iter()
            .filter(|c| b"gEGkKrRyYT".contains(c))
            .count();
        n as f64 * 100.0 / level.width().max(1) as f64
    }

    /// Share of columns without ground.
    pub fn gap_share(&self) -> f64 {
        self.gap_columns as f64 / self.width.max(1) as f64
    }
}

/// The share of the top half's tiles (rows `0..height / 2`) that are not air `-`: how much
/// happens above the ground line.
pub fn top_half_filled(level: &MarioLevel) -> f64 {
    let rows = level.height() / 2;
    let filled = (0..rows)
        .flat_map(|y| level.row(y))
        .filter(|&&c| c != b'-')
        .count();
    filled as f64 / (rows * level.width()).max(1) as f64
}

/// How different the levels of a batch are: the mean, over every pair of levels, of the
/// Jaccard distance between their sets of column slices (a column's chars top to bottom).
/// 0 when every level is made of the same columns, 1 when no two levels share a column.
pub fn batch_variety(levels: &[MarioLevel]) -> f64 {
    use std::collections::BTreeSet;
    let slices: Vec<BTreeSet<Vec<u8>>> = levels
        .iter()
        .map(|l| {
            (0..l.width())
                .map(|x| (0..l.height()).map(|y| l.get(x, y)).collect())
                .collect()
        })
        .collect();
    let (mut sum, mut pairs) = (0.0, 0usize);
    for i in 0..slices.len() {
        for j in i + 1..slices.len() {
            let shared = slices[i].intersection(&slices[j]).count();
            let all = slices[i].len() + slices[j].len() - shared;
            sum += 1.0 - shared as f64 / all.max(1) as f64;
            pairs += 1;
        }
    }
    if pairs == 0 { 0.0 } else { sum / pairs as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_hand() {
        let level = MarioLevel::parse(
            "t",
            "--------TT---\n\
             -g---#--TT-K-\n\
             XXX--XXXXXXXX\n\
             XXX--XXXXXXXX\n",
        )
        .unwrap();
        let f = Features::of(&level);
        assert_eq!((f.gaps, f.gap_columns, f.widest_gap), (1, 2, 2));
        assert_eq!((f.enemies, f.shells, f.flying, f.piranhas), (2, 1, 1, 1));
        // Floor on row 1, up to row 0 on the block (column 5), down again; the pipe columns
        // have no floor below the top row and are skipped.
        assert_eq!(f.height_changes, 2);
        assert!((Features::enemy_chars_per_100(&level) - 6.0 * 100.0 / 13.0).abs() < 1e-9);
        // Top two rows: `TT` and `g # TT K`.
        assert!((top_half_filled(&level) - 7.0 / 26.0).abs() < 1e-9);
    }

    #[test]
    fn variety_by_hand() {
        let a = MarioLevel::parse("a", "--\nXX").unwrap();
        let b = MarioLevel::parse("b", "-g\nXX").unwrap();
        assert_eq!(batch_variety(&[a.clone(), a.clone()]), 0.0);
        // Columns {"-X"} against {"-X", "gX"}: one shared of two.
        assert!((batch_variety(&[a, b]) - 0.5).abs() < 1e-12);
        assert_eq!(batch_variety(&[]), 0.0);
    }
}
