//! Seeded random legal games that favour reversible moves, so that repetitions are common.
//!
//! Every game starts from one of [`STARTS`] — the initial position and positions chosen to stress
//! position identity — and then plays random legal moves with a per-game *style*: how often a
//! piece goes back where it came from, how often it moves to a square a piece of the same kind
//! just left (same-kind pieces swapping squares, kings triangulating), how often a side with a
//! queen or rook gives check (perpetual-check patterns), and how rarely a pawn move, capture or
//! castling is played. Each game has its own generator seeded from `(seed, game index)`, so a
//! game does not depend on which thread plays it or on the other games.

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use replab_board::{Color, Move, MoveList, Position, Role};

/// A start position and why it is in the pool.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    /// What the position stresses.
    pub theme: &'static str,
    /// The position.
    pub fen: &'static str,
    /// A move (UCI) played first in most games from this position, e.g. the double pawn push
    /// that creates an en-passant right.
    pub opening: Option<&'static str>,
}

const fn start(theme: &'static str, fen: &'static str, opening: Option<&'static str>) -> Start {
    Start {
        theme,
        fen,
        opening,
    }
}

/// The start positions, drawn uniformly.
pub const STARTS: &[Start] = &[
    start("initial", Position::START_FEN, None),
    start(
        "initial",
        "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1",
        None,
    ),
    start("castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", None),
    start(
        "castling",
        "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
        None,
    ),
    start("castling", "4k2r/6pp/8/8/8/8/6PP/4K2R b Kk - 0 1", None),
    start("castling", "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", None),
    start("exposed-kings", "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1", None),
    start(
        "exposed-kings",
        "3q2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1",
        None,
    ),
    start("exposed-kings", "8/8/2k5/8/8/3QK3/8/7q w - - 0 1", None),
    start("exposed-kings", "6k1/8/8/8/8/8/r7/4R1K1 w - - 0 1", None),
    start(
        "exposed-kings",
        "6k1/5pp1/8/8/8/8/1q3PP1/3R2K1 w - - 0 1",
        None,
    ),
    start(
        "en-passant",
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
        Some("d7d5"),
    ),
    start(
        "en-passant",
        "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
        Some("e2e4"),
    ),
    start(
        "en-passant",
        "r3k3/2p1p3/8/3P4/8/8/8/R3K3 b Qq - 0 1",
        Some("e7e5"),
    ),
    start(
        "en-passant",
        "4k3/5p2/8/6P1/8/8/8/3QK3 b - - 0 1",
        Some("f7f5"),
    ),
    start(
        "pinned-en-passant",
        "4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1",
        Some("d7d5"),
    ),
    start(
        "pinned-en-passant",
        "4k3/2p5/K7/1P6/8/3b4/8/8 b - - 0 1",
        Some("c7c5"),
    ),
    start(
        "pinned-en-passant",
        "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1",
        Some("d2d4"),
    ),
    start("same-kind-pieces", "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1", None),
    start(
        "same-kind-pieces",
        "1n2k1n1/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
        None,
    ),
    start(
        "same-kind-pieces",
        "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
        None,
    ),
    start(
        "same-kind-pieces",
        "4k3/2rr4/8/8/8/8/2RR4/4K3 w - - 0 1",
        None,
    ),
    start("triangulation", "8/8/8/2k5/8/8/8/4K3 w - - 0 1", None),
    start("triangulation", "8/8/4k3/4p3/4P3/4K3/8/8 w - - 0 1", None),
    start("triangulation", "8/8/3k4/8/3P4/3K4/8/8 w - - 0 1", None),
    start("triangulation", "8/3k4/8/8/8/8/3K4/8 b - - 0 1", None),
];

/// A start position, parsed once.
#[derive(Clone, Copy, Debug)]
pub struct Parsed {
    /// The position.
    pub pos: Position,
    /// The opening move, legal in `pos`.
    pub opening: Option<Move>,
}

/// Parses [`STARTS`]. Panics on a bad entry: they are constants, checked by a unit test.
pub fn parse_starts() -> Vec<Parsed> {
    STARTS
        .iter()
        .map(|s| {
            let pos = Position::from_fen(s.fen).expect("start FEN is valid");
            let opening = s
                .opening
                .map(|uci| pos.parse_uci(uci).expect("opening move is legal"));
            Parsed { pos, opening }
        })
        .collect()
}

/// A played game: the positions (start first) and the moves between them.
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// Index into [`STARTS`].
    pub start: usize,
    /// `positions[i + 1]` is `positions[i]` after `moves[i]`.
    pub positions: Vec<Position>,
    /// The moves.
    pub moves: Vec<Move>,
}

/// SplitMix64 finaliser: decorrelates seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator of game `game` of a run seeded with `seed`.
pub fn game_rng(seed: u64, game: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ mix(game)))
}

/// A uniform float in `[0, 1)`.
fn unit(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A uniform index below `n` (`n > 0`).
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// How a game chooses its moves.
#[derive(Clone, Copy, Debug)]
struct Style {
    /// Probability of a pawn move, capture or castling when one is available.
    irreversible: f64,
    /// Probability of moving a piece back to the square it came from.
    back: f64,
    /// Probability of moving to a square a piece of the same kind and colour left recently.
    rotate: f64,
    /// Probability of a checking move, for a side with a queen or a rook.
    check: f64,
}

impl Style {
    fn draw(rng: &mut Xoshiro256PlusPlus) -> Style {
        const IRREVERSIBLE: [f64; 5] = [0.0, 0.02, 0.05, 0.1, 0.2];
        Style {
            irreversible: IRREVERSIBLE[below(rng, IRREVERSIBLE.len())],
            back: 0.15 + 0.45 * unit(rng),
            rotate: 0.5 * unit(rng),
            check: 0.5 * unit(rng),
        }
    }
}

/// Squares recently left by each side's pieces: `(square, piece index)`, newest last.
const RECENT: usize = 6;

/// Reusable buffers of the generator (no allocation per ply).
#[derive(Clone)]
pub struct Scratch {
    legal: MoveList,
    reversible: MoveList,
    irreversible: MoveList,
    back: MoveList,
    rotate: MoveList,
    checks: MoveList,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            legal: MoveList::new(),
            reversible: MoveList::new(),
            irreversible: MoveList::new(),
            back: MoveList::new(),
            rotate: MoveList::new(),
            checks: MoveList::new(),
        }
    }
}

/// Plays game `index` of a run seeded with `seed` into `game`, at most `max_plies` plies,
/// stopping at checkmate or stalemate.
pub fn play(
    seed: u64,
    index: u64,
    max_plies: usize,
    starts: &[Parsed],
    game: &mut Game,
    s: &mut Scratch,
) {
    let mut rng = game_rng(seed, index);
    game.start = below(&mut rng, starts.len());
    let start = starts[game.start];
    let style = Style::draw(&mut rng);
    game.positions.clear();
    game.moves.clear();
    game.positions.push(start.pos);

    // came_from[sq] = 1 + the square the piece on `sq` came from (0: unknown).
    let mut came_from = [0u8; 64];
    let mut recent = [[(64u8, 0u8); RECENT]; 2];
    let mut pos = start.pos;

    let mut opening = start.opening.filter(|_| unit(&mut rng) < 0.75);
    while game.moves.len() < max_plies {
        let m = match opening.take() {
            Some(m) => m,
            None => {
                pos.legal_moves_into(&mut s.legal);
                if s.legal.is_empty() {
                    break;
                }
                choose(&pos, style, &came_from, &recent, &mut rng, s)
            }
        };
        let (from, to) = (m.from().index(), m.to().index());
        let piece = pos.piece_at(m.from()).map_or(0, |p| p.index() as u8);
        let side = pos.side_to_move().index();
        recent[side].rotate_left(1);
        recent[side][RECENT - 1] = (from as u8, piece);
        came_from[to] = from as u8 + 1;
        came_from[from] = 0;
        if m.is_castle() || m.is_en_passant() {
            // The rook's or the captured pawn's squares: forget what stood there.
            for sq in [0, 3, 5, 7, 56, 59, 61, 63, to ^ 8] {
                came_from[sq] = 0;
            }
        }
        pos = pos.play(m);
        game.moves.push(m);
        game.positions.push(pos);
    }
}

/// Picks a move of `pos` (whose legal moves are in `s.legal`) by the game's style.
fn choose(
    pos: &Position,
    style: Style,
    came_from: &[u8; 64],
    recent: &[[(u8, u8); RECENT]; 2],
    rng: &mut Xoshiro256PlusPlus,
    s: &mut Scratch,
) -> Move {
    s.reversible.clear();
    s.irreversible.clear();
    s.back.clear();
    s.rotate.clear();
    let side = pos.side_to_move();
    for &m in s.legal.iter() {
        let piece = pos.piece_at(m.from()).expect("a legal move has a mover");
        if m.is_capture() || m.is_castle() || piece.role == Role::Pawn {
            s.irreversible.push(m);
            continue;
        }
        s.reversible.push(m);
        let (from, to) = (m.from().index(), m.to().index() as u8);
        if came_from[from] == to + 1 {
            s.back.push(m);
        } else if recent[side.index()]
            .iter()
            .any(|&(sq, p)| sq == to && p == piece.index() as u8)
        {
            s.rotate.push(m);
        }
    }
    let pick = |list: &MoveList, rng: &mut Xoshiro256PlusPlus| list[below(rng, list.len())];
    if s.reversible.is_empty() || (!s.irreversible.is_empty() && unit(rng) < style.irreversible) {
        return pick(&s.irreversible, rng);
    }
    let r = unit(rng);
    if r < style.back && !s.back.is_empty() {
        return pick(&s.back, rng);
    }
    if r < style.back + style.rotate && !s.rotate.is_empty() {
        return pick(&s.rotate, rng);
    }
    if has_heavy_piece(pos, side) && unit(rng) < style.check {
        s.checks.clear();
        for &m in s.reversible.iter() {
            if pos.play(m).is_check() {
                s.checks.push(m);
            }
        }
        if !s.checks.is_empty() {
            return pick(&s.checks, rng);
        }
    }
    pick(&s.reversible, rng)
}

/// Whether `side` has a queen or a rook.
fn has_heavy_piece(pos: &Position, side: Color) -> bool {
    (pos.pieces(side, Role::Queen) | pos.pieces(side, Role::Rook)).is_not_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_are_legal_positions() {
        for (s, p) in STARTS.iter().zip(parse_starts()) {
            let mut other = p.pos;
            // The side not to move must not be in check: pass the turn and look.
            if !other.is_check() {
                other.play_null();
                assert!(!other.is_check(), "{}: side not to move in check", s.fen);
            }
            if let Some(m) = p.opening {
                assert!(p.pos.is_legal(m), "{}", s.fen);
            }
        }
    }

    #[test]
    fn en_passant_starts_do_what_they_claim() {
        for (s, p) in STARTS.iter().zip(parse_starts()) {
            let Some(m) = p.opening else { continue };
            let after = p.pos.play(m);
            match s.theme {
                "en-passant" => assert!(after.ep_square().is_some(), "{}", s.fen),
                "pinned-en-passant" => assert!(after.ep_square().is_none(), "{}", s.fen),
                _ => {}
            }
        }
    }

    #[test]
    fn san_round_trips_over_generated_games() {
        let starts = parse_starts();
        let mut g = Game::default();
        let mut s = Scratch::default();
        for i in 0..100 {
            play(3, i, 80, &starts, &mut g, &mut s);
            for (k, &m) in g.moves.iter().enumerate() {
                let pos = &g.positions[k];
                let san = pos.san(m);
                assert_eq!(pos.parse_san(&san), Ok(m), "{san} in {}", pos.fen());
            }
        }
    }

    #[test]
    fn games_are_reproducible_and_legal() {
        let starts = parse_starts();
        let (mut a, mut b) = (Game::default(), Game::default());
        let mut s = Scratch::default();
        for i in 0..50 {
            play(7, i, 120, &starts, &mut a, &mut s);
            play(7, i, 120, &starts, &mut b, &mut s);
            assert_eq!(a.moves, b.moves);
            for (k, &m) in a.moves.iter().enumerate() {
                assert!(a.positions[k].is_legal(m));
                assert_eq!(a.positions[k].play(m), a.positions[k + 1]);
            }
        }
    }
}
