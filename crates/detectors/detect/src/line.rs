//! The line record: game history followed by the current search line.

use replab_board::{Move, Position};

/// One position of the line and the move that reached it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEntry {
    /// Zobrist key of the position (FIDE identity).
    pub key: u64,
    /// The move that led here ([`Move::NULL`] for the first position and after a null move).
    pub mv: Move,
    /// The move was irreversible in the FIDE sense: capture, pawn move, loss of a castling
    /// right, or a move from a position with a legal en-passant capture.
    pub irreversible: bool,
    /// The move reset the fifty-move clock (capture or pawn move).
    pub zeroing: bool,
    /// The position was reached by a null move.
    pub null: bool,
    /// The halfmove clock of the position.
    pub halfmove: u16,
    /// Plies since the last null move (or since the start of the line).
    pub since_null: u32,
}

impl LineEntry {
    /// How far back a position-comparing scan may look: `min(halfmove clock, plies since the
    /// last null move or the start of the line)` (Stockfish's `end`).
    #[inline]
    pub fn span(&self) -> u32 {
        (self.halfmove as u32).min(self.since_null)
    }
}

/// The game history followed by the current search line, one [`LineEntry`] per position.
///
/// Entry 0 is the first known position; the last entry is the current position. Entries up to
/// and including [`Line::root`] are the game history (the root is where the search starts).
#[derive(Clone, Debug, Default)]
pub struct Line {
    entries: Vec<LineEntry>,
    root: usize,
}

impl Line {
    /// A line holding only `start`, with room for `capacity` entries.
    pub fn new(start: &Position, capacity: usize) -> Line {
        let mut line = Line::default();
        line.reset(start, capacity);
        line
    }

    /// Empties the line and starts it at `start`; reserves `capacity` entries so that pushing
    /// up to that many never allocates.
    pub fn reset(&mut self, start: &Position, capacity: usize) {
        self.entries.clear();
        self.entries.reserve(capacity.max(1));
        self.entries.push(LineEntry {
            key: start.key(),
            mv: Move::NULL,
            irreversible: true,
            zeroing: false,
            null: false,
            halfmove: start.halfmove_clock(),
            since_null: 0,
        });
        self.root = 0;
    }

    /// Appends the position `child` reached from `parent` by the legal move `mv`.
    #[inline]
    pub fn push(&mut self, parent: &Position, mv: Move, child: &Position) {
        let since_null = self.last().since_null + 1;
        self.entries.push(LineEntry {
            key: child.key(),
            mv,
            irreversible: parent.is_irreversible(mv),
            zeroing: parent.is_zeroing(mv),
            null: false,
            halfmove: child.halfmove_clock(),
            since_null,
        });
    }

    /// Appends the position `child` reached by a null move.
    #[inline]
    pub fn push_null(&mut self, child: &Position) {
        self.entries.push(LineEntry {
            key: child.key(),
            mv: Move::NULL,
            irreversible: false,
            zeroing: false,
            null: true,
            halfmove: child.halfmove_clock(),
            since_null: 0,
        });
    }

    /// Removes the last entry (never the first).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.entries.len() > 1, "popping the first position");
        if self.entries.len() > 1 {
            self.entries.pop();
        }
    }

    /// Makes the current position the search root.
    pub fn set_root(&mut self) {
        self.root = self.entries.len() - 1;
    }

    /// Index of the search root.
    #[inline]
    pub fn root(&self) -> usize {
        self.root
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the line is empty (never: it always holds its first position).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Index of the current (last) entry.
    #[inline]
    pub fn current_index(&self) -> usize {
        self.entries.len() - 1
    }

    /// Plies from the search root to the current position.
    #[inline]
    pub fn plies_from_root(&self) -> u32 {
        (self.entries.len() - 1 - self.root) as u32
    }

    /// The current entry.
    #[inline]
    pub fn last(&self) -> &LineEntry {
        self.entries
            .last()
            .expect("a line always holds its first position")
    }

    /// The entry `back` plies before the current one (`0` = current).
    #[inline]
    pub fn back(&self, back: usize) -> &LineEntry {
        &self.entries[self.entries.len() - 1 - back]
    }

    /// All entries, oldest first.
    #[inline]
    pub fn entries(&self) -> &[LineEntry] {
        &self.entries
    }
}
