//! Published test vectors from fastchess's and fishtest's test files, asserted to the precision
//! they were published with.

use replab_elo::{EloModel, Pentanomial, Sprt, Trinomial, summarize};

/// Asserts that `value` rounds to `published` at `decimals` decimals.
fn assert_published(what: &str, value: f64, published: f64, decimals: i32) {
    let scale = 10f64.powi(decimals);
    assert_eq!(
        (value * scale).round() / scale,
        published,
        "{what}: computed {value}, published {published}"
    );
}

fn stc() -> Sprt {
    Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).unwrap()
}

/// fastchess `app/tests/elo_test.cpp`: pentanomial (LL, LD, WL, DD, WD, WW) =
/// (34, 54, 31, 32, 64, 75) gives 55.58 ± 27.65 logistic Elo and 57.94 ± 28.28 normalized Elo.
/// The values are asserted as published; the errors are the normal approximation's, which
/// replab widens (Student-t quantile; for nElo, the estimated σ's own spread: see
/// `tests/coverage.rs`), so its errors are at least the published ones and, at 290 pairs,
/// within 1% (Elo) and 10% (nElo) of them.
#[test]
fn fastchess_pentanomial_elo_and_nelo() {
    let counts = Pentanomial::from_fastchess(34, 54, 31, 32, 64, 75);
    let summary = summarize(&counts).unwrap();
    assert_published("logistic Elo", summary.elo.value, 55.58, 2);
    assert_published("normalized Elo", summary.nelo.value, 57.94, 2);
    for (what, error, published, within) in [
        ("logistic", summary.elo.error().unwrap(), 27.65, 0.01),
        ("normalized", summary.nelo.error().unwrap(), 28.28, 0.10),
    ] {
        let ratio = error / published;
        assert!(
            (1.0..1.0 + within).contains(&ratio),
            "{what} Elo error {error} vs {published}"
        );
    }
}

/// fastchess `app/tests/sprt_test.cpp`: W 36433, L 36027, D 68692 (trinomial), normalized
/// [0, 2], α = β = 0.05: LLR 0.92.
#[test]
fn fastchess_trinomial_llr() {
    let counts = Trinomial::from_wdl(36433, 68692, 36027);
    assert_published("LLR", stc().llr(&counts), 0.92, 2);
}

/// fastchess `app/tests/sprt_test.cpp`: pentanomial (365, 16618, 36029, 200, 16974, 390),
/// normalized [0, 2]: LLR 2.25. The middle two counts are WL and DD in some order; their sum is
/// all the statistics use, so only the direction matters: LL first, WW last.
#[test]
fn fastchess_pentanomial_llr() {
    let counts = Pentanomial::from_fastchess(365, 16618, 36029, 200, 16974, 390);
    assert_published("LLR", stc().llr(&counts), 2.25, 2);
    let swapped = Pentanomial::from_fastchess(365, 16618, 200, 36029, 16974, 390);
    assert_published("LLR (WL and DD swapped)", stc().llr(&swapped), 2.25, 2);
}

/// fishtest `server/tests/test_stats_sprt.py`: ptnml [1, 60, 500, 1200, 600] against normalized
/// [0, 2] gives Elo 188.36 [170.73, 214.85]: the logistic-Elo estimate of the stopped test
/// (`sprt.analytics`), which accounts for the stopping rule. The fixed-sample estimate of the
/// same counts is 188.60 [181.65, 195.69], so a plain summary does not reproduce it.
#[test]
fn fishtest_sequential_elo_estimate() {
    let counts = Pentanomial::from_ptnml([1, 60, 500, 1200, 600]);
    let estimate = stc().sequential_estimate(&counts, 0.95).unwrap();
    assert_published("Elo", estimate.value, 188.36, 2);
    assert_published("lower end", estimate.interval.unwrap().lo, 170.73, 2);
    assert_published("upper end", estimate.interval.unwrap().hi, 214.85, 2);
    let fixed = summarize(&counts).unwrap();
    assert_published("fixed-sample Elo", fixed.elo.value, 188.60, 2);
}

/// The vector of fishtest issue 2571: ptnml [1, 20, 300, 900, 779] against normalized [0, 2]
/// gives Elo 245.47 [223.64, 289.80]. A bracket grown by doubling around the bounds (as
/// fishtest's `lower_cb` grows it) steps over the root of the estimate and of the upper end,
/// where the probability of a worse outcome rises again far beyond the observed Elo, and
/// returns the clamp 1000 for both; the scan from the bounds' centre outward finds them.
#[test]
fn fishtest_issue_2571_sequential_elo_estimate() {
    let counts = Pentanomial::from_ptnml([1, 20, 300, 900, 779]);
    let estimate = stc().sequential_estimate(&counts, 0.95).unwrap();
    assert_published("Elo", estimate.value, 245.47, 2);
    assert_published("lower end", estimate.interval.unwrap().lo, 223.64, 2);
    assert_published("upper end", estimate.interval.unwrap().hi, 289.80, 2);
}
