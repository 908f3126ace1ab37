//! Stage 3 (per map): split the map into regions with `equal`, `bsp` or `sampling`.
//!
//! Every divider returns at most `number` rectangles that never overlap and never leave the
//! map. When the map is too small for the request it returns fewer and says so (the
//! reference deletes BSP regions and then crashes, and lets sampled regions overlap).

use crate::program::{Divider, DividerKind};
use grid_core::below;
use grid_core::rand::RngExt;
use grid_core::{LevelRng, Rect};

/// The regions of one map, in divider order, plus warnings.
pub fn divide(
    d: &Divider,
    width: usize,
    height: usize,
    rng: &mut LevelRng,
    warnings: &mut Vec<String>,
) -> Vec<Rect> {
    let mut out = match d.kind {
        DividerKind::Equal => equal(d, width, height, rng),
        DividerKind::Bsp => bsp(d, width, height, rng),
        DividerKind::Sampling { trials } => sampling(d, trials, width, height, rng),
        DividerKind::Digger {
            prob_dir,
            prob_spawn,
            allow_intersection,
        } => digger(
            d,
            (prob_dir, prob_spawn),
            allow_intersection,
            (width, height),
            rng,
        ),
    };
    shuffle(&mut out, rng);
    out.truncate(d.number);
    if out.len() < d.number {
        warnings.push(format!(
            "regions: the {width}x{height} map holds only {} of the {} regions asked for",
            out.len(),
            d.number
        ));
    }
    out
}

/// Fisher-Yates shuffle.
pub fn shuffle<T>(v: &mut [T], rng: &mut LevelRng) {
    for i in (1..v.len()).rev() {
        // `random_range(0..=i)`, inlined.
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
}

fn pick(rng: &mut LevelRng, lo: usize, hi: usize) -> usize {
    if hi <= lo {
        lo
    } else {
        rng.random_range(lo..=hi)
    }
}

fn equal(d: &Divider, w: usize, h: usize, rng: &mut LevelRng) -> Vec<Rect> {
    let cw = pick(rng, d.min.0, d.max.0).clamp(1, w);
    let ch = pick(rng, d.min.1, d.max.1).clamp(1, h);
    let (rw, rh) = (w / cw, h / ch);
    let mut out = Vec::with_capacity(cw * ch);
    for x in 0..cw {
        for y in 0..ch {
            let ww = if x == cw - 1 { w - x * rw } else { rw };
            let hh = if y == ch - 1 { h - y * rh } else { rh };
            out.push(Rect::new(
                (x * rw) as i64,
                (y * rh) as i64,
                ww as i64,
                hh as i64,
            ));
        }
    }
    out
}

fn bsp(d: &Divider, w: usize, h: usize, rng: &mut LevelRng) -> Vec<Rect> {
    let (minw, minh) = (d.min.0 as i64, d.min.1 as i64);
    let (maxw, maxh) = (d.max.0.min(1 << 40) as i64, d.max.1.min(1 << 40) as i64);
    let mut rooms = Vec::with_capacity(2 * d.number.min(1 << 10) + 2);
    rooms.push(Rect::new(0, 0, w as i64, h as i64));
    // Which rooms are divisible, by position in `rooms`, counted for the k-th in O(log n).
    let can_w = |r: &Rect| r.w >= 2 * minw;
    let can_h = |r: &Rect| r.h >= 2 * minh;
    let too_big = |r: &Rect| (r.w > maxw && can_w(r)) || (r.h > maxh && can_h(r));
    let divisible = |r: &Rect| can_w(r) || can_h(r);
    // Built once the list is too long to scan (rooms are never fewer after a split).
    let mut marks: Option<Marks> = None;
    // How many rooms are too big and how many divisible, kept up to date split by split.
    let (mut big, mut div) = (too_big(&rooms[0]) as usize, divisible(&rooms[0]) as usize);
    // Each split adds a room of at least min size, so this bound is never the reason to stop.
    let bound = (w * h) / (d.min.0 * d.min.1).max(1) + 1;
    for _ in 0..bound {
        if rooms.len() >= d.number && big == 0 {
            break;
        }
        // Like the reference: split a random divisible room (not only oversized ones), so
        // rooms keep shrinking until none is too big; `divide` then keeps `number` of them.
        // The k-th divisible room, k drawn among them (counted, not listed).
        if div == 0 {
            break;
        }
        let k = rng.random_range(0..div);
        if marks.is_none() && rooms.len() > Marks::SCAN {
            let mut m = Marks::default();
            rooms.iter().for_each(|r| m.push(divisible(r)));
            marks = Some(m);
        }
        let i = match &marks {
            Some(m) => m.kth(k),
            None => (0..rooms.len())
                .filter(|&i| divisible(&rooms[i]))
                .nth(k)
                .expect("k < div"),
        };
        let r = rooms.swap_remove(i);
        if let Some(m) = &mut marks {
            m.swap_remove(i);
        }
        let vertical = match (can_w(&r), can_h(&r)) {
            (true, true) => rng.random_bool(0.5),
            (cw, _) => cw,
        };
        let (a, b) = if vertical {
            let cut = minw + pick(rng, 0, (r.w - 2 * minw) as usize) as i64;
            (
                Rect::new(r.x, r.y, cut, r.h),
                Rect::new(r.x + cut, r.y, r.w - cut, r.h),
            )
        } else {
            let cut = minh + pick(rng, 0, (r.h - 2 * minh) as usize) as i64;
            (
                Rect::new(r.x, r.y, r.w, cut),
                Rect::new(r.x, r.y + cut, r.w, r.h - cut),
            )
        };
        rooms.extend([a, b]);
        if let Some(m) = &mut marks {
            m.push(divisible(&a));
            m.push(divisible(&b));
        }
        big = big + too_big(&a) as usize + too_big(&b) as usize - too_big(&r) as usize;
        div = div + divisible(&a) as usize + divisible(&b) as usize - 1;
    }
    rooms
}

/// The 2017 digger: from a random cell and direction, a walker steps across the map; each
/// step it turns with a chance that grows by `prob_dir` per step since its last turn (or when
/// the next cell is off the map), and drops a room centred on itself (size drawn in
/// `min..=max`, moved inside the map) with a chance that grows by `prob_spawn` per step since
/// the last drop. A room that overlaps one already dropped is discarded unless
/// `allow_intersection`. It stops with `number` rooms or after 16 steps per map cell plus
/// 10,000 (then [`divide`] warns that it found fewer). The 2017 engine placed each room at a
/// random spot instead of at the digger and moved the digger diagonally (`y += dir.x`).
fn digger(
    d: &Divider,
    (prob_dir, prob_spawn): (f64, f64),
    allow_intersection: bool,
    (w, h): (usize, usize),
    rng: &mut LevelRng,
) -> Vec<Rect> {
    const DIRS: [(i64, i64); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let (wi, hi) = (w as i64, h as i64);
    let (mut x, mut y) = (below(rng, w) as i64, below(rng, h) as i64);
    let mut dir = DIRS[below(rng, 4)];
    let (mut turn, mut spawn) = (0.0, 0.0);
    let mut out: Vec<Rect> = Vec::new();
    let on_map = |x: i64, y: i64| x >= 0 && y >= 0 && x < wi && y < hi;
    for _ in 0..(w * h).saturating_mul(16).saturating_add(10_000) {
        if out.len() >= d.number {
            break;
        }
        if rng.random::<f64>() < turn || !on_map(x + dir.0, y + dir.1) {
            dir = DIRS[below(rng, 4)];
            turn = 0.0;
        } else {
            turn += prob_dir;
        }
        if rng.random::<f64>() < spawn {
            let rw = pick(rng, d.min.0, d.max.0).clamp(1, w) as i64;
            let rh = pick(rng, d.min.1, d.max.1).clamp(1, h) as i64;
            let room = Rect::new(
                (x - rw / 2).clamp(0, wi - rw),
                (y - rh / 2).clamp(0, hi - rh),
                rw,
                rh,
            );
            if allow_intersection || !out.iter().any(|o| o.intersects(&room)) {
                out.push(room);
            }
            spawn = 0.0;
        } else {
            spawn += prob_spawn;
        }
        if on_map(x + dir.0, y + dir.1) {
            (x, y) = (x + dir.0, y + dir.1);
        }
    }
    out
}

/// Which positions of a list are marked, with the k-th marked position found in O(log n) (a
/// Fenwick tree over the positions, doubled as the list grows): BSP picks the k-th divisible
/// room of its list at every split, which a scan made quadratic in the number of rooms. BSP
/// scans lists of up to [`Marks::SCAN`] rooms and uses `Marks` past that.
#[derive(Default)]
struct Marks {
    flags: Vec<bool>,
    /// Fenwick tree over `flags`, its length a power of two (empty while the list is short).
    tree: Vec<u32>,
}

impl Marks {
    /// The longest list BSP scans.
    const SCAN: usize = 64;

    fn add(&mut self, i: usize, delta: i32) {
        let mut j = i + 1;
        while j <= self.tree.len() {
            self.tree[j - 1] = self.tree[j - 1].wrapping_add_signed(delta);
            j += j & j.wrapping_neg();
        }
    }

    fn set(&mut self, i: usize, on: bool) {
        if self.flags[i] != on {
            self.flags[i] = on;
            self.add(i, if on { 1 } else { -1 });
        }
    }

    fn push(&mut self, on: bool) {
        self.flags.push(false);
        if self.flags.len() > self.tree.len() {
            // Rebuild at twice the size (O(n), amortised O(1) a push).
            let n = self.flags.len().next_power_of_two();
            self.tree = vec![0; n];
            for i in 0..self.flags.len() {
                if self.flags[i] {
                    self.add(i, 1);
                }
            }
        }
        let i = self.flags.len() - 1;
        self.set(i, on);
    }

    /// As `Vec::swap_remove(i)` on the list.
    fn swap_remove(&mut self, i: usize) {
        let last = self.flags.len() - 1;
        let moved = self.flags[last];
        self.set(last, false);
        self.flags.pop();
        if i < last {
            self.set(i, moved);
        }
    }

    /// The position of the `k`-th (0-based) marked entry; `k` is below the number marked.
    fn kth(&self, mut k: usize) -> usize {
        let (mut pos, mut step) = (0, self.tree.len());
        while step > 0 {
            if pos + step <= self.tree.len() && (self.tree[pos + step - 1] as usize) <= k {
                pos += step;
                k -= self.tree[pos - 1] as usize;
            }
            step /= 2;
        }
        pos
    }
}

/// Random non-overlapping rooms: for each room, a size, then trials of a random gap `g`
/// (0..=3) each; a trial's candidate spots are every pair of a column from `xs` and a row from
/// `ys` (the map edges and the placed rooms' sides, `g` away) that fits the map and overlaps no
/// placed room; one of them is drawn. When none fits, one side shrinks towards the minimum.
///
/// The candidates are not listed: a spot is free when no placed room overlaps it both in
/// columns and in rows, so each column and each row gets a bit mask of the rooms it overlaps
/// (one AND per spot); the candidates are counted, then the drawn one is found again in the
/// same column-major order.
fn sampling(
    d: &Divider,
    trials: Option<usize>,
    w: usize,
    h: usize,
    rng: &mut LevelRng,
) -> Vec<Rect> {
    let n = d.number as f64;
    let trials = trials.unwrap_or_else(|| {
        let ratio = (w * h) as f64 / (d.min.0 * d.min.1) as f64;
        10f64.powf(n * n / ratio).clamp(100.0, 10_000.0) as usize
    });
    let (minw, minh) = (d.min.0.min(w), d.min.1.min(h));
    let (maxw, maxh) = (d.max.0.min(w), d.max.1.min(h));
    let mut out: Vec<Rect> = Vec::with_capacity(d.number);
    // Candidate columns and rows with the placed rooms they overlap (bit i: room i), when at
    // most 64 rooms are placed; `None` beyond (then spots are tested room by room).
    let mut xs: Vec<(i64, u64)> = Vec::new();
    let mut ys: Vec<(i64, u64)> = Vec::new();
    // Gap 0..=3 tiles: calibrated so the fill matches the reference's loose packing
    // (fixtures/marahel reference_test: empty fraction 0.553).
    let gap = 3;
    for _ in 0..d.number {
        let mut rw = pick(rng, minw, maxw);
        let mut rh = pick(rng, minh, maxh);
        let mut placed = false;
        for _ in 0..trials {
            // A random free spot packed against the map edges and the placed regions (the
            // reference moves overlapping regions apart instead, and may leave them overlapping).
            // A small random gap keeps the packing loose, as sampled regions are in the reference.
            let g = pick(rng, 0, gap) as i64;
            let (rw_, rh_) = (rw as i64, rh as i64);
            let spots = |list: &mut Vec<(i64, u64)>,
                         size: i64,
                         total: usize,
                         side: fn(&Rect) -> (i64, i64)| {
                list.clear();
                let mut push = |p: i64| {
                    // Off the map: never a candidate.
                    if p >= 0 && p + size <= total as i64 {
                        let mask = out.iter().enumerate().fold(0u64, |m, (i, o)| {
                            let (lo, hi) = side(o);
                            let overlap = p.max(lo) < (p + size).min(hi);
                            m | ((overlap as u64) << (i % 64))
                        });
                        list.push((p, mask));
                    }
                };
                push(g);
                push(total as i64 - size - g);
                for o in &out {
                    let (lo, hi) = side(o);
                    push(hi + g);
                    push(lo - size - g);
                }
            };
            spots(&mut xs, rw_, w, |o| (o.x, o.right()));
            spots(&mut ys, rh_, h, |o| (o.y, o.bottom()));
            let masks = out.len() <= 64;
            let free = |x: i64, mx: u64, y: i64, my: u64| {
                if masks {
                    mx & my == 0
                } else {
                    let r = Rect::new(x, y, rw_, rh_);
                    out.iter().all(|o| !o.intersects(&r))
                }
            };
            let count: usize = if masks {
                xs.iter()
                    .map(|&(_, mx)| ys.iter().filter(|&&(_, my)| mx & my == 0).count())
                    .sum()
            } else {
                xs.iter()
                    .map(|&(x, mx)| ys.iter().filter(|&&(y, my)| free(x, mx, y, my)).count())
                    .sum()
            };
            if count > 0 {
                let mut k = rng.random_range(0..count);
                'find: for &(x, mx) in &xs {
                    for &(y, my) in &ys {
                        if free(x, mx, y, my) {
                            if k == 0 {
                                out.push(Rect::new(x, y, rw_, rh_));
                                break 'find;
                            }
                            k -= 1;
                        }
                    }
                }
                placed = true;
                break;
            }
            // Nothing fits: shrink one side towards the minimum and try again.
            if rw == minw && rh == minh {
                break;
            }
            if rh == minh || (rw > minw && rng.random_bool(0.5)) {
                rw -= 1;
            } else {
                rh -= 1;
            }
        }
        if !placed {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;

    fn div(kind: DividerKind, number: usize, min: (usize, usize), max: (usize, usize)) -> Divider {
        Divider {
            kind,
            number,
            min,
            max,
        }
    }

    fn check_disjoint(rs: &[Rect], w: i64, h: i64) {
        for (i, a) in rs.iter().enumerate() {
            assert!(
                a.x >= 0 && a.y >= 0 && a.right() <= w && a.bottom() <= h,
                "{a:?}"
            );
            assert!(!a.is_empty());
            for b in &rs[i + 1..] {
                assert!(!a.intersects(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn marks_find_the_kth_marked_position_as_a_scan_does() {
        let mut rng = grid_core::Seed(5).rng();
        let (mut list, mut marks) = (Vec::new(), Marks::default());
        for step in 0..3000 {
            if list.is_empty() || rng.random_bool(0.6) {
                let on = rng.random_bool(0.5);
                list.push(on);
                marks.push(on);
            } else {
                let i = below(&mut rng, list.len());
                list.swap_remove(i);
                marks.swap_remove(i);
            }
            let on: Vec<usize> = (0..list.len()).filter(|&i| list[i]).collect();
            for (k, &want) in on.iter().enumerate() {
                assert_eq!(marks.kth(k), want, "step {step}");
            }
        }
    }

    #[test]
    fn bsp_respects_min_and_never_loses_regions() {
        let d = div(DividerKind::Bsp, 5, (10, 10), (30, 30));
        for s in 0..200 {
            let mut warn = Vec::new();
            let (w, h) = (20 + s % 21, 20 + (s * 7) % 21);
            let rs = divide(&d, w, h, &mut Seed(s as u64).rng(), &mut warn);
            check_disjoint(&rs, w as i64, h as i64);
            let fit = (w / 10) * (h / 10);
            assert!(!rs.is_empty() && rs.len() <= fit.min(5), "{w}x{h}");
            assert!(rs.iter().all(|r| r.w >= 10 && r.h >= 10));
            assert_eq!(warn.is_empty(), rs.len() == 5);
            if w >= 40 && h >= 30 {
                assert_eq!(rs.len(), 5, "{w}x{h}");
            }
        }
    }

    #[test]
    fn sampling_never_overlaps_and_equal_tiles() {
        let d = div(
            DividerKind::Sampling { trials: None },
            4,
            (20, 20),
            (30, 30),
        );
        for s in 0..100 {
            let rs = divide(&d, 50, 50, &mut Seed(s).rng(), &mut Vec::new());
            check_disjoint(&rs, 50, 50);
            assert!(rs.iter().all(|r| r.w >= 20 && r.w <= 30 && r.h >= 20));
        }
        let d = div(DividerKind::Equal, 100, (3, 3), (5, 5));
        for s in 0..50 {
            let rs = divide(&d, 50, 50, &mut Seed(s).rng(), &mut Vec::new());
            check_disjoint(&rs, 50, 50);
            let area: u64 = rs.iter().map(|r| r.area()).sum();
            assert_eq!(area, 2500);
            assert!([9, 12, 15, 16, 20, 25].contains(&rs.len()), "{}", rs.len());
        }
    }
}
