//! Match statistics for self-play Elo tests, computed as fishtest, fastchess and cutechess do.
//!
//! - [`Trinomial`] counts games by result, [`Pentanomial`] counts game pairs (each opening
//!   played twice with colours swapped) by the pair's score.
//! - [`summarize`] gives the score, logistic Elo and normalized Elo with 95% intervals, the LOS
//!   and the draw ratio (no interval below [`MIN_INTERVAL_SAMPLES`] samples or without variance); [`Summary::games_to_resolve_elo`] and [`games_to_resolve_nelo`] say how
//!   many games an interval of a given half-width needs.
//! - [`Sprt`] is the GSPRT (fishtest's `LLR_normalized` and `LLR_logistic`) or cutechess's
//!   BayesElo SPRT, with Wald's bounds and the decision rule;
//!   [`Sprt::sequential_estimate`] is fishtest's Elo estimate of a stopped test.
//!
//! The formulas follow fishtest (`server/fishtest/stats/LLRcalc.py`, `stat_util.py`,
//! `sprt.py`), fastchess (`app/src/matchmaking/elo/`, `sprt/sprt.cpp`) and cutechess
//! (`projects/lib/src/sprt.cpp`, also OpenBench's `TrinomialSPRT`); each item names its source.
//! The crate's README lists them.
//!
//! ```
//! use replab_elo::{Decision, GameResult, Pentanomial, Sprt, summarize};
//!
//! let mut pairs = Pentanomial::from_fastchess(34, 54, 31, 32, 64, 75);
//! pairs.add_pair(GameResult::Win, GameResult::Draw);
//! let summary = summarize(&pairs).expect("games were played");
//! assert!(summary.elo.excludes(0.0) && summary.elo.value > 0.0 && summary.los > 0.99);
//! let test = Sprt::fishtest_stc(); // normalized Elo [0, 2], alpha = beta = 0.05
//! let report = test.report(&pairs);
//! assert_eq!(report.decision, Decision::Continue);
//! ```

mod counts;
mod estimate;
mod pdf;
mod sequential;
mod sprt;

pub use counts::{GameResult, Pentanomial, ResultCounts, Trinomial};
pub use estimate::{
    DEFAULT_COVERAGE, EloEstimate, MIN_INTERVAL_SAMPLES, NELO_PER_T, Summary,
    games_to_resolve_nelo, intervals, logistic_elo, logistic_score, summarize,
    summarize_with_coverage, two_sided_z,
};
pub use pdf::ZERO_COUNT_REPLACEMENT;
pub use sprt::{
    Decision, EloModel, Sprt, SprtError, SprtReport, ThreeWay, Verdict, bayeselo_draw_elo,
    bayeselo_probabilities, llr_bayeselo, llr_logistic, llr_normalized, normalized_bound_limit,
};
