//! Attack lookups from tables generated at build time (fancy magic bitboards for sliders).
//!
//! The tables are plain `static` arrays: no lazy initialisation, no locks, no branches beyond the
//! lookup itself.

use crate::types::{Bitboard, Color, Square};

/// Magic-bitboard parameters of one square.
pub(crate) struct Magic {
    pub(crate) mask: u64,
    pub(crate) magic: u64,
    pub(crate) shift: u32,
    pub(crate) offset: usize,
}

mod tables {
    use super::Magic;
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

pub(crate) use tables::{ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_PIECES, ZOBRIST_SIDE};

#[inline(always)]
fn magic_lookup(m: &Magic, occ: Bitboard) -> Bitboard {
    let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY-free: indexing is bounds checked; the index is < 2^bits by construction.
    Bitboard(tables::SLIDER_ATTACKS[m.offset + idx])
}

/// Squares a rook on `sq` attacks given the occupancy `occ`.
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    magic_lookup(&tables::ROOK_MAGICS[sq.index()], occ)
}

/// Squares a bishop on `sq` attacks given the occupancy `occ`.
#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    magic_lookup(&tables::BISHOP_MAGICS[sq.index()], occ)
}

/// Squares a queen on `sq` attacks given the occupancy `occ`.
#[inline]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares a rook on `sq` attacks on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(tables::ROOK_RAYS[sq.index()])
}

/// Squares a bishop on `sq` attacks on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(tables::BISHOP_RAYS[sq.index()])
}

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(tables::KNIGHT_ATTACKS[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(tables::KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(tables::PAWN_ATTACKS[color.index() * 64 + sq.index()])
}

/// Squares strictly between `a` and `b` if they share a line; else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::BETWEEN[a.index() * 64 + b.index()])
}

/// The full line through `a` and `b` (including both) if they share a line; else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::LINE[a.index() * 64 + b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry;

    #[test]
    fn magic_tables_match_slow_attacks() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for sq in Square::ALL {
            for _ in 0..200 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let occ = state & state.rotate_left(17);
                let s = sq.to_u8();
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    geometry::slider_attacks(s, occ, &geometry::ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    geometry::slider_attacks(s, occ, &geometry::BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn rays_are_empty_board_attacks() {
        for sq in Square::ALL {
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY));
        }
    }

    #[test]
    fn between_and_line() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(between(sq("a1"), sq("a4")), sq("a2").bb() | sq("a3").bb());
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("c1"), sq("e3")).len(), 6);
        assert!(line(sq("c1"), sq("e3")).has(sq("h6")));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
    }
}
