//! `dist(list)`: the Manhattan distance from a cell of the region to the nearest cell holding
//! a listed entity, kept exact while a pass writes the map it reads.
//!
//! A pass reads the distance from a plane of the whole region ([`transform`], two sweeps:
//! O(area)), computed at a map version. When the pass writes the map it reads (a live pass),
//! every write goes through [`crate::engine::Ctx::set`] and is recorded in a [`WriteLog`];
//! a later read corrects the plane with the cells written since it was computed instead of
//! computing it again:
//! - a cell that became a target may be nearer than the plane's value (take the minimum);
//! - a cell that stopped being one matters only if it was at most the plane's value away (the
//!   plane's target might be gone): then, unless a new target is at least as near, the plane
//!   is computed again.
//!
//! A read costs at most [`patch_limit`] (about the square root of the region's area) log
//! entries; past that, or after a write the log did not see (the fast paths of other
//! passes), the plane is computed again. A pass of `A` visits and writes thus costs
//! O(A·sqrt(A)) at worst and O(A) when writes rarely remove the nearest target (a 200x200
//! live pass: `benches/marahel.rs`, `live_dist`), instead of O(A) per write.

pub mod paths;

/// The cells written on the front buffer, in order, for as long as every write was seen.
#[derive(Clone, Debug, Default)]
pub struct WriteLog {
    /// Whether writes are recorded (a live pass reading `dist`).
    pub on: bool,
    /// The map version before the first recorded write.
    base: u64,
    /// The written cells `(x, y)` (map sides fit in 16 bits); entry `k` made version
    /// `base + k + 1`.
    cells: Vec<(u16, u16)>,
}

/// Most entries the log keeps; past it the log starts again (every plane is then computed
/// again once).
const MAX_LOG: usize = 1 << 16;

impl WriteLog {
    /// Starts recording at map version `version`.
    pub fn start(&mut self, on: bool, version: u64) {
        self.on = on;
        self.base = version;
        self.cells.clear();
    }

    /// Records the write of cell `(x, y)` that made map version `version`.
    #[inline]
    pub fn record(&mut self, version: u64, (x, y): (usize, usize)) {
        if version != self.base + self.cells.len() as u64 + 1 || self.cells.len() == MAX_LOG {
            // A write the log did not see, or a full log: start again after this write.
            self.start(self.on, version);
            return;
        }
        self.cells.push((x as u16, y as u16));
    }

    /// The cells written from version `since` to `now`, when the log saw every one.
    pub fn since(&self, since: u64, now: u64) -> Option<&[(u16, u16)]> {
        let complete = now == self.base + self.cells.len() as u64;
        (complete && since >= self.base).then(|| &self.cells[(since - self.base) as usize..])
    }
}

/// The most log entries a read corrects a plane with (about the square root of the area).
pub fn patch_limit(area: usize) -> usize {
    (area as f64).sqrt() as usize / 4 + 16
}

/// The plane's value at local cell `(lx, ly)` of the region at `(rx, ry)` (`rw` wide)
/// corrected by the cells `written` since, or `None` when it cannot tell (a removed target
/// was as near as the plane's). `is_target(i)` says whether map cell `i` now holds a target;
/// `w` is the map's width.
#[allow(clippy::too_many_arguments)]
pub fn patched(
    plane: &[u32],
    (rx, ry, rw, rh): (usize, usize, usize, usize),
    (lx, ly): (usize, usize),
    written: &[(u16, u16)],
    w: usize,
    is_target: impl Fn(usize) -> bool,
) -> Option<u32> {
    let old = plane[ly * rw + lx];
    let mut added = u32::MAX;
    let mut unsure = false;
    for &(x, y) in written {
        let (x, y) = (x as usize, y as usize);
        let (cx, cy) = (x.wrapping_sub(rx), y.wrapping_sub(ry));
        if cx >= rw || cy >= rh {
            continue;
        }
        let was = plane[cy * rw + cx] == 0;
        let now = is_target(y * w + x);
        if was == now {
            continue;
        }
        let d = (cx.abs_diff(lx) + cy.abs_diff(ly)) as u32;
        match now {
            true => added = added.min(d),
            false => unsure |= d <= old,
        }
    }
    // The targets the plane saw and still stand are at least `old` away.
    match (added <= old, unsure) {
        (true, _) => Some(added),
        (false, false) => Some(old),
        (false, true) => None,
    }
}

/// The distance from local cell `(lx, ly)` to the nearest target of the region as the map
/// holds it now, when none is nearer than `from`: the first diamond ring from radius `from`
/// outwards holding a target, `u32::MAX` when the rings leave the region without one; `None`
/// once the rings searched hold more than `max_cells` cells.
pub fn ring_search(
    (rx, ry, rw, rh): (usize, usize, usize, usize),
    (lx, ly): (usize, usize),
    from: u32,
    max_cells: usize,
    w: usize,
    is_target: impl Fn(usize) -> bool,
) -> Option<u32> {
    let (x, y) = (lx as i64, ly as i64);
    let (rw, rh) = (rw as i64, rh as i64);
    // The farthest cell of the region from (x, y).
    let far = x.max(rw - 1 - x) + y.max(rh - 1 - y);
    let mut searched = 0usize;
    for r in from as i64..=far {
        searched += if r == 0 { 1 } else { 4 * r as usize };
        if searched > max_cells {
            return None;
        }
        let hit = |cx: i64, cy: i64| {
            cx >= 0
                && cy >= 0
                && cx < rw
                && cy < rh
                && is_target((ry + cy as usize) * w + rx + cx as usize)
        };
        for dx in -r..=r {
            let dy = r - dx.abs();
            if hit(x + dx, y + dy) || (dy != 0 && hit(x + dx, y - dy)) {
                return Some(r as u32);
            }
        }
    }
    Some(u32::MAX)
}

/// Manhattan distance from every cell of the region at `(rx, ry)`, `rw x rh`, to its nearest
/// target cell (`u32::MAX`: none), into `d` (two sweeps). `front` is the map, `w` wide.
pub fn transform(
    front: &[u8],
    w: usize,
    (rx, ry, rw, rh): (usize, usize, usize, usize),
    targets: &[bool],
    d: &mut Vec<u32>,
) {
    let inf = u32::MAX;
    d.clear();
    for ly in 0..rh {
        let row = &front[(ry + ly) * w + rx..][..rw];
        d.extend(
            row.iter()
                .map(|&c| if targets[c as usize] { 0 } else { inf }),
        );
    }
    let relax = |a: u32, b: u32| if b == inf { a } else { a.min(b + 1) };
    for ly in 0..rh {
        for lx in 0..rw {
            let mut v = d[ly * rw + lx];
            if lx > 0 {
                v = relax(v, d[ly * rw + lx - 1]);
            }
            if ly > 0 {
                v = relax(v, d[(ly - 1) * rw + lx]);
            }
            d[ly * rw + lx] = v;
        }
    }
    for ly in (0..rh).rev() {
        for lx in (0..rw).rev() {
            let mut v = d[ly * rw + lx];
            if lx + 1 < rw {
                v = relax(v, d[ly * rw + lx + 1]);
            }
            if ly + 1 < rh {
                v = relax(v, d[(ly + 1) * rw + lx]);
            }
            d[ly * rw + lx] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the nearest target of every cell.
    fn brute(front: &[u8], w: usize, h: usize, targets: &[bool]) -> Vec<u32> {
        let mut d = vec![u32::MAX; w * h];
        for (i, v) in d.iter_mut().enumerate() {
            for (j, &c) in front.iter().enumerate() {
                if targets[c as usize] {
                    let dd = ((i % w).abs_diff(j % w) + (i / w).abs_diff(j / w)) as u32;
                    *v = (*v).min(dd);
                }
            }
        }
        d
    }

    #[test]
    fn patched_planes_match_a_fresh_transform_or_say_they_cannot() {
        let (w, h) = (9, 7);
        let targets = [false, true];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut exact, mut unsure) = (0, 0);
        for _ in 0..200 {
            let mut front: Vec<u8> = (0..w * h).map(|_| (next() % 5 == 0) as u8).collect();
            let mut plane = Vec::new();
            transform(&front, w, (0, 0, w, h), &targets, &mut plane);
            assert_eq!(plane, brute(&front, w, h, &targets));
            let written: Vec<(u16, u16)> = (0..next() % 6)
                .map(|_| ((next() % w as u64) as u16, (next() % h as u64) as u16))
                .collect();
            for &(x, y) in &written {
                front[y as usize * w + x as usize] ^= 1;
            }
            let truth = brute(&front, w, h, &targets);
            for (i, &want) in truth.iter().enumerate() {
                let is_target = |c: usize| targets[front[c] as usize];
                match patched(&plane, (0, 0, w, h), (i % w, i / w), &written, w, is_target) {
                    Some(v) => {
                        assert_eq!(v, want);
                        exact += 1;
                    }
                    None => unsure += 1,
                }
            }
        }
        assert!(exact > 5 * unsure, "{exact} exact, {unsure} unsure");
    }

    #[test]
    fn ring_search_finds_the_nearest_target() {
        let (w, h) = (11, 8);
        let targets = [false, true];
        let mut front = vec![0u8; w * h];
        for i in [3, 40, 77, 85] {
            front[i] = 1;
        }
        let truth = brute(&front, w, h, &targets);
        let is_target = |c: usize| targets[front[c] as usize];
        for (i, &want) in truth.iter().enumerate() {
            let at = (i % w, i / w);
            let found = ring_search((0, 0, w, h), at, 0, usize::MAX, w, is_target);
            assert_eq!(found, Some(want), "{at:?}");
            // From any radius not past the answer.
            let found = ring_search((0, 0, w, h), at, want / 2, usize::MAX, w, is_target);
            assert_eq!(found, Some(want));
            assert_eq!(
                ring_search((0, 0, w, h), at, 0, 3, w, is_target).is_none(),
                want > 0
            );
        }
        // In a sub-region, only its own cells count.
        let sub = (4, 1, 3, 3);
        let none = ring_search(sub, (1, 1), 0, usize::MAX, w, |c| c == 3);
        assert_eq!(none, Some(u32::MAX));
    }

    #[test]
    fn the_log_gives_up_after_an_unseen_write() {
        let mut log = WriteLog::default();
        log.start(true, 10);
        log.record(11, (3, 0));
        log.record(12, (4, 1));
        assert_eq!(log.since(10, 12), Some(&[(3, 0), (4, 1)][..]));
        assert_eq!(log.since(11, 12), Some(&[(4, 1)][..]));
        assert_eq!(log.since(9, 12), None);
        // Version 13 came from a write the log did not see.
        assert_eq!(log.since(10, 13), None);
        log.record(14, (5, 0));
        assert_eq!(log.since(10, 14), None);
        assert_eq!(log.since(14, 14), Some(&[][..]));
    }
}
