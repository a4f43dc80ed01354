//! The seeded depth-first walk the registry's tests drive detectors with.

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use replab_board::{Move, MoveList, Position};
use replab_detect::Line;

/// Where the walk is at a child: just pushed on the line, or about to be popped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Visit {
    /// The child was pushed on the line: probe and enter it.
    Arrive,
    /// The child's subtree is done: leave it (the line is popped right after).
    Leave,
}

/// A depth-first walk below `pos` to `depth` plies: at each node three random reversible
/// moves (repeats allowed) and, one time in five when not in check, a null move. `on` sees
/// every child on arrival and on leaving, with the line as the searcher would have it.
pub fn random_walk(
    line: &mut Line,
    pos: &Position,
    depth: u32,
    rng: &mut Xoshiro256PlusPlus,
    on: &mut dyn FnMut(Visit, &Line, &Position),
) {
    if depth == 0 {
        return;
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    let reversible: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| !pos.is_zeroing(m))
        .collect();
    if reversible.is_empty() {
        return;
    }
    let mut children: Vec<Option<Move>> = (0..3)
        .map(|_| Some(reversible[rng.random_range(0..reversible.len())]))
        .collect();
    if !pos.is_check() && rng.random_range(0..5) == 0 {
        children.push(None);
    }
    for child in children {
        let next = match child {
            Some(m) => {
                let next = pos.play(m);
                line.push(pos, m, &next);
                next
            }
            None => {
                let mut next = *pos;
                next.play_null();
                line.push_null(&next);
                next
            }
        };
        on(Visit::Arrive, line, &next);
        random_walk(line, &next, depth - 1, rng, on);
        on(Visit::Leave, line, &next);
        line.pop();
    }
}
