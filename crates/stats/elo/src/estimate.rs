//! Point estimates with intervals: score, logistic Elo, normalized Elo, LOS, draw ratio, and the
//! number of games needed to resolve a difference.

use replab_interval::{Interval, Stated};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

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

/// The fewest samples (game pairs, or games for trinomial counts) an interval is given for.
/// Below it the intervals' real coverage falls short of their label on some of the
/// distributions of `tests/coverage.rs` (the seeded simulation that chose it), so none is given.
pub const MIN_INTERVAL_SAMPLES: u64 = 20;

/// An Elo value with a confidence interval of stated coverage, or none: replab's one
/// value-with-interval type ([`replab_interval::Estimate`]), in JSON `{"value": …, "interval":
/// {"lo", "hi", "coverage", "n"}}`, the interval `null` when the samples cannot back one (fewer
/// than [`MIN_INTERVAL_SAMPLES`] pairs, or every sample the same score). Its ends may be
/// infinite (serialised as `null` by serde_json); `n` counts game pairs, or games for trinomial
/// counts.
pub type EloEstimate = Stated;

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
    /// The coverage the intervals were asked for (also that of the sample-size formulas).
    pub coverage: f64,
}

/// The statistics of `counts` with 95% intervals; `None` when there are no games.
/// See [`summarize_with_coverage`].
pub fn summarize<C: ResultCounts + ?Sized>(counts: &C) -> Option<Summary> {
    summarize_with_coverage(counts, DEFAULT_COVERAGE)
}

/// The statistics of `counts` with intervals of the given coverage; `None` when there are no
/// games or the coverage is not in (0, 1).
///
/// Point estimates as fishtest's `stat_util.get_elo` computes them: zero counts are first
/// replaced by 1e-3 ([`crate::ZERO_COUNT_REPLACEMENT`]; this changes nothing when no count is
/// zero). With mean score s and sample variance v (pentanomial: the pair's mean score, taking
/// values 0, ¼, ½, ¾, 1):
/// - logistic Elo [`logistic_elo`] of s (fishtest `get_elo`, fastchess `EloPentanomial`);
/// - normalized Elo (s − ½) / σ · 800/ln 10, σ = √v per game for games and √(2v) for pairs
///   (fishtest `LLRcalc.LLR_normalized`, fastchess `nEloDiff`);
/// - LOS: Φ((s − ½) / √(v/N)) (fishtest `get_elo`).
///
/// The intervals ([`intervals`]) are computed from the counts as they are, and only from at
/// least [`MIN_INTERVAL_SAMPLES`] samples that do not all score the same.
pub fn summarize_with_coverage<C: ResultCounts + ?Sized>(
    counts: &C,
    coverage: f64,
) -> Option<Summary> {
    if !is_coverage(coverage) {
        return None;
    }
    let pdf = Pdf::regularized(counts)?;
    let (score, variance) = pdf.mean_variance();
    let standard_error = (variance / pdf.n).sqrt();
    let per_game_factor = counts.games_per_sample() as f64;
    let sigma_per_game = (per_game_factor * variance).sqrt();
    let games_counts = counts.games_trinomial();
    let games = games_counts.games();
    let samples = counts.classes().iter().sum();
    let (elo_interval, nelo_interval) = match intervals(counts, coverage) {
        Some((elo, nelo)) => (Some(elo), Some(nelo)),
        None => (None, None),
    };
    Some(Summary {
        samples,
        games,
        score,
        sample_variance: variance,
        draw_ratio: games_counts.draws as f64 / games as f64,
        elo: EloEstimate {
            value: logistic_elo(score),
            interval: elo_interval,
        },
        nelo: EloEstimate {
            value: (score - 0.5) / sigma_per_game * NELO_PER_T,
            interval: nelo_interval,
        },
        los: Normal::standard().cdf((score - 0.5) / standard_error),
        games_per_sample: counts.games_per_sample(),
        coverage,
    })
}

/// The raw moments of the counts' scores: samples, mean, and the central moments of order 2,
/// 3 and 4 (population, divided by the samples).
fn moments<C: ResultCounts + ?Sized>(counts: &C) -> (f64, f64, [f64; 3]) {
    let classes = counts.classes();
    let last = (classes.len() - 1) as f64;
    let scored = || {
        classes
            .iter()
            .enumerate()
            .map(move |(i, &c)| (i as f64 / last, c as f64))
    };
    let n: f64 = scored().map(|(_, c)| c).sum();
    let mean = scored().map(|(a, c)| a * c).sum::<f64>() / n;
    let central = |k: i32| scored().map(|(a, c)| c * (a - mean).powi(k)).sum::<f64>() / n;
    (n, mean, [central(2), central(3), central(4)])
}

/// The logistic-Elo and normalized-Elo intervals of `coverage`, from the counts as they are
/// (no zero-count substitution); `None` below [`MIN_INTERVAL_SAMPLES`] samples or when every
/// sample scored the same.
///
/// - Score: the Student-t interval s ± t · √(v/(N − 1)), t the two-sided quantile with N − 1
///   degrees of freedom (v the population variance); logistic Elo maps both ends through
///   [`logistic_elo`]. At large N this is fishtest's s ± z · √(v/N).
/// - Normalized Elo: the t-value τ = (s − ½)/√v of a sample, with the delta-method variance of
///   a standardised mean (Mertens 2002, for the Sharpe ratio): (1 − γ₃τ + (γ₄ − 1)τ²/4) / N,
///   γ₃ and γ₄ the samples' skewness and kurtosis; τ ± t · that standard error, per game
///   (÷ √2 for pairs) times 800/ln 10. fishtest maps the score interval with σ held fixed,
///   which ignores that σ is estimated too: its coverage falls far below 95% far from equality
///   (`tests/coverage.rs`).
pub fn intervals<C: ResultCounts + ?Sized>(
    counts: &C,
    coverage: f64,
) -> Option<(Interval, Interval)> {
    let (n, mean, [v, m3, m4]) = moments(counts);
    if n < MIN_INTERVAL_SAMPLES as f64 || v <= 0.0 || !is_coverage(coverage) {
        return None;
    }
    let q = StudentsT::new(0.0, 1.0, n - 1.0)
        .ok()?
        .inverse_cdf(0.5 + coverage / 2.0);
    let half = q * (v / (n - 1.0)).sqrt();
    let tau = (mean - 0.5) / v.sqrt();
    let (skew, kurtosis) = (m3 / v.powf(1.5), m4 / (v * v));
    let spread_at = |t: f64| {
        let mertens = 1.0 - skew * t + (kurtosis - 1.0) / 4.0 * t * t;
        mertens.max(1.0 + t * t / 2.0)
    };
    let half_at = |spread: f64| q * (spread / (n - 1.0)).sqrt();
    let first = half_at(spread_at(tau));
    let tau_half = half_at(spread_at(tau - first).max(spread_at(tau + first)));
    let nelo_per_tau = NELO_PER_T / (counts.games_per_sample() as f64).sqrt();
    let interval = |lo: f64, hi: f64| Interval {
        lo,
        hi,
        coverage,
        n: n as usize,
    };
    Some((
        interval(logistic_elo(mean - half), logistic_elo(mean + half)),
        interval(
            (tau - tau_half) * nelo_per_tau,
            (tau + tau_half) * nelo_per_tau,
        ),
    ))
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
        self.games_with_z(elo_difference, two_sided_z(self.coverage))
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
        let z = two_sided_z(self.coverage) + Normal::standard().inverse_cdf(power);
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
