//! The transposition table: one 16-byte entry per slot, indexed by the low key bits. Either
//! the searcher's own ([`LocalTable`], the default) or one shared by several searchers running
//! in parallel ([`SharedTable`], Lazy SMP), behind the sealed [`Table`] trait so that the
//! searcher is compiled once per kind and the default path keeps its plain loads and stores.

use std::sync::{
    Arc,
    atomic::{AtomicU64, Ordering},
};

use replab_board::Move;

use crate::score::MATE_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// One slot: the full key, the best or refuting move, the score, the draft (clamped to ±100, so
/// one byte) and the bound; plus the mark word of a detector that keeps its open flags in the
/// table (`tt-thompson`), which stores never touch.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    depth: i8,
    bound: u8,
    mark: u16,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// Taint bit of an entry (in the bound byte, above the two bound bits): its score was affected by
/// a repetition draw (scored by the policy, or alpha raised by an upcoming cycle) somewhere in the
/// subtree searched to produce it, or reused from an entry so tainted.
pub(crate) const TAINT_REPETITION: u8 = 4;
/// Taint bit: the score was affected by a fifty-move draw (scored in its subtree or reused).
pub(crate) const TAINT_FIFTY: u8 = 8;

/// Where the search generation sits in an entry's bound byte (above the bound and taint bits):
/// four bits, so generations count modulo 16. Stores pass it in with the taint bits.
pub(crate) const GENERATION_SHIFT: u8 = 4;

/// The draft of an entry without a usable score: below every stored draft (those are clamped to
/// ±100) and every searched depth.
const NO_DRAFT: i8 = i8::MIN;

impl Entry {
    /// The stored move ([`Move::NULL`] if none).
    #[inline]
    pub(crate) fn mv(&self) -> Move {
        Move::from_bits(self.mv)
    }

    /// The draft the score was searched to.
    #[inline]
    pub(crate) fn depth(&self) -> i32 {
        i32::from(self.depth)
    }

    /// The bound kind.
    #[inline]
    pub(crate) fn bound(&self) -> Bound {
        match self.bound & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }

    /// A search result for `key` as both kinds of table store it (mark 0): mate scores made
    /// relative to the node `ply` plies below the root, the draft clamped to ±100, the taint
    /// bits beside the bound.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn result(
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: u16,
        ply: usize,
        taint: u8,
    ) -> Entry {
        let stored = if score >= MATE_BOUND {
            score + ply as i32
        } else if score <= -MATE_BOUND {
            score - ply as i32
        } else {
            score
        };
        Entry {
            key,
            mv,
            score: stored as i16,
            depth: depth.clamp(-100, 100) as i8,
            bound: bound as u8 | taint,
            mark: 0,
        }
    }

    /// The search generation the entry was stored in (engine profile; 0 in the paper
    /// profile): the bound byte's top four bits ([`GENERATION_SHIFT`]).
    #[inline]
    pub(crate) fn generation(&self) -> u8 {
        self.bound >> GENERATION_SHIFT
    }

    /// Whether this entry should stay rather than give way to a new result for `key` of draft
    /// `depth` stored in `generation` (the engine profile's replacement rule; the paper
    /// profile always replaces): an entry of another position, stored in the current
    /// generation with a usable draft more than two plies deeper, stays.
    #[inline]
    pub(crate) fn outranks(&self, key: u64, depth: i32, generation: u8) -> bool {
        self.bound != 0
            && self.key != key
            && self.generation() == generation
            && self.depth != NO_DRAFT
            && i32::from(self.depth) > depth + 2
    }

    /// The taint bits ([`TAINT_REPETITION`], [`TAINT_FIFTY`]) of the stored score.
    #[inline]
    pub(crate) fn taint(&self) -> u8 {
        self.bound & (TAINT_REPETITION | TAINT_FIFTY)
    }

    /// The score as seen from a node `ply` plies below the root (mate scores are stored
    /// relative to the node, not the root).
    #[inline]
    pub(crate) fn score(&self, ply: usize) -> i32 {
        let s = i32::from(self.score);
        if s >= MATE_BOUND {
            s - ply as i32
        } else if s <= -MATE_BOUND {
            s + ply as i32
        } else {
            s
        }
    }
}

/// The searcher's own table of 2^`bits` entries (the default [`Table`]). Always-replace: the
/// newest search result wins, which keeps the table a pure function of the search path
/// (deterministic).
///
/// The table lists the slots written since it was last empty, up to one in
/// [`WRITTEN_LIST_SHARE`] of its slots: a search that wrote fewer is forgotten by zeroing those
/// slots alone ([`LocalTable::clear_written`]), not all 2^`bits` (the paper profile forgets the
/// table before every search, and most of its searches write a few thousand slots of a
/// million).
#[derive(Clone, Debug)]
pub struct LocalTable {
    entries: Box<[Entry]>,
    mask: u64,
    /// The indices of the slots written since the table was last empty, in the first
    /// `written` places while `written` fits; past it, the slots are not listed.
    written_slots: Box<[u32]>,
    /// How many writes since the table was last empty (a slot written twice counts twice).
    written: usize,
}

/// One slot in this many gets a place in the list of written slots: past it, zeroing the whole
/// table (one sequential pass) is about as quick as zeroing the listed slots one by one.
pub const WRITTEN_LIST_SHARE: usize = 16;

impl LocalTable {
    /// A zeroed table of 2^`bits` entries.
    pub(crate) fn new(bits: u32) -> LocalTable {
        let slots = 1usize << bits;
        LocalTable {
            entries: vec![Entry::default(); slots].into_boxed_slice(),
            mask: (1u64 << bits) - 1,
            // Indices are listed as u32: a larger table is always zeroed whole.
            written_slots: vec![
                0;
                if bits <= 32 {
                    (slots / WRITTEN_LIST_SHARE).max(1)
                } else {
                    0
                }
            ]
            .into_boxed_slice(),
            written: 0,
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.written = 0;
    }

    /// Forgets every entry, zeroing only the slots written since the table was last empty
    /// when they are all listed (else the whole table).
    pub(crate) fn clear_written(&mut self) {
        match self.written_slots.get(..self.written) {
            Some(listed) => {
                for &i in listed {
                    self.entries[i as usize] = Entry::default();
                }
                self.written = 0;
            }
            None => self.clear(),
        }
    }

    /// The slot of `key`, listed as written.
    #[inline(always)]
    fn slot_to_write(&mut self, key: u64) -> &mut Entry {
        let index = (key & self.mask) as usize;
        if let Some(place) = self.written_slots.get_mut(self.written) {
            *place = index as u32;
        }
        self.written += 1;
        &mut self.entries[index]
    }

    /// Bytes used by the entries (the list of written slots adds one byte in
    /// 4 × [`WRITTEN_LIST_SHARE`]).
    pub(crate) fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.entries)
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[(key & self.mask) as usize];
        (e.key == key && e.bound != 0).then_some(e)
    }

    /// The mark word of the slot of `key` (whatever position the slot's search data is for).
    #[inline(always)]
    pub(crate) fn mark(&self, key: u64) -> u16 {
        self.entries[(key & self.mask) as usize].mark
    }

    /// The mark word of the slot of `key`, to update.
    #[inline(always)]
    pub(crate) fn mark_mut(&mut self, key: u64) -> &mut u16 {
        &mut self.slot_to_write(key).mark
    }

    /// Stores only the best move for `key`, with a draft no search can use (so the entry orders
    /// moves but never cuts off: [`crate::TtMode`]'s withheld scores). The slot's mark is kept.
    #[inline]
    pub(crate) fn store_move(&mut self, key: u64, mv: Move) {
        let slot = self.slot_to_write(key);
        let mv = if mv.is_null() && slot.key == key {
            slot.mv
        } else {
            mv.bits()
        };
        *slot = Entry {
            key,
            mv,
            score: 0,
            depth: NO_DRAFT,
            bound: Bound::Upper as u8,
            mark: slot.mark,
        };
    }

    /// Stores a result for `key` found `ply` plies below the root, with its taint bits (the
    /// slot's mark is kept).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: Move,
        ply: usize,
        taint: u8,
    ) {
        let slot = self.slot_to_write(key);
        // Keep the old move when the new result has none for the same position.
        let mv = if mv.is_null() && slot.key == key {
            slot.mv
        } else {
            mv.bits()
        };
        *slot = Entry {
            mark: slot.mark,
            ..Entry::result(key, depth, score, bound, mv, ply, taint)
        };
    }
}

impl Entry {
    /// The entry's data word (everything but the key): move, score, draft, bound and mark, in
    /// that order from the low bits. The mark takes the top 16 bits ([`MARK_MASK`]).
    #[inline]
    fn data(&self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.depth as u8) << 32
            | u64::from(self.bound) << 40
            | u64::from(self.mark) << MARK_SHIFT
    }

    /// The entry of `key` with the data word `data` ([`Entry::data`]).
    #[inline]
    fn from_data(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8 as i8,
            bound: (data >> 40) as u8,
            mark: (data >> MARK_SHIFT) as u16,
        }
    }
}

/// Where the mark word sits in a data word.
const MARK_SHIFT: u32 = 48;
/// The mark word's bits in a data word.
const MARK_MASK: u64 = 0xffff << MARK_SHIFT;

/// The kinds of transposition table a [`Searcher`](crate::Searcher) can use: [`LocalTable`]
/// (its own, the default) and [`SharedTable`] (shared with other searchers). Sealed: the
/// operations are the searcher's business.
pub trait Table: sealed::Sealed {}

impl Table for LocalTable {}
impl Table for SharedTable {}

pub(crate) mod sealed {
    use super::{Bound, Entry, Move};

    /// The table operations the searcher uses.
    pub trait Sealed {
        /// The entry stored for `key`, if any.
        fn probe(&self, key: u64) -> Option<Entry>;
        /// The mark word of the slot of `key`.
        fn mark(&self, key: u64) -> u16;
        /// Lets `f` update the mark word of the slot of `key`.
        fn update_mark(&mut self, key: u64, f: impl FnOnce(&mut u16));
        /// Stores only the best move for `key` (a draft no search can use).
        fn store_move(&mut self, key: u64, mv: Move);
        /// Stores a result for `key` found `ply` plies below the root, with its taint bits
        /// ([`TAINT_REPETITION`](super::TAINT_REPETITION), [`TAINT_FIFTY`](super::TAINT_FIFTY)).
        #[allow(clippy::too_many_arguments)]
        fn store(
            &mut self,
            key: u64,
            depth: i32,
            score: i32,
            bound: Bound,
            mv: Move,
            ply: usize,
            taint: u8,
        );
        /// The entry in the slot of `key`, whatever position it is for (`None` if empty).
        fn slot_entry(&self, key: u64) -> Option<Entry>;
        /// Per mille of the first 1,000 slots (all, in a smaller table) holding an entry of
        /// `generation`: UCI's `hashfull`.
        fn hashfull(&self, generation: u8) -> u32;
        /// What a search does to the table before it starts: a local table is cleared, a
        /// shared one is left alone (its owner clears it between searches).
        fn clear_for_search(&mut self);
        /// Forgets every entry (a shared table: for every searcher sharing it).
        fn clear(&mut self);
        /// Bytes used.
        fn memory_bytes(&self) -> usize;
    }
}

impl sealed::Sealed for LocalTable {
    #[inline(always)]
    fn probe(&self, key: u64) -> Option<Entry> {
        LocalTable::probe(self, key)
    }
    #[inline(always)]
    fn mark(&self, key: u64) -> u16 {
        LocalTable::mark(self, key)
    }
    #[inline(always)]
    fn update_mark(&mut self, key: u64, f: impl FnOnce(&mut u16)) {
        f(self.mark_mut(key))
    }
    #[inline(always)]
    fn store_move(&mut self, key: u64, mv: Move) {
        LocalTable::store_move(self, key, mv)
    }
    #[inline(always)]
    fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: Move,
        ply: usize,
        taint: u8,
    ) {
        LocalTable::store(self, key, depth, score, bound, mv, ply, taint)
    }
    #[inline(always)]
    fn slot_entry(&self, key: u64) -> Option<Entry> {
        let e = self.entries[(key & self.mask) as usize];
        (e.bound != 0).then_some(e)
    }
    fn hashfull(&self, generation: u8) -> u32 {
        let sample = &self.entries[..self.entries.len().min(1000)];
        let used = sample
            .iter()
            .filter(|e| e.bound != 0 && e.generation() == generation)
            .count();
        (used * 1000 / sample.len()) as u32
    }
    #[inline(always)]
    fn clear_for_search(&mut self) {
        LocalTable::clear_written(self)
    }
    fn clear(&mut self) {
        LocalTable::clear(self)
    }
    fn memory_bytes(&self) -> usize {
        LocalTable::memory_bytes(self)
    }
}

/// One slot of a [`SharedTable`]: the key XOR the data word (without its mark), and the data
/// word.
#[derive(Debug, Default)]
#[repr(C, align(16))]
struct SharedSlot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A transposition table shared by several searchers, as Lazy SMP engines share theirs: 2^`bits`
/// 16-byte slots of two atomic words, read and written without locks (relaxed atomics, so no
/// `unsafe`). A write stores the data word, then the key XOR the data word; a read accepts a
/// slot only when the two words XOR to its key, so a slot torn by two threads writing at once
/// reads as another position's (Hyatt and Mann's lockless hashing). The mark word of a detector
/// that keeps its open flags in the table (`tt-thompson`) is left out of the check and updated
/// by an atomic read-modify-write of its 16 bits, so marks and results never overwrite each
/// other.
///
/// Clones share the table. A searcher built with one ([`Searcher::with_shared_table`]) never
/// clears it: the owner clears it ([`SharedTable::clear`]) between searches.
///
/// [`Searcher::with_shared_table`]: crate::Searcher::with_shared_table
#[derive(Clone, Debug)]
pub struct SharedTable {
    slots: Arc<[SharedSlot]>,
    mask: u64,
}

impl SharedTable {
    /// A zeroed table of 2^`bits` slots (16 bytes each).
    ///
    /// # Panics
    /// If `bits` is 40 or more.
    pub fn new(bits: u32) -> SharedTable {
        assert!(bits < 40, "a table of 2^{bits} entries is too large");
        SharedTable {
            slots: (0..1usize << bits).map(|_| SharedSlot::default()).collect(),
            mask: (1u64 << bits) - 1,
        }
    }

    /// Forgets every entry and mark, for every searcher sharing the table.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Bytes used (once, however many searchers share it).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.slots)
    }

    /// How full the table is, in permille: the slots among the first 1000 (all of them in a
    /// smaller table) holding an entry of the search generation `generation` (always 0 in the
    /// paper profile; [`crate::Progress::generation`]), as engines sample it for UCI
    /// `hashfull`.
    pub fn hashfull(&self, generation: u8) -> u32 {
        sealed::Sealed::hashfull(self, generation)
    }

    /// Whether `other` is the same table.
    pub fn same_as(&self, other: &SharedTable) -> bool {
        Arc::ptr_eq(&self.slots, &other.slots)
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &SharedSlot {
        &self.slots[(key & self.mask) as usize]
    }

    /// The slot of `key` as an entry, if its check word matches `key`.
    #[inline]
    fn read(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        (check ^ (data & !MARK_MASK) == key).then(|| Entry::from_data(key, data))
    }

    /// Writes `entry` (its mark ignored: the slot's mark is kept).
    #[inline]
    fn write(&self, entry: Entry) {
        let s = self.slot(entry.key);
        let data = entry.data() & !MARK_MASK;
        let _ = s
            .data
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some(old & MARK_MASK | data)
            });
        s.check.store(entry.key ^ data, Ordering::Relaxed);
    }
}

impl sealed::Sealed for SharedTable {
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        self.read(key).filter(|e| e.bound != 0)
    }

    #[inline]
    fn mark(&self, key: u64) -> u16 {
        (self.slot(key).data.load(Ordering::Relaxed) >> MARK_SHIFT) as u16
    }

    #[inline]
    fn update_mark(&mut self, key: u64, f: impl FnOnce(&mut u16)) {
        let s = self.slot(key);
        let mut mark = (s.data.load(Ordering::Relaxed) >> MARK_SHIFT) as u16;
        f(&mut mark);
        let bits = u64::from(mark) << MARK_SHIFT;
        let _ = s
            .data
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some(old & !MARK_MASK | bits)
            });
    }

    #[inline]
    fn store_move(&mut self, key: u64, mv: Move) {
        let mv = match self.read(key) {
            Some(old) if mv.is_null() => old.mv,
            _ => mv.bits(),
        };
        self.write(Entry {
            key,
            mv,
            score: 0,
            depth: NO_DRAFT,
            bound: Bound::Upper as u8,
            mark: 0,
        });
    }

    #[inline]
    fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: Move,
        ply: usize,
        taint: u8,
    ) {
        let mv = match self.read(key) {
            Some(old) if mv.is_null() => old.mv,
            _ => mv.bits(),
        };
        self.write(Entry::result(key, depth, score, bound, mv, ply, taint));
    }

    #[inline]
    fn slot_entry(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        let e = Entry::from_data(check ^ (data & !MARK_MASK), data);
        (e.bound != 0).then_some(e)
    }

    fn hashfull(&self, generation: u8) -> u32 {
        let sample = &self.slots[..self.slots.len().min(1000)];
        let used = sample
            .iter()
            .map(|s| Entry::from_data(0, s.data.load(Ordering::Relaxed)))
            .filter(|e| e.bound != 0 && e.generation() == generation)
            .count();
        (used * 1000 / sample.len()) as u32
    }

    #[inline(always)]
    fn clear_for_search(&mut self) {}

    fn clear(&mut self) {
        SharedTable::clear(self)
    }

    fn memory_bytes(&self) -> usize {
        SharedTable::memory_bytes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::{sealed::Sealed, *};

    /// The same stores give the same probes and marks in both kinds of table.
    #[test]
    fn shared_table_behaves_like_a_local_one() {
        let mut local = LocalTable::new(4);
        let mut shared = SharedTable::new(4);
        let m = Move::from_bits(0x1234);
        let keys = [0x10u64, 0x20, 0x31, 0xdead_beef_0000_0001, 0x11];
        for (i, &k) in keys.iter().enumerate() {
            let score = [5, -MATE_BOUND - 3, MATE_BOUND + 7, -32_000, 0][i];
            let taint = [
                0,
                TAINT_REPETITION,
                TAINT_FIFTY,
                TAINT_REPETITION | TAINT_FIFTY,
                0,
            ][i];
            Sealed::store(
                &mut local,
                k,
                i as i32 - 2,
                score,
                Bound::Lower,
                m,
                i,
                taint,
            );
            Sealed::store(
                &mut shared,
                k,
                i as i32 - 2,
                score,
                Bound::Lower,
                m,
                i,
                taint,
            );
            Sealed::update_mark(&mut local, k, |x| *x = *x + 1 + i as u16);
            Sealed::update_mark(&mut shared, k, |x| *x = *x + 1 + i as u16);
        }
        Sealed::store_move(&mut local, 0x20, Move::NULL);
        Sealed::store_move(&mut shared, 0x20, Move::NULL);
        for k in keys.into_iter().chain([0x21, 0x99]) {
            let (a, b) = (Sealed::probe(&local, k), Sealed::probe(&shared, k));
            assert_eq!(a.is_some(), b.is_some(), "key {k:#x}");
            if let (Some(a), Some(b)) = (a, b) {
                assert_eq!(a.data() & !MARK_MASK, b.data() & !MARK_MASK, "key {k:#x}");
                assert_eq!(
                    (a.mv(), a.depth(), a.score(3), a.taint(), a.bound()),
                    (b.mv(), b.depth(), b.score(3), b.taint(), b.bound())
                );
            }
            assert_eq!(
                Sealed::mark(&local, k),
                Sealed::mark(&shared, k),
                "key {k:#x}"
            );
        }
        // A mark does not hide the entry, and a store keeps the mark.
        Sealed::update_mark(&mut shared, 0x20, |x| *x = 0xffff);
        assert!(Sealed::probe(&shared, 0x20).is_some());
        Sealed::store(&mut shared, 0x20, 3, 1, Bound::Exact, m, 0, 0);
        assert_eq!(Sealed::mark(&shared, 0x20), 0xffff);
        // Clones share; clearing forgets for every clone.
        let other = shared.clone();
        assert!(other.same_as(&shared));
        assert!(Sealed::probe(&other, 0x20).is_some());
        other.clear();
        assert!(Sealed::probe(&shared, 0x20).is_none());
        assert_eq!(Sealed::mark(&shared, 0x20), 0);
    }

    /// Every slot a store, a move store or a mark wrote is zero after the search's clear,
    /// whether the writes were listed (fewer than the list holds) or not (more): no entry or
    /// mark of one search is seen by the next.
    #[test]
    fn a_search_clear_forgets_every_written_slot() {
        let mut t = LocalTable::new(8);
        let listed = t.written_slots.len();
        let m = Move::from_bits(0x0421);
        for writes in [1, listed - 1, listed, listed + 1, 5 * listed] {
            for i in 0..writes as u64 {
                let key = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                match i % 3 {
                    0 => Sealed::store(&mut t, key, 2, 7, Bound::Exact, m, 0, 0),
                    1 => Sealed::store_move(&mut t, key, m),
                    _ => Sealed::update_mark(&mut t, key, |x| *x = 9),
                }
            }
            assert!(t.entries.iter().any(|e| e.bound != 0 || e.mark != 0));
            Sealed::clear_for_search(&mut t);
            let left = t
                .entries
                .iter()
                .filter(|e| e.key != 0 || e.bound != 0 || e.mark != 0);
            assert_eq!(left.count(), 0, "{writes} writes");
        }
    }

    /// A slot whose two words come from different writes reads as empty.
    #[test]
    fn a_torn_slot_fails_the_key_check() {
        let mut t = SharedTable::new(2);
        Sealed::store(&mut t, 0x4, 3, 10, Bound::Exact, Move::NULL, 0, 0);
        let data_a = t.slot(0x4).data.load(Ordering::Relaxed);
        Sealed::store(&mut t, 0x8, 5, -10, Bound::Exact, Move::NULL, 0, 0);
        // Key word of the second write, data word of the first.
        t.slot(0x8).data.store(data_a, Ordering::Relaxed);
        assert!(Sealed::probe(&t, 0x8).is_none());
        assert!(Sealed::probe(&t, 0x4).is_none());
    }
}
