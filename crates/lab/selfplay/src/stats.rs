//! The statistics a match reports, from its game pairs: an adapter over `replab-elo`
//! (fishtest's and fastchess's formulas).

pub use replab_elo::{Decision, EloEstimate, MIN_INTERVAL_SAMPLES, SprtReport, ThreeWay, Verdict};
use replab_elo::{EloModel, GameResult, Pentanomial, Sprt, summarize};
use serde::{Deserialize, Serialize};

/// α of the SPRT.
pub const ALPHA: f64 = 0.05;
/// β of the SPRT.
pub const BETA: f64 = 0.05;
/// Default bounds of the normalized-Elo SPRT (fishtest's STC bounds).
pub const DEFAULT_BOUNDS: (f64, f64) = (0.0, 2.0);

/// A test's bounds in normalized Elo as an option takes them: `ELO0,ELO1` (`--sprt`, the
/// gauntlet's `--bounds`), `[elo0, elo1]` in JSON. Parsing only reads the two numbers: which
/// bounds a test can take is its own rule ([`MatchConfig::check`](crate::MatchConfig::check),
/// the gauntlet's three-way test).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "(f64, f64)", into = "(f64, f64)")]
pub struct Bounds {
    /// The lower bound, ELO0.
    pub elo0: f64,
    /// The upper bound, ELO1.
    pub elo1: f64,
}

impl Bounds {
    /// The bounds as the statistics take them: `(elo0, elo1)`.
    pub fn pair(self) -> (f64, f64) {
        (self.elo0, self.elo1)
    }
}

impl From<(f64, f64)> for Bounds {
    fn from((elo0, elo1): (f64, f64)) -> Self {
        Self { elo0, elo1 }
    }
}

impl From<Bounds> for (f64, f64) {
    fn from(bounds: Bounds) -> Self {
        bounds.pair()
    }
}

impl std::str::FromStr for Bounds {
    type Err = String;

    /// `ELO0,ELO1`: two numbers, comma-separated.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("{text:?}: expected ELO0,ELO1 in normalized Elo, e.g. -5,5");
        let (elo0, elo1) = text.split_once(',').ok_or_else(bad)?;
        let number = |x: &str| x.trim().parse::<f64>().map_err(|_| bad());
        Ok(Self {
            elo0: number(elo0)?,
            elo1: number(elo1)?,
        })
    }
}

impl std::fmt::Display for Bounds {
    /// As the option takes them: `-5,5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.elo0, self.elo1)
    }
}

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

/// The three-way test on bounds `(elo0, elo1)` (normalized Elo, elo0 < 0 < elo1), α = β =
/// [`ALPHA`] for each one-sided test; `None` for other bounds.
pub fn three_way(bounds: (f64, f64)) -> Option<ThreeWay> {
    ThreeWay::new(bounds.0, bounds.1, ALPHA).ok()
}

/// The verdict of the three-way test on `p`: [`Verdict::Continue`] below
/// [`MIN_INTERVAL_SAMPLES`] pairs (so that a few identical pairs, whose regularised variance is
/// near 0, cannot end a match) and for bounds it cannot take.
pub fn verdict(p: &Pentanomial, bounds: (f64, f64)) -> Verdict {
    if p.pairs() < MIN_INTERVAL_SAMPLES {
        return Verdict::Continue;
    }
    three_way(bounds).map_or(Verdict::Continue, |t| t.verdict(p))
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
/// where the match has no interval to plan from ([`no_interval`]), or where
/// [`replab_elo::Summary::games_to_resolve_elo`] is: a score of 0 or 1).
pub fn games_for_half_width(p: &Pentanomial, elo: f64) -> Option<u64> {
    let s = summarize(p)?;
    s.elo.interval?;
    s.games_to_resolve_elo(elo)
}

/// Why a match's estimates carry no interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoInterval {
    /// Every pair was one game played twice, colours swapped: the players never searched
    /// differently enough to change a move.
    IdenticalPlay,
    /// Every pair scored 1–1 (WL or DD) in different games: no variance to measure.
    EveryPairOneOne,
    /// Every pair won twice, or every pair lost twice: no variance to measure.
    EveryPairSameScore,
    /// Other pair scores, but fewer pairs than an interval needs ([`MIN_INTERVAL_SAMPLES`]).
    TooFewGames,
}

impl NoInterval {
    /// The words shown in place of the interval.
    pub fn text(self) -> &'static str {
        match self {
            NoInterval::IdenticalPlay => "identical play in every pair",
            NoInterval::EveryPairOneOne => "every pair 1-1",
            NoInterval::EveryPairSameScore => "every pair the same score",
            NoInterval::TooFewGames => "too few games for an interval",
        }
    }
}

/// Why `p` has no interval (`None` when it has one): identical play (`identical`: every pair
/// the same game twice) first, then every pair 1–1, then too few pairs, then (from
/// [`MIN_INTERVAL_SAMPLES`] pairs) every pair another one score.
pub fn no_interval(p: &Pentanomial, identical: bool) -> Option<NoInterval> {
    let interval = summarize(p).and_then(|s| s.elo.interval);
    if interval.is_some() {
        return None;
    }
    let pairs = p.pairs();
    let one_class = pairs > 0 && p.ptnml().contains(&pairs);
    Some(if identical && pairs > 0 {
        NoInterval::IdenticalPlay
    } else if pairs > 0 && p.ptnml()[2] == pairs {
        NoInterval::EveryPairOneOne
    } else if one_class && pairs >= MIN_INTERVAL_SAMPLES {
        NoInterval::EveryPairSameScore
    } else {
        NoInterval::TooFewGames
    })
}

/// An estimate as text: `+1.23 [-4.56, +7.89]`, or `+1.23 (` the reason there is no interval
/// `)`.
pub fn estimate_text(e: &EloEstimate, reason: Option<NoInterval>) -> String {
    // Rounded first, so that a value a hair below 0 prints as +0.00.
    let signed = |x: f64| format!("{:+.2}", (x * 100.0).round() / 100.0 + 0.0);
    match (e.interval, reason) {
        (Some(_), _) => e.text(signed),
        (None, r) => format!(
            "{} ({})",
            signed(e.value),
            r.unwrap_or(NoInterval::TooFewGames).text()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_read_two_numbers_and_write_them_back() {
        let bounds: Bounds = "-5, 2.5".parse().unwrap();
        assert_eq!(bounds.pair(), (-5.0, 2.5));
        assert_eq!(bounds.to_string(), "-5,2.5");
        assert_eq!(serde_json::to_string(&bounds).unwrap(), "[-5.0,2.5]");
        let back: Bounds = serde_json::from_str("[-5.0,2.5]").unwrap();
        assert_eq!(back, bounds);
        // Only the syntax: the order is the test's rule.
        assert_eq!("2,0".parse::<Bounds>().unwrap().pair(), (2.0, 0.0));
        for bad in ["5", "x,1", "1,", ""] {
            let e = bad.parse::<Bounds>().unwrap_err();
            assert!(e.contains("expected ELO0,ELO1"), "{e}");
        }
    }

    #[test]
    fn the_reason_for_no_interval_flips_with_the_counts() {
        let p = |c: [u64; 5]| Pentanomial::from_ptnml(c);
        let enough = p([3, 5, 10, 5, 3]);
        assert_eq!(no_interval(&enough, false), None);
        assert_eq!(no_interval(&enough, true), None);
        let one_one = p([0, 0, 30, 0, 0]);
        assert_eq!(no_interval(&one_one, true), Some(NoInterval::IdenticalPlay));
        assert_eq!(
            no_interval(&one_one, false),
            Some(NoInterval::EveryPairOneOne)
        );
        assert_eq!(
            no_interval(&p([0, 0, 0, 0, 30]), false),
            Some(NoInterval::EveryPairSameScore)
        );
        assert_eq!(
            no_interval(&p([0, 1, 0, 0, 0]), false),
            Some(NoInterval::TooFewGames)
        );
        assert_eq!(
            no_interval(&p([1, 0, 1, 0, 1]), false),
            Some(NoInterval::TooFewGames)
        );
        assert_eq!(games_for_half_width(&p([1, 0, 1, 0, 1]), 2.0), None);
        assert!(games_for_half_width(&enough, 2.0).is_some());
        let e = summarize(&one_one).unwrap().elo;
        assert_eq!(
            estimate_text(&e, no_interval(&one_one, false)),
            "+0.00 (every pair 1-1)"
        );
    }
}
