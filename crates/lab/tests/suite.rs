//! The suite experiment in-process: results per record and detector, exact detectors on
//! identical trees, history records, skipped records, the report files, and a JSON round trip.

use std::path::PathBuf;

use replab_detect::DrawPolicy;
use replab_lab::{Silent, suite};
use replab_report::ReportDir;
use serde_json::Value;

const EPD: &str = r#"R7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh8; id "WAC.018";
q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - bm Qh6+; id "figure-1";
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"; hmoves "g1f3 g8f6 f3g1 f6g8 g1f3"; id "shuffle";
"#;

/// A fresh directory for one test, removed when dropped.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let dir =
            std::env::temp_dir().join(format!("replab-lab-suite-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Temp(dir)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn runs_for_every_record_and_detector() {
    let tmp = Temp::new("ok");
    let epd = tmp.0.join("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let config = suite::Config {
        epd,
        depth: 4,
        ..suite::Config::default()
    };
    let results = suite::run(&config, &mut Silent).unwrap();
    // `off` and every search detector that serves the default policy.
    let configurations = suite::all_detectors(DrawPolicy::default()).len() + 1;
    assert_eq!(results.runs.len(), 3 * configurations);
    assert_eq!(results.aggregates.len(), configurations);
    assert_eq!(results.aggregates[0].detector, "off");
    assert!(results.skipped.is_empty());

    let out = tmp.0.join("report");
    let dir = ReportDir::create(&out).unwrap();
    suite::write(&results, &dir).unwrap();
    dir.commit().unwrap();
    let v: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3 * configurations);
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
        "solved",
    ] {
        assert!(runs[0].get(field).is_some(), "missing {field}");
    }
    // Exact detectors search identical trees.
    for id in ["WAC.018", "figure-1", "shuffle"] {
        let nodes = |d: &str| {
            runs.iter()
                .find(|r| r["id"] == id && r["detector"] == d)
                .unwrap()["nodes"]
                .as_u64()
                .unwrap()
        };
        for d in ["rookie", "matrix", "matrix-checksum"] {
            assert_eq!(nodes(d), nodes("linear"), "{id}: {d}");
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
    for svg in ["time.svg", "nodes.svg", "repetitions.svg"] {
        assert!(html.contains(svg) && out.join(svg).exists(), "{svg}");
    }
}

#[test]
fn filo_searches_the_tree_of_linear_where_it_serves_the_policy() {
    let tmp = Temp::new("filo");
    let epd = tmp.0.join("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let policy = DrawPolicy::Moreland;
    let config = suite::Config {
        epd,
        depth: 4,
        detectors: suite::parse_detectors("linear,filo", policy).unwrap(),
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
        assert_eq!(nodes("filo"), nodes("linear"), "{id}");
    }
    // Under twofold it is refused before anything is searched.
    let refused = suite::Config {
        policy: DrawPolicy::Twofold,
        ..config
    };
    let e = suite::run(&refused, &mut Silent).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("filo cannot be used with --policy twofold: "),
        "{e}"
    );
}

#[test]
fn results_round_trip_through_json() {
    let tmp = Temp::new("json");
    let epd = tmp.0.join("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let config = suite::Config {
        epd,
        depth: 2,
        nodes: Some(5000),
        detectors: suite::parse_detectors("linear,rookie", DrawPolicy::Stockfish).unwrap(),
        policy: suite::parse_policy("stockfish").unwrap(),
        limit: Some(2),
        ..suite::Config::default()
    };
    let results = suite::run(&config, &mut Silent).unwrap();
    assert_eq!(results.runs.len(), 2 * 3);
    assert_eq!(results.config.nodes, Some(5000));
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
        assert!(close(b.time_ms, r.time_ms));
    }
    for (b, r) in back.aggregates.iter().zip(&results.aggregates) {
        assert_eq!(
            (&b.detector, b.nodes, b.solved),
            (&r.detector, r.nodes, r.solved)
        );
        assert!(close(b.median_time_ms, r.median_time_ms));
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
    let tmp = Temp::new("bad");
    let epd = tmp.0.join("bad.epd");
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
    config.keep_going = true;
    let mut progress = replab_lab::Recorded::default();
    let results = suite::run(&config, &mut progress).unwrap();
    assert_eq!(results.skipped.len(), 2);
    assert!(
        results.skipped[1].contains("bad.epd:5:"),
        "{:?}",
        results.skipped
    );
    assert_eq!(results.runs.len(), 3 * 2);
    assert_eq!(progress.stages, [("suite".to_string(), 6)]);
    assert_eq!(progress.done, [6]);
}
