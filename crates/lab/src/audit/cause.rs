//! Naming why a detector disagrees with truth at a ply, from the positions involved.
//!
//! The causes form a small fixed vocabulary so errors can be counted per cause. Each is
//! recognised by looking at the two positions concerned (the current one and the earlier one
//! the detector or truth pointed at) and at the moves between them, not by trusting the
//! detector's own account.

use replab_board::{Move, Position, Role, Square};
use replab_registry::{Repetition, Stats};

use super::judge::{Check, Kind, Spec};

/// The side to move differs: an odd number of plies separates the two positions.
pub const ODD_LENGTH: &str = "odd-length triangulation: the side to move differs";
/// Same placement and side, different castling rights.
pub const CASTLING: &str = "castling right lost between identical arrangements";
/// Same placement, side and castling rights, different en-passant right.
pub const EN_PASSANT: &str = "en passant right differs";
/// Different positions with equal keys.
pub const KEY_COLLISION: &str = "hash key collision";
/// Pieces of different kinds went round one cycle of squares.
pub const SQUARES: &str = "different pieces went round the same squares (chains follow squares)";
/// The detector pointed before the line's start.
pub const BEFORE_START: &str = "reported occurrence lies before the line's start";
/// Same-kind pieces ended on each other's squares.
pub const SWAPPED: &str = "same-kind pieces swapped squares";
/// A fixed-size list overflowed during the probe.
pub const OVERFLOW: &str = "move list/chain overflow";
/// `tt-open` could not open the earlier occurrence's entry.
pub const TT_MISS: &str = "table slot collision: the earlier occurrence's slot was held by \
                           another open position (miss)";
/// `filo` had no free slot for the earlier occurrence.
pub const FILO_MISS: &str = "table full: the earlier occurrence was not stored (miss)";
/// Another detector lost a position.
pub const MISS: &str = "a position was not stored (miss)";
/// Cuckoo: the reversible move would lose a castling right.
pub const CYCLE_CASTLING: &str = "the cycling move loses a castling right";
/// Cuckoo: no legal move repeats although a table move matches the key difference.
pub const TABLE_MATCH: &str = "key difference matches a table move, no legal move repeats";
/// Cuckoo: the repeating move is a capture, pawn move or castling.
pub const IRREVERSIBLE: &str = "the cycle closes with an irreversible move";
/// Cuckoo: the earlier position lies beyond `min(halfmove clock, plies since null)`.
pub const BEYOND_SPAN: &str = "earlier position lies beyond the halfmove-clock span";
/// None of the above.
pub const UNCLASSIFIED: &str = "unclassified";

/// An erroneous ply and what each side said.
pub struct ErrorCtx<'a> {
    /// The detector.
    pub spec: &'a Spec,
    /// The error kind.
    pub kind: Kind,
    /// The positions from the line's start up to and including the erroneous one.
    pub positions: &'a [Position],
    /// The moves between them.
    pub moves: &'a [Move],
    /// The detector's probe answer (probe checks).
    pub detected: Option<Repetition>,
    /// Truth's probe answer.
    pub truth: Option<Repetition>,
    /// The detector's counters before this ply's probe.
    pub before: Stats,
    /// The detector's counters after this ply's probe and enter.
    pub after: Stats,
}

/// Whether the pieces stand on the same squares in `a` and `b`.
pub fn same_placement(a: &Position, b: &Position) -> bool {
    Square::ALL.iter().all(|&s| a.piece_at(s) == b.piece_at(s))
}

/// Whether playing `moves` from `from` brings back the placement with some piece on another
/// piece's square: same-kind pieces swapped squares.
pub fn pieces_swapped(from: &Position, moves: &[Move]) -> bool {
    // ids[sq] = 1 + the square the piece on `sq` stood on at the start.
    let mut ids = [0u8; 64];
    for sq in Square::ALL {
        if from.piece_at(sq).is_some() {
            ids[sq.index()] = sq.to_u8() + 1;
        }
    }
    let mut pos = *from;
    for &m in moves {
        let (f, t) = (m.from().index(), m.to().index());
        if m.is_castle() {
            let back = f & !7;
            let (rf, rt) = if m.to().file() == 6 {
                (back + 7, back + 5)
            } else {
                (back, back + 3)
            };
            ids[rt] = ids[rf];
            ids[rf] = 0;
        }
        if m.is_en_passant() {
            ids[t ^ 8] = 0;
        }
        ids[t] = ids[f];
        ids[f] = 0;
        pos = pos.play(m);
    }
    same_placement(from, &pos)
        && ids
            .iter()
            .enumerate()
            .any(|(sq, &id)| id != 0 && id as usize != sq + 1)
}

/// Why the detector errs at the last position of `ctx.positions`.
pub fn cause(ctx: &ErrorCtx<'_>) -> &'static str {
    let n = ctx.positions.len() - 1;
    let cur = &ctx.positions[n];
    match (ctx.spec.check(), ctx.kind) {
        (Check::Probe, Kind::FalsePositive) => {
            let Some(d) = ctx.detected.map(|r| r.distance as usize) else {
                return UNCLASSIFIED;
            };
            if d == 0 || d > n {
                return BEFORE_START;
            }
            let earlier = &ctx.positions[n - d];
            if d % 2 == 1 {
                ODD_LENGTH
            } else if same_placement(earlier, cur) {
                if earlier.castling() != cur.castling() {
                    CASTLING
                } else if earlier.ep_square() != cur.ep_square() {
                    EN_PASSANT
                } else {
                    UNCLASSIFIED
                }
            } else if earlier.key() == cur.key() {
                KEY_COLLISION
            } else {
                SQUARES
            }
        }
        (Check::Probe, Kind::FalseNegative) => {
            let d = ctx.truth.map_or(0, |r| r.distance as usize);
            if ctx.after.misses > 0 {
                match ctx.spec.technique() {
                    "tt-open" => TT_MISS,
                    "filo" => FILO_MISS,
                    _ => MISS,
                }
            } else if ctx.after.overflows > ctx.before.overflows {
                OVERFLOW
            } else if d > 0 && d <= n && pieces_swapped(&ctx.positions[n - d], &ctx.moves[n - d..])
            {
                SWAPPED
            } else {
                UNCLASSIFIED
            }
        }
        (Check::Upcoming, Kind::FalsePositive) => {
            for &m in cur.legal_moves().iter() {
                let child = cur.play(m);
                for earlier in &ctx.positions[..n] {
                    if earlier.side_to_move() == child.side_to_move()
                        && same_placement(earlier, &child)
                    {
                        if earlier.castling() != child.castling() {
                            return CYCLE_CASTLING;
                        }
                        if earlier.ep_square() != child.ep_square() {
                            return EN_PASSANT;
                        }
                    }
                }
            }
            TABLE_MATCH
        }
        (Check::Upcoming, Kind::FalseNegative) => {
            let span = usize::from(cur.halfmove_clock()).min(n);
            for &m in cur.legal_moves().iter() {
                let child = cur.play(m);
                let Some(j) = ctx.positions[..n]
                    .iter()
                    .rposition(|p| p.same_position(&child))
                else {
                    continue;
                };
                let role = cur.piece_at(m.from()).map(|p| p.role);
                if m.is_capture() || m.is_castle() || role == Some(Role::Pawn) {
                    return IRREVERSIBLE;
                }
                if n - j > span {
                    return BEYOND_SPAN;
                }
            }
            UNCLASSIFIED
        }
    }
}
