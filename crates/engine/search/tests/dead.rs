//! Dead positions (insufficient material, as the match arbiter and python-chess define it:
//! `Position::is_insufficient_material`) score as draws in both profiles, at every depth; a
//! position with mating material does not.

use replab_board::Position;
use replab_detect::Off;
use replab_registry::LinearDetector;
use replab_search::{SearchConfig, Searcher};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

/// The paper profile and the engine profile, to `depth` plies.
fn both_profiles(depth: u32) -> [SearchConfig; 2] {
    [
        SearchConfig {
            max_depth: depth,
            ..SearchConfig::default()
        },
        SearchConfig {
            max_depth: depth,
            ..SearchConfig::engine()
        },
    ]
}

#[test]
fn king_and_minor_against_king_scores_zero_at_every_depth() {
    for fen in [
        "8/8/4k3/8/8/2K2B2/8/8 w - - 0 1",   // king and bishop against king
        "8/8/4k3/8/8/2K2B2/8/8 b - - 0 1",   // the same, the lone king to move
        "8/8/4k3/8/8/2K2N2/8/8 w - - 0 1",   // king and knight against king
        "8/8/4k1b1/8/8/2K2B2/8/8 w - - 0 1", // a bishop each, both on light squares
    ] {
        for depth in 1..=8 {
            for config in both_profiles(depth) {
                let r = Searcher::new(Off, config).search(&pos(fen));
                assert_eq!(r.iterations.len(), depth as usize, "{fen}");
                for it in &r.iterations {
                    assert_eq!(
                        it.score.value(),
                        0,
                        "{fen}, {:?} profile, iteration {} of {depth}",
                        config.profile,
                        it.depth
                    );
                }
            }
        }
    }
}

#[test]
fn capturing_into_a_dead_position_is_taken_as_the_draw() {
    // Black, a rook and a piece down, draws by Kxc3 (conformance's dead-position-bishop,
    // -knight and -same-colour-bishops scenarios).
    for fen in [
        "8/8/8/8/8/2R5/1k6/5BK1 b - - 0 1",
        "8/8/8/8/8/2R5/1k6/5NK1 b - - 0 1",
        "8/8/8/8/8/2R5/1k6/1b3BK1 b - - 0 1",
    ] {
        for config in both_profiles(6) {
            let r = Searcher::new(LinearDetector::new(), config).search(&pos(fen));
            assert_eq!(uci(&r), "b2c3", "{fen}, {:?}", config.profile);
            assert_eq!(r.score().unwrap().value(), 0, "{fen}, {:?}", config.profile);
        }
    }
}

#[test]
fn mating_material_is_not_a_draw() {
    for (fen, at_least) in [
        ("8/8/4k3/8/8/2K2R2/8/8 w - - 0 1", 300), // king and rook against king
        ("8/8/4k3/8/8/2KBB3/8/8 w - - 0 1", 300), // bishops on both colours
        ("8/8/4k3/8/8/2KN1B2/8/8 w - - 0 1", 300), // bishop and knight
        ("8/4p3/4k3/8/8/2K2B2/8/8 w - - 0 1", 50), // a pawn on the board
    ] {
        for config in both_profiles(4) {
            let r = Searcher::new(Off, config).search(&pos(fen));
            let v = r.score().unwrap().value();
            assert!(v >= at_least, "{fen}, {:?}: {v}", config.profile);
        }
    }
}

fn uci(r: &replab_search::SearchResult) -> String {
    r.best_move().map_or("-".into(), |m| m.uci().to_string())
}
