//! How deep the engine profile gets at fixed node budgets: the last completed depth of a
//! search of each position of an EPD file (default `datasets/middlegames.epd`), with the
//! median, minimum and maximum per budget. Deterministic (node budgets, no clock).
//!
//! `cargo run --release -p replab-search --example depth -- [EPD] [NODES,NODES,…] [paper]`
//! (default budgets 1000,20000,100000; `paper` measures the paper profile instead).

use replab_board::{Epd, Position};
use replab_detect::DrawPolicy;
use replab_registry::LinearDetector;
use replab_search::{SearchConfig, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .map_or("datasets/middlegames.epd", String::as_str);
    let budgets: Vec<u64> = args.get(1).map_or(vec![1_000, 20_000, 100_000], |s| {
        s.split(',')
            .map(|n| n.parse().expect("a node count"))
            .collect()
    });
    let paper = args.get(2).is_some_and(|a| a == "paper");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let positions: Vec<Position> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Epd::parse(l).expect("an EPD record").position)
        .collect();
    for nodes in budgets {
        let base = if paper {
            SearchConfig {
                max_depth: 64,
                ..SearchConfig::default()
            }
        } else {
            SearchConfig::engine()
        };
        let config = SearchConfig {
            node_limit: Some(nodes),
            policy: DrawPolicy::Twofold,
            ..base
        };
        let mut depths = Vec::new();
        let mut total = 0;
        for pos in &positions {
            let mut searcher = Searcher::new(LinearDetector::new(), config);
            let result = searcher.search(pos);
            depths.push(result.iterations.last().map_or(0, |it| it.depth));
            total += result.totals().nodes;
        }
        let mut sorted = depths.clone();
        sorted.sort_unstable();
        let median = sorted[sorted.len() / 2];
        println!(
            "nodes {nodes:>7}: median depth {median} [{}, {}] over {} positions ({} nodes in all) {:?}",
            sorted[0],
            sorted[sorted.len() - 1],
            sorted.len(),
            total,
            depths
        );
    }
}
