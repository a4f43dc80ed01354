//! A streaming PGN reader that keeps line numbers (replab's PGN input for `scan` and `suite`).
//!
//! It reads one game at a time from any `BufRead` (constant memory however large the file),
//! and yields the tags and the main-line move tokens, each with the line it stands on.
//! Comments (`{…}` and `;…`), escape lines (`%…`), NAGs (`$n`), annotation glyphs (`!`, `?!` …),
//! move numbers and recursive variations are skipped. Unlike `pgn-reader`, which silently skips
//! tokens it cannot parse and reports no positions, any token that is none of these is returned
//! as an error with its line, so no data is dropped without a word.
//!
//! Replaying the tokens against a position (SAN parsing and legality) is the caller's job.

use std::{
    fmt,
    io::{self, BufRead},
};

/// One main-line move token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanToken {
    /// The token as written, annotation glyphs stripped (`Nf3+`, `exd8=Q#`, `O-O`).
    pub text: String,
    /// 1-based line number in the file.
    pub line: usize,
}

/// A game as read from the file.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// 0-based index of the game in the file.
    pub index: usize,
    /// Line of the game's first tag or token.
    pub line: usize,
    /// Tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// Main-line move tokens.
    pub moves: Vec<SanToken>,
    /// The game termination marker, if present (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A syntax error in the PGN text.
#[derive(Debug)]
pub enum PgnError {
    /// Reading the input failed.
    Io(io::Error),
    /// Malformed text at a line.
    Syntax {
        /// 1-based line.
        line: usize,
        /// Index of the game being read.
        game: usize,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Io(e) => write!(f, "read error: {e}"),
            PgnError::Syntax {
                line,
                game,
                message,
            } => write!(f, "line {line} (game {game}): {message}"),
        }
    }
}

impl std::error::Error for PgnError {}

/// Streams games out of a PGN source.
pub struct PgnReader<R> {
    input: R,
    line_no: usize,
    buf: String,
    /// A line read ahead (the first tag line of the next game).
    pending: Option<(usize, String)>,
    games_read: usize,
    /// After a syntax error, skip to the next game.
    resync: bool,
}

fn is_result(tok: &str) -> bool {
    matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Strips trailing annotation glyphs (`!`, `?`) from a move token.
fn strip_glyphs(tok: &str) -> &str {
    tok.trim_end_matches(['!', '?'])
}

/// Whether `tok` looks like a SAN move (the board decides if it is legal).
fn looks_like_san(tok: &str) -> bool {
    let t = tok.trim_end_matches(['+', '#']);
    if matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let b = t.as_bytes();
    b.len() >= 2
        && b.iter()
            .all(|c| matches!(c, b'a'..=b'h' | b'1'..=b'8' | b'x' | b'=' | b'N' | b'B' | b'R' | b'Q' | b'K'))
        && matches!(b[0], b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K')
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        PgnReader {
            input,
            line_no: 0,
            buf: String::new(),
            pending: None,
            games_read: 0,
            resync: false,
        }
    }

    fn next_line(&mut self) -> Result<Option<(usize, String)>, PgnError> {
        if let Some(p) = self.pending.take() {
            return Ok(Some(p));
        }
        self.buf.clear();
        let mut bytes = Vec::new();
        let n = self
            .input
            .read_until(b'\n', &mut bytes)
            .map_err(PgnError::Io)?;
        if n == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        let text = String::from_utf8_lossy(&bytes)
            .trim_end_matches(['\n', '\r'])
            .trim_start_matches('\u{feff}')
            .to_string();
        Ok(Some((self.line_no, text)))
    }

    /// Reads the next game; `Ok(None)` at the end of the input. After an error, the next call
    /// resumes at the following game.
    pub fn next_game(&mut self) -> Result<Option<PgnGame>, PgnError> {
        if self.resync {
            self.resync = false;
            // Skip to the next tag section.
            loop {
                match self.next_line()? {
                    None => return Ok(None),
                    Some((n, l)) if l.trim_start().starts_with('[') => {
                        self.pending = Some((n, l));
                        break;
                    }
                    Some(_) => {}
                }
            }
        }
        let index = self.games_read;
        let mut game = PgnGame {
            index,
            ..PgnGame::default()
        };
        let mut in_movetext = false;
        let mut comment_depth = false; // inside {…}
        let mut variation_depth = 0usize;
        let mut started = false;
        let fail = |line: usize, message: String, this: &mut Self| {
            this.resync = true;
            this.games_read += 1;
            Err(PgnError::Syntax {
                line,
                game: index,
                message,
            })
        };
        while let Some((line_no, line)) = self.next_line()? {
            let trimmed = line.trim();
            if !comment_depth && trimmed.starts_with('%') {
                continue;
            }
            if !comment_depth && trimmed.starts_with('[') && variation_depth == 0 {
                if in_movetext {
                    // A new game begins without a termination marker.
                    self.pending = Some((line_no, line));
                    break;
                }
                if !started {
                    game.line = line_no;
                    started = true;
                }
                match parse_tag(trimmed) {
                    Some(tag) => game.tags.push(tag),
                    None => return fail(line_no, format!("malformed tag pair {trimmed:?}"), self),
                }
                continue;
            }
            if trimmed.is_empty() && !comment_depth {
                continue;
            }
            if !started {
                game.line = line_no;
                started = true;
            }
            in_movetext = true;
            let mut rest = line.as_str();
            let mut done = false;
            while !rest.is_empty() {
                if comment_depth {
                    match rest.find('}') {
                        Some(i) => {
                            comment_depth = false;
                            rest = &rest[i + 1..];
                        }
                        None => rest = "",
                    }
                    continue;
                }
                let c = rest.chars().next().expect("non-empty");
                match c {
                    // Every character the token scan below stops at (any `char::is_whitespace`,
                    // `{ } ( ) ;`) must be consumed by an arm here, or that scan would return an
                    // empty token without advancing and the loop would never end (fuzzing found
                    // such hangs with a stray `}` and with a form feed inside movetext).
                    c if c == '.' || c.is_whitespace() => rest = &rest[c.len_utf8()..],
                    '{' => {
                        comment_depth = true;
                        rest = &rest[1..];
                    }
                    ';' => rest = "",
                    '(' => {
                        variation_depth += 1;
                        rest = &rest[1..];
                    }
                    ')' => {
                        if variation_depth == 0 {
                            return fail(line_no, "unmatched ')'".into(), self);
                        }
                        variation_depth -= 1;
                        rest = &rest[1..];
                    }
                    '}' => return fail(line_no, "unmatched '}'".into(), self),
                    _ => {
                        let end = rest
                            .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                            .unwrap_or(rest.len());
                        debug_assert!(end > 0, "token scan must advance");
                        let tok = &rest[..end];
                        rest = &rest[end..];
                        if variation_depth > 0 {
                            continue;
                        }
                        if is_result(tok) {
                            game.result = Some(tok.to_string());
                            done = true;
                            break;
                        }
                        if tok.starts_with('$') && tok[1..].bytes().all(|b| b.is_ascii_digit()) {
                            continue;
                        }
                        if tok.bytes().all(|b| matches!(b, b'!' | b'?')) {
                            continue;
                        }
                        let num = tok.trim_end_matches(['.', '…']);
                        if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
                            continue;
                        }
                        // A move number glued to its move: "12.Nf3" or "12...Nf6".
                        let tok = match tok.find('.') {
                            Some(i) if tok[..i].bytes().all(|b| b.is_ascii_digit()) => {
                                tok[i..].trim_start_matches('.')
                            }
                            _ => tok,
                        };
                        let san = strip_glyphs(tok);
                        if looks_like_san(san) {
                            game.moves.push(SanToken {
                                text: san.to_string(),
                                line: line_no,
                            });
                        } else {
                            return fail(line_no, format!("unrecognised token {tok:?}"), self);
                        }
                    }
                }
            }
            if done {
                break;
            }
        }
        if !started {
            return Ok(None);
        }
        if comment_depth {
            return fail(game.line, "unterminated comment".into(), self);
        }
        if variation_depth > 0 {
            return fail(game.line, "unterminated variation".into(), self);
        }
        self.games_read += 1;
        Ok(Some(game))
    }
}

fn parse_tag(text: &str) -> Option<(String, String)> {
    let inner = text.strip_prefix('[')?.trim_end().strip_suffix(']')?.trim();
    let name_end = inner.find(char::is_whitespace)?;
    let name = &inner[..name_end];
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let value = inner[name_end..].trim();
    let value = value.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.push(chars.next()?);
        } else {
            out.push(c);
        }
    }
    Some((name.to_string(), out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<Result<PgnGame, String>> {
        let mut r = PgnReader::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            match r.next_game() {
                Ok(Some(g)) => out.push(Ok(g)),
                Ok(None) => break,
                Err(e) => out.push(Err(e.to_string())),
            }
        }
        out
    }

    #[test]
    fn reads_tags_moves_comments_variations() {
        let text = "[Event \"x \\\"y\\\"\"]\n[Site \"?\"]\n\n1. e4 {a comment\nover lines} e5 $1 2.Nf3!? (2. Nc3 (2. f4) Nc6) 2...Nc6 ; rest\n% escape\n3. Bb5 1-0\n\n[Event \"2\"]\n1. d4 *\n";
        let g = games(text);
        assert_eq!(g.len(), 2);
        let g0 = g[0].as_ref().unwrap();
        assert_eq!(g0.tag("Event"), Some("x \"y\""));
        let sans: Vec<_> = g0.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(g0.moves[4].line, 7);
        assert_eq!(g0.result.as_deref(), Some("1-0"));
        let g1 = g[1].as_ref().unwrap();
        assert_eq!((g1.index, g1.line), (1, 9));
    }

    #[test]
    fn reports_bad_tokens_with_line_and_resumes() {
        let text = "[Event \"a\"]\n1. e4 e5\n2. Nf3 @@ 1-0\n\n[Event \"b\"]\n1. d4 d5 *\n";
        let g = games(text);
        assert_eq!(g.len(), 2);
        assert_eq!(
            g[0].as_ref().unwrap_err(),
            "line 3 (game 0): unrecognised token \"@@\""
        );
        assert_eq!(g[1].as_ref().unwrap().moves.len(), 2);
        let g = games("[Event \"a\"\n1. e4 *\n");
        assert!(g[0].as_ref().unwrap_err().contains("malformed tag"));
        let g = games("1. e4 { never closed\n");
        assert!(g[0].as_ref().unwrap_err().contains("unterminated comment"));
        let g = games("1. e4 (1. d4\n");
        assert!(
            g[0].as_ref()
                .unwrap_err()
                .contains("unterminated variation")
        );
    }
}
