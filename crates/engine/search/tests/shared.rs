//! A searcher on a shared transposition table ([`SharedTable`], Lazy SMP's) searches alone
//! exactly as one on its own table: every detector, with game histories, `tt-thompson`'s marks
//! included. And a later iteration start (`set_first_depth`) only drops the early iterations.

use crate::common;

use common::{PERPETUAL, WAC018, config, pos, signature};
use replab_board::{Move, Position};
use replab_registry::{RootRule, SEARCH_DETECTORS, with_detector};
use replab_search::{SearchConfig, SearchResult, Searcher, SharedTable};

fn game(fen: &str, sans: &[&str]) -> (Vec<Position>, Vec<Move>) {
    replab_truth::kit::game(Position::from_fen(fen).unwrap(), sans)
}

fn local(name: &str, positions: &[Position], moves: &[Move], c: SearchConfig) -> SearchResult {
    with_detector!(name, RootRule::AnyEarlier, |d| Searcher::new(d, c)
        .search_game(positions, moves))
    .unwrap()
}

fn shared(
    name: &str,
    table: &SharedTable,
    positions: &[Position],
    moves: &[Move],
    c: SearchConfig,
) -> SearchResult {
    table.clear();
    with_detector!(name, RootRule::AnyEarlier, |d| {
        Searcher::with_shared_table(d, c, table.clone())
            .unwrap()
            .search_game(positions, moves)
    })
    .unwrap()
}

#[test]
fn one_searcher_on_a_shared_table_searches_as_on_its_own() {
    let c = SearchConfig {
        tt_bits: Some(14),
        ..config(6)
    };
    let table = SharedTable::new(14);
    let games = [
        game(PERPETUAL, &["Qh6+", "Kg8", "Qg5+", "Kh8"]),
        game(WAC018, &["Kh1", "Ra3", "Kg1", "Ra2"]),
    ];
    for name in SEARCH_DETECTORS.iter().copied().chain(["off"]) {
        for (positions, moves) in &games {
            let a = local(name, positions, moves, c);
            let b = shared(name, &table, positions, moves, c);
            assert_eq!(signature(&a), signature(&b), "{name}");
        }
        // Twice on the same table (cleared in between): the same again.
        let (positions, moves) = &games[0];
        assert_eq!(
            signature(&shared(name, &table, positions, moves, c)),
            signature(&local(name, positions, moves, c)),
            "{name}, second search"
        );
    }
    let s = Searcher::with_shared_table(replab_detect::Off, c, table.clone()).unwrap();
    assert_eq!(s.tt_bytes(), 16 << 14);
}

#[test]
fn a_searcher_without_a_table_ignores_the_shared_one() {
    let c = SearchConfig {
        tt_bits: None,
        ..config(5)
    };
    let table = SharedTable::new(10);
    let mut s = Searcher::with_shared_table(replab_detect::Off, c, table).unwrap();
    assert_eq!(s.tt_bytes(), 0);
    let r = s.search(&pos(WAC018));
    let plain = local("off", &[pos(WAC018)], &[], c);
    assert_eq!(signature(&r), signature(&plain));
    assert!(
        Searcher::with_shared_table(
            replab_tt_thompson::ThompsonDetector::new(),
            c,
            SharedTable::new(4)
        )
        .is_err(),
        "tt-thompson needs a table"
    );
}

#[test]
fn a_later_first_depth_skips_the_early_iterations() {
    let c = config(5);
    let mut s = Searcher::new(replab_registry::LinearDetector::new(), c);
    let full = s.search(&pos(PERPETUAL));
    s.set_first_depth(3);
    let late = s.search(&pos(PERPETUAL));
    assert_eq!(
        late.iterations.iter().map(|i| i.depth).collect::<Vec<_>>(),
        [3, 4, 5]
    );
    assert!(late.completed);
    s.set_first_depth(0);
    assert_eq!(signature(&s.search(&pos(PERPETUAL))), signature(&full));
}
