#![doc = include_str!("../README.md")]

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats, key_mask};
use replab_linear::scan_keys_masked;

/// Number of index bits of the counter table.
pub const INDEX_BITS: u32 = 14;

/// The Rookie counting-filter detector.
#[derive(Clone, Debug)]
pub struct RookieDetector {
    counters: Box<[u8]>,
    saved: Vec<u8>,
    mask: u64,
    /// The bits of each key used, for the counter index and the back-trace ([`key_mask`]; all
    /// 64 by default).
    key_mask: u64,
    stats: Stats,
}

impl Default for RookieDetector {
    fn default() -> Self {
        Self::with_bits(INDEX_BITS)
    }
}

impl RookieDetector {
    /// The detector with Rookie's 2¹⁴ counters.
    pub fn new() -> Self {
        Self::default()
    }

    /// A detector with 2^`bits` counters (for the table-size experiments).
    pub fn with_bits(bits: u32) -> Self {
        RookieDetector {
            counters: vec![0u8; 1 << bits].into_boxed_slice(),
            saved: Vec::new(),
            mask: (1u64 << bits) - 1,
            key_mask: u64::MAX,
            stats: Stats::default(),
        }
    }

    /// The detector with Rookie's 2¹⁴ counters comparing only the low `bits` bits of each key
    /// (the key-width experiment, [`Detector::set_key_bits`]); 64 is [`RookieDetector::new`].
    pub fn with_key_bits(bits: u32) -> Self {
        let mut d = Self::new();
        d.key_mask = key_mask(bits);
        d
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key & self.key_mask & self.mask) as usize
    }
}

impl Detector for RookieDetector {
    fn name(&self) -> &'static str {
        "rookie"
    }

    fn clear(&mut self, capacity: usize) {
        self.counters.fill(0);
        self.saved.clear();
        self.saved.reserve(capacity);
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        if self.counters[self.index(line.last().key)] == 0 {
            return None;
        }
        let found = scan_keys_masked(line, self.key_mask, &mut self.stats.comparisons);
        if found.is_some() {
            self.stats.verified += 1;
            self.stats.hits += 1;
        } else {
            self.stats.futile += 1;
        }
        found
    }

    #[inline]
    fn enter(&mut self, line: &Line, _pos: &Position) {
        let i = self.index(line.last().key);
        let c = self.counters[i];
        if c != 0 {
            self.stats.collisions += 1;
        }
        self.saved.push(c);
        self.counters[i] = c.saturating_add(1);
    }

    #[inline]
    fn leave(&mut self, line: &Line, _pos: &Position) {
        let i = self.index(line.last().key);
        if let Some(c) = self.saved.pop() {
            self.counters[i] = c;
        }
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.counters.len() + self.saved.capacity()
    }

    fn set_key_bits(&mut self, bits: u32) -> bool {
        self.key_mask = key_mask(bits);
        true
    }
}
