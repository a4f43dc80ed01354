//! The searcher's integration tests, gathered into one test binary (one link, not one per
//! file): each file of this directory is a module.

use replab_truth::kit::CountingAllocator;

/// Counts allocations per thread for the modules that check a search allocates nothing.
#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

mod common;
mod dead;
mod engine;
mod options;
mod serde;
mod shared;
mod tests;
mod thompson;
