//! Checks a whole UCI session against the engine's promises (docs/contracts.md, UCI): the
//! oracle of the hostile-session tests and of the `uci` fuzz target.
//!
//! [`replay`] feeds bytes to [`crate::run`] in-process and returns what the engine printed;
//! [`check`] reads the same bytes the way the contract says the engine must, with the board
//! crate as the judge of legality, and compares:
//! - every `go` (before `quit`) gets exactly one `bestmove`, in order;
//! - a `go` the contract refuses (no position, a word that is not understood, a `searchmoves`
//!   word that is not a legal move) gets `bestmove 0000`; an accepted one gets a legal move of
//!   the position set up for it, one of its `searchmoves` if it has some, and `0000` only
//!   when that position has no legal move;
//! - a `position` whose move list is cut at an illegal move reports the position kept, and
//!   that FEN is the one the rule gives;
//! - `bestmove X ponder Y`: `Y` is a legal move after `X`;
//! - every `info` line of a search (not `info string`) comes before its `bestmove`, for a `go`
//!   that is not refused, and is well formed: known fields only, `depth`, `seldepth`, `nodes`,
//!   `nps`, `time` integers, `multipv` and `currmovenumber` at least 1, `hashfull` a permille
//!   (0 to 1000), `score cp N` or `score mate N`, `currmove` a legal move of the root (one of
//!   the `searchmoves`), `pv` a line of legal moves from the root;
//! - a FEN with five fields (no fullmove number) is accepted, as Stockfish does;
//! - every `isready` gets `readyok` and every `uci` gets `uciok` (the engine stayed alive);
//! - every line printed is a UCI answer (`id`, `option`, `uciok`, `readyok`, `info`,
//!   `bestmove`).

use std::{
    io::Write,
    sync::{Arc, Mutex},
};

use replab_board::{Move, Position};

/// A `Write` into a shared buffer (the engine's output, read after it ends).
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs the engine on `input` (the whole session at once, then the end of the input) and
/// returns everything it printed.
pub fn replay(input: &[u8]) -> String {
    let out = Shared::default();
    crate::run(input, out.clone());
    let bytes = out.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// What the contract expects for one `go`.
#[derive(Debug)]
struct Expected {
    /// The root searched (`None`: no position, the `go` is refused).
    root: Option<Position>,
    /// Whether the command is refused.
    refused: bool,
    /// Its `searchmoves`.
    only: Vec<Move>,
}

/// The counts [`check`] verified.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// `go` commands, each answered by one `bestmove`.
    pub gos: usize,
    /// Of those, refused (`bestmove 0000` after `info string`).
    pub refused: usize,
    /// `isready` commands answered.
    pub isready: usize,
    /// `position` commands cut at an illegal move.
    pub cut: usize,
}

/// The commands as the engine reads them: the first known command word of each line and the
/// words after it, up to `quit`.
fn commands(input: &[u8]) -> Vec<(String, Vec<String>)> {
    let mut list = Vec::new();
    for raw in input.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|w| crate::COMMANDS.contains(w)) else {
            continue;
        };
        if words[at] == "quit" {
            break;
        }
        let rest = words[at + 1..].iter().map(|w| w.to_string()).collect();
        list.push((words[at].to_string(), rest));
    }
    list
}

/// The root a `position` command sets up and, when its moves are cut, the root's FEN
/// (`Err`: no position).
fn position(words: &[String]) -> Result<(Position, Option<String>), ()> {
    let split = words.iter().position(|w| w == "moves");
    let (start, moves) = words.split_at(split.unwrap_or(words.len()));
    let mut pos = match start {
        [s] if s == "startpos" => Position::startpos(),
        [f, fen @ ..] if f == "fen" && !fen.is_empty() => {
            let fen = fen.join(" ");
            let fen = if fen.split_whitespace().count() == 5 {
                format!("{fen} 1")
            } else {
                fen
            };
            Position::from_fen(&fen).map_err(|_| ())?
        }
        _ => return Err(()),
    };
    for w in moves.iter().skip(1) {
        match pos.parse_uci(w) {
            Ok(m) if pos.is_legal(m) => pos = pos.play(m),
            _ => return Ok((pos, Some(pos.fen()))),
        }
    }
    Ok((pos, None))
}

/// Whether `go <words>` is refused for `root`, and its `searchmoves`.
fn go(words: &[String], root: &Position) -> (bool, Vec<Move>) {
    const NUMBERS: [&str; 9] = [
        "depth",
        "nodes",
        "mate",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
    ];
    let keyword =
        |w: &str| NUMBERS.contains(&w) || ["infinite", "ponder", "searchmoves"].contains(&w);
    let mut only = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        i += 1;
        if NUMBERS.contains(&w) {
            if words.get(i).and_then(|n| n.parse::<i64>().ok()).is_none() {
                return (true, only);
            }
            i += 1;
        } else if w == "searchmoves" {
            while let Some(m) = words.get(i).filter(|m| !keyword(m)) {
                match root.parse_uci(m) {
                    Ok(m) if root.is_legal(m) => only.push(m),
                    _ => return (true, only),
                }
                i += 1;
            }
        } else if !keyword(w) {
            return (true, only);
        }
    }
    (false, only)
}

/// What the session in `input` must produce: one entry per `go`, the number of `isready` and
/// `uci`, and the FEN of every cut `position`.
fn expectations(input: &[u8]) -> (Vec<Expected>, usize, usize, Vec<String>) {
    let mut root = Some(Position::startpos());
    let (mut gos, mut isready, mut uci, mut cuts) = (Vec::new(), 0, 0, Vec::new());
    for (command, words) in commands(input) {
        match command.as_str() {
            "isready" => isready += 1,
            "uci" => uci += 1,
            "position" => {
                root = match position(&words) {
                    Ok((p, cut)) => {
                        cuts.extend(cut);
                        Some(p)
                    }
                    Err(()) => None,
                }
            }
            "go" => {
                let (refused, only) = match &root {
                    Some(r) => go(&words, r),
                    None => (true, Vec::new()),
                };
                gos.push(Expected {
                    root,
                    refused,
                    only,
                });
            }
            _ => {}
        }
    }
    (gos, isready, uci, cuts)
}

/// Checks the engine's `output` for the session `input` (see the module docs); the error
/// names the first broken promise.
pub fn check(input: &[u8], output: &str) -> Result<Summary, String> {
    let (gos, isready, uci, cuts) = expectations(input);
    let lines: Vec<&str> = output.lines().collect();
    const ANSWERS: [&str; 6] = ["id ", "option ", "uciok", "readyok", "info ", "bestmove "];
    if let Some(l) = lines
        .iter()
        .find(|l| !ANSWERS.iter().any(|a| l.starts_with(a)))
    {
        return Err(format!("not a UCI answer: {l:?}"));
    }
    let count = |s: &str| lines.iter().filter(|l| **l == s).count();
    if count("readyok") != isready || count("uciok") != uci {
        return Err(format!(
            "{isready} isready and {uci} uci, {} readyok and {} uciok",
            count("readyok"),
            count("uciok")
        ));
    }
    let reported: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("info string position: "))
        .filter_map(|l| l.split(": fen ").nth(1))
        .collect();
    if reported != cuts {
        return Err(format!("cut positions {cuts:?}, reported {reported:?}"));
    }
    let bestmoves: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    // The search `info` lines, each judged for the `go` whose `bestmove` comes next.
    let mut answered = 0;
    for l in &lines {
        if l.starts_with("bestmove ") {
            answered += 1;
        } else if l.starts_with("info ") && !l.starts_with("info string") {
            let e = gos
                .get(answered)
                .ok_or_else(|| format!("search info after the last bestmove: {l}"))?;
            search_info(e, l).map_err(|why| format!("go #{}: {l}: {why}", answered + 1))?;
        }
    }
    if bestmoves.len() != gos.len() {
        return Err(format!("{} go, {} bestmove", gos.len(), bestmoves.len()));
    }
    for (i, (e, b)) in gos.iter().zip(&bestmoves).enumerate() {
        judge(e, b).map_err(|why| format!("go #{}: bestmove {b}: {why}", i + 1))?;
    }
    Ok(Summary {
        gos: gos.len(),
        refused: gos.iter().filter(|e| e.refused).count(),
        isready,
        cut: cuts.len(),
    })
}

/// Whether `line`, an `info` line that is not `info string`, is a well-formed report of the
/// search of the `go` expected as `e`.
fn search_info(e: &Expected, line: &str) -> Result<(), String> {
    let root = match (&e.root, e.refused) {
        (Some(root), false) => root,
        _ => return Err("search info for a refused go".into()),
    };
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let int = |w: Option<&&str>| w.and_then(|w| w.parse::<i64>().ok());
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "depth" | "seldepth" | "nodes" | "nps" | "time" | "tbhits" => {
                if int(words.get(i)).is_none_or(|n| n < 0) {
                    return Err(format!("{key} needs a count"));
                }
                i += 1;
            }
            "multipv" | "currmovenumber" => {
                if int(words.get(i)).is_none_or(|n| n < 1) {
                    return Err(format!("{key} needs a number from 1"));
                }
                i += 1;
            }
            "hashfull" => {
                if int(words.get(i)).is_none_or(|n| !(0..=1000).contains(&n)) {
                    return Err("hashfull needs a permille".into());
                }
                i += 1;
            }
            "score" => {
                match (words.get(i), int(words.get(i + 1))) {
                    (Some(&"cp" | &"mate"), Some(_)) => i += 2,
                    _ => return Err("score needs cp N or mate N".into()),
                }
                if words
                    .get(i)
                    .is_some_and(|w| *w == "lowerbound" || *w == "upperbound")
                {
                    i += 1;
                }
            }
            "currmove" => {
                let m = words
                    .get(i)
                    .and_then(|w| root.parse_uci(w).ok())
                    .filter(|&m| root.is_legal(m))
                    .ok_or("currmove is not a legal move of the root")?;
                if !e.only.is_empty() && !e.only.contains(&m) {
                    return Err("currmove is not one of the searchmoves".into());
                }
                i += 1;
            }
            "pv" => {
                let mut pos = *root;
                for w in &words[i..] {
                    let m = pos
                        .parse_uci(w)
                        .ok()
                        .filter(|&m| pos.is_legal(m))
                        .ok_or_else(|| format!("pv move {w} is not legal in {}", pos.fen()))?;
                    pos = pos.play(m);
                }
                if i == words.len() {
                    return Err("pv needs a move".into());
                }
                i = words.len();
            }
            _ => return Err(format!("unknown info field {key}")),
        }
    }
    Ok(())
}

/// Whether `bestmove` is the right kind of answer to the `go` expected as `e`.
fn judge(e: &Expected, bestmove: &str) -> Result<(), String> {
    let mut words = bestmove.split_whitespace();
    let word = words.next().unwrap_or("");
    let ponder = match (words.next(), words.next(), words.next()) {
        (None, _, _) => None,
        (Some("ponder"), Some(p), None) => Some(p),
        _ => return Err("bestmove is not X or X ponder Y".into()),
    };
    let root = match (&e.root, e.refused) {
        (Some(root), false) => root,
        _ if word == "0000" => return Ok(()),
        _ => return Err("the go must be refused with 0000".into()),
    };
    if word == "0000" {
        return match root.has_legal_move() {
            true => Err(format!("0000 but {} has legal moves", root.fen())),
            false => Ok(()),
        };
    }
    let m = root
        .parse_uci(word)
        .ok()
        .filter(|&m| root.is_legal(m))
        .ok_or_else(|| format!("not legal in {}", root.fen()))?;
    if !e.only.is_empty() && !e.only.contains(&m) {
        return Err("not one of the searchmoves".into());
    }
    if let Some(p) = ponder {
        let after = root.play(m);
        after
            .parse_uci(p)
            .ok()
            .filter(|&p| after.is_legal(p))
            .ok_or_else(|| format!("ponder move {p} is not legal in {}", after.fen()))?;
    }
    Ok(())
}
