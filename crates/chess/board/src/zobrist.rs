//! Zobrist keys of positions.
//!
//! The keys come from a fixed seed of `rand_xoshiro`'s xoshiro256** generator (see `build.rs`):
//! 768 piece-square keys, four castling-right keys, eight en-passant file keys and one
//! side-to-move key. A position's key hashes exactly the FIDE identity of the position (see
//! `docs/contracts.md`): placement, side to move, castling rights, and the en-passant
//! file **only when an en-passant capture is legal**. So equal positions have equal keys, and
//! unequal positions have unequal keys except for hash collisions (probability 2⁻⁶⁴ per pair).

use crate::{
    attacks,
    types::{CastlingRights, Piece, Square},
};

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    attacks::ZOBRIST_PIECES[piece.index() * 64 + sq.index()]
}

/// Key of the piece with index `piece` (colour * 6 + kind) standing on `sq`.
#[inline]
pub(crate) fn piece_key_index(piece: usize, sq: Square) -> u64 {
    attacks::ZOBRIST_PIECES[(piece & 15) * 64 + sq.index()]
}

/// Key of a castling-rights set (the XOR of the keys of its rights).
#[inline]
pub fn castling_key(rights: CastlingRights) -> u64 {
    attacks::ZOBRIST_CASTLING[rights.bits() as usize]
}

/// Key of an en-passant file (0 = a).
#[inline]
pub fn ep_key(file: u8) -> u64 {
    attacks::ZOBRIST_EP[file as usize]
}

/// Key XORed in when black is to move.
pub const SIDE_KEY: u64 = attacks::ZOBRIST_SIDE;
