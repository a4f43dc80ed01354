//! A counting global allocator for the "no allocation in the hot path" tests.
//!
//! A test binary installs it with
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: replab_truth::kit::CountingAllocator = replab_truth::kit::CountingAllocator;
//! ```
//!
//! and compares [`allocations`] before and after the code under test. Counts are per thread,
//! so tests running in parallel do not disturb each other.
#![allow(unsafe_code)] // A global allocator is an unsafe trait; this one only forwards.

use std::{
    alloc::{GlobalAlloc, Layout, System},
    cell::Cell,
};

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting allocations and reallocations per thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAllocator;

// SAFETY: every call forwards to the system allocator with the caller's arguments; the only
// extra work is a thread-local counter, which never allocates (`try_with` also copes with a
// thread being torn down).
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations (and reallocations) made by this thread so far, when [`CountingAllocator`] is
/// the global allocator (always 0 otherwise).
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}
