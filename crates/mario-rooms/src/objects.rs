//! A level's entities as objects, for the object layers of TMX and JSON output
//! (`grid_core::export::to_tmx_with_objects`, `to_json_with_objects`): Tiled and game
//! engines read Mario's start, the exit and the enemies as objects with a position rather
//! than as tiles. The tiles stay in the tile layer as they are.
//!
//! - Mario's start `M`: kind `player`, name `mario start`;
//! - the exit `F`: kind `exit`, name `exit flag`;
//! - every enemy char (`g E G k K r R y Y`): kind `enemy`, named by the legend
//!   (`goomba`, `winged red koopa`, ...);
//! - a piranha plant: kind `enemy`, name `piranha plant`, at the top-left `T` of a pipe
//!   two or more columns wide, the one cell where the framework spawns the plant
//!   (`engine/core/MarioLevel.java`: a one-column `T` pipe has none).
//!
//! ```
//! let level = mario_rooms::MarioLevel::parse("l", "----TT-\nM-g-TTF\nXXXXXXX").unwrap();
//! let objects = mario_rooms::objects::objects(&level);
//! let names: Vec<&str> = objects.iter().map(|o| o.name.as_str()).collect();
//! assert_eq!(names, ["piranha plant", "mario start", "goomba", "exit flag"]);
//! assert_eq!((objects[0].x, objects[0].y, objects[0].kind.as_str()), (4, 0, "enemy"));
//! ```

use crate::level::MarioLevel;
use crate::tiles::{TileClass, class_of, info_of};
use grid_core::export::MapObject;

/// The name of a piranha plant's object.
pub const PIRANHA: &str = "piranha plant";

/// The kind (Tiled's object type) of the entity at `(x, y)`, if one is there.
fn kind_at(level: &MarioLevel, x: usize, y: usize) -> Option<&'static str> {
    let c = level.get(x, y);
    match c {
        b'M' => Some("player"),
        b'F' => Some("exit"),
        b'T' if plant_at(level, x, y) => Some("enemy"),
        _ if class_of(c) == TileClass::Enemy => Some("enemy"),
        _ => None,
    }
}

/// Whether the framework spawns a piranha plant at `(x, y)`: the top-left cell of a `T`
/// pipe with a pipe column to its right.
fn plant_at(level: &MarioLevel, x: usize, y: usize) -> bool {
    let pipe = |x: usize, y: usize| matches!(level.get(x, y), b't' | b'T');
    let left = x > 0 && (pipe(x - 1, y) || matches!(level.get(x - 1, y), b'<' | b'['));
    let above = y > 0 && pipe(x, y - 1);
    let right = x + 1 < level.width() && pipe(x + 1, y);
    level.get(x, y) == b'T' && right && !left && !above
}

/// Every entity of `level` as an object, in row-major order (module docs).
pub fn objects(level: &MarioLevel) -> Vec<MapObject> {
    let mut out = Vec::new();
    for y in 0..level.height() {
        for x in 0..level.width() {
            if let Some(kind) = kind_at(level, x, y) {
                let c = level.get(x, y);
                let name = if c == b'T' { PIRANHA } else { info_of(c).name };
                out.push(MapObject {
                    name: name.to_string(),
                    kind: kind.to_string(),
                    x,
                    y,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_plant_per_wide_piranha_pipe_and_none_for_a_single_column() {
        let l = MarioLevel::parse("l", "--TT--T--\n--TT--T--\nM-TT-yT-F\nXXXXXXXXX").unwrap();
        let o = objects(&l);
        let plants: Vec<(usize, usize)> = o
            .iter()
            .filter(|o| o.name == PIRANHA)
            .map(|o| (o.x, o.y))
            .collect();
        assert_eq!(plants, [(2, 0)]);
        assert_eq!(o.iter().filter(|o| o.kind == "enemy").count(), 2);
        assert!(o.iter().any(|o| o.name == "spiky" && (o.x, o.y) == (5, 2)));
        assert_eq!(
            o.iter()
                .filter(|o| o.kind == "player" || o.kind == "exit")
                .count(),
            2
        );
    }
}
