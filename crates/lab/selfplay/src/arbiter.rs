//! The arbiter: decides after every move whether the game is over, by the FIDE Laws (exact
//! position identity from `replab-truth`, never a player's detector), then by score
//! adjudication and the ply cap.
//!
//! Order of the checks after a move (the first that applies ends the game): checkmate (Laws
//! 5.1.1); stalemate (5.2.1); insufficient material, the dead positions python-chess
//! recognises (5.2.2); fivefold repetition (9.6.1); seventy-five moves (9.6.2); threefold
//! repetition, claimed at once by the player to move (9.2); fifty moves, claimed at once
//! (9.3); resign adjudication; draw adjudication; the ply cap.

use replab_board::{Color, Position};
use replab_truth::Identity;
use serde::{Deserialize, Serialize};

/// Resign adjudication: both players' scores beyond this many centipawns for the same side…
pub const RESIGN_SCORE: i32 = 600;
/// …for this many consecutive moves of each player (fishtest: `movecount=3 score=600`).
pub const RESIGN_MOVES: usize = 3;
/// Draw adjudication: from this full move on…
pub const DRAW_MOVE_NUMBER: u16 = 34;
/// …both players' scores within ±this many centipawns…
pub const DRAW_SCORE: i32 = 20;
/// …for this many consecutive moves of each player (fishtest: `movenumber=34 movecount=8
/// score=20`).
pub const DRAW_MOVES: usize = 8;
/// The game is adjudicated a draw after this many plies (opening included).
pub const PLY_CAP: usize = 600;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can checkmate (dead position).
    InsufficientMaterial,
    /// The same position for the fifth time (automatic).
    Fivefold,
    /// 75 moves by each side without a capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The same position for the third time, claimed.
    Threefold,
    /// 50 moves by each side without a capture or pawn move, claimed.
    FiftyMoves,
    /// Both players' scores agreed that one side is lost.
    ResignAdjudication,
    /// Both players' scores stayed near zero late in the game.
    DrawAdjudication,
    /// The ply cap was reached.
    PlyCap,
    /// A player ran out of time (time controls only).
    TimeForfeit,
}

impl Termination {
    /// Every termination, in the order of the checks.
    pub const ALL: [Termination; 11] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::Fivefold,
        Termination::SeventyFiveMoves,
        Termination::Threefold,
        Termination::FiftyMoves,
        Termination::ResignAdjudication,
        Termination::DrawAdjudication,
        Termination::PlyCap,
        Termination::TimeForfeit,
    ];

    /// The name used in JSON and in the PGN's `ReplabTermination` tag.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::Fivefold => "fivefold",
            Termination::SeventyFiveMoves => "seventy-five-moves",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty-moves",
            Termination::ResignAdjudication => "resign-adjudication",
            Termination::DrawAdjudication => "draw-adjudication",
            Termination::PlyCap => "ply-cap",
            Termination::TimeForfeit => "time-forfeit",
        }
    }

    /// The PGN standard `Termination` tag value.
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::ResignAdjudication
            | Termination::DrawAdjudication
            | Termination::PlyCap => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            _ => "normal",
        }
    }
}

/// A game's result, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PGN result (`1-0`, `0-1`, `1/2-1/2`).
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The win of `side`.
    pub fn win_for(side: Color) -> Outcome {
        match side {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

/// The arbiter's memory of one game: the identities of the positions since the last capture
/// or pawn move, and the scores the players reported (from White's side).
#[derive(Debug, Default)]
pub struct Arbiter {
    since_zeroing: Vec<Identity>,
    scores: Vec<Option<i32>>,
}

impl Arbiter {
    /// Starts a game at `start`.
    pub fn start(&mut self, start: &Position) {
        self.since_zeroing.clear();
        self.scores.clear();
        self.since_zeroing.push(Identity::of(start));
    }

    /// Records the move that reached `pos` (with the mover's score from White's side, `None`
    /// for book moves) and says whether and how the game ends. `plies` counts the game's
    /// moves so far.
    pub fn after_move(
        &mut self,
        pos: &Position,
        white_score: Option<i32>,
        plies: usize,
    ) -> Option<(Outcome, Termination)> {
        if pos.halfmove_clock() == 0 {
            self.since_zeroing.clear();
        }
        let id = Identity::of(pos);
        let occurrences = 1 + self.since_zeroing.iter().filter(|e| **e == id).count();
        self.since_zeroing.push(id);
        self.scores.push(white_score);
        if let Some(end) = Self::by_rule(pos, occurrences) {
            return Some(end);
        }
        self.by_adjudication(pos, plies)
    }

    /// The FIDE rules, in order.
    fn by_rule(pos: &Position, occurrences: usize) -> Option<(Outcome, Termination)> {
        let draw = |t| Some((Outcome::Draw, t));
        if !pos.has_legal_move() {
            return if pos.is_check() {
                Some((
                    Outcome::win_for(pos.side_to_move().flip()),
                    Termination::Checkmate,
                ))
            } else {
                draw(Termination::Stalemate)
            };
        }
        if insufficient_material(pos) {
            return draw(Termination::InsufficientMaterial);
        }
        if occurrences >= 5 {
            return draw(Termination::Fivefold);
        }
        if pos.halfmove_clock() >= 150 {
            return draw(Termination::SeventyFiveMoves);
        }
        if occurrences >= 3 {
            return draw(Termination::Threefold);
        }
        if pos.halfmove_clock() >= 100 {
            return draw(Termination::FiftyMoves);
        }
        None
    }

    /// Score adjudication and the ply cap.
    fn by_adjudication(&self, pos: &Position, plies: usize) -> Option<(Outcome, Termination)> {
        let resign = 2 * RESIGN_MOVES;
        if self.scores.len() >= resign {
            let last = &self.scores[self.scores.len() - resign..];
            if last.iter().all(|s| s.is_some_and(|s| s >= RESIGN_SCORE)) {
                return Some((Outcome::WhiteWins, Termination::ResignAdjudication));
            }
            if last.iter().all(|s| s.is_some_and(|s| s <= -RESIGN_SCORE)) {
                return Some((Outcome::BlackWins, Termination::ResignAdjudication));
            }
        }
        let drawn = 2 * DRAW_MOVES;
        if pos.fullmove_number() >= DRAW_MOVE_NUMBER && self.scores.len() >= drawn {
            let last = &self.scores[self.scores.len() - drawn..];
            if last
                .iter()
                .all(|s| s.is_some_and(|s| s.abs() <= DRAW_SCORE))
            {
                return Some((Outcome::Draw, Termination::DrawAdjudication));
            }
        }
        (plies >= PLY_CAP).then_some((Outcome::Draw, Termination::PlyCap))
    }
}

/// Whether `side` cannot checkmate whatever the other side does, as python-chess's
/// `has_insufficient_material` decides ([`Position::has_insufficient_material`], the one
/// definition, which the searcher also uses).
pub fn side_cannot_mate(pos: &Position, side: Color) -> bool {
    pos.has_insufficient_material(side)
}

/// Whether neither side can checkmate ([`Position::is_insufficient_material`]).
pub fn insufficient_material(pos: &Position) -> bool {
    pos.is_insufficient_material()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(fen: &str) -> Option<(Outcome, Termination)> {
        let pos = Position::from_fen(fen).unwrap();
        let mut a = Arbiter::default();
        a.start(&pos);
        Arbiter::by_rule(&pos, 1)
    }

    #[test]
    fn each_fide_rule_ends_the_game() {
        let mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1";
        assert_eq!(
            ends(mate),
            Some((Outcome::WhiteWins, Termination::Checkmate))
        );
        let stale = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
        assert_eq!(ends(stale), Some((Outcome::Draw, Termination::Stalemate)));
        let kk = "8/8/4k3/8/8/2K5/8/8 w - - 0 1";
        assert_eq!(
            ends(kk),
            Some((Outcome::Draw, Termination::InsufficientMaterial))
        );
        let fifty = "8/8/4k3/8/8/2K5/8/6QR w - - 100 80";
        assert_eq!(ends(fifty), Some((Outcome::Draw, Termination::FiftyMoves)));
        let seventy = "8/8/4k3/8/8/2K5/8/6QR w - - 150 80";
        assert_eq!(
            ends(seventy),
            Some((Outcome::Draw, Termination::SeventyFiveMoves))
        );
        // Mate on the hundredth half-move is mate, not a fifty-move draw.
        let mate50 = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 90";
        assert_eq!(ends(mate50).unwrap().1, Termination::Checkmate);
        assert_eq!(ends("8/8/4k3/8/8/2K5/8/6QR w - - 99 80"), None);
    }

    #[test]
    fn insufficient_material_follows_python_chess() {
        for (fen, dead) in [
            ("8/8/4k3/8/8/2K2N2/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/2K2B2/8/8 w - - 0 1", true),
            ("8/8/4kb2/8/8/2K2B2/8/8 w - - 0 1", false), // opposite colours (f6 dark, f3 light)
            ("8/8/4k1b1/8/8/2K2B2/8/8 w - - 0 1", true), // g6 and f3 both light
            ("8/8/4kn2/8/8/2K2N2/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/2K1NN2/8/8 w - - 0 1", false),
            ("8/8/4kq2/8/8/2K2N2/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/2K2P2/8/8 w - - 0 1", false),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(insufficient_material(&pos), dead, "{fen}");
        }
    }

    #[test]
    fn repetitions_are_counted_by_identity() {
        let start = Position::startpos();
        let mut a = Arbiter::default();
        a.start(&start);
        let mut pos = start;
        let mut end = None;
        for (i, mv) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .enumerate()
        {
            pos = pos.play(pos.parse_san(mv).unwrap());
            end = a.after_move(&pos, None, i + 1);
            if end.is_some() {
                assert_eq!(i, 7, "ends at the third occurrence of the start");
            }
        }
        assert_eq!(end, Some((Outcome::Draw, Termination::Threefold)));
    }

    #[test]
    fn adjudication_needs_both_players_for_enough_moves() {
        let pos = Position::startpos();
        let mut a = Arbiter::default();
        a.start(&pos);
        for i in 0..5 {
            assert_eq!(a.by_adjudication(&pos, i), None);
            a.scores.push(Some(700));
        }
        assert_eq!(a.by_adjudication(&pos, 5), None);
        a.scores.push(Some(700));
        assert_eq!(
            a.by_adjudication(&pos, 6).unwrap().1,
            Termination::ResignAdjudication
        );
        a.scores.push(Some(10));
        assert_eq!(a.by_adjudication(&pos, 7), None);
        // Draw adjudication only from move 34.
        let late = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40").unwrap();
        a.scores = vec![Some(0); 15];
        assert_eq!(a.by_adjudication(&late, 15), None);
        a.scores.push(Some(-20));
        assert_eq!(
            a.by_adjudication(&late, 16).unwrap().1,
            Termination::DrawAdjudication
        );
        assert_eq!(a.by_adjudication(&pos, 16), None, "move 1 is too early");
        a.scores.push(Some(21));
        assert_eq!(a.by_adjudication(&late, 17), None);
        assert_eq!(
            a.by_adjudication(&late, PLY_CAP).unwrap().1,
            Termination::PlyCap
        );
    }
}
