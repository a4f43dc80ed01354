//! Bring your own detector (docs/bring-your-own-detector.md): the worked example, `naive`,
//! is one crate and one row of the registry's table, and with nothing else it runs through
//! the audit and a suite, where it agrees with the exact oracle and grows the reference's
//! (`linear`'s) trees.

use replab_correctness::{DetectorNames, Silent, audit};
use replab_cost::suite;
use replab_detect::DrawPolicy;
use replab_harness::experiment::Configuration as _;
use replab_registry::{DetectorId, SEARCH_DETECTORS, check_policy, info};
use replab_truth::kit::Scratch;

/// The worked example of the docs.
const EXAMPLE: &str = "naive";

/// The detector the example is compared with: the registry's reference.
fn reference() -> &'static str {
    DetectorId::reference().name()
}
use replab_report::ReportDir;

#[test]
fn the_example_is_one_table_row_outside_the_all_lists() {
    let row = info(EXAMPLE).expect("the example is a row of the registry's table");
    assert_eq!(row.crate_name, "replab-naive");
    assert!(row.caps.exact && row.caps.counts_occurrences && row.caps.searchable);
    assert!(!row.caps.listed, "worked examples stay out of `all`");
    assert!(!SEARCH_DETECTORS.contains(&EXAMPLE));
    for policy in DrawPolicy::ALL {
        assert!(check_policy(EXAMPLE, policy).is_ok(), "{policy}");
    }
}

#[test]
fn the_example_runs_through_the_audit() {
    let config = audit::Config {
        games: 300,
        detectors: DetectorNames(vec![EXAMPLE.into(), reference().into()]),
        threads: 2,
        ..audit::Config::default()
    };
    let results = audit::run(&config, &mut Silent).unwrap();
    let naive = results.detectors.get(EXAMPLE).expect("the example audited");
    assert!(naive.true_positive > 0, "the games contain repetitions");
    assert_eq!(naive.false_positive, 0);
    assert_eq!(naive.false_negative, 0);
    let linear = results.detectors.get(reference()).unwrap();
    assert_eq!(naive.true_positive, linear.true_positive);
    // And its page is written like any other's.
    let scratch = Scratch::new("byod-audit");
    let dir = ReportDir::create(scratch.path("audit")).unwrap();
    audit::write(&results, &dir).unwrap();
    let out = dir.commit().unwrap();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains(EXAMPLE));
}

#[test]
fn the_example_runs_through_a_suite() {
    let scratch = Scratch::new("byod-suite");
    let epd = scratch.path("s.epd");
    std::fs::write(
        &epd,
        "R7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh8; id \"WAC.018\";\n\
         q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - bm Qh6+; id \"figure-1\";\n",
    )
    .unwrap();
    for policy in DrawPolicy::ALL {
        let config = suite::Config {
            epd: epd.clone(),
            depth: 5,
            detectors: suite::parse_detectors(&format!("{EXAMPLE},{}", reference()), policy)
                .unwrap(),
            policy,
            ..suite::Config::default()
        };
        config.check().unwrap();
        let results = suite::run(&config, &mut Silent).unwrap();
        let of = |d: &str| {
            results
                .runs
                .iter()
                .filter(|r| r.detector == d)
                .map(|r| (r.id.clone(), r.counters, r.best_move.clone(), r.eval_cp))
                .collect::<Vec<_>>()
        };
        assert_eq!(of(EXAMPLE).len(), 2);
        assert_eq!(of(EXAMPLE), of(reference()), "same trees under {policy}");
    }
}
