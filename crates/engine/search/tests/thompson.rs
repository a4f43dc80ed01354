//! `tt-thompson` keeps its open flags in the searcher's own transposition table: it grows the
//! same trees as `linear` (with game histories, under every draw policy), and the searcher
//! refuses it without a table. The matrix variants are checked on the same searches.

use replab_board::{Move, Position};
use replab_detect::{Detector, DrawPolicy};
use replab_registry::{DETECTORS, LinearDetector, MatrixDetector, RootRule, with_detector};
use replab_search::{
    IterationSignature, SearchConfig, SearchResult, Searcher, SetupError, check_setup,
};
use replab_tt_thompson::ThompsonDetector;

/// A game: start FEN and SAN moves; the last position is the root.
const GAMES: &[(&str, &[&str])] = &[
    // The root repeats the start position; the history holds a position twice.
    (
        Position::START_FEN,
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
    ),
    // The paper's Figure 1 perpetual, after a check and a retreat.
    (
        "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1",
        &["Qh6+", "Kg8", "Qg5+", "Kh8", "Qh6+", "Kg8", "Qg5+", "Kh8"],
    ),
    // WAC.018 after rook shuffles.
    (
        "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1",
        &["Kh1", "Ra3", "Kg1", "Ra2", "Kf1", "Kg7", "Kg1", "Kf7"],
    ),
    // A knight-and-rook ending with castling rights in the history.
    (
        "r3k3/8/8/8/8/8/8/R3K1N1 w Qq - 0 1",
        &["Nf3", "Ra7", "Ng1", "Ra8", "Nh3"],
    ),
];

fn game(fen: &str, sans: &[&str]) -> (Vec<Position>, Vec<Move>) {
    replab_truth::kit::game(Position::from_fen(fen).unwrap(), sans)
}

/// Everything but the wall time, per iteration.
fn signature(r: &SearchResult) -> Vec<IterationSignature> {
    r.signature()
}

fn run(name: &str, positions: &[Position], moves: &[Move], config: SearchConfig) -> SearchResult {
    with_detector!(name, RootRule::AnyEarlier, |d| Searcher::new(d, config)
        .search_game(positions, moves))
    .unwrap()
}

#[test]
fn tt_thompson_grows_the_same_trees_as_linear_with_histories() {
    for policy in [
        DrawPolicy::Twofold,
        DrawPolicy::Stanback,
        DrawPolicy::Moreland,
        DrawPolicy::Stockfish,
        DrawPolicy::Threefold,
    ] {
        for (fen, sans) in GAMES {
            let (positions, moves) = game(fen, sans);
            let config = SearchConfig {
                max_depth: 7,
                policy,
                ..SearchConfig::default()
            };
            let reference = run("linear", &positions, &moves, config);
            // Every exact searchable row that keys nothing on the Zobrist key alone (the
            // matrices and the in-table flags), from the registry's columns.
            let others = DETECTORS.iter().filter(|d| {
                d.caps.exact && d.caps.searchable && d.caps.listed && !d.caps.key_width
            });
            for name in others.map(|d| d.name) {
                let other = run(name, &positions, &moves, config);
                assert_eq!(
                    signature(&other),
                    signature(&reference),
                    "{name} differs from linear on {fen} {sans:?} under {policy:?}"
                );
            }
        }
    }
    // Repetitions happened (the comparison is not vacuous).
    let (positions, moves) = game(GAMES[1].0, GAMES[1].1);
    let r = run(
        "tt-thompson",
        &positions,
        &moves,
        SearchConfig {
            max_depth: 7,
            ..SearchConfig::default()
        },
    );
    assert!(r.totals().repetitions > 0);
}

#[test]
fn tt_thompson_keeps_no_table_of_its_own_in_search() {
    let (positions, moves) = game(GAMES[0].0, GAMES[0].1);
    let config = SearchConfig {
        max_depth: 6,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(ThompsonDetector::new(), config);
    let r = s.search_game(&positions, &moves);
    assert!(r.totals().hits > 0);
    // Only the per-position chain: the replay table was never touched.
    assert!(
        s.detector().memory_bytes() < 4096,
        "{}",
        s.detector().memory_bytes()
    );
    assert_eq!(s.detector().stats().misses, 0);
    let linear = Searcher::new(LinearDetector::new(), config).search_game(&positions, &moves);
    assert_eq!(signature(&r), signature(&linear));
}

#[test]
fn a_tiny_table_makes_tt_thompson_miss_and_count_it() {
    let config = SearchConfig {
        max_depth: 8,
        tt_bits: Some(4),
        ..SearchConfig::default()
    };
    let (positions, moves) = game(GAMES[1].0, GAMES[1].1);
    let mut s = Searcher::new(ThompsonDetector::new(), config);
    s.search_game(&positions, &moves);
    let stats = s.detector().stats();
    assert!(stats.misses > 0 && stats.collisions > 0, "{stats:?}");
}

#[test]
fn the_searcher_refuses_tt_thompson_without_its_table() {
    let config = SearchConfig {
        tt_bits: None,
        ..SearchConfig::default()
    };
    let err = Searcher::try_new(ThompsonDetector::new(), config)
        .err()
        .unwrap();
    assert_eq!(
        err,
        SetupError::NeedsTable {
            detector: "tt-thompson"
        }
    );
    assert!(err.to_string().contains("tt-thompson"), "{err}");
    assert!(check_setup(&ThompsonDetector::new(), &config).is_err());
    assert!(check_setup(&ThompsonDetector::new(), &SearchConfig::default()).is_ok());
    assert!(check_setup(&LinearDetector::new(), &config).is_ok());
    assert!(check_setup(&MatrixDetector::new(), &config).is_ok());
    assert!(Searcher::try_new(LinearDetector::new(), config).is_ok());
    let refused = std::panic::catch_unwind(|| Searcher::new(ThompsonDetector::new(), config));
    assert!(refused.is_err());
}
