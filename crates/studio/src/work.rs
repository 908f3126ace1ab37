//! How much generation runs at once, and for how long.
//!
//! Every request is costed from its fields before any work ([`Cost`]: the bytes it may hold at
//! its peak, and the cells it will generate). A request over [`PER_REQUEST_MEMORY`] is
//! refused (400). Otherwise it waits in one of two lanes for a turn: *light* requests (at most
//! [`LIGHT_MEMORY`] and [`LIGHT_CELLS`], what the page sends while you type) and *heavy*
//! ones, each lane running at most as many requests as the machine has cores, so a burst of
//! large pictures never keeps a small one waiting behind it. Running requests also share a
//! memory budget of [`MEMORY_BUDGET`]. A lane with [`QUEUE`] requests already waiting, or a
//! wait longer than [`QUEUE_WAIT`], is answered 503 with `Retry-After`.
//!
//! Work runs on tokio's blocking pool with a [`Job`]: it checks the job between stages (and
//! between maps of a range) and ends early when the client has gone (the request future was
//! dropped) or [`TIME_LIMIT`] has passed, which answers 422 naming the limit. The permits go
//! with the work, so a request that stopped waiting still counts until its thread is free.
//!
//! Once no request runs and a heavy one has finished since, the pool waits [`TRIM_DELAY`]
//! (for the last answers to be written and freed) and hands the freed heap back to the
//! system ([`give_back_memory`]): glibc's malloc otherwise keeps freed pages in its
//! per-thread arenas, and the studio's resident memory would stay above its idle figure after
//! a burst. [`bound_arenas`] (called by [`crate::run`] before any thread starts) also caps
//! those arenas at [`MALLOC_ARENAS`], so the memory of a burst's many threads is not spread
//! over as many arenas, each keeping its own free pages.

use crate::error::StudioError;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Memory that all running requests may hold together, in bytes (512 MiB).
pub const MEMORY_BUDGET: u64 = 512 << 20;
/// Most memory one request may be estimated to need, in bytes (256 MiB).
pub const PER_REQUEST_MEMORY: u64 = 256 << 20;
/// A request estimated at most this many bytes (and [`LIGHT_CELLS`]) is light (8 MiB).
pub const LIGHT_MEMORY: u64 = 8 << 20;
/// A request generating at most this many cells (and [`LIGHT_MEMORY`]) is light.
pub const LIGHT_CELLS: u64 = 1 << 20;
/// Requests that may wait for a turn in each lane; one more is answered 503.
pub const QUEUE: usize = 32;
/// Longest wait for a turn before the answer is 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(15);
/// Longest a request's work may run.
pub const TIME_LIMIT: Duration = Duration::from_secs(20);
/// Seconds a client is told to wait after a 503 (`Retry-After`).
pub const RETRY_AFTER: u64 = 1;
/// How long the pool stays idle after heavy work before it gives freed memory back.
pub const TRIM_DELAY: Duration = Duration::from_millis(250);

/// The most malloc arenas the studio process uses (glibc's default is 8 per core).
pub const MALLOC_ARENAS: i32 = 2;

/// Caps glibc's malloc arenas at [`MALLOC_ARENAS`] (`mallopt(M_ARENA_MAX)`, as the
/// `MALLOC_ARENA_MAX` environment variable would); call it before threads start. Elsewhere
/// nothing.
pub fn bound_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: mallopt takes two integers and has no preconditions; it is called before the
    // runtime's threads start.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
    }
}

/// Hands the heap's free pages back to the system: `malloc_trim(0)` on glibc, which walks
/// every arena (the blocking threads' included); elsewhere nothing (other allocators give
/// memory back on their own, or offer no such call).
pub fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: malloc_trim takes no pointers and has no preconditions; it locks each arena
    // itself, so it may run while other threads allocate.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// When to give memory back: requests running, and whether heavy work finished since the
/// last trim.
#[derive(Debug, Default)]
struct Trim {
    running: AtomicUsize,
    dirty: AtomicBool,
    done: AtomicUsize,
}

impl Trim {
    /// A request starts.
    fn start(&self) {
        self.running.fetch_add(1, Ordering::SeqCst);
    }

    /// A request ended: after heavy work, once nothing runs, a trim [`TRIM_DELAY`] later if
    /// the pool is still idle then.
    fn end(self: &Arc<Self>, heavy: bool) {
        if heavy {
            self.dirty.store(true, Ordering::SeqCst);
        }
        if self.running.fetch_sub(1, Ordering::SeqCst) != 1 || !self.dirty.load(Ordering::SeqCst) {
            return;
        }
        let trim = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(TRIM_DELAY).await;
            if trim.running.load(Ordering::SeqCst) == 0 && trim.dirty.swap(false, Ordering::SeqCst)
            {
                let _ = tokio::task::spawn_blocking(give_back_memory).await;
                trim.done.fetch_add(1, Ordering::SeqCst);
            }
        });
    }
}

/// Ends a request's count in [`Trim`] when dropped, also when the request is cancelled.
struct Running(Arc<Trim>, bool);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.end(self.1);
    }
}

/// What a request will cost, estimated from its fields before any work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    /// Bytes it may hold at its peak (maps, pixels, PNG and base64 copies).
    pub memory: u64,
    /// Cells it generates (over every map of a range or search).
    pub cells: u64,
}

impl Cost {
    /// Whether the request goes to the light lane.
    pub fn is_light(self) -> bool {
        self.memory <= LIGHT_MEMORY && self.cells <= LIGHT_CELLS
    }
}

/// A running request's stop conditions: the client went away, or its time is up.
#[derive(Clone, Debug)]
pub struct Job {
    cancelled: Arc<AtomicBool>,
    deadline: Instant,
    limit: Duration,
}

impl Job {
    /// A job that may run for `limit` from now.
    pub fn new(limit: Duration) -> Self {
        Job {
            cancelled: Arc::new(AtomicBool::new(false)),
            deadline: Instant::now() + limit,
            limit,
        }
    }

    /// A job with no client and no deadline to speak of (tests, the fuzz target).
    pub fn unlimited() -> Self {
        Job::new(Duration::from_secs(3600))
    }

    /// Stops the work at its next check.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// `Ok` while the work should go on; an error once the client went away or the time is
    /// up.
    pub fn check(&self) -> Result<(), StudioError> {
        if self.cancelled.load(Ordering::Relaxed) {
            Err(StudioError::Cancelled)
        } else if Instant::now() > self.deadline {
            Err(self.timed_out())
        } else {
            Ok(())
        }
    }

    /// The error of a request past its time limit.
    pub fn timed_out(&self) -> StudioError {
        StudioError::TimeLimit {
            seconds: self.limit.as_secs(),
        }
    }
}

/// Cancels a job when dropped: the request future holds one, so a client that goes away
/// (hyper drops the future) stops the work.
struct CancelOnDrop(Job);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// One lane: its turns and how many wait for one.
#[derive(Debug)]
struct Lane {
    turns: Arc<Semaphore>,
    waiting: AtomicUsize,
}

impl Lane {
    fn new(turns: usize) -> Self {
        Lane {
            turns: Arc::new(Semaphore::new(turns)),
            waiting: AtomicUsize::new(0),
        }
    }
}

/// Counts a waiting request for as long as it waits.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The studio's shared limits: two lanes and a memory budget.
#[derive(Debug)]
pub struct Pool {
    light: Lane,
    heavy: Lane,
    memory: Arc<Semaphore>,
    time_limit: Duration,
    trim: Arc<Trim>,
}

/// What a running request holds: its turn and its memory.
#[derive(Debug)]
pub struct Permits {
    _turn: OwnedSemaphorePermit,
    _memory: OwnedSemaphorePermit,
}

impl Pool {
    /// A pool with `turns` running requests per lane (at least 1).
    pub fn new(turns: usize) -> Self {
        Pool {
            light: Lane::new(turns.max(1)),
            heavy: Lane::new(turns.max(1)),
            memory: Arc::new(Semaphore::new((MEMORY_BUDGET >> 20) as usize)),
            time_limit: TIME_LIMIT,
            trim: Arc::default(),
        }
    }

    /// How many times the pool has given freed memory back ([`give_back_memory`]).
    pub fn trims(&self) -> usize {
        self.trim.done.load(Ordering::SeqCst)
    }

    /// A pool sized to this machine's cores.
    pub fn for_this_machine() -> Self {
        Pool::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// The same pool with another time limit per request.
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = limit;
        self
    }

    /// Waits for a turn for a request of `cost`: 400 when it is over the per-request memory,
    /// 503 when its lane's queue is full or the wait too long.
    pub async fn admit(&self, cost: Cost) -> Result<Permits, StudioError> {
        if cost.memory > PER_REQUEST_MEMORY {
            return Err(StudioError::TooMuch {
                what: "estimated memory in MiB",
                asked: usize::try_from(cost.memory.div_ceil(1 << 20)).unwrap_or(usize::MAX),
                limit: (PER_REQUEST_MEMORY >> 20) as usize,
            });
        }
        let lane = if cost.is_light() {
            &self.light
        } else {
            &self.heavy
        };
        if lane.waiting.fetch_add(1, Ordering::Relaxed) >= QUEUE {
            lane.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(StudioError::Busy);
        }
        let waiting = Waiting(&lane.waiting);
        let mib = u32::try_from(cost.memory.div_ceil(1 << 20).max(1)).unwrap_or(u32::MAX);
        let acquire = async {
            let turn = lane.turns.clone().acquire_owned().await;
            let memory = self.memory.clone().acquire_many_owned(mib).await;
            match (turn, memory) {
                (Ok(t), Ok(m)) => Ok(Permits {
                    _turn: t,
                    _memory: m,
                }),
                _ => Err(StudioError::Internal("the work pool is closed".into())),
            }
        };
        let permits = tokio::time::timeout(QUEUE_WAIT, acquire)
            .await
            .map_err(|_| StudioError::Busy)?;
        drop(waiting);
        permits
    }

    /// Runs `work` on the blocking pool once `cost` is admitted, with a [`Job`] that ends it
    /// when the caller's future is dropped or the time limit passes.
    pub async fn run<T: Send + 'static>(
        &self,
        cost: Cost,
        work: impl FnOnce(&Job) -> Result<T, StudioError> + Send + 'static,
    ) -> Result<T, StudioError> {
        let permits = self.admit(cost).await?;
        self.trim.start();
        let _running = Running(self.trim.clone(), !cost.is_light());
        let job = Job::new(self.time_limit);
        let guard = CancelOnDrop(job.clone());
        let worker = job.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let _held = permits;
            worker.check()?;
            work(&worker)
        });
        // A grace second past the limit for the work's own check to answer first.
        let result =
            match tokio::time::timeout(self.time_limit + Duration::from_secs(1), handle).await {
                Ok(joined) => joined.map_err(|e| StudioError::Internal(e.to_string()))?,
                Err(_) => Err(job.timed_out()),
            };
        drop(guard);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_or_late_job_stops() {
        let job = Job::new(Duration::from_secs(60));
        assert!(job.check().is_ok());
        job.clone().cancel();
        assert_eq!(job.check(), Err(StudioError::Cancelled));
        let late = Job::new(Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        assert!(matches!(late.check(), Err(StudioError::TimeLimit { .. })));
    }

    #[test]
    fn light_means_small_in_memory_and_in_cells() {
        assert!(
            Cost {
                memory: 1 << 20,
                cells: 10_000
            }
            .is_light()
        );
        assert!(
            !Cost {
                memory: 100 << 20,
                cells: 10
            }
            .is_light()
        );
        assert!(
            !Cost {
                memory: 1,
                cells: 10_000_000
            }
            .is_light()
        );
    }

    #[tokio::test]
    async fn a_full_queue_is_busy_and_an_oversized_request_refused() {
        let pool = Arc::new(Pool::new(1));
        let big = Cost {
            memory: PER_REQUEST_MEMORY + 1,
            cells: 1,
        };
        assert!(matches!(
            pool.admit(big).await,
            Err(StudioError::TooMuch { .. })
        ));
        let heavy = Cost {
            memory: 64 << 20,
            cells: 1 << 22,
        };
        let held = pool.admit(heavy).await.unwrap();
        let mut waiters = Vec::new();
        for _ in 0..QUEUE {
            let p = pool.clone();
            waiters.push(tokio::spawn(async move { p.admit(heavy).await.is_ok() }));
        }
        while pool.heavy.waiting.load(Ordering::Relaxed) < QUEUE {
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.admit(heavy).await.err(), Some(StudioError::Busy));
        // The light lane is still free.
        let light = Cost {
            memory: 1 << 20,
            cells: 100,
        };
        assert!(pool.admit(light).await.is_ok());
        drop(held);
        for w in waiters {
            assert!(w.await.unwrap());
        }
    }

    #[tokio::test]
    async fn memory_is_given_back_once_idle_after_heavy_work_only() {
        let pool = Pool::new(2);
        let light = Cost {
            memory: 1 << 20,
            cells: 100,
        };
        let heavy = Cost {
            memory: 64 << 20,
            cells: 1 << 22,
        };
        let work = |_: &Job| Ok(vec![7u8; 1 << 20]);
        pool.run(light, work).await.unwrap();
        tokio::time::sleep(TRIM_DELAY * 2).await;
        assert_eq!(pool.trims(), 0, "light work leaves the heap alone");
        // Two heavy requests at once: one trim, after both.
        let (a, b) = tokio::join!(pool.run(heavy, work), pool.run(heavy, work));
        assert!(a.is_ok() && b.is_ok());
        tokio::time::sleep(TRIM_DELAY * 3).await;
        assert_eq!(pool.trims(), 1);
        // A request starting within the delay puts the trim off until it ends.
        pool.run(heavy, work).await.unwrap();
        tokio::time::sleep(TRIM_DELAY / 2).await;
        pool.run(light, |_| {
            std::thread::sleep(TRIM_DELAY);
            Ok(())
        })
        .await
        .unwrap();
        assert_eq!(pool.trims(), 1, "not while a request runs");
        tokio::time::sleep(TRIM_DELAY * 3).await;
        assert_eq!(pool.trims(), 2);
    }

    #[tokio::test]
    async fn dropping_the_request_cancels_its_work() {
        let pool = Arc::new(Pool::new(1));
        let (tx, rx) = std::sync::mpsc::channel();
        let cost = Cost {
            memory: 1 << 20,
            cells: 1,
        };
        let p = pool.clone();
        let request = tokio::spawn(async move {
            p.run(cost, move |job| {
                let start = Instant::now();
                while job.check().is_ok() && start.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                tx.send(job.check()).ok();
                Ok(())
            })
            .await
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        request.abort();
        let seen = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(5)))
            .await
            .unwrap();
        assert_eq!(seen, Ok(Err(StudioError::Cancelled)));
    }
}
