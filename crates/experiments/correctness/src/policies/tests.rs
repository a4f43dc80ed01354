//! In-process tests of the policies experiment at small depths.

use super::*;
use crate::Silent;

fn small() -> Config {
    Config {
        repetition_depth: 3,
        wac_depth: 2,
        wac_records: 4,
        repeats: 2,
        threads: 2,
        command: "replab policies (test)".into(),
    }
}

#[test]
fn settings_are_checked() {
    assert!(Config::default().check().is_ok());
    assert!(Config::quick().check().is_ok());
    for (bad, option) in [
        (
            Config {
                repetition_depth: 0,
                ..small()
            },
            "--repetition-depth 0",
        ),
        (
            Config {
                wac_depth: MAX_DEPTH + 1,
                ..small()
            },
            "--wac-depth 13",
        ),
        (
            Config {
                repeats: 0,
                ..small()
            },
            "--repeats 0",
        ),
        (
            Config {
                wac_records: 301,
                ..small()
            },
            "--wac-records 301",
        ),
    ] {
        let e = bad.check().unwrap_err().to_string();
        assert!(e.starts_with(option), "{e}");
    }
}

#[test]
fn every_configuration_is_searched_and_counts_repeat() {
    let configs = configurations();
    assert_eq!(
        policies(),
        [
            DrawPolicy::Stockfish,
            DrawPolicy::Twofold,
            DrawPolicy::Moreland,
            DrawPolicy::Threefold
        ]
    );
    assert_eq!(configs.len(), 8);
    let a = run(&small(), &mut Silent).unwrap();
    let b = run(
        &Config {
            threads: 1,
            repeats: 1,
            ..small()
        },
        &mut Silent,
    )
    .unwrap();
    assert_eq!(a.sets.len(), 2);
    assert_eq!(a.presets.len(), PRESETS.len());
    // Every measured time carries an interval (two rounds) or is marked a single sample.
    for results in [&a, &b] {
        let v = serde_json::to_value(results).unwrap();
        let unmarked = crate::interval::unmarked_times(&v, &["config", "meta"]);
        assert_eq!(unmarked, Vec::<String>::new());
    }
    assert_eq!(b.sets[0].runs[0].time_ms.interval.n, 1);
    assert_eq!(
        cases_pass(&a).0,
        cases_pass(&a).1,
        "every scripted case passes"
    );
    for (sa, sb) in a.sets.iter().zip(&b.sets) {
        assert_eq!(sa.runs.len(), sa.records * configs.len());
        assert_eq!(sa.totals.len(), configs.len());
        let counts = |s: &SetResults| {
            s.runs
                .iter()
                .map(|r| (r.nodes, r.score_cp, r.best_move.clone(), r.repetitions))
                .collect::<Vec<_>>()
        };
        assert_eq!(counts(sa), counts(sb), "{}: counts repeat", sa.set);
        let reference = sa
            .totals
            .iter()
            .find(|t| (t.policy, t.detector) == reference())
            .unwrap();
        assert_eq!(
            (
                reference.score_differs,
                reference.best_move_differs,
                reference.nodes_change
            ),
            (0, 0, 0.0)
        );
    }
    // The repetition suite has perpetual checks: twofold scores more repetitions than
    // threefold, and some root score changes.
    let rep = &a.sets[0];
    let reps = |p: DrawPolicy| {
        rep.totals
            .iter()
            .find(|t| t.policy == p && t.detector == reference().1)
            .unwrap()
            .repetitions
    };
    assert!(reps(DrawPolicy::Twofold) > reps(DrawPolicy::Threefold));
    assert!(summary_table(&a).contains("Policy cases:"));
    let json = serde_json::to_string(&a).unwrap();
    let back: Results = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
    let scratch = replab_truth::kit::Scratch::new("policies-page");
    let dir = ReportDir::create(scratch.path("policies")).unwrap();
    write(&a, &dir).unwrap();
    let out = dir.commit().unwrap();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for want in [
        "TerjeKir/weiss",
        "LeelaChessZero/lc0",
        "repetition-score.svg",
        "root-repeat",
    ] {
        assert!(html.contains(want), "{want}");
    }
}
