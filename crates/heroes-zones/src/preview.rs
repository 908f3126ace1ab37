//! PNG preview: zone surfaces, obstacles by feature (grey-brown mountains and ridges, dark
//! green forests), black borders, roads, objects (castles by
//! owner colour, mines, visitables, portals, treasures, guards) and passages at a glance.

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

/// RGB pixels of the preview, `scale` pixels per cell: `(width, height, pixels)`.
pub fn render(map: &HeroesMap, scale: usize) -> (u32, u32, Vec<u8>) {
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
    let (w, h) = (n * s, n * s);
    let mut px = vec![0u8; w * h * 3];
    for y in 0..h {
        for x in 0..w {
            let c = col[(y / s) * n + x / s];
            px[(y * w + x) * 3..(y * w + x) * 3 + 3].copy_from_slice(&c);
        }
    }
    (w as u32, h as u32, px)
}

/// PNG bytes of the preview (4 px per cell up to 128, 2 px at 256).
pub fn png(map: &HeroesMap) -> Result<Vec<u8>, String> {
    let scale = if map.size >= 256 {
        2
    } else {
        512 / map.size.max(1)
    }
    .clamp(2, 8);
    let (w, h, px) = render(map, scale);
    encode_png(w, h, &px)
}
