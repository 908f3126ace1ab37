//! Row scans of a cellular automaton over byte counts (byte planes or pairs), sixteen cells at
//! a time.
//!
//! When every cell code has at most one candidate rule with one count test
//! ([`Kernel`]'s `one` table) and every count fits a byte, whether a cell fires depends only
//! on its code and one byte count. The codes are grouped into runs of consecutive codes with
//! the same test ([`CodeRun`]s); for sixteen consecutive cells of a row, each lane compares the
//! codes with its run and the counts with its range, byte-wise, and the first cell of the
//! sixteen that fires is found from the combined mask. After a firing the scan goes on from
//! the next cell with a fresh mask (the firing changed that cell's code and the counts around
//! it), so it visits the cells in order, exactly as one visit per cell would. The cell right
//! after a firing is tested alone, from a per-code table of the lanes' tests
//! ([`cell_tests`]).
//!
//! When some code never fires, paired passes keep the region's codes in the padded layout of
//! the counts, margins holding that code ([`crate::accel::live::LivePlanes::coded_pairs`]): then
//! the visits of a pass that follow each other in row-major order are one run of padded
//! indices, and blocks of sixteen run on across the rows ([`padded`]): short rows no longer
//! cost a block each. When every code that may fire has a rule writing one value to the
//! cell (the kernel's `direct` table: that value and the change of the cell's pair weight)
//! and nothing but the live planes follows the map (no buffer, no entity counts), a firing
//! writes the map, the code plane and the pairs itself ([`crate::accel::live::CodedPairs`]), and
//! finds its cell's row by a multiplication with the pitch's reciprocal ([`Rows`]).
//!
//! Column scans, word counts and automata with more lanes than [`MAX_LANES`] test one cell
//! at a time ([`one_line`]).

use super::{Candidate, Kernel, PlaneTest, line_steps};
use crate::accel::live::{ByteLayout, Bytes, CountLayout, Pairs, PlaneSpec};
use crate::engine::Ctx;

/// Cells a mask covers.
const BLOCK: usize = 16;

/// Most lanes a scan handles (beyond, cells are tested one by one).
pub const MAX_LANES: usize = 4;

/// Codes `clo..=clo + cw` fire when the byte count of `plane` minus `lo` is at most `w`
/// (with `neg` = 0xff: when it is not).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CodeRun {
    plane: u32,
    clo: u8,
    cw: u8,
    lo: u8,
    w: u8,
    neg: u8,
}

/// `t` as a test of a byte count: `(plane, lo, w, neg)` as in [`CodeRun`], or `None` when no
/// count `0..=255` passes it.
fn byte_test(t: PlaneTest) -> Option<(u32, u8, u8, u8)> {
    let neg = if t.negate { 0xff } else { 0 };
    if t.lo > 255 {
        // No byte count lies in the range.
        return t.negate.then_some((0, 0, 255, 0));
    }
    let hi = (t.lo as u64 + t.width as u64).min(255) as u8;
    let lo = t.lo as u8;
    if lo == 0 && hi == 255 {
        // Every byte count lies in the range.
        return (!t.negate).then_some((0, 0, 255, 0));
    }
    Some((t.plane, lo, hi - lo, neg))
}

/// The `direct` table of a kernel whose lanes are `lanes` over `planes`: per code, the one
/// value its rule writes (`only`) and the change of the pair weight it makes, when the planes
/// are paired with a code plane (some code never fires) and every code that may fire has a
/// rule writing one value; else empty.
pub fn direct_writes(
    planes: &[PlaneSpec],
    one: &[Candidate],
    lanes: &[CodeRun],
    only: impl Fn(u32) -> Option<u8>,
) -> Vec<(u8, u16)> {
    let table = match (planes, idle_code(one)) {
        ([a, _], Some(_)) if !lanes.is_empty() => a.pair_weights().and_then(|pw| {
            (0..one.len())
                .map(|c| match byte_test(one[c].test) {
                    None => Some((c as u8, 0)),
                    Some(_) => only(one[c].rule).map(|v| (v, pw[v as usize].wrapping_sub(pw[c]))),
                })
                .collect::<Option<Vec<_>>>()
        }),
        _ => None,
    };
    table.unwrap_or_default()
}

/// A code on which no rule of a kernel's `one` table fires (whatever the counts), if any.
pub fn idle_code(one: &[Candidate]) -> Option<u8> {
    (0..one.len())
        .rev()
        .find(|&c| byte_test(one[c].test).is_none())
        .map(|c| c as u8)
}

/// The lanes of a kernel's `one` table (a test per code): runs of consecutive codes with the
/// same test, codes whose test never holds left out.
pub fn lanes(one: &[Candidate]) -> Vec<CodeRun> {
    let tests: Vec<_> = one.iter().map(|c| byte_test(c.test)).collect();
    let mut lanes = Vec::new();
    let mut code = 0;
    while code < tests.len() {
        let Some((plane, lo, w, neg)) = tests[code] else {
            code += 1;
            continue;
        };
        let mut end = code;
        while end + 1 < tests.len() && tests[end + 1] == tests[code] {
            end += 1;
        }
        lanes.push(CodeRun {
            plane,
            clo: code as u8,
            cw: (end - code) as u8,
            lo,
            w,
            neg,
        });
        code = end + 1;
    }
    lanes
}

/// The lanes as one test per code, for testing one cell: `[shift, lo, w, neg]`, the code's
/// count being the pair shifted right by `shift` (a byte), tested as in [`CodeRun`]; codes of
/// no lane get a test that never holds. One look-up and one compare instead of a branch per
/// lane.
pub fn cell_tests(lanes: &[CodeRun]) -> Box<[[u8; 4]; 256]> {
    let mut cells = Box::new([[0, 0, 255, 0xff]; 256]);
    for lane in lanes {
        for c in lane.clo..=lane.clo + lane.cw {
            cells[c as usize] = [8 * lane.plane as u8, lane.lo, lane.w, lane.neg];
        }
    }
    cells
}

/// A horizontal scan pass over byte planes (see [`Kernel::scan_rows`]) with `L` lanes:
/// `tiles` visits from `(lx, ly)` (region coordinates), row after row, wrapping; stops once
/// `changes` rules have fired.
pub fn rows<const L: usize, K: ByteLayout>(
    kernel: &Kernel,
    lanes: &[CodeRun; L],
    ctx: &mut Ctx,
    (lx, ly): (usize, usize),
    tiles: u64,
    changes: u64,
) {
    let r = ctx.region;
    let (x0, y0, w, h) = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
    let (mut a, mut b) = (lx, ly);
    let (mut visited, mut changed) = (0u64, 0u64);
    while visited < tiles {
        let n = ((w - a) as u64).min(tiles - visited) as usize;
        if !row::<L, K>(
            kernel,
            lanes,
            ctx,
            (x0 + a, y0 + b),
            n,
            &mut changed,
            changes,
        ) {
            return;
        }
        visited += n as u64;
        a = 0;
        b = if b + 1 == h { 0 } else { b + 1 };
    }
}

/// A horizontal scan pass ([`Kernel::scan_rows`]): over the padded code plane and pairs when
/// the pass keeps them ([`padded`]), else row by row ([`rows`]); dispatched on the layout and
/// the number of lanes.
pub fn pass(kernel: &Kernel, ctx: &mut Ctx, start: (usize, usize), tiles: u64, changes: u64) {
    let l = &kernel.lanes[..];
    // `f::<L>` (or `f::<L, K>`) for the number of lanes `L` (at most 4).
    macro_rules! by_lanes {
        ($f:ident $(, $k:ty)?) => {
            match l.len() {
                1 => $f::<1 $(, $k)?>(kernel, l.try_into().unwrap(), ctx, start, tiles, changes),
                2 => $f::<2 $(, $k)?>(kernel, l.try_into().unwrap(), ctx, start, tiles, changes),
                3 => $f::<3 $(, $k)?>(kernel, l.try_into().unwrap(), ctx, start, tiles, changes),
                _ => $f::<4 $(, $k)?>(kernel, l.try_into().unwrap(), ctx, start, tiles, changes),
            }
        };
    }
    if ctx.layer.caches.live.coded_pairs().is_some() {
        by_lanes!(padded)
    } else if Pairs::view(&ctx.layer.caches.live).is_some() {
        by_lanes!(rows, Pairs)
    } else {
        by_lanes!(rows, Bytes)
    }
}

/// A horizontal scan pass over the padded code plane and count pairs of the live planes
/// ([`crate::accel::live::LivePlanes::coded_pairs`]) with `L` lanes: as [`rows`], but the visits
/// of a pass that follow each other in the region's row-major order are one run of the
/// padded layout, margins included (their code is one on which no rule fires), so blocks
/// of sixteen cells run on across rows. A pass is at most two runs: from the start cell to
/// the region's end, then (wrapping) from its first cell on.
pub fn padded<const L: usize>(
    kernel: &Kernel,
    lanes: &[CodeRun; L],
    ctx: &mut Ctx,
    (lx, ly): (usize, usize),
    tiles: u64,
    changes: u64,
) {
    let r = ctx.region;
    let (x0, y0, w, h) = (r.x as usize, r.y as usize, r.w as usize, r.h as usize);
    let area = (w * h) as u64;
    let (o, p) = (
        ctx.layer.caches.live.index(x0, y0),
        ctx.layer.caches.live.pitch(),
    );
    // Where a run lies in the padded planes, set up once for the pass (no division per run
    // in the usual passes).
    let mut at = Stretch {
        x0,
        y0,
        o,
        rows: Rows::new(p, ctx.layer.caches.live.plane_len()),
        i: o + ly * p + lx,
        end: 0,
    };
    // Past the padded index of the last cell of region row-major position `v - 1`.
    let end_before = |v: u64| {
        let v = v as usize;
        match v {
            _ if v as u64 == area => o + (h - 1) * p + w,
            // The start cell's row, or the end of the row before when the start is a row's
            // first cell (the usual second run).
            _ if v == ly * w + lx && lx > 0 => o + ly * p + lx,
            _ if v == ly * w + lx => o + (ly - 1) * p + w,
            _ => o + (v - 1) / w * p + (v - 1) % w + 1,
        }
    };
    let mut v = (ly * w + lx) as u64;
    let (mut left, mut changed) = (tiles, 0u64);
    while left > 0 {
        let n = (area - v).min(left);
        at.end = end_before(v + n);
        if !run::<L>(kernel, lanes, ctx, at, &mut changed, changes) {
            return;
        }
        left -= n;
        v = 0;
        at.i = o;
    }
}

/// One run of [`padded`] (over `stretch`); false once `changed` reaches `changes`.
#[inline(always)]
fn run<const L: usize>(
    kernel: &Kernel,
    lanes: &[CodeRun; L],
    ctx: &mut Ctx,
    stretch: Stretch,
    changed: &mut u64,
    changes: u64,
) -> bool {
    // Firings that only write their cell write the map, the code plane and the pairs
    // straight away, as [`Ctx::set_at`] would (the code plane holds the map's codes).
    let direct = !kernel.direct.is_empty() && ctx.layer.caches.live.tracking() && !ctx.buffer;
    if direct && !ctx.track_counts && !ctx.layer.caches.live_dist.on {
        return run_direct::<L>(kernel, lanes, ctx, stretch, changed, changes);
    }
    let Stretch {
        x0,
        y0,
        o,
        rows,
        mut i,
        end,
    } = stretch;
    // Right after a firing, the next cell is tested on its own: its counts were just stored
    // one by one, and a block load over them would wait for those stores to land.
    let mut after_firing = false;
    let cells = &*kernel.cells;
    while i < end {
        let (codes, pairs) = ctx.layer.caches.live.coded_pairs().expect("a code plane");
        let tests = (lanes, cells);
        let Some(j) = next_firing::<L>((codes, pairs), tests, &mut i, &mut after_firing) else {
            continue;
        };
        if j >= end {
            break;
        }
        // The firing's cell (a division, not a loop over the rows passed: which row the next
        // firing is in is as unpredictable as the firings).
        let (dy, dx) = rows.split(j - o);
        let (x, yy) = (x0 + dx, y0 + dy);
        let rule = kernel.one[codes[j] as usize].rule as usize;
        match kernel.rules[rule].only {
            Some(v) => ctx.set_at(x, yy, v),
            None => kernel.write(ctx, rule, x, yy),
        }
        *changed += 1;
        if *changed >= changes {
            return false;
        }
        // The firing changed this cell's code and the counts around it: the scan goes on
        // from the next cell.
        i = j + 1;
        after_firing = true;
    }
    true
}

/// One step of the search for the next firing cell from `*i`: the cell right after a firing
/// alone (`after_firing`, then cleared), else a block. Returns the firing cell, or `None` with `*i` moved past the cells that do not
/// fire.
#[inline(always)]
fn next_firing<const L: usize>(
    (codes, pairs): (&[u8], &[u16]),
    (lanes, cells): (&[CodeRun; L], &[[u8; 4]; 256]),
    i: &mut usize,
    after_firing: &mut bool,
) -> Option<usize> {
    let f = if *after_firing {
        *after_firing = false;
        if !hit_at(codes, pairs, cells, *i) {
            *i += 1;
            return None;
        }
        0
    } else {
        block_at::<L>(codes, pairs, lanes, *i)
    };
    if f == BLOCK {
        *i += BLOCK;
        return None;
    }
    Some(*i + f)
}

/// [`run`] (over `stretch`) when every firing writes one value to its cell (`kernel.direct`) and nothing but
/// the live planes follows the map: the code plane and pairs are borrowed once for the run,
/// and a firing writes the map, the codes and the counts itself.
#[inline(always)]
fn run_direct<const L: usize>(
    kernel: &Kernel,
    lanes: &[CodeRun; L],
    ctx: &mut Ctx,
    stretch: Stretch,
    changed: &mut u64,
    changes: u64,
) -> bool {
    let Stretch {
        x0,
        y0,
        o,
        rows,
        mut i,
        end,
    } = stretch;
    let direct: &[(u8, u16); 256] = kernel.direct[..].try_into().expect("a write per code");
    let cw = ctx.canvas.w;
    let front = &mut ctx.canvas.front[..];
    let mut planes = ctx
        .layer
        .caches
        .live
        .coded_pairs_mut()
        .expect("a code plane");
    // Cells changed (the version goes up by one for each).
    let mut bumps = 0;
    let mut go_on = true;
    // As in [`run`]: the cell right after a firing is tested on its own.
    let mut after_firing = false;
    let cells = &*kernel.cells;
    while i < end {
        let (codes, pairs) = (&planes.codes[..], &planes.pairs[..]);
        let tests = (lanes, cells);
        let Some(j) = next_firing::<L>((codes, pairs), tests, &mut i, &mut after_firing) else {
            continue;
        };
        if j >= end {
            break;
        }
        let (dy, dx) = rows.split(j - o);
        let code = codes[j];
        let (v, d) = direct[code as usize];
        front[(y0 + dy) * cw + x0 + dx] = v;
        bumps += (v != code) as u64;
        planes.write(j, v, d);
        *changed += 1;
        if *changed >= changes {
            go_on = false;
            break;
        }
        i = j + 1;
        after_firing = true;
    }
    ctx.version += bumps;
    go_on
}

/// Where a run of a pass lies in the padded planes: the region's corner `(x0, y0)` in the
/// map, the padded index `o` of its first cell, how padded offsets split into rows, and the
/// run's first and past-the-last padded indices.
#[derive(Clone, Copy)]
struct Stretch {
    x0: usize,
    y0: usize,
    o: usize,
    rows: Rows,
    i: usize,
    end: usize,
}

/// Row and column of padded offsets `n` with pitch `p`, by a multiplication with `p`'s
/// reciprocal when that is exact: `floor(n * m / 2^40)` with `m = floor(2^40 / p) + 1` is
/// `floor(n / p)` for `n < 2^24` and `p < 2^16` (the error `n * (m - 2^40 / p) / 2^40`
/// stays under `2^-16 < 1 / p`); a division otherwise. A division's latency showed in the
/// firings' cost.
#[derive(Clone, Copy)]
struct Rows {
    p: usize,
    /// The reciprocal, when exact for every offset of the plane.
    m: Option<u64>,
}

impl Rows {
    /// For pitch `p` and offsets below `len`.
    fn new(p: usize, len: usize) -> Rows {
        let exact = len < 1 << 24 && p < 1 << 16;
        Rows {
            p,
            m: exact.then(|| (1u64 << 40) / p as u64 + 1),
        }
    }

    /// `(n / p, n % p)`.
    #[inline(always)]
    fn split(self, n: usize) -> (usize, usize) {
        let q = match self.m {
            Some(m) => ((n as u64 * m) >> 40) as usize,
            None => n / self.p,
        };
        (q, n - q * self.p)
    }
}

/// Whether the cell at padded index `i` fires: [`first_hit`] for one cell, from the
/// kernel's [`cell_tests`].
#[inline(always)]
fn hit_at(codes: &[u8], pairs: &[u16], cells: &[[u8; 4]; 256], i: usize) -> bool {
    let [shift, lo, w, neg] = cells[codes[i] as usize];
    let n = ((pairs[i] >> shift) as u8).wrapping_sub(lo);
    ((n <= w) as u8 ^ (neg & 1)) != 0
}

/// The first of the sixteen cells from padded index `at` that fires, or 16, from the padded
/// codes and pairs.
#[inline(always)]
fn block_at<const L: usize>(codes: &[u8], pairs: &[u16], lanes: &[CodeRun; L], at: usize) -> usize {
    let codes: &[u8; BLOCK] = codes[at..at + BLOCK].try_into().expect("a block");
    first_hit(lanes, codes, |lane| {
        Pairs::block(pairs, lane.plane as usize, at)
    })
}

/// The first of the sixteen cells with codes `codes` where a lane's test holds (the counts of
/// its plane from `counts`), or 16.
#[inline(always)]
fn first_hit(
    lanes: &[CodeRun],
    codes: &[u8; BLOCK],
    counts: impl Fn(&CodeRun) -> [u8; BLOCK],
) -> usize {
    let mut acc = [0u8; BLOCK];
    for lane in lanes {
        let counts = counts(lane);
        // Unsigned `x <= w` as `min(x, w) == x`, and masks of 0 or 0xff: byte-wise vector
        // operations.
        for ((a, &c), &n) in acc.iter_mut().zip(codes).zip(&counts) {
            let c = c.wrapping_sub(lane.clo);
            let code_in = ((c.min(lane.cw) == c) as u8).wrapping_neg();
            let n = n.wrapping_sub(lane.lo);
            let count_in = ((n.min(lane.w) == n) as u8).wrapping_neg();
            *a |= code_in & (count_in ^ lane.neg);
        }
    }
    let m = u128::from_le_bytes(acc);
    (m.trailing_zeros() / 8) as usize
}

/// The first of the sixteen cells from `cell` (map index; padded index `at`) that fires, or
/// 16.
#[inline(always)]
fn block<const L: usize, K: ByteLayout>(
    ctx: &Ctx,
    lanes: &[CodeRun; L],
    at: usize,
    cell: usize,
) -> usize {
    let front = &ctx.canvas.front[..];
    let view = K::view(&ctx.layer.caches.live).expect("byte counts");
    let codes: [u8; BLOCK] = match front.get(cell..cell + BLOCK) {
        Some(s) => s.try_into().expect("a block"),
        None => {
            // The map's last cells: the cells past its end are never visited.
            let mut b = [0; BLOCK];
            let s = &front[cell..];
            b[..s.len()].copy_from_slice(s);
            b
        }
    };
    first_hit(lanes, &codes, |lane| {
        K::block(view, lane.plane as usize, at)
    })
}

/// One row of [`rows`]: `n` cells from `(x, y)`; false once `changed` reaches `changes`.
#[inline(always)]
fn row<const L: usize, K: ByteLayout>(
    kernel: &Kernel,
    lanes: &[CodeRun; L],
    ctx: &mut Ctx,
    (x, y): (usize, usize),
    n: usize,
    changed: &mut u64,
    changes: u64,
) -> bool {
    let cell = y * ctx.canvas.w + x;
    let at = ctx.layer.caches.live.index(x, y);
    let mut k = 0;
    while k < n {
        let f = block::<L, K>(ctx, lanes, at + k, cell + k);
        let j = k + f;
        if f == BLOCK {
            k += BLOCK;
            continue;
        }
        if j >= n {
            break;
        }
        let code = ctx.canvas.front[cell + j];
        let rule = kernel.one[code as usize].rule as usize;
        match kernel.rules[rule].only {
            Some(v) => ctx.set_at(x + j, y, v),
            None => kernel.write(ctx, rule, x + j, y),
        }
        *changed += 1;
        if *changed >= changes {
            return false;
        }
        // The firing changed this cell's code and the counts around it: the next block
        // starts at the next cell.
        k = j + 1;
    }
    true
}

/// [`Kernel::visit_line`] with one test per code, cell by cell over counts laid out as `K`: a code
/// load, a count load and a compare per cell. The scan for the next cell that fires
/// borrows the map and the planes only to read them, so they stay in registers; the
/// firing itself then takes the context.
pub fn one_line<K: CountLayout>(
    kernel: &Kernel,
    ctx: &mut Ctx,
    (x, y): (usize, usize),
    vertical: bool,
    n: usize,
    changed: &mut u64,
    changes: u64,
) -> bool {
    let (cell_step, plane_step) = line_steps(ctx, vertical);
    let cell = y * ctx.canvas.w + x;
    let at = ctx.layer.caches.live.index(x, y);
    let one: &[Candidate; 256] = kernel.one[..].try_into().expect("a test per code");
    let mut k = 0;
    while k < n {
        let front = &ctx.canvas.front[..];
        let counts = K::view(&ctx.layer.caches.live).expect("the pass's layout");
        let hit = (k..n).find(|&j| {
            let c = one[front[cell + j * cell_step] as usize];
            c.test
                .holds(K::count(counts, c.test.plane as usize, at + j * plane_step))
        });
        let Some(j) = hit else {
            break;
        };
        let rule = one[front[cell + j * cell_step] as usize].rule;
        let (cx, cy) = if vertical { (x, y + j) } else { (x + j, y) };
        kernel.write(ctx, rule as usize, cx, cy);
        *changed += 1;
        if *changed >= changes {
            return false;
        }
        k = j + 1;
    }
    true
}
