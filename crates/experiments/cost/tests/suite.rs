//! The suite experiment in-process: results per record and detector, exact detectors on
//! identical trees, history records, skipped records, the report files, and a JSON round trip.

use replab_cost::{Silent, experiment::Configuration, suite};
use replab_detect::DrawPolicy;
use replab_registry::{DETECTORS, DetectorId};
use replab_report::ReportDir;
use replab_truth::kit::Scratch;
use serde_json::Value;

const EPD: &str = r#"R7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh8; id "WAC.018";
q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - bm Qh6+; id "figure-1";
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"; hmoves "g1f3 g8f6 f3g1 f6g8 g1f3"; id "shuffle";
"#;

/// The settings of a 4-ply run searching `detectors` in `repeats` rounds, as recorded.
fn setup(detectors: &[DetectorId], repeats: usize) -> suite::Setup {
    suite::Setup {
        settings: suite::Config {
            epd: "x.epd".into(),
            depth: 4,
            detectors: detectors.iter().map(|d| d.name().to_owned()).collect(),
            repeats,
            ..suite::Config::default()
        },
        contempt: 0,
        null_move: true,
        tt_bits: Some(20),
    }
}

/// The first two search detectors that serve `policy`, as a `--detectors` list.
fn first_two(policy: DrawPolicy) -> String {
    suite::all_detectors(policy)[..2].join(",")
}

#[test]
fn runs_for_every_record_and_detector() {
    let tmp = Scratch::new("suite-ok");
    let epd = tmp.path("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let config = suite::Config {
        epd,
        depth: 4,
        repeats: 3,
        ..suite::Config::default()
    };
    let results = suite::run(&config, &mut Silent).unwrap();
    // `off` and every search detector that serves the default policy.
    let configurations = suite::all_detectors(DrawPolicy::default()).len() + 1;
    assert_eq!(results.runs.len(), 3 * configurations);
    assert_eq!(results.aggregates.len(), configurations);
    assert_eq!(results.aggregates[0].detector, "off");
    assert!(results.skipped.is_empty());

    let out = tmp.path("report");
    let dir = ReportDir::create(&out).unwrap();
    suite::write(&results, &dir).unwrap();
    dir.commit().unwrap();
    let v: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3 * configurations);
    let unmarked = replab_cost::interval::unmarked_times(&v, &["config", "meta"]);
    assert_eq!(unmarked, Vec::<String>::new());
    for field in [
        "id",
        "detector",
        "policy",
        "depth",
        "best_move",
        "eval_cp",
        "nodes",
        "terminal_nodes",
        "generated",
        "repetitions",
        "time_ms",
        "time_ms_samples",
        "solved",
    ] {
        assert!(runs[0].get(field).is_some(), "missing {field}");
    }
    // Every search timed three times, the median with its interval.
    assert_eq!(v["config"]["repeats"], 3);
    for r in &results.runs {
        assert_eq!((r.time_ms.interval.n, r.time_ms_samples.len()), (3, 3));
        let mut sorted = r.time_ms_samples.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(r.time_ms.value, sorted[1]);
        assert_eq!(r.time_ms.interval.ends(), [sorted[0], sorted[2]]);
    }
    for a in &results.aggregates {
        let of: Vec<&suite::SuiteRun> = results
            .runs
            .iter()
            .filter(|r| r.detector == a.detector)
            .collect();
        let sum: f64 = of.iter().map(|r| r.time_ms.value).sum();
        assert!((a.time_ms.value - sum).abs() < 1e-9, "{}", a.detector);
        let rounds = &a.round_time_ms_samples;
        assert_eq!((a.time_ms.interval.n, rounds.len()), (3, 3));
        for (k, round) in rounds.iter().enumerate() {
            let total: f64 = of.iter().map(|r| r.time_ms_samples[k]).sum();
            assert!((round - total).abs() < 1e-9);
        }
        assert!(a.time_ms.interval.contains(a.time_ms.value));
        let vs_off = a.time_vs_off.unwrap();
        assert!(vs_off.interval.contains(vs_off.value), "{}", a.detector);
        assert!((a.time_ms.interval.coverage - 0.75).abs() < 1e-9);
    }
    let off_vs_off = results.aggregates[0].time_vs_off.unwrap();
    assert_eq!(off_vs_off.interval.ends(), [0.0, 0.0]);
    let agg = &v["aggregates"][1];
    for field in ["time_ms", "round_time_ms_samples", "time_vs_off"] {
        assert!(agg.get(field).is_some(), "missing aggregate {field}");
    }
    // Exact detectors (no position lost to a collision, no upcoming-cycle answers) search
    // the reference's trees.
    let exact: Vec<DetectorId> = results
        .aggregates
        .iter()
        .map(|a| a.detector)
        .filter(|d| d.caps().exact_below_capacity() && !d.caps().upcoming)
        .collect();
    let reference = DetectorId::reference();
    assert!(exact.len() >= 4 && exact.contains(&reference), "{exact:?}");
    for id in ["WAC.018", "figure-1", "shuffle"] {
        let nodes = |d: DetectorId| {
            runs.iter()
                .find(|r| r["id"] == id && r["detector"] == d.name())
                .unwrap()["nodes"]
                .as_u64()
                .unwrap()
        };
        for &d in &exact {
            assert_eq!(nodes(d), nodes(reference), "{id}: {d}");
        }
    }
    let shuffle_off = runs
        .iter()
        .find(|r| r["id"] == "shuffle" && r["detector"] == "off")
        .unwrap();
    assert_eq!(shuffle_off["history_plies"], 5);
    assert_eq!(shuffle_off["solved"], Value::Null);
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("<title>Suite s.epd"), "title");
    assert!(html.contains("Every search ran 3 times, interleaved"));
    assert!(html.contains("Search time against off (3 interleaved rounds"));
    assert!(html.contains("<th>time vs off interval</th>"));
    for svg in ["time.svg", "nodes.svg", "repetitions.svg"] {
        assert!(html.contains(svg) && out.join(svg).exists(), "{svg}");
    }
}

#[test]
fn rows_dropping_single_history_search_the_reference_tree_where_they_serve_the_policy() {
    let tmp = Scratch::new("suite-filo");
    let epd = tmp.path("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let reference = DetectorId::reference();
    // Gerbil's rule (`filo`): refused where single history occurrences decide, exact elsewhere.
    let droppers: Vec<&str> = DETECTORS
        .iter()
        .filter(|d| d.caps.listed && d.caps.searchable && d.caps.drops_single_history)
        .map(|d| d.name)
        .collect();
    assert!(!droppers.is_empty(), "a row with Gerbil's rule");
    for row in droppers {
        let policy = DrawPolicy::Moreland;
        let config = suite::Config {
            epd: epd.clone(),
            depth: 4,
            detectors: suite::parse_detectors(&format!("{reference},{row}"), policy).unwrap(),
            policy,
            ..suite::Config::default()
        };
        let results = suite::run(&config, &mut Silent).unwrap();
        for id in ["WAC.018", "figure-1", "shuffle"] {
            let nodes = |d: &str| {
                results
                    .runs
                    .iter()
                    .find(|r| r.id == id && r.detector == d)
                    .unwrap()
                    .counters
                    .nodes
            };
            assert_eq!(nodes(row), nodes(reference.name()), "{id}: {row}");
        }
        // Under twofold it is refused before anything is searched.
        let refused = suite::Config {
            policy: DrawPolicy::Twofold,
            ..config
        };
        let e = suite::run(&refused, &mut Silent).unwrap_err();
        let expected = format!("{row} cannot be used with --policy twofold: ");
        assert!(e.to_string().starts_with(&expected), "{e}");
    }
}

#[test]
fn results_round_trip_through_json() {
    let tmp = Scratch::new("suite-json");
    let epd = tmp.path("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let config = suite::Config {
        epd,
        depth: 2,
        nodes: Some(5000),
        detectors: suite::parse_detectors(&first_two(DrawPolicy::Stockfish), DrawPolicy::Stockfish)
            .unwrap(),
        policy: DrawPolicy::Stockfish,
        limit: Some(2),
        ..suite::Config::default()
    };
    let results = suite::run(&config, &mut Silent).unwrap();
    assert_eq!(results.runs.len(), 2 * 3);
    assert_eq!(results.config.settings.nodes, Some(5000));
    // The detectors as searched: `off` first, then the list given.
    let given = first_two(DrawPolicy::Stockfish);
    assert_eq!(
        results.config.settings.detectors.join(","),
        format!("off,{given}")
    );
    assert!(results.runs.iter().all(|r| r.policy == "stockfish"));
    let json = serde_json::to_string_pretty(&results).unwrap();
    let back: suite::SuiteResults = serde_json::from_str(&json).unwrap();
    // serde_json may read a float back one unit in the last place off: times are compared
    // loosely, everything else exactly.
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(1.0);
    assert_eq!(back.meta, results.meta);
    assert_eq!(back.skipped, results.skipped);
    assert_eq!(back.runs.len(), results.runs.len());
    for (b, r) in back.runs.iter().zip(&results.runs) {
        assert_eq!(
            (
                &b.id,
                &b.detector,
                &b.best_move,
                b.eval_cp,
                b.counters,
                b.solved
            ),
            (
                &r.id,
                &r.detector,
                &r.best_move,
                r.eval_cp,
                r.counters,
                r.solved
            )
        );
        assert!(close(b.time_ms.value, r.time_ms.value));
    }
    for (b, r) in back.aggregates.iter().zip(&results.aggregates) {
        assert_eq!(
            (&b.detector, b.nodes, b.solved),
            (&r.detector, r.nodes, r.solved)
        );
        assert!(close(b.median_time_ms.value, r.median_time_ms.value));
    }
    // The counters sit among the run's own fields, in the contract's order.
    let first_run = &json[json.find("\"runs\": [").unwrap()..];
    let at = |key: &str| first_run.find(&format!("\"{key}\":")).unwrap();
    let keys = [
        "id",
        "line",
        "detector",
        "policy",
        "depth",
        "best_move",
        "eval_cp",
        "nodes",
        "terminal_nodes",
        "generated",
        "repetitions",
        "probes",
        "hits",
        "time_ms",
        "solved",
        "history_plies",
    ];
    for pair in keys.windows(2) {
        assert!(at(pair[0]) < at(pair[1]), "{pair:?}");
    }
}

#[test]
fn bad_records_are_skipped_or_fail() {
    let tmp = Scratch::new("suite-bad");
    let epd = tmp.path("bad.epd");
    std::fs::write(
        &epd,
        format!(
            "{EPD}8/8/8/8/8/8/8/8 w - - id \"no kings\";\nR7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh9;\n"
        ),
    )
    .unwrap();
    let mut config = suite::Config {
        epd,
        depth: 2,
        detectors: suite::parse_detectors("linear", DrawPolicy::Twofold).unwrap(),
        ..suite::Config::default()
    };
    let e = suite::run(&config, &mut Silent).unwrap_err().to_string();
    assert!(e.contains("bad.epd:4:") && e.contains("no king"), "{e}");
    // A file that cannot be read is named by its option and by what it is.
    let missing = suite::Config {
        epd: tmp.path("missing.epd"),
        ..config.clone()
    };
    let e = format!("{:#}", suite::run(&missing, &mut Silent).unwrap_err());
    let path = missing.epd.display();
    assert!(
        e.starts_with(&format!("--epd {path}: cannot read the EPD file {path}: ")),
        "{e}"
    );
    config.keep_going = true;
    let mut progress = replab_cost::Recorded::default();
    let results = suite::run(&config, &mut progress).unwrap();
    assert_eq!(results.skipped.len(), 2);
    assert!(
        results.skipped[1].contains("bad.epd:5:"),
        "{:?}",
        results.skipped
    );
    assert_eq!(results.runs.len(), 3 * 2);
    // One unit per timed search: 3 records × 2 configurations × 6 rounds.
    assert_eq!(progress.stages, [("suite".to_string(), 36)]);
    assert_eq!(progress.done, [36]);
}

/// A run with made-up times, for the aggregate's arithmetic: the rounds `samples` twice over
/// (six rounds from three, enough for a 95% interval).
fn fake_run(id: &str, detector: &str, samples: &[f64]) -> suite::SuiteRun {
    let twice: Vec<f64> = samples.iter().chain(samples).copied().collect();
    fake_run_once(id, detector, &twice)
}

/// A run with made-up times, exactly these rounds.
fn fake_run_once(id: &str, detector: &str, samples: &[f64]) -> suite::SuiteRun {
    let e = replab_cost::stats::median_ci(samples);
    suite::SuiteRun {
        id: id.into(),
        line: 1,
        detector: detector.parse().expect("a detector of the registry"),
        policy: "twofold".into(),
        depth: 4,
        best_move: Some("a8h8".into()),
        eval_cp: 0,
        counters: replab_search::Counters::default(),
        time_ms: e,
        time_ms_samples: samples.to_vec(),
        solved: None,
        history_plies: 0,
    }
}

#[test]
fn times_against_off_use_paired_rounds_and_overlap_means_no_difference() {
    // Round 2 is a slow spell of the machine for everyone: paired ratios cancel it. Three
    // detectors of the registry play a slow, an unchanged and a fast one.
    let [slow_d, same_d, fast_d] = [0, 1, 2].map(|i| DETECTORS[i].name);
    let runs = vec![
        fake_run("a", "off", &[10.0, 20.0, 10.0]),
        fake_run("b", "off", &[10.0, 20.0, 10.0]),
        fake_run("a", slow_d, &[12.0, 24.0, 12.0]),
        fake_run("b", slow_d, &[12.0, 24.0, 12.0]),
        fake_run("a", same_d, &[10.5, 19.0, 9.6]),
        fake_run("b", same_d, &[9.8, 21.0, 10.1]),
        fake_run("a", fast_d, &[5.0, 10.0, 5.0]),
        fake_run("b", fast_d, &[5.0, 10.0, 5.0]),
    ];
    let detectors: Vec<DetectorId> = ["off", slow_d, same_d, fast_d]
        .map(|d| d.parse().unwrap())
        .to_vec();
    let aggs = suite::aggregate(&runs, &detectors);
    let by = |d: &str| aggs.iter().find(|a| a.detector == d).unwrap();
    let off = by("off");
    assert_eq!(
        off.round_time_ms_samples,
        [20.0, 40.0, 20.0, 20.0, 40.0, 20.0]
    );
    assert_eq!(off.time_ms.value, 20.0);
    assert_eq!(off.time_ms.interval.ends(), [20.0, 40.0]);
    assert_eq!(off.time_differs_from_off(), None);
    let slow = by(slow_d);
    let slow_vs_off = slow.time_vs_off.unwrap();
    assert!((slow_vs_off.value - 0.2).abs() < 1e-9);
    let [lo, hi] = slow_vs_off.interval.ends();
    assert!((lo - 0.2).abs() < 1e-9 && (hi - 0.2).abs() < 1e-9);
    assert_eq!(slow.time_differs_from_off(), Some(true));
    // The unpaired intervals overlap (24–48 ms against 20–40 ms); the paired ratios do not.
    assert!(slow.time_ms.overlaps(&off.time_ms));
    let same = by(same_d);
    let [lo, hi] = same.time_vs_off.unwrap().interval.ends();
    assert!(lo < 0.0 && hi > 0.0, "{lo} {hi}");
    assert_eq!(same.time_differs_from_off(), Some(false));
    assert_eq!(by(fast_d).time_differs_from_off(), Some(true));
    // The point is the sum of per-record medians, the interval widened to contain it.
    let odd = suite::aggregate(
        &[
            fake_run("a", "off", &[0.0, 5.0, 5.0]),
            fake_run("b", "off", &[5.0, 0.0, 5.0]),
            fake_run("c", "off", &[5.0, 5.0, 0.0]),
        ],
        &[DetectorId::Off],
    );
    assert_eq!(odd[0].time_ms.value, 15.0);
    assert_eq!(odd[0].round_time_ms_samples, [10.0; 6]);
    assert_eq!(odd[0].time_ms.interval.ends(), [10.0, 15.0]);

    let mut results = suite::SuiteResults {
        meta: replab_report::Meta::collect("replab suite"),
        epd: "x.epd".into(),
        config: setup(&detectors, 6),
        skipped: Vec::new(),
        aggregates: aggs,
        runs,
    };
    let sentence = suite::time_sentence(&results);
    assert!(
        sentence.contains(&format!(
            "measurably slower than off: {slow_d} (+20.0% [+20.0%, +20.0%])"
        )) && sentence.contains(&format!("measurably faster than off: {fast_d} (−50.0%"))
            && sentence.contains(&format!("no measurable difference from off: {same_d}.")),
        "{sentence}"
    );
    let table = suite::summary_table(&results);
    assert!(table.contains(&sentence), "{table}");
    let tmp = Scratch::new("suite-page");
    let dir = ReportDir::create(tmp.path("report")).unwrap();
    results.aggregates = suite::aggregate(&results.runs, &detectors);
    suite::write(&results, &dir).unwrap();
    let html = std::fs::read_to_string(dir.staging().join("index.html")).unwrap();
    assert!(html.contains(&format!("no measurable difference from off: {same_d}")));
    // An interval containing no change, or ±50% wide, is too noisy to rank.
    assert!(html.contains("<td>too noisy to rank (±"), "{html}");
    assert!(
        html.contains("<td>too noisy to rank (±50%)</td>"),
        "off total time interval 20–40 ms"
    );
    // Six rounds reach 96.9%: the page states no shortfall of coverage.
    assert!(!html.contains("covers the true median with probability"));
}

#[test]
fn too_few_rounds_say_so_instead_of_ranking() {
    // One round (`suite --repeats 1`): a 0% interval; three rounds: 75%. Neither decides.
    for rounds in [1, 3] {
        // A searchable detector of the table, one name at a time.
        let fast = DETECTORS.iter().find(|d| d.caps.searchable).unwrap().name;
        let runs: Vec<suite::SuiteRun> = [("off", 10.0), (fast, 5.0)]
            .iter()
            .map(|(d, t)| fake_run_once("a", d, &vec![*t; rounds]))
            .collect();
        let detectors: Vec<DetectorId> = [DetectorId::Off, fast.parse().unwrap()].to_vec();
        let aggs = suite::aggregate(&runs, &detectors);
        assert_eq!(aggs[1].time_differs_from_off(), None, "{rounds} rounds");
        let results = suite::SuiteResults {
            meta: replab_report::Meta::collect("replab suite"),
            epd: "x.epd".into(),
            config: setup(&detectors, rounds),
            skipped: Vec::new(),
            aggregates: aggs,
            runs,
        };
        let sentence = suite::time_sentence(&results);
        assert!(sentence.contains("too few repeats to decide"), "{sentence}");
        assert!(!sentence.contains("measurably"), "{sentence}");
    }
}

#[test]
fn the_worker_count_changes_neither_the_counts_nor_their_order() {
    let tmp = Scratch::new("suite-threads");
    let epd = tmp.path("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let with = |threads: usize| {
        let config = suite::Config {
            epd: epd.clone(),
            depth: 4,
            repeats: 1,
            threads,
            detectors: first_two(DrawPolicy::default())
                .split(',')
                .map(String::from)
                .collect(),
            ..suite::Config::default()
        };
        let results = suite::run(&config, &mut Silent).unwrap();
        results
            .runs
            .iter()
            .map(|r| (r.id.clone(), r.detector, r.best_move.clone(), r.counters))
            .collect::<Vec<_>>()
    };
    let one = with(1);
    // Three records, `off` and the two detectors.
    assert_eq!(one.len(), 3 * 3);
    assert_eq!(one, with(2));
    assert_eq!(one, with(3));
    let bad = suite::Config {
        epd,
        threads: 0,
        ..suite::Config::default()
    };
    assert_eq!(
        bad.check().unwrap_err().to_string(),
        "--threads 0 is out of range (1 to 256)"
    );
}
