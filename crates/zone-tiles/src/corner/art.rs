//! The pixels of one corner tile: layered terrain shapes, shading, edges and variation.
//!
//! A tile's corners hold materials; each material above the lowest is a **layer** whose
//! shape is a field over the tile: the four corner indicators (corner at or above the layer)
//! blended with smoothstep weights, plus a ragged-edge noise that is periodic with the tile
//! (so the shape crossing a tile edge depends only on the two corners of that edge and
//! always meets its neighbour), plus per-variant interior noise that fades to zero at the
//! tile edges. A pixel belongs to the highest layer whose field is over [`THRESHOLD`].
//! Raised layers (walls, cliffs) also draw a front face below their top and a shadow;
//! canopies (trees) a shadow; the water draws foam along the shore.

use super::{Kind, Material};
use crate::lattice::lattice_hash;

/// Where a layer's field makes the layer: a little under a half, so two diagonal corners
/// of the same layer join through the tile centre.
pub const THRESHOLD: f64 = 0.47;

/// The smoothstep ease.
fn ease(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Value noise with `period` lattice cells per tile, periodic with the tile, in [0, 1].
fn periodic(key: u64, period: i64, u: f64, v: f64) -> f64 {
    let (x, y) = (u * period as f64, v * period as f64);
    let (ix, iy) = (x.floor() as i64, y.floor() as i64);
    let (fx, fy) = (ease(x - ix as f64), ease(y - iy as f64));
    let at = |a: i64, b: i64| {
        (lattice_hash(key, a.rem_euclid(period), b.rem_euclid(period)) >> 11) as f64
            / (1u64 << 53) as f64
    };
    let top = at(ix, iy) * (1.0 - fx) + at(ix + 1, iy) * fx;
    let bottom = at(ix, iy + 1) * (1.0 - fx) + at(ix + 1, iy + 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// A hash of a tile pixel in [0, 1) (grain; free to differ between variants).
fn grain(key: u64, x: u32, y: u32) -> f64 {
    (lattice_hash(key, i64::from(x), i64::from(y)) >> 11) as f64 / (1u64 << 53) as f64
}

fn mix(a: [u8; 3], b: [u8; 3], t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    std::array::from_fn(|i| (f64::from(a[i]) * (1.0 - t) + f64::from(b[i]) * t).round() as u8)
}

fn shade(c: [u8; 3], f: f64) -> [u8; 3] {
    std::array::from_fn(|i| (f64::from(c[i]) * f).round().clamp(0.0, 255.0) as u8)
}

/// One tile being drawn: its corners (top-left, top-right, bottom-left, bottom-right), its
/// variant and its side in pixels.
pub(super) struct TileArt {
    pub corners: [Material; 4],
    pub variant: u32,
    pub size: u32,
}

impl TileArt {
    /// The field of `layer` at tile coordinates `(u, v)` (0..1 across the tile; `v` may be
    /// above the tile for faces, where the ease holds the top edge's values).
    fn field(&self, layer: Material, u: f64, v: f64) -> f64 {
        let c = self
            .corners
            .map(|m| if m.rank() >= layer.rank() { 1.0 } else { 0.0 });
        let (sx, sy) = (ease(u), ease(v));
        let mut f =
            (c[0] * (1.0 - sx) + c[1] * sx) * (1.0 - sy) + (c[2] * (1.0 - sx) + c[3] * sx) * sy;
        let (uc, vc) = (u.clamp(0.0, 1.0), v.clamp(0.0, 1.0));
        let key = 0x6c61_7965_7200 + layer as u64;
        // Ragged edges, the same in every tile at the same place.
        f += 0.30 * (periodic(key, 4, uc, vc) - 0.5)
            + 0.12 * (periodic(key ^ 0x55, 8, uc, vc) - 0.5);
        // Diagonal corners join through the centre.
        let window = (std::f64::consts::PI * uc).sin() * (std::f64::consts::PI * vc).sin();
        if c[0] == c[3] && c[1] == c[2] && c[0] != c[1] && c[0] > 0.5 {
            f += 0.18 * window;
        }
        // Per-variant shape, zero at the tile edges.
        let vkey = key ^ ((u64::from(self.variant) + 1) * 0x9e37_79b9);
        f + 0.22 * window * (periodic(vkey, 3, uc, vc) - 0.5)
    }

    /// The layers of this tile above its lowest material, highest first.
    fn layers(&self) -> (Material, Vec<Material>) {
        let mut ms: Vec<Material> = self.corners.to_vec();
        ms.sort_by_key(|m| std::cmp::Reverse(m.rank()));
        ms.dedup();
        let lowest = ms.pop().unwrap_or(Material::Floor);
        (lowest, ms)
    }

    /// The colour of pixel `(x, y)`.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let t = f64::from(self.size);
        let (u, v) = ((f64::from(x) + 0.5) / t, (f64::from(y) + 0.5) / t);
        let (lowest, layers) = self.layers();
        let face_h = 0.28;
        let mut owner = (lowest, 1.0, None);
        let mut above: Option<(Material, f64)> = None;
        for &m in &layers {
            let f = self.field(m, u, v);
            if f > THRESHOLD {
                owner = (m, (f - THRESHOLD) / (1.0 - THRESHOLD), None);
                break;
            }
            if m.kind() == Kind::Raised && self.field(m, u, v - face_h) > THRESHOLD {
                // How far down the face this pixel is, 0 at the top edge of the face.
                let mut top = 0.0;
                while top < face_h && self.field(m, u, v - top) <= THRESHOLD {
                    top += 1.0 / t;
                }
                owner = (m, 0.0, Some(top / face_h));
                break;
            }
            above = Some((m, f));
        }
        let (m, depth, face) = owner;
        let mut c = match face {
            Some(down) => self.face(m, x, y, down),
            None => self.surface(m, x, y, u, v, depth, above),
        };
        // Shadows of raised layers and canopies above this pixel's owner, cast to the
        // lower right.
        for &l in &layers {
            if l.rank() <= m.rank() {
                break;
            }
            let reach = match l.kind() {
                Kind::Raised => face_h + 0.12,
                Kind::Canopy => 0.16,
                _ => continue,
            };
            if self.field(l, u - 0.35 * reach, v - reach) > THRESHOLD {
                c = shade(c, 0.66);
                break;
            }
        }
        c
    }

    /// The front face of a raised layer, `down` from 0 at its top to 1 at its foot.
    fn face(&self, m: Material, x: u32, y: u32, down: f64) -> [u8; 3] {
        let p = m.palette();
        let g = 0.94 + 0.08 * grain(0xface + u64::from(self.variant), x / 2, y / 2);
        let t = f64::from(self.size);
        let course = (t / 7.0).max(2.0);
        let band = (f64::from(y) / course).floor();
        let c = if m == Material::Wall {
            // Bricks in courses, offset every other course.
            let off = if band as i64 % 2 == 0 { 0.0 } else { course };
            let bx = (f64::from(x) + off) % (2.0 * course);
            let mortar = bx < 1.0 || (f64::from(y) % course) < 1.0;
            if mortar { shade(p.face, 0.8) } else { p.face }
        } else {
            // Rock strata: vertical cracks and ledges.
            let crack = periodic(0xc1ff, 6, f64::from(x) / t, 0.0) > 0.72;
            let ledge = (f64::from(y) % course) < 1.0;
            if crack || ledge {
                shade(p.face, 0.78)
            } else {
                p.face
            }
        };
        // Lit at the top, in shadow at the foot.
        shade(c, g * (1.12 - 0.42 * down))
    }

    /// The top surface of `m` at depth `depth` (0 at its edge, 1 well inside), with the
    /// layer right above it and its field (for foam and outlines).
    #[allow(clippy::too_many_arguments)]
    fn surface(
        &self,
        m: Material,
        x: u32,
        y: u32,
        u: f64,
        v: f64,
        depth: f64,
        above: Option<(Material, f64)>,
    ) -> [u8; 3] {
        let p = m.palette();
        let g = grain(0x67a1 + u64::from(self.variant) * 31 + m as u64, x, y);
        let blot = periodic(0xb107 + m as u64, 3, u, v);
        let mut c = mix(p.base, p.light, blot * 0.7);
        c = shade(c, 0.93 + 0.1 * g);
        match m.kind() {
            Kind::Raised => {
                // Dungeon walls darken into the rock; cliff tops stay light and mottled.
                c = if m == Material::Wall {
                    mix(p.base, p.dark, depth * 1.4 - 0.2)
                } else {
                    mix(mix(p.base, p.light, blot * 0.6), p.dark, depth * 0.5 - 0.1)
                };
                let cracks = periodic(0xc4ac + m as u64, 5, u, v);
                if (cracks - 0.5).abs() < 0.025 {
                    c = shade(c, 0.8);
                }
                c = shade(c, 0.95 + 0.08 * g);
                if depth < 0.12 {
                    c = p.light;
                }
            }
            Kind::Canopy => {
                // Leaf clusters: bright upper-left, dark lower-right.
                let leaf = periodic(0x1eaf, 6, u, v) - periodic(0x1eaf, 6, u + 0.04, v + 0.04);
                c = mix(
                    p.base,
                    if leaf > 0.0 { p.light } else { p.dark },
                    leaf.abs() * 8.0,
                );
                c = shade(c, 0.92 + 0.12 * g);
                if depth < 0.07 {
                    c = p.dark;
                }
            }
            Kind::Liquid => {
                let wave = (periodic(0x3a7e, 3, u, v) * 6.0 + v * 4.0 * std::f64::consts::PI).sin();
                if wave > 0.97 {
                    c = mix(c, p.light, 0.6);
                }
                // Foam where the water meets land (not between deep water and shallows).
                if let Some((a, f)) = above
                    && a.kind() != Kind::Liquid
                    && f > THRESHOLD - 0.09
                {
                    c = mix(c, [232, 240, 236], 0.75);
                }
            }
            Kind::Ground => {
                c = self.ground_detail(m, c, x, y, u, v);
                if depth < 0.06 && m != Material::Floor && m != lowest_ground(self) {
                    c = p.dark;
                }
            }
        }
        c
    }

    /// Flagstones, tufts, pebbles and ripples on the ground materials.
    fn ground_detail(&self, m: Material, c: [u8; 3], x: u32, y: u32, u: f64, v: f64) -> [u8; 3] {
        let p = m.palette();
        let t = self.size;
        match m {
            Material::Floor => {
                // Two slabs per tile side, rows offset by half a slab, seams away from
                // the tile edges.
                let slab = (t / 2).max(1);
                let row = ((y + slab / 3) / slab) % 2;
                let shift = if row == 0 {
                    slab / 3
                } else {
                    slab / 3 + slab / 2
                };
                let (lx, ly) = ((x + shift) % slab, (y + slab / 3) % slab);
                if slab >= 4 && (lx == 0 || ly == 0) {
                    return p.dark;
                }
                let k = ((x + shift) / slab) % 2;
                let tone = lattice_hash(0x51ab, i64::from(k), i64::from(row)) >> 60;
                shade(c, 0.94 + 0.03 * tone as f64)
            }
            Material::Grass => {
                let tuft = periodic(0x7f7 + u64::from(self.variant), 9, u, v);
                if tuft > 0.8 && grain(0x7f8, x, y) > 0.4 {
                    p.light
                } else if tuft < 0.12 {
                    shade(c, 0.88)
                } else {
                    c
                }
            }
            Material::Sand => {
                let ripple = ((u * 2.0 + v * 5.0) * std::f64::consts::PI * 2.0
                    + periodic(0x5a4d, 3, u, v) * 5.0)
                    .sin();
                if ripple > 0.9 { shade(c, 0.93) } else { c }
            }
            Material::Gravel => {
                let pebble = periodic(0x9eb1 + u64::from(self.variant), 10, u, v);
                if pebble > 0.78 {
                    p.light
                } else if pebble > 0.74 {
                    p.dark
                } else {
                    c
                }
            }
            _ => c,
        }
    }
}

/// The lowest material of a tile (it draws no outline).
fn lowest_ground(t: &TileArt) -> Material {
    t.corners
        .iter()
        .copied()
        .min_by_key(|m| m.rank())
        .unwrap_or(Material::Floor)
}
