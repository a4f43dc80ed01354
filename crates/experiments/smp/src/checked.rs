//! The wrapper detector every search thread of `replab smp` runs: it forwards every call to the
//! detector under test (so the search is that detector's), checks each of its answers against
//! exact identity over the thread's own line, and is the scheduler's hook at every node entry.

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};

use super::sched::Turn;

/// What the exact check counted over one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// Probes checked.
    pub probes: u64,
    /// Probes the detector answered with a repetition that the thread's own line does not hold:
    /// false repetitions (under the `twofold` policy each one is scored as a draw).
    pub false_repetitions: u64,
    /// Probes the detector answered with none where the thread's own line holds one.
    pub missed_repetitions: u64,
}

impl std::ops::AddAssign for Audit {
    fn add_assign(&mut self, o: Audit) {
        self.probes += o.probes;
        self.false_repetitions += o.false_repetitions;
        self.missed_repetitions += o.missed_repetitions;
    }
}

/// The detector `D` with the exact check and the scheduler's hook.
///
/// The exact answer: does an earlier position of the thread's own line (game history and
/// search path), within the scan span every detector uses (back to the last capture, pawn move
/// or null move: [`replab_detect::LineEntry::span`]), have the same FIDE identity
/// ([`Position::same_position`]: pieces on squares, side to move, castling rights, legal en
/// passant) as the probed position? Keys are compared first and positions only where keys
/// match (identical positions have equal keys), so a 64-bit key collision cannot fool it.
pub struct Checked<D> {
    inner: D,
    /// The line's positions entered so far, by line index.
    positions: Vec<Position>,
    check: bool,
    audit: Audit,
    /// Probes since the last clear, checked or not.
    probed: u64,
    turn: Option<Turn>,
}

impl<D: Detector> Checked<D> {
    /// `inner` checked (when `check`) and scheduled by `turn` (when given).
    pub fn new(inner: D, check: bool, turn: Option<Turn>) -> Self {
        Checked {
            inner,
            positions: Vec::new(),
            check,
            audit: Audit::default(),
            probed: 0,
            turn,
        }
    }

    /// The detector under test.
    pub fn inner(&self) -> &D {
        &self.inner
    }

    /// The counts of the last search.
    pub fn audit(&self) -> Audit {
        self.audit
    }

    /// Positions probed since the last clear (every position entered past the root).
    pub fn probed(&self) -> u64 {
        self.probed
    }

    /// The thread's turn, if scheduled.
    pub fn turn(&self) -> Option<&Turn> {
        self.turn.as_ref()
    }

    /// The scheduler's hook: one node entry.
    #[inline(always)]
    fn tick(&mut self) {
        self.probed += 1;
        if let Some(t) = &self.turn {
            t.tick();
        }
    }

    /// Checks the detector's answer `found` for the line's last position `pos`.
    fn verify(&mut self, line: &Line, pos: &Position, found: Option<Repetition>) {
        if !self.check {
            return;
        }
        let cur = line.current_index();
        self.positions.truncate(cur);
        let entries = line.entries();
        let key = entries[cur].key;
        let span = (entries[cur].span() as usize).min(cur);
        let exact = (1..=span).any(|back| {
            entries[cur - back].key == key && self.positions[cur - back].same_position(pos)
        });
        self.audit.probes += 1;
        match (found.is_some(), exact) {
            (true, false) => self.audit.false_repetitions += 1,
            (false, true) => self.audit.missed_repetitions += 1,
            _ => {}
        }
    }

    /// Records the line's last position, `pos`, being entered.
    fn record(&mut self, line: &Line, pos: &Position) {
        if !self.check {
            return;
        }
        let cur = line.current_index();
        self.positions.truncate(cur);
        debug_assert_eq!(self.positions.len(), cur, "positions entered in line order");
        self.positions.push(*pos);
    }
}

impl<D: Detector> Detector for Checked<D> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn clear(&mut self, capacity: usize) {
        self.inner.clear(capacity);
        self.positions.clear();
        if self.check {
            self.positions.reserve(capacity);
        }
        self.audit = Audit::default();
        self.probed = 0;
    }

    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        self.tick();
        let found = self.inner.probe(line, pos);
        self.verify(line, pos, found);
        found
    }

    #[inline]
    fn enter(&mut self, line: &Line, pos: &Position) {
        self.inner.enter(line, pos);
        self.record(line, pos);
    }

    #[inline]
    fn leave(&mut self, line: &Line, pos: &Position) {
        self.inner.leave(line, pos);
    }

    #[inline]
    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        self.inner.upcoming(line, pos)
    }

    fn stats(&self) -> Stats {
        self.inner.stats()
    }

    fn memory_bytes(&self) -> usize {
        self.inner.memory_bytes()
    }

    #[inline]
    fn in_search_table(&self) -> bool {
        self.inner.in_search_table()
    }

    #[inline]
    fn probe_marked(&mut self, line: &Line, pos: &Position, mark: u16) -> Option<Repetition> {
        self.tick();
        let found = self.inner.probe_marked(line, pos, mark);
        self.verify(line, pos, found);
        found
    }

    #[inline]
    fn enter_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        self.inner.enter_marked(line, pos, mark);
        self.record(line, pos);
    }

    #[inline]
    fn leave_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        self.inner.leave_marked(line, pos, mark);
    }
}
