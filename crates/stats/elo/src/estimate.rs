//! Point estimates with intervals: score, logistic Elo, normalized Elo, LOS, draw ratio, and the
//! number of games needed to resolve a difference.

use replab_interval::Interval;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use crate::counts::ResultCounts;
use crate::pdf::Pdf;

/// Normalized Elo per unit of t-value, 800 / ln 10 (fishtest's `nelo_divided_by_nt`): a
/// normalized Elo of this size means the score exceeds ½ by one standard deviation of a game.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The coverage of the intervals [`summarize`] reports.
pub const DEFAULT_COVERAGE: f64 = 0.95;

/// Logistic Elo of an expected score s: −400 · log10(1/s − 1) (fishtest's `elo`, fastchess's
/// `scoreToEloDiff`). −∞ at s ≤ 0 and +∞ at s ≥ 1.
pub fn logistic_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference: 1 / (1 + 10^(−elo/400)) (fishtest's `L_`).
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The two-sided standard-normal quantile of a coverage (1.959964 for 0.95); NaN unless the
/// coverage lies in (0, 1).
pub fn two_sided_z(coverage: f64) -> f64 {
    if !is_coverage(coverage) {
        return f64::NAN;
    }
    Normal::standard().inverse_cdf(0.5 + coverage / 2.0)
}

/// Whether `coverage` is a probability strictly between 0 and 1.
pub(crate) fn is_coverage(coverage: f64) -> bool {
    coverage > 0.0 && coverage < 1.0
}

/// An Elo value with a confidence interval of stated coverage: in JSON
/// `{"value": …, "interval": {"lo", "hi", "coverage", "n"}}`, the interval in the one shape of
/// every `results.json` ([`Interval`]), under its own name as in the harness's estimates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// The point estimate.
    pub value: f64,
    /// The interval: its ends (either may be infinite, serialised as `null` by serde_json), its
    /// nominal coverage (0.95) and the samples behind it (game pairs, or games for trinomial
    /// counts).
    pub interval: Interval,
}

impl EloEstimate {
    /// `value` with the interval `[lo, hi]` of `coverage` made from `n` samples.
    pub fn new(value: f64, lo: f64, hi: f64, coverage: f64, n: u64) -> Self {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        Self {
            value,
            interval: Interval {
                lo,
                hi,
                coverage,
                n,
            },
        }
    }

    /// Half the interval's width: the "± error" fastchess and fishtest print. The logistic
    /// interval is not symmetric about the value; this is its mean half-width.
    pub fn error(&self) -> f64 {
        (self.interval.hi - self.interval.lo) / 2.0
    }

    /// Whether the interval contains `elo`.
    pub fn contains(&self, elo: f64) -> bool {
        self.interval.contains(elo)
    }
}

/// The statistics of a set of result counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Samples: games (trinomial) or game pairs (pentanomial).
    pub samples: u64,
    /// Games.
    pub games: u64,
    /// Mean score per game of player A, in [0, 1].
    pub score: f64,
    /// Variance of the score of one sample (a game, or a pair's mean score).
    pub sample_variance: f64,
    /// Share of the games that were drawn.
    pub draw_ratio: f64,
    /// Logistic Elo of player A over player B.
    pub elo: EloEstimate,
    /// Normalized Elo of player A over player B.
    pub nelo: EloEstimate,
    /// Likelihood of superiority: the normal approximation of P(true score > ½).
    pub los: f64,
    /// Games per sample (1 or 2), kept for the sample-size formulas.
    pub games_per_sample: u64,
}

/// The statistics of `counts` with 95% intervals; `None` when there are no games.
/// See [`summarize_with_coverage`].
pub fn summarize<C: ResultCounts + ?Sized>(counts: &C) -> Option<Summary> {
    summarize_with_coverage(counts, DEFAULT_COVERAGE)
}

/// The statistics of `counts` with intervals of the given coverage; `None` when there are no
/// games or the coverage is not in (0, 1).
///
/// As fishtest's `stat_util.get_elo` does, zero counts are first replaced by 1e-3
/// ([`crate::ZERO_COUNT_REPLACEMENT`]; this changes nothing when no count is zero). With N
/// samples, mean score s and sample variance v (pentanomial: the pair's mean score, taking
/// values 0, ¼, ½, ¾, 1), the score interval is s ± z·√(v/N):
/// - logistic Elo: value and both ends mapped through [`logistic_elo`] (fishtest `get_elo`,
///   fastchess `EloPentanomial`/`EloWDL`);
/// - normalized Elo: (s − ½) / σ · 800/ln 10, σ = √v per game for games and √(2v) for pairs
///   (fishtest `LLRcalc.LLR_normalized`, fastchess `nEloDiff`), interval mapped the same way;
/// - LOS: Φ((s − ½) / √(v/N)) (fishtest `get_elo`).
pub fn summarize_with_coverage<C: ResultCounts + ?Sized>(
    counts: &C,
    coverage: f64,
) -> Option<Summary> {
    if !is_coverage(coverage) {
        return None;
    }
    let pdf = Pdf::regularized(counts)?;
    let (score, variance) = pdf.mean_variance();
    let z = two_sided_z(coverage);
    let standard_error = (variance / pdf.n).sqrt();
    let (low_score, high_score) = (score - z * standard_error, score + z * standard_error);
    let per_game_factor = counts.games_per_sample() as f64;
    let sigma_per_game = (per_game_factor * variance).sqrt();
    let nelo_of = |s: f64| (s - 0.5) / sigma_per_game * NELO_PER_T;
    let games_counts = counts.games_trinomial();
    let games = games_counts.games();
    let samples = counts.classes().iter().sum();
    Some(Summary {
        samples,
        games,
        score,
        sample_variance: variance,
        draw_ratio: games_counts.draws as f64 / games as f64,
        elo: EloEstimate::new(
            logistic_elo(score),
            logistic_elo(low_score),
            logistic_elo(high_score),
            coverage,
            samples,
        ),
        nelo: EloEstimate::new(
            nelo_of(score),
            nelo_of(low_score),
            nelo_of(high_score),
            coverage,
            samples,
        ),
        los: Normal::standard().cdf((score - 0.5) / standard_error),
        games_per_sample: counts.games_per_sample(),
    })
}

impl Summary {
    /// Games needed for the logistic-Elo interval (of this summary's coverage) to have a
    /// half-width of at most `elo_difference`, at this summary's score and sample variance.
    ///
    /// Delta method: near a score s, one unit of score is 400 / (ln 10 · s(1 − s)) Elo, so the
    /// half-width with N samples is z·√(v/N) · 400 / (ln 10 · s(1 − s)); solving for N gives
    /// N = v · (z · 400 / (ln 10 · s(1 − s) · d))², and games = N × games per sample (rounded
    /// up). A difference of d Elo is then resolved: an interval centred on it excludes 0.
    /// `None` for a non-positive `d`, a score of 0 or 1, or a count beyond `u64` (a difference
    /// too small for any match to resolve).
    pub fn games_to_resolve_elo(&self, elo_difference: f64) -> Option<u64> {
        self.games_with_z(elo_difference, two_sided_z(self.elo.interval.coverage))
    }

    /// Games for which `z` standard errors of the score make `elo_difference` Elo (the
    /// formula of [`Summary::games_to_resolve_elo`] with `z` in place of the critical value).
    fn games_with_z(&self, elo_difference: f64, z: f64) -> Option<u64> {
        let s = self.score;
        if elo_difference.is_nan() || elo_difference <= 0.0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let elo_per_score = 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
        let samples = self.sample_variance * (z * elo_per_score / elo_difference).powi(2);
        let games = (samples * self.games_per_sample as f64).ceil();
        (games.is_finite() && games < u64::MAX as f64).then_some(games as u64)
    }
}

impl Summary {
    /// Games needed for a two-sided test at this summary's coverage to detect a true
    /// difference of `elo_difference` with probability `power` (0.8: the usual 80%), at this
    /// summary's score and sample variance: N = v · ((z + z_power) · 400 / (ln 10 · s(1 − s))
    /// / d)² samples, games = N × games per sample (rounded up), where z is the two-sided
    /// critical value (1.96 at 95%) and z_power the standard normal quantile of `power` (0.84
    /// at 80%). With `power` = 0.5 this is [`Summary::games_to_resolve_elo`]. `None` where that
    /// is, or for a power not in (0, 1).
    pub fn games_for_power(&self, elo_difference: f64, power: f64) -> Option<u64> {
        if !is_coverage(power) {
            return None;
        }
        let z = two_sided_z(self.elo.interval.coverage) + Normal::standard().inverse_cdf(power);
        self.games_with_z(elo_difference, z)
    }
}

/// Games needed for a normalized-Elo interval of the given coverage to have a half-width of at
/// most `nelo_difference`: (z · 800/ln 10 / d)², the same for games and for pairs because the
/// normalized scale divides out the variance (half-width z · 800/ln 10 / √games). `None` for a
/// non-positive `d` or a coverage not in (0, 1).
pub fn games_to_resolve_nelo(nelo_difference: f64, coverage: f64) -> Option<u64> {
    if nelo_difference.is_nan() || nelo_difference <= 0.0 || !is_coverage(coverage) {
        return None;
    }
    let z = two_sided_z(coverage);
    Some((z * NELO_PER_T / nelo_difference).powi(2).ceil() as u64)
}
