//! The positions of the graph-history experiment, each with the game that led to it.

use anyhow::{Result, anyhow};
use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use replab_board::{Move, Position};
use replab_pgn::PgnReader;

use super::Config;
use crate::{datasets, endgames};

/// A position to search with its game history.
#[derive(Clone, Debug)]
pub struct GamePosition {
    /// `repetition`, `games` or `long`.
    pub set: String,
    /// Its id (the EPD id, `file game N ply P`, or `long-NNN from eg-NNN`).
    pub id: String,
    /// The game: history positions, the searched position last.
    pub positions: Vec<Position>,
    /// The moves between them.
    pub moves: Vec<Move>,
}

impl GamePosition {
    /// The searched position.
    pub fn root(&self) -> &Position {
        self.positions.last().expect("a root")
    }
}

/// The smallest halfmove clock of a game position (late in a reversible sequence).
pub const GAME_MIN_CLOCK: u16 = 8;
/// The halfmove clocks the long histories are walked to (inclusive).
pub const LONG_CLOCKS: (u16, u16) = (90, 99);

fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Every position of the experiment, in a fixed order: the repetition suite's records with a
/// history, then the seeded choice from the games, then the seeded long histories.
pub fn positions(config: &Config) -> Result<Vec<GamePosition>> {
    let mut out = Vec::new();
    for r in datasets::REPETITION.records(None)? {
        if !r.moves.is_empty() {
            out.push(GamePosition {
                set: "repetition".into(),
                id: r.id,
                positions: r.positions,
                moves: r.moves,
            });
        }
    }

    // Games: every ply whose clock is at least GAME_MIN_CLOCK, then a seeded choice.
    let mut candidates: Vec<(String, Vec<Position>, Vec<Move>)> = Vec::new();
    for d in datasets::GAMES {
        let (file, mut reader) = (d.name(), PgnReader::new(d.text.as_bytes()));
        while let Some(game) = reader.next_game().map_err(|e| anyhow!("{}: {e}", d.path))? {
            let Some(mut pos) = (match game.tag("FEN") {
                Some(fen) => Position::from_fen(fen).ok(),
                None => Some(Position::startpos()),
            }) else {
                continue;
            };
            let mut positions = vec![pos];
            let mut moves = Vec::new();
            for token in &game.moves {
                let Ok(m) = pos.parse_san(&token.text) else {
                    break;
                };
                pos = pos.play(m);
                positions.push(pos);
                moves.push(m);
                if pos.halfmove_clock() >= GAME_MIN_CLOCK && pos.legal_moves().len() >= 2 {
                    candidates.push((
                        format!("{file} game {} ply {}", game.index + 1, moves.len()),
                        positions.clone(),
                        moves.clone(),
                    ));
                }
            }
        }
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    for _ in 0..config.game_positions.min(candidates.len()) {
        let (id, positions, moves) = candidates.swap_remove(below(&mut rng, candidates.len()));
        out.push(GamePosition {
            set: "games".into(),
            id,
            positions,
            moves,
        });
    }

    // Long reversible histories: seeded endgames walked by reversible moves to a high clock.
    // Their own stream, so the choice of games does not change them.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed.wrapping_add(0x6c6f_6e67));
    let mut made = 0;
    let mut source = 0;
    let pool = endgames::generate(config.seed, (config.long_positions * 2).max(1))?;
    while made < config.long_positions && source < pool.len() {
        let e = &pool[source];
        source += 1;
        let target =
            LONG_CLOCKS.0 + below(&mut rng, usize::from(LONG_CLOCKS.1 - LONG_CLOCKS.0 + 1)) as u16;
        let mut positions = e.positions.clone();
        let mut moves = e.moves.clone();
        let mut pos = *e.root();
        let mut ok = true;
        while pos.halfmove_clock() < target {
            let reversible: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| !pos.is_irreversible(m) && pos.play(m).legal_moves().len() >= 2)
                .collect();
            if reversible.is_empty() {
                ok = false;
                break;
            }
            let m = reversible[below(&mut rng, reversible.len())];
            pos = pos.play(m);
            positions.push(pos);
            moves.push(m);
        }
        if ok {
            made += 1;
            out.push(GamePosition {
                set: "long".into(),
                id: format!("long-{made:03} from {}", e.id),
                positions,
                moves,
            });
        }
    }
    Ok(out)
}
