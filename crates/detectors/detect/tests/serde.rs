//! With the `serde` feature, the detector-side records round-trip through JSON with their field
//! names unchanged (they are part of the JSON contract).
#![cfg(feature = "serde")]

use replab_detect::{DrawPolicy, Repetition, Stats};

#[test]
fn stats_round_trip_with_their_field_names() {
    let stats = Stats {
        probes: 1,
        hits: 2,
        verified: 3,
        futile: 4,
        misses: 5,
        collisions: 6,
        overflows: 7,
        comparisons: 8,
    };
    let value = serde_json::to_value(stats).unwrap();
    for (field, n) in [
        ("probes", 1),
        ("hits", 2),
        ("verified", 3),
        ("futile", 4),
        ("misses", 5),
        ("collisions", 6),
        ("overflows", 7),
        ("comparisons", 8),
    ] {
        assert_eq!(value[field], n, "{field}");
    }
    assert_eq!(serde_json::from_value::<Stats>(value).unwrap(), stats);
}

#[test]
fn repetitions_and_policies_round_trip() {
    let rep = Repetition {
        distance: 4,
        earlier: 2,
    };
    let json = serde_json::to_string(&rep).unwrap();
    assert_eq!(json, r#"{"distance":4,"earlier":2}"#);
    assert_eq!(serde_json::from_str::<Repetition>(&json).unwrap(), rep);
    let policies = serde_json::to_string(&DrawPolicy::ALL).unwrap();
    assert_eq!(
        policies,
        r#"["twofold","stanback","moreland","stockfish","threefold"]"#
    );
    assert_eq!(
        serde_json::from_str::<Vec<DrawPolicy>>(&policies).unwrap(),
        DrawPolicy::ALL
    );
}
