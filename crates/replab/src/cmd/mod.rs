//! One module per subcommand: its clap arguments and how they become an experiment's
//! configuration.

pub mod audit;
pub mod bench;
pub mod conformance;
pub mod elo;
pub mod ghi;
pub mod key_width;
pub mod r#match;
pub mod measure;
pub mod merge;
pub mod perft;
pub mod policies;
pub mod reproduce;
pub mod scan;
pub mod smp;
pub mod study;
pub mod suite;
pub mod uci;
