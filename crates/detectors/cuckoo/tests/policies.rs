//! The cuckoo test under each draw policy's rule ([`DrawPolicy::root_rule`]): an upcoming cycle
//! counts exactly when some legal move leads to a position that `linear`, probed one ply further
//! down, reports as a repetition the policy scores as a draw. Scripted lines cover each rule's
//! distinctions (a history position seen once, the root itself, a position after the root, one
//! that had already repeated, Stanback's 2-ply margin); seeded random reversible games cover
//! the rest.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use replab_board::{Move, Position};
use replab_cuckoo::{CuckooDetector, LinearCuckoo, UpcomingRule};
use replab_detect::{Detector, DrawPolicy, Line};
use replab_linear::LinearDetector;

/// The line after `history` (game moves: each becomes the root in its turn) and `search`
/// (search moves below the root), with the final position.
fn line_of(fen: &str, history: &[&str], search: &[&str]) -> (Line, Position) {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut line = Line::new(&pos, history.len() + search.len() + 2);
    for (i, san) in history.iter().chain(search).enumerate() {
        let m = pos.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        let next = pos.play(m);
        line.push(&pos, m, &next);
        pos = next;
        if i < history.len() {
            line.set_root();
        }
    }
    (line, pos)
}

/// Whether some legal move reaches a position `linear` reports as a repetition that `policy`
/// scores as a draw at the next ply.
fn linear_draw_next(line: &mut Line, pos: &Position, policy: DrawPolicy) -> bool {
    let mut linear = LinearDetector::new();
    let ply = line.plies_from_root() + 1;
    pos.legal_moves().iter().any(|&m: &Move| {
        let next = pos.play(m);
        line.push(pos, m, &next);
        let draw = linear
            .probe(line, &next)
            .is_some_and(|rep| policy.is_draw(rep, ply));
        line.pop();
        draw
    })
}

fn upcoming(rule: impl Into<UpcomingRule>, line: &Line, pos: &Position) -> bool {
    let mut d = CuckooDetector::with_rule(rule);
    d.clear(line.len());
    d.upcoming(line, pos)
}

/// The cuckoo answer under every policy, in [`DrawPolicy::ALL`] order, checked against
/// `linear` one ply further down.
fn answers(fen: &str, history: &[&str], search: &[&str]) -> [bool; 5] {
    let (mut line, pos) = line_of(fen, history, search);
    DrawPolicy::ALL.map(|p| {
        let got = upcoming(p, &line, &pos);
        assert_eq!(
            got,
            linear_draw_next(&mut line, &pos, p),
            "{p}: history {history:?}, search {search:?}"
        );
        let mut composed = LinearCuckoo::with_rule(p.root_rule());
        composed.clear(line.len());
        assert_eq!(composed.upcoming(&line, &pos), got, "{p}: linear+cuckoo");
        got
    })
}

const START: &str = Position::START_FEN;

// Order of the answers: twofold, stanback, moreland, stockfish, threefold.

#[test]
fn a_history_position_seen_once() {
    // The start occurred once, in the game; black's Ng8 would repeat it 1 ply below the root
    // (the next ply is 2 below the root).
    assert_eq!(
        answers(START, &["Nf3", "Nf6"], &["Ng1"]),
        [true, false, false, false, false]
    );
    // The same cycle deeper below the root: Stanback's margin is passed.
    assert_eq!(
        answers(START, &["Nf3", "Nf6", "Nc3"], &["Nc6", "Nb1"]),
        [true, true, false, false, false]
    );
}

#[test]
fn the_root_itself() {
    // The root (after Nf3 Nf6) recurs if black plays Nf6 again, 3 plies below the root:
    // moreland counts the root, stockfish does not.
    assert_eq!(
        answers(START, &["Nf3", "Nf6"], &["Ng1", "Ng8", "Nf3"]),
        [true, true, true, false, false]
    );
}

#[test]
fn a_position_after_the_root() {
    // After the root, 1.Nc3 Nc6 2.Nb1: black's Nb8 returns to the root; 2.Nb1 then Nb8 Nc3
    // would return after the root.
    assert_eq!(
        answers(START, &[], &["Nc3", "Nc6", "Nb1", "Nb8", "Nc3"]),
        [true, true, true, true, false]
    );
}

#[test]
fn a_position_that_had_already_repeated() {
    // The game already repeated the start once (2 occurrences); black's Ng8 makes a third.
    assert_eq!(
        answers(START, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"], &["Ng1"]),
        [true; 5]
    );
}

#[test]
fn no_cycle_within_reach() {
    assert_eq!(answers(START, &["Nf3", "Nf6"], &["e4"]), [false; 5]);
    assert_eq!(answers(START, &["e4", "e5"], &["Nf3"]), [false; 5]);
}

#[test]
fn random_reversible_games_agree_with_linear_one_ply_later() {
    // Few pieces and few squares, so cycles are frequent; sliders can pin.
    let fens = [
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        "1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
        "r3k3/8/8/8/8/8/8/R3K2N b - - 0 1",
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed);
    let mut counted = [0usize; 5];
    let mut nodes = 0;
    for fen in fens {
        for _game in 0..12 {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut line = Line::new(&pos, 64);
            let root_at = rng.random_range(0..20);
            for ply in 0..40 {
                // Prefer moves back to squares just left, so positions recur.
                let moves: Vec<Move> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| !pos.is_zeroing(m))
                    .collect();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len().min(4))];
                let next = pos.play(m);
                line.push(&pos, m, &next);
                pos = next;
                if ply < root_at {
                    line.set_root();
                }
                nodes += 1;
                for (i, p) in DrawPolicy::ALL.into_iter().enumerate() {
                    let got = upcoming(p, &line, &pos);
                    assert_eq!(
                        got,
                        linear_draw_next(&mut line, &pos, p),
                        "{p}: {fen}, ply {ply}, root at {root_at}"
                    );
                    counted[i] += got as usize;
                }
            }
        }
    }
    assert!(nodes > 1000, "{nodes}");
    // Every rule fires somewhere, and the stricter the policy, the fewer cycles count.
    assert!(counted.iter().all(|&c| c > 0), "{counted:?}");
    assert!(
        counted[0] >= counted[1] && counted[1] >= counted[4],
        "{counted:?}"
    );
    assert!(
        counted[2] >= counted[3] && counted[3] >= counted[4],
        "{counted:?}"
    );
}
