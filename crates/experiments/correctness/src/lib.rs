//! replab's experiments on what detectors decide and how they play, each a module implementing
//! [`Experiment`](replab_harness::experiment::Experiment): the audit against exact FIDE identity
//! ([`audit`]), UCI conformance ([`conformance`]), key width ([`key_width`]), engines' draw
//! policies ([`policies`]), graph-history interaction ([`ghi`]) and the self-play gauntlet in
//! Elo ([`elo`]); [`matches`] runs `replab match` and `replab merge` through the generic report
//! path, [`scan`] streams a PGN file through the detectors. They import the harness and the
//! workloads, never each other and never the cost experiments. See the crate's README.

pub mod audit;
pub mod ghi;
pub mod key_width;
mod names;
pub mod policies;
pub mod scan;

pub use names::DetectorNames;
// The harness and the workloads under the paths the experiments use (`crate::stats`,
// `crate::judging`, …).
pub use replab_harness::{
    Bars, Progress, Recorded, Silent, compare, contribution, experiment, interval, stats,
};
pub use replab_workloads::{datasets, endgames, engine, judging, records};
