//! [`TruthDetector::probe_by_key`] answers exactly what the full scan answers (distance and
//! occurrence count) on every scripted case: nulls, en passant, castling rights, long runs.

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};
use replab_truth::{TruthDetector, kit};

/// The oracle probing by key.
#[derive(Default)]
struct ByKey(TruthDetector);

impl Detector for ByKey {
    fn name(&self) -> &'static str {
        "truth-by-key"
    }
    fn clear(&mut self, capacity: usize) {
        self.0.clear(capacity);
    }
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        self.0.probe_by_key(line, pos)
    }
    fn enter(&mut self, line: &Line, pos: &Position) {
        self.0.enter(line, pos);
    }
    fn leave(&mut self, line: &Line, pos: &Position) {
        self.0.leave(line, pos);
    }
    fn stats(&self) -> Stats {
        self.0.stats()
    }
    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
}

#[test]
fn probing_by_key_answers_as_the_full_scan() {
    let mut repetitions = 0;
    for case in kit::cases() {
        let moves = case.move_strs();
        let full = kit::replay_probes(&mut TruthDetector::new(), &case.fen, &moves).unwrap();
        let by_key = kit::replay_probes(&mut ByKey::default(), &case.fen, &moves).unwrap();
        assert_eq!(full, by_key, "{}", case.name);
        repetitions += full.iter().flatten().count();
    }
    // The cases must exercise what the test claims to.
    assert!(repetitions >= 30, "{repetitions}");
}
