//! Stages 1 and 2 of `turtle_connect` with the 4-neighbourhood, on horizontal runs.
//!
//! One scan over the rows finds each row's runs of entity cells (from per-row bitmasks,
//! eight cells per word compare; for regions at least half as wide as the map, one bitset
//! of all their rows at once, read from the cells' low bits when the cells are all 0 or 1
//! and 1 is the chosen code) and joins each to the areas of the previous row's runs it
//! overlaps (found from the two rows' bits when a row fits in one word; a row with the
//! bits of the row above copies its runs, each joined to the one above). A run that
//! overlaps none opens a provisional area; one that overlaps runs of several unites their
//! provisional areas (union-find, the lower kept). Each run is added to its area as it is
//! found: the sums of its cells, columns and rows, and the list of its runs (united lists
//! are concatenated, so a list is in scan order only until a union). A component's first
//! run in scan order opened the lowest of its provisional areas, so the surviving ones, in
//! order, are the areas in the order of their first cells (the flood fill's numbers).
//!
//! Each area's centre is then found from its runs (no per-cell list), with the same float
//! operations as [`super::areas::centre`] where a distance is computed (so the same
//! distance bits). A single cell is its own centre; small areas key every cell. Others:
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
//!   segments count cell by cell. A row's segments on one side of `cx` all have the
//!   fractional part of its cell nearest `cx` on that side, so the test and that cell's
//!   bucket are computed once per row;
//! * the histogram pass records the segments; the cells of the chosen bucket are then one
//!   cell per such segment, found by index, and keyed (module `centroid`).
//!
//! Regions of more than 2^20 cells use the flood fill instead (distances below 2^20 keep
//! the fixed point below 2^52). The buffers are kept per thread from one pass to the next.

use super::areas::View;
use super::bits::{bitset, bitset01, eq_bits, hit_bits};
use super::centroid::{Seg, centre};
use std::cell::RefCell;

/// Regions up to this many cells use the runs.
pub const MAX_CELLS: usize = 1 << 20;

/// A run of entity cells of row `y`, columns `x0..x1` (region-local).
#[derive(Clone, Copy, Debug, Default)]
pub struct Run {
    pub y: u32,
    pub x0: u32,
    pub x1: u32,
    /// The run's provisional area.
    lab: u32,
    /// The next run of the same area.
    next: u32,
}

/// One area: its sums and its runs (a list through [`Run::next`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Area {
    /// Cells, sum of columns, sum of rows.
    pub len: u64,
    pub sx: u64,
    pub sy: u64,
    /// Number of runs, first run, last run.
    pub runs: u32,
    head: u32,
    tail: u32,
}

/// Buffers of the run-based path.
#[derive(Default)]
pub struct Scratch {
    /// The runs in scan order (from 0; the buffer only grows).
    runs: Vec<Run>,
    /// The hits of the region's rows, see [`bitset`].
    bits: Vec<u64>,
    /// Provisional areas, one per run that overlaps no run above, and their union-find
    /// parents (the first `nprov`; the buffers only grow, like `runs`).
    prov: Vec<Area>,
    parent: Vec<u32>,
    nprov: usize,
    /// The areas in the order of their first cells.
    areas: Vec<Area>,
    /// Cells per bucket, as differences.
    hist: Vec<i32>,
    /// The segments of an area's runs (only grows).
    segs: Vec<Seg>,
    /// `(distance bits, region-local index)` of the keyed cells.
    keys: Vec<u128>,
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
    prov: &'a mut [Area],
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

    /// Adds run `j` to the provisional area `id`.
    #[inline(always)]
    fn add(&mut self, id: u32, j: usize) {
        let r = self.runs[j];
        let l = u64::from(r.x1 - r.x0);
        let ar = &mut self.prov[id as usize];
        ar.len += l;
        // Sum of x over a run: (x0 + x1 - 1) * len / 2, exact (the product is even).
        ar.sx += (u64::from(r.x0) + u64::from(r.x1) - 1) * l / 2;
        ar.sy += u64::from(r.y) * l;
        ar.runs += 1;
        self.runs[ar.tail as usize].next = j as u32;
        ar.tail = j as u32;
        self.runs[j].lab = id;
    }

    /// Appends the run `x0..x1` of row `y` to the runs and to the provisional area `id`
    /// (like [`Scan::push`] then [`Scan::add`], without reading the run back).
    #[inline(always)]
    fn append(&mut self, id: u32, y: u32, x0: u32, x1: u32) {
        let j = self.n;
        self.n += 1;
        self.runs[j] = Run {
            y,
            x0,
            x1,
            lab: id,
            next: 0,
        };
        let l = u64::from(x1 - x0);
        let ar = &mut self.prov[id as usize];
        ar.len += l;
        ar.sx += (u64::from(x0) + u64::from(x1) - 1) * l / 2;
        ar.sy += u64::from(y) * l;
        ar.runs += 1;
        self.runs[ar.tail as usize].next = j as u32;
        ar.tail = j as u32;
    }

    /// A new provisional area, to hold the next run; returns it.
    #[inline(always)]
    fn fresh(&mut self) -> u32 {
        let id = self.np as u32;
        self.prov[self.np] = Area {
            head: self.n as u32,
            tail: self.n as u32,
            ..Area::default()
        };
        self.parent[self.np] = id;
        self.np += 1;
        id
    }

    /// Makes run `j` a new provisional area.
    #[inline(always)]
    fn open(&mut self, j: usize) {
        let id = self.np as u32;
        self.prov[self.np] = Area {
            head: j as u32,
            tail: j as u32,
            ..Area::default()
        };
        self.parent[self.np] = id;
        self.np += 1;
        self.add(id, j);
    }

    /// Unites the provisional areas `a` and `b` (roots), into the lower; returns it.
    #[inline(never)]
    fn unite(&mut self, a: u32, b: u32) -> u32 {
        let (lo, hi) = (a.min(b), a.max(b));
        self.parent[hi as usize] = lo;
        let h = self.prov[hi as usize];
        let l = &mut self.prov[lo as usize];
        l.len += h.len;
        l.sx += h.sx;
        l.sy += h.sy;
        l.runs += h.runs;
        self.runs[l.tail as usize].next = h.head;
        l.tail = h.tail;
        lo
    }

    /// Row `y` has the same runs as the row above (`prev`): each joins the one above it.
    #[inline(always)]
    fn copy(&mut self, y: u32, prev: std::ops::Range<usize>) {
        for i in prev {
            let r = self.runs[i];
            let id = self.find(r.lab);
            self.append(id, y, r.x0, r.x1);
        }
    }

    /// The runs of row `y` from its bits `word` (at most 64 cells), each joined like in
    /// [`Scan::join`] to the runs `prev` of the row above, whose bits are `above`: the
    /// overlaps are found from the bits, the runs above only read for their areas.
    #[inline(always)]
    fn word(&mut self, y: u32, word: u64, above: u64, prev: std::ops::Range<usize>) {
        const NONE: u32 = u32::MAX;
        // First and last cell of each run, here and above.
        let (mut starts, mut ends) = (word & !(word << 1), word & !(word >> 1));
        let (mut pstarts, mut pends) = (above & !(above << 1), above & !(above >> 1));
        let mut pi = prev.start; // the first run above not ending left of the current run
        while starts != 0 {
            let (x0, x1) = (starts.trailing_zeros(), ends.trailing_zeros() + 1);
            // Skip the runs above that end left of x0.
            let left = (1u64 << x0) - 1;
            while pends & left != 0 {
                pstarts &= pstarts - 1;
                pends &= pends - 1;
                pi += 1;
            }
            // The runs above starting left of x1 overlap (they end at or right of x0); the
            // last may overlap the next run too, so the scan restarts from `pi`.
            let before_end = u64::MAX >> (64 - x1);
            let (mut qs, mut k) = (pstarts, pi);
            let mut id = NONE;
            while qs & before_end != 0 {
                let r = self.find(self.runs[k].lab);
                id = if id == NONE || id == r {
                    r
                } else {
                    self.unite(id, r)
                };
                qs &= qs - 1;
                k += 1;
            }
            if id == NONE {
                id = self.fresh();
            }
            self.append(id, y, x0, x1);
            starts &= starts - 1;
            ends &= ends - 1;
        }
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
                self.open(j);
            } else {
                self.add(id, j);
            }
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
    // The areas: the provisional ones that were not united into a lower one.
    s.areas.clear();
    for (id, a) in s.prov[..s.nprov].iter().enumerate() {
        if s.parent[id] == id as u32 {
            s.areas.push(*a);
        }
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
    let mut prev = 0..0; // the previous row's runs
    let mut above = 0; // the previous row's bits (one word; no runs above the first row)
    // A row of `rw` cells has at most `ceil(rw / 2)` runs, each at most one new provisional
    // area. The rows go in chunks of at most `CHUNK_RUNS` such runs: before each chunk the
    // buffers grow (doubling) to hold its worst case, so a large region neither zeroes nor
    // keeps its whole worst case, and a small one is one chunk.
    let half = g.rw.div_ceil(2);
    let (mut n, mut np, mut ly0) = (0, 0, 0);
    while ly0 < g.rh {
        let rows = (CHUNK_RUNS / half).clamp(1, g.rh - ly0);
        grow(&mut s.runs, n + rows * half);
        grow(&mut s.prov, np + rows * half);
        grow(&mut s.parent, np + rows * half);
        let mut scan = Scan {
            runs: &mut s.runs[..],
            prov: &mut s.prov[..],
            parent: &mut s.parent[..],
            n,
            np,
        };
        for ly in ly0..ly0 + rows {
            let (start, y) = (scan.n, ly as u32);
            if g.rw <= 64 {
                let word = if flat {
                    let o = ly * g.w;
                    let (lo, hi) = (bits[o / 64], bits[o / 64 + 1]);
                    // `hi << 64 - o % 64` without the shift by 64.
                    ((lo >> (o % 64)) | ((hi << 1) << (63 - o % 64))) & mask
                } else {
                    hit_bits(g.row(ly), bits8, hit)
                };
                if above == word {
                    scan.copy(y, prev);
                } else {
                    scan.word(y, word, above, prev);
                }
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
    out.reserve(s.areas.len());
    for a in &s.areas {
        let k = rank(a.len as usize);
        let list = Runs {
            runs: &s.runs,
            at: a.head as usize,
            left: a.runs,
        };
        out.push(centre(
            list,
            a,
            k,
            (g.rw, g.rh),
            &mut s.hist,
            &mut s.segs,
            &mut s.keys,
        ));
    }
}

/// An area's runs (in scan order, except where areas were united).
#[derive(Clone, Copy)]
pub struct Runs<'a> {
    runs: &'a [Run],
    at: usize,
    left: u32,
}

impl Runs<'_> {
    /// The first run.
    pub fn first(&self) -> Run {
        self.runs[self.at]
    }
}

impl Iterator for Runs<'_> {
    type Item = Run;

    #[inline(always)]
    fn next(&mut self) -> Option<Run> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let r = self.runs[self.at];
        self.at = r.next as usize;
        Some(r)
    }
}
