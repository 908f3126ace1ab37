//! The 2017 `agent` explorer: `number` agents live at once in each region, moving in turn.
//!
//! Each agent has a `lifespan` (moves), a `speed` (it moves once every `speed` turns) and a
//! `change` (it picks a new direction every `change` moves), each drawn from its range. It
//! starts on a random cell holding an `allowed` entity and only ever stands on such cells:
//! a move that would leave the region or land on a cell not allowed picks a new direction
//! instead, and an agent with no allowed neighbour jumps to a random allowed cell (it dies
//! when there is none). After every move it applies the rules where it stands. The agents
//! take their turns round-robin until all are dead, within the explorer's work budget, where
//! a search of the region for an allowed cell costs one turn per 8 cells.
//!
//! The 2017 engine read `allowed` from the wrong parameter (`start`), ran only until the
//! last agent of a round was done, and picked a new direction from the cell it had just
//! failed to enter; these are fixed.

use super::{Limits, reads_progress, visit};
use crate::divider::shuffle;
use crate::engine::{Ctx, draw};
use crate::program::{Explorer, Range};
use grid_core::below;

/// The ranges an agent's traits are drawn from, and where it may stand.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// Agents per region.
    pub number: Range,
    /// Turns per move.
    pub speed: Range,
    /// Moves per direction.
    pub change: Range,
    /// Moves before the agent dies.
    pub lifespan: Range,
    /// Codes an agent may stand on.
    pub allowed: Vec<bool>,
}

impl AgentSpec {
    /// The most turns the agents of one region can take.
    pub fn most_turns(&self) -> u64 {
        self.number
            .max
            .saturating_mul(self.lifespan.max.saturating_add(1))
            .saturating_mul(self.speed.max.max(1))
    }
}

struct Agent {
    at: Option<(i64, i64)>,
    lifespan: u64,
    life: u64,
    wait: u64,
    turn_in: u64,
    dir: usize,
}

/// Runs the agents of one region pass, at most `lim.tiles` turns in all.
pub fn run(ex: &Explorer, spec: &AgentSpec, ctx: &mut Ctx, lim: Limits) {
    let dirs: Vec<(i64, i64)> = ctx.nbhs[ex.directions]
        .offsets
        .iter()
        .copied()
        .filter(|&d| d != (0, 0))
        .collect();
    if dirs.is_empty() {
        return;
    }
    let n = draw(spec.number, ctx.rng);
    let mut agents = Vec::new();
    let mut turns = 0u64;
    for _ in 0..n {
        if turns >= lim.tiles {
            return;
        }
        let lifespan = draw(spec.lifespan, ctx.rng);
        let mut agent = Agent {
            at: None,
            lifespan,
            life: lifespan,
            wait: draw(spec.speed, ctx.rng),
            turn_in: draw(spec.change, ctx.rng),
            dir: below(ctx.rng, dirs.len()),
        };
        agent.at = random_allowed(spec, ctx, &mut turns);
        agents.push(agent);
    }
    let mut changed = 0u64;
    let mut order: Vec<usize> = (0..dirs.len()).collect();
    loop {
        let mut alive = false;
        for a in agents.iter_mut() {
            if turns >= lim.tiles || changed >= lim.changes {
                return;
            }
            let Some(at) = a.at.filter(|_| a.life > 0) else {
                continue;
            };
            alive = true;
            turns += 1;
            a.wait = a.wait.saturating_sub(1);
            if a.wait > 0 {
                continue;
            }
            a.wait = draw(spec.speed, ctx.rng);
            a.life -= 1;
            a.turn_in = a.turn_in.saturating_sub(1);
            let ahead = step(ctx, spec, at, dirs[a.dir]);
            a.at = match ahead {
                Some(next) if a.turn_in > 0 => Some(next),
                _ => {
                    if a.turn_in == 0 {
                        a.turn_in = draw(spec.change, ctx.rng);
                    }
                    new_direction(ctx, spec, at, &dirs, &mut order, &mut a.dir, &mut turns)
                }
            };
            if let Some((x, y)) = a.at {
                if reads_progress(ex) {
                    ctx.percent = 1.0 - a.life as f64 / a.lifespan.max(1) as f64;
                    ctx.cpercent = changed as f64 / lim.changes as f64;
                }
                if visit(ex, ctx, x as usize, y as usize) {
                    changed += 1;
                }
            }
        }
        if !alive {
            return;
        }
    }
}

/// The cell one move `d` from `at` (across the edge when the region wraps), if the agent
/// may stand there.
fn step(ctx: &Ctx, spec: &AgentSpec, at: (i64, i64), d: (i64, i64)) -> Option<(i64, i64)> {
    let (x, y) = ctx.wrapped(at.0 + d.0, at.1 + d.1)?;
    let code = ctx.canvas.front[y as usize * ctx.canvas.w + x as usize];
    spec.allowed[code as usize].then_some((x, y))
}

/// The first direction, in a random order, whose move is allowed, taken; else a jump to a
/// random allowed cell (`None`: there is none).
fn new_direction(
    ctx: &mut Ctx,
    spec: &AgentSpec,
    at: (i64, i64),
    dirs: &[(i64, i64)],
    order: &mut [usize],
    dir: &mut usize,
    turns: &mut u64,
) -> Option<(i64, i64)> {
    shuffle(order, ctx.rng);
    for &k in order.iter() {
        if let Some(next) = step(ctx, spec, at, dirs[k]) {
            *dir = k;
            return Some(next);
        }
    }
    random_allowed(spec, ctx, turns)
}

/// A uniformly random cell of the region holding an allowed entity (`None`: none does):
/// up to 32 random cells, then a scan of the region, which costs `turns` one per 8 cells.
fn random_allowed(spec: &AgentSpec, ctx: &mut Ctx, turns: &mut u64) -> Option<(i64, i64)> {
    let r = ctx.region;
    let w = ctx.canvas.w;
    for _ in 0..32 {
        let x = r.x + below(ctx.rng, r.w as usize) as i64;
        let y = r.y + below(ctx.rng, r.h as usize) as i64;
        if spec.allowed[ctx.canvas.front[y as usize * w + x as usize] as usize] {
            return Some((x, y));
        }
    }
    *turns += r.area() / 8 + 1;
    let cells: Vec<(i64, i64)> = (r.y..r.bottom())
        .flat_map(|y| (r.x..r.right()).map(move |x| (x, y)))
        .filter(|&(x, y)| spec.allowed[ctx.canvas.front[y as usize * w + x as usize] as usize])
        .collect();
    match cells.len() {
        0 => None,
        n => Some(cells[below(ctx.rng, n)]),
    }
}
