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
            if !self.skip_to_tags()? {
                return Ok(None);
            }
        }
        let mut state = GameState::new(self.games_read);
        while let Some((line_no, line)) = self.next_line()? {
            if self.read_line(&mut state, line_no, line)? {
                break;
            }
        }
        self.finish_game(state)
    }

    /// Skips to the next tag section, leaving its first line pending; `false` at the end of
    /// the input.
    fn skip_to_tags(&mut self) -> Result<bool, PgnError> {
        loop {
            match self.next_line()? {
                None => return Ok(false),
                Some((n, l)) if l.trim_start().starts_with('[') => {
                    self.pending = Some((n, l));
                    return Ok(true);
                }
                Some(_) => {}
            }
        }
    }

    /// The syntax error `message` at `line` of game `game`; the next call resumes at the
    /// following game.
    fn fail(&mut self, line: usize, game: usize, message: String) -> PgnError {
        self.resync = true;
        self.games_read += 1;
        PgnError::Syntax {
            line,
            game,
            message,
        }
    }

    /// Reads one line of the game into `state`: an escape line, a tag pair, a blank line or
    /// movetext. `true` when the game has ended (a termination marker, or the next game's first
    /// tag line, left pending).
    fn read_line(
        &mut self,
        state: &mut GameState,
        line_no: usize,
        line: String,
    ) -> Result<bool, PgnError> {
        let trimmed = line.trim();
        if !state.in_comment && trimmed.starts_with('%') {
            return Ok(false);
        }
        if !state.in_comment && trimmed.starts_with('[') && state.variation_depth == 0 {
            if state.in_movetext {
                // A new game begins without a termination marker.
                self.pending = Some((line_no, line));
                return Ok(true);
            }
            state.start(line_no);
            match parse_tag(trimmed) {
                Some(tag) => state.game.tags.push(tag),
                None => {
                    let message = format!("malformed tag pair {trimmed:?}");
                    return Err(self.fail(line_no, state.game.index, message));
                }
            }
            return Ok(false);
        }
        if trimmed.is_empty() && !state.in_comment {
            return Ok(false);
        }
        state.start(line_no);
        state.in_movetext = true;
        self.movetext(state, line_no, &line)
    }

    /// Reads one line of movetext into `state`; `true` when it holds the termination marker.
    fn movetext(
        &mut self,
        state: &mut GameState,
        line_no: usize,
        line: &str,
    ) -> Result<bool, PgnError> {
        let mut rest = line;
        while !rest.is_empty() {
            if state.in_comment {
                match rest.find('}') {
                    Some(i) => {
                        state.in_comment = false;
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
                    state.in_comment = true;
                    rest = &rest[1..];
                }
                ';' => rest = "",
                '(' => {
                    state.variation_depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    if state.variation_depth == 0 {
                        return Err(self.fail(line_no, state.game.index, "unmatched ')'".into()));
                    }
                    state.variation_depth -= 1;
                    rest = &rest[1..];
                }
                '}' => return Err(self.fail(line_no, state.game.index, "unmatched '}'".into())),
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                        .unwrap_or(rest.len());
                    debug_assert!(end > 0, "token scan must advance");
                    let tok = &rest[..end];
                    rest = &rest[end..];
                    if state.variation_depth > 0 {
                        continue;
                    }
                    match token(tok) {
                        Token::Result => {
                            state.game.result = Some(tok.to_string());
                            return Ok(true);
                        }
                        Token::Skipped => {}
                        Token::Move(san) => state.game.moves.push(SanToken {
                            text: san.to_string(),
                            line: line_no,
                        }),
                        Token::Unrecognised(tok) => {
                            let message = format!("unrecognised token {tok:?}");
                            return Err(self.fail(line_no, state.game.index, message));
                        }
                    }
                }
            }
        }
        Ok(false)
    }

    /// The game read into `state` once its lines are over: `None` if it never started, an error
    /// if a comment or variation is left open.
    fn finish_game(&mut self, state: GameState) -> Result<Option<PgnGame>, PgnError> {
        let (line, index) = (state.game.line, state.game.index);
        if !state.started {
            return Ok(None);
        }
        if state.in_comment {
            return Err(self.fail(line, index, "unterminated comment".into()));
        }
        if state.variation_depth > 0 {
            return Err(self.fail(line, index, "unterminated variation".into()));
        }
        self.games_read += 1;
        Ok(Some(state.game))
    }
}

/// Where the reading of one game stands.
struct GameState {
    /// The game read so far.
    game: PgnGame,
    /// Whether its movetext has begun.
    in_movetext: bool,
    /// Whether the reader is inside a `{…}` comment.
    in_comment: bool,
    /// How deep the reader is in recursive variations.
    variation_depth: usize,
    /// Whether the game's first tag or token has been read.
    started: bool,
}

impl GameState {
    /// Nothing read yet of game `index`.
    fn new(index: usize) -> Self {
        GameState {
            game: PgnGame {
                index,
                ..PgnGame::default()
            },
            in_movetext: false,
            in_comment: false,
            variation_depth: 0,
            started: false,
        }
    }

    /// Marks the game started at `line_no`, unless it already is.
    fn start(&mut self, line_no: usize) {
        if !self.started {
            self.game.line = line_no;
            self.started = true;
        }
    }
}

/// What a main-line movetext token is.
enum Token<'a> {
    /// A game termination marker.
    Result,
    /// A NAG, a lone annotation glyph or a move number: nothing to keep.
    Skipped,
    /// A move in SAN, glyphs and a glued move number stripped.
    Move(&'a str),
    /// None of these (a glued move number stripped).
    Unrecognised(&'a str),
}

/// Classifies the movetext token `tok`.
fn token(tok: &str) -> Token<'_> {
    if is_result(tok) {
        return Token::Result;
    }
    if tok.starts_with('$') && tok[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Token::Skipped;
    }
    if tok.bytes().all(|b| matches!(b, b'!' | b'?')) {
        return Token::Skipped;
    }
    let num = tok.trim_end_matches(['.', '…']);
    if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
        return Token::Skipped;
    }
    // A move number glued to its move: "12.Nf3" or "12...Nf6".
    let tok = match tok.find('.') {
        Some(i) if tok[..i].bytes().all(|b| b.is_ascii_digit()) => tok[i..].trim_start_matches('.'),
        _ => tok,
    };
    let san = strip_glyphs(tok);
    if looks_like_san(san) {
        Token::Move(san)
    } else {
        Token::Unrecognised(tok)
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
