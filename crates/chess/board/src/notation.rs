//! Move text: UCI and SAN, parsed against the legal moves of a position and written with
//! minimal disambiguation and check/mate suffixes.

use std::fmt;

use crate::{
    moves::{Move, MoveList},
    position::Position,
    types::{Role, Square},
};

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text is not well-formed UCI or SAN.
    Syntax(String),
    /// Well-formed, but no legal move matches.
    Illegal(String),
    /// Well-formed SAN that matches more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => write!(f, "invalid move text {s:?}"),
            MoveParseError::Illegal(s) => write!(f, "illegal move {s:?}"),
            MoveParseError::Ambiguous(s) => write!(f, "ambiguous move {s:?}"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// A parsed SAN token before it is matched against legal moves.
struct SanPattern {
    role: Role,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<Role>,
}

fn parse_san_pattern(text: &str) -> Option<SanPattern> {
    let b = text.as_bytes();
    if b.is_empty() || !b.is_ascii() {
        return None;
    }
    let (role, rest) = match b[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' => (Role::from_char(b[0] as char)?, &b[1..]),
        _ => (Role::Pawn, b),
    };
    // Promotion suffix: "=Q" or "Q".
    let (rest, promotion) = match rest {
        [head @ .., b'=', p] | [head @ .., p @ (b'N' | b'B' | b'R' | b'Q')] => {
            let r = Role::from_char(*p as char)?;
            if matches!(r, Role::Pawn | Role::King) || role != Role::Pawn {
                return None;
            }
            (head, Some(r))
        }
        _ => (rest, None),
    };
    if rest.len() < 2 {
        return None;
    }
    let (head, dest) = rest.split_at(rest.len() - 2);
    let to = Square::parse(std::str::from_utf8(dest).ok()?)?;
    let head = head.strip_suffix(b"x").unwrap_or(head);
    let (mut from_file, mut from_rank) = (None, None);
    for &c in head {
        match c {
            b'a'..=b'h' if from_file.is_none() && from_rank.is_none() => from_file = Some(c - b'a'),
            b'1'..=b'8' if from_rank.is_none() => from_rank = Some(c - b'1'),
            _ => return None,
        }
    }
    Some(SanPattern {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

impl Position {
    /// Parses a UCI move (`e2e4`, `e7e8q`, castling as the king's move `e1g1`) that is legal here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(text.to_string());
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(syntax());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&text[2..4]).ok_or_else(syntax)?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
                _ => return Err(syntax()),
            },
        };
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }

    /// Parses a SAN move legal here. Accepts check/mate suffixes and annotation glyphs
    /// (`+ # ! ?`), `0-0` for `O-O`, and promotions with or without `=`.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let core = text.trim_end_matches(['+', '#', '!', '?']);
        let legal = self.legal_moves();
        if matches!(core, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let long = core.len() == 5;
            return legal
                .iter()
                .copied()
                .find(|m| m.is_castle() && (m.to().file() == 2) == long)
                .ok_or_else(|| MoveParseError::Illegal(text.to_string()));
        }
        let pat =
            parse_san_pattern(core).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
        let mut found = None;
        for &m in legal.iter() {
            let Some(piece) = self.piece_at(m.from()) else {
                continue;
            };
            if piece.role == pat.role
                && m.to() == pat.to
                && !m.is_castle()
                && m.promotion() == pat.promotion
                && pat.from_file.is_none_or(|f| m.from().file() == f)
                && pat.from_rank.is_none_or(|r| m.from().rank() == r)
            {
                if found.is_some() {
                    return Err(MoveParseError::Ambiguous(text.to_string()));
                }
                found = Some(m);
            }
        }
        found.ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }

    /// The SAN of the legal move `m`, with `+` or `#` when it gives check or mate.
    pub fn san(&self, m: Move) -> String {
        let mut legal = MoveList::new();
        self.legal_moves_into(&mut legal);
        let mut s = String::with_capacity(8);
        if m.is_castle() {
            s.push_str(if m.to().file() == 6 { "O-O" } else { "O-O-O" });
        } else {
            let role = self.piece_at(m.from()).map_or(Role::Pawn, |p| p.role);
            if role == Role::Pawn {
                if m.is_capture() {
                    s.push((b'a' + m.from().file()) as char);
                }
            } else {
                s.push(role.upper_char());
                let rivals = legal.iter().filter(|o| {
                    o.to() == m.to()
                        && o.from() != m.from()
                        && self.piece_at(o.from()).map(|p| p.role) == Some(role)
                });
                let (mut any, mut same_file, mut same_rank) = (false, false, false);
                for o in rivals {
                    any = true;
                    same_file |= o.from().file() == m.from().file();
                    same_rank |= o.from().rank() == m.from().rank();
                }
                if any {
                    if !same_file {
                        s.push((b'a' + m.from().file()) as char);
                    } else if !same_rank {
                        s.push((b'1' + m.from().rank()) as char);
                    } else {
                        s.push_str(&m.from().to_string());
                    }
                }
            }
            if m.is_capture() {
                s.push('x');
            }
            s.push_str(&m.to().to_string());
            if let Some(p) = m.promotion() {
                s.push('=');
                s.push(p.upper_char());
            }
        }
        let next = self.play(m);
        if next.is_check() {
            s.push(if next.has_legal_move() { '+' } else { '#' });
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_round_trip_and_disambiguation() {
        let pos = Position::from_fen("R6R/8/8/8/8/8/1k6/R3K2R w - - 0 1").unwrap();
        for m in pos.legal_moves().iter() {
            let san = pos.san(*m);
            assert_eq!(pos.parse_san(&san).unwrap(), *m, "{san}");
            assert_eq!(pos.parse_uci(&m.uci().to_string()).unwrap(), *m);
        }
        let m = pos.parse_uci("a1a4").unwrap();
        assert_eq!(pos.san(m), "R1a4");
        let m = pos.parse_uci("a8d8").unwrap();
        assert_eq!(pos.san(m), "Rad8");
        // The h8 rook also reaches h4 down the open h-file, so the rank disambiguates.
        let m = pos.parse_uci("h1h4").unwrap();
        assert_eq!(pos.san(m), "R1h4");
        let m = pos.parse_uci("h1g1").unwrap();
        assert_eq!(pos.san(m), "Rg1");
        assert!(matches!(
            pos.parse_san("Rd8"),
            Err(MoveParseError::Ambiguous(_))
        ));
        assert!(matches!(
            pos.parse_san("Rz9"),
            Err(MoveParseError::Syntax(_))
        ));
        assert!(matches!(
            pos.parse_san("Nf3"),
            Err(MoveParseError::Illegal(_))
        ));
    }

    #[test]
    fn san_suffixes_promotions_castling() {
        let pos = Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(pos.san(pos.parse_uci("e1g1").unwrap()), "O-O");
        assert_eq!(pos.san(pos.parse_uci("e1c1").unwrap()), "O-O-O");
        assert_eq!(pos.san(pos.parse_uci("b7a8q").unwrap()), "bxa8=Q+");
        assert_eq!(pos.parse_san("bxa8=N").unwrap().uci().to_string(), "b7a8n");
        assert_eq!(pos.parse_san("0-0-0").unwrap().uci().to_string(), "e1c1");
        let mate = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        assert_eq!(mate.san(mate.parse_uci("a1a8").unwrap()), "Ra8#");
        assert!(mate.parse_uci("a1a9").is_err());
        assert!(mate.parse_uci("e2e4").is_err());
    }
}
