//! Legal move generation.
//!
//! Three front ends share the same legality rules:
//!
//! - [`Position::generate`] yields moves grouped by piece ([`PieceMoves`]: one origin square and
//!   a bitboard of destinations), for callers that want per-piece sets;
//! - [`Position::for_each_legal_move`] yields single [`Move`]s with their kinds, generating pawn
//!   moves set-wise (whole pawn sets shifted at once);
//! - [`Position::count_legal`] counts moves with popcounts (bulk counting at perft leaves).
//!
//! Legality is exact: check evasion masks, pins along the king line (pinned pieces move only
//! along it, and not at all when in check), king moves into attacked squares excluded (tested
//! with the king lifted off the board), castling through or out of check excluded, and en
//! passant checked by removing both pawns (horizontal pins, discovered checks).

use crate::{
    attacks::{
        between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
        rook_attacks, rook_rays,
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
const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// Per colour: rotation (left) that moves a pawn one rank forward, one rank forward and one file
/// towards a (west), and one rank forward and one file towards h (east). Rotations never wrap
/// for pawns: no pawn stands on its last rank, and the file masks exclude edge wrap-around.
const PUSH: [u32; 2] = [8, 56];
const WEST: [u32; 2] = [7, 55];
const EAST: [u32; 2] = [9, 57];
/// Per colour: the squares f1, g1, d1, c1 (king side crossed and destination, queen side crossed
/// and destination), relative to the colour.
const CASTLE_SQUARES: [(Square, Square, Square, Square); 2] = [
    (
        Square::new(5),
        Square::new(6),
        Square::new(3),
        Square::new(2),
    ),
    (
        Square::new(61),
        Square::new(62),
        Square::new(59),
        Square::new(58),
    ),
];
/// Per colour: the rank a single push lands on from which a double push continues.
const DOUBLE_PUSH_RANK: [u64; 2] = [0xff << 16, 0xff << 40];

/// Sums the sizes of several bitboards with a bit-sliced counter (per square: `ones + 2 * twos`,
/// plus a rare overflow), cheaper than one popcount per bitboard on CPUs without POPCNT.
struct SetCounter {
    ones: u64,
    twos: u64,
    extra: u32,
}

impl SetCounter {
    #[inline(always)]
    fn new(first: Bitboard) -> SetCounter {
        SetCounter {
            ones: first.0,
            twos: 0,
            extra: 0,
        }
    }

    #[inline(always)]
    fn add(&mut self, set: Bitboard) {
        let carry = self.ones & set.0;
        self.ones ^= set.0;
        let overflow = self.twos & carry;
        self.twos ^= carry;
        if overflow != 0 {
            self.extra += 4 * overflow.count_ones();
        }
    }

    #[inline(always)]
    fn total(&self) -> u32 {
        self.ones.count_ones() + 2 * self.twos.count_ones() + self.extra
    }
}

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

/// The origin of a pawn that reached `to` by the rotation `rot`.
#[inline(always)]
fn pawn_origin(to: Square, rot: u32) -> Square {
    Square::new((to.to_u8().wrapping_sub(rot as u8)) & 63)
}

#[inline(always)]
fn promotion_bits(from: Square, to: Square, base: u16, k: u16) -> Move {
    Move::from_bits(from.to_u8() as u16 | (to.to_u8() as u16) << 6 | (base + k) << 12)
}

/// Set-wise destinations of a set of pawns (unmasked by check evasion): single pushes, double
/// pushes, west captures and east captures.
#[inline(always)]
fn pawn_sets(us: Color, pawns: Bitboard, occ: Bitboard, theirs: Bitboard) -> [Bitboard; 4] {
    let c = us.index();
    let p = pawns.0;
    let single = p.rotate_left(PUSH[c]) & !occ.0;
    let double = (single & DOUBLE_PUSH_RANK[c]).rotate_left(PUSH[c]) & !occ.0;
    let west = (p & NOT_FILE_A).rotate_left(WEST[c]) & theirs.0;
    let east = (p & NOT_FILE_H).rotate_left(EAST[c]) & theirs.0;
    [
        Bitboard(single),
        Bitboard(double),
        Bitboard(west),
        Bitboard(east),
    ]
}

/// The legal destinations of a single pawn on `from` (no en passant), before pin and check
/// masks.
#[inline(always)]
fn single_pawn_moves(us: Color, from: Square, occ: Bitboard, theirs: Bitboard) -> Bitboard {
    let c = us.index();
    let single = from.bb().0.rotate_left(PUSH[c]) & !occ.0;
    let double = (single & DOUBLE_PUSH_RANK[c]).rotate_left(PUSH[c]) & !occ.0;
    Bitboard(single | double) | (pawn_attacks(us, from) & theirs)
}

impl Position {
    /// Whether the side not to move attacks `sq` given the occupancy `occ` (with the king of
    /// the side to move lifted off when testing king destinations).
    #[inline(always)]
    fn attacked_by_them(&self, sq: Square, occ: Bitboard) -> bool {
        let us = self.side;
        let theirs = self.colors[us.flip().index()];
        let queens = self.roles[Role::Queen.index()];
        if (knight_attacks(sq) & self.roles[Role::Knight.index()] & theirs).is_not_empty()
            || (pawn_attacks(us, sq) & self.roles[Role::Pawn.index()] & theirs).is_not_empty()
            || (king_attacks(sq) & self.roles[Role::King.index()] & theirs).is_not_empty()
        {
            return true;
        }
        let rq = (self.roles[Role::Rook.index()] | queens) & theirs;
        if (rook_rays(sq) & rq).is_not_empty() && (rook_attacks(sq, occ) & rq).is_not_empty() {
            return true;
        }
        let bq = (self.roles[Role::Bishop.index()] | queens) & theirs;
        (bishop_rays(sq) & bq).is_not_empty() && (bishop_attacks(sq, occ) & bq).is_not_empty()
    }

    /// Every square the side not to move attacks, given the occupancy `occ`.
    #[inline(always)]
    fn their_attacks(&self, occ: Bitboard) -> Bitboard {
        let them = self.side.flip();
        let t = them.index();
        let theirs = self.colors[t];
        let pawns = (self.roles[Role::Pawn.index()] & theirs).0;
        let mut attacked = Bitboard(
            (pawns & NOT_FILE_A).rotate_left(WEST[t]) | (pawns & NOT_FILE_H).rotate_left(EAST[t]),
        ) | king_attacks(self.king(them));
        for sq in self.roles[Role::Knight.index()] & theirs {
            attacked |= knight_attacks(sq);
        }
        let queens = self.roles[Role::Queen.index()];
        for sq in (self.roles[Role::Bishop.index()] | queens) & theirs {
            attacked |= bishop_attacks(sq, occ);
        }
        for sq in (self.roles[Role::Rook.index()] | queens) & theirs {
            attacked |= rook_attacks(sq, occ);
        }
        attacked
    }

    /// Legal destinations of the king of the side to move, castling included.
    #[inline(always)]
    fn king_destinations<const IN_CHECK: bool>(&self, king: Square) -> Bitboard {
        let us = self.side;
        let ours = self.colors[us.index()];
        let occ = self.occupied();
        let candidates = king_attacks(king) & !ours;
        let castle = if IN_CHECK {
            Bitboard::EMPTY
        } else {
            self.castling_paths(occ)
        };
        let rest = Bitboard(candidates.0 & candidates.0.wrapping_sub(1));
        if castle.is_empty() && !rest.more_than_one() {
            // At most two squares to test: cheaper one by one than the whole attack map.
            let occ = occ ^ king.bb();
            let mut to = Bitboard::EMPTY;
            for sq in candidates {
                if !self.attacked_by_them(sq, occ) {
                    to |= sq.bb();
                }
            }
            return to;
        }
        // With the king lifted off, so that it does not hide squares behind itself from
        // sliders that check it. (Castling is only considered when not in check, and then no
        // attack on the crossed squares passes through the king's square.)
        let safe = !self.their_attacks(occ ^ king.bb());
        let mut to = candidates & safe;
        if castle.is_not_empty() {
            let (f, g, d, c) = CASTLE_SQUARES[us.index()];
            if castle.has(g) && safe.has(f) && safe.has(g) {
                to |= g.bb();
            }
            if castle.has(c) && safe.has(d) && safe.has(c) {
                to |= c.bb();
            }
        }
        to
    }

    /// The castling destinations whose rights are held and whose squares between king and rook
    /// are empty (attacks not yet considered).
    #[inline(always)]
    fn castling_paths(&self, occ: Bitboard) -> Bitboard {
        let us = self.side;
        let rights = self.castling & CastlingRights::of(us);
        if rights.is_empty() {
            return Bitboard::EMPTY;
        }
        let (_, g, _, c) = CASTLE_SQUARES[us.index()];
        let shift = 56 * us.index() as u32;
        let mut to = Bitboard::EMPTY;
        if rights.intersects(CastlingRights::king_side(us)) && occ.0 & (0x60 << shift) == 0 {
            to |= g.bb();
        }
        if rights.intersects(CastlingRights::queen_side(us)) && occ.0 & (0x0e << shift) == 0 {
            to |= c.bb();
        }
        to
    }

    /// Squares non-king pieces may move to: anywhere not ours, or when in check (by a single
    /// piece) only onto the checker or between it and the king.
    #[inline(always)]
    fn evasion_target<const IN_CHECK: bool>(&self, king: Square) -> Bitboard {
        let not_ours = !self.colors[self.side.index()];
        if IN_CHECK {
            let checker = self.checkers.lsb();
            (between(king, checker) | checker.bb()) & not_ours
        } else {
            not_ours
        }
    }

    /// The side to move's pawns that may capture en passant legally (empty without an
    /// en-passant square).
    #[inline(always)]
    fn en_passant_capturers(&self) -> Bitboard {
        let Some(ep) = self.ep else {
            return Bitboard::EMPTY;
        };
        self.ep_capturers_slow(ep)
    }

    #[cold]
    #[inline(never)]
    fn ep_capturers_slow(&self, ep: Square) -> Bitboard {
        let us = self.side;
        let mut out = Bitboard::EMPTY;
        for from in pawn_attacks(us.flip(), ep) & self.pieces(us, Role::Pawn) {
            if self.ep_capture_is_legal(from, ep) {
                out |= from.bb();
            }
        }
        out
    }

    /// Calls `f` with the legal moves of each piece that has some, king first, one group per
    /// piece. Stops early and returns `true` as soon as `f` returns `true`.
    #[inline]
    pub fn generate<F: FnMut(PieceMoves) -> bool>(&self, mut f: F) -> bool {
        if self.checkers.is_empty() {
            self.generate_groups::<false, F>(&mut f)
        } else {
            self.generate_groups::<true, F>(&mut f)
        }
    }

    #[inline(always)]
    fn generate_groups<const IN_CHECK: bool, F: FnMut(PieceMoves) -> bool>(
        &self,
        f: &mut F,
    ) -> bool {
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.colors[us.flip().index()];
        let king = self.king(us);

        let king_to = self.king_destinations::<IN_CHECK>(king);
        if king_to.is_not_empty()
            && f(PieceMoves {
                role: Role::King,
                from: king,
                to: king_to,
            })
        {
            return true;
        }
        if IN_CHECK && self.checkers.more_than_one() {
            return false;
        }
        let target = self.evasion_target::<IN_CHECK>(king);
        let pinned = self.pinned;
        // Pinned pieces cannot move at all when in check.
        let movable = if IN_CHECK { !pinned } else { Bitboard::FULL };

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
            for from in self.pieces(us, role) & movable {
                let attacks = match role {
                    Role::Bishop => bishop_attacks(from, occ),
                    Role::Rook => rook_attacks(from, occ),
                    _ => bishop_attacks(from, occ) | rook_attacks(from, occ),
                };
                let mut to = attacks & target;
                if !IN_CHECK && pinned.has(from) {
                    to &= line(king, from);
                }
                if to.is_not_empty() && f(PieceMoves { role, from, to }) {
                    return true;
                }
            }
        }

        let ep_capturers = self.en_passant_capturers();
        for from in self.pieces(us, Role::Pawn) & movable {
            let mut to = single_pawn_moves(us, from, occ, theirs) & target;
            if !IN_CHECK && pinned.has(from) {
                to &= line(king, from);
            }
            if let Some(ep) = self.ep
                && ep_capturers.has(from)
            {
                to |= ep.bb();
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
        // A pinned pawn may still capture en passant when in check only if the exact test says
        // so; that cannot happen (a pinned piece never resolves a check), but stay exact.
        if IN_CHECK && let Some(ep) = self.ep {
            for from in ep_capturers & pinned {
                if f(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to: ep.bb(),
                }) {
                    return true;
                }
            }
        }
        false
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
                            list.push(promotion_bits(from, to, base, k));
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

    /// Calls `f` with every legal move (kinds included), each exactly once: castling and king
    /// steps, knights, diagonal moves of bishops and queens, orthogonal moves of rooks and
    /// queens, then pawns (generated set-wise: pushes, double pushes, captures, en passant).
    #[inline]
    pub fn for_each_legal_move<F: FnMut(Move)>(&self, mut f: F) {
        if self.checkers.is_empty() {
            self.moves_impl::<false, F>(&mut f)
        } else {
            self.moves_impl::<true, F>(&mut f)
        }
    }

    #[inline(always)]
    fn emit_piece<F: FnMut(Move)>(&self, from: Square, to: Bitboard, f: &mut F) {
        let theirs = self.colors[self.side.flip().index()];
        for sq in to & theirs {
            f(Move::new(from, sq, MoveKind::Capture));
        }
        for sq in to & !theirs {
            f(Move::new(from, sq, MoveKind::Quiet));
        }
    }

    #[inline(always)]
    fn emit_pawn_set<F: FnMut(Move)>(&self, to: Bitboard, rot: u32, capture: bool, f: &mut F) {
        let (quiet_kind, base) = if capture {
            (MoveKind::Capture, 12)
        } else {
            (MoveKind::Quiet, 8)
        };
        for sq in to & !PROMOTION_RANKS {
            f(Move::new(pawn_origin(sq, rot), sq, quiet_kind));
        }
        for sq in to & PROMOTION_RANKS {
            let from = pawn_origin(sq, rot);
            for k in [3u16, 0, 1, 2] {
                f(promotion_bits(from, sq, base, k));
            }
        }
    }

    #[inline(always)]
    fn moves_impl<const IN_CHECK: bool, F: FnMut(Move)>(&self, f: &mut F) {
        let us = self.side;
        let c = us.index();
        let occ = self.occupied();
        let theirs = self.colors[us.flip().index()];
        let king = self.king(us);

        let king_to = self.king_destinations::<IN_CHECK>(king);
        if !IN_CHECK && (king_to & !king_attacks(king)).is_not_empty() {
            for sq in king_to & !king_attacks(king) {
                let kind = if sq.file() == 6 {
                    MoveKind::CastleKing
                } else {
                    MoveKind::CastleQueen
                };
                f(Move::new(king, sq, kind));
            }
            self.emit_piece(king, king_to & king_attacks(king), f);
        } else {
            self.emit_piece(king, king_to, f);
        }
        if IN_CHECK && self.checkers.more_than_one() {
            return;
        }
        let target = self.evasion_target::<IN_CHECK>(king);
        let pinned = self.pinned;
        let movable = if IN_CHECK { !pinned } else { Bitboard::FULL };

        for from in self.pieces(us, Role::Knight) & !pinned {
            self.emit_piece(from, knight_attacks(from) & target, f);
        }
        let queens = self.roles[Role::Queen.index()];
        let ours = self.colors[c];
        for from in (self.roles[Role::Bishop.index()] | queens) & ours & movable {
            let mut to = bishop_attacks(from, occ) & target;
            if !IN_CHECK && pinned.has(from) {
                to &= line(king, from);
            }
            self.emit_piece(from, to, f);
        }
        for from in (self.roles[Role::Rook.index()] | queens) & ours & movable {
            let mut to = rook_attacks(from, occ) & target;
            if !IN_CHECK && pinned.has(from) {
                to &= line(king, from);
            }
            self.emit_piece(from, to, f);
        }

        let pawns = self.pieces(us, Role::Pawn);
        let [single, double, west, east] = pawn_sets(us, pawns & !pinned, occ, theirs);
        self.emit_pawn_set(single & target, PUSH[c], false, f);
        for sq in double & target {
            f(Move::new(
                pawn_origin(sq, 2 * PUSH[c]),
                sq,
                MoveKind::DoublePush,
            ));
        }
        self.emit_pawn_set(west & target, WEST[c], true, f);
        self.emit_pawn_set(east & target, EAST[c], true, f);
        if !IN_CHECK {
            for from in pawns & pinned {
                let to = single_pawn_moves(us, from, occ, theirs) & target & line(king, from);
                for sq in to {
                    let capture = theirs.has(sq);
                    if PROMOTION_RANKS.has(sq) {
                        let base = if capture { 12 } else { 8 };
                        for k in [3u16, 0, 1, 2] {
                            f(promotion_bits(from, sq, base, k));
                        }
                    } else {
                        let kind = if capture {
                            MoveKind::Capture
                        } else if from.to_u8().abs_diff(sq.to_u8()) == 16 {
                            MoveKind::DoublePush
                        } else {
                            MoveKind::Quiet
                        };
                        f(Move::new(from, sq, kind));
                    }
                }
            }
        }
        if let Some(ep) = self.ep {
            for from in self.en_passant_capturers() {
                f(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }

    /// Fills `list` with every legal move (cleared first).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.for_each_legal_move(|m| list.push(m));
    }

    /// Every legal move in a new list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Number of legal moves, counted with popcounts without producing the moves.
    #[inline]
    pub fn count_legal(&self) -> usize {
        if self.checkers.is_empty() {
            self.count_impl::<false>()
        } else {
            self.count_impl::<true>()
        }
    }

    #[inline(always)]
    fn count_impl<const IN_CHECK: bool>(&self) -> usize {
        let us = self.side;
        let occ = self.occupied();
        let ours = self.colors[us.index()];
        let theirs = self.colors[us.flip().index()];
        let king = self.king(us);

        let king_to = self.king_destinations::<IN_CHECK>(king);
        if IN_CHECK && self.checkers.more_than_one() {
            return king_to.len() as usize;
        }
        let mut sum = SetCounter::new(king_to);
        let target = self.evasion_target::<IN_CHECK>(king);
        let pinned = self.pinned;

        for from in self.pieces(us, Role::Knight) & !pinned {
            sum.add(knight_attacks(from) & target);
        }
        let queens = self.roles[Role::Queen.index()];
        for from in (self.roles[Role::Bishop.index()] | queens) & ours & !pinned {
            sum.add(bishop_attacks(from, occ) & target);
        }
        for from in (self.roles[Role::Rook.index()] | queens) & ours & !pinned {
            sum.add(rook_attacks(from, occ) & target);
        }

        let pawns = self.pieces(us, Role::Pawn);
        let [single, double, west, east] = pawn_sets(us, pawns & !pinned, occ, theirs);
        let (single, west, east) = (single & target, west & target, east & target);
        // Pushes land on empty squares and captures on enemy pieces: these sets are disjoint,
        // only the two capture directions can overlap.
        sum.add(single | (double & target) | west);
        sum.add(east);
        if !IN_CHECK && pinned.is_not_empty() {
            self.count_pinned(king, target, occ, theirs, &mut sum);
        }
        let mut n = sum.total();
        if ((single | west | east) & PROMOTION_RANKS).is_not_empty() {
            n += 3
                * ((single & PROMOTION_RANKS).len()
                    + (west & PROMOTION_RANKS).len()
                    + (east & PROMOTION_RANKS).len());
        }

        if self.ep.is_some() {
            n += self.en_passant_capturers().len();
        }
        n as usize
    }

    /// Moves of pinned pieces (not in check): along the pin line only.
    #[inline(never)]
    fn count_pinned(
        &self,
        king: Square,
        target: Bitboard,
        occ: Bitboard,
        theirs: Bitboard,
        sum: &mut SetCounter,
    ) {
        let us = self.side;
        let ours = self.colors[us.index()];
        let pinned = self.pinned;
        let queens = self.roles[Role::Queen.index()];
        for from in (self.roles[Role::Bishop.index()] | queens) & ours & pinned {
            sum.add(bishop_attacks(from, occ) & target & line(king, from));
        }
        for from in (self.roles[Role::Rook.index()] | queens) & ours & pinned {
            sum.add(rook_attacks(from, occ) & target & line(king, from));
        }
        for from in self.pieces(us, Role::Pawn) & pinned {
            let to = single_pawn_moves(us, from, occ, theirs) & target & line(king, from);
            sum.add(to);
            if (to & PROMOTION_RANKS).is_not_empty() {
                sum.extra += 3 * (to & PROMOTION_RANKS).len();
            }
        }
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
        2 => {
            let mut n = 0;
            pos.for_each_legal_move(|m| n += pos.play(m).count_legal() as u64);
            n
        }
        _ => {
            let mut n = 0;
            pos.for_each_legal_move(|m| n += perft(&pos.play(m), depth - 1));
            n
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
