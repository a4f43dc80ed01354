//! Legal move generation.
//!
//! Moves are produced grouped by piece ([`PieceMoves`]: one origin square and a bitboard of
//! destinations), so perft can count leaves with popcounts (bulk counting) and callers that need
//! single moves expand the groups. Legality is exact: check evasion masks, pins along the
//! king line, king moves into attacked squares excluded, castling through or out of check
//! excluded, and en passant checked by removing both pawns (horizontal pins, discovered checks).

use crate::{
    attacks::{
        between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
    },
    moves::{Move, MoveKind, MoveList},
    position::Position,
    types::{Bitboard, CastlingRights, Color, Role, Square},
};

/// The legal moves of one piece: its kind, origin, and destinations.
#[derive(Clone, Copy, Debug)]
pub struct PieceMoves {
    /// Kind of the moving piece.
    pub role: Role,
    /// Origin square.
    pub from: Square,
    /// Legal destination squares (castling: the king's destination, g1/c1/g8/c8).
    pub to: Bitboard,
}

const PROMOTION_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

impl PieceMoves {
    /// Number of moves in the group (a pawn move to the last rank counts four promotions).
    #[inline]
    pub fn len(&self) -> usize {
        let n = self.to.len() as usize;
        if self.role == Role::Pawn {
            n + 3 * (self.to & PROMOTION_RANKS).len() as usize
        } else {
            n
        }
    }

    /// Whether the group has no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }
}

impl Position {
    /// Calls `f` with the legal moves of each piece that has some, king first. Stops early and
    /// returns `true` as soon as `f` returns `true`.
    #[inline]
    pub fn generate<F: FnMut(PieceMoves) -> bool>(&self, mut f: F) -> bool {
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.colors[us.index()];
        let theirs = self.colors[them.index()];
        let king = self.king(us);

        // King steps: destinations not attacked once the king has left its square.
        let occ_without_king = occ ^ king.bb();
        let mut king_to = Bitboard::EMPTY;
        for to in king_attacks(king) & !ours {
            if !self.is_attacked(to, them, occ_without_king) {
                king_to |= to.bb();
            }
        }
        if self.checkers.is_empty() {
            king_to |= self.castling_destinations(us, king, occ);
        }
        if king_to.is_not_empty()
            && f(PieceMoves {
                role: Role::King,
                from: king,
                to: king_to,
            })
        {
            return true;
        }
        if self.checkers.more_than_one() {
            return false;
        }

        // Other pieces may only capture a single checker or block its line.
        let target = match self.checkers.first() {
            Some(checker) => between(king, checker) | checker.bb(),
            None => Bitboard::FULL,
        } & !ours;
        let pinned = self.pinned;

        for from in self.pieces(us, Role::Knight) & !pinned {
            let to = knight_attacks(from) & target;
            if to.is_not_empty()
                && f(PieceMoves {
                    role: Role::Knight,
                    from,
                    to,
                })
            {
                return true;
            }
        }
        for role in [Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.pieces(us, role) {
                let attacks = match role {
                    Role::Bishop => bishop_attacks(from, occ),
                    Role::Rook => rook_attacks(from, occ),
                    _ => bishop_attacks(from, occ) | rook_attacks(from, occ),
                };
                let mut to = attacks & target;
                if pinned.has(from) {
                    to &= line(king, from);
                }
                if to.is_not_empty() && f(PieceMoves { role, from, to }) {
                    return true;
                }
            }
        }

        let start_rank = match us {
            Color::White => Bitboard::rank(1),
            Color::Black => Bitboard::rank(6),
        };
        for from in self.pieces(us, Role::Pawn) {
            let single = from.bb().forward(us) & !occ;
            let double = (single & start_rank.forward(us)).forward(us) & !occ;
            let captures = pawn_attacks(us, from) & theirs;
            let mut to = (single | double | captures) & target;
            if let Some(ep) = self.ep
                && pawn_attacks(us, from).has(ep)
                && self.ep_capture_is_legal(from, ep)
            {
                to |= ep.bb();
            }
            if pinned.has(from) {
                to &= line(king, from);
            }
            if to.is_not_empty()
                && f(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to,
                })
            {
                return true;
            }
        }
        false
    }

    /// Castling destinations of the king (not in check): rights held, squares between king and
    /// rook empty, and the squares the king crosses and lands on not attacked.
    #[inline]
    fn castling_destinations(&self, us: Color, king: Square, occ: Bitboard) -> Bitboard {
        let mut to = Bitboard::EMPTY;
        let rights = self.castling & CastlingRights::of(us);
        if rights.is_empty() {
            return to;
        }
        let them = us.flip();
        if rights.intersects(CastlingRights::king_side(us)) {
            let rook = Square::new(7).relative(us);
            let (f, g) = (Square::new(5).relative(us), Square::new(6).relative(us));
            if (between(king, rook) & occ).is_empty()
                && !self.is_attacked(f, them, occ)
                && !self.is_attacked(g, them, occ)
            {
                to |= g.bb();
            }
        }
        if rights.intersects(CastlingRights::queen_side(us)) {
            let rook = Square::new(0).relative(us);
            let (d, c) = (Square::new(3).relative(us), Square::new(2).relative(us));
            if (between(king, rook) & occ).is_empty()
                && !self.is_attacked(d, them, occ)
                && !self.is_attacked(c, them, occ)
            {
                to |= c.bb();
            }
        }
        to
    }

    /// Appends the moves of one group to `list`, with their [`MoveKind`]s.
    #[inline]
    pub fn expand(&self, pm: PieceMoves, list: &mut MoveList) {
        let theirs = self.colors[self.side.flip().index()];
        let from = pm.from;
        for to in pm.to {
            let capture = theirs.has(to);
            let kind = match pm.role {
                Role::Pawn => {
                    if Some(to) == self.ep {
                        MoveKind::EnPassant
                    } else if PROMOTION_RANKS.has(to) {
                        let base = if capture { 12 } else { 8 };
                        for k in [3u16, 0, 1, 2] {
                            list.push(Move::from_bits(
                                from.to_u8() as u16 | (to.to_u8() as u16) << 6 | (base + k) << 12,
                            ));
                        }
                        continue;
                    } else if from.to_u8().abs_diff(to.to_u8()) == 16 {
                        MoveKind::DoublePush
                    } else if capture {
                        MoveKind::Capture
                    } else {
                        MoveKind::Quiet
                    }
                }
                Role::King if from.file().abs_diff(to.file()) == 2 => {
                    if to.file() == 6 {
                        MoveKind::CastleKing
                    } else {
                        MoveKind::CastleQueen
                    }
                }
                _ if capture => MoveKind::Capture,
                _ => MoveKind::Quiet,
            };
            list.push(Move::new(from, to, kind));
        }
    }

    /// Fills `list` with every legal move (cleared first).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate(|pm| {
            self.expand(pm, list);
            false
        });
    }

    /// Every legal move in a new list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Number of legal moves, counted without expanding them.
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut n = 0;
        self.generate(|pm| {
            n += pm.len();
            false
        });
        n
    }

    /// Whether the side to move has at least one legal move.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.generate(|_| true)
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Whether `m` is a legal move here (exact encoding match, flags included).
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_null() {
            return false;
        }
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        if piece.color != self.side {
            return false;
        }
        let mut found = false;
        self.generate(|pm| {
            if pm.from == m.from() && pm.to.has(m.to()) {
                let mut list = MoveList::new();
                self.expand(
                    PieceMoves {
                        to: m.to().bb(),
                        ..pm
                    },
                    &mut list,
                );
                found = list.contains(&m);
                return true;
            }
            false
        });
        found
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies (bulk counting at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves_into(&mut list);
            list.iter().map(|&m| perft(&pos.play(m), depth - 1)).sum()
        }
    }
}

/// Per-root-move perft counts (`--divide`), in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let list = pos.legal_moves();
    list.iter()
        .map(|&m| {
            let n = if depth <= 1 {
                1
            } else {
                perft(&pos.play(m), depth - 1)
            };
            (m, n)
        })
        .collect()
}
