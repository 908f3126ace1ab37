//! Assembly: a start room, a sequence of sections whose cells are filled with
//! matching rooms, and a finish room, laid out entrance to exit, then written into a level.
//!
//! Differences from the reference, on purpose: everything is seeded; room use counts are per
//! level (so a level is a pure function of library, config and seed); rooms must also fit
//! below their entrance; difficulty numbers steer the choice towards a target curve;
//! a cell with no candidate is an error naming the cell and tags; each level is checked
//! for playability and re-assembled (next attempt seed) when the check fails.

use crate::build::{Piece, build_level};
use crate::chunk::{Chunk, UNSET};
pub use crate::config::{LevelConfig, Step, Substitution, check_config};
use crate::difficulty;
use crate::dressing;
use crate::error::MarioError;
use crate::level::MarioLevel;
use crate::library::Library;
use crate::limits;
use crate::playability::{self, PlayReport};
use crate::room::Room;
use crate::section::{Cell, Section};
use grid_core::rand::RngExt;
use grid_core::text::excerpt;
use grid_core::{LevelRng, Seed};

/// A generated level and how it was made.
#[derive(Clone, Debug)]
pub struct GeneratedLevel {
    /// The level.
    pub level: MarioLevel,
    /// The seed asked for.
    pub seed: u64,
    /// Attempts used (1 = the first assembly was playable).
    pub attempts: u32,
    /// Names of the rooms used, in placement order.
    pub rooms: Vec<String>,
    /// Names of the sections used, in order.
    pub sections: Vec<String>,
    /// Mean difficulty rating of the rooms used.
    pub difficulty: f32,
    /// The set pieces the dressing placed, with their first columns, left to right per
    /// window (a repair may have taken one out again).
    pub pieces: Vec<(usize, &'static str)>,
    /// The playability report (`None` when the check is off).
    pub report: Option<PlayReport>,
}

/// Whether a room's tags satisfy the asked tags: positives all present, `!x` absent.
pub fn tags_match(room_tags: &[String], asked: &[String]) -> bool {
    asked.iter().all(|t| {
        if t.is_empty() {
            true
        } else if let Some(neg) = t.strip_prefix('!') {
            !room_tags.iter().any(|r| r == neg)
        } else {
            room_tags.iter().any(|r| r == t)
        }
    })
}

/// Whether `room` fits `cell` of a section `section_height` rows tall: size, entrance
/// column, entrance row not below the cell's, every cell exit among the room's exits (extra
/// room exits are allowed, as in the reference), and, unlike the reference, the room
/// must not reach below the section's bottom (where it would be clipped).
pub fn fits(room: &Room, cell: &Cell, section_height: usize) -> bool {
    let Some((ex, ey)) = room.entrance else {
        return false;
    };
    let (_, _, cw, ch) = cell.rect;
    let (cx, cy) = cell.entrance;
    if room.width() > cw || room.height() > ch || ex != cx || ey > cy {
        return false;
    }
    if cell.rect.1 + cy - ey + room.height() > section_height {
        return false;
    }
    cell.exits.iter().all(|&(fx, fy)| {
        let off = (fx as i64 - cx as i64, fy as i64 - cy as i64);
        room.exits
            .iter()
            .any(|&(rx, ry)| (rx as i64 - ex as i64, ry as i64 - ey as i64) == off)
    })
}

struct Builder<'a> {
    lib: &'a Library,
    cfg: &'a LevelConfig,
    rng: LevelRng,
    used: Vec<u32>,
    section_used: Vec<u32>,
    pieces: Vec<Piece>,
    rooms: Vec<String>,
    sections: Vec<String>,
    difficulty_sum: f32,
    /// The section placed last (the next one differs when it can).
    last_section: Option<usize>,
    /// Bounding box of the pieces so far: `(x0, y0, x1, y1)`, exclusive ends.
    extent: (i64, i64, i64, i64),
}

/// Tags for a message: joined, quoted through [`excerpt`] (they come from user files).
fn join(tags: &[String]) -> String {
    excerpt(&tags.join(", "))
}

impl Builder<'_> {
    fn pick_weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| w as u64).sum();
        if total == 0 {
            return 0;
        }
        let mut r = self.rng.random_range(0..total);
        for (i, &w) in weights.iter().enumerate() {
            if r < w as u64 {
                return i;
            }
            r -= w as u64;
        }
        weights.len() - 1
    }

    /// Chooses among candidate rooms. Without a difficulty target: the least used, uniformly
    /// (the reference's balance). With one: weighted towards rooms rated near the target,
    /// each use so far dividing a room's weight by 4 (variety without ignoring the target).
    fn choose_room(&mut self, candidates: &[usize], target: Option<f32>) -> usize {
        let candidates = &self.must_first(candidates);
        let pool: Vec<usize> = match target {
            Some(_) => candidates.to_vec(),
            None => {
                let min = candidates.iter().map(|&i| self.used[i]).min().unwrap_or(0);
                candidates
                    .iter()
                    .copied()
                    .filter(|&i| self.used[i] == min)
                    .collect()
            }
        };
        let weights: Vec<u32> = pool
            .iter()
            .map(|&i| match target {
                Some(t) => {
                    let d = (self.lib.rooms[i].difficulty_or_default() - t).abs();
                    let near = 1_000_000.0 / (1.0 + 2.0 * d).powi(3);
                    let w = (near / 4f32.powi(self.used[i].min(8) as i32)).round() as u32 + 1;
                    w.saturating_mul(self.lib.rooms[i].weight)
                }
                None => self.lib.rooms[i].weight,
            })
            .collect();
        let k = pool[self.pick_weighted(&weights)];
        self.used[k] += 1;
        k
    }

    /// The must-include rooms among `candidates` not placed yet, if any; else all of them.
    fn must_first(&self, candidates: &[usize]) -> Vec<usize> {
        let due: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| self.lib.rooms[i].must && self.used[i] == 0)
            .collect();
        if due.is_empty() {
            candidates.to_vec()
        } else {
            due
        }
    }

    fn end_room(&mut self, start: bool) -> Result<usize, MarioError> {
        let (tags, role) = if start {
            (&self.cfg.start_tags, "start")
        } else {
            (&self.cfg.finish_tags, "finish")
        };
        let cands: Vec<usize> = (0..self.lib.rooms.len())
            .filter(|&i| {
                let r = &self.lib.rooms[i];
                tags_match(&r.tags, tags)
                    && if start {
                        r.entrance.is_none() && r.body.contains(b'M') && !r.exits.is_empty()
                    } else {
                        r.entrance.is_some() && r.body.contains(b'F')
                    }
            })
            .collect();
        if cands.is_empty() {
            return Err(MarioError::NoRoom {
                role,
                tags: join(tags),
            });
        }
        let cands = self.must_first(&cands);
        let k = cands[self.rng.random_range(0..cands.len())];
        self.used[k] += 1;
        Ok(k)
    }

    fn place_room(&mut self, i: usize, x: i64, y: i64) -> Result<(), MarioError> {
        let room = &self.lib.rooms[i];
        let chunk = room.instantiate(&self.lib.macros, &mut self.rng);
        self.rooms.push(room.name.clone());
        self.difficulty_sum += room.difficulty_or_default();
        self.pieces.push(Piece {
            x,
            y,
            chunk,
            overlay: false,
        });
        self.grow_extent()
    }

    fn fill_cell(
        &mut self,
        section: &Section,
        cell: &Cell,
        step: &Step,
        target: Option<f32>,
    ) -> Result<(usize, Chunk), MarioError> {
        let mut tags: Vec<String> = step.tags.iter().chain(&cell.tags).cloned().collect();
        let original = tags.clone();
        if let Some(s) = &self.cfg.substitution
            && tags.contains(&s.from)
            && !tags.iter().any(|t| t == "twist")
            && self.rng.random_bool(s.probability.clamp(0.0, 1.0))
        {
            for t in &mut tags {
                if *t == s.from {
                    *t = s.to.clone();
                }
            }
        }
        let find = |tags: &[String]| -> Vec<usize> {
            (0..self.lib.rooms.len())
                .filter(|&i| {
                    let r = &self.lib.rooms[i];
                    fits(r, cell, section.height()) && tags_match(&r.tags, tags)
                })
                .collect()
        };
        let mut cands = find(&tags);
        if cands.is_empty() && tags != original {
            cands = find(&original);
        }
        if cands.is_empty() {
            return Err(MarioError::NoFit {
                section: section.name.clone(),
                cell: cell.ch as char,
                tags: join(&original),
                width: cell.rect.2,
                height: cell.rect.3,
                entrance: cell.entrance,
                exits: cell.exits.clone(),
            });
        }
        let k = self.choose_room(&cands, target);
        let room = &self.lib.rooms[k];
        let c = room.instantiate(&self.lib.macros, &mut self.rng);
        self.rooms.push(room.name.clone());
        self.difficulty_sum += room.difficulty_or_default();
        Ok((k, c))
    }

    fn place_section(
        &mut self,
        step_index: usize,
        step: &Step,
        entry: (i64, i64),
        target: Option<f32>,
    ) -> Result<(i64, i64), MarioError> {
        let lib = self.lib;
        let cands: Vec<usize> = (0..lib.sections.len())
            .filter(|&i| lib.sections[i].has_role(&step.role))
            .collect();
        if cands.is_empty() {
            return Err(MarioError::NoSection {
                step: step_index,
                role: excerpt(&step.role),
            });
        }
        // Never the same section twice in a row, and no divide or branch right after a
        // branch (its route room lies over the next section's upper half), when there is
        // another.
        let after_branch = self
            .last_section
            .is_some_and(|i| lib.sections[i].exits.len() > 1);
        let allowed = |i: usize| {
            Some(i) != self.last_section
                && !(after_branch
                    && (lib.sections[i].has_role("divide") || lib.sections[i].exits.len() > 1))
        };
        let cands: Vec<usize> = if cands.iter().any(|&i| allowed(i)) {
            cands.into_iter().filter(|&i| allowed(i)).collect()
        } else {
            cands
        };
        let min = cands
            .iter()
            .map(|&i| self.section_used[i])
            .min()
            .unwrap_or(0);
        let due: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&i| lib.sections[i].must && self.section_used[i] == 0)
            .collect();
        let least: Vec<usize> = if due.is_empty() {
            cands
                .into_iter()
                .filter(|&i| self.section_used[i] == min)
                .collect()
        } else {
            due
        };
        let weights: Vec<u32> = least.iter().map(|&i| lib.sections[i].weight).collect();
        let si = if weights.iter().all(|&w| w == 1) {
            least[self.rng.random_range(0..least.len())]
        } else {
            least[self.pick_weighted(&weights)]
        };
        self.section_used[si] += 1;
        self.last_section = Some(si);
        let sec = &lib.sections[si];
        let mut chunk = sec.terrain.clone();
        for cell in &sec.cells {
            let (k, rc) = self.fill_cell(sec, cell, step, target)?;
            let room = &lib.rooms[k];
            let (ex, ey) = room.entrance.unwrap_or((0, 0));
            let (x0, y0, _, _) = cell.rect;
            let ux = x0 + cell.entrance.0 - ex;
            let uy = y0 + cell.entrance.1 - ey;
            for yy in 0..rc.height {
                for xx in 0..rc.width {
                    let v = rc.get(xx, yy);
                    if v != UNSET && ux + xx < chunk.width && uy + yy < chunk.height {
                        chunk.set(ux + xx, uy + yy, v);
                    }
                }
            }
        }
        self.sections.push(sec.name.clone());
        let ul = (
            entry.0 - sec.entrance.0 as i64,
            entry.1 - sec.entrance.1 as i64,
        );
        self.pieces.push(Piece {
            x: ul.0,
            y: ul.1,
            chunk,
            overlay: false,
        });
        self.grow_extent()?;
        // One exit: the level goes on from it (the reference). Several: it goes on from the
        // lowest, and every other exit is followed by a route room laid over the next
        // section, whose route rejoins the level where it ends.
        let main = match sec.exits.len() {
            1 => sec.exits[0],
            _ => *sec
                .exits
                .iter()
                .max_by_key(|e| (e.1, std::cmp::Reverse(e.0)))
                .expect("exits"),
        };
        for &(fx, fy) in sec.exits.iter().filter(|&&e| e != main) {
            self.place_route((ul.0 + fx as i64 + 1, ul.1 + fy as i64), target)?;
        }
        Ok((ul.0 + main.0 as i64 + 1, ul.1 + main.1 as i64))
    }

    /// Follows a section's extra exit at `entry` with a room tagged `route` (an upper
    /// route over the next section), laid over what comes next.
    fn place_route(&mut self, entry: (i64, i64), target: Option<f32>) -> Result<(), MarioError> {
        let lib = self.lib;
        let cands: Vec<usize> = (0..lib.rooms.len())
            .filter(|&i| lib.rooms[i].has_tag("route") && lib.rooms[i].entrance.is_some())
            .collect();
        if cands.is_empty() {
            return Err(MarioError::NoRoute {
                x: entry.0,
                y: entry.1,
            });
        }
        let k = self.choose_room(&cands, target);
        let room = &lib.rooms[k];
        let (mx, my) = room.entrance.unwrap_or((0, 0));
        let mut chunk = room.instantiate(&lib.macros, &mut self.rng);
        for c in &mut chunk.cells {
            if *c == b'-' {
                *c = UNSET;
            }
        }
        self.rooms.push(room.name.clone());
        self.difficulty_sum += room.difficulty_or_default();
        self.pieces.push(Piece {
            x: entry.0 - mx as i64,
            y: entry.1 - my as i64,
            chunk,
            overlay: true,
        });
        self.grow_extent()
    }

    /// The first must-include room or section the level lacks, as a reason to try again.
    fn missing_must(&self) -> Option<String> {
        let lib = self.lib;
        if let Some(i) = (0..lib.rooms.len()).find(|&i| lib.rooms[i].must && self.used[i] == 0) {
            return Some(format!(
                "the must-include room {} fits no cell of the level",
                excerpt(&lib.rooms[i].name)
            ));
        }
        (0..lib.sections.len())
            .find(|&i| lib.sections[i].must && self.section_used[i] == 0)
            .map(|i| {
                format!(
                    "the must-include section {} has no role of the sequence",
                    excerpt(&lib.sections[i].name)
                )
            })
    }

    /// Extends the pieces' bounding box by the last piece and checks it against the level
    /// limits, so a level that climbs or grows too far stops before it is built.
    fn grow_extent(&mut self) -> Result<(), MarioError> {
        let p = self.pieces.last().expect("called after a push");
        let (x1, y1) = (p.x + p.chunk.width as i64, p.y + p.chunk.height as i64);
        let e = &mut self.extent;
        *e = (e.0.min(p.x), e.1.min(p.y), e.2.max(x1), e.3.max(y1));
        let width = (e.2.max(0)) as usize;
        let rows = (e.3 - e.1).max(0) as usize;
        limits::check_level_size(width, rows.max(self.cfg.height))
    }

    fn run(&mut self) -> Result<(), MarioError> {
        let s = self.end_room(true)?;
        self.place_room(s, 0, 0)?;
        let f0 = self.lib.rooms[s].exits[0];
        let mut entry = (f0.0 as i64 + 1, f0.1 as i64);
        let n = self.cfg.sequence.len();
        let target_at = |i: usize, cfg: &LevelConfig| {
            cfg.difficulty.map(|(a, b)| {
                difficulty::room_target(if n <= 1 {
                    b
                } else {
                    a + (b - a) * (i.min(n - 1) as f32 / (n - 1) as f32)
                })
            })
        };
        let steps = self.cfg.sequence.clone();
        let want = sections_end(self.cfg.length);
        for (i, step) in steps.iter().enumerate() {
            // An asked length ends the sequence early (its first step always comes):
            // `--length 200` makes a level of about 200 columns, not the whole sequence's.
            if want.is_some_and(|w| i > 0 && entry.0 >= w) {
                break;
            }
            let t = target_at(i, self.cfg);
            entry = self.place_section(i, step, entry, t)?;
        }
        let fill = self.cfg.fill.clone();
        let mut i = n;
        // Every section is at least one column wide, so this ends within `length`
        // (at most `limits::MAX_LENGTH`) sections.
        while want.is_some_and(|w| entry.0 < w) {
            let t = target_at(n.saturating_sub(1), self.cfg);
            entry = self.place_section(i, &fill, entry, t)?;
            i += 1;
        }
        let f = self.end_room(false)?;
        let (mx, my) = self.lib.rooms[f].entrance.unwrap_or((0, 0));
        self.place_room(f, entry.0 - mx as i64, entry.1 - my as i64)
    }
}

/// Columns the last section placed and the finish room add, on average, to where the
/// sections stop (before the dressing's spacing); at most a quarter of a short length.
pub const LENGTH_ALLOWANCE: usize = 53;

/// The column where sections stop for an asked length (`LevelConfig::length`; 0 asks
/// for none): the last section placed, the finish room ([`LENGTH_ALLOWANCE`]) and the
/// dressing's spacing (about 15 %) bring the level to about that length (measured in
/// `tests/generate.rs`).
pub fn sections_end(length: usize) -> Option<i64> {
    let allowance = LENGTH_ALLOWANCE.min(length / 4);
    (length > 0).then(|| (length * 20 / 23).saturating_sub(allowance) as i64)
}

/// Assembles one level for `seed`: attempts use `Seed(seed).child(attempt)` until one passes
/// the playability check (when enabled).
pub fn generate(lib: &Library, cfg: &LevelConfig, seed: u64) -> Result<GeneratedLevel, MarioError> {
    check_config(cfg)?;
    let attempts = cfg.max_attempts.max(1);
    let mut reason = String::new();
    for attempt in 0..attempts {
        let mut b = Builder {
            lib,
            cfg,
            rng: Seed(seed).child(attempt as u64).rng(),
            used: vec![0; lib.rooms.len()],
            section_used: vec![0; lib.sections.len()],
            pieces: Vec::new(),
            rooms: Vec::new(),
            sections: Vec::new(),
            difficulty_sum: 0.0,
            extent: (0, 0, 0, 0),
            last_section: None,
        };
        b.run()?;
        if let Some(missing) = b.missing_must() {
            reason = missing;
            continue;
        }
        let mut level = build_level(&b.pieces, cfg.height)?;
        let difficulty = b.difficulty_sum / b.rooms.len().max(1) as f32;
        let attempt_seed = Seed(seed).child(attempt as u64);
        let (report, pieces) = match cfg.difficulty {
            Some(ramp) => {
                dressing::dress_and_check(&mut level, ramp, attempt_seed, cfg.check_playability)
            }
            None => (
                cfg.check_playability.then(|| playability::check(&level)),
                Vec::new(),
            ),
        };
        if let Some(r) = &report
            && !r.playable
        {
            reason = r.summary();
            continue;
        }
        return Ok(GeneratedLevel {
            level,
            seed,
            attempts: attempt + 1,
            rooms: b.rooms,
            sections: b.sections,
            difficulty,
            pieces,
            report,
        });
    }
    Err(MarioError::Unplayable {
        attempts,
        seed,
        reason,
    })
}
