//! The transposition table: one 16-byte entry per slot, indexed by the low key bits.

use replab_board::Move;

use crate::score::MATE_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
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
pub(crate) struct Entry {
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

/// A table of 2^`bits` entries. Always-replace: the newest search result wins, which keeps the
/// table a pure function of the search path (deterministic).
#[derive(Clone, Debug)]
pub(crate) struct Tt {
    entries: Box<[Entry]>,
    mask: u64,
}

impl Tt {
    /// A zeroed table of 2^`bits` entries.
    pub(crate) fn new(bits: u32) -> Tt {
        Tt {
            entries: vec![Entry::default(); 1usize << bits].into_boxed_slice(),
            mask: (1u64 << bits) - 1,
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// Bytes used.
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
        &mut self.entries[(key & self.mask) as usize].mark
    }

    /// Stores only the best move for `key`, with a draft no search can use (so the entry orders
    /// moves but never cuts off: [`crate::TtMode`]'s withheld scores). The slot's mark is kept.
    #[inline]
    pub(crate) fn store_move(&mut self, key: u64, mv: Move) {
        let slot = &mut self.entries[(key & self.mask) as usize];
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
        let stored = if score >= MATE_BOUND {
            score + ply as i32
        } else if score <= -MATE_BOUND {
            score - ply as i32
        } else {
            score
        };
        let slot = &mut self.entries[(key & self.mask) as usize];
        // Keep the old move when the new result has none for the same position.
        let mv = if mv.is_null() && slot.key == key {
            slot.mv
        } else {
            mv.bits()
        };
        *slot = Entry {
            key,
            mv,
            score: stored as i16,
            depth: depth.clamp(-100, 100) as i8,
            bound: bound as u8 | taint,
            mark: slot.mark,
        };
    }
}
