//! replab's shared workloads: what the experiments run, below every experiment and importing
//! none of them. The embedded [`datasets`], EPD [`records`] with their game history, the seeded
//! [`endgames`], the Axon [`paper`]'s tables, the seeded games and the [`judging`] against the
//! exact oracle, the [`engine`] runner (searchers of every detector, the parallel job runner),
//! the micro-benchmark [`scenarios`], the search [`walk`] and their timed [`jobs`], timed jobs sharing [`one_core`] (also
//! criterion's, in `benches/`),
//! the instruction counts under valgrind ([`callgrind`]) and chart series in the detectors'
//! [`colours`]. See the crate's README.

pub mod callgrind;
pub mod colours;
pub mod datasets;
pub mod endgames;
pub mod engine;
pub mod games;
pub mod jobs;
pub mod judging;
pub mod one_core;
pub mod paper;
pub mod records;
pub mod rounds;
pub mod scenarios;
pub mod walk;

pub use replab_harness::{Progress, Silent, compare};
