//! Replays the corpus of hostile sessions (`tests/sessions/*.uci`, raw bytes: invalid UTF-8,
//! illegal `position` moves, malformed `go`, `go mate`, `searchmoves`, `stop` races, …)
//! through the engine in-process and checks every promise of the UCI contract with
//! [`replab_uci::transcript::check`].

use std::{path::PathBuf, sync::mpsc, thread, time::Duration};

use replab_uci::transcript::{Summary, check, replay};

fn sessions() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sessions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "uci"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// The engine's output for `input`, failing the test if the engine does not end within a
/// minute (a hang).
fn replay_in_time(name: &str, input: Vec<u8>) -> String {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || tx.send(replay(&input)).unwrap());
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{name}: the engine did not end"))
}

fn checked(name: &str) -> (Summary, String) {
    let (_, input) = sessions().into_iter().find(|(n, _)| n == name).unwrap();
    let out = replay_in_time(name, input.clone());
    let summary = check(&input, &out).unwrap_or_else(|e| panic!("{name}: {e}\n{out}"));
    (summary, out)
}

#[test]
fn every_hostile_session_keeps_the_promises() {
    let all = sessions();
    assert!(all.len() >= 30, "{} sessions", all.len());
    let mut total = Summary::default();
    for (name, input) in all {
        let out = replay_in_time(&name, input.clone());
        let s = check(&input, &out).unwrap_or_else(|e| panic!("{name}: {e}\n{out}"));
        total.gos += s.gos;
        total.refused += s.refused;
        total.isready += s.isready;
        total.cut += s.cut;
    }
    // The corpus exercises every kind of answer.
    assert!(
        total.gos > 50 && total.refused > 10 && total.cut > 5,
        "{total:?}"
    );
}

#[test]
fn invalid_utf8_never_ends_the_engine() {
    let (s, out) = checked("utf8-invalid-line");
    assert_eq!((s.isready, s.gos), (2, 1));
    assert!(
        out.contains("info string input is not valid UTF-8"),
        "{out}"
    );
}

#[test]
fn an_illegal_move_keeps_the_position_before_it() {
    let (s, out) = checked("position-illegal-move");
    assert_eq!(s.cut, 1);
    let mut after = replab_board::Position::startpos();
    for m in ["e2e4", "e7e5"] {
        after = after.play(after.parse_uci(m).unwrap());
    }
    let after = after.fen();
    assert!(
        out.contains(&format!("kept the position after 2 moves: fen {after}")),
        "{out}"
    );
}

#[test]
fn new_options_and_commands_keep_the_promises() {
    let (s, out) = checked("multipv-threads-ponder");
    assert_eq!((s.gos, s.refused, s.isready), (7, 0, 2));
    assert!(out.contains(" multipv 3 "), "{out}");
    assert!(out.contains("info string threads 2: nodes "), "{out}");
    assert!(
        out.contains("info string MultiPV 300 is out of range"),
        "{out}"
    );
    let (s, out) = checked("options-any-order");
    assert_eq!((s.gos, s.refused), (4, 0));
    // Two impossible combinations at `go`, one of them also at `isready`.
    assert_eq!(out.matches("searching with").count(), 3, "{out}");
    assert_eq!(out.matches("info string options: ").count(), 1, "{out}");
    let (s, _) = checked("go-other-clock");
    assert_eq!((s.gos, s.refused), (4, 0));
}

#[test]
fn refused_go_is_visible_and_answered() {
    let (s, out) = checked("go-malformed");
    assert_eq!((s.gos, s.refused), (7, 6));
    assert_eq!(out.matches("info string go refused: ").count(), 6, "{out}");
    let (s, _) = checked("go-no-position");
    assert_eq!((s.gos, s.refused), (2, 2));
}

#[test]
fn the_checker_catches_broken_answers() {
    let input = b"position startpos moves e2e4 e7e5 e1e3\ngo depth 1\ngo depth x\nquit\n";
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let cut = format!(
        "info string position: move 3 (e1e3) is not legal: x; kept the position after 2 moves: fen {fen}"
    );
    let good = format!("{cut}\nbestmove g1f3\ninfo string go refused: x\nbestmove 0000\n");
    assert!(check(input, &good).is_ok(), "{:?}", check(input, &good));
    for bad in [
        // A move for the older position (e2e4 is not legal after e2e4 e7e5).
        good.replace("g1f3", "e2e4"),
        // No answer to the refused go.
        good.replace("\nbestmove 0000", ""),
        // 0000 although the position has moves.
        good.replace("g1f3", "0000"),
        // A move for a refused go.
        good.replace("bestmove 0000", "bestmove g8f6"),
        // The wrong position reported.
        good.replace(fen, "8/8/8/8/8/8/8/K6k w - - 0 1"),
        // Not a UCI answer.
        format!("{good}hello\n"),
    ] {
        assert!(check(input, &bad).is_err(), "{bad}");
    }
    // Ponder moves and search info are judged too.
    let input = b"position startpos\ngo depth 2\n";
    let ok = "info depth 2 seldepth 4 multipv 1 score cp 20 nodes 90 nps 9 hashfull 3 time 10 pv e2e4 e7e5\ninfo depth 2 currmove g1f3 currmovenumber 2\nbestmove e2e4 ponder e7e5\n";
    assert!(check(input, ok).is_ok(), "{:?}", check(input, ok));
    for bad in [
        ok.replace("ponder e7e5", "ponder e2e4"),
        ok.replace("ponder e7e5", "ponder"),
        ok.replace("pv e2e4 e7e5", "pv e2e4 e2e4"),
        ok.replace("currmove g1f3", "currmove g1g3"),
        ok.replace("hashfull 3", "hashfull 1001"),
        ok.replace("multipv 1", "multipv 0"),
        ok.replace("score cp 20", "score 20"),
        ok.replace("nodes 90", "nodes 90 bogus 1"),
        format!("{ok}info depth 1 nodes 1\n"),
    ] {
        assert!(check(input, &bad).is_err(), "{bad}");
    }
    let only = b"go depth 1 searchmoves a2a3\n";
    assert!(check(only, "bestmove a2a3\n").is_ok());
    assert!(check(only, "bestmove e2e4\n").is_err());
    assert!(check(b"isready\nquit\nisready\n", "readyok\n").is_ok());
    assert!(check(b"isready\nisready\n", "readyok\n").is_err());
}
