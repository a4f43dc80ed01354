#![doc = include_str!("../README.md")]

mod config;
mod dynamic;
mod eval;
mod ordering;
mod results;
mod score;
mod searcher;
mod selective;
mod tapered;
mod tt;

pub use config::{
    ExtensionLimit, Limits, Observer, POLL_NODES, Profile, Progress, SearchConfig, SetupError,
    TtMode, check_setup,
};
pub use dynamic::{DynSearch, boxed, boxed_shared};
pub use eval::{Eval, MATERIAL, evaluate, evaluate_material, evaluate_tapered};
pub use results::{Counters, Iteration, IterationSignature, SearchResult, TableStats};
pub use score::{INFINITE, MATE, MATE_BOUND, MAX_PLY, Score};
pub use searcher::Searcher;
pub use tt::{LocalTable, SharedTable, Table};
