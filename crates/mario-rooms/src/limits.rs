//! Size limits and work budgets, checked before anything is allocated or generated.
//!
//! | limit | value | checked |
//! |---|---|---|
//! | asked level length (`LevelConfig::length`) | [`MAX_LENGTH`] columns | before assembly |
//! | level width (a level made or read: the asked length plus the last section and the finish room) | [`MAX_LEVEL_WIDTH`] columns | while sections are placed; before a level is built or parsed |
//! | level height (`LevelConfig::height`, and the rows a level grows to) | [`MAX_HEIGHT`] rows | before assembly; while sections are placed; before a level is parsed |
//! | level area | [`MAX_CELLS`] tiles | before assembly (`length x height`); before a level is built or parsed |
//! | a room, section or macro body | [`MAX_PIECE_SIDE`] columns or rows | while its rows are read |
//! | a library file | [`MAX_FILE_BYTES`] bytes | before it is read |
//! | assembly attempts (`LevelConfig::max_attempts`) | [`MAX_ATTEMPTS`] | before assembly |
//!
//! Every limit is an error naming the limit, never a silent clamp. With them, the longest
//! job (a [`MAX_LENGTH`] level, checked, every attempt failing) ends in seconds: the
//! playability check visits each standing tile at most once, and the fill loop places at
//! most one section per column.

use crate::error::MarioError;

/// The most columns a level may have: 20,000 (about 60 Super Mario Bros levels end to end).
pub const MAX_LENGTH: usize = 20_000;

/// The most columns of a level made or read: [`MAX_LENGTH`] plus room for the last section
/// and the finish room ([`MAX_PIECE_SIDE`] each).
pub const MAX_LEVEL_WIDTH: usize = MAX_LENGTH + 2 * MAX_PIECE_SIDE;

/// The most rows a level may have (the framework's levels have 16).
pub const MAX_HEIGHT: usize = 512;

/// The most tiles a level may have (`width x height`): 2^22.
pub const MAX_CELLS: usize = 1 << 22;

/// The most columns or rows of one room, section or macro body.
pub const MAX_PIECE_SIDE: usize = 1024;

/// The largest library file read: 1 MiB.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The most assembly attempts per level.
pub const MAX_ATTEMPTS: u32 = 256;

/// Checks an asked length and minimum height (`LevelConfig::length`, `height`).
pub fn check_asked_size(length: usize, height: usize) -> Result<(), MarioError> {
    if length > MAX_LENGTH {
        return Err(MarioError::Limit(format!(
            "a length of {length} columns is more than the limit of {MAX_LENGTH} columns (mario_rooms::limits::MAX_LENGTH)"
        )));
    }
    check_level_size(length, height)
}

/// Checks a level size `width x height` against the limits, naming the one exceeded.
pub fn check_level_size(width: usize, height: usize) -> Result<(), MarioError> {
    if width > MAX_LEVEL_WIDTH {
        return Err(MarioError::Limit(format!(
            "a level of {width} columns is wider than the limit of {MAX_LEVEL_WIDTH} columns (mario_rooms::limits::MAX_LEVEL_WIDTH)"
        )));
    }
    if height > MAX_HEIGHT {
        return Err(MarioError::Limit(format!(
            "a level of {height} rows is taller than the limit of {MAX_HEIGHT} rows (mario_rooms::limits::MAX_HEIGHT)"
        )));
    }
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(MarioError::Limit(format!(
            "a level of {width}x{height} tiles is larger than the limit of {MAX_CELLS} tiles (mario_rooms::limits::MAX_CELLS)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_is_named() {
        assert!(check_asked_size(MAX_LENGTH, 16).is_ok());
        let e = check_asked_size(MAX_LENGTH + 1, 16)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("20000 columns") && e.contains("MAX_LENGTH"),
            "{e}"
        );
        assert!(check_level_size(MAX_LENGTH + 100, 16).is_ok());
        let e = check_level_size(MAX_LEVEL_WIDTH + 1, 16)
            .unwrap_err()
            .to_string();
        assert!(e.contains("MAX_LEVEL_WIDTH"), "{e}");
        let e = check_level_size(10, MAX_HEIGHT + 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("MAX_HEIGHT"), "{e}");
        let e = check_level_size(MAX_LENGTH, MAX_HEIGHT)
            .unwrap_err()
            .to_string();
        assert!(e.contains("MAX_CELLS"), "{e}");
    }
}
