//! The UCI engine (`replab_uci::run`) on arbitrary bytes as a whole session (then the end of
//! the input), checked by `replab_uci::transcript::check`: every `go` before `quit` gets
//! exactly one `bestmove`, `0000` exactly for a refused `go` or a position without legal
//! moves, else a legal move of the position the contract says the engine is in (one of the
//! `searchmoves` if given); a cut `position` reports the right FEN; every `isready` and `uci`
//! is answered; every line printed is a UCI answer; no panic, no hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Longest input replayed (every `go` runs at least one full iteration).
const MAX_INPUT: usize = 4096;

fuzz_target!(|data: &[u8]| {
    // `Hash` up to 4096 MB would only exercise the allocator.
    if data.len() > MAX_INPUT || data.windows(4).any(|w| w.eq_ignore_ascii_case(b"hash")) {
        return;
    }
    let out = replab_uci::transcript::replay(data);
    if let Err(e) = replab_uci::transcript::check(data, &out) {
        panic!("{e}\n--- output ---\n{out}");
    }
});
