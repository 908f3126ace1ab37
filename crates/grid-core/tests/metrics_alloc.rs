//! Measuring a batch allocates nothing per map: once the scratch buffers have grown to the
//! largest map (and region) seen, `MetricsScratch::measure` makes no heap allocation.

// A counting global allocator needs `unsafe impl GlobalAlloc`; it only forwards to `System`.
#![allow(unsafe_code)]

use grid_core::metrics::{BlockGrid, EmptySet, MetricsScratch};
use grid_core::{Legend, TileGrid, TileKind};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the test's own thread while it measures: the test harness's other threads
    /// (output capture, the slow-test timer) allocate too, and must not be counted.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        }
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was returned by `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn no_allocation_per_map_after_the_first() {
    let legend = Legend::new(vec![
        TileKind::new("empty", '.', [255; 3]),
        TileKind::new("solid", '#', [0; 3]),
    ]);
    // Three different 60x40 maps: stripes, a checkerboard, a single room.
    let maps: Vec<TileGrid> = (0..3)
        .map(|k| {
            let mut m = TileGrid::new(60, 40, 1, legend.clone());
            for y in 0..40 {
                for x in 0..60 {
                    let open = match k {
                        0 => y % 3 == 0,
                        1 => (x + y) % 2 == 0,
                        _ => (5..50).contains(&x) && (5..30).contains(&y),
                    };
                    if open {
                        m.tiles.set(x, y, 0);
                    }
                }
            }
            m
        })
        .collect();
    let empty = EmptySet::from_names(&legend, &["empty"]).unwrap();
    let mut scratch = MetricsScratch::new();
    // The first pass sizes the buffers (the fill stack grows with the largest region).
    let first: Vec<usize> = maps
        .iter()
        .map(|m| scratch.measure(m, &empty, BlockGrid::PAPER).regions)
        .collect();
    // 14 stripes (rows 0, 3, ..., 39), 1200 checkerboard cells, one room.
    assert_eq!(first, vec![14, 1200, 1]);
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let mut total = 0;
    COUNTING.with(|c| c.set(true));
    for _ in 0..10 {
        for m in &maps {
            total += scratch.measure(m, &empty, BlockGrid::PAPER).regions;
        }
    }
    COUNTING.with(|c| c.set(false));
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(
        after - before,
        0,
        "measure allocated {} times",
        after - before
    );
    assert_eq!(total, 10 * (14 + 1200 + 1));
}
