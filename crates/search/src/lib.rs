#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod eval;
mod score;
mod searcher;
mod tt;

pub use eval::{MATERIAL, evaluate};
pub use score::{INFINITE, MATE, MATE_BOUND, MAX_PLY, Score};
pub use searcher::{
    Counters, Iteration, SearchConfig, SearchResult, Searcher, SetupError, check_setup,
};
