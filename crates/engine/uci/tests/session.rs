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

/// The move of the last line, `bestmove X [ponder Y]`.
fn bestmove(lines: &[String]) -> String {
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{lines:?}");
    words[1].to_string()
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
            l.starts_with(&format!("info depth {} seldepth ", i + 1)),
            "{l}"
        );
        for field in [
            " score cp ",
            " nodes ",
            " nps ",
            " hashfull ",
            " time ",
            " pv ",
        ] {
            assert!(l.contains(field), "{l}");
        }
    }
    let pv: Vec<&str> = infos[2].split(" pv ").nth(1).unwrap().split(' ').collect();
    // The principal variation's first two moves: the move and the move to ponder on.
    assert_eq!(
        lines.last().unwrap(),
        &format!("bestmove {} ponder {}", pv[0], pv[1])
    );
    s.quit();
}

#[test]
fn finds_wac018_and_mates() {
    let mut s = Session::new();
    s.send("position fen R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1");
    // The engine profile's selective search needs depth 16 for Rh8 (the paper profile, 8).
    s.send("go depth 18");
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
    no_bestmove_before_readyok(&mut s);
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

/// `lines` without the fields that depend on timing (`nps`, `time`).
fn untimed(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < w.len() {
                if (w[i] == "nps" || w[i] == "time") && i + 1 < w.len() {
                    i += 2;
                } else {
                    kept.push(w[i]);
                    i += 1;
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn options_in_either_order_give_the_same_engine() {
    let search = |options: &[&str]| {
        let mut s = Session::new();
        for o in options {
            s.send(o);
        }
        s.send("isready");
        let before = s.until("readyok");
        s.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3");
        s.send("go depth 4");
        let lines = s.until("bestmove");
        s.quit();
        (before, untimed(&lines))
    };
    let filo = "setoption name Detector value filo";
    let moreland = "setoption name DrawPolicy value moreland";
    let (quiet, a) = search(&[filo, moreland]);
    let (_, b) = search(&[moreland, filo]);
    // No complaint on the way (a combination is only judged at `go`).
    assert_eq!(quiet, ["readyok"]);
    assert_eq!(a, b);
    assert!(!a.iter().any(|l| l.starts_with("info string")), "{a:?}");
    // An impossible combination is refused at `go`, which searches with the nearest valid one.
    let (refused, c) = search(&[
        "setoption name Detector value axon",
        "setoption name DrawPolicy value threefold",
    ]);
    assert!(
        c[0].starts_with("info string axon cannot be used with the draw policy threefold")
            && c[0].ends_with("; searching with DrawPolicy twofold instead"),
        "{c:?}"
    );
    // `isready` reports it too (on the options as they stand then).
    assert!(
        refused[0].starts_with("info string options: axon cannot be used")
            && refused[1] == "readyok",
        "{refused:?}"
    );
    let (_, d) = search(&[
        "setoption name Detector value axon",
        "setoption name DrawPolicy value twofold",
    ]);
    assert_eq!(c[1..], d[..]);
    let (_, e) = search(&[
        "setoption name Hash value 0",
        "setoption name Detector value tt-thompson",
    ]);
    assert!(e[0].ends_with("searching with Hash 1 instead"), "{e:?}");
    assert!(e.last().unwrap().starts_with("bestmove "));
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

/// Sends `isready` and checks that no `bestmove` came before its `readyok` (the search still
/// runs, and `isready` is answered during it).
fn no_bestmove_before_readyok(s: &mut Session) {
    s.send("isready");
    let before = s.until("readyok");
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
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
    // A mate in at most 5 moves ends the search (the selective engine profile may find a longer
    // mate than the shortest first: any within the bound stops it).
    let last = infos.last().unwrap();
    let moves: i32 = last
        .split(" score mate ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!((2..=5).contains(&moves), "{lines:?}");
    // Stopped at the first iteration that found it, not at the bound of 2×5−1 plies.
    let found = infos.iter().filter(|l| l.contains("score mate")).count();
    assert_eq!(found, 1, "{lines:?}");
    assert!(infos.len() < 9, "{lines:?}");
    let pv_first = last
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(bestmove(&lines), pv_first);
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

#[test]
fn a_go_with_only_the_other_clock_ends_on_its_own() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4");
    // Black to move, only White's clock: a finite budget, a bestmove without stop.
    s.send("go wtime 1000 winc 100");
    assert_ne!(bestmove(&s.until("bestmove")), "0000");
    // Nothing at all: the default budget.
    s.send("go");
    assert_ne!(bestmove(&s.until("bestmove")), "0000");
    s.send("go winc 100 binc 100");
    assert_ne!(bestmove(&s.until("bestmove")), "0000");
    s.quit();
}

#[test]
fn the_table_is_allocated_and_cleared_before_readyok() {
    let mut s = Session::new();
    s.send("debug on");
    s.send("setoption name Hash value 1024");
    s.send("isready");
    let lines = s.until("readyok");
    assert_eq!(
        lines,
        [
            "info string Hash 1024 MB: table of 1073741824 bytes allocated and cleared",
            "info string searchers built: 1 for linear",
            "readyok"
        ]
    );
    // Nothing is left to do at `go`: no table, no searcher.
    s.send("go wtime 2000 btime 2000 winc 50 binc 50");
    let lines = s.until("bestmove");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("MB: table") || l.contains("searchers built")),
        "{lines:?}"
    );
    // Clearing comes before readyok too; the same size is not allocated again.
    for clear in ["ucinewgame", "setoption name Clear Hash"] {
        s.send(clear);
        s.send("isready");
        assert_eq!(
            s.until("readyok"),
            [
                "info string Hash 1024 MB: table cleared",
                "info string searchers built: 1 for linear",
                "readyok"
            ]
        );
    }
    s.send("setoption name Hash value 1024");
    s.send("isready");
    assert_eq!(s.until("readyok"), ["readyok"]);
    // New searchers (two threads, another detector) are built before readyok as well.
    s.send("setoption name Threads value 2");
    s.send("setoption name Detector value filo");
    s.send("setoption name DrawPolicy value stockfish");
    s.send("isready");
    assert_eq!(
        s.until("readyok"),
        ["info string searchers built: 2 for filo", "readyok"]
    );
    s.send("go depth 2");
    let lines = s.until("bestmove");
    assert!(
        !lines.iter().any(|l| l.contains("searchers built")),
        "{lines:?}"
    );
    // Hash 0 with a detector that needs the table: the 1 MB table of the nearest valid setting,
    // also before readyok.
    s.send("setoption name Threads value 1");
    s.send("setoption name DrawPolicy value twofold");
    s.send("setoption name Hash value 0");
    s.send("setoption name Detector value tt-thompson");
    s.send("isready");
    let lines = s.until("readyok");
    assert!(
        lines[0].starts_with("info string options: detector tt-thompson")
            && lines[0].ends_with("searching with Hash 1 instead"),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"info string Hash 1 MB: table of 1048576 bytes allocated and cleared".to_string()
        ) && lines[lines.len() - 2] == "info string searchers built: 1 for tt-thompson",
        "{lines:?}"
    );
    s.quit();
}

/// The `info … multipv …` lines of `lines`, as (depth, multipv, score, first move).
fn multipv_lines(lines: &[String]) -> Vec<(u32, u32, String, String)> {
    lines
        .iter()
        .filter(|l| l.contains(" multipv "))
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            let after = |k: &str| w[w.iter().position(|x| *x == k).unwrap() + 1];
            let score = format!(
                "{} {}",
                after("score"),
                w[w.iter().position(|x| *x == "score").unwrap() + 2]
            );
            (
                after("depth").parse().unwrap(),
                after("multipv").parse().unwrap(),
                score,
                after("pv").to_string(),
            )
        })
        .collect()
}

#[test]
fn multipv_3_gives_three_ranked_lines() {
    let mut s = Session::new();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 4");
    let lines = s.until("bestmove");
    let pvs = multipv_lines(&lines);
    assert_eq!(pvs.len(), 12, "{lines:?}");
    for depth in 1..=4 {
        let at: Vec<_> = pvs.iter().filter(|p| p.0 == depth).collect();
        assert_eq!(at.iter().map(|p| p.1).collect::<Vec<_>>(), [1, 2, 3]);
        let mut firsts: Vec<&String> = at.iter().map(|p| &p.3).collect();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "{at:?}");
        let cp: Vec<i32> = at
            .iter()
            .map(|p| p.2.strip_prefix("cp ").unwrap().parse().unwrap())
            .collect();
        assert!(cp[0] >= cp[1] && cp[1] >= cp[2], "{at:?}");
    }
    assert_eq!(bestmove(&lines), pvs[9].3);
    // Fewer legal moves than lines: one line per move.
    s.send("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1");
    s.send("go depth 2");
    let lines = s.until("bestmove");
    let pvs = multipv_lines(&lines);
    assert_eq!(pvs.iter().filter(|p| p.0 == 2).count(), 3, "{lines:?}");
    s.send("setoption name MultiPV value 2");
    s.send("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1");
    s.send("go depth 2 searchmoves a1a2");
    let lines = s.until("bestmove");
    assert_eq!(multipv_lines(&lines).len(), 2, "{lines:?}");
    assert_eq!(bestmove(&lines), "a1a2");
    s.quit();
}

#[test]
fn ponderhit_turns_the_ponder_search_into_a_timed_one() {
    let mut s = Session::new();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 2000 btime 2000 winc 50 binc 50");
    thread::sleep(Duration::from_millis(100));
    // Pondering: no bestmove of its own.
    no_bestmove_before_readyok(&mut s);
    s.send("ponderhit");
    // Now a normal search with the clock's budget: it ends without stop.
    let lines = s.until("bestmove");
    assert_ne!(bestmove(&lines), "0000");
    // `go ponder infinite` still waits for stop after ponderhit; `stop` ends any ponder search.
    s.send("go ponder infinite");
    s.send("ponderhit");
    thread::sleep(Duration::from_millis(100));
    no_bestmove_before_readyok(&mut s);
    s.send("stop");
    s.until("bestmove");
    s.send("go ponder");
    s.send("stop");
    s.until("bestmove");
    s.quit();
}

#[test]
fn threads_2_searches_with_two_threads() {
    let mut s = Session::new();
    s.send("debug on");
    s.send("setoption name Threads value 2");
    s.send("position startpos moves e2e4 e7e5");
    // Deep enough that the helper thread is searching before the main thread is done (the
    // engine profile completes depth 6 in about a millisecond).
    s.send("go depth 14");
    let lines = s.until("bestmove");
    let threads = lines
        .iter()
        .find(|l| l.starts_with("info string threads "))
        .unwrap();
    let nodes: Vec<u64> = threads
        .split(": nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(threads.starts_with("info string threads 2:"), "{threads}");
    assert_eq!(nodes.len(), 2, "{threads}");
    assert!(nodes.iter().all(|&n| n > 0), "{threads}");
    // The reported node count is every thread's.
    let last = depths(&lines).last().unwrap().to_string();
    let reported: u64 = last
        .split(" nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(reported >= nodes[0], "{last} {threads}");
    s.send("setoption name Threads value 1");
    s.send("go depth 3");
    let lines = s.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string threads 1: nodes "))
    );
    s.quit();
}

#[test]
fn long_searches_report_currmove() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go movetime 3000");
    let lines = s.until("bestmove");
    // `currmove` once the search has run a second.
    let currmoves: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!currmoves.is_empty(), "{lines:?}");
    // Numbered from 1 in each iteration's order (the oracle checks the moves).
    for l in &currmoves {
        let n: u32 = l.rsplit(' ').next().unwrap().parse().unwrap();
        assert!((1..=20).contains(&n), "{l}");
    }
    // The node counts of all the lines, in order, never go down (each counts the whole search).
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.split(" nodes ").nth(1))
        .map(|r| r.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    s.quit();
}

#[test]
fn a_fen_without_the_fullmove_number_is_accepted() {
    let mut s = Session::new();
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 moves a1a2");
    s.send("d");
    assert_eq!(
        s.until("info string position fen"),
        ["info string position fen 6k1/5ppp/8/8/8/8/R7/6K1 b - - 1 1"]
    );
    s.quit();
}

#[test]
fn isready_behind_a_table_job_never_waits_for_a_search() {
    let mut s = Session::new();
    // The table job runs first, then the infinite search: readyok comes after the table job
    // without waiting for the search (which only `stop`, read after it, ends).
    s.send("setoption name Hash value 256");
    s.send("go infinite");
    no_bestmove_before_readyok(&mut s);
    s.send("stop");
    s.until("bestmove");
    // A table job behind a running search (setoption during a search): readyok comes once
    // `stop` has ended the search and the job is done.
    s.send("go infinite");
    s.send("setoption name Hash value 32");
    s.send("isready");
    s.send("stop");
    let lines = s.until("readyok");
    assert!(lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    s.quit();
}
