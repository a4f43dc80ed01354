//! FEN parsing (with full validation) and formatting.

use std::fmt;

use crate::{
    attacks::pawn_attacks,
    position::Position,
    types::{Bitboard, CastlingRights, Color, Piece, Role, Square},
};

/// Why a FEN (or the FEN part of an EPD record) was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text does not have 4 (EPD-style) or 6 space-separated fields.
    FieldCount(usize),
    /// The placement does not have exactly 8 ranks.
    RankCount(usize),
    /// A character in the placement is neither a piece letter nor a digit 1–8.
    BadPieceChar(char),
    /// A rank describes more than 8 squares (rank number as in chess, 8 = top).
    RankOverflow(u8),
    /// A rank describes fewer than 8 squares.
    RankUnderflow(u8),
    /// The side-to-move field is not `w` or `b`.
    BadSideToMove(String),
    /// The castling field is not `-` or a subset of `KQkq` without repeats.
    BadCastling(String),
    /// A castling right whose king or rook is not on its original square.
    CastlingContradictsPlacement(char),
    /// The en-passant field is not `-` or a square on the right rank for the side to move.
    BadEnPassant(String),
    /// The en-passant square could not arise from a double pawn push just played.
    ImpossibleEnPassant(Square),
    /// The halfmove clock is not a number in 0..=65535.
    BadHalfmoveClock(String),
    /// The fullmove number is not a number in 1..=65535.
    BadFullmoveNumber(String),
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// A side has more than 16 pieces or more than 8 pawns.
    TooManyPieces(Color),
    /// The side not to move is in check.
    OppositeCheck,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "expected 6 fields (or 4 as in EPD), found {n}"),
            FenError::RankCount(n) => write!(f, "placement has {n} ranks, expected 8"),
            FenError::BadPieceChar(c) => write!(f, "invalid piece letter {c:?} in placement"),
            FenError::RankOverflow(r) => write!(f, "rank {r} describes more than 8 squares"),
            FenError::RankUnderflow(r) => write!(f, "rank {r} describes fewer than 8 squares"),
            FenError::BadSideToMove(s) => write!(f, "side to move must be 'w' or 'b', found {s:?}"),
            FenError::BadCastling(s) => {
                write!(
                    f,
                    "castling field must be '-' or a subset of 'KQkq', found {s:?}"
                )
            }
            FenError::CastlingContradictsPlacement(c) => write!(
                f,
                "castling right '{c}' but the king or rook is not on its original square"
            ),
            FenError::BadEnPassant(s) => write!(
                f,
                "en-passant field must be '-' or a square on the 3rd/6th rank matching the side to move, found {s:?}"
            ),
            FenError::ImpossibleEnPassant(sq) => write!(
                f,
                "en-passant square {sq} is impossible: no pawn can have just advanced two squares past it"
            ),
            FenError::BadHalfmoveClock(s) => {
                write!(
                    f,
                    "halfmove clock must be a number from 0 to 65535, found {s:?}"
                )
            }
            FenError::BadFullmoveNumber(s) => {
                write!(
                    f,
                    "fullmove number must be a number from 1 to 65535, found {s:?}"
                )
            }
            FenError::MissingKing(c) => write!(f, "{} has no king", color_name(*c)),
            FenError::TooManyKings(c) => write!(f, "{} has more than one king", color_name(*c)),
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on back rank square {sq}"),
            FenError::TooManyPieces(c) => {
                write!(
                    f,
                    "{} has more than 16 pieces or more than 8 pawns",
                    color_name(*c)
                )
            }
            FenError::OppositeCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses and validates a FEN. Six fields, or four (EPD style: clocks default to `0 1`).
    /// An en-passant square that no pawn can legally capture onto is accepted but dropped, so
    /// the position equals (and hashes like) the same position reached without it.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSideToMove(other.to_string())),
        };
        pos.castling = parse_castling(fields[2])?;
        let ep = parse_ep(fields[3], pos.side)?;
        if fields.len() == 6 {
            pos.halfmove = fields[4]
                .parse()
                .map_err(|_| FenError::BadHalfmoveClock(fields[4].to_string()))?;
            pos.fullmove = match fields[5].parse::<u16>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(FenError::BadFullmoveNumber(fields[5].to_string())),
            };
        }
        validate(&pos)?;
        if let Some(ep) = ep {
            // The pawn that just advanced stands in front of the ep square (from the side to
            // move's view, behind it), and its origin and the ep square are empty.
            let pusher = pos.side.flip();
            let pawn_sq = Square::new(ep.to_u8() ^ 8);
            let origin = match pos.side {
                Color::White => Square::new(ep.to_u8() + 8),
                Color::Black => Square::new(ep.to_u8() - 8),
            };
            let occ = pos.occupied();
            if !pos.pieces(pusher, Role::Pawn).has(pawn_sq) || occ.has(ep) || occ.has(origin) {
                return Err(FenError::ImpossibleEnPassant(ep));
            }
            pos.update_check_info();
            let candidates = pawn_attacks(pusher, ep) & pos.pieces(pos.side, Role::Pawn);
            if candidates
                .into_iter()
                .any(|from| pos.ep_capture_is_legal(from, ep))
            {
                pos.ep = Some(ep);
            }
        }
        pos.update_check_info();
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The six-field FEN. The en-passant square is written only when an en-passant capture is
    /// legal (positions never keep any other).
    pub fn fen(&self) -> String {
        format!("{} {} {}", self.epd_fen(), self.halfmove, self.fullmove)
    }

    /// The first four FEN fields (placement, side, castling, en passant), as used in EPD.
    pub fn epd_fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.fen_char());
        s.push(' ');
        s.push_str(&self.castling.to_string());
        s.push(' ');
        match self.ep {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

fn parse_placement(pos: &mut Position, text: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as u8;
                if file > 8 {
                    return Err(FenError::RankOverflow(rank + 1));
                }
            } else {
                let piece = Piece::from_fen_char(c).ok_or(FenError::BadPieceChar(c))?;
                if file >= 8 {
                    return Err(FenError::RankOverflow(rank + 1));
                }
                pos.put(piece, Square::new(rank * 8 + file));
                file += 1;
            }
        }
        if file < 8 {
            return Err(FenError::RankUnderflow(rank + 1));
        }
    }
    Ok(())
}

fn parse_castling(text: &str) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::empty();
    if text == "-" {
        return Ok(rights);
    }
    for c in text.chars() {
        let flag = match c {
            'K' => CastlingRights::WHITE_KING,
            'Q' => CastlingRights::WHITE_QUEEN,
            'k' => CastlingRights::BLACK_KING,
            'q' => CastlingRights::BLACK_QUEEN,
            _ => return Err(FenError::BadCastling(text.to_string())),
        };
        if rights.contains(flag) {
            return Err(FenError::BadCastling(text.to_string()));
        }
        rights |= flag;
    }
    if rights.is_empty() {
        return Err(FenError::BadCastling(text.to_string()));
    }
    Ok(rights)
}

fn parse_ep(text: &str, side: Color) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let sq = Square::parse(text).ok_or_else(|| FenError::BadEnPassant(text.to_string()))?;
    let expected_rank = match side {
        Color::White => 5,
        Color::Black => 2,
    };
    if sq.rank() != expected_rank {
        return Err(FenError::BadEnPassant(text.to_string()));
    }
    Ok(Some(sq))
}

fn validate(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = pos.pieces(color, Role::King).len();
        if kings == 0 {
            return Err(FenError::MissingKing(color));
        }
        if kings > 1 {
            return Err(FenError::TooManyKings(color));
        }
        if pos.by_color(color).len() > 16 || pos.pieces(color, Role::Pawn).len() > 8 {
            return Err(FenError::TooManyPieces(color));
        }
    }
    let back_ranks = Bitboard::rank(0) | Bitboard::rank(7);
    if let Some(sq) = (pos.by_role(Role::Pawn) & back_ranks).first() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    for (flag, c, color, king_sq, rook_sq) in [
        (CastlingRights::WHITE_KING, 'K', Color::White, 4, 7),
        (CastlingRights::WHITE_QUEEN, 'Q', Color::White, 4, 0),
        (CastlingRights::BLACK_KING, 'k', Color::Black, 60, 63),
        (CastlingRights::BLACK_QUEEN, 'q', Color::Black, 60, 56),
    ] {
        if pos.castling.contains(flag) {
            let king = Piece {
                color,
                role: Role::King,
            };
            let rook = Piece {
                color,
                role: Role::Rook,
            };
            if pos.piece_at(Square::new(king_sq)) != Some(king)
                || pos.piece_at(Square::new(rook_sq)) != Some(rook)
            {
                return Err(FenError::CastlingContradictsPlacement(c));
            }
        }
    }
    let them = pos.side.flip();
    if pos.is_attacked(pos.king(them), pos.side, pos.occupied()) {
        return Err(FenError::OppositeCheck);
    }
    Ok(())
}
