//! A search with `tt-thompson` (marks in the searcher's table) or a matrix variant allocates
//! nothing per node once sized: only its result.

use std::{
    alloc::{GlobalAlloc, Layout, System},
    sync::atomic::{AtomicU64, Ordering},
};

use replab_board::Position;
use replab_registry::{RootRule, with_detector};
use replab_search::{SearchConfig, Searcher};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn marked_and_matrix_searches_allocate_nothing_per_node() {
    let p = Position::from_fen("R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1").unwrap();
    let config = SearchConfig {
        max_depth: 8,
        ..SearchConfig::default()
    };
    for name in ["tt-thompson", "matrix", "matrix-checksum", "matrix-keybits"] {
        let (n, nodes) = with_detector!(name, RootRule::Stockfish, |d| {
            let mut s = Searcher::new(d, config);
            let _ = s.search(&p);
            let before = ALLOCATIONS.load(Ordering::SeqCst);
            let r = s.search(&p);
            (
                ALLOCATIONS.load(Ordering::SeqCst) - before,
                r.totals().nodes,
            )
        })
        .unwrap();
        assert!(nodes > 10_000);
        // One result vector and one principal variation per iteration.
        assert!(n <= 1 + 8, "{name}: {n} allocations in a depth-8 search");
    }
}
