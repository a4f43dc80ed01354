//! In-process tests of `replab smp` at small depths.

use replab_board::Position;
use replab_detect::{Detector, Line, Off, Repetition, Stats};
use replab_registry::LinearDetector;
use replab_report::ReportDir;
use replab_search::{SearchConfig, Searcher, SharedTable};
use replab_truth::kit::Scratch;

use super::{checked::Checked, *};
use crate::Silent;

fn game(fen: &str, sans: &[&str], id: &str) -> Game {
    let (positions, moves) = replab_truth::kit::game(Position::from_fen(fen).unwrap(), sans);
    Game {
        id: id.into(),
        set: "test".into(),
        positions,
        moves,
    }
}

/// The paper's Figure 1 perpetual, after one round of checks (a history with a repetition
/// to come).
fn perpetual() -> Game {
    game(
        "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1",
        &["Qh6+", "Kg8", "Qg5+", "Kh8"],
        "perpetual",
    )
}

/// WAC.018 after rook shuffles.
fn rook_ending() -> Game {
    game(
        "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1",
        &["Kh1", "Ra3", "Kg1", "Ra2"],
        "wac018",
    )
}

fn config(depth: u32) -> SearchConfig {
    SearchConfig {
        max_depth: depth,
        tt_bits: Some(14),
        ..SearchConfig::default()
    }
}

fn det(seed: u64) -> Mode {
    Mode::Deterministic { seed, quantum: 4 }
}

#[test]
fn the_deterministic_scheduler_reproduces_its_counts() {
    let table = SharedTable::new(14);
    let g = perpetual();
    for v in [
        Variant::Linear,
        Variant::TtOpenShared,
        Variant::FiloShared,
        Variant::TtThompsonShared,
    ] {
        for t in [2, 4] {
            let a = run_group(v, &g, config(5), t, &table, det(3), true).unwrap();
            let b = run_group(v, &g, config(5), t, &table, det(3), true).unwrap();
            assert_eq!(
                a.fingerprint(),
                b.fingerprint(),
                "{} with {t} threads",
                v.name()
            );
            assert!(a.switches > 0 && a.switches == b.switches);
            assert_eq!(a.threads.len(), t);
            assert!(
                a.threads.iter().all(|th| th.nodes > 0),
                "every thread searched"
            );
            assert_eq!(a.depth, 5, "the main thread completes its depth");
        }
    }
    // Another seed interleaves differently: some count changes.
    let a = run_group(
        Variant::TtOpenShared,
        &g,
        config(5),
        2,
        &table,
        det(3),
        true,
    )
    .unwrap();
    let b = run_group(
        Variant::TtOpenShared,
        &g,
        config(5),
        2,
        &table,
        det(4),
        true,
    )
    .unwrap();
    assert_ne!(a.fingerprint(), b.fingerprint());
}

#[test]
fn a_shared_open_flag_table_finds_repetitions_that_truth_denies() {
    let table = SharedTable::new(14);
    for g in [perpetual(), rook_ending()] {
        let run = |v: Variant| run_group(v, &g, config(5), 2, &table, det(1), true).unwrap();
        let shared = run(Variant::TtOpenShared).audit();
        assert!(shared.probes > 1000);
        assert!(
            shared.false_repetitions > 0,
            "{}: two threads sharing tt-open's table: {shared:?}",
            g.id
        );
        for v in [Variant::TtOpenPerThread, Variant::Linear] {
            let a = run(v).audit();
            assert_eq!(a.false_repetitions, 0, "{} / {}: {a:?}", g.id, v.name());
            assert_eq!(a.missed_repetitions, 0, "{} / {}: {a:?}", g.id, v.name());
        }
        assert_eq!(run(Variant::FiloPerThread).audit().false_repetitions, 0);
        assert!(
            run(Variant::FiloShared).audit().false_repetitions > 0,
            "{}",
            g.id
        );
        // tt-thompson's marks name a line index that the probe checks against its own line:
        // another thread's mark can hide a repetition, never invent one.
        assert_eq!(run(Variant::TtThompsonShared).audit().false_repetitions, 0);
    }
}

#[test]
fn one_thread_on_shared_structures_searches_as_alone() {
    let table = SharedTable::new(14);
    let g = perpetual();
    let alone = Searcher::new(LinearDetector::new(), config(5)).search_game(&g.positions, &g.moves);
    for (shared, own) in [
        (Variant::TtOpenShared, Variant::TtOpenPerThread),
        (Variant::FiloShared, Variant::FiloPerThread),
        (Variant::TtThompsonShared, Variant::Linear),
    ] {
        let a = run_group(shared, &g, config(5), 1, &table, det(9), true).unwrap();
        let b = run_group(own, &g, config(5), 1, &table, Mode::Free, true).unwrap();
        assert_eq!(a.fingerprint().0, b.fingerprint().0, "{}", shared.name());
        assert_eq!(
            (a.best_move, a.score, a.threads[0].nodes, a.audit()),
            (b.best_move, b.score, b.threads[0].nodes, b.audit()),
            "{}",
            shared.name()
        );
    }
    let linear = run_group(Variant::Linear, &g, config(5), 1, &table, det(9), true).unwrap();
    assert_eq!(linear.best_move, alone.best_move());
    assert_eq!(Some(linear.score), alone.score().map(|s| s.value()));
    // Positions probed = nodes past the roots (one root per iteration).
    assert_eq!(linear.threads[0].nodes, alone.totals().nodes - 5);
}

/// A detector that calls every position a repetition.
struct Liar;

impl Detector for Liar {
    fn name(&self) -> &'static str {
        "liar"
    }
    fn clear(&mut self, _capacity: usize) {}
    fn probe(&mut self, _line: &Line, _pos: &Position) -> Option<Repetition> {
        Some(Repetition {
            distance: 4,
            earlier: 1,
        })
    }
    fn enter(&mut self, _line: &Line, _pos: &Position) {}
    fn leave(&mut self, _line: &Line, _pos: &Position) {}
    fn stats(&self) -> Stats {
        Stats::default()
    }
    fn memory_bytes(&self) -> usize {
        0
    }
}

#[test]
fn the_exact_check_counts_false_and_missed_repetitions() {
    let g = perpetual();
    let c = SearchConfig {
        max_depth: 4,
        ..config(4)
    };
    // Every answer of the liar at a non-repetition is false; the liar never misses.
    let mut s = Searcher::new(Checked::new(Liar, true, None), c);
    s.search_game(&g.positions, &g.moves);
    let a = s.detector().audit();
    assert!(a.false_repetitions > 0 && a.false_repetitions <= a.probes);
    assert_eq!(a.missed_repetitions, 0);
    // Detection off misses the perpetual's repetitions and reports nothing false.
    let mut s = Searcher::new(Checked::new(Off, true, None), c);
    s.search_game(&g.positions, &g.moves);
    let a = s.detector().audit();
    assert!(a.missed_repetitions > 0, "{a:?}");
    assert_eq!(a.false_repetitions, 0);
    assert_eq!(a.probes, s.detector().probed());
    // The exact detector agrees with the check everywhere.
    let mut s = Searcher::new(Checked::new(LinearDetector::new(), true, None), c);
    s.search_game(&g.positions, &g.moves);
    let a = s.detector().audit();
    assert_eq!((a.false_repetitions, a.missed_repetitions), (0, 0));
    assert!(a.probes > 100);
    // Unchecked: nothing counted, the probes still are.
    let mut s = Searcher::new(Checked::new(Liar, false, None), c);
    s.search_game(&g.positions, &g.moves);
    assert_eq!(s.detector().audit(), checked::Audit::default());
    assert!(s.detector().probed() > 0);
}

#[test]
fn bad_settings_are_refused_by_name() {
    let bad = |f: &dyn Fn(&mut Config), want: &str| {
        let mut c = Config::quick();
        f(&mut c);
        let e = c.check().unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    };
    bad(&|c| c.depth = 0, "--depth 0");
    bad(&|c| c.real_depth = 99, "--real-depth 99");
    bad(&|c| c.threads = vec![], "--threads needs");
    bad(&|c| c.threads = vec![2, 65], "--threads 65");
    bad(&|c| c.quantum = 0, "--quantum 0");
    bad(&|c| c.tt_bits = 40, "--tt-bits 40");
    bad(
        &|c| {
            c.repetition_records = 0;
            c.wac_records = 0;
        },
        "nothing to search",
    );
    assert_eq!(
        Config {
            threads: vec![4, 2, 4],
            ..Config::quick()
        }
        .thread_counts(),
        [1, 2, 4]
    );
}

#[test]
fn a_small_run_writes_its_report() {
    let config = Config {
        depth: 3,
        threads: vec![2],
        repetition_records: 2,
        wac_records: 1,
        quantum_check_positions: 1,
        reproducibility_positions: 1,
        tt_bits: 12,
        real_depth: 3,
        real_positions: 1,
        repeats: 1,
        workers: 2,
        command: "replab smp (test)".into(),
        ..Config::default()
    };
    let r = run(&config, &mut Silent).unwrap();
    assert_eq!(r.positions.len(), 3);
    assert_eq!(r.runs.len(), 3 * Variant::ALL.len() * 2);
    assert_eq!(r.aggregates.len(), Variant::ALL.len() * 2);
    assert_eq!(r.reproducibility.differing, 0);
    assert_eq!(r.reproducibility.groups, Variant::ALL.len());
    assert_eq!(r.quantum_check.len(), 3, "the shared variants at 2 threads");
    assert_eq!(r.real.len(), Variant::ALL.len() * 2);
    assert_eq!(r.config.real_position_ids, ["WAC.001"]);
    for a in r.aggregates.iter().filter(|a| a.threads == 1) {
        assert_eq!(
            (a.false_repetitions, a.best_move_changed),
            (0, 0),
            "{}",
            a.variant
        );
    }
    let linear = r
        .aggregates
        .iter()
        .find(|a| a.variant == "linear/per-thread" && a.threads == 2)
        .unwrap();
    assert_eq!(linear.false_repetitions, 0);
    assert!(!r.headline.is_empty());
    // The JSON round-trips and the page is written.
    let json = serde_json::to_string(&r).unwrap();
    let back: Results = serde_json::from_str(&json).unwrap();
    assert_eq!(back.runs, r.runs);
    let scratch = Scratch::new("smp-report");
    let dir = ReportDir::create(scratch.path("smp")).unwrap();
    write(&r, &dir).unwrap();
    let target = dir.commit().unwrap();
    let html = std::fs::read_to_string(target.join("index.html")).unwrap();
    assert!(html.contains(TITLE));
    assert!(target.join("results.json").exists());
    assert!(summary_table(&r).contains("tt-open/shared"));
}

#[test]
fn variant_names_are_the_detector_and_its_sharing() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let sharing = if v.shared() { "shared" } else { "per-thread" };
        assert_eq!(v.name(), format!("{}/{sharing}", v.detector().name()));
        assert_eq!(Variant::from_name(v.name()), Some(v));
        assert!(Variant::ALL[..i].iter().all(|o| o.name() != v.name()));
    }
    assert_eq!(Variant::FiloShared.name(), "filo-all-history/shared");
    assert_eq!(Variant::from_name("filo-all-history"), None);
}
