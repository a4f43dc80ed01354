//! In-process tests of the key-width experiment on small runs.

use replab_registry::{KeyCompare, LinearDetector, info};
use replab_search::Searcher;
use replab_truth::kit::Scratch as Dir;

use super::*;
use crate::Silent;

fn small(games: u64, widths: &[u32]) -> Config {
    Config {
        games,
        widths: KeyWidths(widths.to_vec()),
        depth: 2,
        repetition_records: 3,
        wac_records: 1,
        threads: 2,
        command: "replab key-width (test)".into(),
        ..Config::default()
    }
}

#[test]
fn sixteen_bit_keys_make_false_positives_and_64_bit_keys_none_on_the_audit_games() {
    let config = small(250, &[16, 24, 64]);
    let (specs, tallies, totals, walk) = audit_part(&config, &mut Silent).unwrap();
    assert_eq!(totals.games, 250);
    let tally = |d: &str, bits: u32| {
        let i = specs
            .iter()
            .position(|s| *s == Spec::Keyed(info(d).unwrap(), bits))
            .unwrap();
        &tallies[i]
    };
    for d in detectors() {
        let d = d.name();
        let (narrow, full) = (tally(d, 16), tally(d, 64));
        assert!(narrow.confusion.fp > 0, "{d}: no false positive at 16 bits");
        assert!(narrow.games_with[0] > 0, "{d}");
        assert_eq!(full.confusion.fp, 0, "{d}: false positives at 64 bits");
        assert_eq!(full.games_with[0], 0, "{d}");
        // The linear scan compares the same keys at every width: truncation only adds matches.
        let compare = info(d).unwrap().caps.key_compare;
        if matches!(compare, KeyCompare::LineBack | KeyCompare::CuckooMoves) {
            assert_eq!(narrow.confusion.fn_, full.confusion.fn_, "{d}");
        }
    }
    // linear's tail, counted from the keys, is the detector's own count at every width run.
    for bits in [16, 24, 64] {
        let from_keys: u64 = walk.tail[(bits as usize).min(TAIL_BITS + 1)..].iter().sum();
        let want = tally("linear", bits).confusion.fp;
        if bits <= TAIL_BITS as u32 {
            assert_eq!(from_keys, want, "{bits} bits");
        }
    }
    // The line scans (linear, rookie) compare the same keys, so they make the same false
    // positives.
    for d in detectors()
        .iter()
        .filter(|d| d.caps().key_compare == KeyCompare::LineBack)
    {
        assert_eq!(
            tally(d.name(), 16).confusion,
            tally("linear", 16).confusion,
            "{d}"
        );
    }
    assert_eq!(
        walk.differences.len() as u64,
        tally("linear", 16).confusion.fp
    );
    let e = walk.expected[0][0];
    assert!(e.probes > 1.0 && e.compared > 1000.0, "{e:?}");
}

#[test]
fn the_64_bit_detectors_are_the_registry_defaults_judge_for_judge() {
    let mut specs = Vec::new();
    for d in detectors() {
        specs.push(Spec::named(d.name()).unwrap());
        specs.push(Spec::keyed(d.name(), 64).unwrap());
    }
    let mut judge = Judge::new(&specs);
    let starts = games::parse_starts();
    let (mut game, mut scratch) = (Game::default(), Scratch::default());
    let mut tallies = vec![Tally::default(); specs.len()];
    let mut totals = Totals::default();
    for i in 0..60 {
        games::play(3, i, 150, &starts, &mut game, &mut scratch);
        judge.judge(i, &game, &mut tallies, &mut totals);
    }
    for pair in tallies.chunks(2) {
        assert_eq!(pair[0].confusion, pair[1].confusion);
        assert_eq!(pair[0].stats, pair[1].stats);
    }
    assert!(totals.repetitions > 100);
}

#[test]
fn the_judged_searcher_searches_the_same_tree_at_64_bits() {
    let config = SearchConfig {
        max_depth: 5,
        policy: DrawPolicy::Stockfish,
        tt_bits: Some(16),
        ..SearchConfig::default()
    };
    let pos = Position::from_fen("R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1").unwrap();
    let plain = Searcher::new(LinearDetector::new(), config).search(&pos);
    let (judged, counts) = engine("linear", 64, config).unwrap().search(&[pos], &[]);
    assert_eq!(plain.signature(), judged.signature());
    assert_eq!(counts.probes, plain.totals().probes);
    assert_eq!(counts.false_repetitions + counts.missed_repetitions, 0);
    // Two-bit keys: nearly every compared key collides.
    let (_, counts) = engine("linear", 2, config).unwrap().search(&[pos], &[]);
    assert!(
        counts.false_repetitions > 0 && counts.false_draws > 0,
        "{counts:?}"
    );
    let (_, counts) = engine("linear+cuckoo", 2, config)
        .unwrap()
        .search(&[pos], &[]);
    assert!(
        counts.upcoming > 0 && counts.false_upcoming > 0,
        "{counts:?}"
    );
    assert!(engine("axon", 32, config).is_err());
}

#[test]
fn exact_intervals() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-4;
    let [lo, hi] = bound::clopper_pearson(0, 10);
    assert!(lo == 0.0 && close(hi, 0.308_5), "{hi}");
    let [lo, hi] = bound::clopper_pearson(5, 10);
    assert!(close(lo, 0.187_1) && close(hi, 0.812_9), "{lo} {hi}");
    let [lo, hi] = bound::clopper_pearson(10, 10);
    assert!(close(lo, 0.691_5) && hi == 1.0, "{lo}");
    // Large n, small k: about the exact Poisson interval [0.6187, 8.7673] / n.
    let n = 3_000_000;
    let [lo, hi] = bound::clopper_pearson(3, n);
    assert!(
        close(lo * n as f64, 0.618_7) && close(hi * n as f64, 8.767_3),
        "{} {}",
        lo * n as f64,
        hi * n as f64
    );
    assert_eq!(bound::clopper_pearson(0, 0), [0.0, 0.0]);
    assert!(close(bound::beta_inc(2.0, 3.0, 0.4), 0.524_8));
    // The key's whole bytes plus what the row stores beside it (none for the reference).
    assert_eq!(bound::bytes_per_entry(DetectorId::reference(), 32), 4);
    for row in replab_registry::DETECTORS
        .iter()
        .filter(|d| d.caps.key_width)
    {
        for (bits, key_bytes) in [(1, 1), (24, 3), (32, 4), (33, 5), (64, 8)] {
            let bytes = bound::bytes_per_entry(row.id, bits);
            assert_eq!(bytes, key_bytes + row.key_overhead, "{} {bits}", row.name);
        }
    }
}

#[test]
fn options_are_checked_by_name() {
    assert_eq!(*parse_widths("64, 16,32,16").unwrap(), [16, 32, 64]);
    assert_eq!(parse_widths("64,16").unwrap().to_string(), "16,64");
    // The range and the reference are the check's.
    let widths = |widths: Vec<u32>| Config {
        widths: KeyWidths(widths),
        ..Config::default()
    };
    let err = widths(vec![16, 32]).check().unwrap_err().to_string();
    assert!(err.starts_with("--bits must include 64"), "{err}");
    let err = widths(vec![0, 64]).check().unwrap_err().to_string();
    assert_eq!(err, "--bits 0 is out of range (1 to 64)");
    assert!(
        parse_widths("x")
            .unwrap_err()
            .contains("not a whole number")
    );
    assert!(Config::default().check().is_ok() && Config::quick().check().is_ok());
    let bad = |c: Config, option: &str| {
        let e = c.check().unwrap_err().to_string();
        assert!(e.contains(option), "{e}");
    };
    bad(
        Config {
            games: 0,
            ..Config::default()
        },
        "--games 0",
    );
    bad(
        Config {
            widths: KeyWidths(vec![16, 32]),
            ..Config::default()
        },
        "--bits must include 64",
    );
    bad(
        Config {
            depth: 0,
            ..Config::default()
        },
        "--depth 0",
    );
}

#[test]
fn a_small_run_writes_its_page_and_json() {
    let results = run(&small(40, &[16, 64]), &mut Silent).unwrap();
    assert_eq!(results.audit.len(), detectors().len() * 2);
    assert_eq!(results.search.len(), search_detectors().len() * 2);
    assert_eq!(results.linear_tail.len(), TAIL_BITS);
    assert_eq!(results.config.settings.repetition_records, 3);
    assert!(results.zarkov.is_none());
    let text = summary_table(&results);
    assert!(text.contains("linear") && text.contains("Search"));
    let scratch = Dir::new("key-width");
    let dir = ReportDir::create(scratch.path("report")).unwrap();
    write(&results, &dir).unwrap();
    let out = dir.commit().unwrap();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("birthday bound") && html.contains("fp-vs-bits.svg"));
    let json = std::fs::read_to_string(out.join("results.json")).unwrap();
    let back: Results = serde_json::from_str(&json).unwrap();
    assert_eq!(back.audit, results.audit);
}
