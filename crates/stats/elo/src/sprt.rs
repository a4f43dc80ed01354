//! The generalized sequential probability ratio test (GSPRT) of fishtest and fastchess, and the
//! BayesElo trinomial SPRT of cutechess and OpenBench.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::counts::{ResultCounts, Trinomial};
use crate::estimate::{NELO_PER_T, logistic_score};
use crate::pdf::Pdf;

/// The Elo scale of an SPRT's bounds and the likelihood model behind its LLR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Normalized Elo, fishtest's `LLR_normalized` (fishtest's default since 2021).
    Normalized,
    /// Logistic Elo, fishtest's `LLR_logistic`.
    Logistic,
    /// BayesElo with a draw Elo estimated from the games, as cutechess's `Sprt` and
    /// OpenBench's `TrinomialSPRT` compute it. Uses games, never pairs.
    BayesElo,
}

/// What a sequential test says after its latest observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The LLR is strictly between the bounds: keep playing.
    Continue,
    /// The LLR reached the lower bound: H0 (Elo ≤ elo0) is accepted, the test fails.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (Elo ≥ elo1) is accepted, the test passes.
    AcceptH1,
}

/// Why an [`Sprt`] cannot be built.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// α or β is not in (0, 1), or α + β ≥ 1 (the bounds would not enclose 0).
    ErrorRates {
        /// The given α.
        alpha: f64,
        /// The given β.
        beta: f64,
    },
    /// elo0 is not below elo1, or one is not finite.
    Bounds {
        /// The given elo0.
        elo0: f64,
        /// The given elo1.
        elo1: f64,
    },
    /// A normalized-Elo bound at or beyond [`normalized_bound_limit`]: fishtest's t-value
    /// solver cannot start there, so the LLR would be undefined (NaN) for every count.
    OutOfReach {
        /// The given elo0.
        elo0: f64,
        /// The given elo1.
        elo1: f64,
        /// The largest |bound| the LLR is defined for, exclusive.
        limit: f64,
    },
}

/// The largest |normalized Elo| (exclusive) a bound of the normalized GSPRT may have on
/// pentanomial counts (pairs, the stricter case; games allow a wider range): the t-value
/// reach of the solver's start on the five pair scores (2√2/3), per game: about 231.6 nElo.
pub fn normalized_bound_limit() -> f64 {
    crate::pdf::t_value_reach(5) / std::f64::consts::SQRT_2 * NELO_PER_T
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT error rates alpha={alpha}, beta={beta}: each must lie in (0, 1) and their sum below 1"
            ),
            SprtError::Bounds { elo0, elo1 } => write!(
                f,
                "SPRT bounds elo0={elo0}, elo1={elo1}: both must be finite and elo0 < elo1"
            ),
            SprtError::OutOfReach { elo0, elo1, limit } => write!(
                f,
                "SPRT bounds elo0={elo0}, elo1={elo1} (normalized Elo): each must lie within \
                 ±{limit:.1}, where the GSPRT's maximum-likelihood t-value solver (fishtest's \
                 MLE_t_value) has a solution; beyond it the LLR is undefined"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// A sequential test of H0: Elo = elo0 against H1: Elo = elo1 (Elo on the scale of `model`).
///
/// Wald's stopping bounds on the log-likelihood ratio: lower A = ln(β / (1 − α)), upper
/// B = ln((1 − β) / α), ±2.944 for α = β = 0.05 (fishtest `sprt.py`, fastchess `sprt.cpp`).
/// The stopping rule uses the bounds as they are; fishtest's Siegmund overshoot correction
/// only enters its post-test Elo estimate, which this crate does not compute.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Scale of elo0 and elo1 and the likelihood model.
    pub model: EloModel,
}

impl Sprt {
    /// A test with the given bounds and error rates, checked.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Sprt, SprtError> {
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        if !(rate_ok(alpha) && rate_ok(beta) && alpha + beta < 1.0) {
            return Err(SprtError::ErrorRates { alpha, beta });
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::Bounds { elo0, elo1 });
        }
        let limit = normalized_bound_limit();
        if model == EloModel::Normalized && (elo0.abs() >= limit || elo1.abs() >= limit) {
            return Err(SprtError::OutOfReach { elo0, elo1, limit });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// fishtest's default for a gainer at short time control: normalized Elo [0, 2],
    /// α = β = 0.05.
    pub fn fishtest_stc() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 2.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        }
    }

    /// Lower stopping bound A = ln(β / (1 − α)).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper stopping bound B = ln((1 − β) / α).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The decision for a log-likelihood ratio: H1 at or above the upper bound, H0 at or below
    /// the lower bound, otherwise continue (also for a NaN LLR).
    pub fn decision(&self, llr: f64) -> Decision {
        if llr >= self.upper() {
            Decision::AcceptH1
        } else if llr <= self.lower() {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }

    /// The log-likelihood ratio of H1 against H0 for the counts, 0 when there are no games.
    ///
    /// - Normalized and logistic models: the generalized LLR of fishtest's `LLR_normalized` /
    ///   `LLR_logistic`, N · Σ p̂ᵢ ln(p1ᵢ / p0ᵢ) with p0, p1 the maximum-likelihood
    ///   distributions on the observed score classes under each hypothesis, computed from
    ///   trinomial counts per game or pentanomial counts per pair. Zero counts are replaced by
    ///   1e-3 first, as fishtest does ([`crate::ZERO_COUNT_REPLACEMENT`]).
    /// - BayesElo: cutechess's LLR on the games, 0 until there is at least one win, one draw
    ///   and one loss (cutechess and OpenBench do not regularise).
    ///
    /// NaN when a hypothesis is out of reach of every distribution on the observed scores
    /// (only for extreme bounds, which [`Sprt::new`] refuses for the normalized model:
    /// [`normalized_bound_limit`]); [`Sprt::decision`] then continues.
    pub fn llr<C: ResultCounts + ?Sized>(&self, counts: &C) -> f64 {
        match self.model {
            EloModel::BayesElo => llr_bayeselo(self.elo0, self.elo1, &counts.games_trinomial()),
            EloModel::Logistic => llr_logistic(self.elo0, self.elo1, counts),
            EloModel::Normalized => llr_normalized(self.elo0, self.elo1, counts),
        }
    }
}

/// fishtest's `LLR_logistic`: hypotheses on the expected score s_j = 1 / (1 + 10^(−elo_j/400));
/// the distribution with mean s_j closest to the observed one is p̂ᵢ / (1 + θ(aᵢ − s_j)).
pub fn llr_logistic<C: ResultCounts + ?Sized>(elo0: f64, elo1: f64, counts: &C) -> f64 {
    let Some(pdf) = Pdf::regularized(counts) else {
        return 0.0;
    };
    let fitted = |elo: f64| pdf.mle_with_mean(logistic_score(elo));
    match (fitted(elo0), fitted(elo1)) {
        (Some(p0), Some(p1)) => pdf.n * pdf.llr_per_sample(&p0, &p1),
        _ => f64::NAN,
    }
}

/// fishtest's `LLR_normalized`: hypotheses on the t-value (s − ½)/σ of a sample, t_j =
/// nElo_j / (800/ln 10) for games and √2 times that for pairs (a pair's score has half a
/// game's variance, so the same per-game normalized Elo is a √2 larger t-value per pair).
pub fn llr_normalized<C: ResultCounts + ?Sized>(nelo0: f64, nelo1: f64, counts: &C) -> f64 {
    let Some(pdf) = Pdf::regularized(counts) else {
        return 0.0;
    };
    let per_sample = (counts.games_per_sample() as f64).sqrt();
    let fitted = |nelo: f64| pdf.mle_with_t_value(0.5, nelo / NELO_PER_T * per_sample);
    match (fitted(nelo0), fitted(nelo1)) {
        (Some(p0), Some(p1)) => pdf.n * pdf.llr_per_sample(&p0, &p1),
        _ => f64::NAN,
    }
}

/// Win, draw and loss probabilities of BayesElo `elo` with draw Elo `draw_elo` (cutechess
/// `SprtProbability`): P(win) = 1 / (1 + 10^((draw_elo − elo)/400)), P(loss) =
/// 1 / (1 + 10^((draw_elo + elo)/400)), P(draw) = 1 − P(win) − P(loss).
pub fn bayeselo_probabilities(elo: f64, draw_elo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
    (win, 1.0 - win - loss, loss)
}

/// The draw Elo fitted to observed win and loss rates (cutechess `BayesElo`):
/// 200 · log10((1 − L)/L · (1 − W)/W).
pub fn bayeselo_draw_elo(win_rate: f64, loss_rate: f64) -> f64 {
    200.0 * ((1.0 - loss_rate) / loss_rate * (1.0 - win_rate) / win_rate).log10()
}

/// The BayesElo trinomial SPRT's LLR (cutechess `Sprt::status`, OpenBench `TrinomialSPRT`):
/// the draw Elo fitted to the games, then Σ over W, D, L of count · ln(p1 / p0) with p_j the
/// probabilities of BayesElo elo_j at that draw Elo. 0 until every count is positive.
pub fn llr_bayeselo(elo0: f64, elo1: f64, games: &Trinomial) -> f64 {
    if games.wins == 0 || games.draws == 0 || games.losses == 0 {
        return 0.0;
    }
    let n = games.games() as f64;
    let draw_elo = bayeselo_draw_elo(games.wins as f64 / n, games.losses as f64 / n);
    let (w0, d0, l0) = bayeselo_probabilities(elo0, draw_elo);
    let (w1, d1, l1) = bayeselo_probabilities(elo1, draw_elo);
    games.wins as f64 * (w1 / w0).ln()
        + games.draws as f64 * (d1 / d0).ln()
        + games.losses as f64 * (l1 / l0).ln()
}

/// An SPRT's state for a report: the test's parameters, the LLR of the counts, the bounds and
/// the decision (the `sprt` object of `replab match`'s `results.json`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Scale of elo0 and elo1 and the likelihood model.
    pub model: EloModel,
    /// The log-likelihood ratio of the counts.
    pub llr: f64,
    /// Lower stopping bound.
    pub lower: f64,
    /// Upper stopping bound.
    pub upper: f64,
    /// What the LLR decides.
    pub decision: Decision,
}

impl Sprt {
    /// The LLR of `counts` with the bounds and the decision, ready to serialise.
    pub fn report<C: ResultCounts + ?Sized>(&self, counts: &C) -> SprtReport {
        let llr = self.llr(counts);
        SprtReport {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: self.model,
            llr,
            lower: self.lower(),
            upper: self.upper(),
            decision: self.decision(llr),
        }
    }
}

/// What a [`ThreeWay`] test concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The gain test passed: A is better by about the upper bound or more.
    Better,
    /// The loss test failed: A is worse by about the lower bound or more.
    Worse,
    /// Both tests rejected their alternative: the difference lies within the bounds.
    Within,
    /// Neither conclusion yet: keep playing.
    Continue,
}

/// Two one-sided normalized-Elo GSPRTs run on the same games, a three-decision procedure
/// (after Sobel and Wald, 1949): a gain test [0, `elo1`] and a loss test [`elo0`, 0]. The
/// gain test passing says "better", the loss test failing says "worse", the gain test failing
/// while the loss test passes says "within [`elo0`, `elo1`]".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThreeWay {
    /// H0 = 0 against H1 = elo1.
    pub gain: Sprt,
    /// H0 = elo0 against H1 = 0.
    pub loss: Sprt,
}

impl ThreeWay {
    /// The test with bounds `elo0 < 0 < elo1` (normalized Elo) and error rates α = β =
    /// `alpha` for each one-sided test.
    pub fn new(elo0: f64, elo1: f64, alpha: f64) -> Result<ThreeWay, SprtError> {
        if !(elo0 < 0.0 && elo1 > 0.0) {
            return Err(SprtError::Bounds { elo0, elo1 });
        }
        Ok(ThreeWay {
            gain: Sprt::new(0.0, elo1, alpha, alpha, EloModel::Normalized)?,
            loss: Sprt::new(elo0, 0.0, alpha, alpha, EloModel::Normalized)?,
        })
    }

    /// The conclusion the counts support.
    pub fn verdict<C: ResultCounts + ?Sized>(&self, counts: &C) -> Verdict {
        let (gain, loss) = (
            self.gain.report(counts).decision,
            self.loss.report(counts).decision,
        );
        Self::combine(gain, loss)
    }

    /// The conclusion of the gain test's and the loss test's decisions.
    pub fn combine(gain: Decision, loss: Decision) -> Verdict {
        match (gain, loss) {
            (Decision::AcceptH1, _) => Verdict::Better,
            (_, Decision::AcceptH0) => Verdict::Worse,
            (Decision::AcceptH0, Decision::AcceptH1) => Verdict::Within,
            _ => Verdict::Continue,
        }
    }

    /// Games the test expects to need when the true difference is at the nearer bound, from
    /// Wald's approximation of the mean sample number with the normal approximation of the
    /// LLR per pair ((Δt)²/2 for the t-value step Δt per pair between the hypotheses): the
    /// figure a power check sets against a match's cap.
    pub fn expected_games(&self) -> u64 {
        let step = self.gain.elo1.min(-self.loss.elo0) / NELO_PER_T * std::f64::consts::SQRT_2;
        let b = self.gain.beta;
        let drift = (1.0 - b) * self.gain.upper() + b * self.gain.lower();
        let pairs = drift / (step * step / 2.0);
        2 * pairs.ceil() as u64
    }
}
