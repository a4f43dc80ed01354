//! Tests of the gauntlet: every row's players parse, and a tiny run reports each row.

use super::*;
use crate::Silent;

#[test]
fn every_row_parses_and_has_a_baseline() {
    assert!(ROWS.len() >= 20);
    for r in ROWS.iter() {
        PlayerSpec::parse(&r.a).unwrap();
        PlayerSpec::parse(&r.b).unwrap();
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
    // Every measured time carries an interval or is marked a single sample; every Elo its
    // interval.
    let v = serde_json::to_value(&results).unwrap();
    let unmarked = crate::interval::unmarked_times(&v, &["config", "meta"]);
    assert_eq!(unmarked, Vec::<String>::new());
    assert_eq!(v["totals"]["wall_s"]["interval"]["n"], 1);
    assert_eq!(v["rows"][0]["elo"]["interval"]["coverage"], 0.95);
    assert!(summary_table(&results).contains("off (vs linear)"));
    for r in &results.rows {
        // One game played twice scores 1 (a win and a loss, or two draws) in every pair.
        let [ll, ld, _, wd, ww] = r.pentanomial;
        assert!(!r.games_identical || ll + ld + wd + ww == 0, "{}", r.label);
        // No game count for a difference that prints as +0.0.
        if r.elo.value.abs() < 0.05 {
            assert_eq!(r.games_to_resolve, None, "{}", r.label);
        }
    }

    // The decision table's values: the detector rows and the policy presets, nothing else.
    use crate::contribution::Choice;
    use crate::experiment::Experiment;
    let values = Elo::contributions(&results);
    let elo = |detector: &str, policy: Option<&str>| {
        values
            .iter()
            .any(|c| c.detector == detector && c.policy.map(|p| p.name()) == policy)
    };
    // `off` and every search detector but the baseline has its row.
    for name in std::iter::once("off").chain(replab_registry::SEARCH_DETECTORS) {
        assert_eq!(elo(name, None), name != BASELINE, "{name}");
    }
    assert!(elo(BASELINE, Some("twofold")) && elo(BASELINE, Some("threefold")));
    assert!(
        !elo(BASELINE, None),
        "the bits, GHI and jitter rows are not detector rows"
    );
    // Fixed nodes first, each against the baseline it was played against.
    assert!(values.iter().all(|c| c.column.key == "elo-fixed-nodes"));
    let linear = Choice::detector(replab_registry::DetectorId::reference());
    assert!(values.iter().any(|c| c.value.against == Some(linear)));
    // The decision table's rows from these values: `crates/site/tests/elo_rows.rs`.
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

#[test]
fn each_search_detector_has_one_row_against_the_reference() {
    use replab_detect::DrawPolicy;
    use replab_registry::DetectorId;
    assert_eq!(DetectorId::reference().name(), BASELINE);
    for id in DetectorId::select(|c| c.searchable) {
        let rows: Vec<(PlayerSpec, PlayerSpec)> = ROWS
            .iter()
            .filter(|r| matches!(r.group, "detector" | "upcoming"))
            .map(|r| {
                (
                    PlayerSpec::parse(&r.a).unwrap(),
                    PlayerSpec::parse(&r.b).unwrap(),
                )
            })
            .filter(|(a, _)| a.detector == id.name())
            .collect();
        if id.name() == BASELINE {
            assert!(rows.is_empty(), "the baseline plays itself");
            continue;
        }
        assert_eq!(rows.len(), 1, "{id}");
        let (a, b) = &rows[0];
        assert_eq!(b.detector, BASELINE);
        // A detector that cannot count occurrences plays, as its baseline, twofold.
        let twofold = !id.caps().counts_occurrences;
        assert_eq!(a.policy == DrawPolicy::Twofold, twofold, "{id}");
        assert_eq!(b.policy == DrawPolicy::Twofold, twofold, "{id}");
    }
}

#[test]
fn more_than_one_percent_of_games_lost_on_time_is_a_busy_machine() {
    assert!(!super::too_busy(0, 100));
    assert!(!super::too_busy(1, 100));
    assert!(super::too_busy(2, 100));
    assert!(super::too_busy(1, 16));
    assert!(!super::too_busy(0, 0));
}
