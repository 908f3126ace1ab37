//! Helpers shared by the connectivity tests.

use grid_core::TileMap;
use grid_core::connectivity::{Components, Connectivity, components};
use zone_tiles::ZoneWorld;

/// The 4-connected floor areas (off cells) of a generated window.
pub fn floor_components(world: &ZoneWorld) -> Components {
    let w = world.width();
    components(w, world.height(), Connectivity::Four, |i| {
        world.tile(i % w, i / w) == 0
    })
}
