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
    /// Coins: coin tiles `o` and blocks that give a coin (`Q ! C 2`), as SMB's levels hold
    /// most of theirs in blocks.
    pub coins: usize,
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
                    b'o' | b'Q' | b'!' | b'C' | b'2' => f.coins += 1,
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

    /// Coins per 100 columns ([`Features::coins`]).
    pub fn coins_per_100(&self) -> f64 {
        self.coins as f64 * 100.0 / self.width.max(1) as f64
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

/// Rows above a column's floor that [`longest_featureless`] looks at: what Mario meets when
/// he walks and jumps there (his highest jump is about 4 tiles).
pub const REACH: usize = 4;

/// The top row of column `x`'s floor: the topmost `X` of the run of ground at the bottom.
fn floor_top(level: &MarioLevel, x: usize) -> Option<usize> {
    let h = level.height();
    let n = (0..h)
        .rev()
        .take_while(|&y| level.get(x, y) == b'X')
        .count();
    (n > 0).then(|| h - n)
}

/// Whether column `x` is featureless: ground `X` at the bottom, level with the column
/// before (a step is a feature), and only air or Mario's start `M` in the [`REACH`] rows
/// above it (what is higher up is out of play).
pub fn featureless(level: &MarioLevel, x: usize) -> bool {
    let Some(top) = floor_top(level, x) else {
        return false;
    };
    let level_with = x == 0 || floor_top(level, x - 1) == Some(top);
    level_with && (top.saturating_sub(REACH)..top).all(|y| matches!(level.get(x, y), b'-' | b'M'))
}

/// The longest run of featureless columns ([`featureless`]).
pub fn longest_featureless(level: &MarioLevel) -> usize {
    let (mut run, mut best) = (0, 0);
    for x in 0..level.width() {
        run = if featureless(level, x) { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Whether Mario can stand on cell `(x, y)`: a solid tile or a jump-through platform below
/// the top row with no solid tile on it (a ceiling is not ground).
pub fn standing(level: &MarioLevel, x: usize, y: usize) -> bool {
    y > 0
        && matches!(
            class_of(level.get(x, y)),
            TileClass::Solid | TileClass::Platform
        )
        && class_of(level.get(x, y - 1)) != TileClass::Solid
}

/// The widest pit Mario must jump: the longest run of columns with no ground at the bottom
/// and no tile Mario can land on from the route ([`crate::playability::reachable`]). A
/// bridge or platforms he can reach over a chasm are not a pit; blocks too high or too low
/// over it to land on are (a level without a start: every column without ground is).
pub fn widest_pit(level: &MarioLevel) -> usize {
    let (w, h) = (level.width(), level.height());
    let mut footing: Vec<bool> = (0..w)
        .map(|x| class_of(level.get(x, h - 1)) == TileClass::Solid)
        .collect();
    for (x, _) in crate::playability::reachable(level) {
        footing[x] = true;
    }
    let (mut run, mut best) = (0, 0);
    for f in footing {
        run = if f { 0 } else { run + 1 };
        best = best.max(run);
    }
    best
}

/// Columns of a reuse chunk ([`chunk_reuse`]).
pub const CHUNK: usize = 16;

/// Feature-chunk reuse of a batch: of the [`CHUNK`]-column chunks that hold anything besides
/// air and ground (`-`, `X`; Mario's start `M` counts as air), cut from each level at columns
/// 0, 16, 32, ..., the share found verbatim (every row) at any column of another level of the
/// batch. Levels of different heights share no chunk.
pub fn chunk_reuse(levels: &[MarioLevel]) -> f64 {
    use std::collections::HashMap;
    let window = |l: &MarioLevel, x: usize| -> Vec<u8> {
        (0..l.height())
            .flat_map(|y| &l.row(y)[x..x + CHUNK])
            .copied()
            .collect()
    };
    // Every window of every level, with the levels it occurs in (the first two suffice).
    let mut seen: HashMap<Vec<u8>, (usize, Option<usize>)> = HashMap::new();
    for (i, l) in levels.iter().enumerate() {
        for x in 0..(l.width() + 1).saturating_sub(CHUNK) {
            let e = seen.entry(window(l, x)).or_insert((i, None));
            if e.0 != i && e.1.is_none() {
                e.1 = Some(i);
            }
        }
    }
    let (mut chunks, mut reused) = (0usize, 0usize);
    for (i, l) in levels.iter().enumerate() {
        for x in (0..(l.width() + 1).saturating_sub(CHUNK)).step_by(CHUNK) {
            let w = window(l, x);
            if w.iter().all(|c| matches!(c, b'-' | b'X' | b'M')) {
                continue;
            }
            chunks += 1;
            let (a, b) = seen[&w];
            reused += usize::from(a != i || b.is_some_and(|b| b != i));
        }
    }
    if chunks == 0 {
        0.0
    } else {
        reused as f64 / chunks as f64
    }
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

    /// Blocks Mario can land on over a pit split it; blocks far out of his reach do not.
    #[test]
    fn a_pit_is_what_mario_cannot_land_in_from_the_route() {
        let air = "-".repeat(20);
        let with = |blocks: &str, at: usize| {
            let mut rows = vec![air.clone(); 10];
            rows[at] = blocks.to_string();
            rows.push("M------------------F".into());
            rows.push("XXXXXX--------XXXXXX".into());
            MarioLevel::parse("t", &rows.join("\n")).unwrap()
        };
        let bridge = with("-------SSSSSS-------", 8);
        assert_eq!(widest_pit(&bridge), 1, "{}", bridge.to_text());
        let sky = with("-------SSSSSS-------", 1);
        assert_eq!(widest_pit(&sky), 8, "{}", sky.to_text());
        // Every bottom-open column counts where the level has no start.
        assert_eq!(
            widest_pit(&MarioLevel::parse("t", "---SS---\nXX----XX").unwrap()),
            4
        );
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
