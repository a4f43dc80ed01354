//! The statistics a match reports, from its game pairs: an adapter over `replab-elo`
//! (fishtest's and fastchess's formulas).

pub use replab_elo::{Decision, EloEstimate, SprtReport};
use replab_elo::{EloModel, GameResult, Pentanomial, Sprt, summarize};
use serde::{Deserialize, Serialize};

/// α of the SPRT.
pub const ALPHA: f64 = 0.05;
/// β of the SPRT.
pub const BETA: f64 = 0.05;
/// Default bounds of the normalized-Elo SPRT (fishtest's STC bounds).
pub const DEFAULT_BOUNDS: (f64, f64) = (0.0, 2.0);

/// Everything a match reports from its counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Logistic Elo of A over B, 95% interval.
    pub elo: EloEstimate,
    /// Normalized Elo, 95% interval.
    pub nelo: EloEstimate,
    /// Likelihood of superiority of A.
    pub los: f64,
    /// The pentanomial GSPRT on normalized Elo (fishtest's `LLR_normalized`).
    pub sprt: SprtReport,
    /// For comparison: the trinomial BayesElo SPRT of cutechess/OpenBench with the same
    /// bounds read as BayesElo.
    pub sprt_bayeselo: SprtReport,
    /// Pair-score variance (for the sample sizes).
    pub pair_variance: f64,
    /// Mean score of A.
    pub score: f64,
}

/// A's result in a game from its points.
pub fn game_result(points: f64) -> GameResult {
    if points > 0.75 {
        GameResult::Win
    } else if points < 0.25 {
        GameResult::Loss
    } else {
        GameResult::Draw
    }
}

/// The counts of pairs given by A's points in each pair's two games.
pub fn pentanomial<'a>(pairs: impl IntoIterator<Item = &'a [f64; 2]>) -> Pentanomial {
    let mut p = Pentanomial::default();
    for [x, y] in pairs {
        p.add_pair(game_result(*x), game_result(*y));
    }
    p
}

/// The SPRT with bounds `(elo0, elo1)` in `model`'s scale.
fn sprt(bounds: (f64, f64), model: EloModel) -> Sprt {
    Sprt::new(bounds.0, bounds.1, ALPHA, BETA, model).unwrap_or_else(|_| Sprt::fishtest_stc())
}

/// The decision of the normalized SPRT on `p`.
pub fn decision(p: &Pentanomial, bounds: (f64, f64)) -> Decision {
    sprt(bounds, EloModel::Normalized).report(p).decision
}

/// fishtest's estimate of a test the SPRT stopped ([`Sprt::sequential_estimate`]): the
/// median-unbiased logistic Elo with its 95% interval, accounting for the stopping rule
/// (`None` when it cannot be computed).
pub fn sequential_estimate(p: &Pentanomial, bounds: (f64, f64)) -> Option<EloEstimate> {
    sprt(bounds, EloModel::Normalized).sequential_estimate(p, 0.95)
}

/// The statistics of `p` (at least one pair) with SPRT bounds `bounds` (normalized Elo).
pub fn summarize_pairs(p: &Pentanomial, bounds: (f64, f64)) -> Summary {
    let s = summarize(p).expect("a match plays at least one pair");
    Summary {
        elo: s.elo,
        nelo: s.nelo,
        los: s.los,
        sprt: sprt(bounds, EloModel::Normalized).report(p),
        sprt_bayeselo: sprt(bounds, EloModel::BayesElo).report(p),
        pair_variance: s.sample_variance,
        score: s.score,
    }
}

/// The smallest Elo difference a game count is given for: below it the estimate prints as
/// +0.0 (one decimal), and the count would only measure rounding noise.
pub const RESOLVABLE_ELO: f64 = 0.05;

/// The power [`games_to_resolve`] plans for: a true difference is detected 80% of the time.
pub const RESOLVE_POWER: f64 = 0.8;

/// Games needed for a two-sided 95% test to detect a true difference of `elo` with
/// [`RESOLVE_POWER`], at the match's own score variance (`None` when |`elo`| is below
/// [`RESOLVABLE_ELO`]). See [`replab_elo::Summary::games_for_power`] for the formula.
pub fn games_to_resolve(p: &Pentanomial, elo: f64) -> Option<u64> {
    if elo.abs() < RESOLVABLE_ELO {
        return None;
    }
    summarize(p)?.games_for_power(elo.abs(), RESOLVE_POWER)
}

/// Games a 95% interval of ±`elo` would need at the match's own score and variance (`None`
/// where [`replab_elo::Summary::games_to_resolve_elo`] is: a score of 0 or 1, or no pair).
pub fn games_for_half_width(p: &Pentanomial, elo: f64) -> Option<u64> {
    summarize(p)?.games_to_resolve_elo(elo)
}
