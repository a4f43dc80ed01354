#![doc = include_str!("../README.md")]

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};

/// Linear key-list detector (Stanback/Zarkov; Stockfish).
#[derive(Clone, Debug, Default)]
pub struct LinearDetector {
    stats: Stats,
}

impl LinearDetector {
    /// A new detector.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Scans `line` back from its last entry: keys 4, 6, 8 … plies back up to the entry's span.
/// Returns the nearest distance and the number of matches; adds the comparisons made to
/// `comparisons`.
#[inline]
pub fn scan_keys(line: &Line, comparisons: &mut u64) -> Option<Repetition> {
    let entries = line.entries();
    let cur = entries.len() - 1;
    let last = &entries[cur];
    let span = last.span() as usize;
    let mut found: Option<Repetition> = None;
    let mut back = 4;
    while back <= span {
        *comparisons += 1;
        if entries[cur - back].key == last.key {
            match &mut found {
                Some(rep) => rep.earlier += 1,
                None => {
                    found = Some(Repetition {
                        distance: back as u32,
                        earlier: 1,
                    })
                }
            }
        }
        back += 2;
    }
    found
}

impl Detector for LinearDetector {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn clear(&mut self, _capacity: usize) {
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        let found = scan_keys(line, &mut self.stats.comparisons);
        if found.is_some() {
            self.stats.hits += 1;
        }
        found
    }

    #[inline]
    fn enter(&mut self, _line: &Line, _pos: &Position) {}

    #[inline]
    fn leave(&mut self, _line: &Line, _pos: &Position) {}

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        0
    }
}
