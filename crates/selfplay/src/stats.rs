//! The statistics a match reports, from its pentanomial counts: a thin adapter over the
//! statistics crate (`replab-elo`). STAND-IN until that crate lands: the formulas below are
//! the textbook ones (logistic Elo and normalized Elo with normal 95% intervals, and the
//! GSPRT's Brownian approximation of the LLR), to be replaced by `replab-elo`'s.

use serde::{Deserialize, Serialize};

/// α and β of the SPRT.
pub const ALPHA: f64 = 0.05;
/// β of the SPRT.
pub const BETA: f64 = 0.05;
/// Default bounds of the normalized-Elo SPRT (fishtest's STC bounds).
pub const DEFAULT_BOUNDS: (f64, f64) = (0.0, 2.0);

/// The five pentanomial counts of game pairs, from player A's side:
/// `[LL, LD, WL+DD, WD, WW]`.
pub type Pentanomial = [u64; 5];

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

/// The SPRT's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// H0's normalized Elo.
    pub elo0: f64,
    /// H1's normalized Elo.
    pub elo1: f64,
    /// α.
    pub alpha: f64,
    /// β.
    pub beta: f64,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound, ln(β/(1−α)).
    pub lower: f64,
    /// The upper bound, ln((1−β)/α).
    pub upper: f64,
    /// `H0` (accepted, LLR ≤ lower), `H1` (LLR ≥ upper) or `continue`.
    pub decision: String,
}

/// Everything a match reports from its counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Logistic Elo.
    pub elo: Estimate,
    /// Normalized Elo.
    pub nelo: Estimate,
    /// Likelihood of superiority.
    pub los: f64,
    /// The SPRT.
    pub sprt: Sprt,
}

const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
const Z95: f64 = 1.959_963_984_540_054;
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Mean and variance of the pair score (zero counts count 1e-3, as fishtest's).
fn mean_var(p: &Pentanomial) -> (f64, f64, f64) {
    let counts: Vec<f64> = p
        .iter()
        .map(|&n| if n == 0 { 1e-3 } else { n as f64 })
        .collect();
    let n: f64 = counts.iter().sum();
    let mu = counts.iter().zip(SCORES).map(|(c, a)| c * a).sum::<f64>() / n;
    let var = counts
        .iter()
        .zip(SCORES)
        .map(|(c, a)| c * (a - mu).powi(2))
        .sum::<f64>()
        / n;
    (n, mu, var)
}

fn logistic(s: f64) -> f64 {
    let s = s.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The statistics of `p` with SPRT bounds `(elo0, elo1)` (normalized Elo).
pub fn summarize(p: &Pentanomial, bounds: (f64, f64)) -> Summary {
    let pairs: u64 = p.iter().sum();
    let (n, mu, var) = mean_var(p);
    let se = (var / n).sqrt();
    let elo = Estimate {
        value: logistic(mu),
        lower: logistic(mu - Z95 * se),
        upper: logistic(mu + Z95 * se),
    };
    let sigma = (2.0 * var).sqrt();
    let nelo_of = |s: f64| (s - 0.5) / sigma * NELO_SCALE;
    let nelo = Estimate {
        value: nelo_of(mu),
        lower: nelo_of(mu - Z95 * se),
        upper: nelo_of(mu + Z95 * se),
    };
    let los = 0.5 * (1.0 + erf((mu - 0.5) / se / std::f64::consts::SQRT_2));
    let (elo0, elo1) = bounds;
    let t = |e: f64| e / NELO_SCALE * std::f64::consts::SQRT_2;
    let that = (mu - 0.5) / var.sqrt();
    let llr = if pairs == 0 {
        0.0
    } else {
        n * (t(elo1) - t(elo0)) * (2.0 * that - t(elo0) - t(elo1)) / 2.0
    };
    let lower = (BETA / (1.0 - ALPHA)).ln();
    let upper = ((1.0 - BETA) / ALPHA).ln();
    let decision = if llr >= upper {
        "H1"
    } else if llr <= lower {
        "H0"
    } else {
        "continue"
    };
    Summary {
        elo,
        nelo,
        los,
        sprt: Sprt {
            elo0,
            elo1,
            alpha: ALPHA,
            beta: BETA,
            llr,
            lower,
            upper,
            decision: decision.into(),
        },
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    y.copysign(x)
}

/// Pairs needed for the 95% interval of the logistic Elo to exclude 0 when the true
/// difference is `elo`, at the pair-score variance `var_pair` (normal approximation).
pub fn pairs_to_resolve(elo: f64, var_pair: f64) -> Option<f64> {
    let ds = 1.0 / (1.0 + 10f64.powf(-elo / 400.0)) - 0.5;
    (ds.abs() > 1e-12).then(|| (Z95 * Z95 * var_pair / (ds * ds)).ceil())
}

/// The pair-score variance of `p`.
pub fn pair_variance(p: &Pentanomial) -> f64 {
    mean_var(p).2
}
