//! The Mario AI Framework char legend: what every level char means to the engine,
//! to the playability checker and to the PNG preview.

use grid_core::{Legend, TileId, TileKind};
use std::sync::OnceLock;

/// How a tile behaves for Mario's movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileClass {
    /// Air, coins, decoration, markers: Mario passes through.
    Empty,
    /// Blocks from every side (ground, blocks, pipes, bullet-bill launchers).
    Solid,
    /// Jump-through platform `%`: blocks only from above (Mario can stand on it).
    Platform,
    /// Invisible blocks `1`/`2`: only hit from below; the checker treats them as walls it
    /// cannot stand on (conservative).
    Hidden,
    /// An enemy's spawn cell: a hazard Mario must not walk into or land on.
    Enemy,
}

/// One entry of the legend: char, name, colour and movement class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharInfo {
    /// The level char.
    pub ch: u8,
    /// Its name.
    pub name: &'static str,
    /// Preview colour.
    pub color: [u8; 3],
    /// Movement class.
    pub class: TileClass,
}

const fn info(ch: u8, name: &'static str, color: [u8; 3], class: TileClass) -> CharInfo {
    CharInfo {
        ch,
        name,
        color,
        class,
    }
}

use TileClass::*;

/// The legend, id order. Id 0 (`-`) is also what unknown chars mean (the engine's rule).
pub const CHARS: &[CharInfo] = &[
    info(b'-', "empty", [156, 200, 255], Empty),
    info(b'M', "mario start", [255, 40, 40], Empty),
    info(b'F', "exit flag", [40, 200, 60], Empty),
    info(b'X', "ground", [150, 80, 30], Solid),
    info(b'#', "solid block", [110, 70, 40], Solid),
    info(b'%', "jump-through platform", [230, 170, 90], Platform),
    info(b'|', "platform background", [200, 190, 150], Empty),
    info(b'*', "bullet launcher", [30, 30, 30], Solid),
    info(b'B', "bullet bill head", [20, 20, 20], Solid),
    info(b'b', "bullet bill neck", [70, 70, 70], Solid),
    info(b'?', "question block (power-up)", [255, 200, 0], Solid),
    info(b'@', "question block (power-up) alt", [255, 190, 20], Solid),
    info(b'Q', "question block (coin)", [250, 215, 60], Solid),
    info(b'!', "question block (coin) alt", [245, 210, 70], Solid),
    info(b'1', "invisible 1-up block", [190, 220, 255], Hidden),
    info(b'2', "invisible coin block", [185, 215, 250], Hidden),
    info(b'D', "used block", [140, 100, 70], Solid),
    info(b'S', "brick", [190, 90, 40], Solid),
    info(b'C', "coin brick", [200, 110, 50], Solid),
    info(b'U', "mushroom brick", [205, 100, 60], Solid),
    info(b'L', "1-up brick", [210, 95, 55], Solid),
    info(b'o', "coin", [255, 235, 80], Empty),
    info(b't', "pipe", [40, 170, 40], Solid),
    info(b'T', "pipe with piranha plant", [20, 120, 20], Solid),
    info(b'<', "pipe top left", [60, 190, 60], Solid),
    info(b'>', "pipe top right", [50, 180, 50], Solid),
    info(b'[', "pipe body left", [45, 160, 45], Solid),
    info(b']', "pipe body right", [35, 150, 35], Solid),
    info(b'g', "goomba", [160, 60, 20], Enemy),
    info(b'E', "goomba alt", [160, 70, 30], Enemy),
    info(b'G', "winged goomba", [180, 80, 40], Enemy),
    info(b'k', "green koopa", [30, 140, 30], Enemy),
    info(b'K', "winged green koopa", [60, 160, 60], Enemy),
    info(b'r', "red koopa", [200, 30, 30], Enemy),
    info(b'R', "winged red koopa", [220, 60, 60], Enemy),
    info(b'y', "spiky", [120, 0, 120], Enemy),
    info(b'Y', "winged spiky", [150, 30, 150], Enemy),
];

/// Table from byte to legend id (`0` = empty for every unknown byte).
fn table() -> &'static [TileId; 256] {
    static TABLE: OnceLock<[TileId; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0; 256];
        for (i, c) in CHARS.iter().enumerate() {
            t[c.ch as usize] = i as TileId;
        }
        t
    })
}

/// The legend id of a level char (unknown chars are empty, as in the engine).
#[inline]
pub fn id_of(ch: u8) -> TileId {
    table()[ch as usize]
}

/// The legend entry of a level char.
#[inline]
pub fn info_of(ch: u8) -> &'static CharInfo {
    &CHARS[id_of(ch) as usize]
}

/// The movement class of a level char.
#[inline]
pub fn class_of(ch: u8) -> TileClass {
    info_of(ch).class
}

/// Whether `ch` is one of the legend's chars (other than by falling back to empty).
pub fn is_level_char(ch: u8) -> bool {
    ch == b'-' || id_of(ch) != 0
}

/// The shared [`Legend`] of every Mario level.
pub fn legend() -> &'static Legend {
    static LEGEND: OnceLock<Legend> = OnceLock::new();
    LEGEND.get_or_init(|| {
        Legend::new(
            CHARS
                .iter()
                .map(|c| TileKind::new(c.name, c.ch as char, c.color))
                .collect(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_covers_the_framework_chars() {
        for ch in b"-MFX#%|*Bb?@Q!12DSCULotT<>[]gEGkKrRyY" {
            assert!(is_level_char(*ch), "{}", *ch as char);
        }
        assert!(!is_level_char(b'z'));
        assert_eq!(class_of(b'%'), TileClass::Platform);
        assert_eq!(class_of(b'y'), TileClass::Enemy);
        assert_eq!(class_of(b'X'), TileClass::Solid);
        assert_eq!(class_of(b'z'), TileClass::Empty);
        assert_eq!(legend().len(), CHARS.len());
    }
}
