//! Matches played in-process: the PGN replays legally through the board crate and ends as
//! the arbiter says, the results do not depend on the threads, and early stopping is a
//! prefix of the full run.

use std::{process::Command, sync::Arc};

use replab_board::Position;
use replab_pgn::PgnReader;
use replab_selfplay::{
    Adjudication, Book, Control, MatchConfig, PlayerSpec, Termination, arbiter::Arbiter, play,
};

fn config(games: u64, nodes: u64, threads: usize) -> MatchConfig {
    MatchConfig {
        a: PlayerSpec::parse("linear").unwrap(),
        b: PlayerSpec::parse("off").unwrap(),
        control: Control::Nodes(nodes),
        games,
        seed: 7,
        book: Arc::new(Book::builtin()),
        bounds: (0.0, 2.0),
        early_stop: false,
        three_way: false,
        shard: None,
        threads,
        cost_scaling: None,
        adjudication: Adjudication::fishtest(),
    }
}

#[test]
fn draw_adjudication_off_leaves_the_draws_to_the_rules() {
    let name = Termination::DrawAdjudication.name();
    // Two equal players and an eager draw adjudication (±50 cp for 2 moves from move 10),
    // so that it fires in a short match.
    let equal = MatchConfig {
        b: PlayerSpec::parse("filo").unwrap(),
        adjudication: Adjudication::fishtest().with("draw=50/2/10").unwrap(),
        ..config(16, 1000, 2)
    };
    let fishtest = play(&equal, &mut |_, _| {}).unwrap().0;
    assert!(
        fishtest.terminations.get(name).is_some_and(|&n| n > 0),
        "{:?}",
        fishtest.terminations
    );
    let rules = MatchConfig {
        adjudication: Adjudication::rules_draw(),
        ..equal
    };
    let (results, _) = play(&rules, &mut |_, _| {}).unwrap();
    assert_eq!(
        results.terminations.get(name),
        None,
        "{:?}",
        results.terminations
    );
    assert_eq!(results.identity.adjudication, Adjudication::rules_draw());
}

#[test]
fn games_replay_through_the_board_crate_and_end_as_the_arbiter_says() {
    let (results, pgn) = play(&config(8, 300, 2), &mut |_, _| {}).unwrap();
    assert_eq!(results.games, 8);
    assert_eq!(results.pentanomial.iter().sum::<u64>(), 4);
    let mut reader = PgnReader::new(pgn.as_bytes());
    let mut games = 0;
    while let Some(game) = reader.next_game().unwrap() {
        games += 1;
        let mut pos = Position::startpos();
        let mut arbiter = Arbiter::default();
        arbiter.start(&pos);
        let mut end = None;
        for (i, token) in game.moves.iter().enumerate() {
            assert!(end.is_none(), "game {games} goes on after {end:?}");
            let m = pos.parse_san(&token.text).expect("a legal move");
            pos = pos.play(m);
            // Scores are not in the PGN: only the rules are checked here.
            end = arbiter.after_move(&pos, None, i + 1);
        }
        let named = game.tag("ReplabTermination").unwrap();
        let by_rule = Termination::ALL.iter().find(|t| t.name() == named).unwrap();
        match end {
            Some((outcome, t)) => {
                assert_eq!(t, *by_rule, "game {games}");
                assert_eq!(Some(outcome.pgn()), game.result.as_deref());
            }
            None => assert!(
                matches!(
                    by_rule,
                    Termination::ResignAdjudication
                        | Termination::DrawAdjudication
                        | Termination::PlyCap
                ),
                "game {games} ended without a rule: {named}"
            ),
        }
    }
    assert_eq!(games, 8);
    python_check(&pgn);
}

/// tools/check_games.py on the games, when python-chess is installed.
fn python_check(pgn: &str) {
    let dir = std::env::temp_dir().join(format!("replab-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    std::fs::write(&file, pgn).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../tools/check_games.py");
    match Command::new("python3")
        .args(["-c", "import chess"])
        .status()
    {
        Ok(s) if s.success() => {
            let out = Command::new("python3")
                .arg(script)
                .arg(&file)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        _ => eprintln!("skipped: python-chess is not installed"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn results_do_not_depend_on_the_threads() {
    let (one, pgn_one) = play(&config(6, 200, 1), &mut |_, _| {}).unwrap();
    let (two, pgn_two) = play(&config(6, 200, 3), &mut |_, _| {}).unwrap();
    assert_eq!(one.pair_results, two.pair_results);
    assert_eq!(pgn_one, pgn_two);
}

#[test]
fn early_stopping_keeps_a_prefix_of_the_pairs() {
    let mut c = config(40, 200, 2);
    // Bounds so wide apart that the first pairs decide.
    c.bounds = (-150.0, 150.0);
    c.early_stop = true;
    let (stopped, _) = play(&c, &mut |_, _| {}).unwrap();
    assert!(stopped.stopped_early, "{:?}", stopped.sprt);
    assert_ne!(
        stopped.sprt.decision,
        replab_selfplay::stats::Decision::Continue
    );
    let full = play(&config(40, 200, 2), &mut |_, _| {}).unwrap().0;
    let n = stopped.pair_results.len();
    assert_eq!(stopped.pair_results[..], full.pair_results[..n]);
    // A stopped match carries fishtest's sequential estimate; a full one does not.
    let seq = stopped
        .sequential_elo
        .expect("the sequential estimate of a stopped test");
    let interval = seq.interval.expect("a sequential estimate has an interval");
    assert!(interval.lo <= seq.value && seq.value <= interval.hi);
    assert_eq!(interval.coverage, 0.95);
    assert!(full.sequential_elo.is_none());
    // The printed summary gives it after a stop, and only then.
    let stop_line = "stopped by the SPRT: Elo";
    assert!(replab_selfplay::summary(&stopped).contains(stop_line));
    assert!(!replab_selfplay::summary(&full).contains(stop_line));
}

#[test]
fn sprt_bounds_without_a_defined_llr_are_refused() {
    let mut c = config(4, 200, 1);
    c.bounds = (-250.0, 250.0);
    c.early_stop = true;
    let err = c.check().unwrap_err().to_string();
    assert!(err.starts_with("--sprt -250,250: "), "{err}");
    assert!(err.contains("±231.6"), "{err}");
    assert!(play(&c, &mut |_, _| {}).is_err());
    c.bounds = (-230.0, 230.0);
    assert!(c.check().is_ok());
}

#[test]
fn a_pair_is_one_game_twice_only_when_the_moves_are_the_same() {
    // The same player on both sides plays each opening's game twice, move for move.
    let same = MatchConfig {
        b: PlayerSpec::parse("linear").unwrap(),
        ..config(16, 1000, 2)
    };
    let (results, _) = play(&same, &mut |_, _| {}).unwrap();
    assert!(results.pair_results.iter().all(|p| p.same_moves));
    // Without detection the players part ways somewhere.
    let (results, pgn) = play(&config(8, 300, 2), &mut |_, _| {}).unwrap();
    let movetexts: Vec<String> = pgn
        .split("[Event ")
        .skip(1)
        .map(|g| {
            g.lines()
                .filter(|l| !l.starts_with('['))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    for p in &results.pair_results {
        let i = 2 * p.index as usize;
        assert_eq!(
            p.same_moves,
            movetexts[i] == movetexts[i + 1],
            "pair {}",
            p.index
        );
    }
    assert!(results.pair_results.iter().any(|p| !p.same_moves));
}

#[test]
fn a_node_limit_never_plays_an_unsearched_move() {
    // Ten nodes per move: fewer than depth 1 needs in almost every position, so every move
    // rests on the first iteration completing past the limit. Both profiles.
    for (a, b) in [
        ("linear", "off"),
        ("linear:profile=paper", "off:profile=paper"),
    ] {
        let mut c = config(8, 10, 2);
        c.a = PlayerSpec::parse(a).unwrap();
        c.b = PlayerSpec::parse(b).unwrap();
        let (results, _) = play(&c, &mut |_, _| {}).unwrap();
        assert_eq!(results.games, 8);
        assert_eq!(results.unsearched_moves, 0, "{a} against {b}");
        assert!(results.pair_results.iter().all(|p| p.unsearched == [0, 0]));
    }
}

#[test]
fn the_llr_agrees_with_an_independent_implementation_of_fishtests() {
    // tools/check_llr.py recomputes the normalized GSPRT from the pentanomial counts (plain
    // Python, no dependency) and fails beyond 0.02.
    if !Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let mut c = config(40, 200, 2);
    c.bounds = (0.0, 5.0);
    let (results, _) = play(&c, &mut |_, _| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("replab-llr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("results.json");
    std::fs::write(&file, serde_json::to_string(&results).unwrap()).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../tools/check_llr.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_measured_time_of_a_match_is_marked() {
    let (results, _) = play(&config(4, 100, 2), &mut |_, _| {}).unwrap();
    let v = serde_json::to_value(&results).unwrap();
    // The settings under `match` are not measurements.
    let unmarked = replab_interval::unmarked_times(&v, &["match", "meta"]);
    assert_eq!(unmarked, Vec::<String>::new());
    assert_eq!(v["timing"]["wall_s"]["interval"]["n"], 1);
    assert_eq!(v["timing"]["games_per_second"]["interval"]["coverage"], 0.0);
    // Two pairs are too few for an interval; twenty carry the one interval type, made from
    // the game pairs.
    assert!(v["elo"]["interval"].is_null() && v["nelo"]["interval"].is_null());
    let twenty =
        serde_json::to_value(play(&config(40, 100, 2), &mut |_, _| {}).unwrap().0).unwrap();
    assert_eq!(twenty["elo"]["interval"]["n"], 20);
    assert!(twenty["nelo"]["interval"]["lo"].is_number());
    let back: replab_selfplay::MatchResults = serde_json::from_value(v).unwrap();
    assert_eq!(back.timing.wall_s, results.timing.wall_s);
}

#[test]
fn fixed_node_matches_never_replay_an_opening() {
    let openings = Book::builtin().openings.len() as u64;
    let mut c = config(2 * openings + 2, 100, 1);
    let err = c.check().unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "at most {set_games} {}",
            2 * openings,
            set_games = replab_selfplay::MatchOptions::GAMES
        )),
        "{err}"
    );
    c.games = 2 * openings;
    assert!(c.check().is_ok(), "one pair per opening is allowed");
    // Under a clock a replayed opening is another game: allowed.
    c.games = 2 * openings + 2;
    c.control = Control::parse_tc("1+0.01").unwrap();
    assert!(c.check().is_ok());
}

/// The large built-in book: read by its repository path from anywhere, every opening's final
/// position distinct, and enough of them for a 10,000-game fixed-node match of distinct pairs.
#[test]
fn the_large_book_gives_distinct_openings_for_ten_thousand_games() {
    // Tests run in crates/lab/selfplay, where the repository path names no file: the built-in copy.
    let path = std::path::Path::new(replab_selfplay::book::LARGE_NAME);
    assert!(!path.exists());
    let book = Book::read(path).expect("the built-in copy");
    assert_eq!(book.name, replab_selfplay::book::LARGE_NAME);
    assert!(book.openings.len() >= 5000, "{}", book.openings.len());
    let mut finals = std::collections::HashSet::new();
    for o in &book.openings {
        let end = o.moves.iter().fold(o.start, |p, &m| p.play(m));
        assert!(
            finals.insert(end.key()),
            "line {}: a repeated opening",
            o.line
        );
    }
    let mut c = config(10_000, 100, 1);
    c.book = Arc::new(book);
    assert!(c.check().is_ok(), "5,000 pairs, each its own opening");
}

/// The repetition-rich built-in book: every line a FEN start position of its own.
#[test]
fn the_repetition_book_has_distinct_start_positions() {
    let book = Book::read(std::path::Path::new(replab_selfplay::book::REPETITION_NAME))
        .expect("the built-in copy");
    assert!(book.openings.len() >= 100, "{}", book.openings.len());
    let mut starts = std::collections::HashSet::new();
    for o in &book.openings {
        assert!(o.from_fen && o.moves.is_empty(), "line {}", o.line);
        assert!(
            starts.insert(o.start.key()),
            "line {}: a repeated start",
            o.line
        );
    }
}

/// Under a clock two games sharing a core measure the scheduler: refused, naming the cores.
#[test]
fn a_clock_match_plays_at_most_one_game_per_core() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut c = config(2, 100, cores + 1);
    assert!(c.check().is_ok(), "fixed nodes do not depend on the cores");
    c.control = Control::parse_tc("1+0.01").unwrap();
    let err = c.check().unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "at most {set_threads} {cores}",
            set_threads = replab_selfplay::MatchOptions::THREADS
        )),
        "{err}"
    );
    c.threads = cores;
    assert!(c.check().is_ok());
}

/// Every searched move has its depth counted for its player; a clock records each player's
/// CPU time, fixed nodes do not.
#[test]
fn depths_are_counted_per_searched_move_and_cpu_time_only_under_a_clock() {
    let (r, _) = play(&config(4, 300, 2), &mut |_, _| {}).unwrap();
    let book = Book::builtin();
    for p in &r.pair_results {
        let book_plies = book.openings[p.opening_line_index(&book)].moves.len();
        let searched: u64 = p.depths.iter().map(|d| d.moves()).sum();
        assert_eq!(searched as usize, p.plies[0] + p.plies[1] - 2 * book_plies);
        assert!(p.clock_use.is_none());
        assert_eq!(p.draw_rule, p.ended_by_draw_rule());
    }
    assert!(r.play.median_depth.iter().all(Option::is_some));
    assert!(r.play.clock_use.is_none() && r.play.min_cpu_share.is_none());

    let mut timed = config(2, 0, 1);
    timed.control = Control::parse_tc("0.3+0.003").unwrap();
    let (r, _) = play(&timed, &mut |_, _| {}).unwrap();
    let used = r.play.clock_use.expect("a clock records CPU time");
    assert!(used.0.iter().all(|p| p.cpu_s > 0.0), "{used:?}");
    let share = r.play.min_cpu_share.unwrap();
    assert!(share > 0.0 && share < 1.2, "{share}");
    // Every measured time of a timed match is marked too.
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        replab_interval::unmarked_times(&json, &["match", "meta"]),
        Vec::<String>::new()
    );
}
