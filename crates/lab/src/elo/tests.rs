//! Tests of the gauntlet: every row's players parse, and a tiny run reports each row.

use super::*;
use crate::Silent;

#[test]
fn every_row_parses_and_has_a_baseline() {
    assert!(ROWS.len() >= 20);
    for r in ROWS.iter() {
        PlayerSpec::parse(r.a).unwrap();
        PlayerSpec::parse(r.b).unwrap();
        assert_ne!(r.a, r.b);
    }
    assert!(ROWS.iter().any(|r| r.a == "off"));
    assert!(ROWS.iter().any(|r| r.a.contains("jitter=on")));
}

#[test]
fn a_tiny_gauntlet_reports_every_row() {
    let config = Config {
        nodes: 50,
        games: 2,
        tc_games: 0,
        threads: 2,
        ..Config::quick()
    };
    let results = run(&config, &mut Silent).unwrap();
    assert_eq!(results.rows.len(), ROWS.len());
    assert!(results.rows.iter().all(|r| r.games == 2 && r.deterministic));
    assert!(headline(&results).contains("choices differ"));
    assert!(summary_table(&results).contains("off (vs linear)"));
}

#[test]
fn bad_settings_are_refused() {
    for c in [
        Config {
            games: 3,
            ..Config::quick()
        },
        Config {
            tc: "x".into(),
            ..Config::quick()
        },
        Config {
            nodes: 0,
            ..Config::quick()
        },
    ] {
        assert!(c.check().is_err());
    }
}
