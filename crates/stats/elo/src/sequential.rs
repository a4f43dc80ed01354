//! The Elo estimate of a stopped sequential test, as fishtest reports it for a finished SPRT
//! (fishtest `server/fishtest/stats/sprt.py`, `sprt.analytics`, with `brownian.py`).
//!
//! A test that stops when its LLR crosses a bound over-reports the effect of tests that
//! stopped early: a fixed-sample interval does not account for the stopping rule. fishtest
//! models the LLR as a Brownian motion with drift between the two bounds and asks, for each
//! candidate Elo, how likely a worse outcome than the observed one is (an earlier fail, a later
//! pass, or a pass turned into a fail). The median-unbiased estimate is the Elo at which that
//! probability is ½; the interval ends are where it is p/2 and 1 − p/2.

use statrs::function::erf::erfc;

use crate::counts::ResultCounts;
use crate::estimate::{EloEstimate, NELO_PER_T, is_coverage, logistic_score};
use crate::pdf::{Pdf, bisect_decreasing};
use crate::sprt::{EloModel, Sprt};

/// ln Φ(z), accurate far into the lower tail (asymptotic series below z = −30).
fn ln_phi(z: f64) -> f64 {
    if z > -30.0 {
        (0.5 * erfc(-z / std::f64::consts::SQRT_2)).ln()
    } else {
        let z2 = z * z;
        -z2 / 2.0 - (-z * (2.0 * std::f64::consts::PI).sqrt()).ln()
            + (1.0 - 1.0 / z2 + 3.0 / (z2 * z2)).ln()
    }
}

/// The LLR modelled as a Brownian motion with drift `mu` and variance `sigma2` per sample
/// between absorbing bounds `lower` < 0 < `upper`.
struct LlrWalk {
    lower: f64,
    upper: f64,
    mu: f64,
    sigma2: f64,
}

impl LlrWalk {
    /// Probability of an outcome worse than being at `y` after `t` samples (fishtest
    /// `outcome_cdf`): the path stopped at min(t, exit) ends below `y` (an earlier fail, a
    /// later pass, a pass turned into a fail). As in fishtest, Siegmund's approximation is used
    /// for fast drifts (|γ(b − a)| > 15) or short times (σ²t/(b − a)² < 0.01), the exact series
    /// otherwise.
    ///
    /// Siegmund's approximation: still below `y` without having reached the upper bound, or
    /// through the lower bound and (as a free path) above `y`. Both terms come from the
    /// reflection principle for a drifting Brownian motion with one barrier at a time
    /// (fishtest's `outcome_cdf_alt2`):
    /// Φ(z) − e^{2γb} Φ(z_b) + e^{2γa} Φ(z_a), γ = μ/σ², z = (y − μt)/√(σ²t),
    /// z_b = (y − μt − 2b)/√(σ²t), z_a = (2a − y + μt)/√(σ²t).
    fn worse_outcome_probability(&self, t: f64, y: f64) -> f64 {
        let width = self.upper - self.lower;
        let gamma = self.mu / self.sigma2;
        if self.sigma2 * t / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
            self.worse_outcome_siegmund(t, y)
        } else {
            self.worse_outcome_exact(t, y)
        }
    }

    /// The exact probability P(X at min(t, exit) < y) from the eigenfunction expansion of a
    /// drifting Brownian motion killed at both bounds (w = b − a, kₙ = nπ/w, x₀ = −a,
    /// λₙ = σ²kₙ²/2 + μ²/(2σ²)):
    /// 1 − P(exit at b) + P(exit at b after t) − P(alive at t above y), where
    /// P(exit at b) = (1 − e^{−2γa}) / (e^{−2γb} − e^{−2γa}),
    /// P(exit at b after t) = e^{γb} (σ²/w) Σ kₙ (−1)^{n+1} sin(kₙx₀) e^{−λₙt} / λₙ and the
    /// alive density (2/w) Σ sin(kₙx₀) sin(kₙ(x − a)) e^{γx − λₙt} integrated over (y, b).
    /// Used, as fishtest does, only for slow drifts, where the series converges and its terms
    /// do not overflow.
    fn worse_outcome_exact(&self, t: f64, y: f64) -> f64 {
        let (a, b) = (self.lower, self.upper);
        let width = b - a;
        let gamma = self.mu / self.sigma2;
        let exit_upper = if gamma.abs() < 1e-12 {
            -a / width
        } else {
            (1.0 - (-2.0 * gamma * a).exp()) / ((-2.0 * gamma * b).exp() - (-2.0 * gamma * a).exp())
        };
        let (mut exit_upper_late, mut alive_above) = (0.0, 0.0);
        for n in 1..=10_000 {
            let k = n as f64 * std::f64::consts::PI / width;
            let lambda = self.sigma2 * k * k / 2.0 + self.mu * self.mu / (2.0 * self.sigma2);
            let decay = (-lambda * t).exp();
            let start = (-k * a).sin();
            let sign = if n % 2 == 1 { 1.0 } else { -1.0 };
            let late = (gamma * b).exp() * self.sigma2 / width * k * sign * start * decay / lambda;
            let antiderivative = |x: f64| {
                (gamma * x).exp() * (gamma * (k * (x - a)).sin() - k * (k * (x - a)).cos())
                    / (gamma * gamma + k * k)
            };
            let alive = 2.0 / width * start * decay * (antiderivative(b) - antiderivative(y));
            exit_upper_late += late;
            alive_above += alive;
            if n > 10 && late.abs() + alive.abs() < 1e-17 {
                break;
            }
        }
        1.0 - exit_upper + exit_upper_late - alive_above
    }

    /// Siegmund's approximation of the same probability; see
    /// [`LlrWalk::worse_outcome_probability`].
    fn worse_outcome_siegmund(&self, t: f64, y: f64) -> f64 {
        let spread = (self.sigma2 * t).sqrt();
        let drift = self.mu * t;
        let gamma = self.mu / self.sigma2;
        let z = (y - drift) / spread;
        let z_upper = (y - drift - 2.0 * self.upper) / spread;
        let z_lower = (2.0 * self.lower - y + drift) / spread;
        ln_phi(z).exp() - (2.0 * gamma * self.upper + ln_phi(z_upper)).exp()
            + (2.0 * gamma * self.lower + ln_phi(z_lower)).exp()
    }
}

/// The observed state of a test in fishtest's quadratic approximation.
struct TestState {
    pdf: Pdf,
    s0: f64,
    s1: f64,
    /// Samples, shortened to where the LLR line crossed a bound when it lies beyond one.
    time: f64,
    /// The LLR, clamped to the bounds.
    llr: f64,
    lower: f64,
    upper: f64,
}

impl TestState {
    fn new<C: ResultCounts + ?Sized>(test: &Sprt, counts: &C) -> Option<TestState> {
        let pdf = Pdf::regularized(counts)?;
        let (mean, variance) = pdf.mean_variance();
        let (s0, s1) = match test.model {
            EloModel::Logistic => (logistic_score(test.elo0), logistic_score(test.elo1)),
            EloModel::Normalized => {
                let sigma = (counts.games_per_sample() as f64 * variance).sqrt();
                let score = |nelo: f64| 0.5 + nelo / NELO_PER_T * sigma;
                (score(test.elo0), score(test.elo1))
            }
            EloModel::BayesElo => return None,
        };
        let slope = (mean - (s0 + s1) / 2.0) * (s1 - s0) / variance;
        let (lower, upper) = (test.lower(), test.upper());
        let llr = pdf.n * slope;
        let (time, llr) = if llr < lower {
            (lower / slope, lower)
        } else if llr > upper {
            (upper / slope, upper)
        } else {
            (pdf.n, llr)
        };
        Some(TestState {
            pdf,
            s0,
            s1,
            time,
            llr,
            lower,
            upper,
        })
    }

    /// Probability of a worse outcome if the true logistic Elo were `elo` (fishtest
    /// `outcome_prob`): the LLR's drift (s − (s0 + s1)/2)(s1 − s0)/v and variance (s1 − s0)²/v
    /// per sample, with v = Σ p̂ᵢ (aᵢ − s)² the observed spread about the score s of `elo`.
    fn worse_outcome_probability(&self, elo: f64) -> f64 {
        let s = logistic_score(elo);
        let spread: f64 = self
            .pdf
            .scores
            .iter()
            .zip(&self.pdf.probs)
            .map(|(a, p)| p * (a - s) * (a - s))
            .sum();
        let walk = LlrWalk {
            lower: self.lower,
            upper: self.upper,
            mu: (s - (self.s0 + self.s1) / 2.0) * (self.s1 - self.s0) / spread,
            sigma2: (self.s1 - self.s0).powi(2) / spread,
        };
        walk.worse_outcome_probability(self.time, self.llr)
    }

    /// The largest Elo at which the observed outcome has probability below `p` (fishtest
    /// `lower_cb`): the root of P(worse | elo) = 1 − p nearest the test's bounds, a bracket
    /// end (±1000 Elo) when there is none inside ±1000.
    ///
    /// P(worse | elo) falls from 1 to 0 as the Elo passes the observed one, but the model
    /// rises again far beyond it (the spread v about the score of `elo` grows with the
    /// distance from the observed mean, which slows the drift), so a second, meaningless root
    /// lies on that far side. fishtest's bracket, the bounds' centre ± 30·width doubled until
    /// the ends differ in sign, can step over the first root and then finds no sign change at
    /// all: it returns the clamp 1000 (e.g. pentanomial [1, 20, 300, 900, 779] at [0, 2]). This
    /// scan walks outward from the centre in steps growing by 10% and bisects the first sign
    /// change, which fishtest's bracket finds whenever it finds one near the bounds.
    fn elo_bound(&self, test: &Sprt, p: f64) -> f64 {
        const LIMIT: f64 = 1000.0;
        let centre = (test.elo0 + test.elo1) / 2.0;
        let f = |elo: f64| self.worse_outcome_probability(elo) - (1.0 - p);
        let at_centre = f(centre);
        if at_centre == 0.0 {
            return centre;
        }
        // The root lies above the centre when a worse outcome is still too likely there.
        let direction = if at_centre > 0.0 { 1.0 } else { -1.0 };
        let mut step = (test.elo1 - test.elo0).max(1.0);
        let mut inner = centre;
        loop {
            let outer = (inner + direction * step).clamp(-LIMIT, LIMIT);
            let value = f(outer);
            if value.is_finite() && (value > 0.0) != (at_centre > 0.0) {
                let (lo, hi) = if direction > 0.0 {
                    (inner, outer)
                } else {
                    (outer, inner)
                };
                return bisect_decreasing(f, lo, hi);
            }
            if outer.abs() >= LIMIT {
                return outer;
            }
            inner = outer;
            step *= 1.1;
        }
    }
}

impl Sprt {
    /// The logistic-Elo estimate of this test's result that accounts for the stopping rule,
    /// with an interval of the given coverage, as fishtest's `sprt.analytics` computes it for a
    /// finished test: the median-unbiased Elo and the Elo values at which a worse outcome has
    /// probability (1 ± coverage)/2.
    ///
    /// The test state is fishtest's: zero counts replaced by 1e-3; the LLR in its quadratic
    /// approximation N·(s − (s0+s1)/2)(s1 − s0)/v, clamped to the bound it crossed, with the
    /// sample count cut to where the straight LLR line met that bound. The Brownian-motion
    /// probability uses Siegmund's approximation for fast drifts or short times and the exact
    /// series otherwise, switching where fishtest does (the approximation when |γ(b − a)| > 15 or
    /// σ²T/(b − a)² < 0.01). `None` for the
    /// BayesElo model, no games, or a coverage not in (0, 1).
    pub fn sequential_estimate<C: ResultCounts + ?Sized>(
        &self,
        counts: &C,
        coverage: f64,
    ) -> Option<EloEstimate> {
        if !is_coverage(coverage) {
            return None;
        }
        let state = TestState::new(self, counts)?;
        let tail = (1.0 - coverage) / 2.0;
        Some(EloEstimate::new(
            state.elo_bound(self, 0.5),
            state.elo_bound(self, tail),
            state.elo_bound(self, 1.0 - tail),
            coverage,
            counts.classes().iter().sum(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::LlrWalk;

    fn walk(mu: f64, sigma2: f64) -> LlrWalk {
        let bound = 19f64.ln();
        LlrWalk {
            lower: -bound,
            upper: bound,
            mu,
            sigma2,
        }
    }

    /// Where both are valid (moderate drift, long enough time) the exact series and Siegmund's
    /// approximation agree; a sign or factor error in either would break this.
    #[test]
    fn exact_series_and_siegmund_agree_for_moderate_drifts() {
        for (mu, sigma2, t, y) in [
            (0.02, 0.01, 150.0, 19f64.ln()),
            (0.02, 0.01, 150.0, 0.5),
            (0.005, 0.004, 2000.0, 1.0),
            (-0.01, 0.004, 800.0, -1.5),
            (0.0, 0.004, 500.0, 0.3),
        ] {
            let w = walk(mu, sigma2);
            let exact = w.worse_outcome_exact(t, y);
            let siegmund = w.worse_outcome_siegmund(t, y);
            assert!((exact - siegmund).abs() < 1e-6, "{exact} vs {siegmund}");
            assert!((0.0..=1.0).contains(&exact));
        }
    }

    /// Without drift, starting halfway, the walk leaves through either bound with equal
    /// probability, so after a long time the chance of ending below the upper bound is ½.
    #[test]
    fn a_driftless_walk_exits_either_way_equally() {
        let w = walk(0.0, 0.01);
        let bound = 19f64.ln();
        assert!((w.worse_outcome_exact(1e6, bound) - 0.5).abs() < 1e-9);
    }
}
