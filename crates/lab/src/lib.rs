//! replab's experiments as a library: the audit against exact FIDE identity, the Axon
//! reproduction, EPD suites, detector micro-benchmarks, PGN scans and the report site.

pub mod audit;
pub mod bench;
pub mod callgrind;
pub mod conformance;
pub mod elo;
pub mod ghi;
pub mod key_width;
pub mod microbench;
pub mod perft;
pub mod policies;
pub mod progress;
pub mod reproduce;
pub mod scan;
pub mod smp;
pub mod stats;
pub mod study;
pub mod suite;
pub mod util;

pub use progress::{Progress, Recorded, Silent};
