//! Steps 1-3 together: the layout, the connections cut into portals, and the partition into
//! zones, tried a few ways so the zones come out round. A partition is scored by the
//! connections it cannot realise across a shared border (cut at layout or left without
//! contact), then by whether a zone's area is off its target by more than
//! [`borders::TOLERANCE`], then by its zones longer than [`measure::MAX_ASPECT`]; the first layout relaxed
//! [`borders::RELAX_ROUNDS`] rounds with round metrics is tried first, then (while some zone
//! is long or a connection lost) with stretched metrics, half the relaxing stretched, and the
//! sites as laid out; then, while some zone is long, the same with other layouts, [`LAYOUTS`]
//! in all. A zone still long in the partition kept is regrown ([`regrow`]), then reshaped
//! ([`reshape`]).

use crate::relax::Relaxing;
use crate::{borders, contacts, layout, measure, regrow, reshape};
use grid_core::Seed;

/// Layouts tried at most (each from its own stream).
pub const LAYOUTS: u64 = 5;

/// The zones as partitioned.
pub(crate) struct Zoning {
    /// The layout the partition grew from.
    pub lay: layout::Layout,
    /// Positions in `edges` of the connections that cross in the layout (portal pairs).
    pub cuts: Vec<usize>,
    /// The partition.
    pub part: borders::Partition,
}

/// Lays out and partitions a `side x side` map among zones with area weights `sizes` and
/// bordered connections `edges` (zone positions).
pub(crate) fn run(side: usize, sizes: &[f64], edges: &[(usize, usize)], seed: Seed) -> Zoning {
    let n = sizes.len();
    let total: f64 = sizes.iter().sum();
    let shares: Vec<f64> = sizes.iter().map(|s| s / total).collect();
    let targets: Vec<f64> = shares.iter().map(|s| s * (side * side) as f64).collect();
    let candidate = |attempt: u64, relaxing: Relaxing| {
        let stream = if attempt == 0 {
            seed.stream("layout")
        } else {
            seed.child(attempt).stream("layout")
        };
        let lay = layout::layout(sizes, edges, side as f64, &mut stream.rng());
        // Connections that still cross (the zone graph is not planar) become portal pairs;
        // the others are realised across shared borders.
        let cuts = layout::portal_cuts(&lay.centres, edges);
        let kept: Vec<(usize, usize)> = (0..edges.len())
            .filter(|k| cuts.binary_search(k).is_err())
            .map(|k| edges[k])
            .collect();
        let part = zones(side, &lay, &shares, &kept, &targets, relaxing, seed);
        let long = measure::zone_aspects(side, &part.zone_of, n)
            .iter()
            .filter(|&&a| a > measure::MAX_ASPECT)
            .count();
        let missing = borders::missing(side, n, &part.zone_of, &kept);
        let off = contacts::area_error(&part.zone_of, &targets) > borders::TOLERANCE;
        let settled = missing == 0 && long == 0 && !off;
        let lost = cuts.len() + missing;
        ((lost, off, long), settled, Zoning { lay, cuts, part })
    };
    let r = borders::RELAX_ROUNDS;
    let ladder = [(r, false), (r, true), (r / 2, true), (0, false)]
        .map(|(rounds, stretch)| Relaxing { rounds, stretch });
    let mut best = candidate(0, ladder[0]);
    'layouts: for attempt in 0..LAYOUTS {
        for (k, &relaxing) in ladder.iter().enumerate() {
            // Other layouts are tried for long zones only (they cost a layout each).
            if best.1 || (attempt > 0 && best.0.2 == 0) {
                break 'layouts;
            }
            if attempt == 0 && k == 0 {
                continue;
            }
            let other = candidate(attempt, relaxing);
            if other.0 < best.0 {
                best = other;
            }
        }
    }
    let mut z = best.2;
    if best.0.2 > 0 {
        let kept: Vec<(usize, usize)> = (0..edges.len())
            .filter(|k| z.cuts.binary_search(k).is_err())
            .map(|k| edges[k])
            .collect();
        let tolerance = borders::TOLERANCE.max(contacts::area_error(&z.part.zone_of, &targets));
        regrow::run(side, &mut z.part.zone_of, &kept, &targets, tolerance);
        reshape::run(side, &mut z.part.zone_of, &kept, &targets, tolerance);
    }
    z.part.areas = vec![0; n];
    for &c in &z.part.zone_of {
        z.part.areas[c as usize] += 1;
    }
    z.part.max_error = contacts::area_error(&z.part.zone_of, &targets);
    z
}

/// Steps 2-3: the zones' cells (the partition, thickened, with the contacts connections
/// need), relaxing the sites as `relaxing` says.
fn zones(
    side: usize,
    lay: &layout::Layout,
    shares: &[f64],
    edges: &[(usize, usize)],
    targets: &[f64],
    relaxing: Relaxing,
    seed: Seed,
) -> borders::Partition {
    let n = shares.len();
    let mut part = borders::partition(
        side,
        &lay.centres,
        &lay.radii,
        shares,
        edges,
        relaxing,
        seed.stream("borders"),
    );
    let tolerance = borders::TOLERANCE.max(part.max_error);
    settle(side, n, &mut part.zone_of, edges, targets, tolerance);
    part
}

/// Thickens the zones of `zone_of` ([`borders::thicken`]) and draws the corridors connections
/// need ([`contacts::ensure`]), a few rounds, as corridors can leave thin parts and thinning
/// can pinch a contact.
pub(crate) fn settle(
    side: usize,
    n: usize,
    zone_of: &mut [u8],
    edges: &[(usize, usize)],
    targets: &[f64],
    tolerance: f64,
) {
    borders::thicken(side, n, zone_of);
    for _ in 0..3 {
        if contacts::ensure(side, zone_of, edges, targets, tolerance) == 0 {
            break;
        }
        borders::thicken(side, n, zone_of);
    }
}
