//! Tiles, legends and [`TileMap`], the one trait every generator's output implements.

use crate::grid::Grid;
use serde::{Deserialize, Serialize};

/// A tile id: an index into a map's [`Legend`]. Maps are flat buffers of these.
pub type TileId = u16;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// What a tile id means: its name, and how to show it as text and in pictures.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TileKind {
    /// The tile's name in its generator's language (`"wall"`, `"empty"`, `"coin"`).
    pub name: String,
    /// One character for text output.
    pub ch: char,
    /// Colour for PNG previews and generated tilesets.
    pub color: Rgb,
}

impl TileKind {
    /// A tile kind.
    pub fn new(name: impl Into<String>, ch: char, color: Rgb) -> Self {
        Self {
            name: name.into(),
            ch,
            color,
        }
    }
}

/// The meaning of every tile id of a map: `legend[id]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Legend {
    kinds: Vec<TileKind>,
}

impl Legend {
    /// A legend from its kinds, in id order.
    pub fn new(kinds: Vec<TileKind>) -> Self {
        Self { kinds }
    }

    /// Appends a kind and returns its id.
    pub fn push(&mut self, kind: TileKind) -> TileId {
        self.kinds.push(kind);
        (self.kinds.len() - 1) as TileId
    }

    /// The kind of `id`, if the legend has it.
    pub fn get(&self, id: TileId) -> Option<&TileKind> {
        self.kinds.get(id as usize)
    }

    /// The id of the kind named `name`.
    pub fn id_of(&self, name: &str) -> Option<TileId> {
        self.kinds
            .iter()
            .position(|k| k.name == name)
            .map(|i| i as TileId)
    }

    /// Number of kinds.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether the legend is empty.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// All kinds in id order.
    pub fn kinds(&self) -> &[TileKind] {
        &self.kinds
    }

    /// Colour of `id`; magenta for ids the legend lacks, so mistakes are visible.
    pub fn color(&self, id: TileId) -> Rgb {
        self.get(id).map_or([255, 0, 255], |k| k.color)
    }

    /// Character of `id`; `'?'` for ids the legend lacks.
    pub fn ch(&self, id: TileId) -> char {
        self.get(id).map_or('?', |k| k.ch)
    }
}

/// A 2D tile map: what every generator produces, and all exports and analysis consume.
///
/// Implement it for your own map type to use levelgen's exporters and metrics on it
/// (the idea of bracket-lib's `BaseMap`). Only [`TileMap::width`], [`TileMap::height`],
/// [`TileMap::tile`] and [`TileMap::legend`] are required.
pub trait TileMap {
    /// Number of columns.
    fn width(&self) -> usize;
    /// Number of rows.
    fn height(&self) -> usize;
    /// The tile id at `(x, y)`; callers keep `x < width()` and `y < height()`.
    fn tile(&self, x: usize, y: usize) -> TileId;
    /// What each tile id means.
    fn legend(&self) -> &Legend;

    /// The tile's name at `(x, y)` (`"?"` for an id outside the legend).
    fn tile_name(&self, x: usize, y: usize) -> &str {
        self.legend()
            .get(self.tile(x, y))
            .map_or("?", |k| k.name.as_str())
    }

    /// Copies the map into a [`TileGrid`].
    fn to_tile_grid(&self) -> TileGrid {
        TileGrid {
            tiles: Grid::from_fn(self.width(), self.height(), |x, y| self.tile(x, y)),
            legend: self.legend().clone(),
        }
    }
}

impl<M: TileMap + ?Sized> TileMap for &M {
    fn width(&self) -> usize {
        (**self).width()
    }
    fn height(&self) -> usize {
        (**self).height()
    }
    fn tile(&self, x: usize, y: usize) -> TileId {
        (**self).tile(x, y)
    }
    fn legend(&self) -> &Legend {
        (**self).legend()
    }
}

/// The plain map: a flat grid of tile ids plus its legend.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileGrid {
    /// The tile ids, row-major.
    pub tiles: Grid<TileId>,
    /// What the ids mean.
    pub legend: Legend,
}

impl TileGrid {
    /// A map filled with `fill`.
    pub fn new(width: usize, height: usize, fill: TileId, legend: Legend) -> Self {
        Self {
            tiles: Grid::new(width, height, fill),
            legend,
        }
    }

    /// Parses a text map: one char per tile, chars looked up in `legend`.
    /// Returns the 1-based `(line, column)` of the first unknown char or ragged row as `Err`.
    pub fn from_text(text: &str, legend: Legend) -> Result<Self, (usize, usize)> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        let width = lines.first().map_or(0, |l| l.chars().count());
        let mut cells = Vec::with_capacity(width * lines.len());
        for (row, line) in lines.iter().enumerate() {
            let mut n = 0;
            for (col, c) in line.chars().enumerate() {
                let id = legend
                    .kinds()
                    .iter()
                    .position(|k| k.ch == c)
                    .ok_or((row + 1, col + 1))?;
                cells.push(id as TileId);
                n += 1;
            }
            if n != width {
                return Err((row + 1, n.min(width) + 1));
            }
        }
        let height = lines.len();
        Ok(Self {
            tiles: Grid::from_vec(width, height, cells).ok_or((1, 1))?,
            legend,
        })
    }
}

impl TileMap for TileGrid {
    fn width(&self) -> usize {
        self.tiles.width()
    }
    fn height(&self) -> usize {
        self.tiles.height()
    }
    #[inline]
    fn tile(&self, x: usize, y: usize) -> TileId {
        *self.tiles.at(x, y)
    }
    fn legend(&self) -> &Legend {
        &self.legend
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legend() -> Legend {
        Legend::new(vec![
            TileKind::new("empty", '.', [255, 255, 255]),
            TileKind::new("wall", '#', [0, 0, 0]),
        ])
    }

    #[test]
    fn legend_lookup() {
        let l = legend();
        assert_eq!(l.id_of("wall"), Some(1));
        assert_eq!(l.id_of("lava"), None);
        assert_eq!(l.ch(1), '#');
        assert_eq!(l.color(9), [255, 0, 255]);
    }

    #[test]
    fn text_parse_and_errors() {
        let m = TileGrid::from_text("#.#\n...\n", legend()).unwrap();
        assert_eq!((m.width(), m.height()), (3, 2));
        assert_eq!(m.tile_name(0, 0), "wall");
        assert_eq!(m.tile_name(1, 1), "empty");
        assert_eq!(TileGrid::from_text("#.#\n.x.\n", legend()), Err((2, 2)));
        assert_eq!(TileGrid::from_text("#.#\n..\n", legend()), Err((2, 3)));
    }
}
