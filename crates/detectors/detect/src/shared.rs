//! Tables of two-word slots that a detector keeps for itself ([`OwnPairs`]) or shares with the
//! same detector on other search threads ([`SharedPairs`]): how `tt-open` and `filo` run with
//! one table for all the threads of a parallel search (`replab smp`).
//!
//! A detector generic over [`PairTable`] is compiled once per kind of table, so the default
//! (its own table) keeps its plain loads and stores.
//!
//! A shared table is lock-free and racy, as engines' shared tables are: a slot is two relaxed
//! atomic words, the second word and the first XOR the second (Hyatt and Mann's lockless
//! hashing). A reader decodes the first word by XOR with the second, so a slot torn by two
//! writers at once reads with a key no position has. No `unsafe` is involved.
//!
//! Sharing also splits one detector's work in two [roles](Sharing): the **loader** (one per
//! search) clears the table and enters the game history in it, as the detector would alone;
//! the **followers** (one per search thread) neither clear the table nor enter the history —
//! they find it there — and enter and leave only their own search line's positions.

use std::sync::{
    Arc,
    atomic::{AtomicU64, Ordering},
};

/// How a table handle takes part in sharing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// The detector's own table: the default.
    Own,
    /// A shared table's loader: clears the table and enters the game history.
    Loader,
    /// A shared table's follower: a search thread's view, which finds the history loaded.
    Follower,
}

/// Storage of two-word slots (`[key, data]`; all zero means empty).
pub trait PairTable {
    /// Number of slots.
    fn len(&self) -> usize;
    /// Whether there are no slots (never, for the tables here).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Slot `i` (a shared slot torn by concurrent writes has a first word no key has).
    fn get(&self, i: usize) -> [u64; 2];
    /// Writes slot `i`.
    fn set(&mut self, i: usize, pair: [u64; 2]);
    /// Rewrites the second word of slot `i`, whose first word is `first`.
    fn set_second(&mut self, i: usize, first: u64, second: u64);
    /// Empties every slot (a shared table: for every handle).
    fn fill_zero(&mut self);
    /// Bytes of the slots (the whole shared table, for every handle).
    fn memory_bytes(&self) -> usize;
    /// The handle's part in sharing.
    fn sharing(&self) -> Sharing;
}

/// One 16-byte slot of a detector's own table.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Pair([u64; 2]);

/// A detector's own table of two-word slots.
#[derive(Clone, Debug)]
pub struct OwnPairs(Box<[Pair]>);

impl OwnPairs {
    /// `len` empty slots.
    pub fn new(len: usize) -> OwnPairs {
        OwnPairs(vec![Pair::default(); len].into_boxed_slice())
    }
}

impl PairTable for OwnPairs {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn get(&self, i: usize) -> [u64; 2] {
        self.0[i].0
    }
    #[inline(always)]
    fn set(&mut self, i: usize, pair: [u64; 2]) {
        self.0[i].0 = pair;
    }
    #[inline(always)]
    fn set_second(&mut self, i: usize, _first: u64, second: u64) {
        self.0[i].0[1] = second;
    }
    fn fill_zero(&mut self) {
        self.0.fill(Pair::default());
    }
    fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.0)
    }
    #[inline(always)]
    fn sharing(&self) -> Sharing {
        Sharing::Own
    }
}

/// One 16-byte slot of a shared table: the first word XOR the second, and the second.
#[derive(Debug, Default)]
#[repr(C, align(16))]
struct AtomicPair {
    check: AtomicU64,
    second: AtomicU64,
}

/// A handle on a table of two-word slots shared between threads (module docs). Clones share
/// the table; [`SharedPairs::new`] gives the loader, [`SharedPairs::follower`] a follower.
#[derive(Clone, Debug)]
pub struct SharedPairs {
    slots: Arc<[AtomicPair]>,
    role: Sharing,
}

impl SharedPairs {
    /// A table of `len` empty slots and its loader handle.
    pub fn new(len: usize) -> SharedPairs {
        SharedPairs {
            slots: (0..len).map(|_| AtomicPair::default()).collect(),
            role: Sharing::Loader,
        }
    }

    /// A follower handle on the same table.
    pub fn follower(&self) -> SharedPairs {
        SharedPairs {
            slots: Arc::clone(&self.slots),
            role: Sharing::Follower,
        }
    }

    /// Whether `other` is a handle on the same table.
    pub fn same_as(&self, other: &SharedPairs) -> bool {
        Arc::ptr_eq(&self.slots, &other.slots)
    }
}

impl PairTable for SharedPairs {
    #[inline]
    fn len(&self) -> usize {
        self.slots.len()
    }
    #[inline]
    fn get(&self, i: usize) -> [u64; 2] {
        let s = &self.slots[i];
        let second = s.second.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        [check ^ second, second]
    }
    #[inline]
    fn set(&mut self, i: usize, [first, second]: [u64; 2]) {
        let s = &self.slots[i];
        s.second.store(second, Ordering::Relaxed);
        s.check.store(first ^ second, Ordering::Relaxed);
    }
    #[inline]
    fn set_second(&mut self, i: usize, first: u64, second: u64) {
        self.set(i, [first, second]);
    }
    fn fill_zero(&mut self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.second.store(0, Ordering::Relaxed);
        }
    }
    fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.slots)
    }
    #[inline]
    fn sharing(&self) -> Sharing {
        self.role
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_and_shared_tables_read_back_what_was_written() {
        let mut own = OwnPairs::new(8);
        let mut loader = SharedPairs::new(8);
        let mut follower = loader.follower();
        assert!(follower.same_as(&loader));
        assert_eq!(
            (own.sharing(), loader.sharing(), follower.sharing()),
            (Sharing::Own, Sharing::Loader, Sharing::Follower)
        );
        for t in [&mut own as &mut dyn PairTable, &mut loader] {
            assert_eq!(t.get(3), [0, 0]);
            t.set(3, [0xdead, 0xbeef]);
            t.set_second(3, 0xdead, 7);
            assert_eq!(t.get(3), [0xdead, 7]);
            assert_eq!(t.memory_bytes(), 128);
        }
        assert_eq!(
            follower.get(3),
            [0xdead, 7],
            "a follower sees the loader's writes"
        );
        follower.set(5, [1, 2]);
        assert_eq!(loader.get(5), [1, 2]);
        // A torn slot: first word of one write, second of another.
        loader.slots[5].second.store(3, Ordering::Relaxed);
        assert_ne!(loader.get(5)[0], 1);
        follower.fill_zero();
        assert_eq!(loader.get(3), [0, 0]);
    }
}
