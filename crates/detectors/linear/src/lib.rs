#![doc = include_str!("../README.md")]

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats, key_mask};

/// Linear key-list detector (Stanback/Zarkov; Stockfish).
#[derive(Clone, Debug)]
pub struct LinearDetector {
    stats: Stats,
    /// The bits of each key compared ([`key_mask`]; all 64 by default).
    key_mask: u64,
}

impl Default for LinearDetector {
    fn default() -> Self {
        LinearDetector {
            stats: Stats::default(),
            key_mask: u64::MAX,
        }
    }
}

impl LinearDetector {
    /// A new detector.
    pub fn new() -> Self {
        Self::default()
    }

    /// A detector comparing only the low `bits` bits of each key (Zarkov kept 32), for the
    /// key-width experiment ([`Detector::set_key_bits`]); 64 is [`LinearDetector::new`].
    pub fn with_key_bits(bits: u32) -> Self {
        LinearDetector {
            key_mask: key_mask(bits),
            ..Self::default()
        }
    }
}

/// Scans `line` back from its last entry: keys 4, 6, 8 … plies back up to the entry's span.
/// Returns the nearest distance and the number of matches; adds the comparisons made to
/// `comparisons`.
#[inline]
pub fn scan_keys(line: &Line, comparisons: &mut u64) -> Option<Repetition> {
    scan_keys_masked(line, u64::MAX, comparisons)
}

/// [`scan_keys`] comparing only the key bits in `mask` ([`key_mask`]): two keys match when
/// `(a ^ b) & mask == 0`. With `u64::MAX` it is [`scan_keys`].
#[inline]
pub fn scan_keys_masked(line: &Line, mask: u64, comparisons: &mut u64) -> Option<Repetition> {
    let entries = line.entries();
    let cur = entries.len() - 1;
    let last = &entries[cur];
    let span = last.span() as usize;
    let mut found: Option<Repetition> = None;
    let mut back = 4;
    while back <= span {
        *comparisons += 1;
        if (entries[cur - back].key ^ last.key) & mask == 0 {
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
        let found = scan_keys_masked(line, self.key_mask, &mut self.stats.comparisons);
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

    fn set_key_bits(&mut self, bits: u32) -> bool {
        self.key_mask = key_mask(bits);
        true
    }
}
