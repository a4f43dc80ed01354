//! SAN and UCI move text (`Position::parse_san`, `Position::parse_uci`, `Position::san`).
//!
//! Input: a FEN on the first line (the start position if it is not a valid FEN), then move
//! tokens separated by whitespace. Each token is parsed as SAN and as UCI; an accepted move must
//! be legal, its SAN/UCI must parse back to it, and the position after it must keep its
//! invariants. Replay stops at the first token neither parser accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replab_board::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let (start, tokens) = match Position::from_fen(first) {
        Ok(pos) => (pos, rest),
        Err(_) => (Position::startpos(), text),
    };
    replab_fuzz::replay(start, tokens.split_whitespace());
});
