//! Wide SPRT bounds: fishtest's t-value solver cannot start beyond a fixed normalized Elo, so
//! such bounds are refused instead of giving an undefined (NaN) LLR and a test that never stops.

use replab_elo::{EloModel, Pentanomial, Sprt, SprtError, llr_normalized, normalized_bound_limit};

const COUNTS: [[u64; 5]; 6] = [
    [1, 20, 300, 900, 779],
    [10, 50, 100, 50, 10],
    [0, 0, 5, 0, 0],
    [0, 1, 2, 1, 0],
    [34, 85, 96, 64, 75],
    [900, 10, 3, 0, 0],
];

#[test]
fn the_limit_is_where_the_llr_stops_being_defined() {
    let limit = normalized_bound_limit();
    assert!((limit - 231.6).abs() < 0.1, "{limit}");
    for counts in COUNTS {
        let p = Pentanomial::from_ptnml(counts);
        for (lo, hi) in [(-limit + 0.1, limit - 0.1), (0.0, limit - 0.1), (-5.0, 0.0)] {
            let llr = llr_normalized(lo, hi, &p);
            assert!(llr.is_finite(), "{counts:?} [{lo}, {hi}]: {llr}");
        }
        assert!(llr_normalized(0.0, limit + 0.1, &p).is_nan(), "{counts:?}");
    }
}

#[test]
fn bounds_beyond_the_limit_are_refused() {
    let limit = normalized_bound_limit();
    let new = |lo, hi, model| Sprt::new(lo, hi, 0.05, 0.05, model);
    assert!(new(-231.0, 231.0, EloModel::Normalized).is_ok());
    let err = new(-250.0, 250.0, EloModel::Normalized).unwrap_err();
    assert!(matches!(err, SprtError::OutOfReach { .. }), "{err:?}");
    assert!(err.to_string().contains("elo0=-250, elo1=250"), "{err}");
    assert!(err.to_string().contains(&format!("±{limit:.1}")), "{err}");
    assert!(new(0.0, limit, EloModel::Normalized).is_err());
    // Only the normalized model solves for a t-value.
    assert!(new(-250.0, 250.0, EloModel::Logistic).is_ok());
    assert!(new(-250.0, 250.0, EloModel::BayesElo).is_ok());
}
