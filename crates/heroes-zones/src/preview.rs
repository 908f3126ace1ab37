//! PNG preview: zone surfaces, obstacles by feature (grey-brown mountains and ridges, dark
//! green forests), black borders, roads, objects (castles by
//! owner colour, mines, visitables, portals, treasures, guards) and passages at a glance.
//!
//! [`Options::footprints`] draws the `.hmm`'s obstacle objects instead: each avatar over its
//! footprint in its own shade, outlined, so multi-cell pieces show; [`Options::legend`] adds
//! a strip naming the colours (in a built-in 3x5 pixel font).

use crate::map::{Cell, Feature, HeroesMap, ObjectKind};
use grid_core::export::encode_png;

/// Player colours (neutral, red, green, blue, cyan, magenta, yellow).
const PLAYERS: [[u8; 3]; 7] = [
    [112, 128, 144],
    [230, 30, 30],
    [30, 200, 30],
    [40, 80, 255],
    [0, 220, 220],
    [220, 0, 220],
    [255, 230, 0],
];

fn shade(c: [u8; 3], f: f32) -> [u8; 3] {
    c.map(|v| (v as f32 * f).clamp(0.0, 255.0) as u8)
}

/// `a` blended with `b` by `t` (0 = all `a`).
fn mix(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    [0, 1, 2].map(|k| (a[k] as f32 * (1.0 - t) + b[k] as f32 * t) as u8)
}

/// Mountains and ridges: grey-brown rock; forests: dark green; both tinted by the surface.
fn obstacle(base: [u8; 3], feature: Feature) -> [u8; 3] {
    match feature {
        Feature::Forest => mix(base, [20, 90, 30], 0.8),
        Feature::Ridge | Feature::Mountain | Feature::None => mix(base, [105, 80, 60], 0.8),
    }
}

/// What a preview shows besides the cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Draw every obstacle avatar over its footprint, shaded and outlined per piece.
    pub footprints: bool,
    /// Add a legend strip under the map.
    pub legend: bool,
}

/// RGB pixels of the preview, `scale` pixels per cell: `(width, height, pixels)`.
pub fn render(map: &HeroesMap, scale: usize) -> (u32, u32, Vec<u8>) {
    render_with(map, scale, Options::default())
}

/// [`render`] with [`Options`].
pub fn render_with(map: &HeroesMap, scale: usize, opts: Options) -> (u32, u32, Vec<u8>) {
    let n = map.size;
    let s = scale.max(1);
    let mut col = vec![[0u8; 3]; n * n];
    for y in 0..n {
        for x in 0..n {
            let i = y * n + x;
            let base = map.surface_at(x, y).color();
            let lift = |c: [u8; 3]| c.map(|v| v / 2 + 90);
            col[i] = match map.cell(i) {
                Cell::Free | Cell::Approach => lift(base),
                Cell::Obstacle => obstacle(base, map.feature(i)),
                Cell::Edge => [20, 20, 20],
                Cell::Building | Cell::Entrance => [150, 40, 40],
                Cell::Road => [150, 110, 60],
                Cell::Passage => [30, 120, 255],
                Cell::Guard => [170, 40, 220],
                Cell::Treasure => [255, 200, 40],
            };
        }
    }
    for o in &map.objects {
        let i = o.y as usize * n + o.x as usize;
        let c = match &o.kind {
            ObjectKind::Castle { player, .. } => PLAYERS[(*player + 1).clamp(0, 6) as usize],
            ObjectKind::Mine { .. } => [120, 70, 20],
            ObjectKind::Visitable { .. } => [0, 170, 150],
            ObjectKind::Portal { .. } => [255, 0, 200],
            _ => continue,
        };
        // Paint the object's whole footprint.
        let fp = match &o.kind {
            ObjectKind::Castle { id, .. }
            | ObjectKind::Mine { id, .. }
            | ObjectKind::Visitable { id }
            | ObjectKind::Portal { id, .. } => crate::hmm::ids::footprint(id).unwrap_or(&[(0, 0)]),
            _ => &[(0, 0)],
        };
        for &(dx, dy) in fp {
            let (x, y) = (o.x as i64 + dx as i64, o.y as i64 + dy as i64);
            if x >= 0 && y >= 0 && (x as usize) < n && (y as usize) < n {
                col[y as usize * n + x as usize] = c;
            }
        }
        col[i] = shade(c, 1.3);
    }
    let mut piece = vec![0u32; n * n];
    if opts.footprints {
        for (k, d) in map.decorations.iter().enumerate() {
            let anchor = d.y as usize * n + d.x as usize;
            let tone = 0.8 + 0.35 * (grid_core::rng::mix64(k as u64) % 8) as f32 / 7.0;
            let c = shade(
                obstacle(
                    map.surface_at(d.x as usize, d.y as usize).color(),
                    map.feature(anchor),
                ),
                tone,
            );
            for &(dx, dy) in d.footprint() {
                let (x, y) = (d.x as i64 + dx as i64, d.y as i64 + dy as i64);
                if x >= 0 && y >= 0 && (x as usize) < n && (y as usize) < n {
                    let i = y as usize * n + x as usize;
                    col[i] = c;
                    piece[i] = k as u32 + 1;
                }
            }
        }
    }
    let (w, map_h) = (n * s, n * s);
    let strip = if opts.legend { legend_height(w) } else { 0 };
    let h = map_h + strip;
    let mut px = vec![255u8; w * h * 3];
    for y in 0..map_h {
        for x in 0..w {
            let i = (y / s) * n + x / s;
            let mut c = col[i];
            // Outline pieces: the first pixel row and column of a cell whose left or upper
            // neighbour is another piece (or not one).
            if opts.footprints && s >= 3 && piece[i] != 0 {
                let left = x % s == 0 && x / s > 0 && piece[i - 1] != piece[i];
                let up = y % s == 0 && y / s > 0 && piece[i - n] != piece[i];
                if left || up {
                    c = shade(c, 0.45);
                }
            }
            px[(y * w + x) * 3..(y * w + x) * 3 + 3].copy_from_slice(&c);
        }
    }
    if opts.legend {
        draw_legend(&mut px, w, map_h);
    }
    (w as u32, h as u32, px)
}

/// The legend's entries: colour and name.
pub const LEGEND: [([u8; 3], &str); 12] = [
    ([200, 200, 160], "OPEN GROUND"),
    ([105, 80, 60], "MOUNTAIN RIDGE"),
    ([20, 90, 30], "FOREST"),
    ([20, 20, 20], "ZONE BORDER"),
    ([150, 110, 60], "ROAD"),
    ([30, 120, 255], "PASSAGE"),
    ([170, 40, 220], "GUARD"),
    ([255, 200, 40], "TREASURE"),
    ([230, 30, 30], "CASTLE BY OWNER"),
    ([120, 70, 20], "MINE"),
    ([0, 170, 150], "VISITABLE"),
    ([255, 0, 200], "PORTAL"),
];

/// 3x5 glyphs of `A`..`Z`, rows top to bottom, 3 bits each (left bit first).
const GLYPHS: [u16; 26] = [
    0b010_101_111_101_101,
    0b110_101_110_101_110,
    0b011_100_100_100_011,
    0b110_101_101_101_110,
    0b111_100_110_100_111,
    0b111_100_110_100_100,
    0b011_100_101_101_011,
    0b101_101_111_101_101,
    0b111_010_010_010_111,
    0b001_001_001_101_010,
    0b101_101_110_101_101,
    0b100_100_100_100_111,
    0b101_111_111_101_101,
    0b110_101_101_101_101,
    0b010_101_101_101_010,
    0b110_101_110_100_100,
    0b010_101_101_110_011,
    0b110_101_110_101_101,
    0b011_100_010_001_110,
    0b111_010_010_010_010,
    0b101_101_101_101_111,
    0b101_101_101_101_010,
    0b101_101_111_111_101,
    0b101_101_010_101_101,
    0b101_101_010_010_010,
    0b111_001_010_100_111,
];

/// Pixels per font pixel, legend row height and column width.
const DOT: usize = 2;
const ROW: usize = 16;
const COLUMN: usize = 170;

fn legend_height(w: usize) -> usize {
    let cols = (w / COLUMN).max(1);
    LEGEND.len().div_ceil(cols) * ROW + 8
}

fn draw_legend(px: &mut [u8], w: usize, top: usize) {
    let cols = (w / COLUMN).max(1);
    let mut put = |x: usize, y: usize, c: [u8; 3]| {
        if x < w && (y * w + x) * 3 + 3 <= px.len() {
            px[(y * w + x) * 3..(y * w + x) * 3 + 3].copy_from_slice(&c);
        }
    };
    for (k, (colour, name)) in LEGEND.iter().enumerate() {
        let (x0, y0) = ((k % cols) * COLUMN + 6, top + 6 + (k / cols) * ROW);
        for y in 0..10 {
            for x in 0..10 {
                let edge = x == 0 || y == 0 || x == 9 || y == 9;
                put(x0 + x, y0 + y, if edge { [0, 0, 0] } else { *colour });
            }
        }
        for (j, ch) in name.bytes().enumerate() {
            let Some(g) = ch.checked_sub(b'A').and_then(|i| GLYPHS.get(i as usize)) else {
                continue;
            };
            let gx = x0 + 16 + j * 4 * DOT;
            for row in 0..5 {
                for col in 0..3 {
                    if g >> (14 - (row * 3 + col)) & 1 == 1 {
                        for d in 0..DOT * DOT {
                            put(
                                gx + col * DOT + d % DOT,
                                y0 + row * DOT + d / DOT,
                                [0, 0, 0],
                            );
                        }
                    }
                }
            }
        }
    }
}

/// PNG bytes of the preview (4 px per cell up to 128, 2 px at 256).
pub fn png(map: &HeroesMap) -> Result<Vec<u8>, String> {
    png_with(map, Options::default())
}

/// [`png`] with [`Options`].
pub fn png_with(map: &HeroesMap, opts: Options) -> Result<Vec<u8>, String> {
    let scale = if map.size >= 256 {
        2
    } else {
        512 / map.size.max(1)
    }
    .clamp(2, 8);
    let (w, h, px) = render_with(map, scale, opts);
    encode_png(w, h, &px)
}
