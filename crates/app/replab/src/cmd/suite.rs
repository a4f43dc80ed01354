//! `replab suite`: its arguments, turned into a [`Config`](replab_cost::suite::Config).

use super::ALL;

experiment_command! {
    /// Search every record of an EPD suite with every detector and write a report.
    replab_cost::suite::Suite {
        /// EPD file (one record per line; `hfen`/`hmoves` operations give a game history).
        epd: Option<std::path::PathBuf> ["EPD", required = true],
        depth: Option<u32> ["DEPTH"],
        /// Node budget per search (the deepest completed iteration counts); none by default.
        nodes: Option<u64> ["NODES"],
        /// Comma-separated detectors, or `all` (every searcher detector); `off` is always
        /// added.
        detectors: Option<String>,
        /// Draw policy: twofold, stanback, moreland, stockfish or threefold, or an engine preset
        /// (crafty, weiss, koivisto, viridithas, lc0), an alias of one of them.
        policy: Option<String>,
        /// Skip bad records (reported; exit status 2 at the end) instead of stopping at the first.
        keep_going: bool,
        /// Only the first N records.
        limit: Option<usize> ["LIMIT"],
        repeats: Option<usize> ["REPEATS"],
        threads: Option<usize> ["THREADS"],
    }
    defaults { detectors: ALL, policy: replab_cost::suite::Config::default().policy }
    |config| {
        config.keep_going = keep_going;
        // The policy first: the detectors are checked under it.
        config.choose(policy.as_deref(), detectors.as_deref())?;
    }
}
