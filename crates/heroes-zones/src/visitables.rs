//! Step 5: visitables (dwellings, shrines, wells, ...) from the editor's `<Visitables>` table,
//! by zone richness: richer zones get more of them and from higher tiers. The reference never
//! placed any.

use crate::buildings::place_object;
use crate::hmm::ids::VISITABLES;
use crate::map::ObjectKind;
use crate::template::{TemplateZone, ZoneKind};
use crate::work::Work;
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// How many visitables a zone of `richness` and `area` cells gets, and their best tier.
pub fn plan(richness: i32, area: u32, kind: ZoneKind) -> (usize, u8) {
    if kind == ZoneKind::Junction {
        return (0, 0);
    }
    let by_rich = (richness.max(0) / 6) as usize;
    let by_area = (area / 300) as usize;
    let tier = match richness {
        i32::MIN..=9 => 1,
        10..=24 => 2,
        _ => 3,
    };
    (by_rich.min(by_area).min(12), tier)
}

pub(crate) fn place(w: &mut Work, zones: &[TemplateZone], rng: &mut LevelRng) {
    for (zi, z) in zones.iter().enumerate() {
        let (count, tier) = plan(z.richness, w.zones[zi].area, z.kind);
        let pool: Vec<usize> = (0..VISITABLES.len())
            .filter(|&i| VISITABLES[i].2 <= tier)
            .collect();
        for _ in 0..count {
            let (id, fp, _) = VISITABLES[pool[rng.random_range(0..pool.len())]];
            if place_object(w, zi, fp, (0, 1), ObjectKind::Visitable { id }, false, rng).is_none() {
                w.stats
                    .removed
                    .push(format!("zones[{zi}]: no room for visitable {id}"));
                break;
            }
        }
    }
}
