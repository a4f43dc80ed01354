//! The static evaluation: material plus piece-square tables, tapered for the king.
//!
//! Everything is integer arithmetic on fixed tables, so the evaluation of a position is the same
//! on every machine. Values are in centipawns, from the side to move's point of view.
//!
//! # Values
//! Material: pawn 100, knight 320, bishop 330, rook 500, queen 900.
//!
//! Piece-square bonuses (white's view; black uses the rank-mirrored square). `ring` is the
//! square's Chebyshev ring around the centre: 0 for d4/e4/d5/e5, 3 for the edge.
//!
//! | piece | bonus |
//! |---|---|
//! | pawn | by rank (2nd … 7th): 0, 5, 10, 20, 35, 60; +10 on d4, e4, d5, e5 |
//! | knight | by ring: +15, +5, −10, −30 |
//! | bishop | by ring: +10, +5, 0, −10 |
//! | rook | +20 on the 7th rank, +5 on the d and e files |
//! | queen | by ring: +5, +5, 0, −5 |
//! | king, middlegame | 1st rank a…h: +10, +15, +5, −5, 0, −5, +15, +10; −15 per rank above |
//! | king, endgame | by ring: +30, +15, 0, −25 |
//!
//! The king's two tables are blended by the game phase: knights and bishops count 1, rooks 2,
//! queens 4 (24 at the start, capped there); `king = (mg · phase + eg · (24 − phase)) / 24`.

use replab_board::{Bitboard, Color, Position, Role, Square};

pub use crate::tapered::evaluate_tapered;

/// Material values in centipawns, indexed by [`Role::index`] (the king has none).
pub const MATERIAL: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Phase weight of each piece kind (pawns and kings count 0).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the initial position.
const FULL_PHASE: i32 = 24;

/// Chebyshev ring of a square around the centre: 0 (d4, e4, d5, e5) to 3 (the edge).
const fn ring(sq: usize) -> usize {
    let (f, r) = (sq % 8, sq / 8);
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr { df } else { dr }
}

/// Builds a table from a per-square `const fn` (white's view, a1 = 0).
macro_rules! table {
    ($f:ident) => {{
        let mut t = [0; 64];
        let mut sq = 0;
        while sq < 64 {
            t[sq] = $f(sq);
            sq += 1;
        }
        t
    }};
}

const fn pawn(sq: usize) -> i32 {
    let (file, rank) = (sq % 8, sq / 8);
    let advance = [0, 0, 5, 10, 20, 35, 60, 0][rank];
    let centre = if (file == 3 || file == 4) && (rank == 3 || rank == 4) {
        10
    } else {
        0
    };
    advance + centre
}

const fn knight(sq: usize) -> i32 {
    [15, 5, -10, -30][ring(sq)]
}

const fn bishop(sq: usize) -> i32 {
    [10, 5, 0, -10][ring(sq)]
}

const fn rook(sq: usize) -> i32 {
    let (file, rank) = (sq % 8, sq / 8);
    (if rank == 6 { 20 } else { 0 }) + if file == 3 || file == 4 { 5 } else { 0 }
}

const fn queen(sq: usize) -> i32 {
    [5, 5, 0, -5][ring(sq)]
}

const fn king_mg(sq: usize) -> i32 {
    let (file, rank) = (sq % 8, sq / 8);
    if rank == 0 {
        [10, 15, 5, -5, 0, -5, 15, 10][file]
    } else {
        -15 * rank as i32
    }
}

const fn king_eg(sq: usize) -> i32 {
    [30, 15, 0, -25][ring(sq)]
}

/// Piece-square tables by [`Role::index`] (the king's is its middlegame table).
const PST: [[i32; 64]; 6] = [
    table!(pawn),
    table!(knight),
    table!(bishop),
    table!(rook),
    table!(queen),
    table!(king_mg),
];
const KING_EG: [i32; 64] = table!(king_eg);

/// The square as seen by `color` (black's squares are rank-mirrored).
#[inline(always)]
fn relative(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    }
}

/// Which static evaluation the searcher uses at its leaves ([`SearchConfig::eval`]).
///
/// With the `serde` feature it serialises by its lowercase name (`"full"`, `"material"`,
/// `"tapered"`).
///
/// [`SearchConfig::eval`]: crate::SearchConfig::eval
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Eval {
    /// Material plus piece-square tables ([`evaluate`]). The default.
    #[default]
    Full,
    /// Material only ([`evaluate_material`]): many more positions score alike, so more moves
    /// tie and repetitions are more often the only thing that separates them.
    Material,
    /// The engine profile's evaluation ([`evaluate_tapered`]): middlegame and endgame
    /// material and piece-square values blended by the game phase.
    Tapered,
}

impl Eval {
    /// Every evaluation, in declaration order.
    pub const ALL: [Eval; 3] = [Eval::Full, Eval::Material, Eval::Tapered];

    /// The lowercase name (`full`, `material`, `tapered`), as serialised.
    pub const fn name(self) -> &'static str {
        match self {
            Eval::Full => "full",
            Eval::Material => "material",
            Eval::Tapered => "tapered",
        }
    }

    /// The evaluation of `pos` from the side to move's point of view.
    #[inline]
    pub fn evaluate(self, pos: &Position) -> i32 {
        match self {
            Eval::Full => evaluate(pos),
            Eval::Material => evaluate_material(pos),
            Eval::Tapered => evaluate_tapered(pos),
        }
    }
}

/// The material balance of `pos` in centipawns ([`MATERIAL`]) from the side to move's point of
/// view: the evaluation [`Eval::Material`], with no piece-square bonus.
pub fn evaluate_material(pos: &Position) -> i32 {
    let mut score = 0; // white's view
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let diff = pos.pieces(Color::White, role).len() as i32
            - pos.pieces(Color::Black, role).len() as i32;
        score += MATERIAL[role.index()] * diff;
    }
    match pos.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// The evaluation of `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0; // white's view
    let mut phase = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let mut side = 0;
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let pieces: Bitboard = pos.pieces(color, role);
            let table = &PST[role.index()];
            side += MATERIAL[role.index()] * pieces.len() as i32;
            phase += PHASE[role.index()] * pieces.len() as i32;
            for sq in pieces {
                side += table[relative(sq, color)];
            }
        }
        score += sign * side;
    }
    let phase = phase.min(FULL_PHASE);
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let k = relative(pos.king(color), color);
        let king =
            (PST[Role::King.index()][k] * phase + KING_EG[k] * (FULL_PHASE - phase)) / FULL_PHASE;
        score += sign * king;
    }
    match pos.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), 0);
        let black =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(evaluate(&black), 0);
    }

    #[test]
    fn sign_follows_side_to_move() {
        let w = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let b = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        assert!(evaluate(&w) > 400);
        assert_eq!(evaluate(&w), -evaluate(&b));
    }

    #[test]
    fn material_only_ignores_squares() {
        let w = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(evaluate_material(&w), 500);
        let b = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        assert_eq!(evaluate_material(&b), -500);
        // After 1. e4 the tables prefer white; material is level.
        let e4 = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
        assert_eq!(Eval::Material.evaluate(&e4), 0);
        assert!(Eval::Full.evaluate(&e4) < 0, "black to move, white better");
        assert_eq!(Eval::Full.evaluate(&e4), evaluate(&e4));
    }

    #[test]
    fn tables() {
        assert_eq!(ring(Square::parse("d4").unwrap().index()), 0);
        assert_eq!(ring(Square::parse("a1").unwrap().index()), 3);
        assert_eq!(ring(Square::parse("c6").unwrap().index()), 1);
        assert_eq!(PST[0][Square::parse("a7").unwrap().index()], 60);
        assert_eq!(PST[3][Square::parse("h7").unwrap().index()], 20);
    }
}
