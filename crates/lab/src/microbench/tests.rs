//! The micro-benchmark's summary, JSON and page, in-process: made-up times over the real
//! scenario lists (fast), and one very short real run.

use std::{collections::BTreeSet, time::Duration};

use replab_detect::Stats;
use replab_registry::DETECTORS;
use replab_report::ReportDir;
use serde_json::Value;

use super::{
    Config, Results, TITLE,
    measure::{Budget, CycleResult, Measurements, WalkResult},
    run,
    scenarios::{
        self, CYCLE_DETECTORS, HISTORY_LENGTHS, OFF, RUN_LENGTHS, Scenario, history_scenarios,
        run_scenarios,
    },
    summarise,
    walk::WalkTally,
    write,
};
use crate::Recorded;

/// Measurements with made-up times over the real scenario lists (no timing).
fn fake() -> Measurements {
    let cycle = |sc: &Scenario, i: usize, name: &'static str| CycleResult {
        detector: name,
        history: sc.history,
        run: sc.run,
        hit: sc.hit,
        ns: 2.0 + i as f64 + sc.run as f64 * if name == "linear" { 0.5 } else { 2.0 },
        ratio: (2.0 + i as f64) / 20.0,
    };
    let cycles = |scs: Vec<Scenario>| {
        scs.iter()
            .flat_map(|sc| {
                CYCLE_DETECTORS
                    .iter()
                    .enumerate()
                    .map(move |(i, n)| cycle(sc, i, n))
            })
            .collect::<Vec<_>>()
    };
    let walk = |name: &'static str, entries: usize| WalkResult {
        detector: name,
        entries,
        memory_bytes: entries * 16,
        ns_per_node: 10.0 + entries as f64 / 1000.0,
        ratio: 0.5,
        tally: WalkTally {
            nodes: 3000,
            enters: 2900,
            repetitions: 100,
            found: 99,
            missed: 1,
            false_reports: 0,
        },
        stats: Stats {
            probes: 3000,
            futile: 30,
            misses: 29,
            collisions: 58,
            ..Stats::default()
        },
    };
    Measurements {
        budget: Budget {
            reps: 3,
            batch: Duration::from_millis(1),
        },
        make_ns: 20.0,
        make_samples: vec![19.0, 20.0, 21.0],
        runs: cycles(run_scenarios()),
        histories: cycles(history_scenarios()),
        walk: CYCLE_DETECTORS.iter().map(|n| walk(n, 0)).collect(),
        tables: scenarios::TT_OPEN_BITS
            .iter()
            .map(|b| walk("tt-open", 1 << b))
            .chain(scenarios::FILO_SLOTS.iter().map(|&s| walk("filo", s)))
            .chain(
                scenarios::ROOKIE_BITS
                    .iter()
                    .map(|b| walk("rookie", 1 << b)),
            )
            .collect(),
        walk_nodes: 3000,
        seconds: 1.0,
    }
}

/// A fixed `meta`, so pages compare equal.
fn meta() -> replab_report::Meta {
    replab_report::Meta {
        command: "replab bench --quick".into(),
        commit: "abc1234".into(),
        date: "2026-01-01T00:00:00Z".into(),
        rustc: "rustc".into(),
        cpu: "cpu".into(),
        machine: "machine".into(),
    }
}

/// A scratch directory for one test, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("replab-microbench-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether two JSON values are equal, numbers up to rounding (serde_json's float parser is not
/// always correctly rounded).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// The keys of a JSON object.
fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn summary_json_has_every_detector_and_run_length() {
    let summary = summarise(&fake(), true);
    let json: Value = serde_json::to_value(&summary).unwrap();
    // Every listed row of the registry's table, and the baseline.
    let names = DETECTORS
        .iter()
        .filter(|d| d.caps.listed)
        .map(|d| d.name)
        .chain([OFF]);
    for name in names {
        for run in RUN_LENGTHS {
            let found = json["runs"].as_array().unwrap().iter().any(|c| {
                c["detector"] == name && c["run"] == run && c["ns"].as_f64().unwrap() > 0.0
            });
            assert!(found, "{name} run {run}");
        }
        for h in HISTORY_LENGTHS {
            assert!(
                json["histories"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["detector"] == name && c["history"] == h),
                "{name} history {h}"
            );
        }
    }
    assert_eq!(
        json["hits"].as_array().unwrap().len(),
        6 * CYCLE_DETECTORS.len()
    );
    assert_eq!(json["tables"].as_array().unwrap().len(), 7 + 7 + 9);
    assert!((json["runs"][0]["ratio"].as_f64().unwrap() - 2.0 / 20.0).abs() < 1e-9);
    // linear costs 3 + 0.5 × run, everything else more (tt-open 4 + 2 × run): linear wins
    // everywhere, alone (tt-open is 33% dearer at run 0).
    assert!(summary.cheapest.iter().all(|c| c.detector == "linear"));
    assert!(
        summary
            .cheapest_sentence
            .contains("— 0–100 plies: linear ("),
        "{}",
        summary.cheapest_sentence
    );
    assert_eq!(summary.cheapest[0].tied, ["linear"]);
}

#[test]
fn write_makes_results_page_and_charts() {
    let results = Results {
        meta: meta(),
        summary: summarise(&fake(), false),
    };
    let scratch = Scratch::new("write");
    let dir = ReportDir::create(&scratch.0).unwrap();
    write(&results, &dir).unwrap();
    for f in [
        "results.json",
        "index.html",
        "microbench-run.svg",
        "microbench-run-ratio.svg",
        "microbench-run-hit.svg",
        "microbench-history.svg",
        "microbench-tables-cost.svg",
        "microbench-tables-rates.svg",
    ] {
        assert!(dir.staging().join(f).is_file(), "{f}");
    }
    let json: Value =
        serde_json::from_slice(&std::fs::read(dir.staging().join("results.json")).unwrap())
            .unwrap();
    assert_eq!(keys(&json), BTreeSet::from(["meta", "summary"]));
    let back: Results = serde_json::from_value(json.clone()).unwrap();
    assert!(same_json(&serde_json::to_value(&back).unwrap(), &json));
    assert!(same_json(&serde_json::to_value(&results).unwrap(), &json));
    let html = std::fs::read_to_string(dir.staging().join("index.html")).unwrap();
    assert!(html.contains(TITLE));
    assert!(html.contains("class=\"sortable\""));
    assert!(html.contains("microbench-run.svg"));
    assert!(html.contains("../index.html"));
    for heading in [
        "Summary",
        "Cost per node by reversible run",
        "Cost of a repetition hit",
        "Cost per node by game-history length",
        "Search-like walk",
        "Table size: cost, false hits and misses",
        "Method",
    ] {
        assert!(html.contains(&format!(">{heading}</h2>")), "{heading}");
    }
    // The headline is escaped text; the tables and figures are markup.
    assert!(html.contains("— 0–100 plies: linear ("));
    assert!(!html.contains("&lt;table"));
    assert!(!html.contains("This was a --quick run"));
    dir.commit().unwrap();
}

#[test]
fn a_short_real_run_has_the_results_structure() {
    let config = Config {
        rounds: 1,
        batch: Duration::from_micros(20),
        ..Config::quick()
    };
    let mut progress = Recorded::default();
    let results = run(&config, &mut progress).unwrap();
    assert_eq!(results.meta.command, "replab bench --quick");
    assert_eq!(progress.stages.len(), 1);
    assert_eq!(progress.done[0], progress.stages[0].1);
    let json = serde_json::to_value(&results).unwrap();
    let s = &json["summary"];
    assert_eq!(
        keys(s),
        BTreeSet::from([
            "batch_ms",
            "cheapest",
            "cheapest_sentence",
            "detectors",
            "hits",
            "histories",
            "history_lengths",
            "history_run",
            "make_unmake_ns",
            "make_unmake_samples_ns",
            "quick",
            "reps",
            "run_history",
            "run_lengths",
            "runs",
            "seconds",
            "tables",
            "walk",
            "walk_nodes",
            "walk_shape",
        ])
    );
    let cycle_keys = BTreeSet::from(["detector", "history", "run", "hit", "ns", "ratio"]);
    for c in ["runs", "hits", "histories"] {
        assert!(
            s[c].as_array()
                .unwrap()
                .iter()
                .all(|x| keys(x) == cycle_keys)
        );
    }
    let walk_keys = BTreeSet::from([
        "detector",
        "entries",
        "memory_bytes",
        "ns_per_node",
        "ratio",
        "nodes",
        "enters",
        "repetitions",
        "found",
        "missed",
        "false_reports",
        "collisions",
        "misses",
        "futile",
        "probes",
        "collision_rate",
        "miss_rate",
        "false_hit_rate",
    ]);
    for w in ["walk", "tables"] {
        assert!(
            s[w].as_array()
                .unwrap()
                .iter()
                .all(|x| keys(x) == walk_keys)
        );
    }
    let cheapest_keys = BTreeSet::from(["run", "detector", "ns", "ratio", "tied"]);
    let cheapest = s["cheapest"].as_array().unwrap();
    assert_eq!(cheapest.len(), RUN_LENGTHS.len());
    assert!(cheapest.iter().all(|x| keys(x) == cheapest_keys));
    assert_eq!(s["quick"], true);
    assert_eq!(s["reps"], 1);
    assert_eq!(
        s["detectors"],
        serde_json::to_value(CYCLE_DETECTORS).unwrap()
    );
    // It reads back, and a page can be written from it.
    let back: Results = serde_json::from_value(json.clone()).unwrap();
    assert!(same_json(&serde_json::to_value(&back).unwrap(), &json));
    let scratch = Scratch::new("real");
    let dir = ReportDir::create(&scratch.0).unwrap();
    write(&results, &dir).unwrap();
}
