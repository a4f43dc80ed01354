//! The conformance battery on replab's own engine, in-process: `linear` passes every scenario
//! its rules fix, and `axon` fails where its blind spots lie.

use replab_lab::{
    Silent,
    conformance::{self, Config, Verdict},
};

#[test]
fn linear_passes_and_axon_is_caught() {
    let config = Config {
        scenarios: concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../datasets/conformance.json"
        )
        .into(),
        engines: vec![vec!["/nonexistent/engine".into()]],
        ..Config::default()
    };
    let r = conformance::run(&config, &mut Silent).unwrap();
    print!("{}", conformance::summary_table(&r));
    assert!(r.scenarios.len() >= 12);
    assert_eq!(r.skipped.len(), 1);
    let verdict = |e: &str, s: &str| r.outcome(e, s).unwrap().verdict;
    for s in &r.scenarios {
        // filo runs under moreland (refused under twofold): it must have started.
        let filo = r.outcome("replab filo (moreland)", &s.id).unwrap();
        assert!(!filo.evidence.contains("did not start"), "{filo:?}");
        let v = verdict("replab linear (twofold)", &s.id);
        assert_ne!(
            v,
            Verdict::Fail,
            "linear on {}: {:?}",
            s.id,
            r.outcome("replab linear (twofold)", &s.id)
        );
    }
    for s in [
        "castling-false-repetition",
        "en-passant-false-repetition",
        "threefold-odd-cycle",
    ] {
        assert_eq!(
            verdict("replab axon (twofold)", s),
            Verdict::Fail,
            "axon on {s}"
        );
    }
    assert!(r.engines.iter().all(|e| e.id_name.starts_with("replab ")));
    // The landing page's summary names the passing and the failing configurations.
    let headline = conformance::headline(&r);
    let (passing, failing) = headline.split_once(';').expect("some configurations fail");
    assert!(passing.contains("linear (twofold)"), "{headline}");
    assert!(!passing.contains("axon"), "{headline}");
    assert!(
        failing.contains("replab axon (twofold) fails"),
        "{headline}"
    );
    assert!(
        headline.contains("Not run: /nonexistent/engine"),
        "{headline}"
    );
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
