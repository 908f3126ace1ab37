use crate::tile::{Legend, TileMap};

/// The map as text: one char per tile, one line per row, each line ending in `\n`.
pub fn to_text(map: &(impl TileMap + ?Sized)) -> String {
    let (w, h) = (map.width(), map.height());
    let legend = map.legend();
    let mut s = String::with_capacity((w + 1) * h);
    for y in 0..h {
        for x in 0..w {
            s.push(legend.ch(map.tile(x, y)));
        }
        s.push('\n');
    }
    s
}

/// The legend as text: one `c name` line per tile kind.
pub fn legend_text(legend: &Legend) -> String {
    legend
        .kinds()
        .iter()
        .map(|k| format!("{} {}\n", k.ch, k.name))
        .collect()
}
