//! replab's experiments as a library, each a module implementing [`experiment::Experiment`]:
//! the Axon reproduction (`reproduce`), the study, parallel search (`smp`), the audit against
//! exact FIDE identity, UCI conformance, key width, draw policies, graph-history interaction
//! (`ghi`), EPD suites and detector micro-benchmarks; [`bench`] runs them from one table with
//! the instruction counts (`callgrind`) and writes the report site. Below them, shared leaves:
//! `experiment`, `engine`, `datasets`, `records`, `endgames`, `paper`, `judging`, `callgrind`,
//! `progress`, `stats`. `scan` and `perft` serve their subcommands; `matches` runs `replab match`
//! and `replab merge` through the generic report path. See the crate's README.

pub mod audit;
pub mod bench;
pub mod callgrind;
pub mod compare;
pub mod conformance;
pub mod datasets;
pub mod elo;
pub mod endgames;
pub mod engine;
pub mod experiment;
pub mod ghi;
pub mod judging;
pub mod key_width;
pub mod matches;
pub mod microbench;
pub mod paper;
pub mod perft;
pub mod policies;
pub mod progress;
pub mod records;
pub mod reproduce;
pub mod scan;
pub mod smp;
pub mod stats;
pub mod study;
pub mod suite;

pub use progress::{Bars, Progress, Recorded, Silent};
