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

/// The digest of the engine this crate was built from (16 hex digits): FNV-1a 64 over the
/// searcher's, the board's and every detector's sources (`build.rs`). Two builds play alike at
/// fixed nodes, at the same cost per node, when their digests agree; a recorded dataset
/// measured with the engine carries it, so a recording older than the engine is seen.
pub const ENGINE_DIGEST: &str = env!("REPLAB_ENGINE_DIGEST");
