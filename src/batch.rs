//! Batch generation: one job per seed, in parallel, with results in seed order.
//!
//! A batch runs a closure over the seeds of a [`SeedRange`] (`seed..seed+count`, or `A..B`
//! from `--seeds A..B`) on rayon's thread pool. Map `i` of a batch is a pure function of its
//! seed, and results are delivered in seed order, so a batch gives the same output with 1
//! thread or 64, and the runs `0..500` and `500..1000` concatenated equal the run `0..1000`
//! (which is how a large run is split across machines or cluster job arrays).
//!
//! A progress bar is drawn on stderr when it is a terminal and the batch is not quiet;
//! otherwise nothing is printed.
//!
//! ```
//! use levelgen::batch::{Batch, SeedRange};
//! let squares = Batch::new(SeedRange::from_count(3, 4)).quiet(true).map(|seed| seed * seed);
//! assert_eq!(squares, vec![9, 16, 25, 36]);
//! let range: SeedRange = "10..13".parse().unwrap();
//! assert_eq!(range.iter().collect::<Vec<_>>(), vec![10, 11, 12]);
//! ```

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use rayon::prelude::*;
use std::fmt;
use std::io::IsTerminal;
use std::str::FromStr;
use thiserror::Error;

/// Seeds handled per parallel round by [`Batch::for_each_ordered`]: results of one round are
/// held in memory, then handed to the sink in seed order.
const CHUNK: u64 = 4096;

/// A bad `--seeds` range.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("bad seed range {text}: expected A..B with A <= B (B excluded), e.g. 0..1000")]
pub struct SeedRangeError {
    /// An excerpt of the text given (see [`grid_core::text::excerpt`]).
    pub text: String,
}

/// A range of seeds: `len` seeds from `start` on. Every `u64` is a seed, `u64::MAX` too; a
/// range never wraps around past it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeedRange {
    /// First seed.
    pub start: u64,
    /// Number of seeds; `start + len - 1` is at most `u64::MAX`.
    len: u64,
}

impl SeedRange {
    /// The seeds `start..end`, `end` excluded (empty if `end <= start`).
    pub fn new(start: u64, end: u64) -> Self {
        Self {
            start,
            len: end.saturating_sub(start),
        }
    }

    /// The seeds `first..=last`, both included (empty if `last < first`); `None` for
    /// `0..=u64::MAX`, whose 2^64 seeds no count can hold.
    pub fn inclusive(first: u64, last: u64) -> Option<Self> {
        if last < first {
            return Some(Self::new(first, first));
        }
        (last - first)
            .checked_add(1)
            .map(|len| Self { start: first, len })
    }

    /// The `count` seeds from `seed` on, or fewer when they would pass `u64::MAX` (the
    /// range stops at `u64::MAX`; compare [`SeedRange::len`] with `count` to refuse that).
    pub fn from_count(seed: u64, count: u64) -> Self {
        let room = (u64::MAX - seed).checked_add(1);
        Self {
            start: seed,
            len: room.map_or(count, |room| count.min(room)),
        }
    }

    /// Number of seeds.
    pub fn len(self) -> u64 {
        self.len
    }

    /// Whether the range holds no seed.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The last seed, if any.
    pub fn last(self) -> Option<u64> {
        (self.len > 0).then(|| self.start + (self.len - 1))
    }

    /// The seeds in order.
    pub fn iter(self) -> impl Iterator<Item = u64> {
        (0..self.len).map(move |i| self.start + i)
    }
}

impl fmt::Display for SeedRange {
    /// `A..B` (B excluded); a range ending at `u64::MAX` is written `A..=18446744073709551615`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.start.checked_add(self.len) {
            Some(end) => write!(f, "{}..{end}", self.start),
            None => write!(f, "{}..={}", self.start, u64::MAX),
        }
    }
}

impl FromStr for SeedRange {
    type Err = SeedRangeError;

    /// `A..B` (B excluded) or `A..=B` (B included, so `u64::MAX` can be the last seed).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || SeedRangeError {
            text: grid_core::text::excerpt(s),
        };
        let (a, b) = s.split_once("..").ok_or_else(bad)?;
        let (b, inclusive) = match b.strip_prefix('=') {
            Some(b) => (b, true),
            None => (b, false),
        };
        let a: u64 = a.trim().parse().map_err(|_| bad())?;
        let b: u64 = b.trim().parse().map_err(|_| bad())?;
        if a > b {
            return Err(bad());
        }
        if inclusive {
            Self::inclusive(a, b).ok_or_else(bad)
        } else {
            Ok(Self::new(a, b))
        }
    }
}

/// A batch of jobs over a seed range.
#[derive(Clone, Debug)]
pub struct Batch {
    seeds: SeedRange,
    quiet: bool,
    label: String,
}

impl Batch {
    /// A batch over `seeds`, with a progress bar when stderr is a terminal.
    pub fn new(seeds: SeedRange) -> Self {
        Self {
            seeds,
            quiet: false,
            label: String::new(),
        }
    }

    /// The batch of a generator subcommand's `--seed`/`--count`/`--quiet`, labelled `label`:
    /// what a `--count N` loop runs through.
    ///
    /// ```
    /// use clap::Parser;
    /// use levelgen::batch::Batch;
    /// use levelgen::cli::common::CommonArgs;
    /// #[derive(Parser)]
    /// struct Cli {
    ///     #[command(flatten)]
    ///     common: CommonArgs,
    /// }
    /// let cli = Cli::parse_from(["x", "--seed", "5", "--count", "3", "-q"]);
    /// let batch = Batch::from_common(&cli.common, "cave");
    /// assert_eq!(batch.map(|seed| seed), vec![5, 6, 7]);
    /// ```
    pub fn from_common(common: &crate::cli::common::CommonArgs, label: &str) -> Self {
        common.batch(label)
    }

    /// No progress bar even on a terminal.
    pub fn quiet(mut self, quiet: bool) -> Self {
        self.quiet = quiet;
        self
    }

    /// A word shown before the progress bar (`"cave"`).
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The seeds of this batch.
    pub fn seeds(&self) -> SeedRange {
        self.seeds
    }

    fn progress(&self) -> ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(
            Some(self.seeds.len()),
            ProgressDrawTarget::stderr_with_hz(10),
        );
        if let Ok(style) = ProgressStyle::with_template(
            "{prefix} [{bar:40}] {pos}/{len} maps, {rate} maps/s, eta {eta}",
        ) {
            bar.set_style(
                style
                    .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0}", s.per_sec());
                    })
                    .progress_chars("=> "),
            );
        }
        bar.set_prefix(self.label.clone());
        bar
    }

    /// Runs `job` on every seed in parallel; `init` makes per-worker scratch state (buffers,
    /// a parsed script clone) that jobs reuse. Calls `sink(seed, result)` in seed order, on
    /// the calling thread, and stops at the first error the sink returns.
    ///
    /// Seeds are processed in rounds of a few thousand so memory stays bounded however
    /// large the batch.
    pub fn for_each_ordered<S, T, E>(
        &self,
        init: impl Fn() -> S + Sync + Send,
        job: impl Fn(&mut S, u64) -> T + Sync + Send,
        mut sink: impl FnMut(u64, T) -> Result<(), E>,
    ) -> Result<(), E>
    where
        T: Send,
    {
        let bar = self.progress();
        let (first, total) = (self.seeds.start, self.seeds.len());
        // Offsets from the first seed: `first + done + i` never passes the range's last seed,
        // which may be u64::MAX.
        let mut done = 0u64;
        let mut round: Vec<T> = Vec::new();
        while done < total {
            let n = (total - done).min(CHUNK);
            let start = first + done;
            round.clear();
            (0..n as usize)
                .into_par_iter()
                .map_init(&init, |state, i| {
                    let out = job(state, start + i as u64);
                    bar.inc(1);
                    out
                })
                .collect_into_vec(&mut round);
            for (i, out) in round.drain(..).enumerate() {
                if let Err(e) = sink(start + i as u64, out) {
                    bar.finish_and_clear();
                    return Err(e);
                }
            }
            done += n;
        }
        bar.finish_and_clear();
        Ok(())
    }

    /// Runs `job` on every seed in parallel with per-worker state; results in seed order.
    pub fn map_init<S, T>(
        &self,
        init: impl Fn() -> S + Sync + Send,
        job: impl Fn(&mut S, u64) -> T + Sync + Send,
    ) -> Vec<T>
    where
        T: Send,
    {
        let mut out = Vec::with_capacity(self.seeds.len().min(1 << 20) as usize);
        let done: Result<(), std::convert::Infallible> =
            self.for_each_ordered(init, job, |_, t| {
                out.push(t);
                Ok(())
            });
        let Ok(()) = done;
        out
    }

    /// Runs `job` on every seed in parallel; results in seed order.
    pub fn map<T: Send>(&self, job: impl Fn(u64) -> T + Sync + Send) -> Vec<T> {
        self.map_init(|| (), |_, seed| job(seed))
    }

    /// Runs a fallible `job` on every seed; the results in seed order, or the error of the
    /// lowest failing seed (the same error whatever the thread count).
    pub fn try_map<T: Send, E: Send>(
        &self,
        job: impl Fn(u64) -> Result<T, E> + Sync + Send,
    ) -> Result<Vec<T>, E> {
        let mut out = Vec::with_capacity(self.seeds.len().min(1 << 20) as usize);
        self.for_each_ordered(
            || (),
            |_, seed| job(seed),
            |_, r| {
                out.push(r?);
                Ok(())
            },
        )?;
        Ok(out)
    }
}

/// Runs `f` on a rayon pool of `threads` threads (0: rayon's default, one per core).
pub fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, String> {
    if threads == 0 {
        return Ok(f());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("could not start {threads} threads: {e}"))?;
    Ok(pool.install(f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::Seed;
    use grid_core::rand::RngExt;

    /// A job whose cost and result vary by seed, so threads finish out of order.
    fn job(seed: u64) -> (u64, u32) {
        let mut rng = Seed(seed).rng();
        let steps = rng.random_range(10..2000u32);
        let mut acc = 0u32;
        for _ in 0..steps {
            acc = acc.wrapping_add(rng.random_range(0..1000u32));
        }
        (seed, acc)
    }

    #[test]
    fn results_are_identical_for_one_and_two_threads() {
        let batch = Batch::new(SeedRange::from_count(100, 5000)).quiet(true);
        let one = with_threads(1, || batch.map(job)).unwrap();
        let two = with_threads(2, || batch.map(job)).unwrap();
        assert_eq!(one.len(), 5000);
        assert_eq!(one, two);
        let seeds: Vec<u64> = one.iter().map(|r| r.0).collect();
        assert_eq!(seeds, (100..5100).collect::<Vec<_>>());
        let serial: Vec<_> = (100..5100).map(job).collect();
        assert_eq!(one, serial);
    }

    #[test]
    fn two_threads_share_the_work() {
        let batch = Batch::new(SeedRange::new(0, 2000)).quiet(true);
        let workers = with_threads(2, || {
            batch.map(|seed| {
                job(seed);
                rayon::current_thread_index()
            })
        })
        .unwrap();
        let mut used: Vec<usize> = workers.into_iter().flatten().collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used, vec![0, 1]);
    }

    #[test]
    fn split_ranges_concatenate_to_the_whole() {
        let whole = Batch::new("0..300".parse().unwrap()).quiet(true).map(job);
        let mut parts = Batch::new("0..120".parse().unwrap()).quiet(true).map(job);
        parts.extend(Batch::new("120..300".parse().unwrap()).quiet(true).map(job));
        assert_eq!(whole, parts);
    }

    #[test]
    fn map_init_reuses_state_and_keeps_order() {
        let batch = Batch::new(SeedRange::new(0, 9000)).quiet(true);
        let out = with_threads(2, || {
            batch.map_init(Vec::<u64>::new, |buf, seed| {
                buf.clear();
                buf.extend(0..seed % 7);
                buf.iter().sum::<u64>() + seed * 10
            })
        })
        .unwrap();
        let expect: Vec<u64> = (0..9000)
            .map(|s| (0..s % 7).sum::<u64>() + s * 10)
            .collect();
        assert_eq!(out, expect);
    }

    #[test]
    fn first_error_is_the_lowest_seed_whatever_the_threads() {
        let batch = Batch::new(SeedRange::new(0, 6000)).quiet(true);
        let f = |s: u64| if s % 1000 == 999 { Err(s) } else { Ok(s) };
        for t in [1, 2, 4] {
            assert_eq!(with_threads(t, || batch.try_map(f)).unwrap(), Err(999));
        }
        let ok = Batch::new(SeedRange::new(0, 10))
            .quiet(true)
            .try_map(Ok::<_, ()>);
        assert_eq!(ok, Ok((0..10).collect()));
    }

    #[test]
    fn sink_stops_at_its_first_error() {
        let batch = Batch::new(SeedRange::new(5, 20)).quiet(true);
        let mut seen = Vec::new();
        let r = batch.for_each_ordered(
            || (),
            |_, s| s,
            |seed, v| {
                assert_eq!(seed, v);
                seen.push(v);
                if v == 8 { Err("stop") } else { Ok(()) }
            },
        );
        assert_eq!(r, Err("stop"));
        assert_eq!(seen, vec![5, 6, 7, 8]);
    }

    proptest::proptest! {
        #[test]
        fn seed_range_parser_never_panics(s in ".{0,30}") {
            let _ = s.parse::<SeedRange>();
        }

        #[test]
        fn seed_ranges_round_trip(a in 0u64..u64::MAX / 2, n in 0u64..1_000_000) {
            let r = SeedRange::new(a, a + n);
            proptest::prop_assert_eq!(r.to_string().parse::<SeedRange>(), Ok(r));
            proptest::prop_assert_eq!(r.len(), n);
        }
    }

    #[test]
    fn seed_range_parsing() {
        assert_eq!("3..7".parse(), Ok(SeedRange::new(3, 7)));
        assert_eq!(" 0 .. 0 ".parse::<SeedRange>().map(|r| r.len()), Ok(0));
        assert!("7..3".parse::<SeedRange>().is_err());
        assert!("7".parse::<SeedRange>().is_err());
        assert!("a..b".parse::<SeedRange>().is_err());
        assert_eq!(SeedRange::from_count(u64::MAX - 1, 5).len(), 2);
        assert_eq!(SeedRange::from_count(u64::MAX, 1).len(), 1);
        assert_eq!(SeedRange::from_count(0, u64::MAX).len(), u64::MAX);
        let last = SeedRange::from_count(u64::MAX - 2, 3);
        assert_eq!(
            last.to_string(),
            "18446744073709551613..=18446744073709551615"
        );
        assert_eq!(last.to_string().parse(), Ok(last));
        assert_eq!(last.last(), Some(u64::MAX));
        assert_eq!(
            Batch::new(last).quiet(true).map(|s| s),
            vec![u64::MAX - 2, u64::MAX - 1, u64::MAX]
        );
        assert_eq!("5..=5".parse::<SeedRange>().map(|r| r.len()), Ok(1));
        assert!(format!("0..={}", u64::MAX).parse::<SeedRange>().is_err());
        assert_eq!(SeedRange::new(3, 7).to_string(), "3..7");
        assert!(Batch::new(SeedRange::new(1, 1)).map(|s| s).is_empty());
    }
}
