//! Searches a position (default WAC.018) to a depth with one detector and prints each iteration:
//! `cargo run --release -p replab-search --example wac018 -- [DETECTOR] [DEPTH] [FEN]`.

use replab_board::Position;
use replab_registry::{RootRule, with_detector};
use replab_search::{SearchConfig, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("off", String::as_str);
    let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(10);
    let fen = args
        .get(2)
        .map_or("R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1", String::as_str);
    let pos = Position::from_fen(fen).expect("valid FEN");
    let config = SearchConfig {
        max_depth: depth,
        ..SearchConfig::default()
    };
    let result = with_detector!(name, RootRule::AnyEarlier, |d| {
        Searcher::new(d, config).search_game_with(&[pos], &[], |it| {
            let pv: Vec<String> = it.pv.iter().map(|m| m.uci().to_string()).collect();
            println!(
                "{:>2} {:>6} {:>10} nodes {:>10} term {:>10} gen {:>11} rep {:>7} {:>9.1} ms {:>6.2} Mnps  {}",
                it.depth,
                it.best_move.map_or("-".into(), |m| m.uci().to_string()),
                it.score.to_string(),
                it.counters.nodes,
                it.counters.terminal_nodes,
                it.counters.generated,
                it.counters.repetitions,
                it.time_ms,
                it.nps() / 1e6,
                pv.join(" ")
            );
        })
    })
    .expect("known detector");
    let t = result.totals();
    println!(
        "total nodes {} term {} gen {} rep {} time {:.0} ms nps {:.2} M",
        t.nodes,
        t.terminal_nodes,
        t.generated,
        t.repetitions,
        result.time_ms(),
        t.nodes as f64 / result.time_ms() / 1000.0
    );
}
