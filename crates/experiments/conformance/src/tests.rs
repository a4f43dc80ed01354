//! The conformance run's unit tests: scenario loading, verdicts, configurations.

use super::*;
use crate::judge::refuses;

#[test]
fn refusals_are_told_from_remarks() {
    for refused in [
        "info string unknown option Foo",
        "info string No such option: Foo",
        "info string Hash -1 is out of range (0 to 4096)",
        "info string unknown Detector nosuch",
        "info string invalid Bug nosuch",
    ] {
        assert!(refuses(refused), "{refused}");
    }
    assert!(!refuses(
        "info string NNUE evaluation using nn-ad9b42354671.nnue enabled"
    ));
}

#[test]
fn the_judge_rejects_null_and_illegal_moves_where_a_move_exists() {
    let s = built_in()
        .into_iter()
        .find(|s| s.id == "fifty-move-fen-clock")
        .unwrap();
    let game = Game::replay(&s.fen, &s.moves).unwrap();
    let draw = Some((false, 0));
    assert_eq!(judge(&s, &game, draw, "a1b1").0, Verdict::Pass);
    for null in ["0000", "(none)", ""] {
        let (v, why) = judge(&s, &game, draw, null);
        assert_eq!(v, Verdict::Fail, "{null}");
        assert!(why.contains("null move"), "{why}");
    }
    let (v, why) = judge(&s, &game, draw, "a1a3");
    assert_eq!(v, Verdict::Fail);
    assert!(why.contains("illegal move"), "{why}");
}

#[test]
fn scenario_ids_are_checked_and_files_replace_by_id() {
    let mut config = Config {
        only: vec!["fivefold".into(), "fifty-move-fen-clock".into()],
        ..Config::default()
    };
    let ids: Vec<String> = config.load().unwrap().into_iter().map(|s| s.id).collect();
    assert_eq!(ids, ["fifty-move-fen-clock", "fivefold"]);
    config.skip = vec!["fivefold".into()];
    assert_eq!(config.load().unwrap().len(), 1);
    config.expect_fail = vec!["no-such".into()];
    let err = config.load().unwrap_err().to_string();
    assert!(
        err.contains("--expect-fail no-such: no such scenario"),
        "{err}"
    );
    let built = built_in();
    assert!(built.iter().filter(|s| s.expect != "info").count() >= 40);
    for s in &built {
        Game::replay(&s.fen, &s.moves).unwrap();
    }
}

#[test]
fn an_expected_failure_covers_the_scenarios_of_the_same_bug() {
    let built = built_in();
    let ids = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let covered = expected_failures(&ids(&["en-passant-pinned-same"]), &built);
    assert_eq!(covered, ["en-passant-pinned-same", "en-passant-fen-pinned"]);
    let covered = expected_failures(&ids(&["en-passant-fen-pinned"]), &built);
    assert_eq!(covered, ["en-passant-fen-pinned"]);
    let bad = r#"[{"id": "a", "rule": "r", "description": "d", "fen": "8/8/8/8/8/8/8/K6k w - - 0 1",
        "depth": 1, "expect": "info", "same_bug_as": "b"}]"#;
    let err = parse(bad, "bad.json").unwrap_err().to_string();
    assert!(
        err.contains("same_bug_as \"b\" names no other scenario"),
        "{err}"
    );
}

#[test]
fn a_scenario_draw_margin_widens_what_counts_as_a_draw() {
    let built = built_in();
    let s = built
        .iter()
        .find(|s| s.id == "dead-position-bishop")
        .unwrap();
    let game = Game::replay(&s.fen, &s.moves).unwrap();
    assert_eq!(judge(s, &game, Some((false, 45)), "b2c3").0, Verdict::Pass);
    assert_eq!(
        judge(s, &game, Some((false, -100)), "b2c3").0,
        Verdict::Pass
    );
    assert_eq!(
        judge(s, &game, Some((false, -101)), "b2c3").0,
        Verdict::Fail
    );
    assert_eq!(
        judge(s, &game, Some((false, -320)), "b2c3").0,
        Verdict::Fail
    );
    let strict = built
        .iter()
        .find(|s| s.id == "fifty-move-fen-clock")
        .unwrap();
    let game = Game::replay(&strict.fen, &strict.moves).unwrap();
    assert_eq!(
        judge(strict, &game, Some((false, 10)), "a1b1").0,
        Verdict::Pass
    );
    assert_eq!(
        judge(strict, &game, Some((false, 45)), "a1b1").0,
        Verdict::Fail
    );
}

#[test]
fn commands_are_split_like_a_shell_unless_they_name_a_file() {
    assert_eq!(
        command_words("'/opt/my engine/run' --uci").unwrap(),
        ["/opt/my engine/run", "--uci"]
    );
    assert_eq!(command_words("/bin/sh").unwrap(), ["/bin/sh"]);
    assert!(command_words("'unbalanced").is_err());
    assert!(command_words("  ").is_err());
}

#[test]
fn a_pair_passes_when_both_score_alike_and_fails_when_they_differ() {
    let pair: Vec<Scenario> = built_in()
        .into_iter()
        .filter(|s| s.id.starts_with("en-passant-no-capturer-second"))
        .collect();
    let judged = |by_moves: Option<bool>, by_fen: Option<bool>| {
        let mut outcomes: Vec<Outcome> = pair
            .iter()
            .map(|s| Outcome {
                engine: "e".into(),
                scenario: s.id.clone(),
                verdict: Verdict::NotApplicable,
                evidence: String::new(),
                bestmove: String::new(),
                pv_failure: None,
                pvs_checked: 0,
                scored_draw: if s.expect == "same" { by_moves } else { by_fen },
            })
            .collect();
        crate::judge::judge_pairs(&pair, &mut outcomes);
        outcomes
            .into_iter()
            .find(|o| o.scenario == "en-passant-no-capturer-second")
            .unwrap()
            .verdict
    };
    assert_eq!(pair.len(), 2);
    assert_eq!(judged(Some(true), Some(true)), Verdict::Pass);
    assert_eq!(judged(Some(false), Some(false)), Verdict::Pass);
    assert_eq!(judged(Some(false), Some(true)), Verdict::Fail);
    assert_eq!(judged(Some(true), None), Verdict::NotApplicable);
}
