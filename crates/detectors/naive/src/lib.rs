#![doc = include_str!("../README.md")]

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};

/// One entered position.
#[derive(Clone, Copy, Debug)]
struct Entered {
    /// Its Zobrist key (FIDE identity).
    key: u64,
    /// It was reached by an irreversible or a null move: nothing before it can recur.
    barrier: bool,
}

/// The naive detector: every earlier key compared, back to the last irreversible or null move.
#[derive(Clone, Debug, Default)]
pub struct NaiveDetector {
    /// The entered positions, oldest first (the line up to, not including, the probed one).
    stack: Vec<Entered>,
    stats: Stats,
}

impl NaiveDetector {
    /// A new detector (it allocates its stack in [`Detector::clear`]).
    pub fn new() -> Self {
        Self::default()
    }
}

impl Detector for NaiveDetector {
    fn name(&self) -> &'static str {
        "naive"
    }

    fn clear(&mut self, capacity: usize) {
        self.stack.clear();
        // The only allocation: `enter` never pushes more than `capacity` entries.
        self.stack.reserve(capacity);
        self.stats = Stats::default();
    }

    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        debug_assert_eq!(self.stack.len(), line.current_index(), "probe after enter");
        let last = line.last();
        if last.irreversible || last.null {
            return None;
        }
        let mut found: Option<Repetition> = None;
        for (back, earlier) in self.stack.iter().rev().enumerate() {
            self.stats.comparisons += 1;
            if earlier.key == last.key {
                match &mut found {
                    Some(rep) => rep.earlier += 1,
                    None => {
                        found = Some(Repetition {
                            distance: back as u32 + 1,
                            earlier: 1,
                        })
                    }
                }
            }
            if earlier.barrier {
                break;
            }
        }
        if found.is_some() {
            self.stats.hits += 1;
        }
        found
    }

    fn enter(&mut self, line: &Line, _pos: &Position) {
        let last = line.last();
        self.stack.push(Entered {
            key: last.key,
            barrier: last.irreversible || last.null,
        });
    }

    fn leave(&mut self, _line: &Line, _pos: &Position) {
        self.stack.pop();
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.stack.capacity() * std::mem::size_of::<Entered>()
    }
}
