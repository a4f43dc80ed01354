//! Empirical score distributions and the maximum-likelihood solvers behind the GSPRT.
//!
//! Written after the method of fishtest's `server/fishtest/stats/LLRcalc.py` (Michel Van den
//! Bergh's GSPRT notes): the same regularisation, the same secular equation, the same fixed-point
//! iteration for a prescribed t-value.

use crate::counts::ResultCounts;

/// What fishtest substitutes for a zero count before any likelihood (`regularize`, 1e-3):
/// it keeps every score class in the support so that the likelihoods stay finite.
pub const ZERO_COUNT_REPLACEMENT: f64 = 1e-3;

/// An empirical distribution over evenly spaced scores in [0, 1].
#[derive(Clone, Debug)]
pub(crate) struct Pdf {
    /// Number of samples (after regularisation, so not an integer when a count was zero).
    pub n: f64,
    /// Scores `a_i`, in increasing order.
    pub scores: Vec<f64>,
    /// Probabilities `p_i`, summing to 1.
    pub probs: Vec<f64>,
}

impl Pdf {
    /// The distribution of the counts, each zero replaced by [`ZERO_COUNT_REPLACEMENT`].
    /// `None` when there are no samples at all.
    pub fn regularized<C: ResultCounts + ?Sized>(counts: &C) -> Option<Pdf> {
        let classes = counts.classes();
        if classes.iter().all(|&c| c == 0) {
            return None;
        }
        let values: Vec<f64> = classes
            .iter()
            .map(|&c| {
                if c == 0 {
                    ZERO_COUNT_REPLACEMENT
                } else {
                    c as f64
                }
            })
            .collect();
        let n: f64 = values.iter().sum();
        let last = (values.len() - 1) as f64;
        Some(Pdf {
            n,
            scores: (0..values.len()).map(|i| i as f64 / last).collect(),
            probs: values.iter().map(|v| v / n).collect(),
        })
    }

    /// Mean and variance of the score under `probs`.
    pub fn mean_variance_of(&self, probs: &[f64]) -> (f64, f64) {
        let mean: f64 = self.scores.iter().zip(probs).map(|(a, p)| a * p).sum();
        let var = self
            .scores
            .iter()
            .zip(probs)
            .map(|(a, p)| p * (a - mean) * (a - mean))
            .sum();
        (mean, var)
    }

    /// Mean and variance of the empirical distribution.
    pub fn mean_variance(&self) -> (f64, f64) {
        self.mean_variance_of(&self.probs)
    }

    /// Σ p̂ᵢ ln(p1ᵢ / p0ᵢ): the log-likelihood ratio per sample.
    pub fn llr_per_sample(&self, p0: &[f64], p1: &[f64]) -> f64 {
        self.probs
            .iter()
            .zip(p0.iter().zip(p1))
            .map(|(p, (q0, q1))| p * (q1 / q0).ln())
            .sum()
    }

    /// The maximum-likelihood distribution on the same scores whose mean is `s`
    /// (fishtest's `MLE_expected`): `pᵢ = p̂ᵢ / (1 + θ(aᵢ − s))`, θ the root of the secular
    /// equation. `None` when `s` lies outside the scores' range.
    pub fn mle_with_mean(&self, s: f64) -> Option<Vec<f64>> {
        let shifted: Vec<f64> = self.scores.iter().map(|a| a - s).collect();
        let theta = secular_root(&shifted, &self.probs)?;
        Some(self.reweighted(&shifted, theta))
    }

    /// The maximum-likelihood distribution on the same scores whose t-value
    /// `(μ − reference) / σ` equals `t` (fishtest's `MLE_t_value`): a fixed-point iteration
    /// (at most 10 rounds, stopping when no probability moves by 1e-9) that linearises the
    /// constraint around the current μ and σ and solves a secular equation each round.
    /// `None` when a round has no root (a t-value no distribution on these scores reaches).
    pub fn mle_with_t_value(&self, reference: f64, t: f64) -> Option<Vec<f64>> {
        let k = self.scores.len();
        let mut current = vec![1.0 / k as f64; k];
        for _ in 0..10 {
            let (mu, var) = self.mean_variance_of(&current);
            let sigma = var.sqrt();
            let shifted: Vec<f64> = self
                .scores
                .iter()
                .map(|a| {
                    let z = (mu - a) / sigma;
                    a - reference - t * sigma * (1.0 + z * z) / 2.0
                })
                .collect();
            let theta = secular_root(&shifted, &self.probs)?;
            let next = self.reweighted(&shifted, theta);
            let moved = next
                .iter()
                .zip(&current)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            current = next;
            if moved < 1e-9 {
                break;
            }
        }
        Some(current)
    }

    fn reweighted(&self, shifted: &[f64], theta: f64) -> Vec<f64> {
        self.probs
            .iter()
            .zip(shifted)
            .map(|(p, d)| p / (1.0 + theta * d))
            .collect()
    }
}

/// The largest |t| for which [`Pdf::mle_with_t_value`] can start on `classes` evenly spaced
/// scores with reference ½ (fishtest's `MLE_t_value` starts from the same uniform
/// distribution): at or beyond it, the first round's shifted scores all have one sign, its
/// secular equation has no root, and no LLR is defined. For k scores aᵢ = i/(k−1) with
/// uniform weights (mean ½, deviation σ) it is the largest over aᵢ > ½ of
/// 2(aᵢ − ½) / (σ(1 + ((aᵢ − ½)/σ)²)): 2√2/3 ≈ 0.943 for the five pair scores, 0.980 for the
/// three game scores.
pub fn t_value_reach(classes: usize) -> f64 {
    let last = classes.saturating_sub(1).max(1) as f64;
    let scores: Vec<f64> = (0..classes).map(|i| i as f64 / last).collect();
    let k = classes.max(1) as f64;
    let mean = scores.iter().sum::<f64>() / k;
    let sigma = (scores.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / k).sqrt();
    scores
        .iter()
        .filter(|a| **a > 0.5)
        .map(|a| {
            let z = (a - 0.5) / sigma;
            2.0 * (a - 0.5) / (sigma * (1.0 + z * z))
        })
        .fold(0.0, f64::max)
}

/// The root x of the secular equation Σ pᵢ dᵢ / (1 + x dᵢ) = 0 with every 1 + x dᵢ > 0.
///
/// The left side decreases strictly in x on that interval, (−1/max d, −1/min d), so bisection
/// finds the unique root; fishtest uses Brent's method on the same bracket. `None` when the
/// dᵢ do not take both signs (no root exists).
fn secular_root(d: &[f64], p: &[f64]) -> Option<f64> {
    let lo_d = d.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_d = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_d < 0.0 && hi_d > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        d.iter()
            .zip(p)
            .map(|(di, pi)| pi * di / (1.0 + x * di))
            .sum()
    };
    let epsilon = 1e-9;
    Some(bisect_decreasing(
        f,
        -1.0 / hi_d + epsilon,
        -1.0 / lo_d - epsilon,
    ))
}

/// The root of a function that falls through 0 between `lo` (positive) and `hi` (negative),
/// by bisection down to the resolution of f64.
pub(crate) fn bisect_decreasing(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}
