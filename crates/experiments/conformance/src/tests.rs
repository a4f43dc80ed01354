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
fn a_bestmove_that_is_no_legal_move_is_a_protocol_failure_named_by_its_kind() {
    let s = built_in()
        .into_iter()
        .find(|s| s.id == "fifty-move-fen-clock")
        .unwrap();
    let game = Game::replay(&s.fen, &s.moves).unwrap();
    assert_eq!(game.bad_bestmove("a1b1"), None);
    for (best, kind) in [
        ("0000", "a null move"),
        ("(none)", "a null move"),
        ("", "a null move"),
        ("a1a1", "a null move"),
        ("e2e4x", "a malformed move"),
        ("h8g8", "a move of the side not to move"),
        ("a1a3", "an illegal move"),
    ] {
        let why = game.bad_bestmove(best).unwrap_or_default();
        assert!(why.contains(kind), "{best}: {why}");
    }
    // The rule is judged from the score alone after a move that is none: a draw score passes
    // here, and a scenario that names the move to play fails on another legal move only.
    assert_eq!(judge(&s, &game, Some((false, 0)), "a1a1").0, Verdict::Pass);
    let named = built_in()
        .into_iter()
        .find(|s| s.id == "root-occurred-three-times")
        .unwrap();
    let game = Game::replay(&named.fen, &named.moves).unwrap();
    let draw = Some((false, 0));
    assert_eq!(judge(&named, &game, draw, "a1a1").0, Verdict::Pass);
    assert_eq!(judge(&named, &game, draw, "c8d8").0, Verdict::Pass);
    assert_eq!(judge(&named, &game, draw, "c8b7").0, Verdict::Fail);
    // Where no legal move exists, any answer is accepted.
    let mate = Game::replay("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "").unwrap();
    assert_eq!(mate.bad_bestmove("0000"), None);
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
                verdict: Verdict::NotApplicable,
                scored_draw: if s.expect == "same" { by_moves } else { by_fen },
                ..Outcome::unanswered("e", &s.id)
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

/// Every built-in scenario answered right by one engine, except `wrong`: failed, with the
/// draw score it gave and the move it played (`Some(true)`: a draw score and another move than
/// the one required; `Some(false)`: no draw score and the required move, or none).
fn answers(wrong: &[(&str, Option<bool>)]) -> (Vec<Scenario>, Vec<Outcome>) {
    let scenarios = built_in();
    let outcomes = scenarios
        .iter()
        .map(|s| match wrong.iter().find(|(id, _)| *id == s.id) {
            Some(&(_, drawn)) => Outcome {
                scored_draw: drawn,
                bestmove: match (drawn, s.bestmove.first()) {
                    (Some(true), _) => "a1a2".into(),
                    (_, Some(m)) => m.clone(),
                    _ => String::new(),
                },
                ..Outcome::unanswered("e", &s.id)
            },
            None => Outcome {
                verdict: Verdict::Pass,
                ..Outcome::unanswered("e", &s.id)
            },
        })
        .collect();
    (scenarios, outcomes)
}

#[test]
fn failures_a_twofold_policy_explains_are_put_down_to_it_only_when_the_engine_shows_it() {
    let verdict = |wrong: &[(&str, Option<bool>)], id: &str| {
        let (scenarios, mut outcomes) = answers(wrong);
        crate::judge::judge_policy(&scenarios, &mut outcomes);
        outcomes
            .into_iter()
            .find(|o| o.scenario == id)
            .unwrap()
            .verdict
    };
    let ep = "en-passant-false-only";
    // The second occurrence avoided shows the policy: both failures are the policy's.
    let twofold = [(TWOFOLD_PROBE, Some(true)), (ep, Some(true))];
    assert_eq!(verdict(&twofold, ep), Verdict::Policy);
    assert_eq!(verdict(&twofold, TWOFOLD_PROBE), Verdict::Policy);
    // The probe failed with the required move played (a score wrong): no policy shown.
    let no_draw = [(TWOFOLD_PROBE, Some(false)), (ep, Some(true))];
    assert_eq!(verdict(&no_draw, ep), Verdict::Fail);
    // The probe passed: the en-passant failure is an identity bug.
    assert_eq!(verdict(&[(ep, Some(true))], ep), Verdict::Fail);
    // A failure on a scenario that holds twofold engines to the Laws stays a rule failure.
    let held = "en-passant-no-capturer";
    let (scenarios, _) = answers(&[]);
    let s = scenarios.iter().find(|s| s.id == held).unwrap();
    assert!(s.excluded_policies.is_empty());
    let with_held = [(TWOFOLD_PROBE, Some(true)), (held, Some(true))];
    assert_eq!(verdict(&with_held, held), Verdict::Fail);
}

/// One external engine `e` with a rule failure, a policy difference, a protocol failure and a
/// wrong first answer put right deeper (each present unless switched off).
fn mixed(rule: bool, policy: bool, protocol: bool, deeper: bool) -> Results {
    let ep = "en-passant-false-only";
    let mut wrong = vec![(TWOFOLD_PROBE, Some(true)), (ep, Some(true))];
    if rule {
        wrong.push(("fivefold", Some(false)));
    }
    let (scenarios, mut outcomes) = answers(&wrong);
    if policy {
        crate::judge::judge_policy(&scenarios, &mut outcomes);
    }
    let root = |o: &Outcome| o.scenario == "root-occurred-three-times";
    for o in outcomes.iter_mut().filter(|o| root(o)) {
        if protocol {
            o.protocol = Some("bestmove \"a1a1\" is a null move where legal moves exist".into());
        }
        if deeper {
            o.deeper = Some(DeeperAnswer {
                first_go: "go depth 6".into(),
                first_verdict: Verdict::Fail,
                first_evidence: "score cp 300".into(),
                go: "go depth 10".into(),
            });
        }
    }
    Results {
        meta: replab_report::Meta::collect(""),
        file: "built-in".into(),
        engines: vec![EngineRecord {
            name: "e".into(),
            id_name: "E 1".into(),
            command: "e".into(),
            external: true,
            package: String::new(),
        }],
        skipped: Vec::new(),
        scenarios: scenarios.iter().map(ScenarioRecord::from).collect(),
        results: outcomes,
        expected_failures: Vec::new(),
        mutations: Vec::new(),
        fail_on_policy: false,
        delivery: Delivery::default(),
    }
}

#[test]
fn summary_junit_and_page_tell_rule_policy_and_protocol_failures_apart() {
    let r = mixed(true, true, true, true);
    let summary = terminal_summary(&r);
    let xml = junit(&r);
    assert!(summary.contains("FAIL e: fivefold"), "{summary}");
    assert!(
        summary
            .contains("by policy (twofold) e: second-occurrence-is-no-draw, en-passant-false-only"),
        "{summary}"
    );
    assert!(
        summary.contains(
            "PROTOCOL e: a bestmove that is no legal move in 1 scenario: root-occurred-three-times"
        ),
        "{summary}"
    );
    assert!(summary.contains("right only deeper"), "{summary}");
    assert!(
        summary.contains(
            "at go depth 6: score cp 300; asked again, of a fresh process, at go depth 10"
        ),
        "{summary}"
    );
    assert!(xml.contains("<failure type=\"answer\""), "{xml}");
    assert!(
        xml.contains("<skipped message=\"by policy (twofold)"),
        "{xml}"
    );
    assert!(xml.contains("<failure type=\"protocol\""), "{xml}");
    assert_eq!(unexpected_failures(&r).len(), 1);
    assert_eq!(protocol_failures(&r).len(), 1);
    let page = headline(&r);
    assert!(
        page.contains(
            "e fails 1 (fivefold), 2 by policy (twofold), a protocol failure (1 scenarios)"
        ),
        "{page}"
    );

    let html = crate::page::failure_list(&r);
    let section = |title: &str| {
        let start = html.find(&format!("<h3>{title}")).unwrap();
        let rest = &html[start + 4..];
        rest[..rest.find("<h3>").unwrap_or(rest.len())].to_string()
    };
    assert!(
        html.starts_with("<ul><li><strong>e</strong> on <code>fivefold</code>"),
        "{html}"
    );
    assert!(
        section("Protocol failures").contains("root-occurred-three-times"),
        "{html}"
    );
    assert!(
        section("By policy (twofold)")
            .contains("second-occurrence-is-no-draw, en-passant-false-only"),
        "{html}"
    );
    assert!(
        section("Right only deeper").contains("<code>root-occurred-three-times</code>"),
        "{html}"
    );

    // Each kind flips on its own.
    let none = mixed(false, true, false, false);
    let html = crate::page::failure_list(&none);
    assert!(
        html.contains("Protocol failures</h3>") && html.contains("<p>None.</p>"),
        "{html}"
    );
    assert!(
        !html.contains("<li><strong>e</strong> on <code>fivefold"),
        "{html}"
    );
    assert!(unexpected_failures(&none).is_empty());
    assert!(protocol_failures(&none).is_empty());
    assert!(!junit(&none).contains("<failure"), "{}", junit(&none));
    assert!(!terminal_summary(&none).contains("PROTOCOL"));
    assert!(!terminal_summary(&none).contains("right only deeper"));
    // Without the policy read from the probe, the same answers are rule failures.
    let unexplained = mixed(false, false, false, false);
    assert_eq!(unexpected_failures(&unexplained).len(), 2);
    assert!(!terminal_summary(&unexplained).contains("by policy (twofold) e:"));
    // An author can fail the run on policy differences.
    let strict = Results {
        fail_on_policy: true,
        ..mixed(false, true, false, false)
    };
    assert_eq!(unexpected_failures(&strict).len(), 2);
    assert!(junit(&strict).contains("<failure type=\"policy\""));
    assert!(terminal_summary(&strict).contains("FAIL-POLICY e: second-occurrence-is-no-draw"));
}
