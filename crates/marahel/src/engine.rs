//! Stage 4: run a [`Program`] for one seed: pick the size, divide, run every explorer.
//!
//! The map is two flat byte buffers (front and back); a cell holds an entity code, or
//! `unknown`, or `out`. [`Ctx`] is everything a rule sees while an explorer runs: the
//! buffers, the current region, the explorer's `out` value, progress and its RNG stream.

use crate::distance;
use crate::distance::quadratic::QUADRATIC_STEPS;
use crate::divider;
use crate::error::MarahelError;
use crate::explorer;
use crate::hook::{Built, Layer, Observer, Report};
use crate::map::MarahelMap;
use crate::noise::NoiseField;
use crate::program::{Program, Range};
use grid_core::rand::RngExt;
use grid_core::{LevelRng, Rect, Seed};
use std::sync::OnceLock;

/// A neighbourhood laid out for one map width.
#[derive(Clone, Debug)]
pub struct FlatNbh {
    /// Offsets `(dx, dy)`.
    pub offsets: Vec<(i64, i64)>,
    /// The same as flat index deltas.
    pub flat: Vec<isize>,
    /// Bounding box of the offsets: min dx, max dx, min dy, max dy.
    pub bbox: (i64, i64, i64, i64),
    /// Whether this is just the centre cell (`self`).
    pub is_self: bool,
}

/// The two buffers of a map.
#[derive(Debug)]
pub struct Canvas {
    /// Width.
    pub w: usize,
    /// Height.
    pub h: usize,
    /// What rules read.
    pub front: Vec<u8>,
    /// Where `replace: buffer` explorers write.
    pub back: Vec<u8>,
}

/// What rules see and change while one explorer runs on one region.
///
/// The map's state, which is the meaning: `canvas`, `rng`, `noise`/`noise_seed`, `nbhs`,
/// `region`, `out`/`out_code`, `buffer`, `wrap`, `counts` (with `track_counts`), `version`,
/// the progress estimators (`percent`, `cpercent`, `rpercent`) and the charge of the walk
/// estimators (`live_charge`). What can be thrown away and computed again: the values of
/// the distance estimators kept until the map changes (`dist_cache`, `paths`), and the state
/// of the layer behind [`crate::hook`] (`layer`), which sees every write of the front buffer.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// The map.
    pub canvas: &'a mut Canvas,
    /// The explorer's random stream.
    pub rng: &'a mut LevelRng,
    /// The map's noise field, built on first use.
    pub noise: &'a OnceLock<NoiseField>,
    /// The seed of the noise field.
    pub noise_seed: Seed,
    /// Neighbourhoods for this map's width.
    pub nbhs: &'a [FlatNbh],
    /// The current region.
    pub region: Rect,
    /// Code read outside the region.
    pub out: u8,
    /// Code of `out`.
    pub out_code: u8,
    /// Whether writes go to the back buffer.
    pub buffer: bool,
    /// Whether to keep [`Ctx::counts`] up to date.
    pub track_counts: bool,
    /// Number of cells of each code in the region (front buffer), when tracked.
    pub counts: Vec<u32>,
    /// Bumped on every front-buffer change (invalidates distance caches).
    pub version: u64,
    /// `dist` planes per estimator slot (the walking `minDist` too).
    pub dist_cache: Memo<Vec<u32>>,
    /// Caches of the 2017 distance estimators ([`crate::distance::paths`]).
    pub paths: distance::paths::Caches,
    /// The region's edges wrap around (2017 `borderType: wrap`).
    pub wrap: bool,
    /// Visit progress in `[0, 1)`.
    pub percent: f64,
    /// Firing progress in `[0, 1)`.
    pub cpercent: f64,
    /// Repeat progress in `[0, 1)`.
    pub rpercent: f64,
    /// The state of the layer that observes the writes and may run passes
    /// ([`crate::hook::Observer`]).
    pub layer: Layer<'a>,
    /// What the pass may still read computing `dist` planes and Manhattan statistics again
    /// ([`crate::cost::PlaneCharge`]).
    pub planes: crate::cost::PlaneCharge,
    /// In a live pass reading a walking `minDist`: its charge, counted as the pass changes
    /// cells ([`crate::distance::quadratic::LiveCharge`]).
    pub live_charge: Option<crate::distance::quadratic::LiveCharge>,
}

impl Ctx<'_> {
    /// Whether `(x, y)` lies in the current region.
    #[inline]
    pub fn inside(&self, x: i64, y: i64) -> bool {
        let r = &self.region;
        x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h
    }

    /// `(x, y)` when it lies in the region; when the region wraps, the cell of the region it
    /// wraps to; else `None`.
    #[inline]
    pub fn wrapped(&self, x: i64, y: i64) -> Option<(i64, i64)> {
        let r = &self.region;
        if self.inside(x, y) {
            Some((x, y))
        } else if self.wrap {
            Some((
                r.x + (x - r.x).rem_euclid(r.w),
                r.y + (y - r.y).rem_euclid(r.h),
            ))
        } else {
            None
        }
    }

    /// Whether the box `b` (min dx, max dx, min dy, max dy) around `(x, y)` lies in the
    /// region.
    #[inline]
    pub fn interior(&self, b: (i64, i64, i64, i64), x: i64, y: i64) -> bool {
        self.inside(x + b.0, y + b.2) && self.inside(x + b.1, y + b.3)
    }

    /// The weight of a cell outside the region: that of `out`, plus that of the explorer's
    /// `out` entity when it is another.
    #[inline]
    pub fn out_weight(&self, weights: &[u32; 256]) -> u32 {
        let other = self.out != self.out_code;
        weights[self.out_code as usize] + if other { weights[self.out as usize] } else { 0 }
    }

    /// Weighted count of the neighbourhood's cells around `(x, y)`.
    #[inline(always)]
    pub fn count_nbh(&self, nbh: usize, weights: &[u32; 256], x: usize, y: usize) -> u32 {
        let n = &self.nbhs[nbh];
        let (xi, yi) = (x as i64, y as i64);
        if !self.interior(n.bbox, xi, yi) {
            return self.count_nbh_edge(n, weights, xi, yi);
        }
        let (front, base) = (&self.canvas.front, (y * self.canvas.w + x) as isize);
        let at = |d: isize| weights[front[(base + d) as usize] as usize];
        n.flat.iter().fold(0u32, |s, &d| s.wrapping_add(at(d)))
    }

    /// [`Ctx::count_nbh`] near the region's edge: cells outside read `out` (or, when the
    /// region wraps, the cell they wrap to).
    #[inline(never)]
    pub fn count_nbh_edge(&self, n: &FlatNbh, weights: &[u32; 256], xi: i64, yi: i64) -> u32 {
        let (front, out_w) = (&self.canvas.front, self.out_weight(weights));
        n.offsets
            .iter()
            .map(|&(dx, dy)| match self.wrapped(xi + dx, yi + dy) {
                Some((nx, ny)) => {
                    weights[front[ny as usize * self.canvas.w + nx as usize] as usize]
                }
                None => out_w,
            })
            .sum()
    }

    /// Writes `value` to every in-region cell of the neighbourhood around `(x, y)`.
    #[inline]
    pub fn write_nbh(&mut self, nbh: usize, x: usize, y: usize, value: u8) {
        let n = &self.nbhs[nbh];
        if n.is_self {
            // The cell being visited is always inside the region.
            self.set_at(x, y, value);
            return;
        }
        let (xi, yi) = (x as i64, y as i64);
        if self.track_counts || self.layer.watching() || self.wrap {
            for &(dx, dy) in &n.offsets {
                if let Some((nx, ny)) = self.wrapped(xi + dx, yi + dy) {
                    self.set_at(nx as usize, ny as usize, value);
                }
            }
            return;
        }
        // Nothing is counted: plain stores (all write the same value, so their order does not
        // matter), the version bumped once per changed cell, as `store` does.
        let (w, interior) = (self.canvas.w, self.interior(n.bbox, xi, yi));
        let r = self.region;
        let target = if self.buffer {
            &mut self.canvas.back
        } else {
            &mut self.canvas.front
        };
        let mut changed = 0;
        let mut store = |i: usize| {
            changed += u64::from(target[i] != value);
            target[i] = value;
        };
        if interior {
            let base = (y * w + x) as isize;
            n.flat.iter().for_each(|&d| store((base + d) as usize));
        } else {
            for &(dx, dy) in &n.offsets {
                let (nx, ny) = (xi + dx, yi + dy);
                if nx >= r.x && ny >= r.y && nx < r.x + r.w && ny < r.y + r.h {
                    store(ny as usize * w + nx as usize);
                }
            }
        }
        if !self.buffer {
            self.version += changed;
        }
    }

    /// Writes cell `(x, y)` (inside the region), keeping the live planes exact.
    #[inline]
    pub fn set_at(&mut self, x: usize, y: usize, value: u8) {
        self.store(y * self.canvas.w + x, value, || (x, y));
    }

    /// Writes one cell (flat index, inside the region).
    #[inline]
    pub fn set(&mut self, i: usize, value: u8) {
        let w = self.canvas.w;
        self.store(i, value, || (i % w, i / w));
    }

    /// Writes cell `i` (at `at()`): to the back buffer in a buffered pass, else to the front
    /// buffer, bumping the version and keeping the counts and live planes exact.
    #[inline(always)]
    fn store(&mut self, i: usize, value: u8, at: impl Fn() -> (usize, usize)) {
        if self.buffer {
            self.canvas.back[i] = value;
            return;
        }
        let old = self.canvas.front[i];
        if old != value {
            self.canvas.front[i] = value;
            self.version += 1;
            if self.track_counts {
                self.counts[old as usize] -= 1;
                self.counts[value as usize] += 1;
            }
            self.layer.on_write(self.version, at, old, value);
        }
    }

    /// Sets the region and recounts it when counts are tracked.
    pub fn enter(&mut self, region: Rect) {
        self.region = region;
        if self.track_counts {
            self.counts.iter_mut().for_each(|c| *c = 0);
            for y in region.y..region.bottom() {
                let row = y as usize * self.canvas.w;
                for x in region.x..region.right() {
                    self.counts[self.canvas.front[row + x as usize] as usize] += 1;
                }
            }
        }
    }
}

/// Values computed over a region, one per estimator slot, each kept for the region and map
/// version it was computed at: until the map changes, they are the estimators' values.
#[derive(Debug, Default)]
pub struct Memo<T>(Vec<Option<(u64, Rect, T)>>);

impl<T: Default> Memo<T> {
    /// `slots` empty slots.
    pub fn new(slots: usize) -> Self {
        Memo((0..slots).map(|_| None).collect())
    }

    /// Forgets every value.
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|k| *k = None);
    }

    /// The value of `slot` for region `r` at map version `version`: the kept one when it was
    /// computed for them, else computed again by `fill` (over the old value, to reuse its
    /// buffers).
    pub fn get(&mut self, slot: usize, key: (Rect, u64), fill: impl FnOnce(&mut T)) -> &T {
        self.get_with(slot, key, false, fill)
    }

    /// [`Memo::get`]; with `any_version`, a value kept for region `r` at any map version
    /// serves (one that depends only on the region's shape).
    pub fn get_with(
        &mut self,
        slot: usize,
        (r, version): (Rect, u64),
        any_version: bool,
        fill: impl FnOnce(&mut T),
    ) -> &T {
        let kept = &mut self.0[slot];
        if !matches!(kept, Some((v, rr, _)) if (any_version || *v == version) && *rr == r) {
            let mut value = kept.take().map(|(_, _, t)| t).unwrap_or_default();
            fill(&mut value);
            *kept = Some((version, r, value));
        }
        self.kept(slot)
    }

    /// The value last computed for `slot` (by [`Memo::get`], which must have run).
    pub fn kept(&self, slot: usize) -> &T {
        &self.0[slot].as_ref().expect("computed by get").2
    }
}

/// Draws from an inclusive range.
pub fn draw(r: Range, rng: &mut LevelRng) -> u64 {
    if r.max <= r.min {
        r.min
    } else {
        rng.random_range(r.min..=r.max)
    }
}

/// Generates one map. `size` overrides the script's size range. `built` is what the layer
/// built from `p` and `trace`, when given, receives its plan of every region pass
/// ([`crate::hook`]).
pub fn generate(
    p: &Program,
    built: &Built,
    seed: u64,
    size: Option<(usize, usize)>,
    mut trace: Option<&mut Vec<Report>>,
) -> Result<MarahelMap, MarahelError> {
    let root = Seed(seed);
    let needs_retry = p.entities.iter().any(|e| e.count.is_some());
    let mut last = None;
    // 2017 scripts bound entity counts; like the 2017 engine, regenerate up to 10 times.
    for trial in 0..if needs_retry { 10 } else { 1 } {
        let s = if trial == 0 {
            root
        } else {
            root.stream("count-retry").child(trial)
        };
        if let Some(t) = trace.as_deref_mut() {
            t.clear();
        }
        let map = generate_once(p, built, s, size, trace.as_deref_mut())?;
        let ok = p.entities.iter().enumerate().all(|(i, e)| {
            e.count.is_none_or(|r| {
                let n = map.cells.iter().filter(|&&c| c as usize == i).count() as u64;
                n >= r.min && n <= r.max
            })
        });
        if ok {
            return Ok(map);
        }
        last = Some(map);
    }
    let mut map = last.expect("at least one trial");
    map.warnings
        .push("entity count bounds not met after 10 trials".into());
    Ok(map)
}

fn generate_once(
    p: &Program,
    built: &Built,
    seed: Seed,
    size: Option<(usize, usize)>,
    trace: Option<&mut Vec<Report>>,
) -> Result<MarahelMap, MarahelError> {
    let mut srng = seed.stream("size").rng();
    let mut side = |min: usize, max: usize| {
        let range = Range {
            min: min as u64,
            max: max as u64,
        };
        draw(range, &mut srng) as usize
    };
    // Width first, then height (the draw order is part of the map).
    let (w, h) = size.unwrap_or_else(|| {
        let w = side(p.min.0, p.max.0);
        (w, side(p.min.1, p.max.1))
    });
    let mut warnings = Vec::new();
    let regions = match &p.divider {
        None => Vec::new(),
        Some(d) => divider::divide(d, w, h, &mut seed.stream("regions").rng(), &mut warnings),
    };
    let noise = OnceLock::new();
    crate::workspace::with_workspace(w * h, |ws| {
        ws.lay_out(p, w);
        let unknown = p.unknown();
        let mut back = std::mem::take(&mut ws.back);
        back.clear();
        back.resize(w * h, unknown);
        let mut canvas = Canvas {
            w,
            h,
            front: vec![unknown; w * h],
            back,
        };
        let (explorers, noise_seed) = (seed.stream("explorers"), seed.stream("noise"));
        let mut rng = explorers.child(0).rng();
        let whole = Rect::new(0, 0, w as i64, h as i64);
        let layer = Layer::new(p, (built, &mut ws.kept, trace));
        // One context for the whole map; each explorer sets its own fields below.
        let mut ctx = Ctx {
            canvas: &mut canvas,
            rng: &mut rng,
            noise: &noise,
            noise_seed,
            nbhs: &ws.nbhs,
            region: whole,
            out: 0,
            out_code: p.out(),
            buffer: false,
            track_counts: false,
            counts: std::mem::take(&mut ws.counts),
            version: 0,
            dist_cache: Memo::new(p.dist_slots),
            paths: distance::paths::Caches::new(p.dist_slots),
            layer,
            wrap: false,
            percent: 0.0,
            cpercent: 0.0,
            rpercent: 0.0,
            live_charge: None,
            planes: Default::default(),
        };
        let mut quadratic_left = QUADRATIC_STEPS;
        for (i, ex) in p.explorers.iter().enumerate() {
            if i > 0 {
                *ctx.rng = explorers.child(i as u64).rng();
            }
            ctx.region = whole;
            (ctx.out, ctx.buffer, ctx.wrap) = (ex.out, ex.buffer, ex.wrap);
            ctx.track_counts = explorer::uses_counts(ex);
            ctx.counts.clear();
            ctx.counts.resize(p.entities.len() + 2, 0);
            (ctx.percent, ctx.cpercent, ctx.rpercent) = (0.0, 0.0, 0.0);
            ctx.dist_cache.clear();
            ctx.paths.clear();
            ctx.layer.start_explorer(i, ex);
            explorer::run(ex, &regions, &mut ctx, &mut warnings, &mut quadratic_left)?;
            ctx.layer.end_explorer(w * h);
        }
        let Ctx { layer, counts, .. } = ctx;
        layer.keep(&mut ws.kept);
        ws.counts = counts;
        ws.back = std::mem::take(&mut canvas.back);
        Ok(MarahelMap::new(
            p,
            (canvas.w, canvas.h),
            canvas.front,
            warnings,
            regions,
        ))
    })
}

/// The flat index delta of offset `(x, y)` on a map `w` cells wide.
pub(crate) fn flat(x: i64, y: i64, w: usize) -> isize {
    (y * w as i64 + x) as isize
}

impl FlatNbh {
    /// The neighbourhood of `offsets` on a map `w` cells wide.
    pub(crate) fn new(offsets: &[(i32, i32)], w: usize) -> FlatNbh {
        let offsets: Vec<(i64, i64)> = offsets.iter().map(|&(x, y)| (x as i64, y as i64)).collect();
        let flat = offsets.iter().map(|&(x, y)| flat(x, y, w)).collect();
        let bbox = offsets.iter().fold((0, 0, 0, 0), |b, &(x, y)| {
            (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y))
        });
        FlatNbh {
            is_self: offsets == [(0, 0)],
            offsets,
            flat,
            bbox,
        }
    }
}
