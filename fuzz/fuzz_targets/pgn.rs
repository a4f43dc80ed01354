//! `replab_pgn::PgnReader` on arbitrary bytes, then each game replayed as `replab scan` does:
//! from its FEN tag (or the start position), every SAN token through `Position::parse_san`,
//! stopping at the first bad token. The reader must make progress on every call (no endless
//! stream of errors), number games in order, and keep token lines within the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replab_board::Position;
use replab_pgn::PgnReader;

fuzz_target!(|data: &[u8]| {
    let lines = data.split(|&b| b == b'\n').count();
    let mut reader = PgnReader::new(data);
    let mut calls = 0usize;
    let mut next_index = 0usize;
    loop {
        calls += 1;
        // Each call consumes at least one line or ends the stream.
        assert!(calls <= lines + 2, "reader makes no progress");
        let game = match reader.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(e) => {
                let _ = e.to_string();
                next_index += 1;
                continue;
            }
        };
        assert_eq!(game.index, next_index, "game index");
        next_index += 1;
        assert!(
            game.line >= 1 && game.line <= lines,
            "game line {}",
            game.line
        );
        let start = match game.tag("FEN") {
            Some(fen) => match Position::from_fen(fen) {
                Ok(p) => p,
                Err(_) => continue,
            },
            None => Position::startpos(),
        };
        let mut pos = start;
        let mut last_line = game.line;
        for token in game.moves.iter().take(replab_fuzz::MAX_TOKENS) {
            assert!(!token.text.is_empty(), "empty SAN token");
            assert!(
                token.line >= last_line && token.line <= lines,
                "token line {}",
                token.line
            );
            last_line = token.line;
            let Ok(m) = pos.parse_san(&token.text) else {
                break;
            };
            assert!(
                pos.is_legal(m),
                "{:?} parsed to an illegal move in {pos}",
                token.text
            );
            replab_fuzz::check_move_text(&pos, m);
            pos = pos.play(m);
            replab_fuzz::check_identity(&pos);
        }
    }
});
