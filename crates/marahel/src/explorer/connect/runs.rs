//! Stages 1 and 2 of `turtle_connect` with the 4-neighbourhood, on horizontal runs.
//!
//! One scan over the rows finds each row's runs of entity cells (from per-row bitmasks,
//! eight cells per word compare; for regions at least half as wide as the map, one bitset
//! of all their rows at once, read from the cells' low bits when the cells are all 0 or 1
//! and 1 is the chosen code) and joins each to the areas of the previous row's runs it
//! overlaps. When a row fits in one word the overlaps come from the two rows' bits: the
//! cells above a run's span, each run above found by its last cell (the first end at or
//! right of such a cell), whose provisional area is kept in a label plane by the runs'
//! last cells; wider rows walk the two rows' run lists. A run that overlaps none opens a
//! provisional area; one that overlaps runs of several unites their provisional areas
//! (union-find, the lower kept). Each provisional area sums its own runs' cells, columns
//! and rows; the runs are kept in scan order with their provisional areas. A component's
//! first run in scan order opened the lowest of its provisional areas, so the roots, in
//! order, are the areas in the order of their first cells (the flood fill's numbers), and
//! an area's sums are those of its provisional areas.
//!
//! Each area's centre is then found from the runs (no per-cell list), with the same float
//! operations as [`super::areas::centre`] where a distance is computed (so the same
//! distance bits). Small areas key every cell. Others:
//! * the sums are arithmetic series per run;
//! * the histogram of the distances' integer parts (buckets; module `centroid` uses quarter
//!   buckets, the integer parts of 4 times the distances, by the same argument) is kept as
//!   differences: on one row, the cells of a run on one side of `cx` are a segment whose
//!   exact distances `|x - cx| + |y - cy|` (of the float `cx`, `cy`) step by 1 from the cell
//!   nearest `cx`, so their buckets are consecutive from that cell's, as long as the
//!   computed distance has the exact one's integer part. That holds when the computation is
//!   exact (`cx` and `cy` have at most 20 fractional bits, distances are below 2^21), or
//!   when the nearest cell's exact distance is at least 2^-20 from an integer (the float
//!   rounding error is below 2^-32, and every cell of the segment has the same fractional
//!   part). The nearest cell's bucket is read from a 32.32 fixed point distance (integer
//!   operations, within 2^-31 of the exact one; exact when the float one is). Other
//!   segments count cell by cell. The cells on one side of `cx` and of `cy` (a quadrant)
//!   all have the same fractional part, so the test is made once per quadrant;
//! * the cells of the chosen bucket are then at most one per such segment, found by index
//!   (in a region at most 64 wide, one per row of the quadrant, checked against the label
//!   plane), and keyed (module `centroid`).
//!
//! Regions of more than 2^20 cells use the flood fill instead (distances below 2^20 keep
//! the fixed point below 2^52). The buffers are kept per thread from one pass to the next.

use super::areas::View;
use super::bits::{bitset, bitset01, eq_bits, hit_bits};
use super::centroid::{self, Area};
use std::cell::RefCell;

/// Regions up to this many cells use the runs.
pub const MAX_CELLS: usize = 1 << 20;

/// A run of entity cells of row `y`, columns `x0..x1` (region-local), and its provisional
/// area.
#[derive(Clone, Copy, Debug, Default)]
pub struct Run {
    pub y: u32,
    pub x0: u32,
    pub x1: u32,
    pub lab: u32,
}

/// Buffers of the run-based path.
#[derive(Default)]
pub struct Scratch {
    /// The runs in scan order (from 0; the buffer only grows).
    runs: Vec<Run>,
    /// The hits of the region's rows, see [`bitset`].
    bits: Vec<u64>,
    /// Per provisional area (one per run that overlaps no run above): the sums of its own
    /// runs' cells, columns and rows, and its union-find parent (the first `nprov`; the
    /// buffers only grow, like `runs`).
    sums: Vec<[u64; 3]>,
    parent: Vec<u32>,
    /// The run that opened each provisional area.
    first: Vec<u32>,
    nprov: usize,
    /// Regions at most 64 wide: each row's hits (the first `rh`), and the provisional area
    /// of each run at its last cell (row-major, other cells unspecified).
    words: Vec<u64>,
    labs: Vec<u32>,
    /// The first run of each row, then the number of runs (the first `rh + 1`).
    rows: Vec<u32>,
    /// How many runs the last scan found.
    nruns: usize,
    /// The area (index in order of first cells) of each provisional area.
    area_of: Vec<u32>,
    /// The centroid stage's buffers.
    pub centroid: centroid::Scratch,
}

thread_local! {
    /// The buffers of the last pass on this thread, kept for the next.
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Runs `f` with this thread's buffers (fresh ones if they are in use), and keeps them for
/// the next pass unless they grew past a large region's needs.
pub fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => {
            let t = f(&mut s);
            if s.runs.len() > 1 << 16 {
                *s = Scratch::default();
            }
            t
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The scan's state: the runs so far (`n` of them) with their provisional areas, and the
/// provisional areas (union-find over them; a union keeps the lower, so each area ends up
/// as the one of its first run in scan order).
struct Scan<'a> {
    runs: &'a mut [Run],
    sums: &'a mut [[u64; 3]],
    first: &'a mut [u32],
    parent: &'a mut [u32],
    n: usize,
    /// Provisional areas so far.
    np: usize,
}

impl Scan<'_> {
    /// Appends the run `x0..x1` of row `y` (not joined yet).
    #[inline(always)]
    fn push(&mut self, y: u32, x0: u32, x1: u32) {
        let r = &mut self.runs[self.n];
        (r.y, r.x0, r.x1) = (y, x0, x1);
        self.n += 1;
    }

    /// The provisional area that `a` was united into, halving the path.
    #[inline(always)]
    fn find(&mut self, mut a: u32) -> u32 {
        let p = &mut self.parent[..];
        while p[a as usize] != a {
            p[a as usize] = p[p[a as usize] as usize];
            a = p[a as usize];
        }
        a
    }

    /// Adds the run `x0..x1` of row `y` to the sums of the provisional area `id`.
    #[inline(always)]
    fn add(&mut self, id: u32, y: u32, x0: u32, x1: u32) {
        let l = u64::from(x1 - x0);
        let s = &mut self.sums[id as usize];
        s[0] += l;
        // Sum of x over a run: (x0 + x1 - 1) * len / 2, exact (the product is even).
        s[1] += (u64::from(x0) + u64::from(x1) - 1) * l / 2;
        s[2] += u64::from(y) * l;
    }

    /// Appends the run `x0..x1` of row `y` of the provisional area `id`.
    #[inline(always)]
    fn append(&mut self, id: u32, y: u32, x0: u32, x1: u32) {
        self.runs[self.n] = Run { y, x0, x1, lab: id };
        self.n += 1;
        self.add(id, y, x0, x1);
    }

    /// A new provisional area, opened by the run `j`; returns it.
    #[inline(always)]
    fn fresh(&mut self, j: usize) -> u32 {
        let id = self.np as u32;
        self.sums[self.np] = [0; 3];
        self.first[self.np] = j as u32;
        self.parent[self.np] = id;
        self.np += 1;
        id
    }

    /// Unites the provisional areas `a` and `b` (roots), into the lower; returns it.
    #[inline(never)]
    fn unite(&mut self, a: u32, b: u32) -> u32 {
        let (lo, hi) = (a.min(b), a.max(b));
        self.parent[hi as usize] = lo;
        lo
    }

    /// The runs of row `y` from its bits `word` (at most 64 cells), each joined like in
    /// [`Scan::join`] to the runs of the row above, whose bits are `above`: the runs above
    /// that a run overlaps hold the cells of `above` in its span, each found by its last
    /// cell (the first end at or right of such a cell), whose provisional area `labs`
    /// holds at `lp + column`; the runs of row `y` are put at `lc + column`. The areas in
    /// `labs` of the two rows are roots (unions relabel them), so no find is needed.
    #[inline(always)]
    fn word(&mut self, y: u32, word: u64, above: u64, labs: &mut [u32], (lp, lc): (usize, usize)) {
        // First and last cell of each run here, last cells above.
        let (mut starts, mut ends) = (word & !(word << 1), word & !(word >> 1));
        let (all, pends) = (ends, above & !(above >> 1));
        while starts != 0 {
            let (x0, e) = (starts.trailing_zeros(), ends.trailing_zeros());
            // The cells x0..=e (the shift wraps to 0 for e = 63).
            let span =
                ((ends & ends.wrapping_neg()) << 1).wrapping_sub(starts & starts.wrapping_neg());
            let mut over = above & span;
            let id = if over == 0 {
                self.fresh(self.n)
            } else {
                // The run above holding the first cell of `over`, and the cells right of it.
                let low = over & over.wrapping_neg();
                let pe = (pends & low.wrapping_neg()).trailing_zeros();
                let id = labs[lp + pe as usize];
                over &= (u64::MAX << pe) << 1;
                if over == 0 {
                    id
                } else {
                    self.more(id, over, labs, (lp, pends), (lc, all ^ ends))
                }
            };
            labs[lc + e as usize] = id;
            self.append(id, y, x0, e + 1);
            starts &= starts - 1;
            ends &= ends - 1;
        }
    }

    /// The provisional area of a run that overlaps the run above of provisional area `id`
    /// and the runs above holding the cells `over`: all are united. The rows' areas are in
    /// `labs` by column from `lp` (the row above, last cells `pends`) and `lc` (this row,
    /// the runs done so far, last cells `done`); a union relabels them, so that they stay
    /// roots.
    #[inline(never)]
    fn more(
        &mut self,
        mut id: u32,
        mut over: u64,
        labs: &mut [u32],
        (lp, pends): (usize, u64),
        (lc, done): (usize, u64),
    ) -> u32 {
        while over != 0 {
            let low = over & over.wrapping_neg();
            let pe = (pends & low.wrapping_neg()).trailing_zeros();
            let r = labs[lp + pe as usize];
            if r != id {
                let (lo, hi) = (id.min(r), id.max(r));
                self.unite(lo, hi);
                for (at, mut ends) in [(lp, pends), (lc, done)] {
                    while ends != 0 {
                        let l = &mut labs[at + ends.trailing_zeros() as usize];
                        if *l == hi {
                            *l = lo;
                        }
                        ends &= ends - 1;
                    }
                }
                id = lo;
            }
            over &= (u64::MAX << pe) << 1;
        }
        id
    }

    /// Joins each run of `cur` (a row's runs) to the area of the runs of `prev` (the
    /// previous row's) it overlaps, uniting those areas; a run overlapping none opens one.
    #[inline(always)]
    fn join(&mut self, prev: std::ops::Range<usize>, cur: std::ops::Range<usize>) {
        const NONE: u32 = u32::MAX;
        let mut i = prev.start;
        for j in cur {
            let b = self.runs[j];
            while i < prev.end && self.runs[i].x1 <= b.x0 {
                i += 1;
            }
            let mut id = NONE;
            let mut k = i;
            while k < prev.end && self.runs[k].x0 < b.x1 {
                let r = self.find(self.runs[k].lab);
                id = if id == NONE || id == r {
                    r
                } else {
                    self.unite(id, r)
                };
                k += 1;
            }
            // The last run overlapping `b` may overlap the next one too.
            i = i.max(k.saturating_sub(1));
            if id == NONE {
                id = self.fresh(j);
            }
            self.runs[j].lab = id;
            self.add(id, b.y, b.x0, b.x1);
        }
    }
}

/// Appends the runs of `cells` (row `y`) with `hit(cells[x])`, see [`hit_bits`].
#[inline(always)]
fn row_runs(
    cells: &[u8],
    y: u32,
    bits8: impl Fn(u64) -> u64 + Copy,
    hit: impl Fn(u8) -> bool + Copy,
    scan: &mut Scan,
) {
    let mut open = false;
    let mut start = 0;
    let mut carry = 0; // the previous word's last bit
    for (wi, chunk) in cells.chunks(64).enumerate() {
        let word = hit_bits(chunk, bits8, hit);
        // Bits where a run starts or ends.
        let mut edges = word ^ ((word << 1) | carry);
        carry = word >> 63;
        while edges != 0 {
            let x = (wi * 64) as u32 + edges.trailing_zeros();
            if open {
                scan.push(y, start, x);
            } else {
                start = x;
            }
            open = !open;
            edges &= edges - 1;
        }
    }
    if open {
        scan.push(y, start, cells.len() as u32);
    }
}

/// Stage 1: the runs, the areas (in the order of their first cells) with their sums and
/// runs.
fn find_areas(g: &View, entities: &[bool], s: &mut Scratch) {
    let mut codes = [0u8; 2];
    let mut count = 0;
    for (c, _) in entities.iter().enumerate().take(256).filter(|e| *e.1) {
        if count < 2 {
            codes[count] = c as u8;
        }
        count += 1;
    }
    let hit = |c: u8| entities.get(c as usize).copied().unwrap_or(false);
    let splat = |c: u8| u64::from(c) * 0x0101_0101_0101_0101;
    // One row loop per way of matching eight cells at once; cells of codes 0 and 1 (walls
    // and floors) with the code 1 chosen are their low bits.
    match count {
        1 if codes[0] == 1 && flat(g) => {
            let pa = splat(1);
            let done = bitset01(&g.cells[g.first..g.first + span(g)], &mut s.bits);
            scan_rows(g, |v| eq_bits(v, pa), hit, s, done)
        }
        1 => {
            let pa = splat(codes[0]);
            scan_rows(g, |v| eq_bits(v, pa), hit, s, false)
        }
        2 => {
            let (pa, pb) = (splat(codes[0]), splat(codes[1]));
            scan_rows(g, |v| eq_bits(v, pa) | eq_bits(v, pb), hit, s, false)
        }
        _ => {
            let bits8 = |v: u64| {
                v.to_le_bytes()
                    .iter()
                    .enumerate()
                    .fold(0, |m, (i, &c)| m | u64::from(hit(c)) << i)
            };
            scan_rows(g, bits8, hit, s, false)
        }
    }
    // The areas, in the order of their provisional roots (a provisional area's parent is
    // lower, so its area is known), with the sums of their provisional areas.
    let areas = &mut s.centroid.areas;
    areas.clear();
    grow(&mut s.area_of, s.nprov);
    for p in 0..s.nprov {
        let q = s.parent[p] as usize;
        let a = if q == p {
            areas.push(Area::new(s.first[p]));
            areas.len() - 1
        } else {
            s.area_of[q] as usize
        };
        s.area_of[p] = a as u32;
        areas[a].add(s.sums[p]);
    }
}

/// The cells from the region's first to its last, as one stream, span this many.
fn span(g: &View) -> usize {
    (g.rh - 1) * g.w + g.rw
}

/// Whether the region's rows are read from one bitset of [`span`] cells: regions at most 64
/// cells and at least half their map wide.
fn flat(g: &View) -> bool {
    g.rw <= 64 && span(g) <= 2 * g.rw * g.rh
}

/// The runs of every row with a given way of matching cells (see [`hit_bits`]), joined to
/// the previous row's runs they overlap; `done`: the bitset of a [`flat`] region is
/// already in `s.bits`.
#[inline(always)]
fn scan_rows(
    g: &View,
    bits8: impl Fn(u64) -> u64 + Copy,
    hit: impl Fn(u8) -> bool + Copy,
    s: &mut Scratch,
    done: bool,
) {
    let bits = &mut s.bits;
    // Regions as wide as at least half their map: the bits of all their rows at once, from
    // the cells from their first to their last as one stream (row `ly` from bit `ly * w`).
    let flat = flat(g);
    if flat && !done {
        bitset(&g.cells[g.first..g.first + span(g)], bits8, hit, bits);
    }
    let mask = u64::MAX >> (64 - g.rw.clamp(1, 64));
    // The first `rh + 1` rows and `rh` words are this region's (the buffers only grow).
    grow(&mut s.rows, g.rh + 1);
    let mut prev = 0..0; // the previous row's runs
    let mut above = 0; // the previous row's bits (one word; no runs above the first row)
    if g.rw <= 64 {
        // Only cells that were written are read: the labels grow without clearing.
        grow(&mut s.words, g.rh);
        grow(&mut s.labs, g.rw * g.rh);
    }
    // A row of `rw` cells has at most `ceil(rw / 2)` runs, each at most one new provisional
    // area. The rows go in chunks of at most `CHUNK_RUNS` such runs: before each chunk the
    // buffers grow (doubling) to hold its worst case, so a large region neither zeroes nor
    // keeps its whole worst case, and a small one is one chunk.
    let half = g.rw.div_ceil(2);
    let (mut n, mut np, mut ly0) = (0, 0, 0);
    while ly0 < g.rh {
        let rows = (CHUNK_RUNS / half).clamp(1, g.rh - ly0);
        grow(&mut s.runs, n + rows * half);
        grow(&mut s.sums, np + rows * half);
        grow(&mut s.first, np + rows * half);
        grow(&mut s.parent, np + rows * half);
        let mut scan = Scan {
            runs: &mut s.runs[..],
            sums: &mut s.sums[..],
            first: &mut s.first[..],
            parent: &mut s.parent[..],
            n,
            np,
        };
        for ly in ly0..ly0 + rows {
            let (start, y) = (scan.n, ly as u32);
            s.rows[ly] = start as u32;
            if g.rw <= 64 {
                let word = if flat {
                    let o = ly * g.w;
                    let (lo, hi) = (bits[o / 64], bits[o / 64 + 1]);
                    // `hi << 64 - o % 64` without the shift by 64.
                    ((lo >> (o % 64)) | ((hi << 1) << (63 - o % 64))) & mask
                } else {
                    hit_bits(g.row(ly), bits8, hit)
                };
                let lc = ly * g.rw;
                scan.word(y, word, above, &mut s.labs, (lc.wrapping_sub(g.rw), lc));
                s.words[ly] = word;
                above = word;
            } else {
                row_runs(g.row(ly), y, bits8, hit, &mut scan);
                scan.join(prev, start..scan.n);
            }
            prev = start..scan.n;
        }
        (n, np) = (scan.n, scan.np);
        ly0 += rows;
    }
    s.rows[g.rh] = n as u32;
    s.nruns = n;
    s.nprov = np;
}

/// The most runs one chunk of rows of [`scan_rows`] may hold (a whole 50x50 region is one).
const CHUNK_RUNS: usize = 1 << 14;

/// Makes `v` at least `len` long, doubling.
fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize) {
    if v.len() < len {
        let len = len.max(2 * v.len());
        v.resize(len, T::default());
    }
}

/// The region-local centre of every area of `entities` in `g` (4-neighbourhood), in the
/// order of the areas' first cells, appended to `out`; `rank(n)` draws the rank of an
/// area of `n` cells. The same centres as [`super::areas::centre`] over each area's cells.
pub fn centres(
    g: &View,
    entities: &[bool],
    s: &mut Scratch,
    mut rank: impl FnMut(usize) -> usize,
    out: &mut Vec<usize>,
) {
    debug_assert!(g.rw * g.rh <= MAX_CELLS);
    find_areas(g, entities, s);
    let grid = (g.rw <= 64).then(|| centroid::Grid {
        words: &s.words[..g.rh],
        labs: &s.labs,
        rw: g.rw,
    });
    let found = centroid::Found {
        runs: &s.runs[..s.nruns],
        area_of: &s.area_of,
        rows: &s.rows[..=g.rh],
        grid,
        rw: g.rw,
        rh: g.rh,
    };
    centroid::centres(found, &mut s.centroid, &mut rank, out);
}
