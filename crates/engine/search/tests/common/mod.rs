//! Helpers shared by the searcher's integration tests (each test file declares `mod common;`).
#![allow(dead_code)] // Each test module uses its own subset.

use replab_board::{Move, Position};
use replab_registry::{RootRule, with_detector};
use replab_search::{IterationSignature, SearchConfig, SearchResult, Searcher};

/// WAC.018, the paper's rook ending (Rh8 wins).
pub const WAC018: &str = "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1";
/// The paper's Figure 1: White draws by perpetual check.
pub const PERPETUAL: &str = "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1";

/// The position of a FEN known to be valid.
pub fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

/// The default searcher to `depth` plies.
pub fn config(depth: u32) -> SearchConfig {
    SearchConfig {
        max_depth: depth,
        ..SearchConfig::default()
    }
}

/// Searches `fen` with the registry's detector `name` (or `off`).
pub fn run(name: &str, fen: &str, config: SearchConfig) -> SearchResult {
    with_detector!(name, RootRule::AnyEarlier, |d| Searcher::new(d, config)
        .search(&pos(fen)))
    .unwrap()
}

/// Everything but the wall time, per iteration.
pub fn signature(r: &SearchResult) -> Vec<IterationSignature> {
    r.signature()
}

/// A move in UCI, `-` for none.
pub fn uci(m: Option<Move>) -> String {
    m.map_or("-".into(), |m| m.uci().to_string())
}
