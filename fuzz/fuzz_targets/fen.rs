//! `Position::from_fen` on arbitrary text; accepted positions must keep every invariant of
//! `replab_fuzz::check_position` (SAN/UCI round trip of every legal move, keys, FEN round trip,
//! agreement with shakmaty).
#![no_main]

use libfuzzer_sys::fuzz_target;
use replab_board::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = Position::from_fen(text) {
        replab_fuzz::check_position(&pos);
    }
});
