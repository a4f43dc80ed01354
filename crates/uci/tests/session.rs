//! The engine in-process, through pipes: the protocol as a GUI sees it.

use std::{
    io::{BufRead, BufReader, Write},
    sync::mpsc,
    thread,
    time::Duration,
};

/// A running engine: commands in, lines out (with a timeout so a hang fails the test).
struct Session {
    input: std::io::PipeWriter,
    lines: mpsc::Receiver<String>,
    engine: Option<thread::JoinHandle<()>>,
}

impl Session {
    fn new() -> Session {
        let (cmd_read, input) = std::io::pipe().unwrap();
        let (out_read, out_write) = std::io::pipe().unwrap();
        let engine = thread::spawn(move || replab_uci::run(BufReader::new(cmd_read), out_write));
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(out_read).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            input,
            lines,
            engine: Some(engine),
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.input, "{command}").unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no {prefix:?} after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        self.engine.take().unwrap().join().unwrap();
    }
}

fn bestmove(lines: &[String]) -> String {
    lines.last().unwrap()["bestmove ".len()..].to_string()
}

#[test]
fn handshake_lists_every_search_detector() {
    let mut s = Session::new();
    s.send("uci");
    let lines = s.until("uciok");
    assert!(lines[0].starts_with("id name replab "));
    let detector = lines
        .iter()
        .find(|l| l.starts_with("option name Detector type combo"))
        .unwrap();
    for d in replab_registry::SEARCH_DETECTORS {
        assert!(detector.contains(&format!(" var {d}")), "{detector}");
    }
    assert!(detector.contains(" var off"));
    for o in ["DrawPolicy", "Contempt", "Hash", "NullMove"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {o} ")))
        );
    }
    s.send("isready");
    assert_eq!(s.until("readyok"), ["readyok"]);
    s.quit();
}

#[test]
fn depth_search_prints_info_and_bestmove() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 3");
    let lines = s.until("bestmove");
    let infos: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    for (i, l) in infos.iter().enumerate() {
        assert!(
            l.starts_with(&format!("info depth {} score cp ", i + 1)),
            "{l}"
        );
        assert!(
            l.contains(" nodes ") && l.contains(" nps ") && l.contains(" pv "),
            "{l}"
        );
    }
    let pv_first = infos[2]
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(bestmove(&lines), pv_first);
    s.quit();
}

#[test]
fn finds_wac018_and_mates() {
    let mut s = Session::new();
    s.send("position fen R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1");
    s.send("go depth 8");
    assert_eq!(bestmove(&s.until("bestmove")), "a8h8");
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    s.send("go depth 3");
    let lines = s.until("bestmove");
    assert_eq!(bestmove(&lines), "a1a8");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    s.quit();
}

#[test]
fn no_legal_move_is_0000() {
    let mut s = Session::new();
    // Black is checkmated (back-rank mate).
    s.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    s.send("go depth 2");
    assert_eq!(bestmove(&s.until("bestmove")), "0000");
    s.quit();
}

#[test]
fn stop_and_isready_during_infinite_search() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    s.send("isready");
    let before = s.until("readyok");
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    s.send("stop");
    let lines = s.until("bestmove");
    assert_ne!(bestmove(&lines), "0000");
    s.quit();
}

#[test]
fn movetime_and_clock_searches_end_on_their_own() {
    let mut s = Session::new();
    s.send("go movetime 100");
    s.until("bestmove");
    s.send("go wtime 3000 btime 3000 winc 0 binc 0");
    s.until("bestmove");
    s.send("go nodes 2000");
    s.until("bestmove");
    s.quit();
}

#[test]
fn bad_input_is_reported_never_fatal() {
    let mut s = Session::new();
    for bad in [
        "nonsense",
        "position fen not-a-fen",
        "position startpos moves e2e5",
        "setoption name Detector value nosuch",
        "setoption name Hash value -1",
        "setoption name Bogus value 1",
        "setoption",
    ] {
        s.send(bad);
        let l = s.until("info string");
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
    }
    s.send("go depth 1");
    s.until("bestmove");
    s.quit();
}

#[test]
fn refused_detector_policy_pair_keeps_the_option() {
    let mut s = Session::new();
    s.send("setoption name Detector value axon");
    s.send("setoption name DrawPolicy value threefold");
    let l = s.until("info string");
    assert!(
        l[0].contains("axon cannot be used with --policy threefold"),
        "{l:?}"
    );
    s.send("setoption name Detector value tt-thompson");
    s.send("setoption name Hash value 0");
    let l = s.until("info string");
    assert!(l[0].contains("table"), "{l:?}");
    // Still axon? No: tt-thompson was accepted, Hash 0 was not; the search runs with the table.
    s.send("go depth 2");
    s.until("bestmove");
    s.quit();
}

#[test]
fn history_makes_the_repetition_visible() {
    // White is a queen up; Black can make a position of the history occur a third time (FIDE
    // 9.2.1.2), which even the strict threefold policy scores as a draw.
    let mut s = Session::new();
    s.send("setoption name DrawPolicy value threefold");
    s.send(
        "position fen 6k1/8/8/8/8/8/8/KQ6 b - - 0 1 moves g8h8 b1c1 h8g7 c1b1 g7h8 b1c1 h8g7 c1b1",
    );
    s.send("go depth 4");
    let lines = s.until("bestmove");
    // Black to move, losing: g7h8 makes a position occur for the third time: a draw.
    assert_eq!(bestmove(&lines), "g7h8", "{lines:?}");
    assert!(
        lines.iter().rev().nth(1).unwrap().contains("score cp 0"),
        "{lines:?}"
    );
    s.quit();
}

/// The `info depth` lines of `lines`.
fn depths(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect()
}

#[test]
fn go_mate_stops_at_the_mate_and_is_bounded() {
    let mut s = Session::new();
    // Mate in 2: 1. Kb6 Kb8 2. Rh8#.
    s.send("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1");
    s.send("go mate 5");
    let lines = s.until("bestmove");
    let infos = depths(&lines);
    assert!(infos.last().unwrap().contains("score mate 2"), "{lines:?}");
    // Stopped at the first iteration that found it, not at the bound of 2×5−1 plies.
    assert!(infos.len() <= 4, "{lines:?}");
    assert_eq!(bestmove(&lines), "c6b6");
    // No mate in 1 from the start: the search ends after 2×1−1 plies on its own.
    s.send("position startpos");
    s.send("go mate 1");
    let lines = s.until("bestmove");
    assert_eq!(depths(&lines).len(), 1, "{lines:?}");
    s.quit();
}

#[test]
fn searchmoves_restrict_the_root() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go depth 3 searchmoves a2a3 h2h3");
    let lines = s.until("bestmove");
    for l in depths(&lines) {
        assert!(l.contains(" pv a2a3") || l.contains(" pv h2h3"), "{l}");
    }
    assert!(["a2a3", "h2h3"].contains(&bestmove(&lines).as_str()));
    s.send("go depth 1 searchmoves e2e5");
    let lines = s.until("bestmove");
    assert!(lines[0].starts_with("info string go refused: searchmoves e2e5"));
    assert_eq!(bestmove(&lines), "0000");
    s.quit();
}

#[test]
fn a_node_limit_never_cuts_depth_one() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4");
    s.send("go nodes 5");
    let lines = s.until("bestmove");
    let infos = depths(&lines);
    assert_eq!(infos.len(), 1, "{lines:?}");
    let pv = infos[0].split(" pv ").nth(1).unwrap().split(' ').next();
    assert_eq!(Some(bestmove(&lines).as_str()), pv);
    s.quit();
}

#[test]
fn a_second_go_stops_the_first_and_both_answer() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    s.send("position startpos moves e2e4");
    s.send("go depth 2");
    let first = s.until("bestmove");
    let second = s.until("bestmove");
    assert_eq!(depths(&second).len(), 2, "{second:?}");
    // The first answers for the start position, the second after 1. e4.
    let start = replab_board::Position::startpos();
    assert!(start.parse_uci(&bestmove(&first)).is_ok(), "{first:?}");
    assert!(
        start
            .play(start.parse_uci("e2e4").unwrap())
            .parse_uci(&bestmove(&second))
            .is_ok(),
        "{second:?}"
    );
    s.quit();
}

#[test]
fn d_reports_the_position_the_engine_is_in() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    let cut = s.until("info string position: move 3 (e1e3)");
    s.send("d");
    let d = s.until("info string position fen ");
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert!(cut[0].ends_with(&format!("fen {fen}")), "{cut:?}");
    assert_eq!(d[0], format!("info string position fen {fen}"));
    s.send("position fen nonsense");
    s.until("info string position refused");
    s.send("d");
    s.until("info string no position: bad fen nonsense");
    s.quit();
}
