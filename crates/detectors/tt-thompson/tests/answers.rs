//! `tt-thompson` answers exactly as `linear` (nearest distance and count of earlier
//! occurrences) on seeded random walks rich in repetitions and null moves: on its replay table,
//! and through mark words held by the driver, as the searcher holds them in its table.

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use replab_board::{MoveList, Position};
use replab_detect::{Detector, Line, Repetition};
use replab_linear::LinearDetector;
use replab_tt_thompson::ThompsonDetector;

/// Marks as a searcher's table holds them: 2^`bits` words indexed by the low key bits.
struct Marks(Vec<u16>, u64);

impl Marks {
    fn slot(&mut self, line: &Line) -> &mut u16 {
        let i = (line.last().key & self.1) as usize;
        &mut self.0[i]
    }
}

struct Walk {
    rng: Xoshiro256PlusPlus,
    linear: LinearDetector,
    replay: ThompsonDetector,
    marked: ThompsonDetector,
    marks: Marks,
    line: Line,
    hits: u64,
    counted: u64,
}

impl Walk {
    fn probe(&mut self, pos: &Position) -> Option<Repetition> {
        let want = self.linear.probe(&self.line, pos);
        let replay = self.replay.probe(&self.line, pos);
        let mark = *self.marks.slot(&self.line);
        let marked = self.marked.probe_marked(&self.line, pos, mark);
        assert_eq!(replay, want, "replay table");
        assert_eq!(marked, want, "marks");
        if let Some(r) = want {
            self.hits += 1;
            if r.earlier > 1 {
                self.counted += 1;
            }
        }
        want
    }

    fn enter(&mut self, pos: &Position) {
        self.linear.enter(&self.line, pos);
        self.replay.enter(&self.line, pos);
        let line = &self.line;
        let mark = self.marks.slot(line);
        self.marked.enter_marked(line, pos, mark);
    }

    fn leave(&mut self, pos: &Position) {
        self.linear.leave(&self.line, pos);
        self.replay.leave(&self.line, pos);
        let line = &self.line;
        let mark = self.marks.slot(line);
        self.marked.leave_marked(line, pos, mark);
    }

    /// A random search-like walk below `pos` (entered); repetitions are entered too (as under
    /// `threefold`), so occurrences pile up.
    fn walk(&mut self, pos: &Position, depth: u32) {
        if depth == 0 {
            return;
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        for k in 0..3 {
            let child = if k == 0
                && !pos.is_check()
                && !self.line.last().null
                && self.rng.next_u64().is_multiple_of(4)
            {
                let mut c = *pos;
                c.play_null();
                self.line.push_null(&c);
                c
            } else {
                if moves.is_empty() {
                    return;
                }
                // Undo our previous move half the time, so the walk keeps coming back.
                let back = if self.line.len() > 2 {
                    self.line.back(1).mv
                } else {
                    Default::default()
                };
                let undo = moves
                    .iter()
                    .copied()
                    .find(|m| !back.is_null() && m.from() == back.to() && m.to() == back.from());
                let m = match undo {
                    Some(m) if self.rng.next_u64().is_multiple_of(2) => m,
                    _ => moves[(self.rng.next_u64() % moves.len() as u64) as usize],
                };
                let c = pos.play(m);
                self.line.push(pos, m, &c);
                c
            };
            self.probe(&child);
            self.enter(&child);
            self.walk(&child, depth - 1);
            self.leave(&child);
            self.line.pop();
        }
    }
}

#[test]
fn replay_and_marked_answers_equal_linear() {
    let starts = [
        "4k3/8/8/8/8/8/8/RN2K1NR w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "1n2k1n1/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
        Position::START_FEN,
    ];
    let mut total = (0, 0);
    for (seed, fen) in starts.iter().enumerate() {
        {
            let bits = 20;
            let start = Position::from_fen(fen).unwrap();
            let mut w = Walk {
                rng: Xoshiro256PlusPlus::seed_from_u64(seed as u64),
                linear: LinearDetector::new(),
                replay: ThompsonDetector::new(),
                marked: ThompsonDetector::new(),
                marks: Marks(vec![0; 1 << bits], (1 << bits) - 1),
                line: Line::new(&start, 64),
                hits: 0,
                counted: 0,
            };
            w.linear.clear(64);
            w.replay.clear(64);
            w.marked.clear(64);
            w.enter(&start);
            w.walk(&start, 8);
            assert!(
                w.marks.0.iter().all(|&m| m == 0 || m == 1),
                "marks restored"
            );
            total.0 += w.hits;
            total.1 += w.counted;
        }
    }
    assert!(
        total.0 > 1000 && total.1 > 100,
        "too few repetitions: {total:?}"
    );
}
