//! The `table limit` column and `exact_below_capacity` tied to behaviour: on one long
//! reversible game the rows that keep everything lose nothing and the exact ones agree with
//! `truth` at every ply, while every row with a fixed-size table counts a lost position; on short
//! seeded random games (an audit in miniature) every `exact_below_capacity` row agrees with
//! `truth` at every ply.

use rand::Rng;
use rand_xoshiro::{Xoshiro256PlusPlus, rand_core::SeedableRng};
use replab_board::Position;
use replab_detect::Detector;
use replab_registry::{DETECTORS, DetectorInfo, RootRule, TableLimit, TruthDetector, by_name};
use replab_truth::kit;

/// A seeded game of `plies` moves from `fen`, each chosen among the legal moves `keep` allows,
/// as SAN; it stops early where no move is left.
fn random_game(
    fen: &str,
    plies: usize,
    seed: u64,
    keep: fn(&Position, replab_board::Move) -> bool,
) -> Vec<String> {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut sans = Vec::with_capacity(plies);
    for _ in 0..plies {
        let moves: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| keep(&pos, m))
            .collect();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        sans.push(pos.san(m));
        pos = pos.play(m);
    }
    sans
}

/// The plies at which `row`'s probes and `truth`'s differ, and the row's counters after the game.
fn replay_against_truth(
    row: &DetectorInfo,
    fen: &str,
    moves: &[String],
    truth: &[bool],
) -> (Vec<usize>, replab_detect::Stats) {
    let mut d = by_name(row.name, RootRule::AnyEarlier).unwrap();
    let answers = kit::replay(&mut d, fen, moves).unwrap();
    let differ = (0..answers.len())
        .filter(|&i| answers[i] != truth[i])
        .collect();
    (differ, d.stats())
}

/// Kings and knights only, quiet moves only: the whole game is one reversible run, far longer
/// than FILO's 1,024 slots or Axon's 255-move list, with thousands of distinct positions.
#[test]
fn a_long_reversible_game_separates_the_table_limits() {
    const FEN: &str = "4k3/8/8/3n4/8/8/3N4/4K3 w - - 0 1";
    let moves = random_game(FEN, 4000, 17, |_, m| !m.is_capture());
    assert_eq!(moves.len(), 4000);
    let truth = kit::replay(&mut TruthDetector::new(), FEN, &moves).unwrap();
    let repeats = truth.iter().filter(|&&t| t).count();
    assert!(repeats > 5, "the game repeats: {repeats}");
    for row in DETECTORS.iter().filter(|d| d.caps.probes) {
        let (differ, stats) = replay_against_truth(row, FEN, &moves, &truth);
        let lost = stats.misses + stats.overflows;
        match row.caps.table_limit {
            TableLimit::None => {
                assert_eq!(lost, 0, "{}: nothing of it has a fixed size", row.name);
                if row.caps.exact {
                    assert_eq!(differ, Vec::<usize>::new(), "{}", row.name);
                }
            }
            TableLimit::Fills | TableLimit::Collides => {
                assert!(
                    lost > 0,
                    "{}: a fixed-size table loses positions on this game",
                    row.name
                );
            }
        }
        if row.caps.exact {
            // Lost positions only hide repetitions: an exact row never invents one.
            assert!(
                differ.iter().all(|&i| truth[i]),
                "{}: a false repetition",
                row.name
            );
        }
    }
}

/// Seeded random games from the start position (any legal move, 200 plies at most, as the
/// audit plays them): no line outgrows a table, so only collisions can lose a position.
#[test]
fn exact_rows_below_capacity_agree_with_truth_on_random_games() {
    let fen = Position::START_FEN;
    let rows: Vec<&DetectorInfo> = DETECTORS
        .iter()
        .filter(|d| d.caps.exact_below_capacity())
        .collect();
    assert!(
        rows.iter().any(|d| d.caps.table_limit == TableLimit::Fills),
        "a row with slots that fill"
    );
    let mut repetitions = 0;
    for seed in 0..40 {
        let moves = random_game(fen, 200, seed, |_, _| true);
        let truth = kit::replay(&mut TruthDetector::new(), fen, &moves).unwrap();
        repetitions += truth.iter().filter(|&&t| t).count();
        for row in &rows {
            let (differ, stats) = replay_against_truth(row, fen, &moves, &truth);
            assert_eq!(differ, Vec::<usize>::new(), "{} on game {seed}", row.name);
            assert_eq!(
                stats.misses + stats.overflows,
                0,
                "{} on game {seed}",
                row.name
            );
        }
    }
    assert!(repetitions > 0, "the games repeat");
    // The rule can fail: a collision-prone row is left out, and it is exact otherwise.
    assert!(
        DETECTORS
            .iter()
            .any(|d| d.caps.exact && d.caps.probes && !d.caps.exact_below_capacity())
    );
}
