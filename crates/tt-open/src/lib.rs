#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};

/// Default number of index bits (2²⁰ entries).
pub const DEFAULT_BITS: u32 = 20;

const OPEN: u64 = 1 << 63;

/// A transposition-table-shaped entry: key, and a data word laid out as
/// `open:1 | generation:15 | depth:8 | score:16 | ply:24` (depth and score stay zero here: the
/// table is dedicated to repetition detection, but keeps a real TT entry's size).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Entry {
    key: u64,
    data: u64,
}

impl Entry {
    #[inline]
    fn generation(&self) -> u16 {
        ((self.data >> 48) & 0x7fff) as u16
    }
    #[inline]
    fn ply(&self) -> u32 {
        (self.data & 0xff_ffff) as u32
    }
}

/// Thompson's open-flag detector.
#[derive(Clone, Debug)]
pub struct TtOpenDetector {
    table: Box<[Entry]>,
    mask: u64,
    generation: u16,
    /// Per entered position: whether it wrote (and so must close) its entry.
    wrote: Vec<bool>,
    stats: Stats,
}

impl Default for TtOpenDetector {
    fn default() -> Self {
        Self::with_bits(DEFAULT_BITS)
    }
}

impl TtOpenDetector {
    /// The detector with 2²⁰ entries.
    pub fn new() -> Self {
        Self::default()
    }

    /// A detector with 2^`bits` entries.
    pub fn with_bits(bits: u32) -> Self {
        TtOpenDetector {
            table: vec![Entry::default(); 1 << bits].into_boxed_slice(),
            mask: (1u64 << bits) - 1,
            generation: 1,
            wrote: Vec::new(),
            stats: Stats::default(),
        }
    }

    #[inline]
    fn is_open(&self, e: &Entry) -> bool {
        e.data & OPEN != 0 && e.generation() == self.generation
    }
}

impl Detector for TtOpenDetector {
    fn name(&self) -> &'static str {
        "tt-open"
    }

    fn clear(&mut self, capacity: usize) {
        self.generation = (self.generation + 1) & 0x7fff;
        if self.generation == 0 {
            self.table.fill(Entry::default());
            self.generation = 1;
        }
        self.wrote.clear();
        self.wrote.reserve(capacity);
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        self.stats.comparisons += 1;
        let key = line.last().key;
        let e = self.table[(key & self.mask) as usize];
        let distance = (line.current_index() as u32).wrapping_sub(e.ply()) & 0xff_ffff;
        // Null moves are barriers: an open entry from before the last null move does not count.
        if e.key == key && self.is_open(&e) && distance <= line.last().since_null {
            self.stats.hits += 1;
            Some(Repetition {
                distance,
                earlier: 1,
            })
        } else {
            None
        }
    }

    #[inline]
    fn enter(&mut self, line: &Line, _pos: &Position) {
        let key = line.last().key;
        let i = (key & self.mask) as usize;
        let e = self.table[i];
        if self.is_open(&e) {
            if e.key != key {
                self.stats.collisions += 1;
                self.stats.misses += 1;
            }
            self.wrote.push(false);
            return;
        }
        self.table[i] = Entry {
            key,
            data: OPEN | (self.generation as u64) << 48 | (line.current_index() as u64 & 0xff_ffff),
        };
        self.wrote.push(true);
    }

    #[inline]
    fn leave(&mut self, line: &Line, _pos: &Position) {
        if self.wrote.pop() == Some(true) {
            let i = (line.last().key & self.mask) as usize;
            self.table[i].data &= !OPEN;
        }
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<Entry>()
    }
}
