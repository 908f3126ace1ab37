use crate::tile::TileMap;
use serde_json::{Value, json};

/// How [`to_json`] writes tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JsonTiles {
    /// Rows of tile names (`[["wall", "empty"], ...]`): readable, self-describing.
    #[default]
    Names,
    /// Rows of legend ids (`[[1, 0], ...]`): compact.
    Ids,
}

/// The map as JSON: `{"width", "height", "legend": [{"id", "name", "char", "color"}], "rows"}`,
/// colours as `"#rrggbb"`.
pub fn to_json(map: &(impl TileMap + ?Sized), tiles: JsonTiles) -> String {
    let legend = map.legend();
    let legend_json: Vec<Value> = legend
        .kinds()
        .iter()
        .enumerate()
        .map(|(id, k)| {
            json!({
                "id": id,
                "name": k.name,
                "char": k.ch.to_string(),
                "color": format!("#{:02x}{:02x}{:02x}", k.color[0], k.color[1], k.color[2]),
            })
        })
        .collect();
    let rows: Vec<Value> = (0..map.height())
        .map(|y| {
            let row = (0..map.width()).map(|x| match tiles {
                JsonTiles::Names => Value::from(map.tile_name(x, y)),
                JsonTiles::Ids => Value::from(map.tile(x, y)),
            });
            Value::Array(row.collect())
        })
        .collect();
    let doc = json!({
        "width": map.width(),
        "height": map.height(),
        "legend": legend_json,
        "rows": rows,
    });
    let mut s = serde_json::to_string(&doc).expect("JSON values always serialise");
    s.push('\n');
    s
}
