use crate::tile::TileMap;

/// How [`to_json`] writes tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JsonTiles {
    /// Rows of tile names (`[["wall", "empty"], ...]`): readable, self-describing.
    #[default]
    Names,
    /// Rows of legend ids (`[[1, 0], ...]`): compact.
    Ids,
}

/// The map as JSON: `{"height", "legend": [{"char", "color", "id", "name"}], "rows",
/// "width"}` (keys in that order, compact), colours as `"#rrggbb"`.
///
/// Written straight into one buffer: each tile name is escaped once per legend entry, and a
/// row is the names (or ids) copied in, with no JSON value built per tile.
pub fn to_json(map: &(impl TileMap + ?Sized), tiles: JsonTiles) -> String {
    let legend = map.legend();
    let quoted = |t: &str| serde_json::to_string(t).expect("strings always serialise");
    let cells: Vec<String> = legend
        .kinds()
        .iter()
        .enumerate()
        .map(|(id, k)| match tiles {
            JsonTiles::Names => quoted(&k.name),
            JsonTiles::Ids => id.to_string(),
        })
        .collect();
    let (w, h) = (map.width(), map.height());
    let widest = cells.iter().map(String::len).max().unwrap_or(4);
    let mut s = String::with_capacity(64 * cells.len() + h * (2 + w * (widest + 1)) + 64);
    s.push_str(&format!("{{\"height\":{h},\"legend\":["));
    for (id, k) in legend.kinds().iter().enumerate() {
        if id > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            "{{\"char\":{},\"color\":\"#{:02x}{:02x}{:02x}\",\"id\":{id},\"name\":{}}}",
            quoted(&k.ch.to_string()),
            k.color[0],
            k.color[1],
            k.color[2],
            quoted(&k.name)
        ));
    }
    s.push_str("],\"rows\":[");
    for y in 0..h {
        if y > 0 {
            s.push(',');
        }
        s.push('[');
        for x in 0..w {
            if x > 0 {
                s.push(',');
            }
            match cells.get(map.tile(x, y) as usize) {
                Some(c) => s.push_str(c),
                // An id outside the legend: its number, or the name the map gives it.
                None => match tiles {
                    JsonTiles::Names => s.push_str(&quoted(map.tile_name(x, y))),
                    JsonTiles::Ids => s.push_str(&map.tile(x, y).to_string()),
                },
            }
        }
        s.push(']');
    }
    s.push_str(&format!("],\"width\":{w}}}\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{Legend, TileGrid, TileKind};
    use serde_json::{Value, json};

    /// The document as `serde_json` writes it from values (the way this function wrote it
    /// before it wrote straight into a buffer).
    fn through_values(map: &TileGrid, tiles: JsonTiles) -> String {
        let legend: Vec<Value> = map
            .legend
            .kinds()
            .iter()
            .enumerate()
            .map(|(id, k)| {
                json!({"id": id, "name": k.name, "char": k.ch.to_string(),
                    "color": format!("#{:02x}{:02x}{:02x}", k.color[0], k.color[1], k.color[2])})
            })
            .collect();
        let rows: Vec<Value> = (0..map.height())
            .map(|y| {
                Value::Array(
                    (0..map.width())
                        .map(|x| match tiles {
                            JsonTiles::Names => Value::from(map.tile_name(x, y)),
                            JsonTiles::Ids => Value::from(map.tile(x, y)),
                        })
                        .collect(),
                )
            })
            .collect();
        let doc =
            json!({"width": map.width(), "height": map.height(), "legend": legend, "rows": rows});
        serde_json::to_string(&doc).unwrap() + "\n"
    }

    #[test]
    fn the_buffer_writer_matches_serde_json_byte_for_byte() {
        let legend = Legend::new(vec![
            TileKind::new("empty", '.', [255, 255, 255]),
            TileKind::new("wall \"x\"\\é\u{1}", '"', [1, 2, 3]),
            TileKind::new("gold", '\\', [250, 200, 0]),
        ]);
        let map = TileGrid::from_text(".\"\\\n\\..\n", legend).unwrap();
        for tiles in [JsonTiles::Names, JsonTiles::Ids] {
            assert_eq!(
                to_json(&map, tiles),
                through_values(&map, tiles),
                "{tiles:?}"
            );
        }
        let empty = TileGrid::new(0, 0, 0, map.legend.clone());
        assert_eq!(
            to_json(&empty, JsonTiles::Names),
            through_values(&empty, JsonTiles::Names)
        );
    }
}
