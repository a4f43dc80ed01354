//! Integration tests of the searcher: same trees for exact detectors, determinism, draws by
//! repetition, exact mate scores, the WAC.018 key move, the detector protocol and allocation
//! freedom.

use crate::common;

use common::{PERPETUAL, WAC018, config, pos, run, signature, uci};
use replab_board::Position;
use replab_detect::{Detector, DrawPolicy, Line, Off, Repetition, Stats};
use replab_registry::{DETECTORS, LinearDetector, RootRule, with_detector};
use replab_search::{MATE, SearchConfig, Searcher};
use replab_truth::kit::allocations;

// The counting allocator (per thread, so parallel tests do not disturb each other) is the
// test binary's own: tests/main.rs.

// ---- Helpers --------------------------------------------------------------------------------

/// Every row of the registry's table the searcher can use under the default draw policy (the
/// worked example included; rows the policy refuses, such as Gerbil's `filo` under `twofold`,
/// are left out: `replab_registry::check_policy`).
fn searchable() -> impl Iterator<Item = &'static str> + Clone {
    DETECTORS
        .iter()
        .filter(|d| {
            d.caps.searchable
                && replab_registry::check_policy(d.name, SearchConfig::default().policy).is_ok()
        })
        .map(|d| d.name)
}

// ---- Same tree for exact detectors ------------------------------------------------------------

#[test]
fn exact_detectors_grow_identical_trees() {
    for (fen, depth) in [(WAC018, 9), (PERPETUAL, 8)] {
        let reference = run("linear", fen, config(depth));
        assert_eq!(reference.iterations.len(), depth as usize);
        assert!(
            reference.totals().repetitions > 0,
            "{fen}: no repetition to compare"
        );
        // Exact probes, no upcoming-cycle pruning: the same answers under `twofold`.
        for name in searchable().filter(|n| {
            let caps = replab_registry::info(n).unwrap().caps;
            caps.exact && !caps.upcoming
        }) {
            let other = run(name, fen, config(depth));
            assert_eq!(
                signature(&other),
                signature(&reference),
                "{name} differs from linear on {fen}"
            );
        }
    }
}

#[test]
fn searches_are_deterministic() {
    for name in std::iter::once("off").chain(searchable()) {
        let a = run(name, WAC018, config(9));
        let b = run(name, WAC018, config(9));
        assert_eq!(signature(&a), signature(&b), "{name}");
    }
    // A searcher reused for a second search gives the same result as a fresh one.
    let mut s = Searcher::new(LinearDetector::new(), config(8));
    let first = s.search(&pos(PERPETUAL));
    let _ = s.search(&pos(WAC018));
    assert_eq!(signature(&s.search(&pos(PERPETUAL))), signature(&first));
}

#[test]
fn off_finds_no_repetitions() {
    let r = run("off", WAC018, config(8));
    let t = r.totals();
    assert_eq!((t.repetitions, t.probes, t.hits), (0, 0, 0));
    assert!(t.nodes > t.terminal_nodes && t.generated > 0);
}

// ---- Draws by repetition -------------------------------------------------------------------

#[test]
fn figure1_perpetual_is_a_draw_only_with_detection() {
    let off = run("off", PERPETUAL, config(7));
    assert!(
        off.score().unwrap().value() < -300,
        "off: {:?}",
        off.score()
    );
    for name in searchable() {
        let r = run(name, PERPETUAL, config(7));
        assert_eq!(r.score().unwrap().value(), 0, "{name}");
        assert_eq!(uci(r.best_move()), "c1h6", "{name}");
        assert!(r.totals().repetitions > 0, "{name}");
    }
}

#[test]
fn contempt_shifts_the_draw_score() {
    for contempt in [-25, 40] {
        let c = SearchConfig {
            contempt,
            ..config(7)
        };
        let r = run("linear", PERPETUAL, c);
        // The root side (white) scores a draw −contempt.
        assert_eq!(r.score().unwrap().value(), -contempt);
    }
}

#[test]
fn game_history_counts_for_repetitions() {
    // Start position, then Nf3 Nf6 Ng1 Ng8: the root is the start position again. With the
    // history, Nf3 leads to a position that already occurred: a draw under `twofold`.
    let start = Position::startpos();
    let mut positions = vec![start];
    let mut moves = Vec::new();
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        let p = *positions.last().unwrap();
        let m = p.parse_san(san).unwrap();
        moves.push(m);
        positions.push(p.play(m));
    }
    let mut s = Searcher::new(LinearDetector::new(), config(3));
    let with_history = s.search_game(&positions, &moves);
    let without = s.search(&start);
    assert!(with_history.totals().repetitions > 0);
    assert_eq!(without.totals().repetitions, 0);
    // Under `threefold` a single earlier occurrence is not enough at ply 1.
    let mut strict = Searcher::new(
        LinearDetector::new(),
        SearchConfig {
            policy: DrawPolicy::Threefold,
            ..config(1)
        },
    );
    assert_eq!(
        strict.search_game(&positions, &moves).totals().repetitions,
        0
    );
}

// ---- Search correctness ----------------------------------------------------------------------

#[test]
fn mates_are_found_with_exact_scores() {
    // Verified with Stockfish 15.1 (`score mate N`).
    let cases = [
        // Nf6+ gxf6 Bxf7#.
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            2,
            Some("d5f6"),
        ),
        // ...Rxg1+ Kxg1 Rf1#.
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            2,
            Some("g2g1"),
        ),
        // ...Bc5+ Kxc5 Qb6+ Kd5 Qd6#.
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
            None,
        ),
        // ...Qg6+ Kg4 Qf5+ Kh5 Qh3#.
        (
            "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",
            3,
            Some("b1g6"),
        ),
        ("8/8/8/8/8/5K2/7Q/5k2 w - - 0 1", 1, Some("h2h1")),
    ];
    for (fen, n, first) in cases {
        for null_move in [true, false] {
            let c = SearchConfig {
                null_move,
                ..config(2 * n + 2)
            };
            for name in ["off", "linear"] {
                let r = run(name, fen, c);
                let score = r.score().unwrap();
                assert_eq!(
                    score.mate_in(),
                    Some(n as i32),
                    "{fen} {name} null={null_move}"
                );
                assert_eq!(score.value(), MATE - (2 * n as i32 - 1), "{fen}");
                if let Some(first) = first {
                    assert_eq!(uci(r.best_move()), first, "{fen}");
                }
                assert_eq!(r.last().unwrap().pv.len(), 2 * n as usize - 1, "{fen}");
            }
        }
    }
}

#[test]
fn terminal_positions_at_the_root() {
    // Checkmated: no move, mated score; stalemated: no move, draw score.
    let mated = run("linear", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", config(3));
    assert_eq!(mated.best_move(), None);
    assert_eq!(mated.score().unwrap().value(), -MATE);
    let stalemate = run("linear", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", config(3));
    assert_eq!(stalemate.best_move(), None);
    assert_eq!(stalemate.score().unwrap().value(), 0);
}

#[test]
fn wac018_key_move_rh8() {
    let r = run("linear", WAC018, config(10));
    let found = r.iterations.iter().find(|it| uci(it.best_move) == "a8h8");
    let it = found.expect("Rh8 at some depth up to 10");
    assert!(it.depth <= 10);
    assert_eq!(uci(r.best_move()), "a8h8");
    assert!(r.score().unwrap().value() > 300, "white is winning");
}

#[test]
fn node_limit_stops_deterministically() {
    let c = SearchConfig {
        node_limit: Some(5_000),
        ..config(20)
    };
    let a = run("linear", WAC018, c);
    let b = run("linear", WAC018, c);
    assert!(!a.completed);
    assert!(!a.iterations.is_empty());
    assert!(a.totals().nodes <= 5_000);
    assert_eq!(signature(&a), signature(&b));
}

#[test]
fn configurations_without_table_or_null_move_still_find_rh8() {
    for (tt_bits, null_move) in [(None, true), (Some(16), false), (None, false)] {
        let c = SearchConfig {
            tt_bits,
            null_move,
            ..config(9)
        };
        let r = run("linear", WAC018, c);
        assert_eq!(
            uci(r.best_move()),
            "a8h8",
            "tt {tt_bits:?} null {null_move}"
        );
    }
}

// ---- The detector protocol ---------------------------------------------------------------------

/// Wraps a detector and asserts the searcher's calls follow the protocol.
struct ProtocolChecker {
    inner: LinearDetector,
    entered: Vec<u64>,
    root: usize,
    probes_at_root: u64,
    max_len: usize,
    capacity: usize,
}

impl Detector for ProtocolChecker {
    fn name(&self) -> &'static str {
        "checker"
    }
    fn clear(&mut self, capacity: usize) {
        self.inner.clear(capacity);
        self.entered.clear();
        self.capacity = capacity;
    }
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        assert_eq!(
            line.last().key,
            pos.key(),
            "probe: the position is the line's last"
        );
        assert_eq!(
            line.current_index(),
            self.entered.len(),
            "probe: every ancestor entered"
        );
        if line.current_index() <= line.root() {
            self.probes_at_root += 1;
        }
        self.inner.probe(line, pos)
    }
    fn enter(&mut self, line: &Line, pos: &Position) {
        assert_eq!(line.last().key, pos.key());
        assert_eq!(
            line.current_index(),
            self.entered.len(),
            "enter: once, in order"
        );
        self.entered.push(pos.key());
        self.max_len = self.max_len.max(line.len());
        self.root = line.root();
    }
    fn leave(&mut self, line: &Line, pos: &Position) {
        assert_eq!(
            self.entered.pop(),
            Some(pos.key()),
            "leave: last entered first"
        );
        assert_eq!(line.current_index(), self.entered.len());
    }
    fn stats(&self) -> Stats {
        self.inner.stats()
    }
    fn memory_bytes(&self) -> usize {
        0
    }
}

#[test]
fn detector_protocol_is_followed() {
    let checker = ProtocolChecker {
        inner: LinearDetector::new(),
        entered: Vec::new(),
        root: 0,
        probes_at_root: 0,
        max_len: 0,
        capacity: 0,
    };
    let mut s = Searcher::new(checker, config(9));
    let with = s.search(&pos(PERPETUAL));
    let d = s.detector();
    assert_eq!(d.entered.len(), 1, "only the root stays entered");
    assert_eq!(d.probes_at_root, 0, "the root is never probed");
    assert!(
        d.max_len <= d.capacity,
        "the line stays within its capacity"
    );
    // Same tree as the plain linear detector.
    let plain = run("linear", PERPETUAL, config(9));
    assert_eq!(signature(&with), signature(&plain));
}

// ---- No allocation per node --------------------------------------------------------------------

fn allocations_during<D: Detector>(detector: D, depth: u32) -> (u64, u64) {
    let mut s = Searcher::new(detector, config(depth));
    let p = pos(WAC018);
    let _ = s.search(&p); // sizes the line and the detector
    let before = allocations();
    let r = s.search(&p);
    let n = allocations() - before;
    (n, r.totals().nodes)
}

#[test]
fn search_allocates_nothing_per_node() {
    let (off5, nodes5) = allocations_during(Off, 5);
    let (off10, nodes10) = allocations_during(Off, 10);
    assert!(nodes10 > 20 * nodes5, "depth 10 searches far more nodes");
    // One result vector and one principal variation per iteration.
    assert!(off5 <= 1 + 5, "{off5} allocations at depth 5");
    assert!(off10 <= 1 + 10, "{off10} allocations at depth 10");
    for name in searchable() {
        let (n, _) =
            with_detector!(name, RootRule::Stockfish, |d| allocations_during(d, 8)).unwrap();
        assert!(n <= 1 + 8, "{name}: {n} allocations in a depth-8 search");
    }
    // The first search on a fresh searcher sizes the line and detector once: still bounded.
    let before = allocations();
    let r = Searcher::new(Off, config(6)).search(&pos(WAC018));
    assert!(
        allocations() - before < 20,
        "{} allocations",
        allocations() - before
    );
    assert!(r.totals().nodes > 1_000);
}
