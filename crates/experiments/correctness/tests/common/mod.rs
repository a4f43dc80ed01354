//! Helpers shared by the lab's integration tests (each test file declares `mod common;`).
#![allow(dead_code, unused_imports)] // Each test module uses its own subset.

pub use replab_truth::kit::Scratch;

/// The file at `path` (from the repository root: a [`replab_correctness::datasets`] constant's path) in
/// the checkout these tests were built from.
pub fn checkout_file(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(path)
}
