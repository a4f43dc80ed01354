//! `replab_board::Epd::parse` on arbitrary text. An accepted record's position keeps every
//! invariant, its `bm`/`am` moves parse (the parser validated them) and are legal, and its
//! accessors never fail.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replab_board::Epd;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Multi-line inputs are fed one record per line, as `replab suite` reads a file.
    for line in text.lines().take(64) {
        let Ok(epd) = Epd::parse(line) else {
            continue;
        };
        let pos = epd.position;
        replab_fuzz::check_position(&pos);
        for opcode in ["bm", "am"] {
            let moves = epd
                .moves(opcode)
                .unwrap_or_else(|e| panic!("{opcode} accepted by parse, then {e}: {line:?}"));
            for m in moves {
                assert!(
                    pos.is_legal(m),
                    "{opcode} move {} illegal: {line:?}",
                    m.uci()
                );
                replab_fuzz::check_move_text(&pos, m);
            }
        }
        let _ = epd.id();
        let _ = epd.perft_counts();
        // The position part alone (four FEN fields) parses to the same position, clocks aside.
        let again = Epd::parse(&pos.epd_fen()).expect("own EPD FEN re-reads");
        assert!(again.position.same_position(&pos), "{line:?}");
    }
});
