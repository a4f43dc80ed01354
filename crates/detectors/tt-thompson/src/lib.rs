#![doc = include_str!("../README.md")]

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};

/// Index bits of the table the detector uses outside the searcher (replays, audits).
pub const REPLAY_BITS: u32 = 16;

/// The mark of a line index (`index + 1`), or `None` past the 16-bit range.
#[inline(always)]
fn mark_of(index: usize) -> Option<u16> {
    u16::try_from(index + 1).ok().filter(|&m| m != 0)
}

/// `prev` value of a line position that could not set its mark.
const UNMARKED: u32 = u32::MAX;

/// Thompson's open flag in the searcher's transposition table.
///
/// In the searcher ([`Detector::in_search_table`] is true) the open flag is the 16-bit mark word
/// of the searcher's own table entry for the position's key: `0` when no position of the line
/// holds that slot open, otherwise the line index + 1 of the nearest open position that does.
/// The searcher passes the word to [`Detector::probe_marked`], [`Detector::enter_marked`] and
/// [`Detector::leave_marked`]; the detector itself keeps only one `u32` per line position (the
/// mark it replaced, to restore on leave and to count earlier occurrences).
///
/// Outside the searcher (`probe`, `enter`, `leave`: replays and audits) the same algorithm runs
/// on a small table of its own, 2^[`REPLAY_BITS`] mark words.
#[derive(Clone, Debug)]
pub struct ThompsonDetector {
    /// Replay-only table of mark words.
    table: Box<[u16]>,
    mask: u64,
    /// Whether the replay table holds marks (cleared lazily).
    dirty: bool,
    /// Per line index: the mark the position replaced (`0`: none, `j + 1`: an earlier open
    /// occurrence of the same key at line index `j`), or [`UNMARKED`].
    prev: Vec<u32>,
    stats: Stats,
}

impl Default for ThompsonDetector {
    fn default() -> Self {
        Self::new()
    }
}

impl ThompsonDetector {
    /// The detector (its replay table: 2^16 two-byte marks).
    pub fn new() -> Self {
        ThompsonDetector {
            table: vec![0u16; 1 << REPLAY_BITS].into_boxed_slice(),
            mask: (1u64 << REPLAY_BITS) - 1,
            dirty: false,
            prev: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// The probe, given the mark word of the line's last key.
    #[inline]
    fn probe_mark(&mut self, line: &Line, mark: u16) -> Option<Repetition> {
        self.stats.probes += 1;
        if mark == 0 {
            return None;
        }
        let last = line.last();
        let current = line.current_index();
        let j = mark as usize - 1;
        self.stats.comparisons += 1;
        // The mark names a position of the line: the slot is open for this key only if that
        // position has the same key (another open position may share the slot).
        if j >= current || line.entries()[j].key != last.key {
            return None;
        }
        // Null moves are barriers: an occurrence from before the last null move does not count.
        let span = last.since_null as usize;
        if current - j > span {
            return None;
        }
        // Earlier occurrences: the marks this one replaced, while within the span.
        let mut earlier = 1;
        let mut p = self.prev[j];
        while p != 0 && p != UNMARKED && current - (p as usize - 1) <= span {
            earlier += 1;
            p = self.prev[p as usize - 1];
        }
        self.stats.hits += 1;
        Some(Repetition {
            distance: (current - j) as u32,
            earlier,
        })
    }

    /// Opens the line's last position in `mark`, unless another open position holds it.
    #[inline]
    fn enter_mark(&mut self, line: &Line, mark: &mut u16) {
        let current = line.current_index();
        let prev = match mark_of(current) {
            Some(own) => {
                let old = *mark;
                let j = old as usize;
                if old == 0 || (j <= current && line.entries()[j - 1].key == line.last().key) {
                    // Free, or open for an earlier occurrence of this position: chain it.
                    *mark = own;
                    old as u32
                } else {
                    // Another open position holds the slot: this one stays invisible.
                    self.stats.collisions += 1;
                    self.stats.misses += 1;
                    UNMARKED
                }
            }
            None => {
                self.stats.misses += 1;
                UNMARKED
            }
        };
        if current < self.prev.len() {
            self.prev[current] = prev;
        } else {
            debug_assert_eq!(current, self.prev.len(), "positions entered in line order");
            self.prev.push(prev);
        }
    }

    /// Closes the line's last position: restores the mark it replaced.
    #[inline]
    fn leave_mark(&mut self, line: &Line, mark: &mut u16) {
        let prev = self.prev[line.current_index()];
        if prev != UNMARKED {
            // Alone, the mark is this position's own (`mark_of(current)`). In a table shared by
            // several search threads another thread may have replaced it since, and restoring
            // overwrites theirs: the open marks of parallel searches are not last-in first-out.
            *mark = prev as u16;
        }
    }

    #[inline(always)]
    fn slot(&self, line: &Line) -> usize {
        (line.last().key & self.mask) as usize
    }
}

impl Detector for ThompsonDetector {
    fn name(&self) -> &'static str {
        "tt-thompson"
    }

    fn clear(&mut self, capacity: usize) {
        if self.dirty {
            self.table.fill(0);
            self.dirty = false;
        }
        self.prev.clear();
        self.prev.reserve(capacity);
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        let mark = self.table[self.slot(line)];
        self.probe_mark(line, mark)
    }

    #[inline]
    fn enter(&mut self, line: &Line, _pos: &Position) {
        let i = self.slot(line);
        self.dirty = true;
        let mut mark = self.table[i];
        self.enter_mark(line, &mut mark);
        self.table[i] = mark;
    }

    #[inline]
    fn leave(&mut self, line: &Line, _pos: &Position) {
        let i = self.slot(line);
        let mut mark = self.table[i];
        self.leave_mark(line, &mut mark);
        self.table[i] = mark;
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    /// The per-position chain (4 bytes per line position), plus the replay table when it was
    /// used since the last clear. In the searcher the marks take 2 bytes of each table entry.
    fn memory_bytes(&self) -> usize {
        self.prev.capacity() * 4 + if self.dirty { self.table.len() * 2 } else { 0 }
    }

    #[inline(always)]
    fn in_search_table(&self) -> bool {
        true
    }

    #[inline(always)]
    fn probe_marked(&mut self, line: &Line, _pos: &Position, mark: u16) -> Option<Repetition> {
        self.probe_mark(line, mark)
    }

    #[inline(always)]
    fn enter_marked(&mut self, line: &Line, _pos: &Position, mark: &mut u16) {
        self.enter_mark(line, mark)
    }

    #[inline(always)]
    fn leave_marked(&mut self, line: &Line, _pos: &Position, mark: &mut u16) {
        self.leave_mark(line, mark)
    }
}
