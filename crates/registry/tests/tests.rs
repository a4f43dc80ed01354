//! Scripted repetition cases for every detector: each is driven as game replay and compared with
//! the exact oracle, and the oracle itself is pinned to the expected answers.

use replab_board::{Move, Position};
use replab_detect::{Detector, DrawPolicy, Line, load_history};
use replab_registry::{AnyDetector, DETECTOR_NAMES, RootRule, TruthDetector, by_name};

/// A step of a scripted line: a SAN move, or a null move.
const NULL: &str = "--";

/// Replays `moves` from `fen` with `detector` (probe, then enter, as game replay does) and
/// returns the probe answer at every ply (ply 0 = the start position).
fn replay(detector: &mut dyn Detector, fen: &str, moves: &[&str]) -> Vec<bool> {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut line = Line::new(&pos, moves.len() + 1);
    detector.clear(moves.len() + 1);
    let mut out = vec![detector.probe(&line, &pos).is_some()];
    detector.enter(&line, &pos);
    for &san in moves {
        if san == NULL {
            pos.play_null();
            line.push_null(&pos);
        } else {
            let m = pos.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
            let next = pos.play(m);
            line.push(&pos, m, &next);
            pos = next;
        }
        line.set_root();
        out.push(detector.probe(&line, &pos).is_some());
        detector.enter(&line, &pos);
    }
    out
}

fn plies(flags: &[bool]) -> Vec<usize> {
    flags
        .iter()
        .enumerate()
        .filter(|(_, f)| **f)
        .map(|(i, _)| i)
        .collect()
}

/// Detectors that must agree with the oracle on every scripted case.
const EXACT: [&str; 6] = [
    "linear",
    "tt-open",
    "filo",
    "rookie",
    "matrix",
    "matrix-checksum",
];

/// Checks the oracle's repeated plies, that every exact detector agrees, and returns axon's.
fn check(fen: &str, moves: &[&str], truth_plies: &[usize]) -> Vec<usize> {
    let truth = replay(&mut TruthDetector::new(), fen, moves);
    assert_eq!(plies(&truth), truth_plies, "truth on {moves:?}");
    for name in EXACT {
        let mut d = by_name(name, RootRule::Stockfish).unwrap();
        assert_eq!(replay(&mut d, fen, moves), truth, "{name} on {moves:?}");
    }
    plies(&replay(
        &mut by_name("axon", RootRule::Stockfish).unwrap(),
        fen,
        moves,
    ))
}

#[test]
fn paper_figure_1_perpetual() {
    let fen = "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1";
    let moves = [
        "Qh6+", "Kg8", "Qg5+", "Kh7", "Qh5+", "Kg7", "Qg5+", "Kh8", "Qh6+",
    ];
    assert_eq!(check(fen, &moves, &[9]), [9]);
}

#[test]
fn knight_shuffles_from_the_start() {
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    assert_eq!(
        check(Position::START_FEN, &moves, &[4, 5, 6, 7, 8]),
        [4, 5, 6, 7, 8]
    );
}

#[test]
fn captures_and_pawn_moves_between() {
    let moves = [
        "Nf3", "Nf6", "Ng1", "Ng8", "e4", "e5", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Nxe5",
        "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8",
    ];
    // The pawn moves at plies 5-6 and the capture at ply 13 end every earlier cycle.
    assert_eq!(
        check(
            Position::START_FEN,
            &moves,
            &[4, 10, 11, 12, 19, 20, 21, 22]
        ),
        [4, 10, 11, 12, 19, 20, 21, 22]
    );
}

#[test]
fn castling_rights_lost_between_identical_arrangements() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let moves = ["Kf1", "Kf8", "Ke1", "Ke8", "Kf1", "Kf8", "Ke1", "Ke8"];
    // Ply 4 has the start's placement without castling rights: not a repetition (FIDE 9.2),
    // but Axon flags only captures, pawn moves and castling as irreversible; ply 5 likewise
    // repeats ply 1's placement with fewer rights. Plies 6-8 repeat plies 2-4 exactly.
    assert_eq!(check(fen, &moves, &[6, 7, 8]), [4, 5, 6, 7, 8]);
}

#[test]
fn en_passant_possible_at_first_occurrence_only() {
    // After d4 the e4 pawn may capture en passant; four king moves later it may not, so ply 5
    // is no repetition of ply 1 — except for Axon. Plies 6-9 repeat plies 2-5 exactly.
    let fen = "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1";
    let moves = ["d4", "Kf8", "Kf1", "Ke8", "Ke1", "Kf8", "Kf1", "Ke8", "Ke1"];
    assert!(
        Position::from_fen(fen)
            .unwrap()
            .play(Position::from_fen(fen).unwrap().parse_san("d4").unwrap())
            .ep_square()
            .is_some()
    );
    assert_eq!(check(fen, &moves, &[6, 7, 8, 9]), [5, 6, 7, 8, 9]);
}

#[test]
fn pseudo_legal_en_passant_of_a_pinned_pawn_does_not_count() {
    // exd3 would expose the black king on a4 to the rook on h4: the ep right is not real.
    let fen = "8/8/8/8/k3p2R/8/3P4/4K3 w - - 0 1";
    let moves = ["d4", "Ka5", "Kf1", "Ka4", "Ke1"];
    let after = Position::from_fen(fen).unwrap();
    let after = after.play(after.parse_san("d4").unwrap());
    assert_eq!(after.ep_square(), None);
    assert_eq!(check(fen, &moves, &[5]), [5]);
}

#[test]
fn null_move_is_a_barrier() {
    // White's king triangulates after black's null move: the position at ply 7 has the same
    // placement and side to move as ply 1, but a null move lies between (a barrier for every
    // detector). Axon also compares with ply 2 (odd distance: the other side to move).
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let moves = ["Kd1", NULL, "Kc1", "Kd8", "Kc2", "Ke8", "Kd1"];
    assert_eq!(check(fen, &moves, &[]), [7]);
}

#[test]
fn same_kind_pieces_swapping_squares() {
    // The rooks trade places: the position repeats, but Axon's chains follow squares.
    let fen = "4k3/8/8/8/8/4K3/8/R6R w - - 0 1";
    let moves = ["Ra2", "Kd8", "Rha1", "Ke8", "Rh2", "Kd8", "Rhh1", "Ke8"];
    assert_eq!(check(fen, &moves, &[8]), Vec::<usize>::new());
}

#[test]
fn odd_triangulation_fools_axon_only() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let moves = ["Kd1", "Kd8", "Kd2", "Ke8", "Ke1"];
    assert_eq!(check(fen, &moves, &[]), [5]);
}

#[test]
fn every_named_detector_is_constructible_and_named() {
    for name in DETECTOR_NAMES {
        assert_eq!(by_name(name, RootRule::Stockfish).unwrap().name(), name);
    }
    assert!(by_name("nosuch", RootRule::Stockfish).is_err());
}

/// Loads `history` as game history, then plays `search` as a search line (entering each
/// position) and returns the last probe with the plies from the root.
fn probe_after(
    detector: &mut AnyDetector,
    history: &[&str],
    search: &[&str],
) -> (Option<replab_detect::Repetition>, u32) {
    let mut positions = vec![Position::startpos()];
    let mut moves: Vec<Move> = Vec::new();
    for san in history {
        let p = *positions.last().unwrap();
        let m = p.parse_san(san).unwrap();
        moves.push(m);
        positions.push(p.play(m));
    }
    let mut line = Line::default();
    load_history(detector, &mut line, &positions, &moves, 64);
    let mut pos = *positions.last().unwrap();
    let mut last = None;
    for san in search {
        let m = pos.parse_san(san).unwrap();
        let next = pos.play(m);
        line.push(&pos, m, &next);
        pos = next;
        last = detector.probe(&line, &pos);
        detector.enter(&line, &pos);
    }
    (last, line.plies_from_root())
}

#[test]
fn game_history_versus_search_line_for_each_policy() {
    use DrawPolicy::*;
    for name in ["linear", "rookie", "matrix", "matrix-checksum", "truth"] {
        let mut d = by_name(name, RootRule::Stockfish).unwrap();
        // The start position occurred once in the history; the search returns to it.
        let (rep, ply) = probe_after(&mut d, &["Nf3", "Nf6"], &["Ng1", "Ng8"]);
        let rep = rep.unwrap_or_else(|| panic!("{name} misses a history repetition"));
        assert_eq!((rep.distance, rep.earlier, ply), (4, 1, 2), "{name}");
        let draws: Vec<_> = DrawPolicy::ALL
            .iter()
            .map(|p| p.is_draw(rep, ply))
            .collect();
        // twofold, stanback (not > 2 plies), moreland (history only once), stockfish, threefold
        assert_eq!(draws, [true, false, false, false, false], "{name}");

        // The root itself recurs inside the search.
        let (rep, ply) = probe_after(&mut d, &["Nf3", "Nf6"], &["Ng1", "Ng8", "Nf3", "Nf6"]);
        let rep = rep.unwrap();
        assert_eq!((rep.distance, ply), (4, 4), "{name}");
        assert!(
            Moreland.is_draw(rep, ply)
                && !Stockfish.is_draw(rep, ply)
                && Stanback.is_draw(rep, ply)
        );

        // A third occurrence: a draw under every policy.
        let (rep, ply) = probe_after(
            &mut d,
            &["Nf3", "Nf6", "Ng1", "Ng8"],
            &["Nf3", "Nf6", "Ng1", "Ng8"],
        );
        let rep = rep.unwrap();
        assert!(rep.earlier >= 2, "{name}: {rep:?}");
        assert!(
            DrawPolicy::ALL.iter().all(|p| p.is_draw(rep, ply)),
            "{name}"
        );
        assert!(!Threefold.is_draw(replab_detect::Repetition { earlier: 1, ..rep }, ply));
    }
}

#[test]
fn cuckoo_sees_an_upcoming_cycle() {
    // After Nf3 Nf6 Ng1, black's Ng8 would repeat the start: an upcoming cycle for black.
    let mut d = by_name("cuckoo", RootRule::AnyEarlier).unwrap();
    let mut pos = Position::startpos();
    let mut line = Line::new(&pos, 8);
    d.clear(8);
    let mut answers = Vec::new();
    for san in ["Nf3", "Nf6", "Ng1", "e5"] {
        let m = pos.parse_san(san).unwrap();
        let next = pos.play(m);
        line.push(&pos, m, &next);
        pos = next;
        line.set_root();
        d.enter(&line, &pos);
        answers.push(d.upcoming(&line, &pos));
    }
    assert_eq!(answers, [false, false, true, false]);
}
