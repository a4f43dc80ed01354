//! The audit in-process: the contract's fields, counterexamples that replay, determinism
//! across threads, the report it writes, and the detector-level agreement the issue asks for
//! over 10,000 seeded random games.

use crate::common;

use common::Scratch;

use replab_correctness::{
    DetectorNames, Recorded, Silent,
    audit::{self, Config, Results, TableSizes},
};
use replab_registry::{
    DETECTOR_NAMES, DETECTORS, Detector, RootRule, Sizing, TableLimit, TruthDetector, by_name, info,
};
use replab_report::ReportDir;
use replab_truth::kit;
use serde_json::Value;

/// Runs an audit of `config` (threads 2 unless set) and returns its results.
fn audit(config: Config) -> Results {
    audit::run(&config, &mut Silent).expect("the audit runs")
}

/// A small configuration: `games` games from `seed`.
fn small(games: u64, seed: u64) -> Config {
    Config {
        games,
        seed,
        threads: 2,
        command: format!("replab audit --games {games} --seed {seed}"),
        ..Config::default()
    }
}

/// The results as `results.json` holds them.
fn json(r: &Results) -> Value {
    serde_json::to_value(r).expect("results serialise")
}

fn count(v: &Value, detector: &str, field: &str) -> u64 {
    v["detectors"][detector][field]
        .as_u64()
        .unwrap_or_else(|| panic!("{detector}.{field} missing in {}", v["detectors"][detector]))
}

/// The FEN and SAN moves of a PGN: tags, comments, move numbers and the result dropped.
fn pgn_moves(pgn: &str) -> (String, Vec<String>) {
    let mut fen = None;
    let mut text = String::new();
    for line in pgn.lines() {
        if let Some(tag) = line.strip_prefix("[FEN \"") {
            fen = Some(tag.trim_end_matches("\"]").to_owned());
        } else if !line.starts_with('[') {
            text.push_str(line);
            text.push(' ');
        }
    }
    let mut moves = Vec::new();
    let mut in_comment = false;
    for token in text.split_whitespace() {
        if in_comment {
            in_comment = !token.ends_with('}');
            continue;
        }
        if token.starts_with('{') {
            in_comment = !token.ends_with('}');
            continue;
        }
        let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if san.is_empty() || san == "*" {
            continue;
        }
        moves.push(san.to_owned());
    }
    (fen.expect("PGN has a FEN tag"), moves)
}

/// Replays `moves` from `fen` with `name` and with truth by the truth kit's game replay;
/// returns the detector's and truth's answers at the last ply.
fn replay_last(name: &str, fen: &str, moves: &[String]) -> (bool, bool) {
    let mut det = by_name(name, RootRule::AnyEarlier).unwrap();
    let d = kit::replay(&mut det, fen, moves).expect("the detector replays");
    let t = kit::replay(&mut TruthDetector::new(), fen, moves).expect("truth replays");
    (*d.last().unwrap(), *t.last().unwrap())
}

/// The audited detectors that must agree with truth at every ply: the registry's rows that are
/// exact below their tables' capacity (no position lost to an index collision), which the audit's
/// games (200 plies at most) never exceed at the default sizes.
fn exact(v: &Value) -> Vec<&str> {
    let exact: Vec<&str> = v["detectors"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|n| info(n).is_some_and(|d| d.caps.exact_below_capacity()))
        .collect();
    assert!(exact.len() >= 5, "{exact:?}");
    exact
}

#[test]
fn small_audit_has_the_contract_and_replayable_counterexamples() {
    let mut progress = Recorded::default();
    let results = audit::run(&small(300, 5), &mut progress).unwrap();
    assert_eq!(progress.stages[0], ("audit".to_owned(), 300));
    assert_eq!(progress.done[0], 300, "one unit per game");
    assert_eq!(progress.stages[1].0, "shrink");
    assert_eq!(
        progress.done[1], progress.stages[1].1,
        "one unit per counterexample"
    );
    let v = json(&results);

    // Provenance and parameters.
    let meta = &v["meta"];
    assert_eq!(
        meta["command"], "replab audit --games 300 --seed 5",
        "the command recorded is the one given, as typed"
    );
    for field in ["command", "commit", "rustc", "cpu", "date", "machine"] {
        assert!(
            meta[field].as_str().is_some_and(|s| !s.is_empty()),
            "meta.{field}"
        );
    }
    assert_eq!(meta["seed"], 5);
    assert_eq!(meta["games"], 300);
    assert_eq!(meta["max_plies"], 200);
    assert_eq!(meta["tt_bits"], serde_json::json!([20, 12, 8, 4]));
    assert_eq!(meta["threads"], 2);
    // Each timed once: a single sample (n 1, coverage 0).
    for field in ["play_seconds", "shrink_seconds"] {
        assert!(meta[field]["value"].is_f64(), "meta.{field}");
        assert_eq!(meta[field]["interval"]["n"], 1, "meta.{field}");
        assert_eq!(meta[field]["interval"]["coverage"], 0.0, "meta.{field}");
    }
    assert_eq!(v["totals"]["games"], 300);
    for field in ["plies", "repetitions", "upcoming", "finished_games"] {
        assert!(v["totals"][field].is_u64(), "totals.{field}");
    }

    // Every detector but truth, with the contract's field names.
    let detectors = v["detectors"].as_object().unwrap();
    let mut names: Vec<&str> = detectors.keys().map(String::as_str).collect();
    names.sort_unstable();
    // The contract: `all` is every detector name but `truth`, the reference.
    let oracle = TruthDetector::new().name();
    let mut expected: Vec<&str> = DETECTOR_NAMES
        .iter()
        .copied()
        .filter(|n| *n != oracle)
        .collect();
    expected.sort_unstable();
    assert_eq!(names, expected);
    let plies = v["totals"]["plies"].as_u64().unwrap();
    for (name, d) in detectors {
        assert_eq!(d["detector"], name.as_str());
        assert!(d["size"].is_null(), "{name}.size");
        let upcoming_only = info(name).unwrap().caps.upcoming_only();
        let check = if upcoming_only { "upcoming" } else { "probe" };
        assert_eq!(d["check"], check, "{name}.check");
        let sum: u64 = [
            "true_positive",
            "false_positive",
            "false_negative",
            "true_negative",
        ]
        .iter()
        .map(|f| d[f].as_u64().unwrap_or_else(|| panic!("{name}.{f}")))
        .sum();
        assert_eq!(sum, plies, "{name}: one verdict per ply");
        for f in [
            "probes",
            "hits",
            "verified",
            "futile",
            "misses",
            "collisions",
            "overflows",
            "comparisons",
        ] {
            assert!(d["stats"][f].is_u64(), "{name}.stats.{f}");
        }
        for f in ["precision", "recall", "error_rate"] {
            assert!(d[f].is_f64() || d[f].is_null(), "{name}.{f}");
        }
        assert!(d["errors_after_miss_or_overflow"].is_u64());
        for kind in ["false_positive", "false_negative"] {
            let ex = &d["counterexamples"][kind];
            assert!(ex.is_null() || ex.is_object(), "{name}.{kind}");
            if d[kind].as_u64().unwrap() > 0 {
                for f in [
                    "plies",
                    "pgn",
                    "cause",
                    "fen_start",
                    "moves",
                    "uci",
                    "detail",
                    "game",
                    "found_plies",
                ] {
                    assert!(!ex[f].is_null(), "{name}.{kind}.{f}");
                }
            } else {
                assert!(ex.is_null(), "{name}.{kind}: no error, no counterexample");
            }
        }
        for c in d["causes"].as_array().unwrap() {
            for f in ["kind", "cause", "count", "example"] {
                assert!(c.get(f).is_some(), "{name}.causes[].{f}");
            }
        }
    }
    for name in exact(&v) {
        assert_eq!(count(&v, name, "false_positive"), 0, "{name}");
        assert_eq!(count(&v, name, "false_negative"), 0, "{name}");
        assert!(
            count(&v, name, "true_positive") > 0,
            "{name}: repetitions happen"
        );
    }

    // The table-size experiments: every configurable technique, labelled by size.
    let sizes = v["table_size"].as_object().unwrap();
    let techniques: Vec<&str> = sizes.keys().map(String::as_str).collect();
    let mut configurable: Vec<&str> = DETECTORS
        .iter()
        .filter(|d| d.caps.table_size)
        .map(|d| d.name)
        .collect();
    configurable.sort_unstable();
    assert_eq!(techniques, configurable);
    let config = small(300, 5);
    for d in DETECTORS.iter().filter(|d| d.caps.table_size) {
        let runs = v["table_size"][d.name].as_array().unwrap();
        let sizes = config.table_sizes(d.name);
        assert_eq!(runs.len(), sizes.len(), "{}", d.name);
        for (run, &value) in runs.iter().zip(sizes) {
            // Index bits are labelled `2^bits`, slot counts as they are.
            let (label, entries) = match d.caps.sizing.unwrap() {
                Sizing::Bits => (format!("{}/2^{value}", d.name), 1u64 << value),
                Sizing::Slots => (format!("{}/{value}", d.name), value),
            };
            assert_eq!(run["detector"], label.as_str());
            assert_eq!(run["size"], entries, "{label}");
            assert!(run.get("counterexamples").is_none(), "{label}");
        }
    }

    // Axon errs, and its counterexamples replay to a disagreement with truth.
    let axon = &v["detectors"]["axon"];
    assert!(count(&v, "axon", "false_positive") + count(&v, "axon", "false_negative") > 0);
    let mut replayed = 0;
    for (kind, expect) in [
        ("false_positive", (true, false)),
        ("false_negative", (false, true)),
    ] {
        let ex = &axon["counterexamples"][kind];
        if ex.is_null() {
            continue;
        }
        let pgn = ex["pgn"].as_str().unwrap();
        assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
        assert!(
            pgn.contains("axon"),
            "the comment names the detector: {pgn}"
        );
        let (fen, moves) = pgn_moves(pgn);
        assert_eq!(fen, ex["fen_start"].as_str().unwrap());
        assert_eq!(moves.len() as u64, ex["plies"].as_u64().unwrap(), "{pgn}");
        assert_eq!(replay_last("axon", &fen, &moves), expect, "{kind}: {pgn}");
        replayed += 1;
    }
    assert!(replayed > 0);

    // The results read back as they were written.
    let text = serde_json::to_string_pretty(&results).unwrap();
    let back: Results = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string_pretty(&back).unwrap(), text);
    assert_eq!(audit::text(&back), audit::text(&results));

    // The page: tables, the chart, the PGN, every section.
    let scratch = Scratch::new("small");
    let out = scratch.path("audit");
    let dir = ReportDir::create(&out).unwrap();
    audit::write(&results, &dir).unwrap();
    dir.commit().unwrap();
    let written = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert_eq!(written, text + "\n");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("class=\"sortable\""));
    assert!(html.contains("errors.svg") && html.contains("table-size.svg"));
    assert!(html.contains("<pre>[Event &quot;replab audit: axon"));
    assert!(html.contains("axon errs here"));
    for heading in [
        "Summary",
        "Agreement with truth",
        "Errors by cause",
        "Table size",
        "Counterexamples",
        "Start positions",
    ] {
        assert!(html.contains(heading), "{heading}");
    }
    assert!(out.join("errors.svg").is_file());
    assert!(out.join("table-size.svg").is_file());

    // The stdout table.
    let table = audit::text(&results);
    assert!(table.starts_with("replab audit: 300 games"), "{table}");
    assert!(table.contains("table size: filo"));
    assert!(table.contains("shortest counterexamples (shrunk):"));
}

/// The counts of a run, without the run's own metadata (date, timing, threads).
fn counts(r: &Results) -> Value {
    let mut v = json(r);
    v.as_object_mut().unwrap().remove("meta");
    v
}

#[test]
fn same_seed_same_counts_whatever_the_threads() {
    let one = audit(Config {
        threads: 1,
        ..small(300, 9)
    });
    let two = audit(small(300, 9));
    assert_eq!(counts(&one), counts(&two));
    let other = audit(small(300, 10));
    assert_ne!(
        counts(&one)["totals"],
        counts(&other)["totals"],
        "the seed matters"
    );
}

#[test]
fn bad_configurations_are_refused() {
    for config in [
        Config {
            games: 0,
            ..small(1, 1)
        },
        Config {
            detectors: DetectorNames(vec!["off".into()]),
            ..small(1, 1)
        },
        Config {
            tt_bits: TableSizes(vec![99]),
            ..small(1, 1)
        },
    ] {
        assert!(audit::run(&config, &mut Silent).is_err(), "{config:?}");
    }
}

/// Issue 3: every detector exact below its tables' capacity (linear, filo, rookie, the matrices
/// …) agrees with truth at every ply of 10,000 seeded random games; a table that collides
/// (tt-open) agrees when it is large (every error follows a miss), its miss counter is non-zero
/// and its error rate grows as it shrinks; cuckoo never reports a cycle that no legal reversible
/// move realises.
#[test]
fn ten_thousand_games_agreement() {
    let r = audit(Config {
        tt_bits: TableSizes(vec![20, 16, 12, 8, 4]),
        filo_slots: TableSizes(vec![1024, 16]),
        rookie_bits: TableSizes(vec![14, 8, 4]),
        ..small(10_000, 1)
    });
    let v = json(&r);
    assert_eq!(v["totals"]["games"], 10_000);
    let plies = v["totals"]["plies"].as_u64().unwrap();
    assert!(plies > 1_000_000, "{plies}");
    for name in exact(&v) {
        assert_eq!(count(&v, name, "false_positive"), 0, "{name}");
        assert_eq!(count(&v, name, "false_negative"), 0, "{name}");
    }

    // The upcoming-cycle rows (cuckoo): never a cycle that no legal move realises; in these
    // games they miss none either.
    for d in DETECTORS
        .iter()
        .filter(|d| d.caps.listed && d.caps.upcoming_only())
    {
        assert_eq!(count(&v, d.name, "false_positive"), 0, "{}", d.name);
        assert_eq!(count(&v, d.name, "false_negative"), 0, "{}", d.name);
        assert!(count(&v, d.name, "true_positive") > 0, "{}", d.name);
    }

    // The table-size runs, by what the registry says a fixed-size table can do to each.
    for d in DETECTORS.iter().filter(|d| d.caps.table_size) {
        let runs = v["table_size"][d.name].as_array().unwrap();
        assert!(runs.len() >= 2, "{}", d.name);
        for row in runs {
            let label = row["detector"].as_str().unwrap();
            assert_eq!(
                row["false_positive"], 0,
                "{label}: a table never invents one"
            );
        }
        match d.caps.table_limit {
            // Collisions at any fill: errors only after misses, more as the table shrinks, and
            // few at the largest size.
            TableLimit::Collides => {
                let mut last_rate = -1.0;
                for row in runs {
                    let label = row["detector"].as_str().unwrap();
                    assert!(
                        row["stats"]["misses"].as_u64().unwrap() > 0,
                        "{label}: misses"
                    );
                    assert_eq!(
                        row["false_negative"], row["errors_after_miss_or_overflow"],
                        "{label}: every error follows a miss"
                    );
                    let rate = row["error_rate"].as_f64().unwrap();
                    assert!(
                        rate > last_rate,
                        "{label}: error rate {rate} after {last_rate}"
                    );
                    last_rate = rate;
                }
                assert!(
                    runs[0]["error_rate"].as_f64().unwrap() < 1e-4,
                    "{}",
                    runs[0]
                );
            }
            // Nothing lost: exact at every size; futile back-traces grow as the table shrinks.
            TableLimit::None => {
                let mut last_futile = 0;
                for row in runs {
                    assert_eq!(row["false_negative"], 0, "{row}");
                    let futile = row["stats"]["futile"].as_u64().unwrap();
                    assert!(futile > last_futile, "{row}");
                    last_futile = futile;
                }
            }
            // A full table hides repetitions (misses); the largest holds these games.
            TableLimit::Fills => {
                assert_eq!(runs[0]["false_negative"], 0, "{}", runs[0]);
                let small = runs.last().unwrap();
                assert!(small["stats"]["misses"].as_u64().unwrap() > 0, "{small}");
                assert!(small["false_negative"].as_u64().unwrap() > 0, "{small}");
            }
        }
    }

    // axon: faithful, blind spots included.
    let causes: Vec<&str> = v["detectors"]["axon"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cause"].as_str().unwrap())
        .collect();
    for blind_spot in [
        "odd-length triangulation: the side to move differs",
        "castling right lost between identical arrangements",
        "en passant right differs",
        "same-kind pieces swapped squares",
    ] {
        assert!(causes.contains(&blind_spot), "{blind_spot} in {causes:?}");
    }
}
