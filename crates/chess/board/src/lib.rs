#![doc = include_str!("../README.md")]

pub mod attacks;
mod epd;
mod fen;
#[cfg(test)]
mod geometry;
mod movegen;
mod moves;
mod notation;
mod position;
mod types;
pub mod zobrist;

pub use epd::{Epd, EpdError, EpdOperation};
pub use fen::FenError;
pub use movegen::{PieceMoves, perft, perft_divide};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList, UciMove};
pub use notation::MoveParseError;
pub use position::Position;
pub use types::{Bitboard, CastlingRights, Color, Piece, Role, Square};
