#![doc = include_str!("../README.md")]

use replab_board::Position;
use replab_detect::{
    Detector, Line, Repetition, Stats, key_mask,
    shared::{OwnPairs, PairTable, SharedPairs, Sharing},
};

/// Default number of slots.
pub const DEFAULT_SLOTS: usize = 1024;

/// Which game-history positions go into the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HistoryRule {
    /// Gerbil's rule (`filo`): when the search starts, only the history positions that occurred
    /// at least twice stay in the table, plus the root; a position that occurred once in the
    /// game and recurs in the search is not seen.
    #[default]
    Repeated,
    /// Every history position stays in the table (`filo-all-history`).
    All,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    /// Line index of the newest occurrence in the table.
    ply: u32,
    /// Occurrences of the key in the table (the newest one included).
    count: u32,
}

impl Slot {
    /// The slot stored as `[key, ply | count << 32]`.
    #[inline(always)]
    fn of([key, rest]: [u64; 2]) -> Slot {
        Slot {
            key,
            ply: rest as u32,
            count: (rest >> 32) as u32,
        }
    }

    /// The second word: `ply | count << 32`.
    #[inline(always)]
    fn rest(ply: u32, count: u32) -> u64 {
        u64::from(ply) | u64::from(count) << 32
    }
}

/// What `leave` must undo for one position entered in the search.
#[derive(Clone, Copy, Debug)]
struct Undo {
    /// The slot written, or `u32::MAX` if nothing was (a full table).
    slot: u32,
    /// The slot's `ply` and `count` before an update of a key already in the table; a `count`
    /// of 0 means the key was inserted and `leave` empties the slot again (`VClearRep`).
    ply: u32,
    count: u32,
}

/// The Gerbil first-in last-out key table, on its own slots (`P` = [`OwnPairs`], the default)
/// or on slots shared with the same detector on other search threads
/// ([`FiloDetector::shared`]).
#[derive(Clone, Debug)]
pub struct FiloDetector<P: PairTable = OwnPairs> {
    slots: P,
    mask: usize,
    rule: HistoryRule,
    /// Per position entered in the search (past the root), in entering order.
    undo: Vec<Undo>,
    /// Scratch room for the history keys kept when the table is filtered (one per slot).
    kept: Vec<Slot>,
    /// Game history has been entered since the table was last filtered ([`HistoryRule::Repeated`]).
    unfiltered: bool,
    /// The table has been filtered, so it no longer holds every history position.
    filtered: bool,
    /// The bits of each key stored and compared ([`key_mask`]; all 64 by default).
    key_mask: u64,
    stats: Stats,
}

impl Default for FiloDetector {
    fn default() -> Self {
        Self::with_slots(DEFAULT_SLOTS)
    }
}

impl FiloDetector {
    /// The detector with Gerbil's history rule and [`DEFAULT_SLOTS`] slots storing only the
    /// low `bits` bits of each key (the key-width experiment, [`Detector::set_key_bits`]); 64
    /// is [`FiloDetector::new`].
    pub fn with_key_bits(bits: u32) -> Self {
        let mut d = Self::new();
        d.key_mask = key_mask(bits);
        d
    }

    /// The detector with [`DEFAULT_SLOTS`] slots and Gerbil's history rule (`filo`).
    pub fn new() -> Self {
        Self::default()
    }

    /// The detector with [`DEFAULT_SLOTS`] slots that keeps every history position
    /// (`filo-all-history`).
    pub fn all_history() -> Self {
        Self::with_slots_and_rule(DEFAULT_SLOTS, HistoryRule::All)
    }

    /// A detector with `slots` slots (rounded up to a power of two, at least 2) and Gerbil's
    /// history rule.
    pub fn with_slots(slots: usize) -> Self {
        Self::with_slots_and_rule(slots, HistoryRule::Repeated)
    }

    /// A detector with `slots` slots (rounded up to a power of two, at least 2) and the given
    /// history rule.
    pub fn with_slots_and_rule(slots: usize, rule: HistoryRule) -> Self {
        Self::on(OwnPairs::new(slots.max(2).next_power_of_two()), rule)
    }
}

impl FiloDetector<SharedPairs> {
    /// The detector on slots shared with the same detector on other threads (Lazy SMP; see
    /// [`replab_detect::shared`]), with the history `rule`. Through the loader handle it clears
    /// the table and enters the game history as it would alone (then call
    /// [`FiloDetector::finish_history`] to apply Gerbil's history rule before the search);
    /// through a follower handle ([`SharedPairs::follower`]) it does neither, and enters and
    /// leaves only its own search line's positions. Every thread's line is in the one table,
    /// and the strictly last-in first-out order that linear probing without tombstones needs
    /// holds per thread only. The table's length must be a power of two, at least 2.
    ///
    /// # Panics
    /// If the table's length is not a power of two of at least 2.
    pub fn shared(slots: SharedPairs, rule: HistoryRule) -> Self {
        assert!(
            slots.len() >= 2 && slots.len().is_power_of_two(),
            "a power-of-two table of at least 2 slots"
        );
        Self::on(slots, rule)
    }

    /// The loader's last step before the threads search: applies the history rule (Gerbil's
    /// keeps only the history positions seen twice, and the root) to the history entered, as
    /// a detector alone does when its search starts. `line` is the loaded game, the root last.
    pub fn finish_history(&mut self, line: &Line) {
        if self.unfiltered {
            self.filter_history(line);
        }
    }
}

impl<P: PairTable> FiloDetector<P> {
    /// The detector on `slots` (a power-of-two length).
    fn on(slots: P, rule: HistoryRule) -> Self {
        let n = slots.len();
        FiloDetector {
            slots,
            mask: n - 1,
            rule,
            undo: Vec::new(),
            kept: Vec::with_capacity(n),
            unfiltered: false,
            filtered: false,
            key_mask: u64::MAX,
            stats: Stats::default(),
        }
    }

    /// The history rule.
    pub fn history_rule(&self) -> HistoryRule {
        self.rule
    }

    /// Slot `i`.
    #[inline(always)]
    fn slot(&self, i: usize) -> Slot {
        Slot::of(self.slots.get(i))
    }

    /// Sets the newest ply and the count of slot `i`, which holds `key`.
    #[inline(always)]
    fn set_ply_count(&mut self, i: usize, key: u64, ply: u32, count: u32) {
        self.slots.set_second(i, key, Slot::rest(ply, count));
    }

    /// `FRepSet`: the slot holding `key`, if any.
    #[inline]
    fn find(&mut self, key: u64) -> Option<usize> {
        let mut i = key as usize & self.mask;
        for _ in 0..self.slots.len() {
            self.stats.comparisons += 1;
            let k = self.slots.get(i)[0];
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

    /// `VSetRep`: inserts `slot` at the first empty slot from its home slot; `None` if the
    /// table is full.
    #[inline]
    fn insert(&mut self, slot: Slot) -> Option<usize> {
        let home = slot.key as usize & self.mask;
        let mut i = home;
        for _ in 0..self.slots.len() {
            if self.slots.get(i)[0] == 0 {
                if i != home {
                    self.stats.collisions += 1;
                }
                self.slots
                    .set(i, [slot.key, Slot::rest(slot.ply, slot.count)]);
                return Some(i);
            }
            i = (i + 1) & self.mask;
        }
        self.stats.misses += 1;
        None
    }

    /// Records the line's last position: a new occurrence of a key in the table updates its
    /// slot (newest ply, one more occurrence, or a fresh count past a null move), any other key
    /// is inserted. Returns what `leave` would undo.
    #[inline]
    fn record(&mut self, line: &Line) -> Undo {
        let last = line.last();
        let key = last.key & self.key_mask;
        let ply = line.current_index() as u32;
        if let Some(i) = self.find(key) {
            let old = self.slot(i);
            let count = if ply.wrapping_sub(old.ply) <= last.span() {
                old.count + 1
            } else {
                1
            };
            self.set_ply_count(i, key, ply, count);
            return Undo {
                slot: i as u32,
                ply: old.ply,
                count: old.count,
            };
        }
        let slot = Slot { key, ply, count: 1 };
        match self.insert(slot) {
            Some(i) => Undo {
                slot: i as u32,
                ply: 0,
                count: 0,
            },
            None => Undo {
                slot: u32::MAX,
                ply: 0,
                count: 0,
            },
        }
    }

    /// Enters a game-history position (at or before the root): every one goes in, and a
    /// capture, pawn move or null move empties the table first (nothing earlier can recur).
    fn enter_history(&mut self, line: &Line) {
        if self.filtered {
            // History after a search: the filter dropped single occurrences, so rebuild the
            // history from the line before counting this one.
            self.reload_history(line);
        }
        if line.last().span() == 0 {
            self.slots.fill_zero();
        }
        self.record(line);
        self.unfiltered = self.rule == HistoryRule::Repeated;
    }

    /// Refills the table with the history positions before the line's last one that lie within
    /// its scan span, as [`FiloDetector::enter_history`] entered them.
    #[cold]
    fn reload_history(&mut self, line: &Line) {
        self.slots.fill_zero();
        self.filtered = false;
        let cur = line.current_index();
        let span = (line.last().span() as usize).min(cur);
        let entries = line.entries();
        for j in cur - span..cur {
            let key = entries[j].key & self.key_mask;
            // Occurrences of the key from the window's start to j, j included.
            let count = (cur - span..=j)
                .filter(|&k| entries[k].key & self.key_mask == key)
                .count() as u32;
            match self.find(key) {
                Some(i) => self.set_ply_count(i, key, j as u32, count),
                None => {
                    self.insert(Slot {
                        key,
                        ply: j as u32,
                        count,
                    });
                }
            }
        }
    }

    /// Gerbil's history rule, applied when the search starts (the first position past the
    /// root): only history positions that occurred at least twice stay, and the root (the
    /// search's first position, which Gerbil's search enters).
    #[cold]
    fn filter_history(&mut self, line: &Line) {
        let root_key = line.entries()[line.root()].key & self.key_mask;
        self.kept.clear();
        let slots = &self.slots;
        self.kept.extend(
            (0..slots.len())
                .map(|i| Slot::of(slots.get(i)))
                .filter(|s| s.key != 0 && (s.count >= 2 || s.key == root_key)),
        );
        self.slots.fill_zero();
        for k in 0..self.kept.len() {
            let slot = self.kept[k];
            self.insert(slot);
        }
        self.unfiltered = false;
        self.filtered = true;
    }
}

impl<P: PairTable> Detector for FiloDetector<P> {
    fn name(&self) -> &'static str {
        match self.rule {
            HistoryRule::Repeated => "filo",
            HistoryRule::All => "filo-all-history",
        }
    }

    fn clear(&mut self, capacity: usize) {
        // A follower finds the shared table cleared and loaded by the loader.
        if self.slots.sharing() != Sharing::Follower {
            self.slots.fill_zero();
        }
        self.undo.clear();
        self.undo.reserve(capacity);
        self.kept.reserve(self.slots.len());
        self.unfiltered = false;
        self.filtered = false;
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        if self.unfiltered && line.current_index() > line.root() {
            self.filter_history(line);
        }
        self.stats.probes += 1;
        let slot = self.find(line.last().key & self.key_mask)?;
        let Slot { ply, count, .. } = self.slot(slot);
        // Wrapping: in a shared table the slot may hold another thread's deeper ply, which
        // lies beyond any span (alone, the stored ply is never past the current one).
        let distance = (line.current_index() as u32).wrapping_sub(ply);
        if distance > line.last().span() {
            // Null moves are barriers for every replab detector (Gerbil let repetitions span
            // them); the stored ply tells which side of the barrier the entry is on.
            return None;
        }
        self.stats.hits += 1;
        Some(Repetition {
            distance,
            earlier: count,
        })
    }

    #[inline]
    fn enter(&mut self, line: &Line, _pos: &Position) {
        if line.current_index() <= line.root() {
            // A follower finds the history entered by the loader.
            if self.slots.sharing() != Sharing::Follower {
                self.enter_history(line);
            }
            return;
        }
        if self.unfiltered {
            self.filter_history(line);
        }
        let undo = self.record(line);
        self.undo.push(undo);
    }

    #[inline]
    fn leave(&mut self, _line: &Line, _pos: &Position) {
        // `VClearRep`: LIFO order makes the recorded slot hold the key entered last.
        if let Some(u) = self.undo.pop()
            && u.slot != u32::MAX
        {
            let i = u.slot as usize;
            if u.count == 0 {
                self.slots.set(i, [0, 0]);
            } else {
                let key = self.slots.get(i)[0];
                self.set_ply_count(i, key, u.ply, u.count);
            }
        }
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    /// The slots' bytes (a follower of a shared table: none of its own).
    fn memory_bytes(&self) -> usize {
        match self.slots.sharing() {
            Sharing::Follower => 0,
            _ => self.slots.memory_bytes(),
        }
    }

    fn set_key_bits(&mut self, bits: u32) -> bool {
        self.key_mask = key_mask(bits);
        true
    }
}
