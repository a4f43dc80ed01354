//! The searcher's options beyond the defaults: table modes, the halfmove-clock remedies, the
//! extension limit, the evaluation, quiet checks in quiescence, the named profiles, and the
//! UCI controls (stop flag, move time, iteration observer, reconfiguration).

use crate::common;

use common::{PERPETUAL, WAC018, config, pos, run, signature, uci};
use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use replab_board::Position;
use replab_detect::{DrawPolicy, Off};
use replab_registry::{LinearDetector, RootRule, with_detector};
use replab_search::{
    Eval, ExtensionLimit, Iteration, Limits, MATE, SearchConfig, SearchResult, Searcher,
    SetupError, TtMode, check_setup,
};
use replab_tt_thompson::ThompsonDetector;

// ---- Defaults and profiles -------------------------------------------------------------------

#[test]
fn defaults_are_the_behaviour_before_the_options() {
    let d = SearchConfig::default();
    assert_eq!(d.tt_mode, TtMode::On);
    assert_eq!(d.extension_limit, ExtensionLimit::TwiceDepth);
    assert_eq!(d.eval, Eval::Full);
    assert_eq!(d.tt_cutoff_halfmove, None);
    assert_eq!(d.tt_halfmove_bucket, None);
    assert_eq!(d.table_bits(), Some(20));
    assert_eq!(d.effective_tt_mode(), TtMode::On);
    let none = SearchConfig { tt_bits: None, ..d };
    assert_eq!(none.effective_tt_mode(), TtMode::Off);
    assert_eq!(none.table_bits(), None);
}

#[test]
fn named_profiles() {
    let names: Vec<&str> = SearchConfig::profiles().iter().map(|(n, _)| *n).collect();
    assert_eq!(names, SearchConfig::PROFILE_NAMES);
    assert_eq!(
        SearchConfig::profile("default"),
        Some(SearchConfig::default())
    );
    let axon = SearchConfig::profile("axon-like").unwrap();
    assert_eq!(axon, SearchConfig::axon_like());
    assert_eq!(SearchConfig::profile("stockfish"), None);
    assert_eq!(axon.max_depth, 12);
    assert_eq!(axon.policy, DrawPolicy::Twofold);
    assert!(axon.null_move && axon.check_extension && axon.qsearch_checks);
    assert_eq!(axon.extension_limit, ExtensionLimit::MaxPly);
    assert_eq!(axon.tt_mode, TtMode::On);
    assert_eq!(axon.eval, Eval::Full);
    assert_eq!(axon.node_limit, None);
    // The profile searches: WAC.018's key move at the paper's depths (to 9 here, for time).
    let r = run(
        "linear",
        WAC018,
        SearchConfig {
            max_depth: 9,
            ..axon
        },
    );
    assert_eq!(uci(r.best_move()), "a8h8");
}

#[test]
fn names_round_trip() {
    for m in TtMode::ALL {
        assert_eq!(TtMode::from_name(m.name()), Some(m));
    }
    for l in ExtensionLimit::ALL {
        assert_eq!(ExtensionLimit::from_name(l.name()), Some(l));
    }
    assert_eq!(TtMode::from_name("On"), None);
    assert_eq!(Eval::ALL.map(Eval::name), ["full", "material", "tapered"]);
}

// ---- Transposition-table modes ---------------------------------------------------------------

#[test]
fn tt_mode_off_is_no_table() {
    let off = SearchConfig {
        tt_mode: TtMode::Off,
        ..config(8)
    };
    let none = SearchConfig {
        tt_bits: None,
        ..config(8)
    };
    assert_eq!(
        signature(&run("linear", WAC018, off)),
        signature(&run("linear", WAC018, none))
    );
    assert_eq!(Searcher::new(Off, off).tt_bytes(), 0);
    // A detector that keeps its marks in the table is refused either way.
    let thompson = ThompsonDetector::new();
    for c in [off, none] {
        assert!(matches!(
            check_setup(&thompson, &c),
            Err(SetupError::NeedsTable { .. })
        ));
    }
    assert!(check_setup(&thompson, &config(8)).is_ok());
}

fn table_run(name: &str, fen: &str, c: SearchConfig) -> (SearchResult, u64, u64) {
    with_detector!(name, RootRule::AnyEarlier, |d| {
        let mut s = Searcher::new(d, c);
        let r = s.search(&pos(fen));
        let t = s.table_stats();
        (r, t.withheld, t.path_draws)
    })
    .unwrap()
}

#[test]
fn no_path_scores_withholds_exactly_the_draw_affected_scores() {
    let c = SearchConfig {
        tt_mode: TtMode::NoPathScores,
        ..config(8)
    };
    // Without repetition draws (and far from the fifty-move rule) nothing is draw-affected:
    // the tree is the tree of `On`.
    for fen in [WAC018, PERPETUAL] {
        let (r, withheld, draws) = table_run("off", fen, c);
        assert_eq!((withheld, draws), (0, 0), "{fen}");
        assert_eq!(
            signature(&r),
            signature(&run("off", fen, config(8))),
            "{fen}"
        );
    }
    // With repetition draws, the scores above them are withheld and the tree changes; the
    // answers stay right.
    let (on, on_withheld, on_draws) = table_run("linear", PERPETUAL, config(8));
    assert_eq!(on_withheld, 0, "On withholds nothing");
    assert_eq!(
        on_draws,
        on.totals().repetitions,
        "only repetition draws here"
    );
    let (r, withheld, draws) = table_run("linear", PERPETUAL, c);
    assert!(withheld > 0 && draws > 0);
    assert_ne!(signature(&r), signature(&on));
    assert_eq!(r.score().unwrap().value(), 0);
    assert_eq!(uci(r.best_move()), "c1h6");
    let (r, withheld, _) = table_run("linear", WAC018, SearchConfig { max_depth: 9, ..c });
    assert!(withheld > 0);
    assert_eq!(uci(r.best_move()), "a8h8");
    // Upcoming-cycle draws count too (cuckoo).
    let (_, withheld, draws) = table_run("linear+cuckoo", PERPETUAL, c);
    assert!(withheld > 0 && draws > 0);
    // The searcher keeps working for a detector that keeps its marks in the table.
    let (r, _, _) = table_run("tt-thompson", PERPETUAL, c);
    assert_eq!(
        signature(&r),
        signature(&table_run("linear", PERPETUAL, c).0)
    );
}

#[test]
fn fifty_move_draws_are_path_draws() {
    // A clock of 96: every quiet line reaches the fifty-move rule inside the search.
    let fen = "8/8/4k3/8/8/3K4/8/R7 w - - 96 120";
    let c = SearchConfig {
        tt_mode: TtMode::NoPathScores,
        ..config(6)
    };
    let (_, withheld, draws) = table_run("off", fen, c);
    assert!(
        draws > 0 && withheld > 0,
        "{draws} draws, {withheld} withheld"
    );
}

#[test]
fn no_draw_scores_and_moves_only() {
    let c = |tt_mode| SearchConfig {
        tt_mode,
        ..config(8)
    };
    let (r, withheld, _) = table_run("linear", PERPETUAL, c(TtMode::NoDrawScores));
    assert!(withheld > 0);
    assert_eq!(r.score().unwrap().value(), 0);
    // Moves only: every stored result is withheld; the answers stay right.
    let (r, withheld, _) = table_run("linear", PERPETUAL, c(TtMode::MovesOnly));
    assert!(withheld > 0);
    assert_eq!(r.score().unwrap().value(), 0);
    assert_eq!(uci(r.best_move()), "c1h6");
    let (r, _, _) = table_run("linear", WAC018, c(TtMode::MovesOnly));
    assert_eq!(uci(r.best_move()), "a8h8");
}

#[test]
fn halfmove_cutoff_limit() {
    // A limit of 0 forbids every cut-off while storing as usual: the same tree as moves-only
    // (both keep the table's move for ordering).
    for fen in [WAC018, PERPETUAL] {
        let no_cuts = SearchConfig {
            tt_cutoff_halfmove: Some(0),
            ..config(8)
        };
        let moves_only = SearchConfig {
            tt_mode: TtMode::MovesOnly,
            ..config(8)
        };
        let a = run("linear", fen, no_cuts);
        assert_eq!(signature(&a), signature(&run("linear", fen, moves_only)));
        assert_ne!(signature(&a), signature(&run("linear", fen, config(8))));
        // A limit the clock never reaches changes nothing.
        let far = SearchConfig {
            tt_cutoff_halfmove: Some(90),
            ..config(8)
        };
        assert_eq!(
            signature(&run("linear", fen, far)),
            signature(&run("linear", fen, config(8)))
        );
    }
    // Near the fifty-move rule it does.
    let fen = "8/8/4k3/8/8/3K4/8/R7 w - - 86 120";
    let c = SearchConfig {
        tt_cutoff_halfmove: Some(90),
        ..config(7)
    };
    assert_ne!(
        signature(&run("linear", fen, c)),
        signature(&run("linear", fen, config(7)))
    );
}

#[test]
fn halfmove_buckets_split_the_table() {
    // The clock starts at 0: a width the clock never reaches leaves every key plain.
    let wide = SearchConfig {
        tt_halfmove_bucket: Some(1000),
        ..config(9)
    };
    assert_eq!(
        signature(&run("linear", WAC018, wide)),
        signature(&run("linear", WAC018, config(9)))
    );
    // Buckets of 4 half-moves separate transpositions reached with different clocks.
    let narrow = SearchConfig {
        tt_halfmove_bucket: Some(4),
        ..config(9)
    };
    let r = run("linear", WAC018, narrow);
    assert_ne!(signature(&r), signature(&run("linear", WAC018, config(9))));
    assert_eq!(uci(r.best_move()), "a8h8");
    // Width 0 counts as 1 (no division by zero).
    let zero = SearchConfig {
        tt_halfmove_bucket: Some(0),
        ..config(6)
    };
    let one = SearchConfig {
        tt_halfmove_bucket: Some(1),
        ..config(6)
    };
    assert_eq!(
        signature(&run("linear", WAC018, zero)),
        signature(&run("linear", WAC018, one))
    );
}

// ---- Extensions, evaluation, quiescence ----------------------------------------------------

#[test]
fn uncapped_check_extension_grows_other_trees() {
    // Cross-checks with queens: the twice-depth cap binds, so lifting it changes the tree. (It
    // binds only where more than half the moves of a line give check: in a plain
    // check-and-evade line the depth still falls by one every two plies.)
    let fen = "r5r1/pQ5p/1qp2R2/2k1p3/4P3/2PP4/P1P3PP/6K1 w - - 0 1";
    let capped = run("linear", fen, config(4));
    let uncapped = run(
        "linear",
        fen,
        SearchConfig {
            extension_limit: ExtensionLimit::MaxPly,
            ..config(4)
        },
    );
    assert_ne!(capped.totals().nodes, uncapped.totals().nodes);
    assert_eq!(uci(uncapped.best_move()), "f6c6");
    // Without the check extension the limit is irrelevant.
    let no_ext = |extension_limit| SearchConfig {
        check_extension: false,
        extension_limit,
        ..config(4)
    };
    assert_eq!(
        signature(&run("linear", fen, no_ext(ExtensionLimit::TwiceDepth))),
        signature(&run("linear", fen, no_ext(ExtensionLimit::MaxPly)))
    );
}

#[test]
fn material_only_evaluation() {
    // The piece-square tables make the opening moves differ; material alone does not.
    let start = Position::START_FEN;
    let full = run("off", start, config(1));
    let material = run(
        "off",
        start,
        SearchConfig {
            eval: Eval::Material,
            ..config(1)
        },
    );
    assert!(full.score().unwrap().value() > 0);
    assert_eq!(material.score().unwrap().value(), 0);
    // Material alone still sees a mate and a won rook.
    let r = run(
        "linear",
        "8/8/8/8/8/5K2/7Q/5k2 w - - 0 1",
        SearchConfig {
            eval: Eval::Material,
            ..config(4)
        },
    );
    assert_eq!(r.score().unwrap().value(), MATE - 1);
    let r = run(
        "linear",
        WAC018,
        SearchConfig {
            eval: Eval::Material,
            ..config(8)
        },
    );
    assert_ne!(signature(&r), signature(&run("linear", WAC018, config(8))));
}

#[test]
fn quiet_checks_in_quiescence() {
    // White to move; black threatens the quiet back-rank mate ...Re1#. At depth 1 the plain
    // quiescence does not see it and grabs the pawn; with quiet checks it does, and defends.
    let fen = "4r1k1/5ppp/8/8/8/1p6/Q4PPP/6K1 w - - 0 1";
    let plain = run("linear", fen, config(1));
    assert_eq!(uci(plain.best_move()), "a2b3");
    let checks = run(
        "linear",
        fen,
        SearchConfig {
            qsearch_checks: true,
            ..config(1)
        },
    );
    assert_ne!(uci(checks.best_move()), "a2b3");
    assert!(checks.score().unwrap() < plain.score().unwrap());
    // A mate in 3 by checks is seen one iteration earlier.
    let mate3 = "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1";
    let first_mate = |c: SearchConfig| {
        run("linear", mate3, c)
            .iterations
            .iter()
            .find(|it| it.score.mate_in() == Some(3))
            .map(|it| it.depth)
    };
    let with = first_mate(SearchConfig {
        qsearch_checks: true,
        ..config(4)
    });
    let without = first_mate(config(4));
    assert!(with.unwrap() < without.unwrap(), "{with:?} {without:?}");
}

// ---- UCI controls -----------------------------------------------------------------------------

#[test]
fn empty_limits_change_nothing() {
    let mut s = Searcher::new(LinearDetector::new(), config(8));
    let p = pos(WAC018);
    let plain = s.search(&p);
    let mut seen = Vec::new();
    let limited =
        s.search_game_limited(&[p], &[], &Limits::default(), &mut |it| seen.push(it.depth));
    assert_eq!(signature(&limited), signature(&plain));
    assert_eq!(seen, (1..=8).collect::<Vec<_>>());
    // A stop flag never set, a far deadline: the same tree (they are only looked at).
    let limits = Limits {
        stop: Some(Arc::new(AtomicBool::new(false))),
        movetime: Some(Duration::from_secs(3600)),
        ..Limits::default()
    };
    let watched = s.search_game_limited(&[p], &[], &limits, &mut |_| {});
    assert!(watched.completed);
    assert_eq!(signature(&watched), signature(&plain));
    // With a node limit too.
    s.set_config(SearchConfig {
        node_limit: Some(20_000),
        ..config(20)
    })
    .unwrap();
    let a = s.search(&p);
    let b = s.search_game_limited(&[p], &[], &limits, &mut |_| {});
    assert!(!a.completed && !b.completed);
    assert_eq!(signature(&a), signature(&b));
}

#[test]
fn stop_flag_from_another_thread() {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(stop.clone()),
        ..Limits::default()
    };
    // The flag is set on a worker of rayon's pool while this thread searches.
    let (set_tx, set_rx) = std::sync::mpsc::channel();
    {
        let stop = stop.clone();
        rayon::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
            let _ = set_tx.send(Instant::now());
        });
    }
    let mut s = Searcher::new(LinearDetector::new(), config(30));
    let mut observed: Vec<Iteration> = Vec::new();
    let r = s.search_game_limited(&[pos(WAC018)], &[], &limits, &mut |it| {
        observed.push(it.clone())
    });
    let returned = Instant::now();
    let set_at = set_rx.recv().unwrap();
    assert!(
        returned.duration_since(set_at) < Duration::from_millis(500),
        "stopped {:?} after the flag",
        returned.duration_since(set_at)
    );
    assert!(!r.completed);
    assert!(!r.iterations.is_empty() && r.iterations.len() < 30);
    assert!(r.best_move().is_some());
    // The observer saw each completed iteration once, in increasing depth.
    assert_eq!(observed, r.iterations);
    for (i, it) in observed.iter().enumerate() {
        assert_eq!(it.depth, i as u32 + 1);
    }
}

#[test]
fn a_flag_already_set_still_gives_one_iteration() {
    let limits = Limits {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    };
    let mut s = Searcher::new(LinearDetector::new(), config(30));
    let r = s.search_game_limited(&[pos(WAC018)], &[], &limits, &mut |_| {});
    assert_eq!(r.iterations.len(), 1);
    assert!(!r.completed);
    assert!(r.best_move().is_some());
}

#[test]
fn move_time_and_deadline() {
    let mut s = Searcher::new(LinearDetector::new(), config(40));
    for limits in [
        Limits {
            movetime: Some(Duration::from_millis(200)),
            ..Limits::default()
        },
        Limits {
            deadline: Some(Instant::now() + Duration::from_millis(200)),
            movetime: Some(Duration::from_secs(60)),
            ..Limits::default()
        },
    ] {
        let start = Instant::now();
        let r = s.search_game_limited(&[pos(WAC018)], &[], &limits, &mut |_| {});
        let took = start.elapsed();
        assert!(took < Duration::from_millis(1200), "{took:?}");
        assert!(!r.completed && !r.iterations.is_empty());
    }
}

#[test]
fn reconfigure_and_clear_hash() {
    let mut s = Searcher::new(LinearDetector::new(), config(7));
    let first = s.search(&pos(PERPETUAL));
    s.clear_hash();
    assert_eq!(signature(&s.search(&pos(PERPETUAL))), signature(&first));
    // Resize the table, then switch it off, then back: each time the fresh searcher's result.
    for c in [
        SearchConfig {
            tt_bits: Some(12),
            ..config(7)
        },
        SearchConfig {
            tt_mode: TtMode::Off,
            ..config(7)
        },
        config(7),
    ] {
        s.set_config(c).unwrap();
        assert_eq!(s.config(), &c);
        assert_eq!(
            signature(&s.search(&pos(PERPETUAL))),
            signature(&Searcher::new(LinearDetector::new(), c).search(&pos(PERPETUAL)))
        );
    }
    assert_eq!(s.tt_bytes(), 16 << 20);
    // A detector that needs the table refuses a configuration without one, and keeps its own.
    let mut t = Searcher::new(ThompsonDetector::new(), config(5));
    assert!(
        t.set_config(SearchConfig {
            tt_mode: TtMode::Off,
            ..config(5)
        })
        .is_err()
    );
    assert_eq!(t.config(), &config(5));
}

#[test]
fn root_moves_restrict_the_root() {
    let p = pos(WAC018);
    let mut s = Searcher::new(LinearDetector::new(), config(3));
    let free = s.search(&p).best_move().unwrap();
    let other = p
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| m != free)
        .unwrap();
    let only = Limits {
        root_moves: vec![other],
        ..Limits::default()
    };
    let r = s.search_game_limited(&[p], &[], &only, &mut |_| {});
    assert!(r.completed);
    assert!(r.iterations.iter().all(|it| it.best_move == Some(other)));
    // No legal move among them: every move is searched.
    let none = Limits {
        root_moves: vec![replab_board::Move::NULL],
        ..Limits::default()
    };
    let r = s.search_game_limited(&[p], &[], &none, &mut |_| {});
    assert_eq!(r.best_move(), Some(free));
}

#[test]
fn excluded_root_moves_leave_the_root() {
    let p = pos(WAC018);
    let mut s = Searcher::new(LinearDetector::new(), config(3));
    let free = s.search(&p);
    let best = free.best_move().unwrap();
    let without = Limits {
        excluded_root_moves: vec![best],
        ..Limits::default()
    };
    let r = s.search_game_limited(&[p], &[], &without, &mut |_| {});
    assert!(r.completed);
    assert!(r.iterations.iter().all(|it| it.best_move != Some(best)));
    assert!(r.score().unwrap() <= free.score().unwrap());
    // Every move excluded: every move is searched.
    let all = Limits {
        excluded_root_moves: p.legal_moves().iter().copied().collect(),
        ..Limits::default()
    };
    let r = s.search_game_limited(&[p], &[], &all, &mut |_| {});
    assert_eq!(r.best_move(), Some(best));
    // An unrestricted search afterwards is the same as before (the restricted roots stored
    // nothing the next search could see; every search clears a local table anyway).
    assert_eq!(s.search(&p).signature(), free.signature());
}

#[test]
fn the_observer_sees_root_moves_and_progress_and_changes_nothing() {
    use replab_search::{Observer, Progress, SharedTable};
    use std::sync::Mutex;
    let p = pos(WAC018);
    let mut s = Searcher::new(LinearDetector::new(), config(6));
    let plain = s.search(&p);
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let limits = Limits {
        observer: Some(Observer(Arc::new({
            let seen = seen.clone();
            move |p: &Progress| seen.lock().unwrap().push(*p)
        }))),
        ..Limits::default()
    };
    let observed = s.search_game_limited(&[p], &[], &limits, &mut |_| {});
    assert_eq!(signature(&observed), signature(&plain));
    let seen = seen.lock().unwrap();
    let legal = p.legal_moves().len() as u32;
    for depth in 1..=6 {
        // Every root move of every iteration, numbered from 1.
        let numbers: Vec<u32> = seen
            .iter()
            .filter(|q| q.depth == depth)
            .filter_map(|q| q.root_move.map(|(_, n)| n))
            .collect();
        assert_eq!(numbers, (1..=legal).collect::<Vec<_>>(), "depth {depth}");
    }
    // Periodic calls with the nodes so far, increasing.
    let periodic: Vec<&Progress> = seen.iter().filter(|q| q.root_move.is_none()).collect();
    assert!(!periodic.is_empty());
    assert!(periodic.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    assert!(periodic.iter().all(|q| q.depth >= 2));
    // Each iteration reports its deepest ply: quiescence and extensions go beyond the depth.
    for it in &observed.iterations {
        assert!(it.seldepth >= it.depth, "{} {}", it.depth, it.seldepth);
    }
    // The shared table's fill, sampled over its first 1000 slots.
    let table = SharedTable::new(12);
    assert_eq!(table.hashfull(0), 0);
    let mut t =
        Searcher::with_shared_table(LinearDetector::new(), config(6), table.clone()).unwrap();
    t.search(&p);
    let full = table.hashfull(0);
    assert!(full > 0 && full <= 1000, "{full}");
    table.clear();
    assert_eq!(table.hashfull(0), 0);
    // Depth and node limit changed between searches, the rest kept.
    t.set_depth_and_nodes(2, Some(1_000_000));
    assert_eq!(t.config().max_depth, 2);
    assert_eq!(t.search(&p).iterations.len(), 2);
}
