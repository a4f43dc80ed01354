//! The engine profile's selectivity ([`crate::Profile::Engine`]): static exchange evaluation,
//! the late-move reduction table, pruning margins, and the history and counter-move tables.
//!
//! What each technique does and where it comes from is in the crate README (*Engine profile*);
//! the forms and numbers here were chosen by measurement on replab's own positions. The engines
//! read to understand them: Stockfish (SEE by swap list, LMR from a logarithmic table,
//! history gravity), Ethereal and Weiss (reverse futility and late-move pruning margins).

use replab_board::{
    Bitboard, Color, Move, Position, Role, Square,
    attacks::{bishop_attacks, rook_attacks},
};

use crate::ordering::HISTORY_MAX;

/// Piece values for the static exchange evaluation, by [`Role::index`] (the king's is large
/// enough that losing it never pays).
pub(crate) const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The value of the piece `m` captures (a pawn for en passant; 0 for a quiet move), plus the
/// promotion's gain.
#[inline]
fn capture_gain(pos: &Position, m: Move) -> i32 {
    let victim = if m.is_en_passant() {
        SEE_VALUE[Role::Pawn.index()]
    } else {
        pos.piece_at(m.to())
            .map_or(0, |p| SEE_VALUE[p.role.index()])
    };
    let promotion = m
        .promotion()
        .map_or(0, |r| SEE_VALUE[r.index()] - SEE_VALUE[Role::Pawn.index()]);
    victim + promotion
}

/// Whether the static exchange on `m`'s destination square wins at least `threshold`
/// centipawns for the side making `m`: both sides recapture with their least valuable attacker
/// while it pays, X-rays through the captured pieces included (pins ignored). Castling counts
/// as an exchange of nothing.
pub(crate) fn see_at_least(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    // What we stand to win if nothing recaptures, minus what we must win at least.
    let mut balance = capture_gain(pos, m) - threshold;
    if balance < 0 {
        return false;
    }
    let mover = m
        .promotion()
        .or_else(|| pos.piece_at(from).map(|p| p.role))
        .map_or(0, |r| SEE_VALUE[r.index()]);
    // What the opponent wins by taking our piece back, and nothing more happens.
    balance = mover - balance;
    if balance <= 0 {
        return true;
    }
    let mut occupied = pos.occupied() ^ from.bb() ^ to.bb();
    if m.is_en_passant() {
        let captured = Square::from_coords(to.file(), from.rank()).expect("on the board");
        occupied ^= captured.bb();
    }
    exchange(pos, to, occupied, pos.side_to_move(), balance)
}

/// The swap loop of [`see_at_least`] after the first capture: `balance` is what the side to
/// recapture would gain by stopping after its capture; returns whether the first mover keeps
/// its threshold.
fn exchange(
    pos: &Position,
    to: Square,
    mut occupied: Bitboard,
    first: Color,
    balance: i32,
) -> bool {
    let diagonal = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let straight = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut attackers = pos.attackers_to(to, occupied);
    let mut side = first;
    let mut first_wins = true;
    let mut balance = balance;
    loop {
        side = side.flip();
        attackers &= occupied;
        let ours = attackers & pos.by_color(side);
        if ours.is_empty() {
            break;
        }
        first_wins = !first_wins;
        let Some(role) = Role::ALL
            .into_iter()
            .find(|&r| (ours & pos.by_role(r)).is_not_empty())
        else {
            break;
        };
        if role == Role::King {
            // The king may only recapture when nothing recaptures it.
            return if (attackers & pos.by_color(side.flip())).is_not_empty() {
                !first_wins
            } else {
                first_wins
            };
        }
        balance = SEE_VALUE[role.index()] - balance;
        if balance < i32::from(first_wins) {
            break;
        }
        occupied ^= (ours & pos.by_role(role)).lsb().bb();
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    first_wins
}

/// Late-move reductions by depth and move number (both capped at 63), in plies:
/// `0.5 + ln(depth) · ln(moves) / 2.5` for quiet moves.
pub(crate) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    /// The table.
    pub(crate) fn new() -> Box<Reductions> {
        let mut t = Box::new(Reductions([[0; 64]; 64]));
        for (d, row) in t.0.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let x = 0.5 + (d as f64).ln() * (m as f64).ln() / 2.5;
                *r = x.max(0.0) as u8;
            }
        }
        t
    }

    /// The reduction of the `moves`-th move (1 = the first) at `depth`.
    #[inline]
    pub(crate) fn get(&self, depth: i32, moves: usize) -> i32 {
        i32::from(self.0[depth.clamp(0, 63) as usize][moves.min(63)])
    }
}

/// Reverse futility (static null-move) margin at `depth`: a node whose static evaluation
/// exceeds beta by this much is assumed to fail high.
#[inline]
pub(crate) fn reverse_futility_margin(depth: i32, improving: bool) -> i32 {
    75 * (depth - i32::from(improving))
}

/// The deepest node where reverse futility pruning applies.
pub(crate) const REVERSE_FUTILITY_DEPTH: i32 = 8;

/// Futility margin at `depth`: a quiet move at a node whose static evaluation plus this is
/// below alpha is not searched.
#[inline]
pub(crate) fn futility_margin(depth: i32) -> i32 {
    90 + 100 * depth
}

/// The deepest node where futility and SEE pruning of moves apply.
pub(crate) const FUTILITY_DEPTH: i32 = 8;

/// Late-move pruning: quiet moves after this many at `depth` are not searched.
#[inline]
pub(crate) fn late_move_count(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base * 2 / 3 }) as usize
}

/// The deepest node where late-move pruning applies.
pub(crate) const LATE_MOVE_DEPTH: i32 = 8;

/// The null-move reduction at `depth` with the static evaluation `eval_margin` above beta.
#[inline]
pub(crate) fn null_reduction(depth: i32, eval_margin: i32) -> i32 {
    3 + depth / 3 + (eval_margin / 200).min(3)
}

/// Aspiration window half-width of the first try, in centipawns.
pub(crate) const ASPIRATION: i32 = 20;

/// From which iteration aspiration windows are used.
pub(crate) const ASPIRATION_DEPTH: u32 = 5;

/// The history bonus of a move that caused a cut-off at `depth` (the malus of those tried
/// before it is its negative).
#[inline]
pub(crate) fn history_bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth).min(1_200)
}

/// Adds `bonus` to a history score with gravity: the nearer `HISTORY_MAX` the score, the less
/// it moves, so scores stay within ±`HISTORY_MAX`.
#[inline]
pub(crate) fn apply_history(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Counter moves: the quiet move that last refuted a move, by the refuted move's piece and
/// destination square.
pub(crate) type CounterMoves = [[Move; 64]; 12];

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        see_at_least(&pos, m, threshold)
    }

    #[test]
    fn free_piece_wins_its_value() {
        let fen = "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 500));
        assert!(!see(fen, "d1d5", 501));
    }

    #[test]
    fn defended_pawn_costs_the_queen() {
        // Qxd5 exd5: a pawn for a queen.
        let fen = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1";
        assert!(see(fen, "d1d5", -850));
        assert!(!see(fen, "d1d5", 0));
    }

    #[test]
    fn x_ray_behind_the_first_attacker_counts() {
        // Rxd5 Rxd5 Rxd5: white's doubled rooks win the pawn; with the back rook gone it loses.
        let doubled = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(doubled, "d2d5", 100));
        let single = "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(!see(single, "d2d5", 0));
        assert!(see(single, "d2d5", -400));
    }

    #[test]
    fn quiet_move_to_an_attacked_square_loses_the_piece() {
        let fen = "4k3/8/2p5/8/8/8/8/3NK3 w - - 0 1";
        // Nb4?? is not attacked by c6; Nd1-c3-... use Ne3-d5 square attacked by c6.
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci("d1c3").unwrap();
        assert!(see_at_least(&pos, m, 0));
        let fen2 = "4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1";
        assert!(!see(fen2, "e3d5", 0));
        assert!(see(fen2, "e3d5", -320));
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new();
        assert_eq!(r.get(1, 1), 0);
        assert!(r.get(10, 20) > r.get(3, 4));
        assert!(r.get(63, 63) >= r.get(20, 20));
    }
}
