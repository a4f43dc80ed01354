//! Opening books: PGN files whose games are openings (a start position, from a `FEN` tag or
//! the standard one, and the moves to play from it), read with `replab-pgn` and replayed
//! through the board crate.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use replab_board::{Move, Position};
use replab_pgn::PgnReader;

/// The book in the repository (`datasets/openings/8moves_v3.pgn`: 2,000 openings of the
/// Stockfish books repository's `8moves_v3.pgn`, see `datasets/SOURCES.md`), built in.
pub const BUILTIN_NAME: &str = "datasets/openings/8moves_v3.pgn";

const BUILTIN_TEXT: &str = include_str!("../../../../datasets/openings/8moves_v3.pgn");

/// The large book in the repository: balanced, distinct 8-move openings made by
/// `tools/make_book.py` (see `datasets/SOURCES.md`), for matches that need more independent
/// pairs than [`BUILTIN_NAME`] has. Built in, read by this name from anywhere.
pub const LARGE_NAME: &str = "datasets/openings/replab-balanced.pgn";

const LARGE_TEXT: &str = include_str!("../../../../datasets/openings/replab-balanced.pgn");

/// The repetition-rich book in the repository: start positions from which Stockfish's
/// self-play went on to a threefold repetition, made by `tools/make_repetition_book.py` (see
/// `datasets/SOURCES.md`), for the gauntlet's second column. Built in, read by this name
/// from anywhere.
pub const REPETITION_NAME: &str = "datasets/openings/replab-repetition.pgn";

const REPETITION_TEXT: &str = include_str!("../../../../datasets/openings/replab-repetition.pgn");

/// The books built into the binary, by their repository path.
const BUILT_IN: [(&str, &str); 3] = [
    (BUILTIN_NAME, BUILTIN_TEXT),
    (LARGE_NAME, LARGE_TEXT),
    (REPETITION_NAME, REPETITION_TEXT),
];

/// One opening.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The line of the file where the opening starts (1-based).
    pub line: usize,
    /// The position before the first move.
    pub start: Position,
    /// Whether `start` came from a `FEN` tag (the PGN then needs `SetUp`/`FEN`).
    pub from_fen: bool,
    /// The opening's moves.
    pub moves: Vec<Move>,
}

/// An opening book.
#[derive(Clone, Debug)]
pub struct Book {
    /// Where it came from (a path, or [`BUILTIN_NAME`]).
    pub name: String,
    /// Its openings, in file order.
    pub openings: Vec<Opening>,
}

impl Book {
    /// The built-in book.
    pub fn builtin() -> Book {
        Book::parse(BUILTIN_NAME, BUILTIN_TEXT).expect("the built-in book is valid")
    }

    /// Reads a book file; errors name the file and line. A built-in book's repository path
    /// ([`BUILTIN_NAME`], [`LARGE_NAME`]) names the built-in copy when no such file is
    /// there (outside a checkout).
    pub fn read(path: &Path) -> Result<Book> {
        if !path.exists()
            && let Some((name, text)) = BUILT_IN.iter().find(|(n, _)| Path::new(n) == path)
        {
            return Book::parse(name, text);
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow!("cannot read the book {}: {e}", path.display()))?;
        Book::parse(&path.display().to_string(), &text)
    }

    /// Parses a book's text; `name` is used in the error messages (`name:line: …`).
    pub fn parse(name: &str, text: &str) -> Result<Book> {
        let mut reader = PgnReader::new(text.as_bytes());
        let mut openings = Vec::new();
        while let Some(game) = reader.next_game().map_err(|e| anyhow!("{name}: {e}"))? {
            let (start, from_fen) = match game.tag("FEN") {
                Some(fen) => (
                    Position::from_fen(fen)
                        .map_err(|e| anyhow!("{name}:{}: bad FEN {fen:?}: {e}", game.line))?,
                    true,
                ),
                None => (Position::startpos(), false),
            };
            let mut pos = start;
            let mut moves = Vec::with_capacity(game.moves.len());
            for token in &game.moves {
                let m = pos.parse_san(&token.text).map_err(|e| {
                    anyhow!(
                        "{name}:{}: illegal book move {:?}: {e}",
                        token.line,
                        token.text
                    )
                })?;
                pos = pos.play(m);
                moves.push(m);
            }
            if !pos.has_legal_move() {
                bail!(
                    "{name}:{}: the opening ends with no legal move to play",
                    game.line
                );
            }
            openings.push(Opening {
                line: game.line,
                start,
                from_fen,
                moves,
            });
        }
        if openings.is_empty() {
            bail!("{name}: the book has no openings");
        }
        Ok(Book {
            name: name.to_string(),
            openings,
        })
    }

    /// A 64-bit FNV-1a digest of the openings (start FEN and moves), so that shards can check
    /// they used the same book.
    pub fn digest(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= u64::from(*b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        for o in &self.openings {
            eat(o.start.fen().as_bytes());
            for m in &o.moves {
                eat(m.uci().to_string().as_bytes());
            }
            eat(b"\n");
        }
        format!("{h:016x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_book_has_its_openings() {
        let book = Book::builtin();
        assert_eq!(book.openings.len(), 2000);
        assert!(book.openings.iter().all(|o| o.moves.len() == 16));
    }

    #[test]
    fn bad_books_name_the_line() {
        let e = Book::parse("b.pgn", "").unwrap_err().to_string();
        assert!(e.contains("no openings"), "{e}");
        let e = Book::parse("b.pgn", "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b.pgn:4: illegal book move \"Ke3\""), "{e}");
        let fen = "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n";
        let e = Book::parse("b.pgn", fen).unwrap_err().to_string();
        assert!(e.contains("b.pgn:1: bad FEN"), "{e}");
    }
}
