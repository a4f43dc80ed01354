//! EPD records: a four-field FEN followed by `;`-terminated operations (`bm`, `am`, `id`,
//! `c0`…`c9`, `D1`…`Dn` perft counts, and any other opcode kept verbatim). Two optional numeric
//! operations `hmvc` and `fmvn` set the clocks; a record may also carry full six-field FEN clocks
//! before its operations, as perft suites do.

use std::fmt;

use crate::{fen::FenError, moves::Move, notation::MoveParseError, position::Position};

/// One EPD operation: an opcode and its operands (quoted operands unquoted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOperation {
    /// The opcode, e.g. `bm`.
    pub opcode: String,
    /// The operands, e.g. `["Qg6"]`.
    pub operands: Vec<String>,
}

/// A parsed EPD record.
#[derive(Clone, Debug)]
pub struct Epd {
    /// The position (clocks from `hmvc`/`fmvn` or six-field FEN, else `0 1`).
    pub position: Position,
    /// The operations in record order.
    pub operations: Vec<EpdOperation>,
}

/// Why an EPD record was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdError {
    /// Fewer than four FEN fields.
    MissingFields,
    /// The FEN part is invalid.
    Fen(FenError),
    /// A quoted operand is not closed.
    UnterminatedString,
    /// An operation has no opcode, or an opcode is not an identifier.
    BadOpcode(String),
    /// A `bm`/`am` operand is not a legal move.
    BadMove {
        /// The opcode (`bm` or `am`).
        opcode: String,
        /// The parser's complaint.
        error: MoveParseError,
    },
    /// A `Dn`, `hmvc` or `fmvn` operand is not a number.
    BadNumber {
        /// The opcode.
        opcode: String,
        /// The operand text.
        operand: String,
    },
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::MissingFields => f.write_str("an EPD record needs at least 4 FEN fields"),
            EpdError::Fen(e) => write!(f, "invalid FEN part: {e}"),
            EpdError::UnterminatedString => f.write_str("unterminated quoted operand"),
            EpdError::BadOpcode(s) => write!(f, "invalid opcode {s:?}"),
            EpdError::BadMove { opcode, error } => write!(f, "operation {opcode}: {error}"),
            EpdError::BadNumber { opcode, operand } => {
                write!(f, "operation {opcode}: {operand:?} is not a number")
            }
        }
    }
}

impl std::error::Error for EpdError {}

impl From<FenError> for EpdError {
    fn from(e: FenError) -> Self {
        EpdError::Fen(e)
    }
}

fn tokenize_operands(text: &str) -> Result<Vec<String>, EpdError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => s.push(c),
                    None => return Err(EpdError::UnterminatedString),
                }
            }
            out.push(s);
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                s.push(c);
                chars.next();
            }
            out.push(s);
        }
    }
    Ok(out)
}

/// Splits at `;` outside double quotes.
fn split_operations(text: &str) -> Result<Vec<&str>, EpdError> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err(EpdError::UnterminatedString);
    }
    parts.push(&text[start..]);
    Ok(parts.into_iter().filter(|p| !p.trim().is_empty()).collect())
}

impl Epd {
    /// Parses one EPD record.
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        let line = line.trim();
        let mut rest = line;
        let mut fields = Vec::with_capacity(6);
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                return Err(EpdError::MissingFields);
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        // Six-field FEN clocks, as in perft suites (`... 0 1 ;D1 20`).
        let mut clocks = None;
        let mut probe = rest.split_ascii_whitespace();
        if let (Some(h), Some(f)) = (probe.next(), probe.next())
            && h.parse::<u16>().is_ok()
            && f.parse::<u16>().is_ok()
        {
            clocks = Some((h, f));
            let after_h = rest.find(h).map_or(0, |i| i + h.len());
            rest = &rest[after_h..];
            let after_f = rest.find(f).map_or(0, |i| i + f.len());
            rest = &rest[after_f..];
        }
        let mut operations = Vec::new();
        for part in split_operations(rest)? {
            let part = part.trim();
            let end = part.find(char::is_whitespace).unwrap_or(part.len());
            let opcode = &part[..end];
            let valid = opcode
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && opcode
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(EpdError::BadOpcode(opcode.to_string()));
            }
            operations.push(EpdOperation {
                opcode: opcode.to_string(),
                operands: tokenize_operands(&part[end..])?,
            });
        }
        let number = |opcode: &str| -> Result<Option<String>, EpdError> {
            match operations.iter().find(|o| o.opcode == opcode) {
                None => Ok(None),
                Some(o) => match o.operands.as_slice() {
                    [n] if n.parse::<u16>().is_ok() => Ok(Some(n.clone())),
                    _ => Err(EpdError::BadNumber {
                        opcode: opcode.to_string(),
                        operand: o.operands.join(" "),
                    }),
                },
            }
        };
        let (h, f) = match clocks {
            Some((h, f)) => (h.to_string(), f.to_string()),
            None => (
                number("hmvc")?.unwrap_or_else(|| "0".into()),
                number("fmvn")?.unwrap_or_else(|| "1".into()),
            ),
        };
        let fen = format!(
            "{} {} {} {} {h} {f}",
            fields[0], fields[1], fields[2], fields[3]
        );
        let position = Position::from_fen(&fen)?;
        let epd = Epd {
            position,
            operations,
        };
        for opcode in ["bm", "am"] {
            epd.moves(opcode)?;
        }
        for op in &epd.operations {
            if is_perft_opcode(&op.opcode) {
                epd.perft_count(&op.opcode)?;
            }
        }
        Ok(epd)
    }

    /// The first operation with this opcode.
    pub fn operation(&self, opcode: &str) -> Option<&EpdOperation> {
        self.operations.iter().find(|o| o.opcode == opcode)
    }

    /// The `id` operand, if any.
    pub fn id(&self) -> Option<&str> {
        self.operation("id")
            .and_then(|o| o.operands.first())
            .map(String::as_str)
    }

    /// The moves of a `bm` or `am` operation, parsed as SAN (empty if absent).
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, EpdError> {
        let Some(op) = self.operation(opcode) else {
            return Ok(Vec::new());
        };
        op.operands
            .iter()
            .map(|t| {
                self.position
                    .parse_san(t)
                    .map_err(|error| EpdError::BadMove {
                        opcode: opcode.to_string(),
                        error,
                    })
            })
            .collect()
    }

    fn perft_count(&self, opcode: &str) -> Result<Option<u64>, EpdError> {
        let Some(op) = self.operation(opcode) else {
            return Ok(None);
        };
        match op.operands.as_slice() {
            [n] => n.parse().map(Some).map_err(|_| EpdError::BadNumber {
                opcode: opcode.to_string(),
                operand: n.clone(),
            }),
            other => Err(EpdError::BadNumber {
                opcode: opcode.to_string(),
                operand: other.join(" "),
            }),
        }
    }

    /// The perft counts `(depth, nodes)` given by `D1`…`Dn` operations, by depth.
    pub fn perft_counts(&self) -> Vec<(u32, u64)> {
        let mut v: Vec<(u32, u64)> = self
            .operations
            .iter()
            .filter(|o| is_perft_opcode(&o.opcode))
            .filter_map(|o| {
                let depth = o.opcode[1..].parse().ok()?;
                let n = self.perft_count(&o.opcode).ok()??;
                Some((depth, n))
            })
            .collect();
        v.sort_unstable();
        v
    }
}

fn is_perft_opcode(op: &str) -> bool {
    op.len() > 1 && op.starts_with('D') && op[1..].bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_wac_and_perft_records() {
        let e = Epd::parse(r#"R7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh8; id "WAC.018";"#).unwrap();
        assert_eq!(e.id(), Some("WAC.018"));
        assert_eq!(e.moves("bm").unwrap()[0].uci().to_string(), "a8h8");
        let p = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66").unwrap();
        assert_eq!(p.perft_counts(), vec![(1, 15), (2, 66)]);
        let c = Epd::parse(r#"4k3/8/8/8/8/8/8/4K2R w K - c0 "a; b"; hmvc 7;"#).unwrap();
        assert_eq!(
            c.operation("c0").unwrap().operands,
            vec!["a; b".to_string()]
        );
        assert_eq!(c.position.halfmove_clock(), 7);
    }
}
