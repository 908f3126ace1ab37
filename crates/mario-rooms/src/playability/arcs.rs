//! Mario's jump arcs: the framework's physics simulated once per (direction, run-up, jump
//! hold, air control), flattened into cell checks and merged into prefix tries.

use std::sync::OnceLock;

/// Physics constants of the framework's `Mario.java` (small Mario).
mod physics {
    pub const HALF_WIDTH: i32 = 4;
    pub const HEIGHT: i32 = 12;
    pub const JUMP_TIME: i32 = 7;
    pub const Y_JUMP_SPEED: f32 = -1.9;
    pub const RUN_ACCEL: f32 = 1.2;
    pub const INERTIA: f32 = 0.89;
    pub const Y_DAMPING: f32 = 0.85;
    pub const GRAVITY: f32 = 3.0;
    pub const MAX_TICKS: usize = 150;
    /// Arcs are followed this many rows below the take-off tile (a longer fall is not
    /// used as a move: conservative).
    pub const FALL_ROWS: i32 = 20;
}

/// One tick of an arc, relative to the take-off tile.
#[derive(Clone, Debug, Default)]
pub(super) struct Tick {
    /// Cells the body overlaps.
    pub(super) cells: Vec<(i32, i32)>,
    /// Landing checks: if the tile at `(dx, row)` supports, Mario stands at `(dx, row - 1)`.
    pub(super) land: Vec<(i32, i32)>,
    /// Whether Mario is falling during this tick (he may stomp an enemy).
    pub(super) falling: bool,
}

#[derive(Clone, Debug)]
pub(super) struct Arc {
    /// Direction of the run-up (+1 right, -1 left).
    pub(super) dir: i32,
    /// Flat tiles needed behind the take-off tile.
    pub(super) runup: usize,
    pub(super) ticks: Vec<Tick>,
    /// The ticks flattened into checks, each cell checked once, in tick order.
    pub(super) ops: Vec<Op>,
}

/// One step of a flattened arc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Op {
    /// `false`: the cell must be free; `true`: land if the cell supports.
    pub(super) land: bool,
    pub(super) dx: i16,
    pub(super) dy: i16,
    pub(super) falling: bool,
    /// The arc is in this cell (lands, for a landing) later than [`super::SAFE_TICKS`] after
    /// the start of its run-up (a piranha plant may be up by then).
    pub(super) late: bool,
}

/// Flattens ticks into ops: per tick, for each landing row the cells above it, then the
/// landing test, then the tick's other cells; a cell already checked is not checked again
/// (rising checks are stricter than falling ones, and rising comes first); its `late` says
/// whether any tick is in it late, counting the `accel_ticks` of run-up before the take-off
/// (Mario waits before his run-up).
fn flatten(ticks: &[Tick], accel_ticks: usize) -> Vec<Op> {
    let safe = super::SAFE_TICKS.saturating_sub(accel_ticks);
    let late_cells: Vec<(i32, i32)> = ticks
        .iter()
        .skip(safe)
        .flat_map(|t| t.cells.iter().copied())
        .collect();
    let mut done: Vec<(i32, i32)> = Vec::new();
    let mut ops = Vec::new();
    let mut check = |c: (i32, i32), falling: bool, ops: &mut Vec<Op>| {
        if !done.contains(&c) {
            done.push(c);
            ops.push(Op {
                land: false,
                dx: c.0 as i16,
                dy: c.1 as i16,
                falling,
                late: late_cells.contains(&c),
            });
        }
    };
    for (i, t) in ticks.iter().enumerate() {
        for &(cx, row) in &t.land {
            for &c in t.cells.iter().filter(|c| c.1 < row) {
                check(c, t.falling, &mut ops);
            }
            ops.push(Op {
                land: true,
                dx: cx as i16,
                dy: row as i16,
                falling: true,
                late: i >= safe,
            });
        }
        for &c in &t.cells {
            check(c, t.falling, &mut ops);
        }
    }
    ops
}

fn floor_div(a: i32, b: i32) -> i32 {
    a.div_euclid(b)
}

pub(super) fn simulate(dir: i32, accel_ticks: usize, hold: i32, control: u8) -> Arc {
    use physics::*;
    let d = dir as f32;
    // Run-up on the ground: accelerate `accel_ticks` ticks.
    let mut xa = 0.0f32;
    let mut runup_px = 0.0f32;
    for _ in 0..accel_ticks {
        xa += RUN_ACCEL * d;
        runup_px += xa.abs();
        xa *= INERTIA;
    }
    let runup = (runup_px / 16.0).ceil() as usize;
    let (mut x, mut y) = (8.0f32, 15.0f32);
    let mut ya;
    let mut jump_time = JUMP_TIME;
    ya = jump_time as f32 * Y_JUMP_SPEED;
    let mut ticks = Vec::new();
    for t in 0..MAX_TICKS {
        if t > 0 {
            if (t as i32) < hold && jump_time > 0 {
                ya = jump_time as f32 * Y_JUMP_SPEED;
                jump_time -= 1;
            } else {
                jump_time = 0;
            }
        }
        match control {
            0 => xa += RUN_ACCEL * d,
            1 => {}
            3 if t >= 4 => xa += RUN_ACCEL * d,
            4 if t >= 7 => xa += RUN_ACCEL * d,
            3 | 4 => {}
            _ => {
                if xa * d > 0.0 {
                    xa -= RUN_ACCEL * d;
                }
            }
        }
        if xa.abs() < 0.5 {
            xa = 0.0;
        }
        let prev_y = y;
        x += xa;
        y += ya;
        ya *= Y_DAMPING;
        xa *= INERTIA;
        ya += GRAVITY;
        let (px, py) = (x.floor() as i32, y.floor() as i32);
        let c0 = floor_div(px - HALF_WIDTH, 16);
        let c1 = floor_div(px + HALF_WIDTH, 16);
        let r0 = floor_div(py - HEIGHT, 16);
        let r1 = floor_div(py, 16);
        let mut tick = Tick {
            falling: y > prev_y,
            ..Tick::default()
        };
        for c in c0..=c1 {
            for r in r0..=r1 {
                tick.cells.push((c, r));
            }
        }
        if y > prev_y {
            let centre = floor_div(px, 16);
            let prev = prev_y.floor() as i32;
            for row in floor_div(prev, 16) + 1..=floor_div(py + 1, 16) {
                tick.land.push((centre, row));
            }
        }
        ticks.push(tick);
        if py > 16 * FALL_ROWS {
            break;
        }
    }
    let ops = flatten(&ticks, accel_ticks);
    Arc {
        dir,
        runup,
        ticks,
        ops,
    }
}

pub(super) fn arcs() -> &'static [Arc] {
    static ARCS: OnceLock<Vec<Arc>> = OnceLock::new();
    ARCS.get_or_init(|| {
        let mut v = Vec::new();
        for dir in [1, -1] {
            for accel in [0, 5, 10, 15, 30] {
                for hold in [1, 3, 5, 8] {
                    for control in 0..5u8 {
                        let a = simulate(dir, accel, hold, control);
                        if !v
                            .iter()
                            .any(|b: &Arc| b.runup == a.runup && b.dir == a.dir && b.ops == a.ops)
                        {
                            v.push(a);
                        }
                    }
                }
            }
        }
        v
    })
}

pub(super) const NONE: u32 = u32::MAX;

/// A trie node: one op, shared by every arc whose ops so far are the same.
#[derive(Clone, Copy, Debug)]
pub(super) struct TrieNode {
    pub(super) op: Op,
    pub(super) first_child: u32,
    pub(super) next_sibling: u32,
}

/// The arcs of one direction and run-up, merged into a prefix tree: a failed check or a
/// landing ends every arc through that node at once.
#[derive(Clone, Debug)]
pub(super) struct ArcTrie {
    pub(super) dir: i32,
    pub(super) runup: usize,
    /// The largest horizontal offset of any of its cells, in tiles.
    pub(super) reach: i32,
    /// `nodes[0]` is the root (its op is unused).
    pub(super) nodes: Vec<TrieNode>,
}

impl ArcTrie {
    fn insert(&mut self, ops: &[Op]) {
        let mut at = 0usize;
        for &op in ops {
            let mut child = self.nodes[at].first_child;
            let mut found = NONE;
            while child != NONE {
                if self.nodes[child as usize].op == op {
                    found = child;
                    break;
                }
                child = self.nodes[child as usize].next_sibling;
            }
            if found == NONE {
                found = self.nodes.len() as u32;
                self.nodes.push(TrieNode {
                    op,
                    first_child: NONE,
                    next_sibling: self.nodes[at].first_child,
                });
                self.nodes[at].first_child = found;
            }
            at = found as usize;
        }
    }
}

pub(super) fn tries() -> &'static [ArcTrie] {
    static TRIES: OnceLock<Vec<ArcTrie>> = OnceLock::new();
    TRIES.get_or_init(|| {
        let mut v: Vec<ArcTrie> = Vec::new();
        for a in arcs() {
            let i = match v.iter().position(|t| t.dir == a.dir && t.runup == a.runup) {
                Some(i) => i,
                None => {
                    v.push(ArcTrie {
                        dir: a.dir,
                        runup: a.runup,
                        reach: 0,
                        nodes: vec![TrieNode {
                            op: Op {
                                land: false,
                                dx: 0,
                                dy: 0,
                                falling: false,
                                late: false,
                            },
                            first_child: NONE,
                            next_sibling: NONE,
                        }],
                    });
                    v.len() - 1
                }
            };
            v[i].insert(&a.ops);
            let r = a
                .ops
                .iter()
                .map(|o| i32::from(o.dx).abs())
                .max()
                .unwrap_or(0);
            v[i].reach = v[i].reach.max(r);
        }
        // Shortest reach first: the search tries short hops before long run-up jumps.
        v.sort_by_key(|t| (t.reach, t.runup, t.dir));
        v
    })
}

/// The largest horizontal reach of any arc, in tiles (for the flat-ground shortcut).
pub(super) fn reach() -> i32 {
    static R: OnceLock<i32> = OnceLock::new();
    *R.get_or_init(|| {
        arcs()
            .iter()
            .flat_map(|a| {
                a.ticks
                    .iter()
                    .take_while(|t| t.cells.iter().all(|c| c.1 <= 0))
            })
            .flat_map(|t| t.cells.iter().map(|c| c.0.abs()))
            .max()
            .unwrap_or(12)
            + 1
    })
}
