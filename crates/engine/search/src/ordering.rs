//! Move ordering and the move lists of quiescence: the ordering keys, picking the next best
//! move, tactical moves and quiet checks, and the null-move safety test.

use replab_board::{
    Bitboard, Color, MAX_MOVES, Move, MoveKind, MoveList, PieceMoves, Position, Role,
};

use crate::eval::MATERIAL;

/// The first and last ranks, where pawns promote.
const PROMOTION_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

/// History scores stay within ±`HISTORY_MAX` (each bonus is damped by the current value).
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// Move-ordering keys: hash move, then captures and queen promotions (MVV-LVA), killers,
/// quiet moves by history, under-promotions last.
const ORDER_HASH: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KILLER: i32 = ORDER_CAPTURE - 2;
const ORDER_UNDERPROMOTION: i32 = -(1 << 20);

/// History scores of quiet moves, by piece (colour and role) and destination square.
pub(crate) type History = [[i32; 64]; 12];

/// Ordering keys of `list`: hash move; captures and queen promotions by MVV-LVA; the two
/// killers; quiet moves by history; under-promotions last.
#[inline]
pub(crate) fn order_keys(
    pos: &Position,
    list: &MoveList,
    keys: &mut [i32; MAX_MOVES],
    tt_move: Move,
    killers: [Move; 2],
    history: &History,
) {
    for (key, &m) in keys.iter_mut().zip(list.iter()) {
        *key = if m == tt_move {
            ORDER_HASH
        } else if matches!(m.promotion(), Some(r) if r != Role::Queen) {
            ORDER_UNDERPROMOTION
        } else if m.is_capture() || m.promotion().is_some() {
            capture_key(pos, m)
        } else if m == killers[0] {
            ORDER_KILLER
        } else if m == killers[1] {
            ORDER_KILLER - 1
        } else {
            let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
            history[piece][m.to().index()]
        };
    }
}

/// A quiet move caused a beta cutoff: make it a killer (`k`, the killers of its ply) and raise
/// its history score.
#[inline]
pub(crate) fn reward_quiet(
    k: &mut [Move; 2],
    history: &mut History,
    pos: &Position,
    m: Move,
    depth: i32,
) {
    if k[0] != m {
        k[1] = k[0];
        k[0] = m;
    }
    if let Some(piece) = pos.piece_at(m.from()) {
        let bonus = (depth * depth).min(HISTORY_MAX);
        let h = &mut history[piece.index()][m.to().index()];
        *h += bonus - *h * bonus / HISTORY_MAX;
    }
}

/// Whether `side` has a piece other than pawns and its king (null-move pruning is unsafe in
/// pawn endings, where zugzwang is common).
#[inline]
pub(crate) fn has_pieces(pos: &Position, side: Color) -> bool {
    (pos.by_color(side) & !(pos.by_role(Role::Pawn) | pos.by_role(Role::King))).is_not_empty()
}

/// Moves `i`'s best remaining move (highest key, the first of equals) to index `i`.
#[inline]
pub(crate) fn pick_next(moves: &mut [Move], keys: &mut [i32; MAX_MOVES], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    if best != i {
        moves.swap(i, best);
        keys.swap(i, best);
    }
}

/// Legal captures (en passant included) and queen promotions of a position not in check.
#[inline]
pub(crate) fn tactical_moves(pos: &Position, list: &mut MoveList) {
    let theirs = pos.by_color(pos.side_to_move().flip());
    let ep = pos.ep_square().map_or(Bitboard::EMPTY, |s| s.bb());
    pos.generate(|pm| {
        if pm.role != Role::Pawn {
            let to = pm.to & theirs;
            if to.is_not_empty() {
                pos.expand(PieceMoves { to, ..pm }, list);
            }
            return false;
        }
        for to in pm.to & (theirs | ep | PROMOTION_RANKS) {
            let capture = theirs.has(to);
            let kind = if PROMOTION_RANKS.has(to) {
                if capture {
                    MoveKind::CapturePromoteQueen
                } else {
                    MoveKind::PromoteQueen
                }
            } else if capture {
                MoveKind::Capture
            } else {
                MoveKind::EnPassant
            };
            list.push(Move::new(pm.from, to, kind));
        }
        false
    });
}

/// Appends the quiet, non-promoting legal moves that give check.
pub(crate) fn quiet_checks(pos: &Position, list: &mut MoveList) {
    let mut all = MoveList::new();
    pos.legal_moves_into(&mut all);
    for &m in all.iter() {
        if !m.is_capture() && m.promotion().is_none() && pos.play(m).is_check() {
            list.push(m);
        }
    }
}

/// Ordering keys of the engine profile ([`crate::Profile::Engine`]): hash move; captures and
/// queen promotions that do not lose material (static exchange ≥ 0) by MVV-LVA; the two
/// killers; the counter move; quiet moves by history; losing captures; under-promotions last.
#[inline]
pub(crate) fn order_keys_engine(
    pos: &Position,
    list: &MoveList,
    keys: &mut [i32; MAX_MOVES],
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    history: &History,
) {
    for (key, &m) in keys.iter_mut().zip(list.iter()) {
        *key = if m == tt_move {
            ORDER_HASH
        } else if matches!(m.promotion(), Some(r) if r != Role::Queen) {
            ORDER_UNDERPROMOTION
        } else if m.is_capture() || m.promotion().is_some() {
            let mvv_lva = capture_key(pos, m) - ORDER_CAPTURE;
            if crate::selective::see_at_least(pos, m, 0) {
                ORDER_CAPTURE + mvv_lva
            } else {
                ORDER_BAD_CAPTURE + mvv_lva
            }
        } else if m == killers[0] {
            ORDER_KILLER
        } else if m == killers[1] {
            ORDER_KILLER - 1
        } else if m == counter {
            ORDER_KILLER - 2
        } else {
            let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
            history[piece][m.to().index()]
        };
    }
}

/// Losing captures come after every quiet move (history scores stay above −`HISTORY_MAX`).
const ORDER_BAD_CAPTURE: i32 = -(1 << 19);

/// The MVV-LVA key of a capture or queen promotion (`ORDER_CAPTURE` plus the victim's and the
/// promotion's value, less the attacker's rank).
#[inline]
fn capture_key(pos: &Position, m: Move) -> i32 {
    let victim = if m.is_en_passant() {
        MATERIAL[Role::Pawn.index()]
    } else {
        pos.piece_at(m.to()).map_or(0, |p| MATERIAL[p.role.index()])
    };
    let promotion = if m.promotion().is_some() {
        MATERIAL[Role::Queen.index()]
    } else {
        0
    };
    let attacker = pos.piece_at(m.from()).map_or(0, |p| p.role.index() as i32);
    ORDER_CAPTURE + (victim + promotion) * 8 - attacker
}
