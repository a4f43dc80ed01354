//! The registry's integration tests, gathered into one test binary (one link, not one per
//! file): each file of this directory is a module.

use replab_truth::kit::CountingAllocator;

/// Counts allocations per thread for the modules that check a search allocates nothing.
#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

mod alloc;
mod common;
mod key_width;
mod policies;
mod table_limit;
mod tests;
