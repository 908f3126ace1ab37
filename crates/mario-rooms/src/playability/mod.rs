//! The playability checker: a conservative simulation of small Mario's movement.
//!
//! Mario is modelled as the framework's box (8 px wide, 12 px tall, feet at `y`) on 16 px
//! tiles. Moves from a standing tile are:
//! * **walk** one tile left or right on ground;
//! * **drop** off an edge, falling straight down to the first surface;
//! * **jump**: arcs simulated tick by tick with the framework's constants (`Mario.java`:
//!   jump impulse `jumpTime = 7`, `yJumpSpeed = -1.9`, vertical damping 0.85 and gravity 3 per
//!   tick, horizontal acceleration 1.2 when running, inertia 0.89, speeds under 0.5 snap to
//!   0), for both directions, take-off speeds from rest or after a run-up (which then needs
//!   that much flat ground behind), jump held 1–8 ticks, and in the air: keep running,
//!   let go, brake, or start running after 4 or 7 ticks (to clear a wall first).
//!
//! It is conservative: an arc that touches a solid tile anywhere is discarded (the engine
//! would slide along or bump, which may still work); landing needs support under Mario's
//! centre column; invisible blocks are never stood on. Enemies are hazards (module
//! `terrain`): a walker's swept zone (the cells it can reach by the time Mario meets it) is
//! never walked into, landed in only from a fall (a stomp), and its spawn cell entered in
//! the air only falling (a stomp; a spiky's cells never); a piranha plant's cell above its
//! pipe is a timed hazard (passed or landed on only early in an arc, after Mario waited
//! for the plant to go down); winged enemies only block walking and landing on their
//! spawn cell. Above the top row is air and below the bottom is death, as in the engine. The
//! level is playable if some tile at or right of the exit `F` column is reached.
//!
//! The search is a BFS over standing tiles. Jumps are only tried where they can matter:
//! a standing tile in the middle of plain flat ground (nothing but air above, ground below,
//! for the whole reach of a jump) gets nothing from jumping that walking does not give.

use crate::level::MarioLevel;
use std::collections::BinaryHeap;

mod arcs;
mod rooms;
mod terrain;
mod windows;
#[cfg(test)]
use arcs::simulate;
use arcs::{NONE, reach, tries};
pub use rooms::{RoomFailure, trial_level, unplayable_rooms};
use terrain::{HAZARD, SUPPORT, Terrain};
pub use terrain::{SAFE_TICKS, SWEEP};
pub use windows::check_repairing;

/// What the checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayReport {
    /// Whether a path from `M` to the exit column exists.
    pub playable: bool,
    /// Mario's start tile (the `M`, else the framework's fallback), if any.
    pub start: Option<(usize, usize)>,
    /// The exit tile (the `F`, else the framework's fallback), if any.
    pub exit: Option<(usize, usize)>,
    /// The rightmost column reached.
    pub furthest: usize,
    /// Standing tiles visited.
    pub visited: usize,
    /// Jumps on the path the checker found to the exit (0 when not playable): the jumps a
    /// player needs at least roughly (the search prefers walking, not the fewest jumps).
    pub jumps: usize,
    /// The longest jump on that path: columns between take-off and landing (0 without
    /// jumps). Against [`crate::difficulty::widest_gap`] it says how tight the level's
    /// tightest jump is.
    pub longest_jump: usize,
}

impl PlayReport {
    /// A one-line account.
    pub fn summary(&self) -> String {
        match (self.start, self.exit) {
            (None, _) => "no Mario start `M`".to_string(),
            (_, None) => "no exit `F`".to_string(),
            (Some(_), Some((fx, _))) if self.playable => {
                format!(
                    "playable: exit column {fx} reached ({} standing tiles visited)",
                    self.visited
                )
            }
            (Some(_), Some((fx, _))) => format!(
                "not playable: Mario gets no further than column {} of {fx} ({} standing tiles visited)",
                self.furthest, self.visited
            ),
        }
    }
}

/// Checks whether Mario can get from `M` to the exit column of `level`.
pub fn check(level: &MarioLevel) -> PlayReport {
    windows::check(level, None)
}

/// [`check`] as one search of the whole level, however long: the reference the windowed
/// check is tested against (a path found window by window is one this search finds too).
pub fn check_whole(level: &MarioLevel) -> PlayReport {
    search(level, level.spawn(), level.exit_tile(), true, None).0
}

/// Like [`check`], also returning every standing tile reached (in search order), for
/// previews and diagnosis.
pub fn explore(level: &MarioLevel) -> (PlayReport, Vec<(usize, usize)>) {
    let mut tiles = Vec::new();
    let r = windows::check(level, Some(&mut tiles));
    (r, tiles)
}

/// Every standing tile Mario can reach from the start (one search of the whole level that
/// does not stop at the exit): where he can land from the route, for honest pit measures
/// ([`crate::measure::widest_pit`]).
pub fn reachable(level: &MarioLevel) -> Vec<(usize, usize)> {
    let mut tiles = Vec::new();
    let beyond = Some((level.width(), 0));
    search(level, level.spawn(), beyond, false, Some(&mut tiles));
    tiles
}

/// One search of `level` from `start` to the column of `exit`. With `air_win`, passing that
/// column in the air wins (the engine's rule at the real exit); without it, only a standing
/// tile at or past the column does, and that tile is returned.
fn search(
    level: &MarioLevel,
    start: Option<(usize, usize)>,
    exit: Option<(usize, usize)>,
    air_win: bool,
    mut record: Option<&mut Vec<(usize, usize)>>,
) -> (PlayReport, Option<(usize, usize)>) {
    let mut reached = None;
    let mut report = PlayReport {
        playable: false,
        start,
        exit,
        furthest: 0,
        visited: 0,
        jumps: 0,
        longest_jump: 0,
    };
    let (Some((sx, sy)), Some((fx, _))) = (start, exit) else {
        return (report, None);
    };
    let t = Terrain::new(level);
    let (w, h) = (t.w, t.h);
    let fx = fx as i32;
    // Flat-ground shortcut: prefix sums of "not plain" cells.
    let stride = (w + 1) as usize;
    let mut busy = vec![0u32; stride * (h as usize + 1)];
    let mut nosup = vec![0u32; stride * (h as usize + 1)];
    for y in 0..h {
        for x in 0..w {
            let f = t.flags[(y * w + x) as usize];
            let i = (y as usize + 1) * stride + x as usize + 1;
            let up = y as usize * stride + x as usize + 1;
            let left = i - 1;
            let diag = up - 1;
            let b = u32::from(f != 0);
            let n = u32::from(f & SUPPORT == 0 || f & HAZARD != 0);
            busy[i] = b + busy[up] + busy[left] - busy[diag];
            nosup[i] = n + nosup[up] + nosup[left] - nosup[diag];
        }
    }
    let rect = |p: &[u32], x0: i32, y0: i32, x1: i32, y1: i32| -> u32 {
        // inclusive cell rect, already clamped to the grid
        let (x0, y0, x1, y1) = (x0 as usize, y0 as usize, x1 as usize + 1, y1 as usize + 1);
        p[y1 * stride + x1] + p[y0 * stride + x0] - p[y0 * stride + x1] - p[y1 * stride + x0]
    };
    let r = reach();
    let plain = |x: i32, y: i32| -> bool {
        let (x0, x1) = (x - r, x + r);
        if x0 < 0 || x1 >= w || y + 1 >= h {
            return false;
        }
        let y0 = (y - 6).max(0);
        rect(&busy, x0, y0, x1, y) == 0 && rect(&nosup, x0, y + 1, x1, y + 1) == 0
    };
    // Flat run length of standable tiles ending at x (to the left) / starting at x (right).
    let mut run_l = vec![0u16; (w * h) as usize];
    let mut run_r = vec![0u16; (w * h) as usize];
    let width = w as usize;
    for (y, (left, right)) in run_l
        .chunks_mut(width)
        .zip(run_r.chunks_mut(width))
        .enumerate()
    {
        let row = y * width;
        let mut n = 0u16;
        for (x, v) in left.iter_mut().enumerate() {
            n = if t.standable_index(row + x) {
                n.saturating_add(1)
            } else {
                0
            };
            *v = n;
        }
        n = 0;
        for (x, v) in right.iter_mut().enumerate().rev() {
            n = if t.standable_index(row + x) {
                n.saturating_add(1)
            } else {
                0
            };
            *v = n;
        }
    }
    let mut seen = vec![false; (w * h) as usize];
    // How each standing tile was first reached: from which tile, and whether by a jump.
    let mut came_from = vec![NO_PARENT; (w * h) as usize];
    // Best-first: the rightmost standing tile first; its jumps are deferred (priority
    // `x - reach`) so flat runs are walked before anything is jumped.
    let mut queue: BinaryHeap<(i32, i32, i32, usize)> = BinaryHeap::new();
    let mut furthest = sx as i32;
    let push = |x: i32,
                y: i32,
                from: u32,
                seen: &mut Vec<bool>,
                came_from: &mut Vec<u32>,
                queue: &mut BinaryHeap<(i32, i32, i32, usize)>| {
        let i = (y * w + x) as usize;
        if !seen[i] {
            seen[i] = true;
            came_from[i] = from;
            queue.push((x, x, -y, 0));
        }
    };
    let drop = |x: i32, mut y: i32| -> Option<(i32, i32)> {
        if x < 0 || x >= w {
            return None;
        }
        while y < h {
            if !t.free(x, y) {
                return None;
            }
            if t.standable(x, y) {
                return Some((x, y));
            }
            y += 1;
        }
        None
    };
    // Spawn: fall from M to the first surface; a window's start may also be a tile Mario
    // landed on in a walker's swept zone.
    let (sx, sy) = (sx as i32, sy as i32);
    if let Some((x, y)) = drop(sx, sy) {
        push(x, y, NO_PARENT, &mut seen, &mut came_from, &mut queue);
    } else if t.landable(sx, sy, false) {
        push(sx, sy, NO_PARENT, &mut seen, &mut came_from, &mut queue);
    }
    let tries = tries();
    let mut stack: Vec<u32> = Vec::with_capacity(256);
    let mut visited = 0;
    while let Some((_, x, ny, kind)) = queue.pop() {
        let y = -ny;
        if kind == 0 {
            visited += 1;
            furthest = furthest.max(x);
            if let Some(r) = record.as_deref_mut() {
                r.push((x as usize, y as usize));
            }
            if x >= fx {
                report.playable = true;
                (report.jumps, report.longest_jump) =
                    jumps_to((y * w + x) as usize, &came_from, w as usize);
                reached = Some((x as usize, y as usize));
                break;
            }
            let here = (y * w + x) as u32;
            for dx in [1, -1] {
                let nx = x + dx;
                if nx < 0 || nx >= w || !t.free(nx, y) {
                    continue;
                }
                if t.standable(nx, y) {
                    push(nx, y, here, &mut seen, &mut came_from, &mut queue);
                } else if let Some((lx, ly)) = drop(nx, y) {
                    push(lx, ly, here, &mut seen, &mut came_from, &mut queue);
                }
            }
            if !plain(x, y) {
                queue.push((x - tries[0].reach, x, ny, 1));
            }
            continue;
        }
        let i = (y * w + x) as usize;
        // Jump entry `kind` runs trie `kind - 1`, then queues the next (longer) trie.
        if kind < tries.len() {
            queue.push((x - tries[kind].reach, x, ny, kind + 1));
        }
        'tries: for trie in &tries[kind - 1..kind] {
            // At least the take-off tile itself (it may be a landing in a swept zone).
            let behind = usize::from(if trie.dir > 0 { run_l[i] } else { run_r[i] }.max(1));
            if trie.runup + 1 > behind {
                continue;
            }
            stack.clear();
            stack.push(trie.nodes[0].first_child);
            while let Some(mut n) = stack.pop() {
                // Siblings are alternatives: walk them, descending into children that pass.
                while n != NONE {
                    let node = &trie.nodes[n as usize];
                    let op = node.op;
                    n = node.next_sibling;
                    let (cx, cy) = (x + op.dx as i32, y + op.dy as i32);
                    if op.land {
                        if t.at(cx, cy) & SUPPORT != 0 {
                            if t.landable(cx, cy - 1, op.late) {
                                let from = i as u32 | JUMPED;
                                push(cx, cy - 1, from, &mut seen, &mut came_from, &mut queue);
                            }
                            continue;
                        }
                    } else {
                        // Mario's own take-off cell is free (he stands there: a walker he
                        // landed on was stomped).
                        let own = op.dx == 0 && op.dy == 0;
                        if cy > h || !(own || t.free_in_air(cx, cy, op.falling, op.late)) {
                            continue;
                        }
                        if air_win && cx > fx {
                            // Past the exit column in the air: the engine's win (any height).
                            furthest = furthest.max(fx);
                            report.playable = true;
                            let (jumps, longest) = jumps_to(i, &came_from, w as usize);
                            report.jumps = 1 + jumps;
                            report.longest_jump = longest.max((cx - x).unsigned_abs() as usize);
                            break 'tries;
                        }
                    }
                    if node.first_child != NONE {
                        stack.push(node.first_child);
                    }
                }
            }
        }
        if report.playable {
            break;
        }
    }
    report.furthest = furthest.max(0) as usize;
    report.visited = visited;
    (report, reached)
}

/// `came_from` of a tile nobody reached it from (the spawn).
const NO_PARENT: u32 = u32::MAX;
/// Bit of a `came_from` entry: the tile was reached by a jump.
const JUMPED: u32 = 1 << 31;

/// Jumps on the way to tile `i` of a level `w` columns wide, and the longest of them in
/// columns, following `came_from` back to the spawn (each step moves to an earlier-reached
/// tile, so this ends within the number of tiles).
fn jumps_to(mut i: usize, came_from: &[u32], w: usize) -> (usize, usize) {
    let (mut jumps, mut longest) = (0, 0);
    for _ in 0..came_from.len() {
        let from = came_from[i];
        if from == NO_PARENT {
            break;
        }
        let j = (from & !JUMPED) as usize;
        if from & JUMPED != 0 {
            jumps += 1;
            longest = longest.max((i % w).abs_diff(j % w));
        }
        i = j;
    }
    (jumps, longest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lvl(rows: &[&str]) -> MarioLevel {
        MarioLevel::parse("t", &rows.join("\n")).unwrap()
    }

    #[test]
    fn arcs_match_the_framework_jump() {
        // Holding jump for 8 ticks rises 66.5 px: the feet pass the top of row -3, so Mario
        // can land on a block 4 tiles above his ground, never 5.
        let a = simulate(1, 0, 8, 0);
        let top = a.ticks.iter().map(|t| t.cells[0].1).min().unwrap();
        assert_eq!(top, -4, "head row of the highest tick");
        let four = lvl(&[
            "--------", "-----XXX", "-----XXX", "-----XXX", "M----XXF", "XXXXXXXX",
        ]);
        let five = lvl(&[
            "--------", "-----XXX", "-----XXX", "-----XXX", "-----XXX", "M----XXF", "XXXXXXXX",
        ]);
        assert!(check(&four).playable);
        assert!(!check(&five).playable);
        assert!(reach() >= 6 && reach() <= 16, "reach {}", reach());
    }

    #[test]
    fn flat_level_is_playable_and_gap_is_not() {
        let ok = lvl(&[
            "--------------------",
            "M------------------F",
            "XXXXXXXXXXXXXXXXXXXX",
        ]);
        assert!(check(&ok).playable);
        let gap = lvl(&[
            "------------------------------------",
            "M----------------------------------F",
            "XXXXXXX----------------------XXXXXXX",
        ]);
        let r = check(&gap);
        assert!(!r.playable);
        assert_eq!(r.furthest, 6);
        let small_gap = lvl(&[
            "------------------------",
            "M----------------------F",
            "XXXXXXXXXX---XXXXXXXXXXX",
        ]);
        assert!(check(&small_gap).playable);
        assert_eq!(check(&small_gap).jumps, 1);
        // Over 3 pit columns, from the edge tile to the first tile past the pit.
        assert!(
            check(&small_gap).longest_jump >= 4,
            "{:?}",
            check(&small_gap)
        );
        assert_eq!(check(&ok).jumps, 0);
        let two = lvl(&[
            "------------------------------",
            "M----------------------------F",
            "XXXXXX---XXXXXXXXXX---XXXXXXXX",
        ]);
        assert_eq!(check(&two).jumps, 2);
    }

    #[test]
    fn walls_and_enemies() {
        let step = lvl(&[
            "--------------------",
            "--------------------",
            "--------XXXXXXXXXXXX",
            "--------XXXXXXXXXXXX",
            "M-------XXXXXXXXXXXF",
            "XXXXXXXXXXXXXXXXXXXX",
        ]);
        // F is inside the wall column but the wall top at row 1 is reachable (3 tiles up).
        assert!(check(&step).playable);
        let tall = lvl(&[
            "--------X-----------",
            "--------X-----------",
            "--------X-----------",
            "--------X-----------",
            "--------X-----------",
            "--------X-----------",
            "M-------X----------F",
            "XXXXXXXXXXXXXXXXXXXX",
        ]);
        assert!(!check(&tall).playable);
        let enemy_wall = lvl(&[
            "yyyyyyyyyyyyyyyyy-",
            "M-------y--------F",
            "XXXXXXXXXXXXXXXXXX",
        ]);
        assert!(!check(&enemy_wall).playable);
        // A start in a walker's swept zone (as a window's start may be) is a start.
        let zone_start = lvl(&[
            "------------",
            "------------",
            "------------",
            "-M-g-------F",
            "XXXXXXXXXXXX",
        ]);
        assert!(check(&zone_start).playable);
        let no_m = lvl(&["-----F", "-XXXXX"]);
        assert!(
            check(&lvl(&["-----F", "XXXXXX"])).playable,
            "framework fallback start"
        );
        assert_eq!(check(&no_m).summary(), "no Mario start `M`");
    }
}
