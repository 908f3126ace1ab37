//! A generated window of zones ([`ZoneWorld`]) and its cell-level map.

use super::{Mode, ZoneRect};
use crate::state::ZoneState;
use grid_core::{Grid, Legend, TileId, TileKind, TileMap};

/// The legend of the cell-level map: 0 off, 1 on.
pub fn cell_legend() -> Legend {
    Legend::new(vec![
        TileKind::new("off", '.', [245, 245, 245]),
        TileKind::new("on", '#', [30, 30, 30]),
    ])
}

/// A generated window of zones.
///
/// As a [`TileMap`] it is the **cell-level** on/off map: `3 * width x 3 * height` tiles,
/// 0 = off, 1 = on (in seamless mode shared border cells appear in both zones).
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneWorld {
    /// Zone coordinates of the top-left zone.
    pub origin: (i64, i64),
    /// Zone side in pixels.
    pub zone_size: u32,
    /// The mode that made it.
    pub mode: Mode,
    /// One state per zone.
    pub states: Grid<ZoneState>,
    legend: Legend,
}

impl ZoneWorld {
    /// A world from a grid of states (for exports of states made elsewhere).
    pub fn from_states(
        origin: (i64, i64),
        zone_size: u32,
        mode: Mode,
        states: Grid<ZoneState>,
    ) -> Self {
        Self {
            origin,
            zone_size,
            mode,
            states,
            legend: cell_legend(),
        }
    }

    /// Zones across.
    pub fn zones_wide(&self) -> usize {
        self.states.width()
    }

    /// Zones down.
    pub fn zones_high(&self) -> usize {
        self.states.height()
    }

    /// Cells on (wall) over every zone's 3x3 pattern.
    pub fn on_cells(&self) -> u64 {
        self.states
            .as_slice()
            .iter()
            .map(|s| u64::from(s.on_count()))
            .sum()
    }

    /// The share of the world's cells that are on (wall), in `[0, 1]`.
    pub fn on_share(&self) -> f64 {
        self.on_cells() as f64 / (9 * self.states.as_slice().len()).max(1) as f64
    }

    /// The sub-window `rect` (in this world's zone coordinates), if it lies inside.
    pub fn sub_window(&self, rect: ZoneRect) -> Option<Grid<ZoneState>> {
        let dx = usize::try_from(rect.x - self.origin.0).ok()?;
        let dy = usize::try_from(rect.y - self.origin.1).ok()?;
        let (w, h) = (rect.width as usize, rect.height as usize);
        if dx + w > self.zones_wide() || dy + h > self.zones_high() {
            return None;
        }
        Some(Grid::from_fn(w, h, |x, y| *self.states.at(dx + x, dy + y)))
    }
}

impl TileMap for ZoneWorld {
    fn width(&self) -> usize {
        self.states.width() * 3
    }
    fn height(&self) -> usize {
        self.states.height() * 3
    }
    fn tile(&self, x: usize, y: usize) -> TileId {
        TileId::from(self.states.at(x / 3, y / 3).cell(x % 3, y % 3))
    }
    fn legend(&self) -> &Legend {
        &self.legend
    }
}
