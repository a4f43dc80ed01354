//! Invariants shared by the fuzz targets. Every check panics (a libFuzzer crash) when a parser
//! or the board it builds breaks a promise; a parser returning `Err` is never a failure.

use replab_board::{Move, Position};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen, uci::UciMove};

/// Upper bound on the move tokens a target replays from one input (keeps every run short).
pub const MAX_TOKENS: usize = 1024;

/// Checks everything a successfully parsed position promises:
/// - its key is the scratch key, and its FEN re-reads to an identical position;
/// - every legal move is legal by `is_legal`, its SAN and UCI parse back to the same move, and
///   the position after it passes the key/FEN checks;
/// - the move counters agree with the move list;
/// - where shakmaty also accepts the FEN, both libraries have the same legal moves.
pub fn check_position(pos: &Position) {
    check_identity(pos);
    let legal = pos.legal_moves();
    assert_eq!(pos.count_legal(), legal.len(), "count_legal of {pos}");
    assert_eq!(
        pos.has_legal_move(),
        !legal.is_empty(),
        "has_legal_move of {pos}"
    );
    assert_eq!(
        pos.is_checkmate(),
        legal.is_empty() && pos.is_check(),
        "is_checkmate of {pos}"
    );
    for &m in legal.iter() {
        assert!(
            pos.is_legal(m),
            "{} listed but not is_legal in {pos}",
            m.uci()
        );
        check_move_text(pos, m);
        check_identity(&pos.play(m));
    }
    differential(pos, &legal);
}

/// A legal move's SAN and UCI both parse back to it.
pub fn check_move_text(pos: &Position, m: Move) {
    let san = pos.san(m);
    assert_eq!(
        pos.parse_san(&san),
        Ok(m),
        "SAN {san:?} of {} in {pos}",
        m.uci()
    );
    let uci = m.uci().to_string();
    assert_eq!(pos.parse_uci(&uci), Ok(m), "UCI {uci:?} in {pos}");
}

/// The incremental key equals the scratch key and the FEN re-reads to the same position.
pub fn check_identity(pos: &Position) {
    assert_eq!(pos.key(), pos.compute_key(), "incremental key of {pos}");
    let fen = pos.fen();
    match Position::from_fen(&fen) {
        Ok(again) => assert_eq!(&again, pos, "FEN {fen:?} re-reads differently"),
        Err(e) => panic!("own FEN {fen:?} rejected: {e}"),
    }
}

/// Same legal moves as shakmaty, for positions shakmaty accepts (it rejects more: impossible
/// checks, for example, so its rejections are not compared).
fn differential(pos: &Position, legal: &[Move]) {
    let Ok(fen) = pos.fen().parse::<Fen>() else {
        return;
    };
    let Ok(theirs) = fen.into_position::<Chess>(CastlingMode::Standard) else {
        return;
    };
    let mut ours: Vec<String> = legal.iter().map(|m| m.uci().to_string()).collect();
    let mut sm: Vec<String> = theirs
        .legal_moves()
        .iter()
        .map(|m| UciMove::from_standard(*m).to_string())
        .collect();
    ours.sort();
    sm.sort();
    assert_eq!(ours, sm, "legal moves differ from shakmaty in {pos}");
}

/// Replays `tokens` from `start` as SAN (falling back to UCI), checking each accepted move;
/// stops at the first token neither parser accepts. Returns the final position.
pub fn replay(start: Position, tokens: impl IntoIterator<Item = impl AsRef<str>>) -> Position {
    let mut pos = start;
    for tok in tokens.into_iter().take(MAX_TOKENS) {
        let tok = tok.as_ref();
        let san = pos.parse_san(tok);
        let uci = pos.parse_uci(tok);
        let m = match (san, uci) {
            (Ok(m), _) | (Err(_), Ok(m)) => m,
            (Err(_), Err(_)) => break,
        };
        assert!(
            pos.is_legal(m),
            "parsed {tok:?} to illegal {} in {pos}",
            m.uci()
        );
        check_move_text(&pos, m);
        pos = pos.play(m);
        check_identity(&pos);
    }
    pos
}
