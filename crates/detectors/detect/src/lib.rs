#![doc = include_str!("../README.md")]

mod line;
mod policy;
pub mod shared;

use std::fmt;

pub use line::{Line, LineEntry};
pub use policy::{DrawPolicy, RootRule, UnknownPolicy, UpcomingRule};
use replab_board::Position;

/// The key width every detector uses unless told otherwise: the full 64-bit Zobrist key.
pub const FULL_KEY_BITS: u32 = 64;

/// The mask keeping the low `bits` bits of a key: `u64::MAX` for 64 bits or more (no
/// truncation), 0 for 0 bits. Detectors that support [`Detector::set_key_bits`] mask every key
/// they read with it, so that truncated keys collide as `bits`-bit keys would.
#[inline]
pub const fn key_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// What a probe found: the current position repeats an earlier position of the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Repetition {
    /// Plies back to the nearest earlier occurrence the detector knows of.
    pub distance: u32,
    /// Earlier occurrences counted (≥ 1). Detectors that cannot count (`axon`) report 1 and
    /// are refused under the policies that need the count (`replab_registry::check_policy`).
    pub earlier: u32,
}

impl Repetition {
    /// Whether the earlier occurrence found lies strictly after the search root (inside the
    /// search line), given the current ply's distance from the root.
    #[inline]
    pub fn inside_search(&self, plies_from_root: u32) -> bool {
        self.distance < plies_from_root
    }
}

/// Per-detector counters, reset by [`Detector::clear`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stats {
    /// Probes answered.
    pub probes: u64,
    /// Probes that reported a repetition.
    pub hits: u64,
    /// Candidate hits confirmed by an exact check (back-traces that found the position).
    pub verified: u64,
    /// Candidate hits that an exact check refuted (futile back-traces, checksum matches whose
    /// full comparison failed).
    pub futile: u64,
    /// Entries that could not be stored because their slot or table was taken or full (the
    /// position becomes invisible: a possible missed repetition).
    pub misses: u64,
    /// Table slots that were already occupied by another position when one was stored.
    pub collisions: u64,
    /// Probes abandoned because a fixed-size structure overflowed (reported as no repetition).
    pub overflows: u64,
    /// Comparisons made (keys, matrices, chain-list moves…), a machine-independent cost measure.
    pub comparisons: u64,
}

/// A repetition-detection technique.
///
/// The driver (game replay or the searcher) owns the [`Line`] and calls, for every position it
/// reaches:
///
/// 1. [`Line::push`] (the position becomes the line's last entry),
/// 2. [`Detector::probe`] — is it a repetition of an earlier position of the line?
/// 3. [`Detector::enter`] unless it stops at this position (a search that scores the
///    repetition as a draw returns without entering),
/// 4. … children …,
/// 5. [`Detector::leave`] before [`Line::pop`] (search only: game history is never left).
///
/// Game history is loaded by entering each history position in order (see [`load_history`]).
/// No method may allocate once [`Detector::clear`] has sized the structures for the line's
/// capacity.
pub trait Detector {
    /// The detector's name as in the contract (`linear`, `tt-open`, …).
    fn name(&self) -> &'static str;

    /// Forgets every position and resets the statistics. `capacity` is the longest line
    /// (history plus search) the driver will push, so structures can be sized once.
    fn clear(&mut self, capacity: usize);

    /// Whether the line's last position (`pos`) repeats an earlier position of the line.
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition>;

    /// Records the line's last position (`pos`) as part of the current line.
    fn enter(&mut self, line: &Line, pos: &Position);

    /// Removes the line's last position (`pos`), entered before, from the current line.
    fn leave(&mut self, line: &Line, pos: &Position);

    /// Upcoming-cycle detection: whether the side to move has a legal reversible move that
    /// reaches an earlier position of the line. Only the cuckoo detector implements it.
    fn upcoming(&mut self, _line: &Line, _pos: &Position) -> bool {
        false
    }

    /// The counters since the last [`Detector::clear`].
    fn stats(&self) -> Stats;

    /// Truncates the Zobrist keys the detector compares, and derives its table indexes from,
    /// to their low `bits` bits ([`key_mask`]; [`FULL_KEY_BITS`], the default, truncates
    /// nothing), so that keys collide as `bits`-bit keys would (the key-width experiment).
    /// Returns whether the detector supports it; the default does not, changes nothing and
    /// returns `false`. A detector that supports it applies the mask at every place it reads a
    /// key (the line's keys and its own key constants), so 64 bits is its default behaviour.
    fn set_key_bits(&mut self, _bits: u32) -> bool {
        false
    }

    /// Bytes of memory the detector's structures use.
    fn memory_bytes(&self) -> usize;

    /// Whether the detector keeps its per-position marks inside the searcher's own
    /// transposition table (Thompson's open flag: `tt-thompson`). A searcher with a table then
    /// calls [`Detector::probe_marked`], [`Detector::enter_marked`] and
    /// [`Detector::leave_marked`] with the mark word of the table entry of the line's last key,
    /// instead of `probe`, `enter` and `leave`; without a table it must refuse the detector.
    /// Every other detector keeps the default `false`, which a monomorphised searcher folds
    /// away.
    #[inline(always)]
    fn in_search_table(&self) -> bool {
        false
    }

    /// [`Detector::probe`] given `mark`, the mark word of the searcher's table entry for the
    /// line's last key (only called when [`Detector::in_search_table`]).
    #[inline(always)]
    fn probe_marked(&mut self, line: &Line, pos: &Position, _mark: u16) -> Option<Repetition> {
        self.probe(line, pos)
    }

    /// [`Detector::enter`] given the mark word of the searcher's table entry for the line's
    /// last key, which it may update.
    #[inline(always)]
    fn enter_marked(&mut self, line: &Line, pos: &Position, _mark: &mut u16) {
        self.enter(line, pos)
    }

    /// [`Detector::leave`] given the mark word of the searcher's table entry for the line's
    /// last key, which it may update.
    #[inline(always)]
    fn leave_marked(&mut self, line: &Line, pos: &Position, _mark: &mut u16) {
        self.leave(line, pos)
    }
}

impl<D: Detector + ?Sized> Detector for Box<D> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn clear(&mut self, capacity: usize) {
        (**self).clear(capacity)
    }
    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        (**self).probe(line, pos)
    }
    #[inline]
    fn enter(&mut self, line: &Line, pos: &Position) {
        (**self).enter(line, pos)
    }
    #[inline]
    fn leave(&mut self, line: &Line, pos: &Position) {
        (**self).leave(line, pos)
    }
    #[inline]
    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        (**self).upcoming(line, pos)
    }
    fn stats(&self) -> Stats {
        (**self).stats()
    }
    fn memory_bytes(&self) -> usize {
        (**self).memory_bytes()
    }
    fn set_key_bits(&mut self, bits: u32) -> bool {
        (**self).set_key_bits(bits)
    }
    #[inline]
    fn in_search_table(&self) -> bool {
        (**self).in_search_table()
    }
    #[inline]
    fn probe_marked(&mut self, line: &Line, pos: &Position, mark: u16) -> Option<Repetition> {
        (**self).probe_marked(line, pos, mark)
    }
    #[inline]
    fn enter_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        (**self).enter_marked(line, pos, mark)
    }
    #[inline]
    fn leave_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        (**self).leave_marked(line, pos, mark)
    }
}

/// Detection switched off: every method is empty and inlined away, so a searcher generic over
/// the detector pays nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Off;

impl Detector for Off {
    fn name(&self) -> &'static str {
        "off"
    }
    #[inline(always)]
    fn clear(&mut self, _capacity: usize) {}
    #[inline(always)]
    fn probe(&mut self, _line: &Line, _pos: &Position) -> Option<Repetition> {
        None
    }
    #[inline(always)]
    fn enter(&mut self, _line: &Line, _pos: &Position) {}
    #[inline(always)]
    fn leave(&mut self, _line: &Line, _pos: &Position) {}
    fn stats(&self) -> Stats {
        Stats::default()
    }
    fn memory_bytes(&self) -> usize {
        0
    }
}

/// Loads a game into a fresh line and detector: clears both, then pushes and enters every
/// position of `positions` in order (`moves[i]` leads from `positions[i]` to
/// `positions[i + 1]`), moving the search root along, so the last position ends as the root.
///
/// # Panics
/// If `positions` is empty or `moves.len() + 1 != positions.len()`.
pub fn load_history<D: Detector + ?Sized>(
    detector: &mut D,
    line: &mut Line,
    positions: &[Position],
    moves: &[replab_board::Move],
    search_capacity: usize,
) {
    assert_eq!(
        moves.len() + 1,
        positions.len(),
        "one move between each two positions"
    );
    let capacity = positions.len() + search_capacity;
    line.reset(&positions[0], capacity);
    detector.clear(capacity);
    detector.enter(line, &positions[0]);
    for (i, &m) in moves.iter().enumerate() {
        line.push(&positions[i], m, &positions[i + 1]);
        // Every history position is a root in its turn: detectors may treat positions at or
        // below the root as game history.
        line.set_root();
        detector.enter(line, &positions[i + 1]);
    }
}

/// An error naming an unknown detector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDetector(pub String);

impl fmt::Display for UnknownDetector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown detector {:?}", self.0)
    }
}

impl std::error::Error for UnknownDetector {}
