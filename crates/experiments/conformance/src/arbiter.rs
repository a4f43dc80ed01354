//! The exact arbiter the engines' answers are replayed through: a scenario's game, the legality
//! of a `bestmove`, and every `info … pv` line checked the way fishtest's workers check them (a
//! PV must not continue once the game has ended by threefold or fivefold repetition, the fifty-
//! or seventy-five-move rule, and must consist of legal moves).

use anyhow::{Context, Result};
use replab_board::Position;
use serde::{Deserialize, Serialize};

/// A scenario's game: every position from the start to the root, in order.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
}

impl Game {
    /// Replays `fen` and the UCI `moves`; an illegal move is an error naming it.
    pub fn replay(fen: &str, moves: &str) -> Result<Game> {
        let mut pos = Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))?;
        let mut positions = vec![pos];
        for (i, text) in moves.split_whitespace().enumerate() {
            let m = pos
                .parse_uci(text)
                .with_context(|| format!("move {} ({text}) of the history", i + 1))?;
            pos = pos.play(m);
            positions.push(pos);
        }
        Ok(Game { positions })
    }

    /// The position the engine is asked about.
    pub fn root(&self) -> &Position {
        self.positions
            .last()
            .expect("a game has its start position")
    }

    /// Whether `text` is a legal move at the root.
    pub fn is_legal(&self, text: &str) -> bool {
        self.root().parse_uci(text).is_ok()
    }

    /// Why `bestmove` breaks the protocol, when it does: a null move, a malformed move, a move
    /// of the side not to move or another illegal move, where a legal move exists (`None` when
    /// the move is legal, or when no legal move exists and anything may be answered).
    pub fn bad_bestmove(&self, best: &str) -> Option<String> {
        let root = self.root();
        if !root.has_legal_move() || self.is_legal(best) {
            return None;
        }
        let null = matches!(best, "" | "0000" | "(none)")
            || (best.len() == 4 && best.is_ascii() && best[..2] == best[2..4]);
        let what = if null {
            "a null move"
        } else {
            match root.parse_uci(best) {
                Err(replab_board::MoveParseError::Syntax(_)) => "a malformed move",
                _ if replab_board::Square::parse(&best[..2])
                    .and_then(|sq| root.piece_at(sq))
                    .is_some_and(|p| p.color != root.side_to_move()) =>
                {
                    "a move of the side not to move"
                }
                _ => "an illegal move",
            }
        };
        Some(format!(
            "bestmove {best:?} is {what} where legal moves exist"
        ))
    }

    /// How often the last of `line` occurred in it (FIDE 9.2.3 identity: placement, side to
    /// move, castling rights and an en-passant capture that is legal).
    fn occurrences(line: &[Position]) -> usize {
        let last = line.last().expect("a non-empty line");
        line.iter().filter(|p| p.same_position(last)).count()
    }

    /// Why the game has ended at the last position of `line` (checkmate and stalemate end it
    /// too, but then no move can follow), or `None` while it goes on.
    fn ended(line: &[Position]) -> Option<&'static str> {
        let last = line.last().expect("a non-empty line");
        let occurrences = Self::occurrences(line);
        let clock = last.halfmove_clock();
        if occurrences >= 5 {
            Some("fivefold repetition (9.6.1)")
        } else if clock >= 150 && !last.is_checkmate() {
            Some("seventy-five-move rule (9.6.2)")
        } else if occurrences >= 3 {
            Some("threefold repetition (9.2)")
        } else if clock >= 100 && !last.is_checkmate() {
            Some("fifty-move rule (9.3)")
        } else {
            None
        }
    }

    /// Replays a principal variation from the root: the first problem, if any (a move after
    /// the game ended, or an illegal move).
    pub fn check_pv(&self, pv: &[&str]) -> Option<PvFailure> {
        let mut line = self.positions.clone();
        for (i, text) in pv.iter().enumerate() {
            let ply = i + 1;
            // The root may itself be drawn (a third occurrence the engine is asked to continue
            // from): only positions the PV reaches end the line.
            if i > 0
                && let Some(rule) = Self::ended(&line)
            {
                return Some(PvFailure {
                    pv: pv.join(" "),
                    ply,
                    problem: format!(
                        "continues with {text} after ply {} ended the game: {rule}",
                        ply - 1
                    ),
                });
            }
            let pos = *line.last().expect("non-empty");
            match pos.parse_uci(text) {
                Ok(m) => line.push(pos.play(m)),
                Err(_) => {
                    return Some(PvFailure {
                        pv: pv.join(" "),
                        ply,
                        problem: format!("illegal move {text}"),
                    });
                }
            }
        }
        None
    }
}

/// A principal variation the arbiter refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PvFailure {
    /// The PV as the engine printed it.
    pub pv: String,
    /// The 1-based ply of the offending move.
    pub ply: usize,
    /// What is wrong, with the rule that ended the game.
    pub problem: String,
}

impl std::fmt::Display for PvFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pv {}: ply {} {}", self.pv, self.ply, self.problem)
    }
}

/// The moves of an `info … pv …` line, or `None` when it has no PV.
pub fn pv_moves(line: &str) -> Option<Vec<&str>> {
    if !line.starts_with("info") {
        return None;
    }
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == "pv")?;
    // A PV runs to the end of the line, unless another UCI field follows (rare, allowed).
    const FIELDS: [&str; 14] = [
        "depth",
        "seldepth",
        "time",
        "nodes",
        "multipv",
        "score",
        "currmove",
        "currmovenumber",
        "hashfull",
        "nps",
        "tbhits",
        "cpuload",
        "string",
        "refutation",
    ];
    Some(words.take_while(|w| !FIELDS.contains(w)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHUFFLE: &str = "6k1/8/8/8/8/8/8/KQ6 b - - 0 1";

    #[test]
    fn a_pv_past_a_third_occurrence_fails_at_the_next_ply() {
        let game = Game::replay(SHUFFLE, "g8h8 b1c1 h8g7 c1b1 g7h8 b1c1 h8g7 c1b1").unwrap();
        // g7h8 makes the third occurrence: the PV may stop there, not go on.
        assert_eq!(game.check_pv(&["g7h8"]), None);
        let f = game.check_pv(&["g7h8", "b1c1", "h8g7"]).unwrap();
        assert_eq!(f.ply, 2);
        assert!(f.problem.contains("threefold"), "{f}");
        let f = game.check_pv(&["g7h8", "b1b9"]).unwrap();
        assert_eq!(f.ply, 2, "{f}");
    }

    #[test]
    fn illegal_pv_moves_and_the_fifty_move_rule() {
        let game = Game::replay("7k/8/8/8/8/3Q4/8/K7 w - - 99 90", "").unwrap();
        let f = game.check_pv(&["a1a2", "h8g8"]).unwrap();
        assert!(f.problem.contains("fifty"), "{f}");
        let f = game.check_pv(&["a1a3"]).unwrap();
        assert_eq!((f.ply, f.problem.as_str()), (1, "illegal move a1a3"));
        assert!(game.is_legal("d3d4") && !game.is_legal("0000"));
        // A mate on the hundredth half-move ends nothing before it.
        let g = Game::replay("7k/Q7/6K1/8/8/8/8/8 w - - 99 90", "").unwrap();
        assert_eq!(g.check_pv(&["a7g7"]), None);
    }

    #[test]
    fn pv_words_end_at_the_next_field() {
        assert_eq!(
            pv_moves("info depth 3 score cp 5 pv e2e4 e7e5 nodes 9"),
            Some(vec!["e2e4", "e7e5"])
        );
        assert_eq!(pv_moves("info depth 3 score cp 5"), None);
        assert_eq!(pv_moves("bestmove e2e4"), None);
    }
}
