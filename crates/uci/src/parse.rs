//! Parsing `position` and `go`.

use std::time::Duration;

use replab_board::{Color, Move, Position};

/// Parses the words after `position`: `startpos | fen <fields…>` then optionally
/// `moves <uci…>`. Returns the positions (start first, root last) and the moves between them.
/// Any illegal or malformed move rejects the whole command.
pub fn parse_position(words: &[&str]) -> Result<(Vec<Position>, Vec<Move>), String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, move_words) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Position::startpos(),
        Some(&"fen") if setup.len() > 1 => {
            let fen = setup[1..].join(" ");
            Position::from_fen(&fen).map_err(|e| format!("bad fen {fen}: {e}"))?
        }
        _ => {
            return Err(format!(
                "bad position command: position {}",
                words.join(" ")
            ));
        }
    };
    let mut positions = Vec::with_capacity(move_words.len() + 1);
    let mut moves = Vec::with_capacity(move_words.len());
    positions.push(start);
    for w in move_words {
        let here = positions.last().expect("start");
        let m = here
            .parse_uci(w)
            .map_err(|e| format!("position ignored: move {w}: {e}"))?;
        positions.push(here.play(m));
        moves.push(m);
    }
    Ok((positions, moves))
}

/// The limits of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `wtime`, `btime`, `winc`, `binc` in ms.
    pub time: [Option<u64>; 2],
    /// Increments, white then black.
    pub inc: [Option<u64>; 2],
    /// `movestogo N`.
    pub moves_to_go: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
}

/// Parses the words after `go`. Unknown words (`ponder`, `searchmoves …`, `mate N`) are
/// skipped; a number that does not parse is an error.
pub fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let num = |i: usize| -> Result<u64, String> {
            words
                .get(i + 1)
                .and_then(|w| w.parse::<i64>().ok())
                .map(|n| n.max(0) as u64)
                .ok_or_else(|| format!("go {key} needs a number"))
        };
        match key {
            "infinite" => go.infinite = true,
            "depth" => {
                go.depth = Some((num(i)? as u32).clamp(1, crate::MAX_DEPTH));
                i += 1;
            }
            "nodes" => {
                go.nodes = Some(num(i)?.max(1));
                i += 1;
            }
            "movetime" => {
                go.movetime = Some(num(i)?);
                i += 1;
            }
            "wtime" | "btime" | "winc" | "binc" => {
                let n = num(i)?;
                let side = usize::from(key.starts_with('b'));
                if key.ends_with("time") {
                    go.time[side] = Some(n);
                } else {
                    go.inc[side] = Some(n);
                }
                i += 1;
            }
            "movestogo" => {
                go.moves_to_go = Some(num(i)?.max(1));
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(go)
}

impl Go {
    /// The wall time the search may use: `movetime`, or from the clock
    /// `remaining / movestogo (30) + increment / 2`, at most the remaining time less 50 ms
    /// (at least 1 ms); `None` for depth, nodes and infinite searches.
    pub fn budget(&self, side: Color) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        if let Some(ms) = self.movetime {
            return Some(Duration::from_millis(ms.max(1)));
        }
        let s = usize::from(side == Color::Black);
        let remaining = self.time[s]?;
        let inc = self.inc[s].unwrap_or(0);
        let share = remaining / self.moves_to_go.unwrap_or(30) + inc / 2;
        let ms = share.min(remaining.saturating_sub(50)).max(1);
        Some(Duration::from_millis(ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_words() {
        let go = parse_go(&["wtime", "60000", "btime", "30000", "winc", "1000"]).unwrap();
        assert_eq!(go.budget(Color::White), Some(Duration::from_millis(2500)));
        assert_eq!(go.budget(Color::Black), Some(Duration::from_millis(1000)));
        assert_eq!(
            parse_go(&["depth", "5"]).unwrap().budget(Color::White),
            None
        );
        assert!(parse_go(&["depth", "x"]).is_err());
        let low = parse_go(&["wtime", "40"]).unwrap();
        assert_eq!(low.budget(Color::White), Some(Duration::from_millis(1)));
    }

    #[test]
    fn positions() {
        let (p, m) = parse_position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!((p.len(), m.len()), (3, 2));
        assert!(parse_position(&["startpos", "moves", "e2e5"]).is_err());
        assert!(parse_position(&["fen", "nonsense"]).is_err());
        assert!(parse_position(&[]).is_err());
        let (p, _) =
            parse_position(&["fen", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"]).unwrap();
        assert_eq!(p.len(), 1);
    }
}
