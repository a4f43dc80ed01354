//! Helpers shared by the lab's integration tests (each test file declares `mod common;`).
#![allow(dead_code, unused_imports)] // Each test binary uses its own subset.

pub use replab_truth::kit::Scratch;
