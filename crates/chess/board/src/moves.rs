//! The 16-bit move encoding and fixed-capacity move lists.

use std::fmt;

use crate::types::{Role, Square};

/// What kind of move a [`Move`] is (its 4 flag bits).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum MoveKind {
    /// A non-capturing move that is none of the below.
    Quiet = 0,
    /// A pawn's two-square advance.
    DoublePush = 1,
    /// Castling king side (encoded as the king's move, e.g. e1g1).
    CastleKing = 2,
    /// Castling queen side (encoded as the king's move, e.g. e1c1).
    CastleQueen = 3,
    /// A capture of the piece on the destination square.
    Capture = 4,
    /// An en-passant capture.
    EnPassant = 5,
    /// Promotion to a knight.
    PromoteKnight = 8,
    /// Promotion to a bishop.
    PromoteBishop = 9,
    /// Promotion to a rook.
    PromoteRook = 10,
    /// Promotion to a queen.
    PromoteQueen = 11,
    /// Capture with promotion to a knight.
    CapturePromoteKnight = 12,
    /// Capture with promotion to a bishop.
    CapturePromoteBishop = 13,
    /// Capture with promotion to a rook.
    CapturePromoteRook = 14,
    /// Capture with promotion to a queen.
    CapturePromoteQueen = 15,
}

/// A move in 16 bits: `from` (bits 0–5), `to` (bits 6–11) and a [`MoveKind`] (bits 12–15).
///
/// This is the encoding the move-chain detector reads directly (Vučković & Vidanović §4 code
/// moves as from/to pairs). The all-zero value is the null move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move (passes the turn); `a1a1`, which no real move is.
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` of kind `kind`.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.to_u8() as u16 | (to.to_u8() as u16) << 6 | (kind as u16) << 12)
    }

    /// The raw 16 bits.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from its raw bits (no validation beyond the encoding).
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    /// The 4 flag bits.
    #[inline]
    pub const fn flags(self) -> u16 {
        self.0 >> 12
    }

    /// The move's kind.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.flags() {
            0 => MoveKind::Quiet,
            1 => MoveKind::DoublePush,
            2 => MoveKind::CastleKing,
            3 => MoveKind::CastleQueen,
            4 => MoveKind::Capture,
            5 => MoveKind::EnPassant,
            8 => MoveKind::PromoteKnight,
            9 => MoveKind::PromoteBishop,
            10 => MoveKind::PromoteRook,
            11 => MoveKind::PromoteQueen,
            12 => MoveKind::CapturePromoteKnight,
            13 => MoveKind::CapturePromoteBishop,
            14 => MoveKind::CapturePromoteRook,
            _ => MoveKind::CapturePromoteQueen,
        }
    }

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Whether the move captures (en passant included).
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.flags() & 4 != 0 && self.flags() != 6 && self.flags() != 7
    }

    /// Whether the move is an en-passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flags() == 5
    }

    /// Whether the move is castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.flags() == 2 || self.flags() == 3
    }

    /// The promotion piece kind, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        if self.flags() & 8 == 0 {
            None
        } else {
            Some(match self.flags() & 3 {
                0 => Role::Knight,
                1 => Role::Bishop,
                2 => Role::Rook,
                _ => Role::Queen,
            })
        }
    }

    /// The UCI text of the move (`e2e4`, `e7e8q`, `e1g1`, `0000` for the null move).
    pub fn uci(self) -> UciMove {
        UciMove(self)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({} {:?})", self.uci(), self.kind())
    }
}

/// Displays a [`Move`] in UCI notation.
#[derive(Clone, Copy)]
pub struct UciMove(Move);

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.0;
        if m.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", m.from(), m.to())?;
        if let Some(role) = m.promotion() {
            write!(f, "{}", role.upper_char().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

/// Capacity of a [`MoveList`]. Reachable positions have at most 218 legal moves, but a valid FEN
/// may hold up to 15 queens and a king (at most 15 × 27 + 8 = 413 moves; fuzzing found 241), so
/// lists hold 512 and no accepted position can overflow one.
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity, allocation-free list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Chess positions never exceed the capacity.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.uci().to_string()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        let e2 = Square::parse("e2").unwrap();
        let e4 = Square::parse("e4").unwrap();
        let m = Move::new(e2, e4, MoveKind::DoublePush);
        assert_eq!((m.from(), m.to(), m.kind()), (e2, e4, MoveKind::DoublePush));
        assert_eq!(m.uci().to_string(), "e2e4");
        let p = Move::new(e2, e4, MoveKind::CapturePromoteRook);
        assert_eq!(p.promotion(), Some(Role::Rook));
        assert!(p.is_capture());
        assert!(!Move::new(e2, e4, MoveKind::CastleQueen).is_capture());
        assert!(Move::new(e2, e4, MoveKind::EnPassant).is_capture());
        assert!(!Move::new(e2, e4, MoveKind::PromoteQueen).is_capture());
        assert_eq!(Move::NULL.uci().to_string(), "0000");
    }
}
