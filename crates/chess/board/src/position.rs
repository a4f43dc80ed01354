//! The position: bitboards plus a mailbox, copy-make move application and null moves.

use crate::{
    attacks::{
        between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks,
        rook_attacks, rook_rays,
    },
    moves::{Move, MoveKind},
    types::{Bitboard, CastlingRights, Color, Piece, Role, Square},
    zobrist,
};

/// Mailbox value of an empty square.
const EMPTY: u8 = 12;

/// The kind index of each mailbox value (piece index colour * 6 + kind), indexed `value & 15`
/// (entries 12 to 15, for empty squares, are never used).
const ROLE_OF: [usize; 16] = [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0];

/// Castling rights lost when a move starts or ends on each square.
const CASTLING_LOSS: [CastlingRights; 64] = {
    let mut t = [CastlingRights::empty(); 64];
    t[0] = CastlingRights::WHITE_QUEEN; // a1
    t[4] = CastlingRights::from_bits_retain(3); // e1
    t[7] = CastlingRights::WHITE_KING; // h1
    t[56] = CastlingRights::BLACK_QUEEN; // a8
    t[60] = CastlingRights::from_bits_retain(12); // e8
    t[63] = CastlingRights::BLACK_KING; // h8
    t
};

/// A chess position: placement (per-kind and per-colour bitboards plus a mailbox), side to move,
/// castling rights, the en-passant square (kept **only when an en-passant capture is legal**),
/// the clocks, the incremental Zobrist key, and the checkers and pinned pieces of the side to
/// move.
///
/// Positions are `Copy`: the searcher uses copy-make ([`Position::play`]) rather than unmake.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) roles: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) mailbox: [u8; 64],
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// FEN of the standard initial position.
    pub const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// The standard initial position.
    pub fn startpos() -> Position {
        Position::from_fen(Position::START_FEN).expect("the initial FEN is valid")
    }

    /// An empty board with white to move (internal building block).
    pub(crate) fn empty() -> Position {
        Position {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            mailbox: [EMPTY; 64],
            side: Color::White,
            castling: CastlingRights::empty(),
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    // ---- Accessors -------------------------------------------------------------------------

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The castling rights.
    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant target square, present only when an en-passant capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move (the fifty-move-rule clock).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The full-move number, starting at 1 and incremented after black's move.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key (identity: placement, side, castling rights, legal en passant).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.is_not_empty()
    }

    /// The side to move's pieces pinned to their king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The squares of pieces of kind `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role.index()]
    }

    /// The squares of `color`'s pieces of kind `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.colors[color.index()] & self.roles[role.index()]
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.mailbox[sq.index()] {
            EMPTY => None,
            i => Some(Piece::from_index(i as usize)),
        }
    }

    /// `color`'s king square.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    /// Whether `self` and `other` are the same position under FIDE identity: placement, side to
    /// move, castling rights and (legal) en-passant square. Clocks are ignored.
    pub fn same_position(&self, other: &Position) -> bool {
        self.mailbox == other.mailbox
            && self.side == other.side
            && self.castling == other.castling
            && self.ep == other.ep
    }

    // ---- Attacks ---------------------------------------------------------------------------

    /// Every piece (both colours) attacking `sq`, given the occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let rq = self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()];
        let bq = self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()];
        (rook_attacks(sq, occ) & rq)
            | (bishop_attacks(sq, occ) & bq)
            | (knight_attacks(sq) & self.roles[Role::Knight.index()])
            | (king_attacks(sq) & self.roles[Role::King.index()])
            | (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Whether `by` attacks `sq`, given the occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.colors[by.index()];
        let queens = self.roles[Role::Queen.index()];
        (knight_attacks(sq) & them & self.roles[Role::Knight.index()]).is_not_empty()
            || (pawn_attacks(by.flip(), sq) & them & self.roles[Role::Pawn.index()]).is_not_empty()
            || (king_attacks(sq) & them & self.roles[Role::King.index()]).is_not_empty()
            || (rook_attacks(sq, occ) & them & (self.roles[Role::Rook.index()] | queens))
                .is_not_empty()
            || (bishop_attacks(sq, occ) & them & (self.roles[Role::Bishop.index()] | queens))
                .is_not_empty()
    }

    /// Whether the side to move's pawn on `from` may legally capture en passant onto `ep`.
    /// Exact: removes both pawns and checks every attack on the king, so horizontal pins and
    /// discovered checks are handled.
    #[inline]
    pub(crate) fn ep_capture_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let captured = Square::new(ep.to_u8() ^ 8);
        let occ = (self.occupied() ^ from.bb() ^ captured.bb()) | ep.bb();
        let king = self.king(us);
        let attackers = self.attackers_to(king, occ) & self.colors[us.flip().index()];
        (attackers & !captured.bb()).is_empty()
    }

    /// Whether the side to move has some legal en-passant capture onto `ep`.
    pub(crate) fn any_legal_ep(&self, ep: Square) -> bool {
        let us = self.side;
        let candidates = pawn_attacks(us.flip(), ep) & self.pieces(us, Role::Pawn);
        candidates
            .into_iter()
            .any(|from| self.ep_capture_is_legal(from, ep))
    }

    // ---- Placement primitives --------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bb();
        self.roles[piece.role.index()] |= bb;
        self.colors[piece.color.index()] |= bb;
        self.mailbox[sq.index()] = piece.index() as u8;
        self.key ^= zobrist::piece_key(piece, sq);
    }

    /// Recomputes the checkers and pinned pieces of the side to move.
    #[inline]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = us.flip();
        let king = self.king(us);
        let occ = self.occupied();
        let theirs = self.colors[them.index()];
        self.checkers = self.attackers_to(king, occ) & theirs;
        let queens = self.roles[Role::Queen.index()];
        let snipers = ((rook_attacks(king, Bitboard::EMPTY)
            & (self.roles[Role::Rook.index()] | queens))
            | (bishop_attacks(king, Bitboard::EMPTY)
                & (self.roles[Role::Bishop.index()] | queens)))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        self.pinned = pinned & self.colors[us.index()];
    }

    /// The key computed from scratch (for tests and FEN parsing).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in Square::ALL {
            if let Some(piece) = self.piece_at(sq) {
                key ^= zobrist::piece_key(piece, sq);
            }
        }
        key ^= zobrist::castling_key(self.castling);
        if let Some(ep) = self.ep {
            key ^= zobrist::ep_key(ep.file());
        }
        if self.side == Color::Black {
            key ^= zobrist::SIDE_KEY;
        }
        key
    }

    // ---- Making moves ----------------------------------------------------------------------

    /// Plays a legal move in place. The move must be legal in this position (as produced by
    /// the move generator or the UCI/SAN parsers); anything else corrupts the position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        let flags = m.flags();
        // Mailbox values are piece indices: colour * 6 + kind.
        let mover = self.mailbox[from.index()] as usize;
        debug_assert!(
            mover < 12 && mover / 6 == us.index(),
            "{m:?} moves no piece of ours"
        );
        let mover_role = ROLE_OF[mover & 15];

        let mut key = self.key ^ zobrist::SIDE_KEY;
        if let Some(ep) = self.ep.take() {
            key ^= zobrist::ep_key(ep.file());
        }
        if mover_role == Role::Pawn.index() || flags & 4 != 0 {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        // Captures (flags 4, 5 and 12–15): take the victim off first.
        if flags & 4 != 0 {
            key ^= self.remove_victim(them, to, flags);
        }
        let (landed, moved) = self.move_piece(us, mover, from, to, flags);
        key ^= moved;
        // Castling (flags 2 and 3) also moves the rook.
        if flags & !1 == MoveKind::CastleKing as u16 {
            key ^= self.move_castling_rook(us, flags);
        }
        self.key = key;
        self.lose_castling(from, to);

        self.side = them;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_checkers_and_pins(us, Role::from_index(ROLE_OF[landed & 15]), to);
        if flags == MoveKind::DoublePush as u16 {
            self.set_ep_after_double_push(us, from, to);
        }
    }

    /// Takes the victim of the capture onto `to` off the board (the pawn behind `to` for en
    /// passant, `flags`); returns the key's change.
    #[inline(always)]
    fn remove_victim(&mut self, them: Color, to: Square, flags: u16) -> u64 {
        let (sq, victim) = if flags == MoveKind::EnPassant as u16 {
            let sq = Square::new(to.to_u8() ^ 8);
            self.mailbox[sq.index()] = EMPTY;
            (sq, them.index() * 6 + Role::Pawn.index())
        } else {
            (to, self.mailbox[to.index()] as usize)
        };
        let bb = sq.bb();
        self.roles[ROLE_OF[victim & 15]] ^= bb;
        self.colors[them.index()] ^= bb;
        zobrist::piece_key_index(victim, sq)
    }

    /// Moves piece index `mover` from `from` to `to`, promoting it as `flags` say; returns the
    /// piece index that landed and the key's change.
    #[inline(always)]
    fn move_piece(
        &mut self,
        us: Color,
        mover: usize,
        from: Square,
        to: Square,
        flags: u16,
    ) -> (usize, u64) {
        // The mover leaves `from`; what lands on `to` differs on promotion.
        let landed = if flags & 8 != 0 {
            us.index() * 6 + Role::Knight.index() + (flags & 3) as usize
        } else {
            mover
        };
        let (from_bb, to_bb) = (from.bb(), to.bb());
        self.roles[ROLE_OF[mover & 15]] ^= from_bb;
        self.roles[ROLE_OF[landed & 15]] ^= to_bb;
        self.colors[us.index()] ^= from_bb | to_bb;
        self.mailbox[from.index()] = EMPTY;
        self.mailbox[to.index()] = landed as u8;
        let key = zobrist::piece_key_index(mover, from) ^ zobrist::piece_key_index(landed, to);
        (landed, key)
    }

    /// Moves our rook of the castling move `flags` (king side or queen side); returns the key's
    /// change.
    #[inline(always)]
    fn move_castling_rook(&mut self, us: Color, flags: u16) -> u64 {
        let (rook_from, rook_to) = if flags == MoveKind::CastleKing as u16 {
            (Square::new(7).relative(us), Square::new(5).relative(us))
        } else {
            (Square::new(0).relative(us), Square::new(3).relative(us))
        };
        let rook = us.index() * 6 + Role::Rook.index();
        let bb = rook_from.bb() | rook_to.bb();
        self.roles[Role::Rook.index()] ^= bb;
        self.colors[us.index()] ^= bb;
        self.mailbox[rook_from.index()] = EMPTY;
        self.mailbox[rook_to.index()] = rook as u8;
        zobrist::piece_key_index(rook, rook_from) ^ zobrist::piece_key_index(rook, rook_to)
    }

    /// Drops the castling rights a move from `from` to `to` loses (king or rook moved or
    /// captured), key included.
    #[inline(always)]
    fn lose_castling(&mut self, from: Square, to: Square) {
        let lost = CASTLING_LOSS[from.index()] | CASTLING_LOSS[to.index()];
        if self.castling.intersects(lost) {
            let rights = self.castling - lost;
            self.key ^= zobrist::castling_key(self.castling) ^ zobrist::castling_key(rights);
            self.castling = rights;
        }
    }

    /// Checkers and pins of the new side to move, after `us` moved a piece that is now a
    /// `landed` on `to`, incrementally: a knight or pawn can only check from where it landed;
    /// sliders (moved, promoted, castled rook, or discovered) are found by scanning our sliders
    /// on the enemy king's lines.
    #[inline(always)]
    fn set_checkers_and_pins(&mut self, us: Color, landed: Role, to: Square) {
        let them = us.flip();
        let their_king = self.king(them);
        let mut checkers = match landed {
            Role::Knight => knight_attacks(their_king) & to.bb(),
            Role::Pawn => pawn_attacks(them, their_king) & to.bb(),
            _ => Bitboard::EMPTY,
        };
        let queens = self.roles[Role::Queen.index()];
        let snipers = self.colors[us.index()]
            & ((rook_rays(their_king) & (self.roles[Role::Rook.index()] | queens))
                | (bishop_rays(their_king) & (self.roles[Role::Bishop.index()] | queens)));
        let mut pinned = Bitboard::EMPTY;
        if snipers.is_not_empty() {
            let occ = self.occupied();
            for sniper in snipers {
                let blockers = between(their_king, sniper) & occ;
                if blockers.is_empty() {
                    checkers |= sniper.bb();
                } else if !blockers.more_than_one() {
                    pinned |= blockers;
                }
            }
        }
        self.checkers = checkers;
        self.pinned = pinned & self.colors[them.index()];
    }

    /// After `us`'s double push from `from` to `to`: the en-passant square, only when an enemy
    /// pawn can capture there legally (key included).
    #[inline(always)]
    fn set_ep_after_double_push(&mut self, us: Color, from: Square, to: Square) {
        let them = us.flip();
        let ep = Square::new((from.to_u8() + to.to_u8()) / 2);
        if (pawn_attacks(us, ep) & self.pieces(them, Role::Pawn)).is_not_empty()
            && self.any_legal_ep(ep)
        {
            self.ep = Some(ep);
            self.key ^= zobrist::ep_key(ep.file());
        }
    }

    /// The position after the legal move `m` (copy-make).
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// Passes the turn (a null move, as used by null-move pruning). The side to move must not
    /// be in check. The en-passant right, if any, is lost.
    pub fn play_null(&mut self) {
        debug_assert!(!self.is_check(), "null move while in check");
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::ep_key(ep.file());
        }
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= zobrist::SIDE_KEY;
        self.update_check_info();
    }

    /// Whether `m` is irreversible in the FIDE sense used by python-chess: a capture, a pawn
    /// move, a move that gives up a castling right, or any move from a position with a legal
    /// en-passant capture (the right is lost). No position before such a move can recur after it.
    pub fn is_irreversible(&self, m: Move) -> bool {
        if m.is_null() {
            return false;
        }
        m.is_capture()
            || self.mailbox[m.from().index()] % 6 == Role::Pawn as u8
            || self.ep.is_some()
            || self
                .castling
                .intersects(CASTLING_LOSS[m.from().index()] | CASTLING_LOSS[m.to().index()])
    }

    /// Whether `m` resets the fifty-move clock (a capture or a pawn move).
    pub fn is_zeroing(&self, m: Move) -> bool {
        !m.is_null() && (m.is_capture() || self.mailbox[m.from().index()] % 6 == Role::Pawn as u8)
    }

    /// Whether `side` cannot checkmate whatever the other side does, as python-chess's
    /// `has_insufficient_material` decides: no pawns, rooks or queens, and either a lone knight
    /// with an opponent of only king and queens, or only bishops all on squares of one colour
    /// (with no knights or pawns anywhere).
    pub fn has_insufficient_material(&self, side: Color) -> bool {
        let ours = self.by_color(side);
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy).is_not_empty() {
            return false;
        }
        if (ours & self.by_role(Role::Knight)).is_not_empty() {
            let theirs = self.by_color(side.flip());
            let others = theirs & !self.by_role(Role::King) & !self.by_role(Role::Queen);
            return ours.len() <= 2 && others.is_empty();
        }
        if (ours & self.by_role(Role::Bishop)).is_not_empty() {
            let bishops = self.by_role(Role::Bishop);
            let same_colour =
                (bishops & DARK_SQUARES).is_empty() || (bishops & !DARK_SQUARES).is_empty();
            return same_colour
                && self.by_role(Role::Pawn).is_empty()
                && self.by_role(Role::Knight).is_empty();
        }
        true
    }

    /// Whether neither side can checkmate (python-chess's `is_insufficient_material`, FIDE
    /// Laws 5.2.2's dead positions as far as material decides them): bare kings, a lone minor
    /// piece against a bare king, or bishops only, all on squares of one colour. The first test
    /// (any pawn, rook or queen on the board) decides almost every position of a game, so a
    /// searcher can ask at every node.
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        heavy.is_empty()
            && self.has_insufficient_material(Color::White)
            && self.has_insufficient_material(Color::Black)
    }
}

/// The dark squares (a1, c1, …).
const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
