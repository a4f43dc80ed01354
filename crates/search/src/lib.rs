#![doc = include_str!("../README.md")]

mod eval;
mod score;
mod searcher;
mod tt;

pub use eval::{Eval, MATERIAL, evaluate, evaluate_material};
pub use score::{INFINITE, MATE, MATE_BOUND, MAX_PLY, Score};
pub use searcher::{
    Counters, ExtensionLimit, Iteration, IterationSignature, Limits, POLL_NODES, SearchConfig,
    SearchResult, Searcher, SetupError, TableStats, TtMode, check_setup,
};
pub use tt::{LocalTable, SharedTable, Table};
