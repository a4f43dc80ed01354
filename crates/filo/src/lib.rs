#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};

/// Default number of slots.
pub const DEFAULT_SLOTS: usize = 1024;

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    ply: u32,
}

/// The Gerbil first-in last-out key table.
#[derive(Clone, Debug)]
pub struct FiloDetector {
    slots: Box<[Slot]>,
    mask: usize,
    /// Per entered position: the slot it was inserted at, or `u32::MAX` if it was not.
    inserted: Vec<u32>,
    stats: Stats,
}

impl Default for FiloDetector {
    fn default() -> Self {
        Self::with_slots(DEFAULT_SLOTS)
    }
}

impl FiloDetector {
    /// The detector with [`DEFAULT_SLOTS`] slots.
    pub fn new() -> Self {
        Self::default()
    }

    /// A detector with `slots` slots (rounded up to a power of two, at least 2).
    pub fn with_slots(slots: usize) -> Self {
        let n = slots.max(2).next_power_of_two();
        FiloDetector {
            slots: vec![Slot::default(); n].into_boxed_slice(),
            mask: n - 1,
            inserted: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// `FRepSet`: the slot holding `key`, if any.
    #[inline]
    fn find(&mut self, key: u64) -> Option<usize> {
        let mut i = key as usize & self.mask;
        for _ in 0..self.slots.len() {
            self.stats.comparisons += 1;
            let k = self.slots[i].key;
            if k == key {
                return Some(i);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & self.mask;
        }
        None
    }
}

impl Detector for FiloDetector {
    fn name(&self) -> &'static str {
        "filo"
    }

    fn clear(&mut self, capacity: usize) {
        self.slots.fill(Slot::default());
        self.inserted.clear();
        self.inserted.reserve(capacity);
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        let slot = self.find(line.last().key)?;
        let distance = line.current_index() as u32 - self.slots[slot].ply;
        if distance > line.last().since_null {
            // Null moves are barriers for every replab detector (Gerbil let repetitions span
            // them); the stored ply tells which side of the barrier the entry is on.
            return None;
        }
        self.stats.hits += 1;
        Some(Repetition {
            distance,
            earlier: 1,
        })
    }

    #[inline]
    fn enter(&mut self, line: &Line, _pos: &Position) {
        let last = line.last();
        if line.current_index() <= line.root() && last.span() == 0 {
            // Game history after a capture, pawn move or null move: nothing earlier can recur.
            self.slots.fill(Slot::default());
        }
        let key = last.key;
        if self.find(key).is_some() {
            self.inserted.push(u32::MAX);
            return;
        }
        // `VSetRep`: the first empty slot from the home slot.
        let home = key as usize & self.mask;
        let mut i = home;
        for _ in 0..self.slots.len() {
            if self.slots[i].key == 0 {
                if i != home {
                    self.stats.collisions += 1;
                }
                self.slots[i] = Slot {
                    key,
                    ply: line.current_index() as u32,
                };
                self.inserted.push(i as u32);
                return;
            }
            i = (i + 1) & self.mask;
        }
        self.stats.misses += 1;
        self.inserted.push(u32::MAX);
    }

    #[inline]
    fn leave(&mut self, _line: &Line, _pos: &Position) {
        // `VClearRep`: LIFO order makes the recorded slot the first one holding the key.
        if let Some(i) = self.inserted.pop()
            && i != u32::MAX
        {
            self.slots[i as usize] = Slot::default();
        }
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }
}
