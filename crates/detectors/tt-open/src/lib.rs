#![doc = include_str!("../README.md")]

use replab_board::Position;
use replab_detect::{
    Detector, Line, Repetition, Stats, key_mask,
    shared::{OwnPairs, PairTable, SharedPairs, Sharing},
};

/// Default number of index bits (2²⁰ entries).
pub const DEFAULT_BITS: u32 = 20;

const OPEN: u64 = 1 << 63;

/// A transposition-table-shaped entry: key, and a data word laid out as
/// `open:1 | generation:15 | depth:8 | score:16 | ply:24`. The table is dedicated to repetition
/// detection but keeps a real TT entry's size; depth stays zero and the score field holds the
/// number of occurrences of the open key (the newest one included), saturating at 65,535.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Entry {
    key: u64,
    data: u64,
}

impl Entry {
    #[inline(always)]
    fn of([key, data]: [u64; 2]) -> Entry {
        Entry { key, data }
    }
    #[inline]
    fn generation(&self) -> u16 {
        ((self.data >> 48) & 0x7fff) as u16
    }
    #[inline]
    fn ply(&self) -> u32 {
        (self.data & 0xff_ffff) as u32
    }
    #[inline]
    fn count(&self) -> u32 {
        ((self.data >> 24) & 0xffff) as u32
    }
}

const COUNT_SHIFT: u32 = 24;
const COUNT_MASK: u64 = 0xffff << COUNT_SHIFT;

/// What `leave` must undo for one entered position.
#[derive(Clone, Copy, Debug)]
struct Undo {
    /// The slot written, or `u32::MAX` if nothing was written (a miss).
    slot: u32,
    /// The slot's data word before the write if it held an open entry of the same key (an
    /// earlier occurrence, restored on leave); 0 if the write opened a fresh entry (its open flag
    /// is cleared on leave).
    previous: u64,
}

/// Thompson's open-flag detector, on its own table (`P` = [`OwnPairs`], the default) or on one
/// shared with the same detector on other search threads ([`TtOpenDetector::shared`]).
#[derive(Clone, Debug)]
pub struct TtOpenDetector<P: PairTable = OwnPairs> {
    table: P,
    mask: u64,
    generation: u16,
    /// Per entered position, in entering order: what its `leave` restores.
    undo: Vec<Undo>,
    /// The bits of each key stored, compared and indexed with ([`key_mask`]; all 64 by
    /// default).
    key_mask: u64,
    stats: Stats,
}

impl Default for TtOpenDetector {
    fn default() -> Self {
        Self::with_bits(DEFAULT_BITS)
    }
}

impl TtOpenDetector {
    /// The detector with 2²⁰ entries storing only the low `bits` bits of each key (the
    /// key-width experiment, [`Detector::set_key_bits`]); 64 is [`TtOpenDetector::new`].
    pub fn with_key_bits(bits: u32) -> Self {
        let mut d = Self::new();
        d.key_mask = key_mask(bits);
        d
    }

    /// The detector with 2²⁰ entries.
    pub fn new() -> Self {
        Self::default()
    }

    /// A detector with 2^`bits` entries.
    pub fn with_bits(bits: u32) -> Self {
        Self::on(OwnPairs::new(1 << bits))
    }
}

impl TtOpenDetector<SharedPairs> {
    /// The detector on a table shared with the same detector on other threads (Lazy SMP; see
    /// [`replab_detect::shared`]). Through the loader handle it clears the table and enters
    /// the game history as it would alone; through a follower handle
    /// ([`SharedPairs::follower`]) it does neither — the loader has done both before the
    /// search — and enters and leaves only its own search line. The open flags of every
    /// thread's line are in the one table, so a probe sees the open positions of the other
    /// threads' lines as well as its own (Moreland's warning). The table's length must be a
    /// power of two.
    ///
    /// # Panics
    /// If the table's length is not a power of two.
    pub fn shared(table: SharedPairs) -> Self {
        assert!(table.len().is_power_of_two(), "a power-of-two table");
        Self::on(table)
    }
}

impl<P: PairTable> TtOpenDetector<P> {
    /// The detector on `table` (a power-of-two length).
    fn on(table: P) -> Self {
        TtOpenDetector {
            mask: table.len() as u64 - 1,
            table,
            generation: 1,
            undo: Vec::new(),
            key_mask: u64::MAX,
            stats: Stats::default(),
        }
    }

    #[inline]
    fn is_open(&self, e: &Entry) -> bool {
        e.data & OPEN != 0 && e.generation() == self.generation
    }
}

impl<P: PairTable> Detector for TtOpenDetector<P> {
    fn name(&self) -> &'static str {
        "tt-open"
    }

    fn clear(&mut self, capacity: usize) {
        match self.table.sharing() {
            Sharing::Own => {
                self.generation = (self.generation + 1) & 0x7fff;
                if self.generation == 0 {
                    self.table.fill_zero();
                    self.generation = 1;
                }
            }
            // A shared table has one generation; the loader empties it before each search.
            Sharing::Loader => {
                self.table.fill_zero();
                self.generation = 1;
            }
            Sharing::Follower => self.generation = 1,
        }
        self.undo.clear();
        self.undo.reserve(capacity);
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        self.stats.comparisons += 1;
        let key = line.last().key & self.key_mask;
        let e = Entry::of(self.table.get((key & self.mask) as usize));
        let distance = (line.current_index() as u32).wrapping_sub(e.ply()) & 0xff_ffff;
        // The entry holds the newest open occurrence and their count. Null moves are barriers:
        // an occurrence from before the last null move (or the last capture or pawn move) does
        // not count.
        if e.key == key && self.is_open(&e) && distance <= line.last().span() {
            self.stats.hits += 1;
            Some(Repetition {
                distance,
                earlier: e.count(),
            })
        } else {
            None
        }
    }

    #[inline]
    fn enter(&mut self, line: &Line, _pos: &Position) {
        if self.table.sharing() == Sharing::Follower && line.current_index() <= line.root() {
            // The loader entered the game history (never left: no undo needed).
            return;
        }
        let key = line.last().key & self.key_mask;
        let index = line.current_index() as u64 & 0xff_ffff;
        let i = (key & self.mask) as usize;
        let e = Entry::of(self.table.get(i));
        let fresh = OPEN | (self.generation as u64) << 48 | 1 << COUNT_SHIFT | index;
        if self.is_open(&e) {
            if e.key != key {
                // Another open position holds the slot: this one is not recorded.
                self.stats.collisions += 1;
                self.stats.misses += 1;
                self.undo.push(Undo {
                    slot: u32::MAX,
                    previous: 0,
                });
                return;
            }
            // A newer occurrence of an open position: the entry remembers it and the count, and
            // `leave` restores the older one. An occurrence beyond the scan span (before a null
            // move) is not counted.
            let distance = (index as u32).wrapping_sub(e.ply()) & 0xff_ffff;
            let count = if distance <= line.last().span() {
                (e.count() + 1).min(0xffff) as u64
            } else {
                1
            };
            self.table
                .set_second(i, key, (fresh & !COUNT_MASK) | count << COUNT_SHIFT);
            self.undo.push(Undo {
                slot: i as u32,
                previous: e.data,
            });
            return;
        }
        self.table.set(i, [key, fresh]);
        self.undo.push(Undo {
            slot: i as u32,
            previous: 0,
        });
    }

    #[inline]
    fn leave(&mut self, _line: &Line, _pos: &Position) {
        match self.undo.pop() {
            Some(Undo { slot, previous }) if slot != u32::MAX => {
                let i = slot as usize;
                let [key, data] = self.table.get(i);
                self.table.set_second(
                    i,
                    key,
                    if previous == 0 {
                        data & !OPEN
                    } else {
                        previous
                    },
                );
            }
            _ => {}
        }
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    /// The table's bytes (a follower of a shared table: none of its own).
    fn memory_bytes(&self) -> usize {
        match self.table.sharing() {
            Sharing::Follower => 0,
            _ => self.table.memory_bytes(),
        }
    }

    fn set_key_bits(&mut self, bits: u32) -> bool {
        self.key_mask = key_mask(bits);
        true
    }
}
