#![doc = include_str!("../README.md")]

pub mod kit;

use replab_board::{CastlingRights, Color, Position, Square};
use replab_detect::{Detector, Line, Repetition, Stats};

/// A position's FIDE identity, stored without hashing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    /// Piece index + 1 on each square (0 = empty).
    pub board: [u8; 64],
    /// Side to move.
    pub side: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// En-passant square (only when an en-passant capture is legal).
    pub ep: Option<Square>,
}

impl Identity {
    /// The identity of `pos`.
    pub fn of(pos: &Position) -> Identity {
        let mut board = [0u8; 64];
        for sq in Square::ALL {
            if let Some(p) = pos.piece_at(sq) {
                board[sq.index()] = p.index() as u8 + 1;
            }
        }
        Identity {
            board,
            side: pos.side_to_move(),
            castling: pos.castling(),
            ep: pos.ep_square(),
        }
    }
}

/// The exact oracle.
#[derive(Clone, Debug, Default)]
pub struct TruthDetector {
    seen: Vec<Identity>,
    stats: Stats,
}

impl TruthDetector {
    /// A new oracle.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts the earlier positions of the line (back to the last null move) identical to
    /// `id`, and the distance to the nearest, as seen from the line's current entry.
    fn count(&mut self, line: &Line, id: &Identity) -> Option<Repetition> {
        let cur = self.seen.len();
        let reach = (line.last().since_null as usize).min(cur);
        let mut found: Option<Repetition> = None;
        for back in 1..=reach {
            self.stats.comparisons += 1;
            if self.seen[cur - back] == *id {
                count_occurrence(&mut found, back);
            }
        }
        found
    }

    /// The answer of [`Detector::probe`], found at the cost of a key comparison per candidate,
    /// for drivers that probe at every node of a search (the key-width experiment's judge).
    ///
    /// Only the earlier positions that can equal the current one are compared: those at even
    /// distance (the side to move is part of the identity) within the line entry's span
    /// (`min(halfmove clock, plies since null)`: nothing before a capture, a pawn move or a
    /// null move can recur) whose full 64-bit key equals the current key (equal identities
    /// have equal keys), each confirmed by comparing identities. So the answer — nearest
    /// distance and occurrence count — is the full scan's (`tests/by_key.rs` checks it on
    /// every scripted case).
    pub fn probe_by_key(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        let entries = line.entries();
        let cur = entries.len() - 1;
        debug_assert_eq!(self.seen.len(), cur);
        let span = (entries[cur].span() as usize).min(cur);
        let mut found: Option<Repetition> = None;
        let mut id = None;
        for back in (2..=span).step_by(2) {
            if entries[cur - back].key != entries[cur].key {
                continue;
            }
            let id = id.get_or_insert_with(|| Identity::of(pos));
            self.stats.comparisons += 1;
            if self.seen[cur - back] == *id {
                count_occurrence(&mut found, back);
            }
        }
        if found.is_some() {
            self.stats.hits += 1;
        }
        found
    }

    /// For each legal move of `pos` (the line's current position, already entered), the
    /// number of times the resulting position has occurred in the line so far. The maximum is
    /// what the "about to appear" half of the threefold claim needs (≥ 2 means the move
    /// would make a position occur for the third time).
    pub fn upcoming_occurrences(&mut self, line: &Line, pos: &Position) -> u32 {
        let mut best = 0;
        for &m in pos.legal_moves().iter() {
            let next = Identity::of(&pos.play(m));
            let reach = (line.last().since_null as usize + 1).min(self.seen.len());
            let n = self.seen[self.seen.len() - reach..]
                .iter()
                .filter(|id| **id == next)
                .count() as u32;
            best = best.max(n);
        }
        best
    }

    /// Whether some legal move of `pos` (current, already entered) reaches a position that
    /// occurred earlier in the line — the exact answer upcoming-cycle detection approximates.
    pub fn upcoming_exact(&mut self, line: &Line, pos: &Position) -> bool {
        self.upcoming_occurrences(line, pos) >= 1
    }
}

impl Detector for TruthDetector {
    fn name(&self) -> &'static str {
        "truth"
    }

    fn clear(&mut self, capacity: usize) {
        self.seen.clear();
        self.seen.reserve(capacity);
        self.stats = Stats::default();
    }

    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        debug_assert_eq!(self.seen.len(), line.current_index());
        let id = Identity::of(pos);
        let found = self.count(line, &id);
        if found.is_some() {
            self.stats.hits += 1;
        }
        found
    }

    fn enter(&mut self, _line: &Line, pos: &Position) {
        self.seen.push(Identity::of(pos));
    }

    fn leave(&mut self, _line: &Line, _pos: &Position) {
        self.seen.pop();
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.seen.capacity() * std::mem::size_of::<Identity>()
    }
}

/// Counts one more earlier occurrence at distance `back` in `found`: the first one found (the
/// nearest, as the scans go backwards) sets the distance.
fn count_occurrence(found: &mut Option<Repetition>, back: usize) {
    match found {
        Some(r) => r.earlier += 1,
        None => {
            *found = Some(Repetition {
                distance: back as u32,
                earlier: 1,
            })
        }
    }
}
