//! The matrix the detector maintains move by move equals the matrix converted from scratch at
//! every ply of many seeded random games, walked as the searcher walks them: probes, enters,
//! small subtrees entered and left, probes that are not followed by an enter, null moves.

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use replab_board::{MoveList, Position};
use replab_detect::{Detector, Line};
use replab_matrix::{MatrixDetector, Snapshot};

/// Start positions rich in castling, en passant and promotions.
const STARTS: &[&str] = &[
    Position::START_FEN,
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/1P4p1/8/3pP3/8/8/1p4P1/R3K2R w KQkq d6 0 1",
    "3k4/PP4PP/8/8/8/8/pp4pp/3K4 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

fn pick(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn check(d: &MatrixDetector, pos: &Position, what: &str) {
    let top = d.top().expect("a position entered");
    assert!(
        top.same(&Snapshot::matrix_of(pos)),
        "{what}: incremental matrix differs at {pos:?}"
    );
}

/// Pushes `child`, probes, and enters it; checks the entered matrix.
fn step(
    d: &mut MatrixDetector,
    line: &mut Line,
    parent: &Position,
    m: Option<replab_board::Move>,
    child: &Position,
) {
    match m {
        Some(m) => line.push(parent, m, child),
        None => line.push_null(child),
    }
    d.probe(line, child);
    d.enter(line, child);
    check(d, child, "enter");
}

/// A random subtree below `pos` (already entered), left again entirely.
fn subtree(
    d: &mut MatrixDetector,
    line: &mut Line,
    rng: &mut Xoshiro256PlusPlus,
    pos: &Position,
    depth: u32,
) {
    if depth == 0 {
        return;
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    if moves.is_empty() {
        return;
    }
    for _ in 0..2 {
        // A probe that the driver does not follow with an enter (a draw cut-off), then a
        // different child entered (with or without its own probe).
        let m = moves[pick(rng, moves.len())];
        let child = pos.play(m);
        line.push(pos, m, &child);
        d.probe(line, &child);
        line.pop();
        let m = moves[pick(rng, moves.len())];
        let child = pos.play(m);
        line.push(pos, m, &child);
        if rng.next_u64().is_multiple_of(2) {
            d.probe(line, &child);
        }
        d.enter(line, &child);
        check(d, &child, "subtree");
        subtree(d, line, rng, &child, depth - 1);
        d.leave(line, &child);
        line.pop();
        check(d, pos, "after leave");
    }
}

#[test]
fn incremental_matrix_equals_the_from_scratch_matrix_at_every_ply() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x6d61_7472_6978);
    let mut plies = 0u64;
    for game in 0..300 {
        for mut d in [
            MatrixDetector::new(),
            MatrixDetector::with_checksum(),
            MatrixDetector::with_key_bits(),
        ] {
            let mut game_rng = Xoshiro256PlusPlus::seed_from_u64(game);
            let start = Position::from_fen(STARTS[game as usize % STARTS.len()]).unwrap();
            let mut line = Line::new(&start, 1024);
            d.clear(1024);
            d.enter(&line, &start);
            check(&d, &start, "start");
            let mut path = vec![start];
            for _ in 0..200 {
                let pos = *path.last().unwrap();
                let mut moves = MoveList::new();
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() || pos.halfmove_clock() >= 100 {
                    break;
                }
                if !pos.is_check() && !line.last().null && game_rng.next_u64().is_multiple_of(16) {
                    let mut child = pos;
                    child.play_null();
                    step(&mut d, &mut line, &pos, None, &child);
                    path.push(child);
                    continue;
                }
                // Prefer captures, promotions, castling and en passant now and then.
                let special: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_capture() || m.is_castle() || m.promotion().is_some())
                    .collect();
                let m = if !special.is_empty() && game_rng.next_u64().is_multiple_of(3) {
                    special[pick(&mut game_rng, special.len())]
                } else {
                    moves[pick(&mut game_rng, moves.len())]
                };
                let child = pos.play(m);
                step(&mut d, &mut line, &pos, Some(m), &child);
                plies += 1;
                if rng.next_u64().is_multiple_of(8) {
                    subtree(&mut d, &mut line, &mut rng, &child, 3);
                }
                path.push(child);
            }
            assert_eq!(
                d.rebuilds(),
                1,
                "only the first position is converted from scratch"
            );
        }
    }
    assert!(plies > 50_000, "too few plies: {plies}");
}
