//! No detector allocates per enter/probe/leave once it has been sized (`Detector::clear`).
//! A counting global allocator watches a search-like walk of every detector.

use replab_board::{MoveList, Position};
use replab_detect::{Detector, Line, load_history};
use replab_registry::{DETECTORS, RootRule, by_name};
use replab_truth::kit::allocations;

/// A full-width walk to `depth` that drives the detector like the searcher does.
fn walk(d: &mut dyn Detector, line: &mut Line, pos: &Position, depth: u32, visits: &mut u64) {
    if depth == 0 {
        return;
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    for &m in moves.iter().take(6) {
        let next = pos.play(m);
        line.push(pos, m, &next);
        *visits += 1;
        if d.probe(line, &next).is_none() {
            d.enter(line, &next);
            d.upcoming(line, &next);
            walk(d, line, &next, depth - 1, visits);
            d.leave(line, &next);
        }
        line.pop();
    }
}

#[test]
fn no_allocation_per_node_in_any_detector() {
    // A history with shuffles so every structure holds something.
    let mut positions = vec![Position::startpos()];
    let mut moves = Vec::new();
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6", "Nb1", "Nb8"] {
        let p = *positions.last().unwrap();
        let m = p.parse_san(san).unwrap();
        moves.push(m);
        positions.push(p.play(m));
    }
    for name in DETECTORS.iter().map(|row| row.name) {
        let mut d = by_name(name, RootRule::Stockfish).unwrap();
        let mut line = Line::default();
        load_history(&mut d, &mut line, &positions, &moves, 16);
        let root = *positions.last().unwrap();
        let mut visits = 0;
        let before = allocations();
        walk(&mut d, &mut line, &root, 5, &mut visits);
        let n = allocations() - before;
        assert!(visits > 5_000, "{name}: walk too small ({visits})");
        assert_eq!(n, 0, "{name} allocated {n} times in {visits} nodes");
    }
}
