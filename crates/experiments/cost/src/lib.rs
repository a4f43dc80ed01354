//! replab's cost experiments, each a module implementing
//! [`Experiment`](replab_harness::experiment::Experiment): the Axon reproduction
//! ([`reproduce`]), the study ([`study`]), the EPD suites
//! ([`suite`]) and the detector micro-benchmarks ([`microbench`]); [`perft`] serves its
//! subcommand. They import the harness and the workloads, never each other and never the
//! other experiment crates. See the crate's README.

pub mod microbench;
pub mod perft;
pub mod reproduce;
pub mod study;
pub mod suite;

// The harness and the workloads under the paths the experiments use (`crate::stats`,
// `crate::datasets`, …).
pub use replab_harness::{
    Bars, Progress, Recorded, Silent, compare, contribution, experiment, interval, resolution,
    stats,
};
pub use replab_workloads::{callgrind, datasets, endgames, engine, paper, records};
