//! The engine profile: every detector under every policy it serves searches and returns a legal
//! move; repetitions still go through the detector and the policy; the table persists across
//! the searches of a game and `clear_hash` makes a search reproducible; a node limit below depth
//! 1 still returns a searched move; nothing is allocated per node.

use crate::common;

use common::{PERPETUAL, WAC018, pos, signature};
use replab_board::{Move, Position};
use replab_detect::{DrawPolicy, Off};
use replab_registry::{DETECTORS, LinearDetector, with_detector};
use replab_search::{Profile, SearchConfig, SearchResult, Searcher};
use replab_truth::kit::allocations;

/// The engine profile with a node limit.
fn engine(nodes: u64) -> SearchConfig {
    SearchConfig {
        node_limit: Some(nodes),
        ..SearchConfig::engine()
    }
}

/// The start position after Nf3 Nf6 Ng1 Ng8 (the start position again), with its history.
fn shuffled_start() -> (Vec<Position>, Vec<Move>) {
    let mut positions = vec![Position::startpos()];
    let mut moves = Vec::new();
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        let p = *positions.last().unwrap();
        let m = p.parse_san(san).unwrap();
        moves.push(m);
        positions.push(p.play(m));
    }
    (positions, moves)
}

#[test]
fn the_engine_profile_is_a_profile_of_its_own() {
    let e = SearchConfig::engine();
    assert_eq!(e.profile, Profile::Engine);
    assert_eq!(SearchConfig::default().profile, Profile::Paper);
    assert_eq!(SearchConfig::axon_like().profile, Profile::Paper);
    assert!(
        SearchConfig::profiles()
            .iter()
            .all(|(_, c)| c.profile == Profile::Paper),
        "the named paper profiles stay paper profiles (the study iterates them)"
    );
    assert_eq!(Profile::from_name("engine"), Some(Profile::Engine));
    assert_eq!(Profile::from_name("paper"), Some(Profile::Paper));
}

#[test]
fn every_detector_and_policy_searches_in_the_engine_profile() {
    let (positions, moves) = shuffled_start();
    for row in DETECTORS.iter().filter(|d| d.caps.searchable) {
        for policy in DrawPolicy::ALL {
            if replab_registry::check_policy(row.name, policy).is_err() {
                continue;
            }
            let config = SearchConfig {
                policy,
                ..engine(3_000)
            };
            let r = with_detector!(row.name, policy.root_rule(), |d| {
                Searcher::new(d, config).search_game(&positions, &moves)
            })
            .unwrap();
            let best = r.best_move().expect("a move");
            assert!(
                positions.last().unwrap().is_legal(best),
                "{} / {policy}",
                row.name
            );
            assert!(r.iterations.len() >= 2, "{} / {policy}", row.name);
        }
    }
}

#[test]
fn repetitions_go_through_the_detector_and_the_policy() {
    // The start position repeated: under twofold, Nf3 (and Ng1 back) meet repetitions the
    // detector reports; without detection there are none.
    let (positions, moves) = shuffled_start();
    let with = Searcher::new(LinearDetector::new(), engine(20_000)).search_game(&positions, &moves);
    let off = Searcher::new(Off, engine(20_000)).search_game(&positions, &moves);
    assert!(with.totals().repetitions > 0);
    assert!(with.totals().probes > 0);
    assert_eq!(off.totals().repetitions, 0);
    // Strict threefold: one earlier occurrence is never a draw, so fewer are scored.
    let strict = SearchConfig {
        policy: DrawPolicy::Threefold,
        ..engine(20_000)
    };
    let three = Searcher::new(LinearDetector::new(), strict).search_game(&positions, &moves);
    assert!(three.totals().repetitions < with.totals().repetitions);
}

#[test]
fn the_perpetual_check_is_found_as_a_draw() {
    // Figure 1 of the paper: White, a queen down, draws by perpetual check.
    let r = Searcher::new(LinearDetector::new(), engine(200_000)).search(&pos(PERPETUAL));
    assert_eq!(r.score().map(|s| s.value()), Some(0));
    let off = Searcher::new(Off, engine(200_000)).search(&pos(PERPETUAL));
    assert!(off.score().unwrap().value() < -300, "{:?}", off.score());
}

#[test]
fn wac018_is_solved() {
    let r = Searcher::new(LinearDetector::new(), engine(200_000)).search(&pos(WAC018));
    assert_eq!(r.best_move().unwrap().uci().to_string(), "a8h8");
}

#[test]
fn quiet_checks_are_searched_after_late_move_pruning() {
    // WAC.018: Rh8 wins the rook after ...Rxa7 Rh7+, a quiet check at a node where late-move
    // pruning has already started skipping quiet moves. Skipping the check too (as the engine
    // profile did) made it play Kf1 at 10,000 nodes.
    let r = Searcher::new(LinearDetector::new(), engine(10_000)).search(&pos(WAC018));
    assert_eq!(r.best_move().unwrap().uci().to_string(), "a8h8");
}

/// Two searches of a game's successive positions with one searcher.
fn two_moves(s: &mut Searcher<LinearDetector>) -> (SearchResult, SearchResult) {
    let start = Position::startpos();
    let first = s.search(&start);
    let m = first.best_move().unwrap();
    let after = start.play(m);
    let reply = *after.legal_moves().iter().next().unwrap();
    let next = after.play(reply);
    let second = s.search_game(&[start, after, next], &[m, reply]);
    (first, second)
}

#[test]
fn the_table_persists_across_searches_and_clear_hash_forgets_it() {
    let mut kept = Searcher::new(LinearDetector::new(), engine(30_000));
    let (first, second) = two_moves(&mut kept);
    // A fresh searcher searches the second position differently: the first search's table,
    // history and counter moves were used.
    let mut fresh = Searcher::new(LinearDetector::new(), engine(30_000));
    let (_, fresh_second) = {
        let start = Position::startpos();
        let m = first.best_move().unwrap();
        let after = start.play(m);
        let reply = *after.legal_moves().iter().next().unwrap();
        let next = after.play(reply);
        ((), fresh.search_game(&[start, after, next], &[m, reply]))
    };
    assert_ne!(signature(&second), signature(&fresh_second));
    assert!(kept.hashfull() > 0);
    // After clear_hash the searcher is as new: the same two searches, the same counters.
    kept.clear_hash();
    let (again_first, again_second) = two_moves(&mut kept);
    assert_eq!(signature(&again_first), signature(&first));
    assert_eq!(signature(&again_second), signature(&second));
}

#[test]
fn the_paper_profile_still_clears_its_table_at_every_search() {
    let paper = SearchConfig {
        max_depth: 5,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(LinearDetector::new(), paper);
    let start = Position::startpos();
    let a = s.search(&pos(WAC018));
    let _ = s.search(&start);
    let b = s.search(&pos(WAC018));
    assert_eq!(signature(&a), signature(&b));
}

#[test]
fn a_node_limit_below_depth_one_still_returns_a_searched_move() {
    for config in [
        engine(1),
        SearchConfig {
            node_limit: Some(1),
            ..SearchConfig::default()
        },
    ] {
        let r = Searcher::new(LinearDetector::new(), config).search(&Position::startpos());
        assert_eq!(r.iterations.len(), 1, "{:?}", config.profile);
        assert!(r.iterations[0].counters.nodes > 20);
        assert!(Position::startpos().is_legal(r.best_move().unwrap()));
    }
}

#[test]
fn the_engine_profile_allocates_nothing_per_node() {
    let mut s = Searcher::new(LinearDetector::new(), engine(50_000));
    let p = pos(WAC018);
    let _ = s.search(&p);
    let before = allocations();
    let r = s.search(&p);
    let n = allocations() - before;
    let depth = r.iterations.len() as u64;
    assert!(r.totals().nodes > 10_000);
    assert!(n <= 1 + depth, "{n} allocations in {depth} iterations");
}
