//! Naming why a detector disagrees with truth at a ply, from the positions involved.
//!
//! The causes form a small fixed vocabulary so errors can be counted per cause. Each is
//! recognised by looking at the two positions concerned (the current one and the earlier one
//! the detector or truth pointed at) and at the moves between them, not by trusting the
//! detector's own account.

use replab_board::{Move, Position, Role, Square};
use replab_registry::{DetectorId, Repetition, Stats};

use super::spec::{Cause, Check, Kind, Spec};

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
pub fn cause(ctx: &ErrorCtx<'_>) -> Cause {
    let n = ctx.positions.len() - 1;
    let cur = &ctx.positions[n];
    match (ctx.spec.check(), ctx.kind) {
        (Check::Probe, Kind::FalsePositive) => {
            let Some(d) = ctx.detected.map(|r| r.distance as usize) else {
                return Cause::Unclassified;
            };
            if d == 0 || d > n {
                return Cause::BeforeStart;
            }
            let earlier = &ctx.positions[n - d];
            if d % 2 == 1 {
                Cause::OddLength
            } else if same_placement(earlier, cur) {
                if earlier.castling() != cur.castling() {
                    Cause::Castling
                } else if earlier.ep_square() != cur.ep_square() {
                    Cause::EnPassant
                } else {
                    Cause::Unclassified
                }
            } else if earlier.key() == cur.key() {
                Cause::KeyCollision
            } else {
                Cause::Squares
            }
        }
        (Check::Probe, Kind::FalseNegative) => {
            let d = ctx.truth.map_or(0, |r| r.distance as usize);
            if ctx.after.misses > 0 {
                match ctx.spec.info().id {
                    DetectorId::TtOpen => Cause::TtMiss,
                    DetectorId::Filo => Cause::FiloMiss,
                    _ => Cause::Miss,
                }
            } else if ctx.after.overflows > ctx.before.overflows {
                Cause::Overflow
            } else if d > 0 && d <= n && pieces_swapped(&ctx.positions[n - d], &ctx.moves[n - d..])
            {
                Cause::Swapped
            } else {
                Cause::Unclassified
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
                            return Cause::CycleCastling;
                        }
                        if earlier.ep_square() != child.ep_square() {
                            return Cause::EnPassant;
                        }
                    }
                }
            }
            Cause::TableMatch
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
                    return Cause::Irreversible;
                }
                if n - j > span {
                    return Cause::BeyondSpan;
                }
            }
            Cause::Unclassified
        }
    }
}
