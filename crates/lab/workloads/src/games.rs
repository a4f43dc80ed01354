//! Positions of the real games of `datasets/games` with their history: the positions a
//! searcher meets in play, where a key scan walks the game's real reversible tails.

use anyhow::{Context, Result};
use replab_board::{Move, Position};
use replab_pgn::PgnReader;

use crate::datasets;

/// The first and last full move whose positions are taken.
pub const MOVES: [u32; 2] = [20, 60];

/// A position of a real game with the game's history up to it.
pub struct GamePosition {
    /// `datasets/games/FILE game N ply P`.
    pub label: String,
    /// The game's positions up to and including this one.
    pub positions: Vec<Position>,
    /// The moves between them.
    pub moves: Vec<Move>,
}

/// One ply in `every` of the real games (the files' games without a FEN tag: the others are
/// analysis fragments with no history) whose full move lies in [`MOVES`], with its history, in
/// file and ply order.
pub fn positions(every: usize) -> Result<Vec<GamePosition>> {
    let mut out = Vec::new();
    for d in datasets::GAMES {
        let mut reader = PgnReader::new(d.text.as_bytes());
        while let Some(game) = reader.next_game().with_context(|| d.path.to_string())? {
            if game.tag("FEN").is_some() {
                continue;
            }
            let (mut line, mut moves) = (vec![Position::startpos()], Vec::new());
            for (ply, token) in game.moves.iter().enumerate() {
                let label = format!("{} game {} ply {ply}", d.path, game.index + 1);
                if (MOVES[0]..=MOVES[1]).contains(&(ply as u32 / 2 + 1)) && ply % every == 0 {
                    out.push(GamePosition {
                        label: label.clone(),
                        positions: line.clone(),
                        moves: moves.clone(),
                    });
                }
                let pos = *line.last().expect("the start position");
                let m = pos.parse_san(&token.text).with_context(|| label.clone())?;
                line.push(pos.play(m));
                moves.push(m);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_carry_their_history_and_lie_in_the_moves_range() {
        let all = positions(1).unwrap();
        let thinned = positions(4).unwrap();
        assert!(all.len() > 100, "{}", all.len());
        assert!(thinned.len() * 4 >= all.len() - 8 && thinned.len() < all.len());
        for p in &all {
            assert_eq!(p.positions.len(), p.moves.len() + 1, "{}", p.label);
            let ply = p.moves.len() as u32;
            assert!(
                (MOVES[0]..=MOVES[1]).contains(&(ply / 2 + 1)),
                "{}",
                p.label
            );
        }
    }
}
