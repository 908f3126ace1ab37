//! The dressing operations of [`crate::difficulty`]: a level's cells with what the dressing
//! has used (cuts, plateaus, pipes, run-ups, set pieces), and each feature it sets, window
//! by window, towards a [`Profile`].

use crate::difficulty::*;
use crate::tiles::{self, TileClass};
use grid_core::LevelRng;
use grid_core::rand::RngExt;

/// Random spots tried per feature.
const TRIES: usize = 40;

/// Most features of one kind a window places (its own and those owed to it).
const MAX_OWED: usize = 6;

/// Generated block groups per 100 columns where taught ([`crate::setpiece::place_blocks`]):
/// what a player meets between the few challenges, different in every level.
const TEACH_BLOCKS: f32 = 4.0;

/// Rows of air a cut gap at least [`WIDE_PIT`] wide keeps over its run-up, itself and its
/// landing (the A* agent fell into an 8-column gap under blocks 4 rows up).
const WIDE_SKY: usize = 7;

/// Rows of air a column needs above its ground for the dressing to change it.
const HEADROOM: usize = 4;

/// A level's cells being dressed.
pub(crate) struct Dress<'a> {
    pub(crate) w: usize,
    pub(crate) h: usize,
    cells: &'a mut [u8],
    /// Columns already used by a cut, plateau or pipe (with their margins and run-ups).
    pub(crate) busy: Vec<bool>,
    /// Columns Mario needs clear to run up to a gap: no enemies there.
    pub(crate) runway: Vec<bool>,
    /// Columns of set pieces: their enemies stay when a window has more than asked.
    pub(crate) piece_cols: Vec<bool>,
    /// The set pieces placed, with their first column, left to right per window.
    pub(crate) pieces: Vec<(usize, &'static str)>,
    /// Standing tiles the playability checker reached before the dressing.
    reached: Vec<bool>,
    /// Gaps, plateaus and pipes a window could not place, owed to the next windows.
    owed: [usize; 3],
    /// Enemies a window had no room for (the start zone, cannons, pits), owed to the next.
    owed_enemies: usize,
    /// First and last column the dressing may touch (clear of the start and the exit).
    span: (usize, usize),
    /// Rows of air a feature being placed needs over its columns (a wide gap: [`WIDE_SKY`]).
    sky: usize,
    /// Columns a gap, plateau or pipe keeps from any gap of the ground (where taught,
    /// [`crate::teach::PIT_ROOM`]; else 0).
    gap_room: usize,
}

impl<'a> Dress<'a> {
    /// Dressing of a `w x h` level's cells; columns outside `span` stay as they are, and
    /// enemies are only added on `reached` standing tiles (row-major, `w * h`).
    pub fn new(
        w: usize,
        h: usize,
        cells: &'a mut [u8],
        span: (usize, usize),
        reached: Vec<bool>,
    ) -> Self {
        Self {
            reached,
            w,
            h,
            cells,
            busy: vec![false; w],
            piece_cols: vec![false; w],
            pieces: Vec::new(),
            runway: vec![false; w],
            owed: [0; 3],
            owed_enemies: 0,
            span,
            gap_room: 0,
            sky: 0,
        }
    }

    pub(crate) fn at(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.w + x]
    }

    pub(crate) fn set(&mut self, x: usize, y: usize, c: u8) {
        self.cells[y * self.w + x] = c;
    }

    /// The ground row of a plain column: ground `X` from some row to the bottom and
    /// [`HEADROOM`] rows of air above it.
    pub(crate) fn plain(&self, x: usize) -> Option<usize> {
        if x < self.span.0 || x > self.span.1 || self.busy[x] {
            return None;
        }
        let y = (0..self.h).rev().find(|&y| self.at(x, y) != b'X')? + 1;
        let air =
            y >= HEADROOM && (y - HEADROOM..y).all(|yy| matches!(self.at(x, yy), b'-' | b'o'));
        (air && y < self.h).then_some(y)
    }

    /// Whether columns `x0..x1` are plain with their ground on row `y`.
    pub(crate) fn flat(&self, x0: usize, x1: usize, y: usize) -> bool {
        x1 <= self.w && (x0..x1).all(|x| self.plain(x) == Some(y))
    }

    /// Dresses the window `x0..x1` towards `p`.
    pub fn window(&mut self, x0: usize, x1: usize, p: &Profile, rng: &mut LevelRng) {
        let len = (x1 - x0) as f32 / 100.0;
        self.gap_room = if p.teaching {
            crate::teach::PIT_ROOM
        } else {
            0
        };
        let due = |k: usize, rate: f32, d: &mut Self, rng: &mut LevelRng| {
            (count(rate * len, rng) + std::mem::take(&mut d.owed[k])).min(MAX_OWED)
        };
        for _ in 0..due(0, p.gaps, self, rng) {
            let w = rng.random_range(p.gap_width.0..=p.gap_width.1.max(p.gap_width.0));
            let pre = runway_for(w);
            // A wide gap's landing keeps 4 plain columns: nothing low overhead to bump into.
            let post = if w >= WIDE_PIT { 4 } else { 2 };
            // A wide gap also keeps WIDE_SKY rows of air over its run-up, itself and its
            // landing: blocks low over a long jump cut its arc short.
            self.sky = if w >= WIDE_PIT { WIDE_SKY } else { 0 };
            let placed = self.place(x0, x1, pre, w, post, rng, |d, x, y| d.cut_gap(x, y, w));
            self.sky = 0;
            self.owed[0] += usize::from(!placed);
        }
        for _ in 0..due(1, p.plateaus, self, rng) {
            let w = rng.random_range(3..=6);
            let ph = rng.random_range(1..=p.plateau_height.max(1));
            let placed = self.place(x0, x1, 1, w, 1, rng, |d, x, y| d.raise(x, y, w, ph));
            self.owed[1] += usize::from(!placed);
        }
        for _ in 0..due(2, p.pipes, self, rng) {
            let ph = rng.random_range(2..=3);
            let piranha = rng.random_bool(p.piranha.clamp(0.0, 1.0) as f64);
            let placed = self.place(x0, x1, 1, 2, 1, rng, |d, x, y| d.pipe(x, y, ph, piranha));
            self.owed[2] += usize::from(!placed);
        }
        self.piranhas(x0, x1, p.piranha, rng);
        let want = count(p.enemies * len, rng);
        // Room enemies over the asked number go before the set pieces come.
        self.enemies(x0, x1, want, p, rng);
        for _ in 0..count(p.pieces * len, rng) {
            crate::setpiece::place(self, x0, x1, (p.piece_rating, p.teaching), rng);
        }
        if p.teaching {
            for _ in 0..count(TEACH_BLOCKS * len, rng) {
                crate::setpiece::place_blocks(self, x0, x1, rng);
            }
        }
        self.enemies(x0, x1, want, p, rng);
    }

    /// Tries random spots in `x0..x1` for a feature `w` columns wide with `pre` flat columns
    /// before and `post` after; applies `apply` at the first that fits. Whether it did.
    #[allow(clippy::too_many_arguments)]
    fn place(
        &mut self,
        x0: usize,
        x1: usize,
        pre: usize,
        w: usize,
        post: usize,
        rng: &mut LevelRng,
        apply: impl FnOnce(&mut Self, usize, usize),
    ) -> bool {
        if x1 <= x0 {
            return false;
        }
        for _ in 0..TRIES {
            let x = rng.random_range(x0..x1);
            let Some(y) = self.plain(x) else { continue };
            let (a, b) = (x.saturating_sub(pre), x + w + post);
            if x < pre || !self.flat(a, b, y) {
                continue;
            }
            if self.sky > 0 && !self.open_sky(a, b, y) {
                continue;
            }
            let room = a.saturating_sub(self.gap_room)..(b + self.gap_room).min(self.w);
            if self.gap_room > 0 && room.into_iter().any(|c| self.ground_gap(c)) {
                continue;
            }
            apply(self, x, y);
            for c in a..b {
                self.busy[c] = true;
            }
            for c in a..x {
                self.runway[c] = true;
            }
            return true;
        }
        false
    }

    fn cut_gap(&mut self, x: usize, y: usize, w: usize) {
        for c in x..x + w {
            for r in y..self.h {
                self.set(c, r, b'-');
            }
        }
    }

    fn raise(&mut self, x: usize, y: usize, w: usize, ph: usize) {
        for c in x..x + w {
            for r in y - ph..y {
                self.set(c, r, b'X');
            }
        }
    }

    fn pipe(&mut self, x: usize, y: usize, ph: usize, piranha: bool) {
        for r in y - ph..y {
            let (l, rr) = match (piranha, r == y - ph) {
                (true, _) => (b'T', b'T'),
                (false, true) => (b'<', b'>'),
                (false, false) => (b'[', b']'),
            };
            self.set(x, r, l);
            self.set(x + 1, r, rr);
        }
    }

    /// Takes the plant out of every piranha pipe within [`PIRANHA_CLEARANCE`] columns of a
    /// pit or [`ENEMY_CLEARANCE`] of an enemy, or [`START_ZONE`] + 4 columns after the
    /// start, the rooms' own included (a plain pipe stays): the Mario AI Framework's A*
    /// agent, which ignores the plant's timing, dies to a plant next to a jump or by the
    /// start, and while Mario waits for a plant a walker comes at him. Run once, after
    /// every window.
    pub fn calm_piranhas(&mut self) {
        let bottom = self.h - 1;
        let pit = |d: &Self, c: usize| tiles::class_of(d.at(c, bottom)) != TileClass::Solid;
        let enemy =
            |d: &Self, c: usize| (0..d.h).any(|r| tiles::class_of(d.at(c, r)) == TileClass::Enemy);
        for x in 0..self.w.saturating_sub(1) {
            for y in 0..self.h {
                let top = self.at(x, y) == b'T'
                    && self.at(x + 1, y) == b'T'
                    && (y == 0 || self.at(x, y - 1) != b'T')
                    && (x == 0 || self.at(x - 1, y) != b'T');
                if !top {
                    continue;
                }
                let (a, b) = (
                    x.saturating_sub(PIRANHA_CLEARANCE),
                    (x + 2 + PIRANHA_CLEARANCE).min(self.w),
                );
                let (ea, eb) = (
                    x.saturating_sub(ENEMY_CLEARANCE),
                    (x + 2 + ENEMY_CLEARANCE).min(self.w),
                );
                let start = x < self.span.0 + START_ZONE;
                if !start && !(a..b).any(|c| pit(self, c)) && !(ea..eb).any(|c| enemy(self, c)) {
                    continue;
                }
                let mut r = y;
                while r < self.h && self.at(x, r) == b'T' && self.at(x + 1, r) == b'T' {
                    let (l, rr) = if r == y { (b'<', b'>') } else { (b'[', b']') };
                    self.set(x, r, l);
                    self.set(x + 1, r, rr);
                    r += 1;
                }
            }
        }
    }

    /// Gives the rooms' own pipes (`<>` tops) up to 3 tiles tall a piranha plant with
    /// probability `share`.
    fn piranhas(&mut self, x0: usize, x1: usize, share: f32, rng: &mut LevelRng) {
        if share <= 0.0 {
            return;
        }
        for x in x0..x1.min(self.w - 1) {
            for y in 0..self.h {
                if self.at(x, y) != b'<' || self.at(x + 1, y) != b'>' {
                    continue;
                }
                if !rng.random_bool(share.clamp(0.0, 1.0) as f64) {
                    continue;
                }
                // Only pipes up to 3 tiles get a plant: over a taller one Mario has no room
                // to wait for it (the A* agent died at such pipe towers).
                let tall = (y..self.h)
                    .take_while(|&r| matches!(self.at(x, r), b'<' | b'['))
                    .count();
                if tall > 3 {
                    continue;
                }
                let mut r = y;
                while r < self.h && matches!(self.at(x, r), b'<' | b'[') {
                    self.set(x, r, b'T');
                    self.set(x + 1, r, b'T');
                    r += 1;
                }
            }
        }
    }

    /// Keeps column `x` free of added enemies (as a gap's run-up is).
    pub fn keep_clear(&mut self, x: usize) {
        if let Some(c) = self.runway.get_mut(x) {
            *c = true;
        }
    }

    /// Sets the enemies of the window `x0..x1` to `want` with the kinds of `p`, as the
    /// dressing does (after a repair took some out).
    pub fn top_up(&mut self, x0: usize, x1: usize, want: usize, p: &Profile, rng: &mut LevelRng) {
        self.enemies(x0, x1, want, p, rng);
    }

    /// Sets the window's enemies to `want` (plus those earlier windows had no room for, up
    /// to [`MAX_OWED`]): removes room enemies when there are more, adds standing enemies of
    /// the profile's kinds when there are fewer; what finds no room is owed to the next.
    fn enemies(&mut self, x0: usize, x1: usize, want: usize, p: &Profile, rng: &mut LevelRng) {
        let x1 = x1.min(self.w);
        let want = want + std::mem::take(&mut self.owed_enemies).min(MAX_OWED);
        let mut have: Vec<(usize, usize)> = Vec::new();
        for x in x0..x1 {
            for y in 0..self.h {
                if tiles::class_of(self.at(x, y)) == TileClass::Enemy {
                    have.push((x, y));
                }
            }
        }
        // Set pieces keep their enemies; only the others are taken out.
        let mut loose: Vec<usize> = (0..have.len())
            .filter(|&i| !self.piece_cols[have[i].0])
            .collect();
        let mut gone = Vec::new();
        while have.len() - gone.len() > want && !loose.is_empty() {
            let i = loose.swap_remove(rng.random_range(0..loose.len()));
            self.set(have[i].0, have[i].1, b'-');
            gone.push(i);
        }
        gone.sort_unstable();
        for i in gone.into_iter().rev() {
            have.remove(i);
        }
        // Columns with ground at the bottom and no piranha plant, once per window.
        let lo = x0.saturating_sub(ENEMY_CLEARANCE);
        let hi = (x1 + ENEMY_CLEARANCE + 1).min(self.w);
        let clear: Vec<bool> = (lo..hi).map(|c| self.column_clear(c)).collect();
        let near_clear = |x: usize| {
            (x.saturating_sub(ENEMY_CLEARANCE)..(x + ENEMY_CLEARANCE + 1).min(self.w))
                .all(|c| clear[c - lo])
                && !self.lands_after_wide_pit(x)
                && !self.near_cannon(x)
        };
        let mut spots: Vec<(usize, usize)> = Vec::new();
        for x in x0.max(self.span.0)..x1.min(self.span.1 + 1) {
            if self.runway[x] || !near_clear(x) {
                continue;
            }
            for y in 1..self.h - 1 {
                if self.standing_spot(x, y) && !(p.teaching && self.crowded(x, y)) {
                    spots.push((x, y));
                }
            }
        }
        let total: f32 = p.kinds.iter().sum();
        let mut left = want.saturating_sub(have.len());
        while left > 0 && !spots.is_empty() {
            let (x, y) = spots.swap_remove(rng.random_range(0..spots.len()));
            if have.iter().any(|&(hx, _)| hx.abs_diff(x) < 3) {
                continue;
            }
            let mut r = rng.random_range(0.0..total.max(f32::MIN_POSITIVE));
            let mut kind = KINDS[0];
            for (k, &wt) in KINDS.iter().zip(&p.kinds) {
                if r < wt {
                    kind = *k;
                    break;
                }
                r -= wt;
            }
            self.set(x, y, kind);
            have.push((x, y));
            left -= 1;
        }
        self.owed_enemies = left;
    }

    /// Whether column `x` is within [`LANDING_CLEARANCE`] columns right of a pit at least
    /// [`LANDING_PIT`] wide: a walker there comes onto the landing of the jump.
    fn lands_after_wide_pit(&self, x: usize) -> bool {
        let pit = |c: usize| tiles::class_of(self.at(c, self.h - 1)) != TileClass::Solid;
        let Some(edge) = (x.saturating_sub(LANDING_CLEARANCE)..x)
            .rev()
            .find(|&c| pit(c))
        else {
            return false;
        };
        (edge.saturating_sub(LANDING_PIT - 1)..=edge).all(pit) && edge + 1 >= LANDING_PIT
    }

    /// Whether a bullet-bill cannon stands within [`CANNON_CLEARANCE`] columns of `x`.
    fn near_cannon(&self, x: usize) -> bool {
        let hi = (x + CANNON_CLEARANCE + 1).min(self.w);
        (x.saturating_sub(CANNON_CLEARANCE)..hi)
            .any(|c| (0..self.h).any(|r| matches!(self.at(c, r), b'*' | b'B' | b'b')))
    }

    /// Whether column `c` has ground at the bottom and no piranha plant: enemies keep
    /// [`ENEMY_CLEARANCE`] columns from any column that is not (an enemy on a stepping stone
    /// or a landing blocks the jump; one by a plant traps Mario between them).
    fn column_clear(&self, c: usize) -> bool {
        tiles::class_of(self.at(c, self.h - 1)) == TileClass::Solid
            && (0..self.h).all(|r| self.at(c, r) != b'T')
    }

    /// Whether columns `a..b` hold only air or coins in the [`Dress::sky`] rows over row `y`.
    fn open_sky(&self, a: usize, b: usize, y: usize) -> bool {
        y >= self.sky
            && (a..b.min(self.w))
                .all(|c| (y - self.sky..y).all(|r| matches!(self.at(c, r), b'-' | b'o')))
    }

    /// Whether column `c` has no solid tile at the bottom.
    fn ground_gap(&self, c: usize) -> bool {
        tiles::class_of(self.at(c, self.h - 1)) != TileClass::Solid
    }

    /// Whether an enemy at `(x, y)` would not walk alone ([`crate::teach::crowded`]).
    fn crowded(&self, x: usize, y: usize) -> bool {
        let solid = |cx: usize, cy: usize| tiles::class_of(self.at(cx, cy)) == TileClass::Solid;
        crate::teach::crowded(self.w, x, y, solid, |cx| self.ground_gap(cx))
    }

    /// A standing tile Mario reached: air on solid ground (not a pipe with a plant), with
    /// air beside and above it.
    fn standing_spot(&self, x: usize, y: usize) -> bool {
        let air = |c: u8| c == b'-';
        let ground = |c: u8| tiles::class_of(c) == TileClass::Solid && c != b'T';
        x > 0
            && x + 1 < self.w
            && self.reached[y * self.w + x]
            && air(self.at(x, y))
            && air(self.at(x, y - 1))
            && air(self.at(x - 1, y))
            && air(self.at(x + 1, y))
            && ground(self.at(x, y + 1))
            && ground(self.at(x - 1, y + 1))
            && ground(self.at(x + 1, y + 1))
    }
}

/// Flat columns kept in front of a cut gap `w` wide: [`RUNWAY`] for gaps of 6 or more (the
/// checker needs less, but the Mario AI Framework's A* agent falls into wide gaps it cannot
/// run up to), three for narrower ones (a standing jump clears them).
fn runway_for(w: usize) -> usize {
    if w >= 6 { RUNWAY } else { RUNWAY.min(3) }
}

/// `rate` rounded at random: the whole part plus one with the fraction's probability.
fn count(rate: f32, rng: &mut LevelRng) -> usize {
    let whole = rate.max(0.0).floor();
    whole as usize + usize::from(rng.random_bool((rate - whole).clamp(0.0, 1.0) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> (usize, usize, Vec<u8>) {
        let cells: Vec<u8> = rows.iter().flat_map(|r| r.bytes()).collect();
        (rows[0].len(), rows.len(), cells)
    }

    #[test]
    fn no_enemy_is_added_beside_a_cannon() {
        let rows = [
            "------------------------------",
            "----------B-------------------",
            "----------b-------------------",
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        ];
        let (w, h, mut cells) = grid(&rows);
        let mut d = Dress::new(w, h, &mut cells, (0, w - 1), vec![true; w * h]);
        let near: Vec<usize> = (0..w).filter(|&x| d.near_cannon(x)).collect();
        assert_eq!(near, (6..=14).collect::<Vec<_>>());
        let mut rng = grid_core::Seed(3).rng();
        d.enemies(0, w, 6, &Profile::at(1.0), &mut rng);
        let row = &cells[2 * w..3 * w];
        let placed: Vec<usize> = (0..w).filter(|&x| row[x] == b'g').collect();
        assert!(!placed.is_empty(), "{}", String::from_utf8_lossy(row));
        assert!(placed.iter().all(|x| !(6..=14).contains(x)), "{placed:?}");
    }

    #[test]
    fn no_walker_waits_on_a_landing_nor_by_a_plant() {
        let (w, h, mut cells) = grid(&["--------------------", "XXXXX----XXXXXXXXXXX"]);
        let d = Dress::new(w, h, &mut cells, (0, w - 1), vec![true; w * h]);
        let after: Vec<usize> = (0..w).filter(|&x| d.lands_after_wide_pit(x)).collect();
        assert_eq!(after, (9..=16).collect::<Vec<_>>(), "4-wide pit at 5..9");
        let (w, h, mut cells) = grid(&["--------------------", "XXXXX---XXXXXXXXXXXX"]);
        let d = Dress::new(w, h, &mut cells, (0, w - 1), vec![true; w * h]);
        assert!((0..w).all(|x| !d.lands_after_wide_pit(x)), "a 3-wide pit");
        // A plant with a goomba 2 columns away comes out; 3 columns away it stays.
        let rows = [
            "------------------------------",
            "--------g-TT-------TT--g------",
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        ];
        let (w, h, mut cells) = grid(&rows);
        Dress::new(w, h, &mut cells, (0, w - 1), vec![false; w * h]).calm_piranhas();
        assert_eq!(&cells[w..2 * w], b"--------g-<>-------TT--g------");
    }
}
