//! The conformance battery on replab's own engine, in-process: detection `off` fails every
//! repetition scenario, the exact detector passes every scenario under every draw policy the
//! scenario holds it to, and the scenarios that exclude a policy are failed under it.

use replab_conformance::{self as conformance, Config, EngineCommand, Results, Verdict};
use replab_detect::DrawPolicy;
use replab_harness::Silent;

fn scenario_file() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(replab_workloads::datasets::CONFORMANCE)
}

/// replab's `off` and `linear` under every policy, on every scenario.
fn run_replab() -> Results {
    let config = Config {
        scenarios: Some(scenario_file()),
        all_detectors: false,
        ..Config::default()
    };
    let r = conformance::run(&config, &mut Silent).unwrap();
    print!("{}", conformance::summary_table(&r));
    r
}

#[test]
fn off_fails_every_repetition_scenario_and_linear_passes_under_every_policy() {
    let r = run_replab();
    let scenarios = conformance::load(&scenario_file()).unwrap();
    let judged = scenarios.iter().filter(|s| s.expect != "info").count();
    assert!(judged >= 40, "{judged} judged scenarios");
    let verdict = |e: &str, s: &str| r.outcome(e, s).unwrap().verdict;
    for s in &scenarios {
        assert!(s.rule.starts_with("FIDE Laws "), "{}: {}", s.id, s.rule);
        if s.repetition {
            assert_eq!(
                verdict("replab off (stockfish)", &s.id),
                Verdict::Fail,
                "detection off passes the repetition scenario {}",
                s.id
            );
        }
        // Rules replab's searcher does not implement (`outside_replab`) are not held against it.
        if !s.outside_replab.is_empty() {
            continue;
        }
        for p in DrawPolicy::ALL {
            let engine = format!("replab linear ({p})");
            let v = verdict(&engine, &s.id);
            if s.excluded_policies.iter().any(|x| x == p.name()) {
                continue;
            }
            assert_ne!(
                v,
                Verdict::Fail,
                "{engine} on {}: {:?}",
                s.id,
                r.outcome(&engine, &s.id)
            );
        }
    }
    assert!(scenarios.iter().filter(|s| s.repetition).count() >= 15);
    // A second occurrence is not a draw: the policy scoring every repetition as one fails, and
    // its answers show the policy, so each failure it explains is put down to it.
    assert_eq!(
        verdict("replab linear (twofold)", "second-occurrence-is-no-draw"),
        Verdict::Policy
    );
    for s in scenarios
        .iter()
        .filter(|s| s.excluded_policies.iter().any(|p| p == "twofold"))
    {
        assert_ne!(
            verdict("replab linear (twofold)", &s.id),
            Verdict::Fail,
            "{}",
            s.id
        );
    }
    // The exit status counts the exact detector's failures only where its policy is held.
    assert!(conformance::unexpected_failures(&r).is_empty());
    let headline = conformance::headline(&r);
    assert!(
        headline.contains("replab off (stockfish) fails"),
        "{headline}"
    );
    // The exact detector passes what each policy is held to, and the sentence counts it so.
    assert!(
        headline.contains("5 of 6 detector configurations pass every scenario they are held to"),
        "{headline}"
    );
    assert!(!headline.contains("()"), "{headline}");
    // The scenario file is the built-in one: named once.
    assert_eq!(r.file.matches("conformance.json").count(), 1, "{}", r.file);
}

/// Every detector runs under the policy its decision-table row plays (`replab uci`'s, as
/// `match` and `elo` play), or the first one it accepts where that one is refused.
#[test]
fn each_detector_runs_under_the_policy_of_its_row() {
    assert_eq!(replab_uci::DEFAULT_POLICY, DrawPolicy::Stockfish);
    for d in ["off", "tt-open", "tt-thompson", "rookie", "filo", "matrix"] {
        assert_eq!(conformance::replab_policy(d), DrawPolicy::Stockfish, "{d}");
    }
    assert_eq!(conformance::replab_policy("axon"), DrawPolicy::Twofold);
}

#[test]
fn an_engine_that_cannot_start_is_an_error_unless_skipped() {
    let mut config = Config {
        scenarios: Some(scenario_file()),
        engines: vec![EngineCommand(vec!["/nonexistent/engine".into()])],
        ..Config::default()
    };
    let err = conformance::run(&config, &mut Silent).unwrap_err();
    let text = format!("{err:#}");
    assert!(text.contains("/nonexistent/engine"), "{text}");
    assert!(text.contains("os error"), "{text}");
    config.skip_missing = true;
    let r = conformance::run(&config, &mut Silent).unwrap();
    assert_eq!(r.skipped.len(), 1);
    assert!(r.engines.is_empty());
    assert!(conformance::headline(&r).contains("Not run: /nonexistent/engine"));
}

#[test]
fn stockfish_if_installed_gets_a_verdict_on_every_scenario() {
    let Some(found) = conformance::locate("stockfish") else {
        eprintln!("skipped: stockfish is not installed (apt-get install stockfish)");
        return;
    };
    let config = Config {
        scenarios: Some(scenario_file()),
        engines: vec![EngineCommand(vec![found.display().to_string()])],
        ..Config::default()
    };
    let r = conformance::run(&config, &mut Silent).unwrap();
    print!("{}", conformance::terminal_summary(&r));
    assert_eq!(r.engines.len(), 1);
    assert!(!r.engines[0].id_name.is_empty());
    assert_eq!(r.results.len(), r.scenarios.len());
    // Every failure is listed with its position and rule.
    let summary = conformance::terminal_summary(&r);
    for o in conformance::unexpected_failures(&r) {
        assert!(summary.contains(&format!("FAIL {}: {} (", o.engine, o.scenario)));
    }
}

#[test]
fn engines_are_found_on_path_or_nowhere() {
    assert_eq!(conformance::locate("/nonexistent/engine"), None);
    assert_eq!(conformance::locate("replab-no-such-engine-anywhere"), None);
    // `sh` is on every PATH this test runs under; a path is taken as given.
    assert!(conformance::locate("sh").is_some());
    assert_eq!(
        conformance::locate("/bin/sh"),
        Some(std::path::PathBuf::from("/bin/sh"))
    );
}
