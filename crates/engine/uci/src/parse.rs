//! Parsing `position` and `go`.

use replab_board::{Move, Position};

/// What a `position` command set up: the game from its start to the root.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The positions, start first, root last (never empty).
    pub positions: Vec<Position>,
    /// The moves between them: `moves[i]` leads from `positions[i]` to `positions[i + 1]`.
    pub moves: Vec<Move>,
    /// Why the move list was cut short: the first move that could not be played, its number
    /// (from 1) and the reason. The positions end just before it.
    pub cut: Option<String>,
}

impl Setup {
    /// The start position alone (the engine's position before any `position` command).
    pub fn startpos() -> Setup {
        Setup {
            positions: vec![Position::startpos()],
            moves: Vec::new(),
            cut: None,
        }
    }

    /// The root: the position to search.
    pub fn root(&self) -> &Position {
        self.positions.last().expect("a setup has a root")
    }
}

/// Parses the words after `position`: `startpos | fen <fields…>`, then optionally
/// `moves <uci…>`. A start that is missing or not a valid FEN is an error (the engine then has
/// no position). Otherwise the moves are played up to the first one that is not a legal move
/// in the position reached (as Stockfish does): the setup keeps the position before it and
/// [`Setup::cut`] says which move was refused and why.
pub fn parse_position(words: &[&str]) -> Result<Setup, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (start, move_words) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match start.first() {
        Some(&"startpos") if start.len() == 1 => Position::startpos(),
        Some(&"fen") if start.len() > 1 => fen(&start[1..])?,
        _ => {
            return Err(format!(
                "position needs startpos or fen <fen>, got: position {}",
                words.join(" ")
            ));
        }
    };
    let mut setup = Setup {
        positions: Vec::with_capacity(move_words.len() + 1),
        moves: Vec::with_capacity(move_words.len()),
        cut: None,
    };
    setup.positions.push(start);
    for (i, w) in move_words.iter().enumerate() {
        let here = setup.root();
        match here.parse_uci(w) {
            Ok(m) => {
                let next = here.play(m);
                setup.positions.push(next);
                setup.moves.push(m);
            }
            Err(e) => {
                setup.cut = Some(format!("move {} ({w}) is not legal: {e}", i + 1));
                break;
            }
        }
    }
    Ok(setup)
}

/// The position of the FEN `fields`: six fields, four (halfmove clock 0, move 1), or, as
/// Stockfish accepts, five (no fullmove number: move 1).
pub fn fen(fields: &[&str]) -> Result<Position, String> {
    let fen = fields.join(" ");
    let full = match fields.len() {
        5 => format!("{fen} 1"),
        _ => fen.clone(),
    };
    Position::from_fen(&full).map_err(|e| format!("bad fen {fen}: {e}"))
}

/// The limits of an accepted `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth N` (clamped to 1..=[`crate::MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// `nodes N` (at least 1).
    pub nodes: Option<u64>,
    /// `mate N` (at least 1): stop once a mate in at most `N` moves is found.
    pub mate: Option<u32>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `wtime`, `btime` in ms (negative values count as 0).
    pub time: [Option<u64>; 2],
    /// `winc`, `binc` in ms.
    pub inc: [Option<u64>; 2],
    /// `movestogo N` (at least 1).
    pub moves_to_go: Option<u64>,
    /// `infinite`: `bestmove` waits for `stop`.
    pub infinite: bool,
    /// `ponder`: searched like `infinite` until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves …`: only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// The words of `go` that take a number, and `infinite`, `ponder`, `searchmoves`.
const GO_WORDS: [&str; 12] = [
    "depth",
    "nodes",
    "mate",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Parses the words after `go` for a search of `root`. Every word must be understood: a
/// limit without an integer after it (`go depth abc`), an unknown word, or a `searchmoves`
/// word that is not a legal move of `root` makes the whole command an error (the engine
/// refuses it visibly: `info string` and `bestmove 0000`). Integers are clamped into range
/// (`depth 0` is depth 1, negative times are 0).
pub fn parse_go(words: &[&str], root: &Position) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        if key == "infinite" {
            go.infinite = true;
            continue;
        }
        if key == "ponder" {
            go.ponder = true;
            continue;
        }
        if key == "searchmoves" {
            while let Some(w) = words.get(i).filter(|w| !GO_WORDS.contains(w)) {
                let m = root
                    .parse_uci(w)
                    .map_err(|e| format!("searchmoves {w}: {e}"))?;
                go.searchmoves.push(m);
                i += 1;
            }
            continue;
        }
        let n = number(key, words.get(i).copied())?;
        i += 1;
        let positive = n.max(1) as u64;
        let ms = n.max(0) as u64;
        match key {
            "depth" => go.depth = Some(positive.min(u64::from(crate::MAX_DEPTH)) as u32),
            "nodes" => go.nodes = Some(positive),
            "mate" => go.mate = Some(positive.min(u64::from(crate::MAX_DEPTH)) as u32),
            "movetime" => go.movetime = Some(ms),
            "wtime" => go.time[0] = Some(ms),
            "btime" => go.time[1] = Some(ms),
            "winc" => go.inc[0] = Some(ms),
            "binc" => go.inc[1] = Some(ms),
            "movestogo" => go.moves_to_go = Some(positive),
            _ => return Err(format!("unknown word {key}")),
        }
    }
    Ok(go)
}

/// The integer after `key` (any `i64`).
fn number(key: &str, word: Option<&str>) -> Result<i64, String> {
    if !GO_WORDS.contains(&key) {
        return Err(format!("unknown word {key}"));
    }
    match word {
        None => Err(format!("{key} needs a number")),
        Some(w) => w
            .parse::<i64>()
            .map_err(|_| format!("{key} needs an integer, got {w}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(words: &str) -> Result<Go, String> {
        let words: Vec<&str> = words.split_whitespace().collect();
        parse_go(&words, &Position::startpos())
    }

    #[test]
    fn go_words() {
        let g = go("wtime 60000 btime -30 winc 1000 movestogo 0 depth 0 nodes 0").unwrap();
        assert_eq!(g.time, [Some(60000), Some(0)]);
        assert_eq!(g.inc, [Some(1000), None]);
        assert_eq!(
            (g.moves_to_go, g.depth, g.nodes),
            (Some(1), Some(1), Some(1))
        );
        assert_eq!(go("depth 999").unwrap().depth, Some(crate::MAX_DEPTH));
        assert!(go("infinite").unwrap().infinite);
        assert_eq!(go("mate 2").unwrap().mate, Some(2));
        assert_eq!(go("").unwrap(), Go::default());
        for bad in [
            "depth x",
            "depth",
            "movetime 1.5",
            "deph 3",
            "nodes 99999999999999999999",
        ] {
            assert!(go(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn searchmoves_end_at_the_next_keyword() {
        let g = go("searchmoves e2e4 d2d4 depth 2").unwrap();
        assert_eq!(g.searchmoves.len(), 2);
        assert_eq!(g.depth, Some(2));
        assert!(go("searchmoves e2e5").is_err());
        assert!(go("searchmoves").unwrap().searchmoves.is_empty());
    }

    #[test]
    fn positions_stop_at_the_first_illegal_move() {
        let s = parse_position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!((s.positions.len(), s.moves.len(), s.cut), (3, 2, None));
        let s = parse_position(&["startpos", "moves", "e2e4", "e7e5", "e1e3", "g1f3"]).unwrap();
        assert_eq!((s.positions.len(), s.moves.len()), (3, 2));
        assert!(s.cut.unwrap().starts_with("move 3 (e1e3)"));
        assert!(parse_position(&["fen", "nonsense"]).is_err());
        assert!(parse_position(&[]).is_err());
        assert!(parse_position(&["startpos", "e2e4"]).is_err());
        let s = parse_position(&["fen", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"]).unwrap();
        assert_eq!(s.positions.len(), 1);
    }

    #[test]
    fn a_fen_may_leave_out_the_fullmove_number_or_both_counters() {
        let five = parse_position(&["fen", "8/8/8/8/8/8/8/K6k", "b", "-", "-", "37"]).unwrap();
        assert_eq!(five.root().fen(), "8/8/8/8/8/8/8/K6k b - - 37 1");
        let four = parse_position(&["fen", "8/8/8/8/8/8/8/K6k", "b", "-", "-"]).unwrap();
        assert_eq!(four.root().fen(), "8/8/8/8/8/8/8/K6k b - - 0 1");
        for bad in [
            &["8/8/8/8/8/8/8/K6k", "b", "-"][..],
            &["8/8/8/8/8/8/8/K6k", "b", "-", "-", "x"],
        ] {
            let words: Vec<&str> = std::iter::once("fen").chain(bad.iter().copied()).collect();
            assert!(parse_position(&words).is_err(), "{bad:?}");
        }
    }
}
