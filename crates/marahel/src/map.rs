//! The generated map: entity codes in a flat buffer, with a legend of distinct colours and
//! characters. Implements [`grid_core::TileMap`], so every export works on it.

use crate::program::Program;
use grid_core::{Legend, Rect, TileId, TileKind, TileMap};
use std::sync::Arc;

/// A generated Marahel map.
///
/// Tile id `i < entities` is entity `i` of the script; then come `unknown` (a cell no
/// explorer wrote) and `out` (written only by an executer that writes `out`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarahelMap {
    width: usize,
    height: usize,
    /// Cell codes, row-major.
    pub cells: Vec<u8>,
    legend: Arc<Legend>,
    /// Things the engine had to skip (a region the map was too small for, an unreachable
    /// connect waypoint). Empty for a normal run.
    pub warnings: Vec<String>,
    /// The divider's regions on this map, in divider order (what `"0"`, `"1"`, ... name).
    pub regions: Vec<Rect>,
}

/// Well-known names get conventional glyphs and colours.
const KNOWN: [(&str, char, [u8; 3]); 17] = [
    ("solid", '#', [40, 40, 48]),
    ("wall", '#', [40, 40, 48]),
    ("empty", '.', [236, 230, 214]),
    ("floor", '.', [236, 230, 214]),
    ("player", '@', [40, 170, 60]),
    ("enemy", 'E', [210, 50, 50]),
    ("treasure", '$', [240, 200, 40]),
    ("exit", '>', [60, 110, 230]),
    ("key", 'k', [230, 140, 30]),
    ("water", '~', [50, 120, 220]),
    ("lava", '%', [230, 90, 20]),
    ("door", '+', [150, 90, 40]),
    ("grass", '"', [110, 190, 80]),
    ("tree", 'T', [30, 110, 40]),
    ("rock", '*', [120, 120, 120]),
    ("coin", 'c', [250, 220, 60]),
    ("gold", 'g', [255, 200, 0]),
];

/// A palette of distinct colours for other names.
const PALETTE: [[u8; 3]; 12] = [
    [230, 25, 75],
    [60, 180, 75],
    [0, 130, 200],
    [245, 130, 48],
    [145, 30, 180],
    [70, 240, 240],
    [240, 50, 230],
    [210, 245, 60],
    [0, 128, 128],
    [170, 110, 40],
    [128, 0, 0],
    [0, 0, 128],
];

/// The legend of a program: its entities, then `unknown` and `out`.
pub fn legend(p: &Program) -> Legend {
    let mut used_ch: Vec<char> = vec!['?', ' '];
    let mut used_col: Vec<[u8; 3]> = vec![[255, 0, 255], [0, 0, 0]];
    let mut kinds = Vec::new();
    let mut next_palette = 0;
    for e in &p.entities {
        let known = KNOWN.iter().find(|k| k.0 == e.name);
        let mut ch = known.map(|k| k.1).filter(|c| !used_ch.contains(c));
        if ch.is_none() {
            let first = e.name.chars().next().unwrap_or('x');
            ch = [first.to_ascii_lowercase(), first.to_ascii_uppercase()]
                .into_iter()
                .chain(e.name.chars().skip(1))
                .chain("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".chars())
                .chain((0xC0u32..0x2000).filter_map(char::from_u32))
                .find(|c| c.is_alphanumeric() && !used_ch.contains(c));
        }
        let ch = ch.unwrap_or('?');
        let mut color = e
            .color
            .or(known.map(|k| k.2))
            .filter(|c| !used_col.contains(c));
        while color.is_none() {
            let base = PALETTE[next_palette % PALETTE.len()];
            let round = (next_palette / PALETTE.len()) as u8;
            let c = [
                base[0].wrapping_add(round.wrapping_mul(37)),
                base[1].wrapping_add(round.wrapping_mul(71)),
                base[2].wrapping_add(round.wrapping_mul(113)),
            ];
            next_palette += 1;
            if !used_col.contains(&c) {
                color = Some(c);
            }
        }
        let color = color.expect("picked");
        used_ch.push(ch);
        used_col.push(color);
        kinds.push(TileKind::new(e.name.clone(), ch, color));
    }
    kinds.push(TileKind::new("unknown", '?', [255, 0, 255]));
    kinds.push(TileKind::new("out", ' ', [0, 0, 0]));
    Legend::new(kinds)
}

impl MarahelMap {
    pub(crate) fn new(
        p: &Program,
        (width, height): (usize, usize),
        cells: Vec<u8>,
        warnings: Vec<String>,
        regions: Vec<Rect>,
    ) -> Self {
        Self {
            width,
            height,
            cells,
            legend: p.legend.clone(),
            warnings,
            regions,
        }
    }

    /// The entity name at `(x, y)` (`"unknown"`/`"out"` for those values).
    pub fn name(&self, x: usize, y: usize) -> &str {
        self.tile_name(x, y)
    }

    /// Number of cells holding the entity (or `unknown`/`out`) called `name`.
    pub fn count(&self, name: &str) -> usize {
        match self.legend.id_of(name) {
            Some(id) => self.cells.iter().filter(|&&c| c as TileId == id).count(),
            None => 0,
        }
    }
}

impl TileMap for MarahelMap {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.height
    }
    #[inline]
    fn tile(&self, x: usize, y: usize) -> TileId {
        self.cells[y * self.width + x] as TileId
    }
    fn legend(&self) -> &Legend {
        &self.legend
    }
}
